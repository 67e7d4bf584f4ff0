import Foundation
import Testing

/// `--size N` is the cube written in every command that writes one (convert, combine, invert),
/// the baking warning names it, convert's older `--resample` is still taken and `--expect-size`
/// is the check of an input's size.
@Suite struct SizeFlagCommandTests {
    /// A steep curve near black, which a 33-cube bakes several codes off.
    static let steep = """
        <?xml version="1.0" encoding="UTF-8"?>
        <ProcessList id="steep" compCLFversion="3.0">
            <Exponent inBitDepth="32f" outBitDepth="32f" style="basicFwd"><ExponentParams exponent="0.4"/></Exponent>
        </ProcessList>
        """

    static func cubeSize(_ path: String) throws -> String? {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .first { $0.hasPrefix("LUT_3D_SIZE ") }.map { String($0.dropFirst("LUT_3D_SIZE ".count)) }
    }

    @Test func convertWritesTheCubeSizeAskedForAndItsWarningNamesSize() throws {
        let scratch = try Scratch()
        let look = scratch.file("steep.clf")
        try Data(Self.steep.utf8).write(to: URL(fileURLWithPath: look))

        var result = try CommandRunner.run(["convert", look, "-o", scratch.file("natural.cube")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.cubeSize(scratch.file("natural.cube")) == "33")
        #expect(result.stderr.hasPrefix("colorcube: warning: \(scratch.file("natural.cube")): baking the look into a 33-cube changes it by up to "))
        #expect(result.stderr.hasSuffix("; --size 65, or a format that holds the chain (.clf), keeps it closer\n"))

        result = try CommandRunner.run(["convert", look, "-o", scratch.file("65.cube"), "--size", "65"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.cubeSize(scratch.file("65.cube")) == "65")

        result = try CommandRunner.run(["convert", look, "-o", scratch.file("resampled.cube"), "--resample", "65"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.file("resampled.cube")))
            == Data(contentsOf: URL(fileURLWithPath: scratch.file("65.cube"))))

        result = try CommandRunner.run(["convert", look, "-o", scratch.file("both.cube"), "--size", "65", "--resample", "33"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--resample is the older spelling of --size; give one of them"))
        #expect(!scratch.exists("both.cube"))
    }

    /// Past 65 points the warning asks for a larger --size, and Core Image's limit names --size 64.
    @Test func theAdviceOnALargeCubeNamesSize() throws {
        let scratch = try Scratch()
        // A 1D table that jumps from 0 to 1 in mid-range, which no cube follows closely.
        let steps = "LUT_1D_SIZE 1024\n" + (0..<1024).map { $0 < 512 ? "0 0 0\n" : "1 1 1\n" }.joined()
        try Data(steps.utf8).write(to: URL(fileURLWithPath: scratch.file("steps.cube")))
        let output = scratch.file("steps.bin")
        let result = try CommandRunner.run(["convert", scratch.file("steps.cube"), "-o", output, "--size", "65"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        try #require(lines.count == 2, "\(result.stderr)")
        let baking = lines[0], coreImage = lines[1]
        #expect(baking.hasPrefix("colorcube: warning: \(output): baking the look into a 65-cube changes it by up to "))
        #expect(baking.hasSuffix("; a larger --size, or a format that holds the chain (.clf), keeps it closer"))
        #expect(coreImage == "colorcube: \(output) holds a 65-cube; Core Image is reported to reject cubes above 64 "
            + "(CIColorCube takes 2 to 64): pass --size 64 for Core Image")
    }

    @Test func expectSizeChecksTheInputAndNeedsACube() throws {
        let scratch = try Scratch()
        let look = scratch.file("steep.clf")
        try Data(Self.steep.utf8).write(to: URL(fileURLWithPath: look))
        var result = try CommandRunner.run(["convert", look, "-o", scratch.file("a.cube"), "--expect-size", "33"])
        #expect(result.status == 1)
        #expect(result.stderr == "colorcube: error: \(look) is not a single cube, so --expect-size 33 has nothing to check; "
            + "drop --expect-size, or pass --size 33 to write a 33-cube\n")
        #expect(!scratch.exists("a.cube"))

        try CommandRunner.run(["convert", look, "-o", scratch.file("a.cube")])
        result = try CommandRunner.run(["convert", scratch.file("a.cube"), "-o", scratch.file("b.cube"), "--expect-size", "65"])
        #expect(result.status == 1)
        #expect(result.stderr == "colorcube: error: \(scratch.file("a.cube")) holds a 33-cube, but --expect-size 65 was asked for; "
            + "drop --expect-size, or pass --size 65 to write a 65-cube\n")
        result = try CommandRunner.run(["convert", scratch.file("a.cube"), "-o", scratch.file("b.cube"), "--expect-size", "33"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func combineAndInvertWriteTheCubeSizeAskedFor() throws {
        let scratch = try Scratch()
        let look = scratch.file("steep.clf")
        try Data(Self.steep.utf8).write(to: URL(fileURLWithPath: look))
        var result = try CommandRunner.run(["combine", look, look, "-o", scratch.file("twice.cube")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.cubeSize(scratch.file("twice.cube")) == "33")
        #expect(result.stderr.hasSuffix("; --size 65, or a format that holds the chain (.clf), keeps it closer\n"))
        result = try CommandRunner.run(["combine", look, look, "-o", scratch.file("twice-17.cube"), "--size", "17"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.cubeSize(scratch.file("twice-17.cube")) == "17")

        result = try CommandRunner.run(["invert", scratch.file("twice.cube"), "-o", scratch.file("undo-17.cube"), "--size", "17"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.cubeSize(scratch.file("undo-17.cube")) == "17")
    }
}
