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
