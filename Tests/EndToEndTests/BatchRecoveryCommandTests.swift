import Foundation
import Testing

/// A batch rerun after workers were killed: the temporaries they left are removed by the run that
/// owns each output, and only those.
@Suite struct BatchRecoveryCommandTests {
    @Test func aRerunRemovesTheTemporariesOfItsOwnOutputs() throws {
        let scratch = try Scratch()
        try FileManager.default.createDirectory(atPath: scratch.file("in/sub"), withIntermediateDirectories: true)
        try ApplyCommandTests.writePhoto(scratch.file("in/a.png"))
        try ApplyCommandTests.writePhoto(scratch.file("in/sub/b.png"))
        let look = try ApplyCommandTests.writeInvertLook(scratch)
        let first = try CommandRunner.run(["apply", look, scratch.file("in"), "-o", scratch.file("out")])
        #expect(first.status == 0, "\(first.stderr)")
        // A killed worker's leftovers: one beside an existing output, one beside a missing one, and a
        // file that belongs to nobody in this batch.
        try FileManager.default.removeItem(atPath: scratch.file("out/sub/b.png"))
        for name in ["out/.a.png.colorcube-123-abc.tmp", "out/sub/.b.png.colorcube-456-z9.tmp", "out/.c.png.colorcube-1-a.tmp"] {
            try Data("half".utf8).write(to: URL(fileURLWithPath: scratch.file(name)))
        }
        let rerun = try CommandRunner.run(["apply", look, scratch.file("in"), "-o", scratch.file("out"), "--skip-existing"])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(rerun.stderr == "colorcube: 1 done, 1 skipped, 0 failed; removed 2 temporary files left by an interrupted run\n")
        #expect(scratch.listing("out") == [".c.png.colorcube-1-a.tmp", "a.png", "sub", "sub/b.png"])
    }
}
