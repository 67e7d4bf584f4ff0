import ColorCubeImaging
import Foundation
import Testing

@Suite struct HEIFCodecTests {
    static let codings: [HEIFFile.Coding] = [.hevc, .av1]

    static func name(_ coding: HEIFFile.Coding) -> String { coding == .hevc ? "image.heic" : "image.avif" }

    // MARK: Pixels

    @Test(arguments: [(HEIFFile.Coding.hevc, 92, 40.0), (.av1, 92, 40.0), (.hevc, 60, 34.0), (.av1, 60, 34.0)])
    func lossyRoundTripMeetsItsPSNR(coding: HEIFFile.Coding, quality: Int, threshold: Double) throws {
        let folder = try TemporaryDirectory()
        let image = CodecTestImages.smooth()
        let path = folder.file(Self.name(coding))
        try HEIFFile.write(image, to: path, quality: quality, coding: coding)
        let decoded = try HEIFFile.read(path: path)
        #expect(decoded.width == 64 && decoded.height == 48 && decoded.channels == 3 && decoded.bitDepth == 8)
        let psnr = CodecTestImages.psnr(decoded, image)
        print("\(coding) quality \(quality): PSNR \(psnr) dB on the smooth 64x48 image (threshold \(threshold))")
        #expect(psnr >= threshold)
        #expect(decoded.metadata.isLossy)
        #expect(decoded.metadata.imageCount == 1)
    }

    @Test(arguments: codings)
    func oddSizesAndAlphaSurvive(coding: HEIFFile.Coding) throws {
        let folder = try TemporaryDirectory()
        let image = CodecTestImages.smooth(width: 37, height: 23, channels: 4)
        let path = folder.file(Self.name(coding))
        try HEIFFile.write(image, to: path, quality: 92, coding: coding)
        let decoded = try HEIFFile.read(path: path)
        #expect(decoded.width == 37 && decoded.height == 23 && decoded.channels == 4)
        let alphaError = stride(from: 3, to: image.pixels.count, by: 4).map { abs(decoded.pixels[$0] - image.pixels[$0]) }.max() ?? 0
        let psnr = CodecTestImages.psnr(decoded, image)
        print("\(coding) RGBA 37x23: colour PSNR \(psnr) dB, largest alpha error \(alphaError)")
        #expect(psnr >= 30)
        #expect(alphaError <= 24)
    }

    @Test(arguments: codings)
    func sixteenBitImagesAreCodedAtTenOrTwelveBitsAndReadBackAtSixteen(coding: HEIFFile.Coding) throws {
        let folder = try TemporaryDirectory()
        let image = CodecTestImages.smooth16()
        let path = folder.file(Self.name(coding))
        try HEIFFile.write(image, to: path, quality: 92, coding: coding)
        let decoded = try HEIFFile.read(path: path)
        #expect(decoded.bitDepth == 16 && decoded.channels == 3)
        // Every sample is a 10-bit (HEVC) or 12-bit (AV1) code scaled exactly: round(k * 65535 / top).
        let top = coding == .hevc ? 1023 : 4095
        let scaled = Set((0...top).map { ($0 * 65535 + top / 2) / top })
        #expect(CodecTestImages.samples(decoded).allSatisfy(scaled.contains))
        let psnr = CodecTestImages.psnr(decoded, image)
        print("\(coding) \(top == 1023 ? 10 : 12)-bit: PSNR \(psnr) dB at 16 bits")
        #expect(psnr >= 40)
    }

    @Test(arguments: codings)
    func encodingIsDeterministic(coding: HEIFFile.Coding) throws {
        let folder = try TemporaryDirectory()
        var image = CodecTestImages.smooth(channels: 4)
        image.colorSpace = .sRGB
        image.metadata.exif = CodecTestImages.exif(orientation: 1)
        try HEIFFile.write(image, to: folder.file("a"), coding: coding)
        try HEIFFile.write(image, to: folder.file("b"), coding: coding)
        #expect(try CodecTestImages.bytes(of: folder.file("a")) == CodecTestImages.bytes(of: folder.file("b")))
    }

    // MARK: Colour and metadata

    @Test(arguments: codings)
    func iccExifAndXMPSurviveARoundTrip(coding: HEIFFile.Coding) throws {
        let folder = try TemporaryDirectory()
        var image = CodecTestImages.smooth()
        let profile = TestProfiles.displayP3()
        image.colorSpace = .icc(profile)
        image.metadata.exif = CodecTestImages.exif(orientation: 1)
        image.metadata.xmp = CodecTestImages.xmp
        let path = folder.file(Self.name(coding))
        try HEIFFile.write(image, to: path, coding: coding)
        let decoded = try HEIFFile.read(path: path)
        #expect(decoded.colorSpace == .icc(ICCProfileData(bytes: profile.bytes)))
        #expect(decoded.metadata.exif == CodecTestImages.exif(orientation: 1))
        #expect(decoded.metadata.xmp == CodecTestImages.xmp)
    }

    @Test func exifOrientationIsResetBecauseThePixelsAreAlreadyTurned() throws {
        let folder = try TemporaryDirectory()
        var image = CodecTestImages.smooth()
        image.metadata.exif = CodecTestImages.exif(orientation: 6)
        try HEIFFile.write(image, to: folder.file("turned.heic"), coding: .hevc)
        #expect(try HEIFFile.read(path: folder.file("turned.heic")).metadata.exif == CodecTestImages.exif(orientation: 1))
    }

    @Test(arguments: codings)
    func sRGBIsWrittenAsNCLXAndReadBackAsSRGB(coding: HEIFFile.Coding) throws {
        let folder = try TemporaryDirectory()
        var image = CodecTestImages.smooth()
        image.colorSpace = .sRGB
        let path = folder.file(Self.name(coding))
        try HEIFFile.write(image, to: path, coding: coding, sRGBAsNCLX: true)
        let bytes = try CodecTestImages.bytes(of: path)
        let box = try #require(Self.nclxPrimariesOffset(in: bytes))
        #expect(Array(bytes[box..<(box + 7)]) == [0, 1, 0, 13, 0, 6, 0x80])
        #expect(try HEIFFile.read(path: path).colorSpace == .sRGB)
    }

    @Test func heicStoresSRGBAsAProfileByDefaultAndAVIFAsNCLX() throws {
        let folder = try TemporaryDirectory()
        var image = CodecTestImages.smooth()
        image.colorSpace = .sRGB
        try HEIFFile.write(image, to: folder.file("a.heic"), coding: .hevc)
        try HEIFFile.write(image, to: folder.file("a.avif"), coding: .av1)
        #expect(try HEIFFile.read(path: folder.file("a.heic")).colorSpace == .icc(ICCProfileData(bytes: ICCProfiles.sRGB)))
        #expect(Self.nclxPrimariesOffset(in: try CodecTestImages.bytes(of: folder.file("a.heic"))) == nil)
        #expect(try HEIFFile.read(path: folder.file("a.avif")).colorSpace == .sRGB)
    }

    /// A Display P3 nclx file (primaries 12, sRGB curve), made by relabelling an sRGB file's nclx
    /// box, so both decode to the same code values: the P3 file's colours must come out as Little
    /// CMS converts those codes from Display P3 to sRGB.
    @Test(arguments: codings)
    func displayP3NCLXIsConvertedToSRGB(coding: HEIFFile.Coding) throws {
        let folder = try TemporaryDirectory()
        var samples = [UInt8]()
        for _ in 0..<48 {
            for x in 0..<64 {
                let colour: [UInt8] = x < 24 ? [255, 0, 0] : x < 48 ? [128, 128, 128] : [40, 200, 90]
                samples += colour
            }
        }
        var image = RasterImage(width: 64, height: 48, channels: 3, pixels: .eight(samples), colorSpace: .sRGB)
        let srgbPath = folder.file("srgb-" + Self.name(coding))
        try HEIFFile.write(image, to: srgbPath, quality: 95, coding: coding, sRGBAsNCLX: true)
        var bytes = try CodecTestImages.bytes(of: srgbPath)
        let box = try #require(Self.nclxPrimariesOffset(in: bytes))
        bytes[box + 1] = 12
        let p3Path = folder.file("p3-" + Self.name(coding))
        try CodecTestImages.write(bytes, to: p3Path)

        let codes = try HEIFFile.read(path: srgbPath)
        image = try HEIFFile.read(path: p3Path)
        guard case .icc = image.colorSpace else {
            Issue.record("expected the P3 nclx box to become an ICC profile, read \(image.colorSpace)")
            return
        }
        #expect(CodecTestImages.samples(image) == CodecTestImages.samples(codes))
        try ColorConversion.convertToSRGB(&image, path: p3Path)
        #expect(image.colorSpace == .sRGB)

        var worst = 0.0
        var references: [[Int]: SIMD3<Double>] = [:]
        let p3 = TestProfiles.displayP3()
        for pixel in 0..<image.pixelCount {
            let code = (0..<3).map { codes.pixels[pixel * 3 + $0] }
            let expected = references[code] ?? TestProfiles.toSRGB(SIMD3(code.map { Double($0) / 255 }), from: p3)
            references[code] = expected
            for channel in 0..<3 {
                let wanted = min(max(expected[channel], 0), 1) * 255
                worst = max(worst, abs(Double(image.pixels[pixel * 3 + channel]) - wanted))
            }
        }
        print("\(coding) Display P3 nclx: largest difference from Little CMS \(worst) code values")
        #expect(worst <= 1.5)
        let red = (0..<3).map { image.pixels[(20 * 64 + 10) * 3 + $0] }
        let grey = (0..<3).map { image.pixels[(20 * 64 + 36) * 3 + $0] }
        let redCode = (0..<3).map { codes.pixels[(20 * 64 + 10) * 3 + $0] }
        print("P3 red decoded as \(redCode), in sRGB \(red); P3 grey in sRGB \(grey)")
        #expect(red[0] >= 250 && red[1] <= 6 && red[2] <= 6, "P3 red is beyond sRGB and clips to its red")
        #expect(grey.max()! - grey.min()! <= 1 && abs(grey[0] - 128) <= 3, "grey stays grey")
    }

    @Test func nclxDescriptionsBecomeTags() throws {
        let p3 = [0.680, 0.320, 0.265, 0.690, 0.150, 0.060, 0.3127, 0.3290]
        #expect(try NCLXProbe.tag(primaries: 1, transfer: 13) == .sRGB)
        #expect(try NCLXProbe.tag(primaries: 2, transfer: 2) == .sRGB)
        guard case .icc(let profile) = try NCLXProbe.tag(primaries: 12, transfer: 13, xy: p3) else {
            Issue.record("P3 must become an ICC profile")
            return
        }
        #expect(!ColorConversion.isSRGB(profile))
        let converted = TestProfiles.toSRGB(SIMD3(0.5, 0.5, 0.5), from: profile)
        #expect(abs(converted.x - 0.5) < 0.002 && abs(converted.y - 0.5) < 0.002 && abs(converted.z - 0.5) < 0.002)
        // The same description always gives the same bytes.
        #expect(try NCLXProbe.tag(primaries: 12, transfer: 13, xy: p3) == .icc(profile))
        #expect(throws: ImageError.unsupported(path: "hdr.avif", reason: "its nclx colour box declares transfer "
                                               + "characteristics 16 (an HDR or logarithmic curve), which colorcube does not grade")) {
            try NCLXProbe.tag(primaries: 9, transfer: 16, path: "hdr.avif")
        }
    }

    // MARK: The codec table

    @Test func sniffingFollowsTheFtypBrands() {
        func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
            let size = 16 + 4 * compatible.count
            return [0, 0, 0, UInt8(size)] + Array("ftyp".utf8) + Array(major.utf8) + [0, 0, 0, 0]
                + compatible.flatMap { Array($0.utf8) } + Array("....meta".utf8)
        }
        #expect(ImageFormat(signature: ftyp("heic", ["mif1", "heic"])) == .heic)
        #expect(ImageFormat(signature: ftyp("mif1", ["heix"])) == .heic)
        #expect(ImageFormat(signature: ftyp("msf1", ["hevc"])) == .heic)
        #expect(ImageFormat(signature: ftyp("avif", ["mif1", "miaf"])) == .avif)
        #expect(ImageFormat(signature: ftyp("mif1", ["miaf", "avif"])) == .avif)
        #expect(ImageFormat(signature: ftyp("avis", ["msf1"])) == .avif)
        #expect(ImageFormat(signature: ftyp("crx ", ["crx ", "isom"])) == .cameraRaw)
        #expect(ImageFormat(signature: ftyp("isom", ["iso2", "mp41"])) == nil)
        #expect(ImageFormat(signature: ftyp("qt  ", [])) == nil)
        #expect(ImageFormat(pathExtension: "HEIC") == .heic)
        #expect(ImageFormat(pathExtension: "heif") == .heic)
        #expect(ImageFormat(pathExtension: "avif") == .avif)
    }

    @Test(arguments: codings)
    func writtenFilesAreRecognisedAsTheirFormat(coding: HEIFFile.Coding) throws {
        let folder = try TemporaryDirectory()
        let path = folder.file(Self.name(coding))
        try HEIFFile.write(CodecTestImages.smooth(), to: path, coding: coding)
        #expect(ImageFormat(sniffing: path) == (coding == .hevc ? .heic : .avif))
    }

    // MARK: Errors

    @Test(arguments: codings)
    func truncatedFileIsAnError(coding: HEIFFile.Coding) throws {
        let folder = try TemporaryDirectory()
        let whole = folder.file(Self.name(coding))
        try HEIFFile.write(CodecTestImages.smooth(), to: whole, coding: coding)
        let bytes = try CodecTestImages.bytes(of: whole)
        for fraction in [0.2, 0.5, 0.9] {
            let path = folder.file("cut-\(fraction)-" + Self.name(coding))
            try CodecTestImages.write(Array(bytes.prefix(Int(Double(bytes.count) * fraction))), to: path)
            let error = #expect(throws: ImageError.self) { try HEIFFile.read(path: path) }
            guard case .corrupt(let named, let reason)? = error else {
                Issue.record("expected ImageError.corrupt, got \(String(describing: error))")
                continue
            }
            #expect(named == path)
            print("\(coding) cut to \(fraction): \(reason)")
        }
    }

    @Test func sizesOverThePixelLimitAreRefusedBeforeDecoding() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("small.heic")
        try HEIFFile.write(CodecTestImages.smooth(), to: path, coding: .hevc)
        // Checked by colorcube after parsing...
        #expect(throws: ImageError.pixelLimit(.tooManyPixels(path: path, width: 64, height: 48, limit: 3000))) {
            try HEIFFile.read(path: path, options: ImageReadOptions(pixelLimit: 3000))
        }
        // ...and by libheif's own security limit while parsing, when a side exceeds the limit.
        let error = #expect(throws: ImageError.self) {
            try HEIFFile.read(path: path, options: ImageReadOptions(pixelLimit: 40))
        }
        guard case .pixelLimit(.tooManyPixels(let named, let width, let height, let limit))? = error else {
            Issue.record("expected ImageError.pixelLimit, got \(String(describing: error))")
            return
        }
        #expect(named == path && limit == 40)
        print("libheif's limit: \(width)x\(height)")
    }

    @Test func hugeDeclaredSizeIsRefusedWithoutAllocating() throws {
        let folder = try TemporaryDirectory()
        // An AVIF has one ispe box (libheif wraps HEVC images in a grid, with one box per item).
        let small = folder.file("small.avif")
        try HEIFFile.write(CodecTestImages.smooth(), to: small, coding: .av1)
        var bytes = try CodecTestImages.bytes(of: small)
        // The ispe box: version and flags, then 32-bit width and height.
        let ispe = try #require(Self.offset(of: Array("ispe".utf8), in: bytes))
        let size: [UInt8] = [0, 0, 0x75, 0x30]  // 30000 a side: 900 million pixels
        bytes.replaceSubrange((ispe + 8)..<(ispe + 12), with: size)
        bytes.replaceSubrange((ispe + 12)..<(ispe + 16), with: size)
        let path = folder.file("huge.avif")
        try CodecTestImages.write(bytes, to: path)
        #expect(throws: ImageError.pixelLimit(.tooManyPixels(path: path, width: 30000, height: 30000,
                                                 limit: ImageReadOptions.defaultPixelLimit))) {
            try HEIFFile.read(path: path)
        }
    }

    /// The container says 16x12 but the codec's own headers (an HEVC SPS, an AV1 sequence header)
    /// say 512x256: the codec would size its buffers from the latter, so they are checked too.
    @Test(arguments: codings)
    func codecHeadersLargerThanTheContainerAreRefusedBeforeDecoding(coding: HEIFFile.Coding) throws {
        let folder = try TemporaryDirectory()
        let large = folder.file("large." + (coding == .hevc ? "heic" : "avif"))
        try HEIFFile.write(CodecTestImages.smooth(width: 512, height: 256), to: large, coding: coding)
        var bytes = try CodecTestImages.bytes(of: large)
        let ispe = try #require(Self.offset(of: Array("ispe".utf8), in: bytes))
        #expect(Self.offset(of: Array("ispe".utf8), in: Array(bytes[(ispe + 4)...])) == nil, "one ispe box")
        bytes.replaceSubrange((ispe + 8)..<(ispe + 16), with: [0, 0, 0, 16, 0, 0, 0, 12])
        let path = folder.file("lying." + (coding == .hevc ? "heic" : "avif"))
        try CodecTestImages.write(bytes, to: path)
        #expect(throws: ImageError.pixelLimit(.tooManyPixels(path: path, width: 512, height: 256, limit: 4096))) {
            try HEIFFile.read(path: path, options: ImageReadOptions(pixelLimit: 4096))
        }
        // Within the limit the codec decodes it, and the size mismatch is reported as damage.
        let error = #expect(throws: ImageError.self) { try HEIFFile.read(path: path) }
        guard case .corrupt(let named, _)? = error else {
            Issue.record("expected ImageError.corrupt, got \(String(describing: error))")
            return
        }
        #expect(named == path)
    }

    @Test func notAHEIFAndMissingFile() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("fake.heic")
        try CodecTestImages.write([0, 0, 0, 16] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("garbage".utf8), to: path)
        let error = #expect(throws: ImageError.self) { try HEIFFile.read(path: path) }
        #expect(error?.path == path)
        let missing = folder.file("missing.heic")
        let absent = #expect(throws: ImageError.self) { try HEIFFile.read(path: missing) }
        guard case .file(.cannotOpen(let named, _))? = absent else {
            Issue.record("expected ImageError.cannotOpen, got \(String(describing: absent))")
            return
        }
        #expect(named == missing)
    }

    @Test func writeErrorsNameTheDisplayPath() throws {
        let folder = try TemporaryDirectory()
        let error = #expect(throws: ImageError.self) {
            try HEIFFile.write(CodecTestImages.smooth(), to: folder.file("none/x.heic"), displayPath: "shown.heic", coding: .hevc)
        }
        guard case .file(.cannotWrite(let named, let reason))? = error else {
            Issue.record("expected ImageError.cannotWrite, got \(String(describing: error))")
            return
        }
        #expect(named == "shown.heic")
        print("writing into a missing folder: \(reason)")
    }

    // MARK: Helpers

    /// The tag an nclx description gives.
    enum NCLXProbe {
        static func tag(primaries: Int, transfer: Int, xy: [Double] = NCLXColor.bt709Chromaticities,
                        path: String = "image.heic") throws(ImageError) -> ColorSpaceTag {
            try NCLXColor(primaries: primaries, transfer: transfer, chromaticities: xy).colorSpace(path: path)
        }
    }

    static func offset(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    /// Where the colour primaries of the first nclx colour box start.
    static func nclxPrimariesOffset(in bytes: [UInt8]) -> Int? {
        offset(of: Array("colrnclx".utf8), in: bytes).map { $0 + 8 }
    }
}
