import ColorCubeCore
import ColorCubeImaging
import Foundation
import Testing

/// What a new user meets in the first hour, run as they would: each message and output checked.
@Suite struct FirstHourCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// Runs `command` on a pseudo-terminal (`script`, util-linux) and returns its exit status and output.
    static func onTerminal(_ command: [String]) throws -> (status: Int32, text: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(ExternalTool.path("script")))
        process.arguments = ["-qec", command.joined(separator: " "), "/dev/null"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test func rawFramesAreNotWrittenToATerminal() throws {
        let scratch = try Scratch()
        try Data(count: 4 * 4 * 3).write(to: URL(fileURLWithPath: scratch.file("in.rgb")))
        let (status, text) = try Self.onTerminal([CommandRunner.binary, "apply", Self.root + "/LUTs/teal-orange.cube",
                                                  "--raw", "4x4", "--pixel-format", "rgb24", "-i", scratch.file("in.rgb")])
        #expect(status == 1)
        #expect(text.contains("refusing to write raw frames to a terminal"), "\(text)")
    }

    @Test func aTruncatedRawInputLeavesNoOutputFile() throws {
        let scratch = try Scratch()
        // Two frames of 8x8 rgb24 and half of a third.
        try Data(count: 8 * 8 * 3 * 5 / 2).write(to: URL(fileURLWithPath: scratch.file("in.rgb")))
        let result = try CommandRunner.run(["apply", Self.root + "/LUTs/teal-orange.cube", "--raw", "8x8", "--pixel-format", "rgb24",
                                            "-i", scratch.file("in.rgb"), "-o", scratch.file("out.rgb")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("the input ended 96 bytes into a frame"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["in.rgb"])
        // A whole stream is kept.
        try Data(count: 8 * 8 * 3 * 2).write(to: URL(fileURLWithPath: scratch.file("in.rgb")))
        let whole = try CommandRunner.run(["apply", Self.root + "/LUTs/teal-orange.cube", "--raw", "8x8", "--pixel-format", "rgb24",
                                           "-i", scratch.file("in.rgb"), "-o", scratch.file("out.rgb")])
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.file("out.rgb"))).count == 8 * 8 * 3 * 2)
    }

    @Test func learnOffersAndTakesOnlyFormatsThatHoldACube() throws {
        let help = try CommandRunner.run(["learn", "--help"]).stdoutText
        #expect(!help.contains(".spimtx") && !help.contains(".spi1d") && !help.contains(".cdl"), "\(help)")
        let refused = try CommandRunner.run(["learn", "a.png", "b.png", "-o", "look.spimtx"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("learn makes a cube, and an .spimtx holds none"), "\(refused.stderr)")
    }

    @Test func aCameraLogConversionIsNotTakenForASpatialEdit() throws {
        let scratch = try Scratch()
        let made = try CommandRunner.run(["convert", "--from", "slog3_sgamut3cine", "--to", "camera_rec709", "-o", scratch.file("s3.cube")])
        #expect(made.status == 0, "\(made.stderr)")
        let info = try CommandRunner.run(["info", scratch.file("s3.cube")])
        #expect(info.status == 0)
        #expect(!info.stdoutText.contains("spatially edited"), "\(info.stdoutText)")
    }

    @Test func perChannelLooksBecomeOneDimensionalTables() throws {
        let scratch = try Scratch()
        #expect(try CommandRunner.run(["convert", "--from", "acescct", "--to", "lin_ap1_scene", "-o", scratch.file("cct2lin.clf")]).status == 0)
        let spi1d = try CommandRunner.run(["invert", scratch.file("cct2lin.clf"), "-o", scratch.file("shaper.spi1d")])
        #expect(spi1d.status == 0, "\(spi1d.stderr)")
        let shaper = try String(contentsOfFile: scratch.file("shaper.spi1d"), encoding: .utf8)
        #expect(shaper.contains("Length 4096"))
        let csp = try CommandRunner.run(["invert", scratch.file("cct2lin.clf"), "-o", scratch.file("shaper.csp")])
        #expect(csp.status == 0, "\(csp.stderr)")
        #expect(try String(contentsOfFile: scratch.file("shaper.csp"), encoding: .utf8).hasPrefix("CSPLUTV100\n1D\n"))
        let forward = try CommandRunner.run(["convert", "--from", "lin_ap1_scene", "--to", "acescct", "-o", scratch.file("lin2cct.spi1d")])
        #expect(forward.status == 0, "\(forward.stderr)")
        #expect(try String(contentsOfFile: scratch.file("lin2cct.spi1d"), encoding: .utf8).contains("Length 4096"))
        // The table and the exact conversion agree on a photo to within a code.
        try ApplyCommandTests.writePhoto(scratch.file("p.png"))
        for (look, name) in [("space:lin_ap1_scene,acescct", "exact"), (scratch.file("lin2cct.spi1d"), "table")] {
            let graded = try CommandRunner.run(["apply", look, scratch.file("p.png"), "-o", scratch.file("\(name).png")])
            #expect(graded.status == 0, "\(graded.stderr)")
        }
        let exact = try PNGFile.read(path: scratch.file("exact.png")), table = try PNGFile.read(path: scratch.file("table.png"))
        #expect(try ImageDifference.measure(exact, table).largest <= 1)
    }

    @Test func aMisspeltOutputOptionIsNamed() throws {
        let result = try CommandRunner.run(["apply", Self.root + "/LUTs/teal-orange.cube", "photo.png", "--ouput", "out.jpg"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("unknown option '--ouput': did you mean '--output' (-o)?"), "\(result.stderr)")
    }

    @Test func aClipGivenAPictureNameIsToldToUseAContainer() throws {
        let scratch = try Scratch()
        // The first bytes of an MP4: a clip by its content.
        var header = Data([0, 0, 0, 24]) + Data("ftypisom".utf8) + Data(count: 12)
        header += Data(count: 64)
        try header.write(to: URL(fileURLWithPath: scratch.file("clip.mp4")))
        for name in ["clip.jpg", "clip.gif"] {
            let result = try CommandRunner.run(["apply", Self.root + "/LUTs/teal-orange.cube", scratch.file("clip.mp4"), "-o", scratch.file(name)])
            #expect(result.status == 1)
            #expect(result.stderr.contains("is a video clip"), "\(result.stderr)")
            #expect(result.stderr.contains(".mp4, .mov, .mkv"), "\(result.stderr)")
        }
    }

    @Test func aDisplayProfileGivenAsALookIsExplained() throws {
        let scratch = try Scratch()
        try Data(ICCProfiles.sRGB).write(to: URL(fileURLWithPath: scratch.file("sRGB.icc")))
        try ApplyCommandTests.writePhoto(scratch.file("p.png"))
        let alone = try CommandRunner.run(["apply", scratch.file("sRGB.icc"), scratch.file("p.png"), "-o", scratch.file("a.png")])
        #expect(alone.status == 0)
        #expect(alone.stderr.contains("is an ICC display profile"), "\(alone.stderr)")
        // After a conversion to XYZ the chain shows the picture as that display does: sRGB's own codes.
        let chained = try CommandRunner.run(["apply", "space:srgb_rec709_display,lin_ciexyzd65_display+" + scratch.file("sRGB.icc"),
                                             scratch.file("p.png"), "-o", scratch.file("b.png")])
        #expect(chained.status == 0, "\(chained.stderr)")
        #expect(!chained.stderr.contains("display profile"), "\(chained.stderr)")
        let input = try PNGFile.read(path: scratch.file("p.png")), output = try PNGFile.read(path: scratch.file("b.png"))
        #expect(try ImageDifference.measure(input, output).largest <= 1)
    }

    @Test func aMislabelledPictureIsWrittenUnderItsOwnFormatsNameAndRawFilesAreNamed() throws {
        let scratch = try Scratch()
        try FileManager.default.createDirectory(atPath: scratch.file("in"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.root + "/LUTs/samples/rocket.jpg", toPath: scratch.file("in/a.CR2"))
        // A TIFF-based camera raw header (Canon's CR2 marker).
        try (Data([0x49, 0x49, 0x2A, 0x00, 0x10, 0x00, 0x00, 0x00, 0x43, 0x52, 0x02, 0x00]) + Data(count: 4096))
            .write(to: URL(fileURLWithPath: scratch.file("in/raw.CR2")))
        let result = try CommandRunner.run(["apply", Self.root + "/LUTs/teal-orange.cube", scratch.file("in"), "-o", scratch.file("out")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("out")) == ["a.jpg"])
        #expect(result.stderr.contains("a.CR2 is a picture of another format than its name says"), "\(result.stderr)")
        #expect(result.stderr.contains("1 camera raw file (raw.CR2: develop it to TIFF or PNG first)"), "\(result.stderr)")
    }

    @Test func spacesShowsTheAliasesTheExamplesUse() throws {
        let listed = try CommandRunner.run(["spaces"]).stdoutText
        for alias in ["srgb_tx", "acescct", "camera_rec709"] {
            #expect(listed.contains(alias), "colorcube spaces does not show \(alias)")
        }
    }

    @Test func infoNamesEveryFormatOfAChainAndBenchmarkCountsOneFile() throws {
        let scratch = try Scratch()
        let info = try CommandRunner.run(["info", Self.root + "/LUTs/teal-orange.cube+" + Self.root + "/LUTs/cyanotype.png"])
        #expect(info.stdoutText.contains("format:     a chain of 2 looks: .cube (Adobe/Iridas, Resolve), then Hald CLUT PNG"),
                "\(info.stdoutText)")
        try ApplyCommandTests.writePhoto(scratch.file("p.png"))
        let bench = try CommandRunner.run(["apply", Self.root + "/LUTs/teal-orange.cube", scratch.file("p.png"), "-o",
                                           scratch.file("o.png"), "--benchmark"])
        #expect(bench.stderr.contains("benchmark: 1 file, "), "\(bench.stderr)")
    }

    /// Dithering leaves alone what the look leaves where it was: the sample identity and the
    /// .cube made from it return every value of a picture.
    @Test func ditheringThroughTheSampleIdentityChangesNothing() throws {
        let scratch = try Scratch()
        var samples: [UInt8] = []
        for y in 0..<32 {
            for x in 0..<256 { samples += [UInt8(x), UInt8((x + 3 * y) % 256), UInt8(255 - x)] }
        }
        let ramp = RasterImage(width: 256, height: 32, channels: 3, pixels: .eight(samples))
        try PNGFile.write(ramp, to: scratch.file("ramp.png"))
        #expect(try CommandRunner.run(["convert", Self.root + "/LUTs/identity-64.png", "-o", scratch.file("id.cube")]).status == 0)
        for look in [Self.root + "/LUTs/identity-64.png", scratch.file("id.cube")] {
            for dither in ["blue-noise", "ordered"] {
                let result = try CommandRunner.run(["apply", look, scratch.file("ramp.png"), "-o", scratch.file("out.png"), "--dither", dither])
                #expect(result.status == 0, "\(result.stderr)")
                let output = try PNGFile.read(path: scratch.file("out.png"))
                #expect(try ImageDifference.measure(ramp, output).largest == 0, "\(look) with \(dither)")
            }
        }
    }
}
