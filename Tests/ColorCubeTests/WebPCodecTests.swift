import ColorCubeApplier
import ColorCubeEngine
import ColorCubeCore
import ColorCubeImaging
import Foundation
import Testing

@Suite struct WebPCodecTests {
    // MARK: Pixels

    @Test func losslessRoundTripIsExactEvenUnderTransparentPixels() throws {
        let folder = try TemporaryDirectory()
        let image = CodecTestImages.smooth(channels: 4)
        #expect(CodecTestImages.samples(image).enumerated().contains { $0.offset % 4 == 3 && $0.element == 0 })
        try WebPFile.write(image, to: folder.file("exact.webp"), lossless: true)

        let decoded = try WebPFile.read(path: folder.file("exact.webp"))
        #expect(decoded.width == 64 && decoded.height == 48 && decoded.channels == 4 && decoded.bitDepth == 8)
        #expect(CodecTestImages.samples(decoded) == CodecTestImages.samples(image))
        #expect(decoded.metadata.webpLossless == true)
        #expect(decoded.metadata.isLossy == false)
        #expect(decoded.metadata.imageCount == 1)
        #expect(decoded.colorSpace == .unspecified)
    }

    @Test func opaqueImagesDecodeAsRGB() throws {
        let folder = try TemporaryDirectory()
        let image = CodecTestImages.smooth()
        try WebPFile.write(image, to: folder.file("rgb.webp"), lossless: true)
        let decoded = try WebPFile.read(path: folder.file("rgb.webp"))
        #expect(decoded.channels == 3)
        #expect(CodecTestImages.samples(decoded) == CodecTestImages.samples(image))
    }

    @Test func sixteenBitInputIsRoundedToEightBits() throws {
        let folder = try TemporaryDirectory()
        let image = CodecTestImages.smooth16()
        try WebPFile.write(image, to: folder.file("deep.webp"), lossless: true)
        let decoded = try WebPFile.read(path: folder.file("deep.webp"))
        guard case .sixteen(let deep) = image.pixels else { return }
        #expect(CodecTestImages.samples(decoded) == deep.map { (Int($0) * 255 + 32767) / 65535 })
    }

    @Test(arguments: [(92, 38.0), (75, 36.0)])
    func lossyRoundTripMeetsItsPSNR(quality: Int, threshold: Double) throws {
        let folder = try TemporaryDirectory()
        let image = CodecTestImages.smooth()
        try WebPFile.write(image, to: folder.file("lossy.webp"), quality: quality)
        let decoded = try WebPFile.read(path: folder.file("lossy.webp"))
        let psnr = CodecTestImages.psnr(decoded, image)
        print("WebP quality \(quality): PSNR \(psnr) dB on the smooth 64x48 image (threshold \(threshold))")
        #expect(psnr >= threshold)
        #expect(decoded.metadata.webpLossless == false)
        #expect(decoded.metadata.isLossy)
    }

    @Test func lossyAlphaIsKept() throws {
        let folder = try TemporaryDirectory()
        let image = CodecTestImages.smooth(channels: 4)
        try WebPFile.write(image, to: folder.file("alpha.webp"), quality: 92)
        let decoded = try WebPFile.read(path: folder.file("alpha.webp"))
        #expect(decoded.channels == 4)
        let alpha = { (image: RasterImage) in CodecTestImages.samples(image).enumerated().filter { $0.offset % 4 == 3 }.map(\.element) }
        #expect(alpha(decoded) == alpha(image), "alpha is coded losslessly at the default alpha quality")
    }

    @Test func encodingIsDeterministic() throws {
        let folder = try TemporaryDirectory()
        var image = CodecTestImages.smooth(channels: 4)
        image.colorSpace = .sRGB
        image.metadata.exif = CodecTestImages.exif(orientation: 1)
        for lossless in [false, true] {
            try WebPFile.write(image, to: folder.file("a.webp"), lossless: lossless)
            try WebPFile.write(image, to: folder.file("b.webp"), lossless: lossless)
            #expect(try CodecTestImages.bytes(of: folder.file("a.webp")) == CodecTestImages.bytes(of: folder.file("b.webp")))
        }
    }

    // MARK: Metadata

    @Test func iccExifAndXMPSurviveARoundTrip() throws {
        let folder = try TemporaryDirectory()
        var image = CodecTestImages.smooth()
        let profile = TestProfiles.displayP3()
        image.colorSpace = .icc(profile)
        image.metadata.exif = CodecTestImages.exif(orientation: 6)
        image.metadata.xmp = CodecTestImages.xmp
        try WebPFile.write(image, to: folder.file("meta.webp"), quality: 90)

        let decoded = try WebPFile.read(path: folder.file("meta.webp"))
        #expect(decoded.colorSpace == .icc(ICCProfileData(bytes: profile.bytes)))
        #expect(decoded.metadata.exif == CodecTestImages.exif(orientation: 6))
        #expect(decoded.metadata.xmp == CodecTestImages.xmp)
        // And once more through the reader's own output.
        try WebPFile.write(decoded, to: folder.file("again.webp"), quality: 90)
        #expect(try WebPFile.read(path: folder.file("again.webp")).metadata.exif == CodecTestImages.exif(orientation: 6))
    }

    @Test func sRGBTagIsWrittenAsLittleCMSProfile() throws {
        let folder = try TemporaryDirectory()
        var image = CodecTestImages.smooth()
        image.colorSpace = .sRGB
        try WebPFile.write(image, to: folder.file("srgb.webp"), lossless: true)
        #expect(try WebPFile.read(path: folder.file("srgb.webp")).colorSpace == .icc(ICCProfileData(bytes: ICCProfiles.sRGB)))
    }

    @Test func exifChunkWithJPEGPrefixIsReadAsTIFF() throws {
        let folder = try TemporaryDirectory()
        var image = CodecTestImages.smooth()
        image.metadata.exif = Array("Exif".utf8) + [0, 0] + CodecTestImages.exif(orientation: 3)
        try WebPFile.write(image, to: folder.file("prefixed.webp"), lossless: true)
        #expect(try WebPFile.read(path: folder.file("prefixed.webp")).metadata.exif == CodecTestImages.exif(orientation: 3))
    }

    // MARK: The codec table and the look

    @Test func sniffingAndExtensions() throws {
        let riff: [UInt8] = Array("RIFF".utf8) + [0x24, 0, 0, 0]
        #expect(ImageFormat(signature: riff + Array("WEBPVP8 ".utf8)) == .webp)
        #expect(ImageFormat(signature: riff + Array("WAVEfmt ".utf8)) == nil)
        #expect(ImageFormat(pathExtension: "WebP") == .webp)
        #expect(ImageCodecs.codec(for: .webp)?.displayName == "WebP")
    }

    @Test func losslessOutputOfALookIsExactlyTheEnginesResult() throws {
        let folder = try TemporaryDirectory()
        let image = CodecTestImages.smooth(channels: 4)
        try WebPFile.write(image, to: folder.file("in.webp"), lossless: true)
        try PNGFile.write(image, to: folder.file("in.png"))
        let look = try ColorCube(size: 17) { rgb in SIMD3(rgb.y * rgb.y, 1 - rgb.x, (rgb.z + rgb.x) / 2) }
        let applier = ImageApplier(engine: LUTEngine(cube: look))
        try applier.apply(input: folder.file("in.webp"), output: folder.file("out.webp"))
        try applier.apply(input: folder.file("in.png"), output: folder.file("out.png"))

        let fromWebP = try WebPFile.read(path: folder.file("out.webp"))
        let fromPNG = try PNGFile.read(path: folder.file("out.png"))
        #expect(fromWebP.metadata.webpLossless == true)
        #expect(CodecTestImages.samples(fromWebP) == CodecTestImages.samples(fromPNG))
        #expect(CodecTestImages.samples(fromWebP) != CodecTestImages.samples(image))
    }

    @Test(.enabled(if: CodecTestImages.imageMagick != nil, "ImageMagick is not installed"))
    func imageMagickReadsOurFilesToTheSamePixels() throws {
        let folder = try TemporaryDirectory()
        let image = CodecTestImages.smooth(channels: 4)
        try WebPFile.write(image, to: folder.file("ours.webp"), lossless: true)
        try WebPFile.write(image, to: folder.file("lossy.webp"), quality: 92)
        for name in ["ours", "lossy"] {
            #expect(try CodecTestImages.runImageMagick([folder.file("\(name).webp"), folder.file("\(name).png")]))
            let ours = try WebPFile.read(path: folder.file("\(name).webp"))
            let theirs = try PNGFile.read(path: folder.file("\(name).png"))
            #expect(CodecTestImages.samples(theirs) == CodecTestImages.samples(ours), "\(name).webp")
        }
    }

    @Test(.enabled(if: CodecTestImages.imageMagick != nil, "ImageMagick is not installed"))
    func weReadImageMagicksLosslessFilesExactly() throws {
        let folder = try TemporaryDirectory()
        let image = CodecTestImages.smooth()
        try PNGFile.write(image, to: folder.file("source.png"))
        #expect(try CodecTestImages.runImageMagick([folder.file("source.png"), "-define", "webp:lossless=true",
                                                    folder.file("theirs.webp")]))
        let decoded = try WebPFile.read(path: folder.file("theirs.webp"))
        #expect(CodecTestImages.samples(decoded) == CodecTestImages.samples(image))
        #expect(decoded.metadata.webpLossless == true)
    }

    // MARK: Errors

    @Test func truncatedFileIsCorrupt() throws {
        let folder = try TemporaryDirectory()
        try WebPFile.write(CodecTestImages.smooth(), to: folder.file("whole.webp"), quality: 92)
        let bytes = try CodecTestImages.bytes(of: folder.file("whole.webp"))
        let path = folder.file("cut.webp")
        try CodecTestImages.write(Array(bytes.prefix(bytes.count / 2)), to: path)
        let error = #expect(throws: ImageError.self) { try WebPFile.read(path: path) }
        guard case .corrupt(let named, let reason)? = error else {
            Issue.record("expected ImageError.corrupt, got \(String(describing: error))")
            return
        }
        #expect(named == path)
        print("truncated WebP: \(reason)")
    }

    @Test func hugeHeaderIsRefusedBeforeAnyAllocation() throws {
        let folder = try TemporaryDirectory()
        try WebPFile.write(CodecTestImages.smooth(), to: folder.file("small.webp"), lossless: true)
        var bytes = try CodecTestImages.bytes(of: folder.file("small.webp"))
        // A simple lossless file: "VP8L" at 12, its signature byte at 20, then 14 bits of width - 1
        // and 14 bits of height - 1.
        #expect(Array(bytes[12..<16]) == Array("VP8L".utf8) && bytes[20] == 0x2F)
        let fields = bytes[21..<25].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let huge = fields & 0xF000_0000 | 16383 | 16383 << 14
        for index in 0..<4 { bytes[21 + index] = UInt8(truncatingIfNeeded: huge >> (8 * UInt32(index))) }
        let path = folder.file("huge.webp")
        try CodecTestImages.write(bytes, to: path)

        let error = #expect(throws: ImageError.self) {
            try WebPFile.read(path: path, options: ImageReadOptions(pixelLimit: 100_000_000))
        }
        #expect(error == .pixelLimit(.tooManyPixels(path: path, width: 16384, height: 16384, limit: 100_000_000)))
        #expect(throws: ImageError.pixelLimit(.tooManyPixels(path: folder.file("small.webp"), width: 64, height: 48, limit: 3000))) {
            try WebPFile.read(path: folder.file("small.webp"), options: ImageReadOptions(pixelLimit: 3000))
        }
    }

    @Test func notAWebPAndMissingFile() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("fake.webp")
        try CodecTestImages.write(Array("RIFF\u{24}\0\0\0WAVEfmt data".utf8), to: path)
        #expect(throws: ImageError.notAnImage(path: path)) { try WebPFile.read(path: path) }
        let missing = folder.file("missing.webp")
        let error = #expect(throws: ImageError.self) { try WebPFile.read(path: missing) }
        guard case .file(.cannotOpen(let named, _))? = error else {
            Issue.record("expected ImageError.cannotOpen, got \(String(describing: error))")
            return
        }
        #expect(named == missing)
    }

    @Test func writeErrorsNameTheDisplayPath() throws {
        let folder = try TemporaryDirectory()
        let tooWide = RasterImage(width: 16384, height: 1, channels: 3, pixels: .eight([UInt8](repeating: 0, count: 16384 * 3)))
        let error = #expect(throws: ImageError.self) {
            try WebPFile.write(tooWide, to: folder.file("wide.webp"), displayPath: "shown.webp")
        }
        guard case .file(.cannotWrite(let named, let reason))? = error else {
            Issue.record("expected ImageError.cannotWrite, got \(String(describing: error))")
            return
        }
        #expect(named == "shown.webp")
        print("16384 pixels wide: \(reason)")
        #expect(throws: ImageError.cannotWrite(path: folder.file("none/x.webp"), reason: "No such file or directory")) {
            try WebPFile.write(CodecTestImages.smooth(), to: folder.file("none/x.webp"))
        }
    }
}

@Suite struct WebPAnimationTests {
    /// Tests/Fixtures/animated-red-blue.webp: 40x30, two lossless frames (red, then blue), made
    /// with libwebp's img2webp.
    @Test func animationGivesItsFirstFrameAndCountsTheFrames() throws {
        let image = try WebPFile.read(path: Fixtures.path("animated-red-blue.webp"))
        #expect(image.width == 40 && image.height == 30)
        #expect(image.metadata.imageCount == 2)
        #expect(image.metadata.webpLossless == false, "an animation is written back as a lossy still image")
        let pixel = (0..<image.channels).map { image.pixels[(7 * 40 + 9) * image.channels + $0] }
        #expect(Array(pixel.prefix(3)) == [255, 0, 0])
    }
}
