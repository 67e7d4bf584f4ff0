import ColorCubeImaging
import Foundation
import Testing

@Suite struct WebPHEIFCommandTests {
    /// The 64x48 photo-like PNG of ApplyCommandTests, read back.
    static func photo(_ scratch: Scratch, channels: Int = 3) throws -> RasterImage {
        let path = scratch.file("photo-\(channels).png")
        try ApplyCommandTests.writePhoto(path, width: 64, height: 48, channels: channels)
        return try PNGFile.read(path: path)
    }

    @Test func invertLookOnALosslessWebPIsExactAndStaysLossless() throws {
        let scratch = try Scratch()
        let look = try ApplyCommandTests.writeInvertLook(scratch)
        let image = try Self.photo(scratch, channels: 4)
        try WebPFile.write(image, to: scratch.file("in.webp"), lossless: true)
        let result = try CommandRunner.run(["apply", look, scratch.file("in.webp"), "-o", scratch.file("out.webp")])
        #expect(result.status == 0, "\(result.stderr)")
        let output = try WebPFile.read(path: scratch.file("out.webp"))
        #expect(output.metadata.webpLossless == true)
        #expect(output.channels == 4)
        for index in 0..<image.pixels.count {
            let expected = index % 4 == 3 ? image.pixels[index] : 255 - image.pixels[index]
            #expect(output.pixels[index] == expected)
        }
    }

    @Test(arguments: ["heic", "avif", "webp"])
    func lossyFormatsAreGradedAndWrittenInTheirOwnFormat(format: String) throws {
        let scratch = try Scratch()
        let look = try ApplyCommandTests.writeInvertLook(scratch)
        let image = try Self.photo(scratch)
        let input = scratch.file("in.\(format)")
        try ImageCodecs.write(image, as: try #require(ImageFormat(pathExtension: format)), to: input)
        let decoded = try ImageCodecs.read(path: input).image
        let result = try CommandRunner.run(["apply", look, input, "-o", scratch.file("out.\(format)"),
                                            "--quality", "95"])
        #expect(result.status == 0, "\(result.stderr)")
        let output = try ImageCodecs.read(path: scratch.file("out.\(format)"))
        #expect(output.format == ImageFormat(pathExtension: format))
        var inverted = decoded
        inverted.pixels = .eight((0..<decoded.pixels.count).map { UInt8(255 - decoded.pixels[$0]) })
        var squares = 0.0
        for index in 0..<inverted.pixels.count {
            let difference = Double(output.image.pixels[index] - inverted.pixels[index])
            squares += difference * difference
        }
        let psnr = 10 * log10(255 * 255 / (squares / Double(inverted.pixels.count)))
        print("\(format): graded output against the inverted decoded input: PSNR \(psnr) dB")
        #expect(psnr >= 30)

        // The same command twice writes the same bytes.
        try CommandRunner.run(["apply", look, input, "-o", scratch.file("again.\(format)"), "--quality", "95"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.file("out.\(format)")))
                == Data(contentsOf: URL(fileURLWithPath: scratch.file("again.\(format)"))))
    }

    @Test func heicConvertsToJPEGAndPNG() throws {
        let scratch = try Scratch()
        let look = try ApplyCommandTests.writeInvertLook(scratch)
        try HEIFFile.write(try Self.photo(scratch), to: scratch.file("in.heic"), coding: .hevc)
        for output in ["out.jpg", "out.png", "out.avif", "out.webp"] {
            let result = try CommandRunner.run(["apply", look, scratch.file("in.heic"), "-o", scratch.file(output)])
            #expect(result.status == 0, "\(output): \(result.stderr)")
        }
        #expect(ImageFormat(sniffing: scratch.file("out.jpg")) == .jpeg)
        #expect(ImageFormat(sniffing: scratch.file("out.avif")) == .avif)
        #expect(ImageFormat(sniffing: scratch.file("out.webp")) == .webp)
    }

    @Test func truncatedFilesInAFolderFailOneByOneAndTheBatchGoesOn() throws {
        let scratch = try Scratch()
        let look = try ApplyCommandTests.writeInvertLook(scratch)
        try FileManager.default.createDirectory(atPath: scratch.file("in"), withIntermediateDirectories: true)
        let image = try Self.photo(scratch)
        try WebPFile.write(image, to: scratch.file("in/good.webp"))
        try HEIFFile.write(image, to: scratch.file("in/good.heic"), coding: .hevc)
        try HEIFFile.write(image, to: scratch.file("in/good.avif"), coding: .av1)
        for name in ["good.webp", "good.heic", "good.avif"] {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: scratch.file("in/\(name)")))
            try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: scratch.file("in/cut-\(name)")))
        }
        let result = try CommandRunner.run(["apply", look, scratch.file("in"), "-o", scratch.file("out")])
        #expect(result.status == 1)
        for name in ["cut-good.webp", "cut-good.heic", "cut-good.avif"] {
            let lines = result.stderr.split(separator: "\n").filter { $0.contains(scratch.file("in/\(name)")) }
            #expect(lines.count == 1, "\(name): \(result.stderr)")
            #expect(lines.first?.contains("is damaged or truncated") == true, "\(lines)")
        }
        #expect(result.stderr.hasSuffix("colorcube: 3 done, 0 skipped, 3 failed\n"), "\(result.stderr)")
        #expect(scratch.listing("out") == ["good.avif", "good.heic", "good.webp"])
    }
}
