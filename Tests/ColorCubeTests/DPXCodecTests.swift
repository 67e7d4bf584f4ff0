import ColorCubeCore
import ColorCubeImaging
import ColorCubeTransform
import Foundation
import Testing

@Suite struct DPXCodecTests {
    /// One way of storing samples: bits, packing, byte order.
    struct Layout: CustomStringConvertible, Sendable {
        var bits: Int
        var packing: DPXMetadata.Packing
        var bigEndian: Bool
        var description: String { "\(bits)-bit packing \(packing.rawValue) \(bigEndian ? "BE" : "LE")" }
    }

    static let layouts: [Layout] = [8, 10, 12, 16].flatMap { bits in
        let packings: [DPXMetadata.Packing] = bits == 10 || bits == 12 ? [.packed, .filledMethodA, .filledMethodB] : [.filledMethodA]
        return packings.flatMap { packing in [true, false].map { Layout(bits: bits, packing: packing, bigEndian: $0) } }
    }

    // MARK: Code values

    @Test(arguments: [10, 12])
    func everyWidenedCodeReducesBackExactly(bits: Int) {
        let top = (1 << bits) - 1
        let table = DPXFile.wideningTable(bitDepth: bits)
        #expect(table.count == top + 1 && table.first == 0 && table.last == 65535)
        for code in 0...top {
            let widened = Int(table[code])
            #expect(widened == Int((Double(code) * 65535 / Double(top)).rounded()))
            #expect(SampleDepth.reduce(table[code], toMaximum: UInt32(top)) == UInt32(code), "code \(code) of \(bits) bits")
        }
    }

    // MARK: Round trips

    /// Written at every depth, packing and byte order, RGB, RGBA and ABGR, at widths that leave
    /// words part full: the same codes come back, and writing what was read gives the same bytes.
    @Test(arguments: layouts, [(UInt8(50), 3), (UInt8(51), 4), (UInt8(52), 4)])
    func roundTripKeepsCodesAndBytes(layout: Layout, element: (descriptor: UInt8, channels: Int)) throws {
        let folder = try TemporaryDirectory()
        for width in [1, 2, 37] {
            var image = Self.pattern(width: width, height: 5, channels: element.channels, bits: layout.bits)
            image.metadata.dpx = DPXMetadata(bitDepth: layout.bits, packing: layout.packing, isBigEndian: layout.bigEndian,
                                             descriptor: element.descriptor, transfer: 2, colorimetric: 4, header: [])
            try DPXFile.write(image, to: folder.file("a.dpx"))
            let read = try DPXFile.read(path: folder.file("a.dpx"))
            #expect(read.width == width && read.height == 5 && read.channels == element.channels)
            #expect(read.bitDepth == (layout.bits == 8 ? 8 : 16))
            #expect(CodecTestImages.samples(read) == CodecTestImages.samples(image), "\(layout), width \(width)")
            #expect(read.colorSpace == .unspecified)
            let kept = try #require(read.metadata.dpx)
            #expect(kept.bitDepth == layout.bits && kept.packing == layout.packing && kept.isBigEndian == layout.bigEndian)
            #expect(kept.descriptor == element.descriptor && kept.transfer == 2 && kept.colorimetric == 4)
            #expect(read.metadata.colorSpaceID == "lin_rec709_scene")
            try DPXFile.write(read, to: folder.file("b.dpx"))
            #expect(try CodecTestImages.bytes(of: folder.file("b.dpx")) == CodecTestImages.bytes(of: folder.file("a.dpx")))
        }
    }

    @Test func lineLengthsFollowTheLayout() throws {
        let folder = try TemporaryDirectory()
        // 7 RGB pixels: 21 samples. 10-bit filled: 7 words; packed: 210 bits in 7 words; 12-bit
        // packed: 252 bits in 8 words; 12-bit filled: 21 halfwords; 8 and 16 bits: no rounding.
        let expected: [(bits: Int, packing: DPXMetadata.Packing, rowBytes: Int)] =
            [(10, .filledMethodA, 28), (10, .packed, 28), (12, .packed, 32), (12, .filledMethodB, 42), (8, .packed, 21), (16, .packed, 42)]
        for (bits, packing, rowBytes) in expected {
            var image = Self.pattern(width: 7, height: 3, channels: 3, bits: bits)
            image.metadata.dpx = DPXMetadata(bitDepth: bits, packing: packing, isBigEndian: true, descriptor: 50,
                                             transfer: 0, colorimetric: 0, header: [])
            try DPXFile.write(image, to: folder.file("a.dpx"))
            #expect(try CodecTestImages.bytes(of: folder.file("a.dpx")).count == 2048 + 3 * rowBytes, "\(bits) bits")
        }
    }

    /// The bit positions the standard gives, checked on the first word of a line.
    @Test func samplesSitWhereTheStandardPutsThem() throws {
        let folder = try TemporaryDirectory()
        let codes: [UInt16] = [0x3FF, 0x001, 0x155]
        let image = RasterImage(width: 1, height: 1, channels: 3, pixels: .sixteen(codes.map { Self.widen($0, bits: 10) }))
        func firstWord(_ packing: DPXMetadata.Packing, bits: Int = 10) throws -> UInt32 {
            var copy = image
            copy.metadata.dpx = DPXMetadata(bitDepth: bits, packing: packing, isBigEndian: true, descriptor: 50,
                                            transfer: 0, colorimetric: 0, header: [])
            try DPXFile.write(copy, to: folder.file("a.dpx"))
            let bytes = try CodecTestImages.bytes(of: folder.file("a.dpx"))
            return bytes[2048..<2052].reduce(0) { $0 << 8 | UInt32($1) }
        }
        #expect(try firstWord(.filledMethodA) == 0x3FF << 22 | 0x001 << 12 | 0x155 << 2)
        #expect(try firstWord(.filledMethodB) == 0x3FF << 20 | 0x001 << 10 | 0x155)
        #expect(try firstWord(.packed) == 0x155 << 20 | 0x001 << 10 | 0x3FF)
        // 12 bits filled: one sample per 16 bits, method A in the 12 highest.
        let twelve = codes.map { Self.widen(UInt16(Int($0) * 4095 / 1023), bits: 12) }
        let wide = RasterImage(width: 1, height: 1, channels: 3, pixels: .sixteen(twelve))
        var copy = wide
        copy.metadata.dpx = DPXMetadata(bitDepth: 12, packing: .filledMethodA, isBigEndian: false, descriptor: 50,
                                        transfer: 0, colorimetric: 0, header: [])
        try DPXFile.write(copy, to: folder.file("b.dpx"))
        let bytes = try CodecTestImages.bytes(of: folder.file("b.dpx"))
        #expect(UInt16(bytes[2048]) | UInt16(bytes[2049]) << 8 == 0xFFF << 4)
    }

    /// A picture from another format: 16 bits stay 16; 8 bits become 10-bit filled method A,
    /// which gives every 8-bit code back.
    @Test func otherFormatsGetTheDefaultLayout() throws {
        let folder = try TemporaryDirectory()
        let eight = CodecTestImages.smooth(width: 40, height: 9, channels: 4)
        try DPXFile.write(eight, to: folder.file("a.dpx"))
        let read = try DPXFile.read(path: folder.file("a.dpx"))
        let kept = try #require(read.metadata.dpx)
        #expect(kept.bitDepth == 10 && kept.packing == .filledMethodA && kept.isBigEndian && kept.descriptor == 51)
        #expect(kept.transfer == 0 && read.metadata.colorSpaceID == nil)
        guard case .sixteen(let samples) = read.pixels, case .eight(let original) = eight.pixels else {
            Issue.record("expected 16-bit samples from a 10-bit file")
            return
        }
        #expect(samples.map(SampleDepth.eightBit) == original)

        let sixteen = CodecTestImages.smooth16(width: 33, height: 7)
        try DPXFile.write(sixteen, to: folder.file("b.dpx"))
        let wide = try DPXFile.read(path: folder.file("b.dpx"))
        #expect(wide.metadata.dpx?.bitDepth == 16 && wide.metadata.dpx?.descriptor == 50)
        #expect(CodecTestImages.samples(wide) == CodecTestImages.samples(sixteen))
    }

    @Test func aDPXIsFoundByContentAndByExtension() throws {
        let folder = try TemporaryDirectory()
        try DPXFile.write(CodecTestImages.smooth(), to: folder.file("picture.bin"))
        let (image, format) = try ImageCodecs.read(path: folder.file("picture.bin"))
        #expect(format == .dpx && image.width == 64)
        #expect(ImageFormat(pathExtension: "DPX") == .dpx)
        #expect(ImageFormat(signature: Array("XPDS".utf8)) == .dpx)
    }

    // MARK: What the header says

    @Test(arguments: [(UInt8(1), "cineonlog_rec709_scene"), (3, "cineonlog_rec709_scene"), (2, "lin_rec709_scene"),
                      (5, "ocio:itu709_rec709_scene"), (6, "ocio:itu709_rec709_scene"), (7, "ocio:itu709_rec709_scene"),
                      (8, "ocio:itu709_rec709_scene")])
    func transferCharacteristicNamesASpace(transfer: UInt8, id: String) throws {
        let folder = try TemporaryDirectory()
        var image = CodecTestImages.smooth16(width: 4, height: 2)
        image.metadata.dpx = DPXMetadata(bitDepth: 10, packing: .filledMethodA, isBigEndian: true, descriptor: 50,
                                         transfer: transfer, colorimetric: transfer, header: [])
        try DPXFile.write(image, to: folder.file("a.dpx"))
        let read = try DPXFile.read(path: folder.file("a.dpx"))
        #expect(read.metadata.colorSpaceID == id)
        #expect(ColorSpaces.named(id) != nil, "\(id) is not in the catalogue")
        #expect(DPXMetadata.colorSpaceID(transfer: 0) == nil && DPXMetadata.colorSpaceID(transfer: 4) == nil)
    }

    /// Orientations 1...3 (right to left, bottom to top, both) are turned upright.
    @Test(arguments: [UInt16(1), 2, 3])
    func flippedOrientationsAreTurnedUpright(orientation: UInt16) throws {
        let folder = try TemporaryDirectory()
        let image = Self.pattern(width: 5, height: 3, channels: 3, bits: 16)
        var bytes = try Self.dpxBytes(image, folder: folder)
        Self.patch(&bytes, at: 768, UInt32(orientation), size: 2)
        try CodecTestImages.write(bytes, to: folder.file("b.dpx"))
        let read = try DPXFile.read(path: folder.file("b.dpx"))
        for y in 0..<3 {
            for x in 0..<5 {
                let sourceX = orientation & 1 == 1 ? 4 - x : x, sourceY = orientation >= 2 ? 2 - y : y
                for c in 0..<3 { #expect(read.pixels[(y * 5 + x) * 3 + c] == image.pixels[(sourceY * 5 + sourceX) * 3 + c]) }
            }
        }
        // A DPX output is written upright.
        try DPXFile.write(read, to: folder.file("c.dpx"))
        #expect(try CodecTestImages.bytes(of: folder.file("c.dpx"))[768..<770] == [0, 0])
    }

    @Test func lumaIsReadAsGreyRGB() throws {
        let folder = try TemporaryDirectory()
        let codes: [UInt16] = [0, 300, 1023, 512, 7, 1000]
        var header = try Self.dpxBytes(RasterImage(width: 2, height: 3, channels: 3, pixels: .sixteen(.init(repeating: 0, count: 18))),
                                       folder: folder, bits: 10, packing: .packed).prefix(2048)
        header[800] = 6
        // Six 10-bit codes packed: 60 bits in two words, least significant first; lines word aligned.
        var data: [UInt8] = []
        for line in 0..<3 {
            let word = UInt32(codes[2 * line]) | UInt32(codes[2 * line + 1]) << 10
            data += [UInt8(word >> 24), UInt8(word >> 16 & 0xFF), UInt8(word >> 8 & 0xFF), UInt8(word & 0xFF)]
        }
        try CodecTestImages.write(Array(header) + data, to: folder.file("y.dpx"))
        let read = try DPXFile.read(path: folder.file("y.dpx"))
        #expect(read.channels == 3 && read.metadata.dpx?.descriptor == 6)
        let expected = codes.flatMap { code in Array(repeating: Int(Self.widen(code, bits: 10)), count: 3) }
        #expect(CodecTestImages.samples(read) == expected)
        // Written back as RGB.
        try DPXFile.write(read, to: folder.file("out.dpx"))
        #expect(try DPXFile.read(path: folder.file("out.dpx")).metadata.dpx?.descriptor == 50)
    }

    @Test func endOfLinePaddingAndElementOffsetAreHonoured() throws {
        let folder = try TemporaryDirectory()
        let image = Self.pattern(width: 3, height: 4, channels: 3, bits: 16)
        let plain = try Self.dpxBytes(image, folder: folder)
        let rowBytes = 3 * 3 * 2
        // Pixels moved to 4096, each line followed by 6 bytes of padding.
        var bytes = Array(plain[0..<2048]) + [UInt8](repeating: 0xEE, count: 2048)
        for line in 0..<4 {
            let start = 2048 + line * rowBytes
            bytes += plain[start..<(start + rowBytes)] + [UInt8](repeating: 0xAB, count: line == 3 ? 0 : 6)
        }
        Self.patch(&bytes, at: 780 + 28, 4096)
        Self.patch(&bytes, at: 780 + 32, 6)
        try CodecTestImages.write(bytes, to: folder.file("p.dpx"))
        #expect(CodecTestImages.samples(try DPXFile.read(path: folder.file("p.dpx"))) == CodecTestImages.samples(image))
    }

    @Test func headersAndUserDataAreKept() throws {
        let folder = try TemporaryDirectory()
        var bytes = try Self.dpxBytes(Self.pattern(width: 4, height: 2, channels: 3, bits: 16), folder: folder)
        let project = Array("Reel 7 scan".utf8)
        bytes.replaceSubrange(260..<(260 + project.count), with: project)
        let user = Array("colorcube test user data id".utf8) + [UInt8](repeating: 0x5A, count: 37)
        bytes.insert(contentsOf: user, at: 2048)
        Self.patch(&bytes, at: 32, UInt32(user.count))
        Self.patch(&bytes, at: 16, UInt32(bytes.count))
        Self.patch(&bytes, at: 4, UInt32(2048 + user.count))
        Self.patch(&bytes, at: 780 + 28, UInt32(2048 + user.count))
        try CodecTestImages.write(bytes, to: folder.file("u.dpx"))
        let read = try DPXFile.read(path: folder.file("u.dpx"))
        #expect(read.metadata.dpx?.userData == user)
        try DPXFile.write(read, to: folder.file("out.dpx"))
        // The same file: headers, user data and pixels.
        #expect(try CodecTestImages.bytes(of: folder.file("out.dpx")) == bytes)
        // Another format drops the DPX fields.
        #expect(read.metadata.keepingOnlyNeutralFields().dpx == nil)
        #expect(read.metadata.keepingOnlyNeutralFields() != read.metadata)
    }

    // MARK: Hostile and unsupported files

    @Test func aHugeDeclaredSizeIsRefusedBeforeAllocation() throws {
        let folder = try TemporaryDirectory()
        var bytes = try Self.dpxBytes(Self.pattern(width: 2, height: 2, channels: 3, bits: 16), folder: folder)
        Self.patch(&bytes, at: 772, 0xFFFF_FFF0)
        Self.patch(&bytes, at: 776, 0xFFFF_FFF0)
        try CodecTestImages.write(bytes, to: folder.file("h.dpx"))
        let error = #expect(throws: ImageError.self) {
            try DPXFile.read(path: folder.file("h.dpx"), options: ImageReadOptions(pixelLimit: 1_000_000))
        }
        guard case .pixelLimit = error else {
            Issue.record("expected the pixel limit, got \(String(describing: error))")
            return
        }
    }

    @Test func aSizeWithinTheLimitButBeyondTheFileIsCorrupt() throws {
        let folder = try TemporaryDirectory()
        var bytes = try Self.dpxBytes(Self.pattern(width: 2, height: 2, channels: 3, bits: 16), folder: folder)
        Self.patch(&bytes, at: 772, 5000)
        Self.patch(&bytes, at: 776, 5000)
        try CodecTestImages.write(bytes, to: folder.file("h.dpx"))
        Self.expectCorrupt(folder.file("h.dpx"), mentioning: "needs")
    }

    @Test func truncatedPixelsAreCorrupt() throws {
        let folder = try TemporaryDirectory()
        let bytes = try Self.dpxBytes(Self.pattern(width: 9, height: 9, channels: 3, bits: 16), folder: folder)
        try CodecTestImages.write(Array(bytes.dropLast(7)), to: folder.file("t.dpx"))
        Self.expectCorrupt(folder.file("t.dpx"), mentioning: "the file has")
        try CodecTestImages.write(Array(bytes.prefix(700)), to: folder.file("short.dpx"))
        Self.expectCorrupt(folder.file("short.dpx"), mentioning: "inside its 2048-byte header")
    }

    @Test(arguments: [UInt32(0xFFFF_FFF0), 0x7FFF_FFFF, 100])
    func badOffsetsAreCorrupt(offset: UInt32) throws {
        let folder = try TemporaryDirectory()
        var bytes = try Self.dpxBytes(Self.pattern(width: 3, height: 3, channels: 3, bits: 16), folder: folder)
        Self.patch(&bytes, at: 780 + 28, offset)
        try CodecTestImages.write(bytes, to: folder.file("o.dpx"))
        Self.expectCorrupt(folder.file("o.dpx"))
        // End-of-line padding so large that the lines' span overflows.
        var padded = try Self.dpxBytes(Self.pattern(width: 3, height: 3, channels: 3, bits: 16), folder: folder)
        Self.patch(&padded, at: 780 + 32, offset == 100 ? 0xFFFF_FFFE : offset)
        try CodecTestImages.write(padded, to: folder.file("p.dpx"))
        Self.expectCorrupt(folder.file("p.dpx"))
    }

    /// What colorcube does not decode is refused with one line saying what the file holds.
    @Test(arguments: [
        (780 + 26, UInt32(1), 2, "run-length encoded"),
        (780 + 0, 1, 4, "signed samples"),
        (780 + 23, 32, 1, "floating-point"),
        (780 + 20, 100, 1, "colour-difference"),
        (780 + 20, 4, 1, "descriptor 4"),
        (770, 2, 2, "2 image elements"),
        (768, 5, 2, "transposed"),
    ])
    func unsupportedElementsAreRefused(offset: Int, value: UInt32, size: Int, words: String) throws {
        let folder = try TemporaryDirectory()
        var bytes = try Self.dpxBytes(Self.pattern(width: 3, height: 3, channels: 3, bits: 16), folder: folder)
        Self.patch(&bytes, at: offset, value, size: size)
        try CodecTestImages.write(bytes, to: folder.file("u.dpx"))
        let error = #expect(throws: ImageError.self) { try DPXFile.read(path: folder.file("u.dpx")) }
        guard case .unsupported(let path, let reason) = error else {
            Issue.record("expected .unsupported, got \(String(describing: error))")
            return
        }
        #expect(path == folder.file("u.dpx"))
        #expect(reason.contains(words), "\(reason)")
        #expect(!(error?.description.contains("\n") ?? true))
    }

    @Test func invalidFieldsAreCorrupt() throws {
        let folder = try TemporaryDirectory()
        for (offset, value, size) in [(780 + 23, UInt32(7), 1), (780 + 24, 9, 2), (770, 0, 2), (768, 9, 2)] {
            var bytes = try Self.dpxBytes(Self.pattern(width: 3, height: 3, channels: 3, bits: 10), folder: folder,
                                          bits: 10, packing: .filledMethodA)
            Self.patch(&bytes, at: offset, value, size: size)
            try CodecTestImages.write(bytes, to: folder.file("c.dpx"))
            Self.expectCorrupt(folder.file("c.dpx"))
        }
        try CodecTestImages.write(Array("SDPX".utf8), to: folder.file("magic.dpx"))
        Self.expectCorrupt(folder.file("magic.dpx"))
        try CodecTestImages.write(Array("TDPX and more".utf8), to: folder.file("not.dpx"))
        #expect(throws: ImageError.notAnImage(path: folder.file("not.dpx"))) { try DPXFile.read(path: folder.file("not.dpx")) }
    }

    // MARK: Other tools' files

    static let ffmpeg = executable("ffmpeg")
    static let oiiotool = executable("oiiotool")
    static let iinfo = executable("iinfo")

    /// ffmpeg's DPX files at every depth it writes, both byte orders: colorcube reads the codes
    /// ffmpeg's own decoder reads, and writes the pixel data back byte for byte.
    @Test(.enabled(if: ffmpeg != nil, "ffmpeg is not installed"),
          arguments: [("gbrp10le", 10), ("gbrp10be", 10), ("gbrp12le", 12), ("gbrp12be", 12), ("rgb48le", 16),
                      ("rgb48be", 16), ("rgba64le", 16), ("rgba64be", 16), ("rgb24", 8), ("rgba", 8)])
    func ffmpegFilesReadAsFFmpegReadsThem(pixelFormat: String, bits: Int) throws {
        let folder = try TemporaryDirectory()
        let dpx = folder.file("x.dpx"), png = folder.file("y.png")
        let alpha = pixelFormat.hasPrefix("rgba")
        try Self.run(Self.ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=64x48", "-frames:v", "1",
                                   "-pix_fmt", pixelFormat, dpx])
        try Self.run(Self.ffmpeg, ["-v", "error", "-y", "-i", dpx, "-pix_fmt",
                                   bits == 8 ? (alpha ? "rgba" : "rgb24") : (alpha ? "rgba64be" : "rgb48be"), png])
        let ours = try DPXFile.read(path: dpx), theirs = try PNGFile.read(path: png)
        #expect(ours.channels == theirs.channels && ours.width == 64 && ours.height == 48)
        #expect(Self.codes(ours, bits: bits) == Self.codes(theirs, bits: bits), "\(pixelFormat)")
        #expect(ours.metadata.dpx?.isBigEndian == pixelFormat.hasSuffix("be"))

        try DPXFile.write(ours, to: folder.file("out.dpx"))
        let input = try CodecTestImages.bytes(of: dpx), output = try CodecTestImages.bytes(of: folder.file("out.dpx"))
        let inputOffset = Int(ours.metadata.dpx?.isBigEndian == true
            ? input[4..<8].reduce(0) { $0 << 8 | UInt32($1) } : input[4..<8].reversed().reduce(0) { $0 << 8 | UInt32($1) })
        #expect(output[2048...] == input[inputOffset...], "the pixel data is not ffmpeg's")
        #expect(output[800..<808] == input[800..<808], "descriptor, transfer, colorimetric, bits, packing, encoding")
    }

    /// colorcube's files at every layout OpenImageIO reads, both byte orders: iinfo names the depth
    /// and packing, and oiiotool finds the picture equal to its own DPX of the same codes.
    @Test(.enabled(if: oiiotool != nil && iinfo != nil, "OpenImageIO's tools are not installed"),
          arguments: layouts.filter { !($0.bits == 12 && $0.packing != .packed) })
    func openImageIOReadsOurFiles(layout: Layout) throws {
        let folder = try TemporaryDirectory()
        var image = Self.pattern(width: 36, height: 20, channels: 4, bits: layout.bits)
        image.metadata.dpx = DPXMetadata(bitDepth: layout.bits, packing: layout.packing, isBigEndian: layout.bigEndian,
                                         descriptor: 51, transfer: 2, colorimetric: 2, header: [])
        let ours = folder.file("ours.dpx"), reference = folder.file("theirs.dpx")
        try DPXFile.write(image, to: ours)
        let info = try Self.run(Self.iinfo, ["-v", ours])
        #expect(info.contains("36 x   20, 4 channel, uint\(layout.bits) dpx"), "\(info)")
        if layout.bits == 10 {
            let packing = ["Packed", "Filled, method A", "Filled, method B"][layout.packing.rawValue]
            #expect(info.contains("dpx:Packing: \"\(packing)\""), "\(info)")
        }
        var wide = image
        wide.metadata = ImageMetadata()
        if case .eight(let samples) = image.pixels { wide.pixels = .sixteen(samples.map { UInt16($0) * 257 }) }
        try PNGFile.write(wide, to: folder.file("wide.png"))
        // OpenImageIO premultiplies a PNG's colours by its alpha unless told not to; DPX it leaves alone.
        try Self.run(Self.oiiotool, ["--iconfig", "oiio:UnassociatedAlpha", "1", folder.file("wide.png"),
                                     "-d", "uint\(layout.bits)", "-o", reference])
        let diff = try Self.run(Self.oiiotool, ["--fail", "0", "--diff", ours, reference], allowFailure: true)
        #expect(diff.contains("PASS"), "\(diff)")
    }

    /// OpenImageIO's packed and filled files, with lines that end part way through a word.
    @Test(.enabled(if: oiiotool != nil, "OpenImageIO's tools are not installed"),
          arguments: [("uint10", "Filled, method A"), ("uint10", "Filled, method B"), ("uint10", "Packed"), ("uint12", "Packed"),
                      ("uint8", "Packed"), ("uint16", "Packed")])
    func openImageIOFilesReadAsItReadsThem(type: String, packing: String) throws {
        let folder = try TemporaryDirectory()
        let image = Self.pattern(width: 37, height: 5, channels: 3, bits: 16)
        try PNGFile.write(image, to: folder.file("in.png"))
        try Self.run(Self.oiiotool, [folder.file("in.png"), "-d", type, "--attrib", "dpx:Packing", packing, "-o", folder.file("x.dpx")])
        try Self.run(Self.oiiotool, [folder.file("x.dpx"), "-d", "uint16", "-o", folder.file("y.png")])
        let bits = Int(type.dropFirst(4)) ?? 16
        let ours = try DPXFile.read(path: folder.file("x.dpx")), theirs = try PNGFile.read(path: folder.file("y.png"))
        #expect(Self.codes(ours, bits: bits) == Self.codes(theirs, bits: bits), "\(type) \(packing)")
    }

    // MARK: Helpers

    /// A picture of `bits`-bit codes spread over the whole range (stored widened at 16 bits for
    /// more than 8), different in every sample.
    static func pattern(width: Int, height: Int, channels: Int, bits: Int) -> RasterImage {
        let top = (1 << bits) - 1
        let codes = (0..<(width * height * channels)).map { index in UInt16((index * 7919 + index / 3 * 104_729) % (top + 1)) }
        if bits == 8 { return RasterImage(width: width, height: height, channels: channels, pixels: .eight(codes.map { UInt8($0) })) }
        return RasterImage(width: width, height: height, channels: channels, pixels: .sixteen(codes.map { widen($0, bits: bits) }))
    }

    static func widen(_ code: UInt16, bits: Int) -> UInt16 {
        bits == 16 ? code : DPXFile.wideningTable(bitDepth: bits)[Int(code)]
    }

    /// Every sample of `image` as a code of `bits` bits.
    static func codes(_ image: RasterImage, bits: Int) -> [Int] {
        switch image.integerSamples {
        case .eight(let samples):
            samples.map { Int(SampleDepth.reduce(UInt16($0) * 257, toMaximum: UInt32((1 << bits) - 1))) }
        case .sixteen(let samples):
            samples.map { Int(SampleDepth.reduce($0, toMaximum: UInt32((1 << bits) - 1))) }
        }
    }

    /// The bytes of a big-endian DPX of `image` (16-bit, or as asked).
    static func dpxBytes(_ image: RasterImage, folder: TemporaryDirectory, bits: Int = 16,
                         packing: DPXMetadata.Packing = .filledMethodA) throws -> [UInt8] {
        var copy = image
        copy.metadata.dpx = DPXMetadata(bitDepth: bits, packing: packing, isBigEndian: true,
                                        descriptor: image.channels == 3 ? 50 : 51, transfer: 0, colorimetric: 0, header: [])
        try DPXFile.write(copy, to: folder.file("base.dpx"))
        return try CodecTestImages.bytes(of: folder.file("base.dpx"))
    }

    /// Overwrites a big-endian field of `size` bytes.
    static func patch(_ bytes: inout [UInt8], at offset: Int, _ value: UInt32, size: Int = 4) {
        for index in 0..<size { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> UInt32(8 * (size - 1 - index))) }
    }

    static func expectCorrupt(_ path: String, mentioning words: String? = nil,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        let error = #expect(throws: ImageError.self, sourceLocation: sourceLocation) { try DPXFile.read(path: path) }
        guard case .corrupt(let named, let reason) = error else {
            Issue.record("expected .corrupt, got \(String(describing: error))", sourceLocation: sourceLocation)
            return
        }
        #expect(named == path, sourceLocation: sourceLocation)
        if let words { #expect(reason.contains(words), "\(reason)", sourceLocation: sourceLocation) }
    }

    static func executable(_ name: String) -> String? {
        ["/usr/bin/", "/usr/local/bin/", "/opt/homebrew/bin/"].map { $0 + name }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `tool`; its standard output and error. Throws when it fails, unless `allowFailure`.
    @discardableResult
    static func run(_ tool: String?, _ arguments: [String], allowFailure: Bool = false) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(tool))
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if !allowFailure { try #require(process.terminationStatus == 0, "\(tool ?? "") \(arguments): \(text)") }
        return text
    }
}
