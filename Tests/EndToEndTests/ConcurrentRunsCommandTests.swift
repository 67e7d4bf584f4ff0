#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// colorcube runs beside other runs writing the same outputs: another process's live temporary is
/// left alone, a killed one's removed, and a run stopped mid-write and continued after its
/// successor has finished ends cleanly.
@Suite struct ConcurrentRunsCommandTests {
    /// Creates `path` holding some data and locks it as a live colorcube writer does (an exclusive
    /// flock); the returned descriptor holds the lock until closed.
    static func holdAsLiveWriter(_ path: String) throws -> Int32 {
        try Data("half written".utf8).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0, flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { throw CocoaError(.fileLocking) }
        return descriptor
    }

    @Test func applyLeavesAnotherProcesssLiveTemporaryAndRemovesAKilledOnes() throws {
        let scratch = try Scratch()
        try FileManager.default.createDirectory(atPath: scratch.file("in"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: scratch.file("out"), withIntermediateDirectories: true)
        try ApplyCommandTests.writePhoto(scratch.file("in/a.png"))
        try ApplyCommandTests.writePhoto(scratch.file("in/b.png"))
        let look = try ApplyCommandTests.writeInvertLook(scratch)
        let live = try Self.holdAsLiveWriter(scratch.file("out/.a.png.colorcube-77-live.tmp"))
        defer { close(live) }
        try Data("half".utf8).write(to: URL(fileURLWithPath: scratch.file("out/.b.png.colorcube-78-dead.tmp")))
        let result = try CommandRunner.run(["apply", look, scratch.file("in"), "-o", scratch.file("out")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "colorcube: 2 done, 0 skipped, 0 failed; removed 1 temporary file left by an interrupted run\n")
        #expect(scratch.listing("out") == [".a.png.colorcube-77-live.tmp", "a.png", "b.png"])
    }

    @Test func convertLeavesAnotherProcesssLiveTemporaryAndRemovesAKilledOnes() throws {
        let scratch = try Scratch()
        let look = try ApplyCommandTests.writeInvertLook(scratch)
        let live = try Self.holdAsLiveWriter(scratch.file(".look.cube.colorcube-77-live.tmp"))
        defer { close(live) }
        try Data("half".utf8).write(to: URL(fileURLWithPath: scratch.file(".look.cube.colorcube-78-dead.tmp")))
        let result = try CommandRunner.run(["convert", look, "-o", scratch.file("look.cube")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(scratch.listing().filter { $0.contains("look.cube") } == [".look.cube.colorcube-77-live.tmp", "look.cube"])
    }

    /// Starts `colorcube arguments...` and stops it (SIGSTOP) while it has a temporary file in
    /// `folder`; returns the stopped process, or nil when it finished before it could be caught.
    static func startAndStopMidWrite(_ arguments: [String], folder: String) throws -> (Process, Pipe)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandRunner.binary)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        for _ in 0..<5000 {
            guard kill(pid, SIGSTOP) == 0, process.isRunning else { break }
            let names = (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String]) ?? []
            if names.contains(where: { $0.contains(".colorcube-\(pid)-") }) { return (process, errors) }
            kill(pid, SIGCONT)
            usleep(1000)
        }
        kill(pid, SIGCONT)
        process.waitUntilExit()
        return nil
    }

    @Test func aRunStoppedMidWriteAndItsSuccessorBothFinish() throws {
        let scratch = try Scratch()
        try FileManager.default.createDirectory(atPath: scratch.file("in"), withIntermediateDirectories: true)
        for index in 0..<8 {
            try ApplyCommandTests.writePhoto(scratch.file("in/p\(index).png"), width: 600, height: 400)
        }
        let look = try ApplyCommandTests.writeInvertLook(scratch)
        let reference = try CommandRunner.run(["apply", look, scratch.file("in"), "-o", scratch.file("reference")])
        #expect(reference.status == 0, "\(reference.stderr)")
        // A few tries: a run on a fast machine may finish before it is caught writing.
        for attempt in 0..<5 {
            let name = "out-\(attempt)", out = scratch.file(name)
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            let arguments = ["apply", look, scratch.file("in"), "-o", out, "--skip-existing", "--jobs", "1"]
            guard let (first, firstErrors) = try Self.startAndStopMidWrite(arguments, folder: out) else { continue }
            let successor = try CommandRunner.run(arguments)
            kill(first.processIdentifier, SIGCONT)
            let firstText = String(decoding: firstErrors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            first.waitUntilExit()
            #expect(successor.status == 0, "\(successor.stderr)")
            #expect(successor.stderr.contains(" 0 failed"), "\(successor.stderr)")
            #expect(first.terminationStatus == 0, "\(firstText)")
            #expect(firstText.contains(" 0 failed; 1 output was also finished by another run at the same time (its file was kept)"),
                    "\(firstText)")
            #expect(scratch.listing(name) == (0..<8).map { "p\($0).png" })
            for index in 0..<8 {
                let photo = "p\(index).png"
                #expect(FileManager.default.contentsEqual(atPath: out + "/" + photo, andPath: scratch.file("reference/" + photo)))
            }
            return
        }
        Issue.record("colorcube finished before it could be stopped mid-write, five times")
    }
}
