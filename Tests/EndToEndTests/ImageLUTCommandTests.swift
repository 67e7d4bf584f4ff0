import ColorCubeImaging
import Foundation
import Testing

/// Tile and strip image LUTs through the commands: generate, convert, info and apply with and
/// without --layout.
@Suite struct ImageLUTCommandTests {
    @Test func generateConvertAndDescribeTileAndStripLUTs() throws {
        let scratch = try Scratch()
        var result = try CommandRunner.run(["generate", "--layout", "tile", "--size", "16"], in: scratch.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try PNGFile.read(path: scratch.file("identity-16-tile.png")).width == 64)
        result = try CommandRunner.run(["generate", "--look", "warm-fade", "--size", "16", "-o", scratch.file("warm.png")])
        #expect(result.status == 0, "\(result.stderr)")
        result = try CommandRunner.run(["convert", scratch.file("warm.png"), "--format", "unity-strip", "-o", scratch.file("warm-unity.png")])
        #expect(result.status == 0, "\(result.stderr)")
        let strip = try PNGFile.read(path: scratch.file("warm-unity.png"))
        #expect(strip.width == 256 && strip.height == 16)

        result = try CommandRunner.run(["info", scratch.file("identity-16-tile.png"), scratch.file("warm-unity.png")])
        #expect(result.status == 0, "\(result.stderr)")
        let text = result.stdoutText
        #expect(text.contains("  format:     tile LUT PNG, 4x4 tiles of 16x16, 8-bit\n"))
        #expect(text.contains("  note:       read as the tile layout, 4x4 tiles of 16x16 (99th-percentile curvature "))
        #expect(text.contains("  format:     strip LUT PNG (Unity), 16 tiles of 16x16, 8-bit\n"))
        #expect(text.contains("  note:       read as the strip layout (Unity, green upwards), 16 tiles of 16x16: its colours grow upwards along green"))

        // --layout overrides the content: the tile identity read as a Hald CLUT is no identity.
        result = try CommandRunner.run(["info", "--layout", "hald", scratch.file("identity-16-tile.png")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText.contains("  format:     Hald CLUT PNG, level 4, 8-bit\n"))
        #expect(!result.stdoutText.contains("  note:"))
        #expect(result.stdoutText.contains("  identity:   no: "))
    }

    @Test func applyReadsTheLayoutAndSaysSo() throws {
        let scratch = try Scratch()
        try CommandRunner.run(["generate", "--look", "teal-orange", "--size", "16", "--layout", "tile", "-o", scratch.file("look.png")])
        try CommandRunner.run(["generate", "--look", "teal-orange", "--size", "16", "-o", scratch.file("hald.png")])
        try CommandRunner.run(["generate", "--size", "4", "-o", scratch.file("photo.png")])
        var result = try CommandRunner.run(["apply", scratch.file("look.png"), scratch.file("photo.png"), "-o", scratch.file("tile-out.png")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("colorcube: \(scratch.file("look.png")): read as the tile layout"))
        result = try CommandRunner.run(["apply", scratch.file("hald.png"), scratch.file("photo.png"), "-o", scratch.file("hald-out.png")])
        #expect(result.status == 0, "\(result.stderr)")
        let tileOut = try PNGFile.read(path: scratch.file("tile-out.png")), haldOut = try PNGFile.read(path: scratch.file("hald-out.png"))
        #expect((0..<tileOut.pixels.count).allSatisfy { tileOut.pixels[$0] == haldOut.pixels[$0] })
    }

    @Test func badLayoutsAndSizesAreRefused() throws {
        let scratch = try Scratch()
        var result = try CommandRunner.run(["generate", "--layout", "strip", "--size", "1"], in: scratch.path)
        #expect(result.status == 64)
        #expect(result.stderr.contains("invalid --size 1 for --layout strip; use 2 to 256"))
        result = try CommandRunner.run(["generate", "--layout", "diagonal"], in: scratch.path)
        #expect(result.status == 64)
        try CommandRunner.run(["generate", "--size", "16", "-o", scratch.file("hald.png")])
        result = try CommandRunner.run(["convert", "--layout", "strip", scratch.file("hald.png"), "-o", scratch.file("out.cube")])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("colorcube: error: \(scratch.file("hald.png")) is 64x64 pixels, expected N tiles of NxN side by side"))
        #expect(!scratch.exists("out.cube"))
    }
}
