import ColorCubeApplier
import ColorCubeEngine
import ColorCubeCore
import ColorCubeImaging
import Foundation
import Testing

@Suite struct TIFFCodecTests {
    /// ImageMagick's convert, when the real one is installed (tests that need it skip otherwise).
    static let imageMagick: String? = CodecTestImages.imageMagick

    // MARK: Round trips

    @Test(arguments: [(8, 3), (8, 4), (16, 3), (16, 4)])
    func exactRoundTrip(bits: Int, channels: Int) throws {
        let folder = try TemporaryDirectory()
        let image = Self.pattern(width: 70, height: 41, channels: channels, bits: bits)
        try TIFFFile.write(image, to: folder.file("a.tif"))
        let decoded = try TIFFFile.read(path: folder.file("a.tif"))
        #expect(decoded.width == 70 && decoded.height == 41 && decoded.channels == channels)
        #expect(decoded.bitDepth == bits)
        #expect(Self.difference(decoded.pixels, image.pixels) == nil)
        #expect(decoded.metadata.tiffCompression == TIFFFile.defaultCompression)
        #expect(decoded.metadata.imageCount == 1)
        #expect(decoded.colorSpace == .unspecified)
    }

    @Test(arguments: [1, 5, 8, 32946, 32773])
    func eachCompressionIsReadAndKept(compression: Int) throws {
        let folder = try TemporaryDirectory()
        let image = Self.pattern(width: 300, height: 120, channels: 3, bits: 16)
        try TIFFFile.write(image, to: folder.file("in.tif"), compression: compression)
        var input = try TIFFFile.read(path: folder.file("in.tif"))
        #expect(input.metadata.tiffCompression == compression)
        #expect(Self.difference(input.pixels, image.pixels) == nil)
        // Written again without naming a compression: the input's is kept.
        input.colorSpace = .unspecified
        try TIFFFile.write(input, to: folder.file("out.tif"))
        let output = try TIFFFile.read(path: folder.file("out.tif"))
        #expect(output.metadata.tiffCompression == compression)
        #expect(Self.difference(output.pixels, image.pixels) == nil)
    }

    @Test func writingIsDeterministicAndStripsAreSmall() throws {
        let folder = try TemporaryDirectory()
        let image = Self.pattern(width: 500, height: 300, channels: 4, bits: 16)
        try TIFFFile.write(image, to: folder.file("a.tif"))
        try TIFFFile.write(image, to: folder.file("b.tif"))
        let a = try Self.bytes(folder.file("a.tif"))
        #expect(a == (try Self.bytes(folder.file("b.tif"))))
        // 500 px x 8 bytes = 4000 bytes a row: 16 rows (64,000 bytes) a strip, 19 strips.
        let tags = Self.mainTags(a)
        #expect(tags[278] == 16)
        #expect(tags[317] == 2)  // horizontal predictor with Deflate
        #expect(tags[338] == 2)  // unassociated alpha
        #expect(!tags.keys.contains(306))  // no DateTime
    }

    @Test func otherFormatsCompressionIsNotCarried() throws {
        let folder = try TemporaryDirectory()
        var image = Self.pattern(width: 8, height: 8, channels: 3, bits: 8)
        image.metadata.tiffCompression = 7  // JPEG: never written, Deflate instead
        try TIFFFile.write(image, to: folder.file("a.tif"))
        #expect(try TIFFFile.read(path: folder.file("a.tif")).metadata.tiffCompression == 8)
        #expect(throws: ImageError.self) { try TIFFFile.write(image, to: folder.file("b.tif"), compression: 7) }
    }

    // MARK: Metadata

    @Test func colourTagIsWrittenAsPNGDoes() throws {
        let folder = try TemporaryDirectory()
        var image = Self.pattern(width: 8, height: 8, channels: 3, bits: 8)
        let profile = ICCProfileData(bytes: Array(ICCProfiles.sRGB.reversed()))
        image.colorSpace = .icc(profile)
        try TIFFFile.write(image, to: folder.file("icc.tif"))
        #expect(try TIFFFile.read(path: folder.file("icc.tif")).colorSpace == .icc(profile))
        image.colorSpace = .sRGB
        try TIFFFile.write(image, to: folder.file("srgb.tif"))
        #expect(try TIFFFile.read(path: folder.file("srgb.tif")).colorSpace == .icc(ICCProfileData(bytes: ICCProfiles.sRGB)))
        image.colorSpace = .unspecified
        try TIFFFile.write(image, to: folder.file("none.tif"))
        #expect(try TIFFFile.read(path: folder.file("none.tif")).colorSpace == .unspecified)
    }

    @Test func resolutionRoundTrips() throws {
        let folder = try TemporaryDirectory()
        var image = Self.pattern(width: 8, height: 8, channels: 3, bits: 8)
        image.metadata.resolution = ImageResolution(horizontal: 300, vertical: 150.5, unit: .inch)
        try TIFFFile.write(image, to: folder.file("dpi.tif"))
        #expect(try TIFFFile.read(path: folder.file("dpi.tif")).metadata.resolution == image.metadata.resolution)
        image.metadata.resolution = ImageResolution(horizontal: 118, vertical: 118, unit: .centimetre)
        try TIFFFile.write(image, to: folder.file("cm.tif"))
        #expect(try TIFFFile.read(path: folder.file("cm.tif")).metadata.resolution == image.metadata.resolution)
    }

    @Test func exifSurvivesTIFFToTIFFAndTIFFToJPEG() throws {
        let folder = try TemporaryDirectory()
        var image = Self.pattern(width: 16, height: 16, channels: 3, bits: 8)
        image.metadata.exif = Self.bigEndianExif
        try TIFFFile.write(image, to: folder.file("a.tif"))
        let tags = Self.mainTags(try Self.bytes(folder.file("a.tif")))
        #expect(tags[274] == 6)  // Orientation set as a main tag
        #expect(tags.keys.contains(271) && tags.keys.contains(34665))

        let first = try TIFFFile.read(path: folder.file("a.tif"))
        let block = try #require(first.metadata.exif)
        // The block read back is little-endian, and holds the values written (swapped).
        #expect(block.prefix(4) == [0x49, 0x49, 0x2A, 0x00])
        #expect(Self.contains(block, Array("Canon\0".utf8)))
        #expect(Self.contains(block, [0x01, 0x00, 0x00, 0x00, 0xFA, 0x00, 0x00, 0x00]))  // ExposureTime 1/250
        #expect(Self.contains(block, [0x27, 0x88, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0xC8, 0x00]))  // ISO 200
        #expect(Self.contains(block, Array("ASCII\0\0\0hi!".utf8)))  // UserComment

        // Written again and read again: the same block.
        try TIFFFile.write(first, to: folder.file("b.tif"))
        #expect(try TIFFFile.read(path: folder.file("b.tif")).metadata.exif == block)
        // To JPEG through the neutral field, and back.
        var neutral = first
        neutral.metadata = first.metadata.keepingOnlyNeutralFields()
        try JPEGFile.write(neutral, to: folder.file("c.jpg"))
        #expect(try JPEGFile.read(path: folder.file("c.jpg")).metadata.exif == block)
    }

    @Test func xmpSurvivesTIFFToTIFFAndTIFFToWebP() throws {
        let folder = try TemporaryDirectory()
        var image = Self.pattern(width: 16, height: 16, channels: 3, bits: 16)
        image.metadata.xmp = CodecTestImages.xmp
        try TIFFFile.write(image, to: folder.file("a.tif"))
        let first = try TIFFFile.read(path: folder.file("a.tif"))
        #expect(first.metadata.xmp == CodecTestImages.xmp)
        try TIFFFile.write(first, to: folder.file("b.tif"))
        #expect(try TIFFFile.read(path: folder.file("b.tif")).metadata.xmp == CodecTestImages.xmp)
        // A neutral field: it travels to another format.
        var neutral = first
        neutral.metadata = first.metadata.keepingOnlyNeutralFields()
        try WebPFile.write(neutral, to: folder.file("c.webp"), quality: 90)
        #expect(try WebPFile.read(path: folder.file("c.webp")).metadata.xmp == CodecTestImages.xmp)
        // And none is written where there was none.
        try TIFFFile.write(Self.pattern(width: 4, height: 4, channels: 3, bits: 8), to: folder.file("d.tif"))
        #expect(try TIFFFile.read(path: folder.file("d.tif")).metadata.xmp == nil)
    }

    // MARK: What other writers make

    @Test(.enabled(if: TIFFCodecTests.imageMagick != nil, "ImageMagick is not installed"),
          arguments: [
              ["-define", "tiff:tile-geometry=64x64", "-compress", "lzw"],
              ["-define", "tiff:tile-geometry=32x48", "-depth", "16", "-compress", "zip"],
              ["-interlace", "plane", "-compress", "zip"],
              ["-interlace", "plane", "-depth", "16", "-define", "tiff:tile-geometry=64x64"],
              ["-colorspace", "gray", "-compress", "rle"],
              ["-colorspace", "gray", "-depth", "16"],
              ["-colorspace", "gray", "-alpha", "set", "-channel", "A", "-evaluate", "set", "60%", "+channel"],
              ["-depth", "8", "-type", "palette"],
              ["-type", "bilevel", "-compress", "group4"],
              ["-colorspace", "gray", "-define", "tiff:photometric=min-is-white"],
              ["-alpha", "set", "-channel", "A", "-fx", "i/w", "+channel", "-depth", "16"],
          ])
    func readsWhatImageMagickWritesAsItsPNG(options: [String]) throws {
        let convert = try #require(Self.imageMagick)
        let folder = try TemporaryDirectory()
        let source = folder.file("source.png")
        try PNGFile.write(Self.pattern(width: 150, height: 100, channels: 3, bits: 16), to: source)
        try Self.run(convert, [source] + options + [folder.file("in.tif")])
        // ImageMagick's palette entries are 16-bit values, which its 8-bit PNG would round.
        let target = options.contains("palette") ? "PNG48:" + folder.file("same.png") : folder.file("same.png")
        try Self.run(convert, [folder.file("in.tif"), target])
        let tiff = try TIFFFile.read(path: folder.file("in.tif"))
        let png = try PNGFile.read(path: folder.file("same.png"))
        #expect(tiff.channels == png.channels && tiff.bitDepth == png.bitDepth, "\(options)")
        #expect(Self.difference(tiff.pixels, png.pixels) == nil, "\(options)")
    }

    @Test(.enabled(if: TIFFCodecTests.imageMagick != nil, "ImageMagick is not installed"))
    func associatedAlphaIsDividedOut() throws {
        let convert = try #require(Self.imageMagick)
        let folder = try TemporaryDirectory()
        var samples = [UInt8]()
        for alpha in [255, 128, 0] { samples += [200, 100, 50, UInt8(alpha)] }
        try PNGFile.write(RasterImage(width: 3, height: 1, channels: 4, pixels: .eight(samples)), to: folder.file("a.png"))
        try Self.run(convert, [folder.file("a.png"), "-define", "tiff:alpha=associated", folder.file("a.tif")])
        let image = try TIFFFile.read(path: folder.file("a.tif"))
        // Opaque: exact. Half: stored as ~100,50,25 and divided back within a code value.
        #expect(Array((0..<4).map { image.pixels[$0] }) == [200, 100, 50, 255])
        for c in 0..<3 { #expect(abs(image.pixels[4 + c] - Int(samples[c])) <= 1) }
        #expect(image.pixels[7] == 128 && image.pixels[11] == 0)
    }

    @Test(.enabled(if: TIFFCodecTests.imageMagick != nil, "ImageMagick is not installed"))
    func multiPageReadsTheFirstAndCountsThePages() throws {
        let convert = try #require(Self.imageMagick)
        let folder = try TemporaryDirectory()
        let first = Self.pattern(width: 40, height: 30, channels: 3, bits: 8)
        try PNGFile.write(first, to: folder.file("1.png"))
        try Self.run(convert, ["-size", "20x10", "xc:red", folder.file("2.png")])
        try Self.run(convert, [folder.file("1.png"), folder.file("2.png"), folder.file("2.png"), folder.file("pages.tif")])
        let image = try TIFFFile.read(path: folder.file("pages.tif"))
        #expect(image.metadata.imageCount == 3)
        #expect(image.width == 40 && Self.same(image.pixels, first.pixels))
        let read = try ImageCodecs.read(path: folder.file("pages.tif"))
        #expect(read.format == .tiff && read.image.metadata.imageCount == 3)
    }

    @Test(.enabled(if: TIFFCodecTests.imageMagick != nil, "ImageMagick is not installed"),
          arguments: [(["-colorspace", "cmyk"], "CMYK"),
                      // Floating-point TIFFs are read (as floats: TIFFCodecTests+Floats).
                      (["-depth", "32"], "32 bits"),
                      (["-compress", "jpeg"], "JPEG-compressed")])
    func unsupportedKindsAreNamed(options: [String], named: String) throws {
        let convert = try #require(Self.imageMagick)
        let folder = try TemporaryDirectory()
        try PNGFile.write(Self.pattern(width: 16, height: 16, channels: 3, bits: 8), to: folder.file("s.png"))
        let path = folder.file("odd.tif")
        try Self.run(convert, [folder.file("s.png")] + options + [path])
        let error = #expect(throws: ImageError.self) { try TIFFFile.read(path: path) }
        guard case .unsupported(let named2, let reason)? = error else {
            Issue.record("expected .unsupported, got \(String(describing: error))")
            return
        }
        #expect(named2 == path)
        #expect(reason.contains(named), "reason: \(reason)")
    }

    @Test(.enabled(if: TIFFCodecTests.imageMagick != nil, "ImageMagick is not installed"))
    func imageMagickReadsOurOutputAsTheSamePixels() throws {
        let convert = try #require(Self.imageMagick)
        let folder = try TemporaryDirectory()
        for (bits, channels) in [(8, 3), (16, 4)] {
            let image = Self.pattern(width: 90, height: 50, channels: channels, bits: bits)
            for compression in [1, 5, 8, 32773] {
                try TIFFFile.write(image, to: folder.file("o.tif"), compression: compression)
                try Self.run(convert, [folder.file("o.tif"), folder.file("o.png")])
                #expect(Self.same(try PNGFile.read(path: folder.file("o.png")).pixels, image.pixels),
                        "\(bits)-bit, \(channels) channels, compression \(compression)")
            }
        }
    }

    // MARK: Grading

    @Test func sixteenBitTIFFGradedWithIdentityIsUnchanged() throws {
        let folder = try TemporaryDirectory()
        let image = Self.pattern(width: 120, height: 80, channels: 4, bits: 16)
        try TIFFFile.write(image, to: folder.file("in.tif"), compression: 5)
        let applier = ImageApplier(engine: LUTEngine(cube: try ColorCube.identity(size: 33)))
        try applier.apply(input: folder.file("in.tif"), output: folder.file("out.tif"))
        let output = try TIFFFile.read(path: folder.file("out.tif"))
        #expect(output.bitDepth == 16 && output.channels == 4)
        #expect(Self.difference(output.pixels, image.pixels) == nil)
        #expect(output.metadata.tiffCompression == 5)
    }

    // MARK: Recognition and camera raw

    @Test func sniffing() throws {
        let folder = try TemporaryDirectory()
        try TIFFFile.write(Self.pattern(width: 4, height: 4, channels: 3, bits: 8), to: folder.file("x.bin"))
        #expect(ImageFormat(sniffing: folder.file("x.bin")) == .tiff)
        #expect(ImageFormat(signature: [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8]) == .tiff)
        #expect(ImageFormat(signature: [0x49, 0x49, 0x2B, 0x00, 8, 0, 0, 0]) == .tiff)
        #expect(ImageFormat(pathExtension: "TIF") == .tiff && ImageFormat(pathExtension: "tiff") == .tiff)
        #expect(ImageFormat(signature: Array("II*".utf8)) == nil)
    }

    @Test func dngIsRefusedByTheCameraRawCodec() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("photo.dng")
        try Data(Self.minimalDNG).write(to: URL(fileURLWithPath: path))
        #expect(ImageFormat(sniffing: path) == .cameraRaw)
        #expect(throws: ImageError.cameraRaw(path: path, kind: "DNG")) { try ImageCodecs.read(path: path) }
    }

    // MARK: Errors

    @Test func truncatedFileIsCorrupt() throws {
        let folder = try TemporaryDirectory()
        try TIFFFile.write(Self.pattern(width: 200, height: 200, channels: 3, bits: 8), to: folder.file("whole.tif"),
                           compression: 1)
        // libtiff writes the directory last: keep it and cut the pixel data short.
        var bytes = try Self.bytes(folder.file("whole.tif"))
        let directory = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
        bytes.removeSubrange(60_000..<directory)
        let shift = directory - 60_000
        bytes.replaceSubrange(4..<8, with: withUnsafeBytes(of: UInt32(60_000).littleEndian, Array.init))
        _ = shift  // the strip offsets now point past the end of the file
        let path = folder.file("cut.tif")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: ImageError.self) { try TIFFFile.read(path: path) }
        guard case .corrupt(let named, let reason)? = error else {
            Issue.record("expected .corrupt, got \(String(describing: error))")
            return
        }
        #expect(named == path)
        print("truncated TIFF: \(reason)")

        let half = folder.file("half.tif")
        try Data(try Self.bytes(folder.file("whole.tif")).prefix(50_000)).write(to: URL(fileURLWithPath: half))
        #expect(throws: ImageError.self) { try TIFFFile.read(path: half) }
    }

    @Test func hugeHeaderIsRefusedBeforeAllocating() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("huge.tif")
        try Data(Self.tiff(width: 200_000, height: 200_000)).write(to: URL(fileURLWithPath: path))
        #expect(throws: ImageError.pixelLimit(.tooManyPixels(path: path, width: 200_000, height: 200_000,
                                                 limit: ImageReadOptions.defaultPixelLimit))) {
            try TIFFFile.read(path: path)
        }
    }

    @Test func notATIFFAndMissingFiles() throws {
        let folder = try TemporaryDirectory()
        let text = folder.file("notes.tif")
        try Data("II not really\n".utf8).write(to: URL(fileURLWithPath: text))
        #expect(throws: ImageError.notAnImage(path: text)) { try TIFFFile.read(path: text) }
        let absent = folder.file("absent.tif")
        let error = #expect(throws: ImageError.self) { try TIFFFile.read(path: absent) }
        guard case .file(.cannotOpen(let named, _))? = error else {
            Issue.record("expected .cannotOpen, got \(String(describing: error))")
            return
        }
        #expect(named == absent)
    }

    @Test func writeErrorsNameTheDisplayPath() throws {
        let folder = try TemporaryDirectory()
        let image = Self.pattern(width: 4, height: 4, channels: 3, bits: 8)
        let error = #expect(throws: ImageError.self) {
            try TIFFFile.write(image, to: folder.file("no/such/out.tif"), displayPath: "out.tif")
        }
        guard case .file(.cannotWrite(let named, _))? = error else {
            Issue.record("expected .cannotWrite, got \(String(describing: error))")
            return
        }
        #expect(named == "out.tif")
        let grey = RasterImage(width: 2, height: 2, channels: 1, pixels: .eight([0, 1, 2, 3]))
        #expect(throws: ImageError.self) { try TIFFFile.write(grey, to: folder.file("g.tif")) }
        let short = RasterImage(width: 2, height: 2, channels: 3, pixels: .eight([0, 1, 2]))
        #expect(throws: ImageError.self) { try TIFFFile.write(short, to: folder.file("s.tif")) }
    }

    // MARK: Helpers

    /// Gradients and noise over the full code range.
    static func pattern(width: Int, height: Int, channels: Int, bits: Int) -> RasterImage {
        var state: UInt32 = 7
        var values = [Int]()
        let top = bits == 16 ? 65535 : 255
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                values.append(x * top / max(width - 1, 1))
                values.append(y * top / max(height - 1, 1))
                values.append(Int(state >> 16) * top / 65535)
                if channels == 4 { values.append((x + y) % 3 == 0 ? top : Int(state & 0xFFFF) * top / 65535) }
            }
        }
        let pixels: PixelStorage = bits == 16 ? .sixteen(values.map { UInt16($0) }) : .eight(values.map { UInt8($0) })
        return RasterImage(width: width, height: height, channels: channels, pixels: pixels)
    }

    /// Where two pixel buffers first differ ("sample 12: 40 vs 41"), or nil when they are equal.
    static func difference(_ a: PixelStorage, _ b: PixelStorage) -> String? {
        guard a.bitDepth == b.bitDepth, a.count == b.count else {
            return "\(a.bitDepth)-bit x \(a.count) vs \(b.bitDepth)-bit x \(b.count)"
        }
        guard let index = (0..<a.count).first(where: { a[$0] != b[$0] }) else { return nil }
        return "sample \(index): \(a[index]) vs \(b[index])"
    }

    static func same(_ a: PixelStorage, _ b: PixelStorage) -> Bool {
        switch (a, b) {
        case (.eight(let x), .eight(let y)): x == y
        case (.sixteen(let x), .sixteen(let y)): x == y
        default: false
        }
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    /// The first directory's tags of a little-endian TIFF, with their inline values.
    static func mainTags(_ file: [UInt8]) -> [Int: Int] {
        func u16(_ at: Int) -> Int { Int(file[at]) | Int(file[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        let first = u32(4)
        var tags: [Int: Int] = [:]
        for index in 0..<u16(first) {
            let entry = first + 2 + index * 12
            tags[u16(entry)] = u16(entry + 2) == 3 ? u16(entry + 8) : u32(entry + 8)
        }
        return tags
    }

    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        if process.terminationStatus != 0 { Issue.record("\(tool) \(arguments) failed: \(text)") }
        return text
    }

    /// A little-endian TIFF with entries (tag, type, count, inline value) as given, directory at 8.
    static func tiff(entries: [(UInt16, UInt16, UInt32, UInt32)], next: UInt32 = 0) -> [UInt8] {
        var out: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00]
        func put16(_ v: UInt16) { out += [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func put32(_ v: UInt32) { put16(UInt16(v & 0xFFFF)); put16(UInt16(v >> 16)) }
        put16(UInt16(entries.count))
        for (tag, type, count, value) in entries {
            put16(tag); put16(type); put32(count)
            if type == 3, count == 1 { put16(UInt16(value)); put16(0) } else { put32(value) }
        }
        put32(next)
        return out
    }

    /// An 8-bit RGB TIFF header of the given size with one strip of nothing.
    static func tiff(width: UInt32, height: UInt32) -> [UInt8] {
        tiff(entries: [(256, 4, 1, width), (257, 4, 1, height), (258, 3, 1, 8), (259, 3, 1, 1), (262, 3, 1, 2),
                       (273, 4, 1, 200), (277, 3, 1, 3), (278, 4, 1, height), (279, 4, 1, 100)])
            + [UInt8](repeating: 0, count: 300)
    }

    /// A DNG as raw converters see one: a small RGB preview with DNGVersion 1.4.0.0, and a SubIFD
    /// (at offset 200) holding CFA sensor data.
    static let minimalDNG: [UInt8] = {
        var file = tiff(entries: [(254, 4, 1, 1), (256, 4, 1, 8), (257, 4, 1, 8), (258, 3, 1, 8), (259, 3, 1, 1),
                                  (262, 3, 1, 2), (273, 4, 1, 400), (277, 3, 1, 3), (278, 4, 1, 8), (279, 4, 1, 192),
                                  (330, 4, 1, 200), (50706, 1, 4, 0x0000_0401)])
        file += [UInt8](repeating: 0, count: 200 - file.count)
        let sub = tiff(entries: [(254, 4, 1, 0), (256, 4, 1, 8), (257, 4, 1, 8), (258, 3, 1, 16), (259, 3, 1, 1),
                                 (262, 3, 1, 32803), (273, 4, 1, 600), (277, 3, 1, 1), (278, 4, 1, 8), (279, 4, 1, 128)])
        file += sub.dropFirst(8)
        file += [UInt8](repeating: 0, count: 800 - file.count)
        return file
    }()

    /// A big-endian EXIF block: Make "Canon", Orientation 6 and an EXIF directory with
    /// ExposureTime 1/250, ISO 200 and a UserComment.
    static let bigEndianExif: [UInt8] = {
        var out: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08]
        func put16(_ v: UInt16) { out += [UInt8(v >> 8), UInt8(v & 0xFF)] }
        func put32(_ v: UInt32) { put16(UInt16(v >> 16)); put16(UInt16(v & 0xFFFF)) }
        // IFD0 at 8: 3 entries -> 2 + 36 + 4 = 42 bytes, values from 50.
        put16(3)
        put16(271); put16(2); put32(6); put32(50)                   // Make -> 50
        put16(274); put16(3); put32(1); put16(6); put16(0)           // Orientation 6
        put16(34665); put16(4); put32(1); put32(56)                 // EXIF IFD -> 56
        put32(0)
        out += Array("Canon\0".utf8)                                  // 50..<56
        // EXIF IFD at 56: 3 entries -> 42 bytes, values from 98.
        put16(3)
        put16(33434); put16(5); put32(1); put32(98)                 // ExposureTime -> 98
        put16(34855); put16(3); put32(1); put16(200); put16(0)      // ISO 200
        put16(37510); put16(7); put32(11); put32(106)               // UserComment -> 106
        put32(0)
        put32(1); put32(250)                                          // 98..<106
        out += Array("ASCII\0\0\0hi!".utf8)                           // 106..<117
        return out
    }()
}
