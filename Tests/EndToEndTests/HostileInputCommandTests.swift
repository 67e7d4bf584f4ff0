import ColorCubeCore
import ColorCubeImaging
import Foundation
import Testing

/// What a user can type by mistake or an attacker can hand over, run through the built binary:
/// each ends with one line naming the file and what is wrong, a non-zero exit, and nothing
/// replaced or left behind.
@Suite struct HostileInputCommandTests {
    static let identityCube = "LUT_3D_SIZE 2\n0 0 0\n1 0 0\n0 1 0\n1 1 0\n0 0 1\n1 0 1\n0 1 1\n1 1 1\n"

    static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// The error lines of a run (the note lines aside).
    static func errorLines(_ result: CommandRunner.Result) -> [Substring] {
        result.stderr.split(separator: "\n").filter { $0.hasPrefix("colorcube: error") }
    }

    @Test func aChainsFilesAreInputsNoOutputReplaces() throws {
        let scratch = try Scratch()
        try Self.write(Self.identityCube, to: scratch.file("l.cube"))
        try CommandRunner.run(["generate", "--size", "4", "-o", scratch.file("hald.png")])
        try ApplyCommandTests.writePhoto(scratch.file("in.png"))
        let before = try Data(contentsOf: URL(fileURLWithPath: scratch.file("hald.png")))
        let result = try CommandRunner.run(["apply", scratch.file("l.cube") + "+" + scratch.file("hald.png"),
                                            scratch.file("in.png"), "-o", scratch.file("hald.png")])
        #expect(result.status != 0)
        #expect(Self.errorLines(result).count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("hald.png"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.file("hald.png"))) == before)
    }

    @Test func aPhotoGivenAsTheLookIsRefusedWithTheOrder() throws {
        let scratch = try Scratch()
        try ApplyCommandTests.writePhoto(scratch.file("photo.png"), width: 512, height: 512)
        try Self.write(Self.identityCube, to: scratch.file("look.cube"))
        let result = try CommandRunner.run(["apply", scratch.file("photo.png"), scratch.file("look.cube"),
                                            "-o", scratch.file("out")])
        #expect(result.status == 1)
        #expect(Self.errorLines(result).count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("photo.png is not a LUT image"), "\(result.stderr)")
        #expect(result.stderr.contains("The look comes first"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("out")))
        // The sample looks' references are LUT images still.
        try CommandRunner.run(["generate", "--size", "64", "-o", scratch.file("identity.png")])
        let info = try CommandRunner.run(["info", scratch.file("identity.png")])
        #expect(info.status == 0, "\(info.stderr)")
    }

    @Test func aFileNameForSeveralOutputsIsRefused() throws {
        let scratch = try Scratch()
        try Self.write(Self.identityCube, to: scratch.file("look.cube"))
        try FileManager.default.createDirectory(atPath: scratch.file("trip"), withIntermediateDirectories: true)
        try ApplyCommandTests.writePhoto(scratch.file("trip/a.png"))
        try ApplyCommandTests.writePhoto(scratch.file("trip/b.png"))
        let result = try CommandRunner.run(["apply", scratch.file("look.cube"), scratch.file("trip"), "-o", scratch.file("trip.png")])
        #expect(result.status != 0)
        #expect(result.stderr.contains("give a folder for -o"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("trip.png")))
    }

    @Test func aMistypedCommandGetsASuggestion() throws {
        let result = try CommandRunner.run(["aply", "look.cube", "in.png", "-o", "out.png"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("did you mean 'apply'"), "\(result.stderr)")
        let far = try CommandRunner.run(["frobnicate"])
        #expect(far.status != 0)
        #expect(!far.stderr.contains("did you mean"))
        // ffmpeg's spellings name colorcube's, not the nearest option by letters (-c:v is not --crf).
        let ffmpegStyle = try CommandRunner.run(["apply", "look.cube", "in.mp4", "-o", "out.mp4", "-c:v", "libx265"])
        #expect(ffmpegStyle.status == 64)
        #expect(ffmpegStyle.stderr.contains("-c:v is ffmpeg's spelling; colorcube's is --video-codec"), "\(ffmpegStyle.stderr)")
    }

    @Test func specialFilesAndHugeNumbersAreRefusedInOneLine() throws {
        let scratch = try Scratch()
        let fifo = scratch.file("look.cube")
        #expect(mkfifo(fifo, 0o600) == 0)
        let fromFIFO = try CommandRunner.run(["info", fifo])
        #expect(fromFIFO.status == 1)
        #expect(fromFIFO.stderr.contains("FIFO"), "\(fromFIFO.stderr)")

        try Self.write("LUT_1D_SIZE 2147483648\n", to: scratch.file("big.cube"))
        let big = try CommandRunner.run(["info", scratch.file("big.cube")])
        #expect(big.stderr.contains("LUT_1D_SIZE 2147483648 is outside 2...65536"), "\(big.stderr)")

        try Self.write("LUT_3D_SIZE 2\n" + String(repeating: "x", count: 1_000_000) + "\n", to: scratch.file("long.cube"))
        let long = try CommandRunner.run(["info", scratch.file("long.cube")])
        #expect(long.status == 1)
        #expect(Self.errorLines(long).count == 1)
        #expect(long.stderr.utf8.count < 400, "\(long.stderr.prefix(400))")
    }

    @Test func aBrokenClipIsNamedWithWhatIsWrong() throws {
        let scratch = try Scratch()
        try Self.write(Self.identityCube, to: scratch.file("look.cube"))
        try Data().write(to: URL(fileURLWithPath: scratch.file("empty.mkv")))
        try ApplyCommandTests.writePhoto(scratch.file("photo.png"))
        try FileManager.default.copyItem(atPath: scratch.file("photo.png"), toPath: scratch.file("png.mp4"))
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }).write(to: URL(fileURLWithPath: scratch.file("noise.mp4")))
        for (name, reason) in [("empty.mkv", "it is empty"), ("png.mp4", "it is a PNG image, not a video clip"),
                               ("noise.mp4", "its first bytes are not those of a video container")] {
            let result = try CommandRunner.run(["apply", scratch.file("look.cube"), scratch.file(name), "-o", scratch.file("out/graded.mp4")])
            #expect(result.status == 1)
            #expect(Self.errorLines(result).count == 1, "\(result.stderr)")
            #expect(result.stderr.contains("cannot read \(scratch.file(name)): \(reason)"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: scratch.file("out")))
        }
    }
}

/// Every command's --help ends with examples of that command.
@Suite struct HelpExamplesCommandTests {
    @Test(arguments: ["generate", "convert", "apply", "combine", "invert", "info", "preview", "learn"])
    func everyHelpShowsExamples(command: String) throws {
        let help = try CommandRunner.run([command, "--help"]).stdoutText
        guard let examples = help.components(separatedBy: "EXAMPLES:").last, help.contains("EXAMPLES:") else {
            Issue.record("\(command) --help has no EXAMPLES")
            return
        }
        let lines = examples.split(separator: "\n").filter { $0.contains("colorcube \(command) ") }
        #expect(lines.count >= 2, "\(command): \(examples)")
    }
}
