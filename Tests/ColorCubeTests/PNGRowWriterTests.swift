import ColorCubeImaging
import Foundation
import Testing

@Suite struct PNGRowWriterTests {
    /// A photo-like test image: smooth ramps plus noise, so every filter gets chosen somewhere.
    static func image(width: Int, height: Int, channels: Int, bitDepth: Int, seed: UInt64 = 7) -> RasterImage {
        var random = TestRandom(seed: seed)
        let count = width * height * channels
        let pixels: PixelStorage
        if bitDepth == 16 {
            var samples = [UInt16](repeating: 0, count: count)
            for index in 0..<count {
                let pixel = index / channels, x = pixel % width, y = pixel / width
                let ramp = (x * 37 + y * 91 + (index % channels) * 5000) & 0xFFFF
                samples[index] = UInt16(truncatingIfNeeded: ramp + Int(random.next() % 64))
            }
            pixels = .sixteen(samples)
        } else {
            var samples = [UInt8](repeating: 0, count: count)
            for index in 0..<count {
                let pixel = index / channels, x = pixel % width, y = pixel / width
                let ramp = (x / 3 + y / 2 + (index % channels) * 40) & 0xFF
                samples[index] = UInt8(truncatingIfNeeded: ramp + Int(random.next() % 6))
            }
            pixels = .eight(samples)
        }
        return RasterImage(width: width, height: height, channels: channels, pixels: pixels, colorSpace: .sRGB,
                           metadata: ImageMetadata())
    }

    /// Writes `image` with PNGRowWriter, handing rows over in pieces of `pieces` rows (all at once when nil).
    static func write(_ image: RasterImage, to path: String, workers: Int? = nil, pieces: Int? = nil,
                      level: Int = 6, filter: PNGRowWriter.Filter = .adaptive) throws {
        let writer = try PNGRowWriter(path: path, width: image.width, height: image.height,
                                      channels: image.channels, bitDepth: image.bitDepth,
                                      colorSpace: image.colorSpace, metadata: image.metadata,
                                      compressionLevel: level, filter: filter, workers: workers)
        let rowBytes = image.width * image.channels * image.bitDepth / 8
        func feed(_ bytes: UnsafeRawBufferPointer) throws {
            var row = 0
            while row < image.height {
                let count = min(pieces ?? image.height, image.height - row)
                try writer.write(rows: count, from: UnsafeRawBufferPointer(rebasing: bytes[(row * rowBytes)...]))
                row += count
            }
        }
        switch image.integerSamples {
        case .eight(let samples): try samples.withUnsafeBytes(feed)
        case .sixteen(let samples): try samples.withUnsafeBytes(feed)
        }
        try writer.finish()
    }

    static func samples(_ pixels: PixelStorage) -> [Int] {
        switch pixels {
        case .eight(let samples): samples.map(Int.init)
        case .sixteen(let samples): samples.map(Int.init)
        case .float(let samples): samples.map { Int(($0 * 65535).rounded()) }
        }
    }

    /// The chunks of a PNG file in order, each checked against its CRC.
    static func chunks(of path: String) throws -> [(name: String, data: [UInt8])] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var result: [(name: String, data: [UInt8])] = []
        var offset = 8
        func word(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        while offset + 12 <= bytes.count {
            let length = word(offset)
            let typeAndData = Array(bytes[(offset + 4)..<(offset + 8 + length)])
            #expect(UInt32(word(offset + 8 + length)) == HostileFiles.crc32(typeAndData), "CRC of chunk at \(offset)")
            result.append((String(decoding: typeAndData.prefix(4), as: UTF8.self), Array(typeAndData.dropFirst(4))))
            offset += 12 + length
        }
        #expect(offset == bytes.count, "bytes after the last chunk")
        return result
    }

    // 1x1, single columns, and rows long enough that one band holds one or a few rows (about 1 MiB
    // of filtered data a band), so that several bands and several batches of bands are joined.
    @Test(arguments: [
        (1, 1, 3, 8), (1, 1, 4, 16), (1, 300, 3, 8), (1, 257, 4, 16), (5, 3, 4, 8), (17, 33, 3, 16),
        (100_000, 23, 3, 8), (66_000, 37, 4, 16), (131_072, 5, 3, 8),
    ])
    func roundTripKeepsEverySample(width: Int, height: Int, channels: Int, bitDepth: Int) throws {
        let folder = try TemporaryDirectory()
        let image = Self.image(width: width, height: height, channels: channels, bitDepth: bitDepth)
        let path = folder.file("round.png")
        try Self.write(image, to: path)
        let read = try PNGFile.read(path: path)
        #expect(read.width == width && read.height == height)
        #expect(read.channels == channels && read.bitDepth == bitDepth)
        #expect(Self.samples(read.pixels) == Self.samples(image.pixels))
    }

    @Test(arguments: [PNGRowWriter.Filter.none, .sub, .up, .average, .paeth, .adaptive])
    func everyFilterDecodesToTheSamePixels(filter: PNGRowWriter.Filter) throws {
        let folder = try TemporaryDirectory()
        for bitDepth in [8, 16] {
            let image = Self.image(width: 61, height: 19, channels: 4, bitDepth: bitDepth)
            let path = folder.file("filter.png")
            try Self.write(image, to: path, filter: filter)
            #expect(Self.samples(try PNGFile.read(path: path).pixels) == Self.samples(image.pixels))
        }
    }

    @Test(arguments: [0, 1, 9, 12])
    func everyLevelDecodesToTheSamePixels(level: Int) throws {
        let folder = try TemporaryDirectory()
        let image = Self.image(width: 40_000, height: 60, channels: 3, bitDepth: 8)
        let path = folder.file("level.png")
        try Self.write(image, to: path, level: level)
        #expect(Self.samples(try PNGFile.read(path: path).pixels) == Self.samples(image.pixels))
    }

    @Test func greyImagesRoundTripAsRGB() throws {
        let folder = try TemporaryDirectory()
        for name in ["grey-16.png", "grey-alpha-16.png", "identity-4-palette.png"] {
            let original = try PNGFile.read(path: Fixtures.path(name))
            let path = folder.file(name)
            try PNGFile.write(original, to: path)
            let copy = try PNGFile.read(path: path)
            #expect(copy.channels == original.channels && copy.bitDepth == original.bitDepth)
            #expect(Self.samples(copy.pixels) == Self.samples(original.pixels), "\(name)")
        }
    }

    @Test func bytesDoNotDependOnWorkersOrHowRowsAreHandedIn() throws {
        let folder = try TemporaryDirectory()
        // 24 bands of two rows each: several batches of bands whatever the worker count.
        let image = Self.image(width: 70_000, height: 48, channels: 3, bitDepth: 16)
        try Self.write(image, to: folder.file("reference.png"))
        let reference = try Data(contentsOf: URL(fileURLWithPath: folder.file("reference.png")))
        let variants: [(workers: Int?, pieces: Int?)] = [(1, nil), (2, nil), (64, nil), (1, 1), (2, 3), (nil, 29), (nil, nil)]
        for (index, variant) in variants.enumerated() {
            let path = folder.file("variant-\(index).png")
            try Self.write(image, to: path, workers: variant.workers, pieces: variant.pieces)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(bytes == reference, "workers \(String(describing: variant.workers)), pieces \(String(describing: variant.pieces))")
        }
        let small = Self.image(width: 300, height: 200, channels: 3, bitDepth: 8)
        try Self.write(small, to: folder.file("small-1.png"), workers: 1, pieces: 7)
        try Self.write(small, to: folder.file("small-2.png"), workers: 2)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.file("small-1.png")))
            == Data(contentsOf: URL(fileURLWithPath: folder.file("small-2.png"))))
    }

    @Test func imageDataIsOneZlibStreamInIDATChunksOfAtMost256KiB() throws {
        let folder = try TemporaryDirectory()
        let image = Self.image(width: 70_000, height: 40, channels: 3, bitDepth: 16)
        let path = folder.file("idat.png")
        try Self.write(image, to: path, level: 0)
        let idat = try Self.chunks(of: path).filter { $0.name == "IDAT" }
        #expect(idat.count > 1)
        #expect(idat.dropLast().allSatisfy { $0.data.count == 256 * 1024 })
        // zlib header: deflate, 32 KiB window, the fastest level class, a valid check.
        let first = try #require(idat.first?.data)
        #expect(first[0] == 0x78 && first[1] == 0x01)
    }

    @Test func metadataChunksKeepTheirPlaces() throws {
        let folder = try TemporaryDirectory()
        var image = Self.image(width: 70_000, height: 20, channels: 3, bitDepth: 8)
        let text = PNGChunk(name: "tEXt", location: 0x01, data: Array("Author\u{0}Someone".utf8))
        let exif = PNGChunk(name: "eXIf", location: 0x02, data: [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 0])
        let late = PNGChunk(name: "tEXt", location: 0x08, data: Array("Comment\u{0}after the pixels".utf8))
        image.metadata.pngChunks = [text, exif, late]

        image.colorSpace = .sRGB
        let srgbPath = folder.file("srgb.png")
        try Self.write(image, to: srgbPath)
        let srgb = try Self.chunks(of: srgbPath).map(\.name)
        #expect(srgb.first == "IHDR" && srgb.last == "IEND")
        let firstIDAT = try #require(srgb.firstIndex(of: "IDAT")), lastIDAT = try #require(srgb.lastIndex(of: "IDAT"))
        #expect(srgb[firstIDAT...lastIDAT].allSatisfy { $0 == "IDAT" }, "IDAT chunks are consecutive")
        #expect(Array(srgb[..<firstIDAT]) == ["IHDR", "sRGB", "tEXt", "eXIf"])
        #expect(Array(srgb[(lastIDAT + 1)...]) == ["tEXt", "IEND"])
        let read = try PNGFile.read(path: srgbPath)
        #expect(read.colorSpace == .sRGB)
        #expect(read.metadata.pngChunks.map(\.data) == [text.data, exif.data, late.data])

        image.colorSpace = .icc(TestProfiles.displayP3())
        let iccPath = folder.file("icc.png")
        try Self.write(image, to: iccPath)
        let icc = try Self.chunks(of: iccPath).map(\.name)
        #expect(Array(icc.prefix(4)) == ["IHDR", "iCCP", "tEXt", "eXIf"])
        #expect(Array(icc.suffix(2)) == ["tEXt", "IEND"])
        #expect(try PNGFile.read(path: iccPath).colorSpace == image.colorSpace)
    }

    @Test func moreRowsThanTheHeightAreRefused() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("over.png")
        let writer = try PNGRowWriter(path: path, width: 4, height: 2, channels: 3, bitDepth: 8, colorSpace: .sRGB)
        let rows = [UInt8](repeating: 9, count: 4 * 3 * 3)
        #expect(throws: ImageError.cannotWrite(path: path, reason: "more rows were given than the image has")) {
            try rows.withUnsafeBytes { try writer.write(rows: 3, from: $0) }
        }
    }

    @Test func finishingEarlyIsRefused() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("short.png")
        let writer = try PNGRowWriter(path: path, width: 4, height: 2, channels: 3, bitDepth: 8, colorSpace: .sRGB)
        let rows = [UInt8](repeating: 9, count: 4 * 3)
        try rows.withUnsafeBytes { try writer.write(rows: 1, from: $0) }
        #expect(throws: ImageError.cannotWrite(path: path, reason: "fewer rows were given than the image has")) {
            try writer.finish()
        }
    }

    @Test func levelsOutsideTheScaleAreRefused() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("level.png")
        for level in [-1, 13] {
            #expect(throws: ImageError.cannotWrite(path: path, reason: "the compression level is outside 0...12")) {
                _ = try PNGRowWriter(path: path, width: 4, height: 2, channels: 3, bitDepth: 8, colorSpace: .sRGB,
                                     compressionLevel: level)
            }
        }
    }
}
