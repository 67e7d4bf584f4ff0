import ColorCubeConverter
import ColorCubeLooks
import Foundation
import Testing

/// Lightroom and Camera Raw profiles on the command line: written byte for byte the same, refused
/// above 32 points with the reason, a preset without a table refused in one line, the amount kept
/// within the profile's range, and a profile taken by every command that takes a look.
@Suite struct CameraRawProfileCommandTests {
    /// A 5-cube that warms and lifts: red up, blue down.
    static let cube = "LUT_3D_SIZE 5\n" + (0..<125).map { index in
        let (r, g, b) = (Double(index % 5) / 4, Double(index / 5 % 5) / 4, Double(index / 25) / 4)
        return "\(min(1, r * 0.9 + 0.1)) \(g) \(b * 0.8)"
    }.joined(separator: "\n") + "\n"

    @Test func aLookBecomesAProfileAndRerunsGiveTheSameBytes() throws {
        let scratch = try Scratch()
        let look = scratch.file("warm.cube")
        try Data(Self.cube.utf8).write(to: URL(fileURLWithPath: look))
        let output = scratch.file("Warm.xmp")
        let first = try CommandRunner.run(["convert", look, "-o", output, "--profile-space", "display-p3", "--size", "17"])
        #expect(first.status == 0, "\(first.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: output))
        #expect(try CommandRunner.run(["convert", look, "-o", output, "--profile-space", "display-p3", "--size", "17"]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == bytes)
        let info = try CommandRunner.run(["info", output])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdoutText.contains("Camera Raw profile \"Warm\"; group \"colorcube\"; table 17x17x17, Display P3 primaries, sRGB, clip gamut; amount 0%...200%, default 100%"),
                "\(info.stdoutText)")
    }

    /// Written in a space wider than the photo's, the table is fitted rather than sampled; the
    /// warning says how far Camera Raw's reading of it is from the look, and what `apply` of the
    /// profile does on every 17th code agrees.
    @Test func aProfileSaysHowFarCameraRawsReadingOfItIsFromTheLook() throws {
        let scratch = try Scratch()
        let look = scratch.file("warm.cube"), output = scratch.file("Warm.xmp")
        try Data(Self.cube.utf8).write(to: URL(fileURLWithPath: look))
        let written = try CommandRunner.run(["convert", look, "-o", output, "--profile-space", "prophoto", "--size", "5"])
        #expect(written.status == 0, "\(written.stderr)")
        let prefix = "colorcube: warning: \(output): Camera Raw's reading of this 5-point table in prophoto is up to "
        #expect(written.stderr.hasPrefix(prefix), "\(written.stderr)")
        #expect(written.stderr.contains(" 8-bit codes from the look (mean "), "\(written.stderr)")
        let reported = try #require(Double(written.stderr.dropFirst(prefix.count).prefix { $0 != " " }))
        var colours = Data()
        for b in 0..<16 {
            for g in 0..<16 {
                for r in 0..<16 { colours.append(contentsOf: [UInt8(r * 17), UInt8(g * 17), UInt8(b * 17)]) }
            }
        }
        let fromLook = try CommandRunner.run(["apply", look, "--raw", "64x64", "--pixel-format", "rgb24"], input: colours)
        let fromProfile = try CommandRunner.run(["apply", output, "--raw", "64x64", "--pixel-format", "rgb24"], input: colours)
        #expect(fromLook.status == 0 && fromProfile.status == 0, "\(fromLook.stderr) \(fromProfile.stderr)")
        #expect(fromLook.stdout.count == colours.count && fromProfile.stdout.count == colours.count)
        let largest = zip(fromLook.stdout, fromProfile.stdout).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(reported > 1 && Double(largest) <= reported + 1, "reported \(reported), measured \(largest)")
        // In sRGB a 32-point table of this smooth look is within a code: no warning, and nothing
        // said about clamping values the chain's rounding puts a hair outside 0...1.
        let srgb = try CommandRunner.run(["convert", look, "-o", scratch.file("Plain.xmp")])
        #expect(srgb.status == 0 && srgb.stderr.isEmpty, "\(srgb.stderr)")
    }

    @Test func aTableAbove32PointsIsRefusedWithTheReason() throws {
        let scratch = try Scratch()
        let look = scratch.file("warm.cube")
        try Data(Self.cube.utf8).write(to: URL(fileURLWithPath: look))
        let result = try CommandRunner.run(["convert", look, "-o", scratch.file("big.xmp"), "--size", "33"])
        #expect(result.status == 1)
        #expect(result.stderr == "colorcube: error: cannot write \(scratch.file("big.xmp")): a 33-cube cannot be stored as a Camera Raw profile "
            + "(sizes 2...32 points a side: Camera Raw reads no larger table); pass --size 32 or smaller\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("big.xmp")))
    }

    @Test func aPresetWithoutATableIsOneLine() throws {
        let scratch = try Scratch()
        let preset = scratch.file("preset.xmp")
        try Data("<x:xmpmeta><rdf:Description crs:PresetType=\"Normal\" crs:Exposure2012=\"+1\"/></x:xmpmeta>".utf8)
            .write(to: URL(fileURLWithPath: preset))
        let result = try CommandRunner.run(["apply", preset, scratch.file("none.png"), "-o", scratch.file("out.png")])
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("holds no RGB table (crs:RGBTable): it is a Camera Raw preset of type \"Normal\""))
    }

    @Test func strengthIsTheAmountWithinTheProfilesRange() throws {
        let scratch = try Scratch()
        let profile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/camera-raw/prophoto-18-clip-9.xmp").path
        let photo = scratch.file("grey.png")
        #expect(try CommandRunner.run(["generate", "--size", "4", "-o", photo]).status == 0)
        let refused = try CommandRunner.run(["apply", profile, photo, "-o", scratch.file("a.png"), "--strength", "1.5"])
        #expect(refused.status == 1)
        #expect(refused.stderr == "colorcube: error: an amount of 150% is outside the profile's range, 50% to 100%\n")
        let taken = try CommandRunner.run(["apply", profile, photo, "-o", scratch.file("b.png"), "--strength", "0.5"])
        #expect(taken.status == 0, "\(taken.stderr)")
        let plain = scratch.file("plain.cube")
        try Data(Self.cube.utf8).write(to: URL(fileURLWithPath: plain))
        let above = try CommandRunner.run(["apply", plain, photo, "-o", scratch.file("c.png"), "--strength", "1.5"])
        #expect(above.status == 1)
        #expect(above.stderr.contains("only a Camera Raw profile's amount allows"))
        // A chain, an inverse and a combination take a profile as any look.
        #expect(try CommandRunner.run(["apply", "\(profile)+\(plain)", photo, "-o", scratch.file("d.png")]).status == 0)
        #expect(try CommandRunner.run(["invert", profile, "-o", scratch.file("undo.cube"), "--size", "17"]).status == 0)
        #expect(try CommandRunner.run(["combine", profile, plain, "-o", scratch.file("both.cube")]).status == 0)
    }
}
