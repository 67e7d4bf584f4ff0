import ColorCubeCore
import Foundation
import Testing

@Suite struct AtomicFileTests {
    static func names(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    static func touch(_ path: String, _ text: String = "x") throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test func temporaryNamesSayWhoseAndForWhat() {
        #expect(AtomicFile.temporaryName(for: "photo.jpg", processID: 4242, tag: "1a2z") == ".photo.jpg.colorcube-4242-1a2z.tmp")
        #expect(AtomicFile.temporaryMarker == "colorcube")
    }

    @Test func thePatternAcceptsOnlyThisOutputsTemporaries() {
        #expect(AtomicFile.isTemporary(".photo.jpg.colorcube-4242-1a2z.tmp", of: "photo.jpg"))
        #expect(AtomicFile.isTemporary(".photo.jpg.colorcube-1-0.tmp", of: "photo.jpg"))
        let foreign = [
            "photo.jpg",                                   // the output itself
            ".photo.jpg.colorcube-4242-1a2z.tmp.jpg",      // another output's name
            ".photo.jpg.png.colorcube-4242-1a2z.tmp",      // the temporary of photo.jpg.png
            ".photo.colorcube-4242-1a2z.tmp",              // the temporary of photo
            ".xphoto.jpg.colorcube-4242-1a2z.tmp",
            ".photo.jpg.colorcube-4242-1A2Z.tmp",          // tags are lower-case base 36
            ".photo.jpg.colorcube-42a-1a2z.tmp",           // process ids are decimal
            ".photo.jpg.colorcube--1a2z.tmp",
            ".photo.jpg.colorcube-4242-.tmp",
            ".photo.jpg.colorcube-4242-1a2z-9.tmp",
            ".photo.jpg.colorcube-4242.tmp",
            ".photo.jpg.4242-1a2z.tmp",                    // the old, unmarked form
            "photo.jpg.colorcube-4242-1a2z.tmp",           // not hidden
            ".photo.jpg.colorcube-4242-1a2z.tmp~",
        ]
        for name in foreign {
            #expect(!AtomicFile.isTemporary(name, of: "photo.jpg"), "\(name)")
        }
        // The output "photo.jpg.colorcube-1-a" has temporaries of its own, which are not photo.jpg's.
        let lookalike = AtomicFile.temporaryName(for: "photo.jpg.colorcube-1-a", processID: 7, tag: "b")
        #expect(AtomicFile.isTemporary(lookalike, of: "photo.jpg.colorcube-1-a"))
        #expect(!AtomicFile.isTemporary(lookalike, of: "photo.jpg"))
    }

    @Test func writingLeavesOnlyTheOutputAndUsesTheOwnedName() throws {
        let folder = try TemporaryDirectory()
        let output = folder.file("out.txt")
        var seen = ""
        let result = try AtomicFile.write(to: output) { temporary in
            seen = temporary
            try Self.touch(temporary, "complete")
            return 7
        }
        #expect(result == 7)
        let (seenFolder, seenName) = FilePath.split(seen)
        #expect(seenFolder == folder.path)
        #expect(seenName.hasPrefix(".out.txt.colorcube-\(getpid())-"))
        #expect(AtomicFile.isTemporary(seenName, of: "out.txt"))
        #expect(try Self.names(in: folder.path) == ["out.txt"])
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "complete")
    }

    @Test func aFailedWriteLeavesTheOldOutputAndNoTemporary() throws {
        struct Stop: Error, Equatable {}
        let folder = try TemporaryDirectory()
        let output = folder.file("out.txt")
        try Self.touch(output, "old")
        #expect(throws: Stop()) {
            try AtomicFile.write(to: output) { temporary in
                try Self.touch(temporary, "half")
                throw Stop()
            }
        }
        #expect(try Self.names(in: folder.path) == ["out.txt"])
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "old")
    }

    @Test func aFolderIsNotAnOutput() throws {
        let folder = try TemporaryDirectory()
        #expect(throws: FileError.isAFolder(path: folder.path)) {
            try AtomicFile.write(to: folder.path) { _ in }
        }
        let missing = folder.file("no/such/folder/out.txt")
        #expect(throws: FileError.cannotCreate(path: missing, reason: "No such file or directory")) {
            try AtomicFile.write(to: missing) { _ in }
        }
    }

    @Test func staleTemporariesOfOneOutputAreRemovedAndNothingElse() throws {
        let folder = try TemporaryDirectory()
        let stale = [
            AtomicFile.temporaryName(for: "a.jpg", processID: 111, tag: "x1"),
            AtomicFile.temporaryName(for: "a.jpg", processID: 222, tag: "zz9"),
        ]
        let kept = [
            "a.jpg",
            "b.jpg",
            AtomicFile.temporaryName(for: "b.jpg", processID: 111, tag: "x1"),     // another output's
            AtomicFile.temporaryName(for: "a.jpg.png", processID: 111, tag: "x1"), // a look-alike output's
            ".a.jpg.colorcube-111-X1.tmp",                                         // not our pattern
            ".a.jpg.333-abc.tmp",                                                  // the old form, owner unknown
            "notes.txt",
        ]
        for name in stale + kept { try Self.touch(folder.file(name)) }
        let removed = AtomicFile.removeStaleTemporaries(of: folder.file("a.jpg"))
        #expect(removed == stale.map(folder.file).sorted())
        #expect(try Self.names(in: folder.path) == kept.sorted())
        // Nothing left to remove; an output whose folder does not exist has none.
        #expect(AtomicFile.removeStaleTemporaries(of: folder.file("a.jpg")) == [])
        #expect(AtomicFile.removeStaleTemporaries(of: folder.file("missing/a.jpg")) == [])
    }
}

/// Two writers of one output: a live writer's temporary is never taken for a leftover, whichever
/// run looks, and both writers finish.
@Suite struct AtomicFileConcurrencyTests {
    static func names(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    static func text(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test func aLiveWritersTemporaryIsNeverRemovedAndADeadOnesIs() throws {
        let folder = try TemporaryDirectory()
        let live = try HeldTemporary(folder.file(AtomicFile.temporaryName(for: "a.jpg", processID: 111, tag: "live")))
        let emptyLive = try HeldTemporary(folder.file(AtomicFile.temporaryName(for: "a.jpg", processID: 111, tag: "new")),
                                          contents: "")
        let dead = try HeldTemporary(folder.file(AtomicFile.temporaryName(for: "a.jpg", processID: 222, tag: "dead")))
        let deadEmpty = try HeldTemporary(folder.file(AtomicFile.temporaryName(for: "a.jpg", processID: 222, tag: "empty")),
                                          contents: "")
        dead.release()
        deadEmpty.release()
        #expect(AtomicFile.removeStaleTemporaries(of: folder.file("a.jpg")) == [dead.path, deadEmpty.path].sorted())
        #expect(try Self.names(in: folder.path) == [live.path, emptyLive.path].map { FilePath.split($0).name }.sorted())
        // The writer ends without renaming (killed): now its temporary is a leftover.
        live.release()
        emptyLive.release()
        #expect(AtomicFile.removeStaleTemporaries(of: folder.file("a.jpg")) == [live.path, emptyLive.path].sorted())
        #expect(try Self.names(in: folder.path) == [])
    }

    @Test func aWriteInProgressKeepsItsTemporaryWhileOthersCleanAndWrite() throws {
        let folder = try TemporaryDirectory()
        let output = folder.file("out.txt")
        var inner: AtomicFile.Written<Void>?
        let outer = try AtomicFile.write(to: output, overlap: .replace) { temporary in
            // Nothing written yet (a newborn temporary), then half of it.
            #expect(AtomicFile.removeStaleTemporaries(of: output) == [])
            try Data("outer".utf8).write(to: URL(fileURLWithPath: temporary))
            #expect(AtomicFile.removeStaleTemporaries(of: output) == [])
            // A second writer of the same output, start to finish, meanwhile.
            inner = try AtomicFile.write(to: output, overlap: .replace) { second in
                try Data("inner".utf8).write(to: URL(fileURLWithPath: second))
            }
            #expect(FileManager.default.fileExists(atPath: temporary))
            #expect(try Self.text(output) == "inner")
        }
        #expect(inner?.finishedElsewhere == false)
        #expect(inner?.staleTemporariesRemoved == [])
        #expect(outer.finishedElsewhere)
        #expect(try Self.text(output) == "outer")
        #expect(try Self.names(in: folder.path) == ["out.txt"])
    }

    @Test func keepLeavesTheFileAnotherWriterFinishedFirst() throws {
        let folder = try TemporaryDirectory()
        let output = folder.file("out.txt")
        let outer = try AtomicFile.write(to: output, overlap: .keep) { temporary in
            try Data("late".utf8).write(to: URL(fileURLWithPath: temporary))
            try AtomicFile.write(to: output) { second in
                try Data("first".utf8).write(to: URL(fileURLWithPath: second))
            }
            return 5
        }
        #expect(outer.value == 5)
        #expect(outer.finishedElsewhere)
        #expect(try Self.text(output) == "first")
        #expect(try Self.names(in: folder.path) == ["out.txt"])
    }

    @Test func anOutputNobodyElseTouchedIsReplacedQuietly() throws {
        let folder = try TemporaryDirectory()
        let output = folder.file("out.txt")
        try Data("old".utf8).write(to: URL(fileURLWithPath: output))
        for overlap in [AtomicFile.Overlap.keep, .replace] {
            let written = try AtomicFile.write(to: output, overlap: overlap) { temporary in
                try Data("new \(overlap)".utf8).write(to: URL(fileURLWithPath: temporary))
            }
            #expect(!written.finishedElsewhere)
            #expect(try Self.text(output) == "new \(overlap)")
        }
    }

    @Test func everyWriteRemovesTheLeftoversOfItsDestinationOnly() throws {
        let folder = try TemporaryDirectory()
        let output = folder.file("out.txt")
        let leftover = folder.file(AtomicFile.temporaryName(for: "out.txt", processID: 9, tag: "k"))
        let live = try HeldTemporary(folder.file(AtomicFile.temporaryName(for: "out.txt", processID: 8, tag: "l")))
        let other = folder.file(AtomicFile.temporaryName(for: "other.txt", processID: 9, tag: "k"))
        for path in [leftover, other] { try Data("half".utf8).write(to: URL(fileURLWithPath: path)) }
        let written = try AtomicFile.write(to: output, overlap: .replace) { temporary in
            try Data("done".utf8).write(to: URL(fileURLWithPath: temporary))
        }
        #expect(written.staleTemporariesRemoved == [leftover])
        #expect(try Self.names(in: folder.path) == [live.path, other, output].map { FilePath.split($0).name }.sorted())
    }

    @Test func onlyRegularFilesAreTakenForLeftovers() throws {
        let folder = try TemporaryDirectory()
        let pipe = folder.file(AtomicFile.temporaryName(for: "a.jpg", processID: 1, tag: "p"))
        let link = folder.file(AtomicFile.temporaryName(for: "a.jpg", processID: 1, tag: "l"))
        let directory = folder.file(AtomicFile.temporaryName(for: "a.jpg", processID: 1, tag: "d"))
        #expect(mkfifo(pipe, 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        // A pipe must not hang the cleaner, nor a link lead it elsewhere.
        #expect(AtomicFile.removeStaleTemporaries(of: folder.file("a.jpg")) == [])
        #expect(try Self.names(in: folder.path).count == 3)
    }

    @Test func aTemporaryRemovedByAnotherProgramIsNamedAsSuch() throws {
        let folder = try TemporaryDirectory()
        let output = folder.file("out.txt")
        try Data("old".utf8).write(to: URL(fileURLWithPath: output))
        var seen = ""
        let error = #expect(throws: FileError.self) {
            try AtomicFile.write(to: output) { temporary in
                seen = temporary
                try Data("new".utf8).write(to: URL(fileURLWithPath: temporary))
                unlink(temporary)
            }
        }
        let name = FilePath.split(seen).name
        #expect(error == .cannotRename(from: seen, to: output, reason: "its temporary file \(name) was removed by another "
            + "program while the file was being written; run again to write it"))
        #expect(error?.description == "cannot write \(output): its temporary file \(name) was removed by another program "
            + "while the file was being written; run again to write it")
        #expect(try Self.text(output) == "old")
    }

    @Test func aFolderRemovedWhileWritingIsNamedAsSuch() throws {
        let folder = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: folder.file("out"), withIntermediateDirectories: false)
        let output = folder.file("out/a.txt")
        var seen = ""
        let error = #expect(throws: FileError.self) {
            try AtomicFile.write(to: output) { temporary in
                seen = temporary
                try FileManager.default.moveItem(atPath: folder.file("out"), toPath: folder.file("moved"))
            }
        }
        #expect(error == .cannotRename(from: seen, to: output,
                                       reason: "the folder \(folder.file("out")) was removed or renamed while the file was being written"))
    }

    @Test func aFolderThatTookTheNameIsNamedAsSuch() throws {
        let folder = try TemporaryDirectory()
        let output = folder.file("out.txt")
        var seen = ""
        let error = #expect(throws: FileError.self) {
            try AtomicFile.write(to: output) { temporary in
                seen = temporary
                try Data("new".utf8).write(to: URL(fileURLWithPath: temporary))
                try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: false)
                try Data("x".utf8).write(to: URL(fileURLWithPath: output + "/inside"))
            }
        }
        #expect(error == .cannotRename(from: seen, to: output, reason: "a folder named out.txt appeared there while the file "
            + "was being written; move it away or choose another output name"))
        // The temporary went with the failure; the folder someone made stays.
        #expect(try Self.names(in: folder.path) == ["out.txt"])
    }
}
