import ColorCubeCore
import ColorCubeImaging
import Foundation
import Testing

@Suite struct GenerateConvertCommandTests {
    @Test func generateAllWritesFourReferences() throws {
        let scratch = try Scratch()
        let result = try CommandRunner.run(["generate", "--all", "-o", scratch.file("refs")])
        #expect(result.status == 0, "\(result.stderr)")
        for (size, side) in [(4, 8), (16, 64), (64, 512), (256, 4096)] {
            let image = try PNGFile.read(path: scratch.file("refs/identity-\(size).png"))
            #expect(image.width == side && image.height == side)
        }
    }

    @Test func generateDefaultsToSize64InTheCurrentFolder() throws {
        let scratch = try Scratch()
        let result = try CommandRunner.run(["generate"], in: scratch.path)
        #expect(result.status == 0)
        #expect(try PNGFile.read(path: scratch.file("identity-64.png")).width == 512)
    }

    @Test func generateRejectsOtherSizesListingTheValidOnes() throws {
        let scratch = try Scratch()
        let result = try CommandRunner.run(["generate", "--size", "32"], in: scratch.path)
        #expect(result.status == 64)
        #expect(result.stderr.contains("valid sizes are 4, 16, 64, 256"))
        #expect(scratch.listing().isEmpty)
    }

    @Test func convertWritesCoreImageCubeData() throws {
        let scratch = try Scratch()
        try CommandRunner.run(["generate", "-o", scratch.file("look.png")])
        let result = try CommandRunner.run(["convert", scratch.file("look.png")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: scratch.file("look.bin")))
        #expect(bytes.count == 4_194_304)
        // Entry (1, 2, 3): index 1 + 64 * 2 + 4096 * 3, RGBA Float32 little-endian.
        let index = 1 + 64 * 2 + 4096 * 3
        let values = (0..<4).map { channel in
            bytes.withUnsafeBytes { Float(bitPattern: UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: index * 16 + channel * 4, as: UInt32.self))) }
        }
        #expect(values == [Float(4) / 255, Float(8) / 255, Float(12) / 255, 1])
        #expect(scratch.listing().filter { $0.hasPrefix(".") }.isEmpty, "no temporary file is left")
    }

    @Test func convertToCubeText() throws {
        let scratch = try Scratch()
        try CommandRunner.run(["generate", "--size", "4", "-o", scratch.file("warm.png")])
        let result = try CommandRunner.run(["convert", scratch.file("warm.png"), "-o", scratch.file("warm.cube")])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOfFile: scratch.file("warm.cube"), encoding: .utf8)
        #expect(text.contains("TITLE \"warm\""))
        #expect(text.contains("LUT_3D_SIZE 4"))
        let dataLines = text.split(separator: "\n").filter { $0.first?.isNumber == true }
        #expect(dataLines.count == 64)
        #expect(dataLines[1].split(separator: " ").compactMap { Double($0) } == [1.0 / 3.0, 0, 0].map { ($0 * 1e6).rounded() / 1e6 })
    }

    @Test func convertRejectsAWrongSizeWithoutWritingAnything() throws {
        let scratch = try Scratch()
        let path = scratch.file("edited.png")
        try PNGFile.write(RasterImage(width: 500, height: 500, channels: 3, pixels: .eight([UInt8](repeating: 9, count: 500 * 500 * 3))), to: path)
        let result = try CommandRunner.run(["convert", path, "--expect-size", "64"])
        #expect(result.status == 1)
        #expect(result.stderr == "colorcube: error: \(path) is 500x500 pixels, expected 512x512; was it cropped, resized, or saved at another size? Export the edited reference at its original pixel size.\n")
        #expect(scratch.listing() == ["edited.png"])
    }

    @Test func convertSizeMustAgree() throws {
        let scratch = try Scratch()
        try CommandRunner.run(["generate", "--size", "16", "-o", scratch.file("small.png")])
        let result = try CommandRunner.run(["convert", scratch.file("small.png"), "--expect-size", "64"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("a 16-cube reference, but a 64-cube (512x512 pixels) was expected; "
            + "was it resized or generated at another size? Drop --expect-size or pass --expect-size 16.\n"))
        #expect(!scratch.exists("small.bin"))
    }

    @Test func aLossyReferenceIsReadWithAWarning() throws {
        let scratch = try Scratch()
        try CommandRunner.run(["generate", "--size", "16", "-o", scratch.file("ref.png")])
        try JPEGFile.write(try PNGFile.read(path: scratch.file("ref.png")), to: scratch.file("ref.jpg"), quality: 95)
        let result = try CommandRunner.run(["convert", scratch.file("ref.jpg"), "-o", scratch.file("look.cube")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("colorcube: warning: \(scratch.file("ref.jpg")) was saved as JPEG, which compresses with loss"))
        #expect(scratch.exists("look.cube"))
        let clean = try CommandRunner.run(["convert", scratch.file("ref.png"), "-o", scratch.file("clean.cube")])
        #expect(!clean.stderr.contains("compresses with loss"))
    }

    @Test func convertReportsBrokenInputsInOneLine() throws {
        let scratch = try Scratch()
        try Data("hello".utf8).write(to: URL(fileURLWithPath: scratch.file("notes.png")))
        let missing = try CommandRunner.run(["convert", scratch.file("absent.png")])
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("colorcube: error: cannot open \(scratch.file("absent.png"))"))
        let text = try CommandRunner.run(["convert", scratch.file("notes.png")])
        #expect(text.stderr == "colorcube: error: \(scratch.file("notes.png")) is not an image colorcube reads (\(ImageCodecs.readableNames))\n")

        try CommandRunner.run(["generate", "-o", scratch.file("whole.png")])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: scratch.file("whole.png")))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: scratch.file("cut.png")))
        let truncated = try CommandRunner.run(["convert", scratch.file("cut.png")])
        #expect(truncated.status == 1)
        #expect(truncated.stderr.contains("\(scratch.file("cut.png")) is damaged or truncated"))
        #expect(truncated.stderr.split(separator: "\n").count == 1)
        #expect(!scratch.exists("cut.bin") && !scratch.exists("notes.bin") && !scratch.exists("absent.bin"))
    }

    @Test func convertIntoAMissingFolderFailsCleanly() throws {
        let scratch = try Scratch()
        try CommandRunner.run(["generate", "--size", "4", "-o", scratch.file("look.png")])
        let result = try CommandRunner.run(["convert", scratch.file("look.png"), "-o", scratch.file("no/such/folder/look.bin")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot create \(scratch.file("no/such/folder/look.bin"))"))
    }

    @Test func outputsThatAreFoldersAreRefusedUpFront() throws {
        let scratch = try Scratch()
        try FileManager.default.createDirectory(atPath: scratch.file("taken.bin"), withIntermediateDirectories: true)
        try CommandRunner.run(["generate", "--size", "4", "-o", scratch.file("look.png")])
        let result = try CommandRunner.run(["convert", scratch.file("look.png"), "-o", scratch.file("taken.bin")])
        #expect(result.status == 1)
        #expect(result.stderr == "colorcube: error: cannot write \(scratch.file("taken.bin")): it is a folder; give a file name\n")
        #expect(scratch.listing().filter { $0.hasPrefix(".") }.isEmpty)

        try Data("x".utf8).write(to: URL(fileURLWithPath: scratch.file("file")))
        let all = try CommandRunner.run(["generate", "--all", "-o", scratch.file("file/refs")])
        #expect(all.status == 1)
        #expect(all.stderr.hasPrefix("colorcube: error: cannot create \(scratch.file("file"))"))
    }

    @Test func convertRefusesToOverwriteItsInput() throws {
        let scratch = try Scratch()
        try CommandRunner.run(["generate", "--size", "4", "-o", scratch.file("look.cube.png")])
        try FileManager.default.copyItem(atPath: scratch.file("look.cube.png"), toPath: scratch.file("look.bin"))
        let before = try Data(contentsOf: URL(fileURLWithPath: scratch.file("look.bin")))
        let result = try CommandRunner.run(["convert", scratch.file("look.bin"), "--format", "raw"])
        #expect(result.status != 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.file("look.bin"))) == before)
    }

    @Test func convertWarnsAboutNoise() throws {
        let scratch = try Scratch()
        try CommandRunner.run(["generate", "--size", "16", "-o", scratch.file("ref.png")])
        var image = try PNGFile.read(path: scratch.file("ref.png"))
        guard case .eight(var samples) = image.pixels else { return }
        var state: UInt32 = 12345
        for i in samples.indices {
            state = state &* 1_103_515_245 &+ 12345
            let noise = Int((state >> 16) % 13) - 6
            samples[i] = UInt8(clamping: Int(samples[i]) + noise)
        }
        image.pixels = .eight(samples)
        try PNGFile.write(image, to: scratch.file("noisy.png"))
        let result = try CommandRunner.run(["convert", scratch.file("noisy.png")])
        #expect(result.status == 0)
        #expect(result.stderr.hasPrefix("colorcube: warning: \(scratch.file("noisy.png")) looks spatially edited"))
        #expect(scratch.exists("noisy.bin"))
    }

    /// `--format` and convert's help offer only the formats colorcube writes, each extension once.
    @Test func convertOffersOnlyTheFormatsItWrites() throws {
        let help = try CommandRunner.run(["convert", "--help"]).stdoutText
        let formatHelp = try #require(help.components(separatedBy: "--format <format>").dropFirst().first)
        #expect(!formatHelp.contains("spimtx") && !formatHelp.contains("1dl"), "\(formatHelp)")
        #expect(!help.contains("(.ccc) (.ccc)") && !help.contains("(.cube (Adobe"), "\(help)")
        let refused = try CommandRunner.run(["convert", "look.cube", "--format", "spimtx", "-o", "x.spimtx"])
        #expect(refused.status == 64 && refused.stderr.contains("invalid for '--format"), "\(refused.stderr)")
        let unknown = try CommandRunner.run(["convert", "look.cube", "-o", "x.foo"])
        let listed = unknown.stderr.split(separator: ";").last.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } ?? []
        #expect(unknown.stderr.contains(".icm") && Set(listed).count == listed.count, "\(unknown.stderr)")
    }
}
