import ColorCubeImaging
import Foundation
import Testing

@Suite struct JPEGFileTests {
    /// The full-size sample photo beside the package (../shared/photos), when it is there.
    static let rocketPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/photos/rocket.jpg").path

    // MARK: Pixels and subsampling

    @Test func roundTripAtQuality100And444StaysWithinAFewCodeValues() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("gradient.jpg")
        let image = Self.gradient(width: 67, height: 45)
        try JPEGFile.write(image, to: path, quality: 100, subsampling: (horizontal: 1, vertical: 1))

        let decoded = try JPEGFile.read(path: path)
        #expect(decoded.width == 67 && decoded.height == 45 && decoded.channels == 3)
        #expect(decoded.bitDepth == 8)
        #expect(decoded.colorSpace == .unspecified)
        let error = Self.maxDifference(decoded.pixels, image.pixels)
        print("quality 100, 4:4:4: largest error \(error) code values (expected at most 4)")
        #expect(error <= 4)
    }

    @Test(arguments: [(1, 1), (2, 1), (2, 2), (1, 2)])
    func subsamplingIsWrittenAndReadBack(horizontal: Int, vertical: Int) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("sub.jpg")
        try JPEGFile.write(Self.gradient(width: 40, height: 30), to: path,
                           subsampling: (horizontal: horizontal, vertical: vertical))
        let decoded = try JPEGFile.read(path: path)
        #expect(decoded.metadata.jpegSubsampling?.horizontal == horizontal)
        #expect(decoded.metadata.jpegSubsampling?.vertical == vertical)
    }

    @Test func subsamplingDefaultsToTheImagesOwnThenTo420() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var image = Self.gradient(width: 32, height: 32)
        try JPEGFile.write(image, to: folder.file("default.jpg"))
        let plain = try JPEGFile.read(path: folder.file("default.jpg"))
        #expect(plain.metadata.jpegSubsampling?.horizontal == 2)
        #expect(plain.metadata.jpegSubsampling?.vertical == 2)

        image.metadata.jpegSubsampling = (horizontal: 2, vertical: 1)
        try JPEGFile.write(image, to: folder.file("kept.jpg"))
        let kept = try JPEGFile.read(path: folder.file("kept.jpg"))
        #expect(kept.metadata.jpegSubsampling?.horizontal == 2)
        #expect(kept.metadata.jpegSubsampling?.vertical == 1)
    }

    @Test func alphaIsDroppedAnd16BitIsRounded() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("deep.jpg")
        let source = Self.gradient(width: 24, height: 16)
        var deep = [UInt16]()
        for pixel in 0..<source.pixelCount {
            for channel in 0..<3 { deep.append(UInt16(source.pixels[pixel * 3 + channel]) * 257) }
            deep.append(UInt16(pixel % 2 == 0 ? 0 : 65535))
        }
        let image = RasterImage(width: 24, height: 16, channels: 4, pixels: .sixteen(deep))
        try JPEGFile.write(image, to: path, quality: 100, subsampling: (horizontal: 1, vertical: 1))

        let decoded = try JPEGFile.read(path: path)
        #expect(decoded.channels == 3)
        let error = Self.maxDifference(decoded.pixels, source.pixels)
        print("16-bit RGBA written as 8-bit RGB: largest error \(error) code values (expected at most 4)")
        #expect(error <= 4)
    }

    @Test func greyscaleExpandsToRGBWithoutSubsampling() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("grey.jpg")
        try Data(Self.greyJPEG).write(to: URL(fileURLWithPath: path))
        let image = try JPEGFile.read(path: path)
        #expect(image.width == 8 && image.height == 8 && image.channels == 3)
        #expect(image.metadata.jpegSubsampling == nil)
        // Row y was encoded as grey y * 32 at quality 90.
        for y in 0..<8 {
            for x in 0..<8 {
                let base = (y * 8 + x) * 3
                #expect(image.pixels[base] == image.pixels[base + 1] && image.pixels[base] == image.pixels[base + 2])
                #expect(abs(image.pixels[base] - y * 32) <= 4, "row \(y): \(image.pixels[base]) vs \(y * 32)")
            }
        }
    }

    // MARK: Markers and profiles

    @Test func exifAndCommentsSurviveReadWriteReadByteForByte() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let exif = JPEGMarker(code: 0xE1, data: Self.exifWithOrientation(6))
        let comment = JPEGMarker(code: 0xFE, data: Array("graded with colorcube".utf8))
        var image = Self.gradient(width: 16, height: 16)
        image.metadata.jpegMarkers = [exif, comment]
        try JPEGFile.write(image, to: folder.file("first.jpg"))

        let first = try JPEGFile.read(path: folder.file("first.jpg"))
        #expect(first.metadata.jpegMarkers == [exif, comment])
        try JPEGFile.write(first, to: folder.file("second.jpg"))
        let second = try JPEGFile.read(path: folder.file("second.jpg"))
        #expect(second.metadata.jpegMarkers == [exif, comment])
    }

    @Test func iccProfileIsCarried() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var image = Self.gradient(width: 16, height: 16)
        let profile = ICCProfileData(bytes: ICCProfiles.sRGB)
        #expect(!profile.bytes.isEmpty)
        image.colorSpace = .icc(profile)
        try JPEGFile.write(image, to: folder.file("icc.jpg"))

        let decoded = try JPEGFile.read(path: folder.file("icc.jpg"))
        guard case .icc(let read) = decoded.colorSpace else {
            Issue.record("expected an ICC profile, read \(decoded.colorSpace)")
            return
        }
        #expect(read.bytes == profile.bytes)
        // The chunks are the colour tag, not metadata: writing again must not double them.
        #expect(decoded.metadata.jpegMarkers.isEmpty)
    }

    @Test func sRGBTagIsWrittenAsLittleCMSProfile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var image = Self.gradient(width: 8, height: 8)
        image.colorSpace = .sRGB
        try JPEGFile.write(image, to: folder.file("srgb.jpg"))
        let decoded = try JPEGFile.read(path: folder.file("srgb.jpg"))
        #expect(decoded.colorSpace == .icc(ICCProfileData(bytes: ICCProfiles.sRGB)))
    }

    @Test func largeProfileSpansSeveralMarkersAndIsReassembledInSequenceOrder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let bytes = (0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        var image = Self.gradient(width: 8, height: 8)
        image.colorSpace = .icc(ICCProfileData(bytes: bytes))
        try JPEGFile.write(image, to: folder.file("big.jpg"))

        // 150,000 bytes need three APP2 markers of at most 65,519 profile bytes each.
        var file = try Self.bytes(of: folder.file("big.jpg"))
        let chunks = Self.segments(of: file).filter { $0.code == 0xE2 }
        #expect(chunks.map { $0.range.count - 14 } == [65519, 65519, 150_000 - 2 * 65519])

        // A file may store the chunks in any order; the sequence numbers decide.
        let reordered = chunks.reversed().flatMap { file[$0.range.lowerBound - 4 ..< $0.range.upperBound] }
        let start = chunks[0].range.lowerBound - 4, end = chunks[2].range.upperBound
        file.replaceSubrange(start..<end, with: reordered)
        try Data(file).write(to: URL(fileURLWithPath: folder.file("reordered.jpg")))
        let decoded = try JPEGFile.read(path: folder.file("reordered.jpg"))
        #expect(decoded.colorSpace == .icc(ICCProfileData(bytes: bytes)))
    }

    @Test func incompleteProfileIsIgnored() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var image = Self.gradient(width: 8, height: 8)
        image.colorSpace = .icc(ICCProfileData(bytes: [UInt8](repeating: 9, count: 100_000)))
        try JPEGFile.write(image, to: folder.file("two.jpg"))

        var file = try Self.bytes(of: folder.file("two.jpg"))
        let second = try #require(Self.segments(of: file).filter { $0.code == 0xE2 }.last)
        file.removeSubrange(second.range.lowerBound - 4 ..< second.range.upperBound)
        try Data(file).write(to: URL(fileURLWithPath: folder.file("one.jpg")))
        let decoded = try JPEGFile.read(path: folder.file("one.jpg"))
        #expect(decoded.colorSpace == .unspecified)
        #expect(decoded.width == 8)
    }

    @Test func encodingMarkersInMetadataAreNotRepeated() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var image = Self.gradient(width: 16, height: 16)
        let comment = JPEGMarker(code: 0xFE, data: Array("kept".utf8))
        let jfif = JPEGMarker(code: 0xE0, data: Array("JFIF".utf8) + [0, 1, 2, 1, 0, 72, 0, 72, 0, 0])
        // Adobe transform 0 says "RGB, not YCbCr": copied into a YCbCr file it would swap the colours.
        let adobe = JPEGMarker(code: 0xEE, data: Array("Adobe".utf8) + [0, 100, 0, 0, 0, 0, 0])
        image.metadata.jpegMarkers = [jfif, adobe, comment]
        try JPEGFile.write(image, to: folder.file("markers.jpg"), quality: 100,
                           subsampling: (horizontal: 1, vertical: 1))

        let file = try Self.bytes(of: folder.file("markers.jpg"))
        #expect(Self.segments(of: file).filter { $0.code == 0xE0 }.count == 1)
        #expect(!Self.segments(of: file).contains { $0.code == 0xEE })
        let decoded = try JPEGFile.read(path: folder.file("markers.jpg"))
        #expect(decoded.metadata.jpegMarkers == [comment])
        #expect(Self.maxDifference(decoded.pixels, image.pixels) <= 4)
    }

    @Test func rowWriterInBandsMatchesWholeImageWrite() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let image = Self.gradient(width: 30, height: 20)
        try JPEGFile.write(image, to: folder.file("whole.jpg"))

        let writer = try JPEGRowWriter(path: folder.file("bands.jpg"), width: 30, height: 20)
        guard case .eight(let samples) = image.pixels else { return }
        for (first, count) in [(0, 7), (7, 7), (14, 6)] {
            let band = Array(samples[(first * 30 * 3)..<((first + count) * 30 * 3)])
            try band.withUnsafeBytes { try writer.write(rows: count, from: $0) }
        }
        try writer.finish()
        #expect(try Self.bytes(of: folder.file("bands.jpg")) == Self.bytes(of: folder.file("whole.jpg")))
    }

    @Test func rowWriterRefusesToFinishShort() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("short.jpg")
        let writer = try JPEGRowWriter(path: path, width: 4, height: 4)
        let row = [UInt8](repeating: 128, count: 4 * 3)
        try row.withUnsafeBytes { try writer.write(rows: 1, from: $0) }
        let error = #expect(throws: ImageError.self) { try writer.finish() }
        guard case .file(.cannotWrite(let named, let reason))? = error else {
            Issue.record("expected ImageError.cannotWrite, got \(String(describing: error))")
            return
        }
        #expect(named == path)
        print("finishing after 1 of 4 rows: \(reason)")
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: JPEGFileTests.rocketPath),
                   "the full-size sample photo ../shared/photos/rocket.jpg is not beside the package"))
    func decodesARealPhoto() throws {
        let image = try JPEGFile.read(path: Self.rocketPath)
        #expect(image.width == 640 && image.height == 427 && image.channels == 3)
        #expect(image.pixels.count == 640 * 427 * 3)
        guard case .icc(let profile) = image.colorSpace else {
            Issue.record("rocket.jpg carries an ICC profile, read \(image.colorSpace)")
            return
        }
        #expect(profile.bytes.count == 560)
        #expect(image.metadata.jpegSubsampling?.horizontal == 1)
        #expect(image.metadata.jpegSubsampling?.vertical == 1)
        #expect(image.metadata.jpegMarkers.map(\.code) == [0xFE])
    }

    // MARK: Errors

    @Test func truncatedFileIsCorrupt() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try JPEGFile.write(Self.gradient(width: 64, height: 64), to: folder.file("whole.jpg"))
        let whole = try Self.bytes(of: folder.file("whole.jpg"))
        let path = folder.file("half.jpg")
        try Data(whole.prefix(whole.count / 2)).write(to: URL(fileURLWithPath: path))

        let error = #expect(throws: ImageError.self) { try JPEGFile.read(path: path) }
        guard case .corrupt(let named, let reason)? = error else {
            Issue.record("expected ImageError.corrupt, got \(String(describing: error))")
            return
        }
        #expect(named == path)
        #expect(reason.contains("Premature end"), "reason: \(reason)")
    }

    @Test func textFileIsNotAnImage() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("notes.jpg")
        try Data("not a picture\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: ImageError.notAnImage(path: path)) { try JPEGFile.read(path: path) }
    }

    @Test func emptyFileIsNotAnImage() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("empty.jpg")
        try Data().write(to: URL(fileURLWithPath: path))
        #expect(throws: ImageError.notAnImage(path: path)) { try JPEGFile.read(path: path) }
    }

    @Test func missingFileCannotBeOpened() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("absent.jpg")
        let error = #expect(throws: ImageError.self) { try JPEGFile.read(path: path) }
        guard case .file(.cannotOpen(let named, _))? = error else {
            Issue.record("expected ImageError.cannotOpen, got \(String(describing: error))")
            return
        }
        #expect(named == path)
    }

    @Test func cmykIsRefusedWithAClearReason() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("cmyk.jpg")
        try Data(Self.cmykJPEG).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: ImageError.self) { try JPEGFile.read(path: path) }
        guard case .file(.cannotOpen(let named, let reason))? = error else {
            Issue.record("expected ImageError.cannotOpen, got \(String(describing: error))")
            return
        }
        #expect(named == path)
        #expect(reason.contains("CMYK JPEG is not supported"), "reason: \(reason)")
    }

    @Test func writeErrorsNameTheDisplayPath() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let image = Self.gradient(width: 8, height: 8)
        let missingFolder = folder.file("no/such/folder/out.jpg")
        let error = #expect(throws: ImageError.self) {
            try JPEGFile.write(image, to: missingFolder, displayPath: "out.jpg")
        }
        guard case .file(.cannotWrite(let named, _))? = error else {
            Issue.record("expected ImageError.cannotWrite, got \(String(describing: error))")
            return
        }
        #expect(named == "out.jpg")
    }

    @Test func impossibleRequestsAreRefusedBeforeWriting() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("bad.jpg")
        let image = Self.gradient(width: 8, height: 8)
        #expect(throws: ImageError.self) {
            try JPEGFile.write(image, to: path, subsampling: (horizontal: 3, vertical: 3))
        }
        let grey = RasterImage(width: 2, height: 2, channels: 1, pixels: .eight([0, 1, 2, 3]))
        #expect(throws: ImageError.self) { try JPEGFile.write(grey, to: path) }
        let short = RasterImage(width: 2, height: 2, channels: 3, pixels: .eight([0, 1, 2]))
        #expect(throws: ImageError.self) { try JPEGFile.write(short, to: path) }
        var tooLong = image
        tooLong.metadata.jpegMarkers = [JPEGMarker(code: 0xE1, data: [UInt8](repeating: 0, count: 65534))]
        #expect(throws: ImageError.self) { try JPEGFile.write(tooLong, to: path) }
        var notAppn = image
        notAppn.metadata.jpegMarkers = [JPEGMarker(code: 0xDB, data: [0])]
        #expect(throws: ImageError.self) { try JPEGFile.write(notAppn, to: path) }
    }

    // MARK: Helpers

    /// A smooth RGB pattern (JPEG's DCT reproduces it closely at high quality).
    static func gradient(width: Int, height: Int) -> RasterImage {
        var samples = [UInt8]()
        samples.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                samples.append(UInt8(40 + 170 * x / max(width - 1, 1)))
                samples.append(UInt8(30 + 190 * y / max(height - 1, 1)))
                samples.append(UInt8(200 - 120 * (x + y) / max(width + height - 2, 1)))
            }
        }
        return RasterImage(width: width, height: height, channels: 3, pixels: .eight(samples))
    }

    static func maxDifference(_ a: PixelStorage, _ b: PixelStorage) -> Int {
        precondition(a.count == b.count)
        return (0..<a.count).reduce(0) { max($0, abs(a[$1] - b[$1])) }
    }

    /// An EXIF APP1 payload whose only tag is Orientation.
    static func exifWithOrientation(_ orientation: UInt8) -> [UInt8] {
        Array("Exif".utf8) + [0, 0]
            + [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00]  // little-endian TIFF, IFD at 8
            + [0x01, 0x00]  // one entry
            + [0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, orientation, 0x00, 0x00, 0x00]
            + [0x00, 0x00, 0x00, 0x00]  // no next IFD
    }

    static func bytes(of path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The marker segments before the first scan: code and the range of the payload, which starts
    /// 4 bytes after the segment (0xFF, the code and a 2-byte length that counts itself).
    static func segments(of file: [UInt8]) -> [(code: UInt8, range: Range<Int>)] {
        var result: [(code: UInt8, range: Range<Int>)] = []
        var index = 2
        while index + 4 <= file.count, file[index] == 0xFF, file[index + 1] != 0xDA {
            let length = Int(file[index + 2]) << 8 | Int(file[index + 3])
            result.append((code: file[index + 1], range: (index + 4)..<(index + 2 + length)))
            index += 2 + length
        }
        return result
    }

    /// An 8x8 greyscale JPEG (no JFIF header) made with libjpeg: row y is grey y * 32, quality 90.
    static let greyJPEG: [UInt8] = [
        0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x43, 0x00, 0x03, 0x02, 0x02, 0x03, 0x02, 0x02, 0x03, 0x03, 0x03,
        0x03, 0x04, 0x03, 0x03, 0x04, 0x05, 0x08, 0x05, 0x05, 0x04, 0x04, 0x05, 0x0A, 0x07, 0x07, 0x06,
        0x08, 0x0C, 0x0A, 0x0C, 0x0C, 0x0B, 0x0A, 0x0B, 0x0B, 0x0D, 0x0E, 0x12, 0x10, 0x0D, 0x0E, 0x11,
        0x0E, 0x0B, 0x0B, 0x10, 0x16, 0x10, 0x11, 0x13, 0x14, 0x15, 0x15, 0x15, 0x0C, 0x0F, 0x17, 0x18,
        0x16, 0x14, 0x18, 0x12, 0x14, 0x15, 0x14, 0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x08, 0x00, 0x08,
        0x01, 0x01, 0x11, 0x00, 0xFF, 0xC4, 0x00, 0x14, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x06, 0xFF, 0xC4, 0x00, 0x17, 0x10, 0x00,
        0x03, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x19, 0x65, 0xA3, 0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0x28, 0xB6, 0xE5,
        0xE6, 0x7F, 0xFF, 0xD9,
    ]

    /// An 8x8 CMYK JPEG with an Adobe marker, made with libjpeg the same way.
    static let cmykJPEG: [UInt8] = [
        0xFF, 0xD8, 0xFF, 0xEE, 0x00, 0x0E, 0x41, 0x64, 0x6F, 0x62, 0x65, 0x00, 0x64, 0x00, 0x00, 0x00,
        0x00, 0x00, 0xFF, 0xDB, 0x00, 0x43, 0x00, 0x03, 0x02, 0x02, 0x03, 0x02, 0x02, 0x03, 0x03, 0x03,
        0x03, 0x04, 0x03, 0x03, 0x04, 0x05, 0x08, 0x05, 0x05, 0x04, 0x04, 0x05, 0x0A, 0x07, 0x07, 0x06,
        0x08, 0x0C, 0x0A, 0x0C, 0x0C, 0x0B, 0x0A, 0x0B, 0x0B, 0x0D, 0x0E, 0x12, 0x10, 0x0D, 0x0E, 0x11,
        0x0E, 0x0B, 0x0B, 0x10, 0x16, 0x10, 0x11, 0x13, 0x14, 0x15, 0x15, 0x15, 0x0C, 0x0F, 0x17, 0x18,
        0x16, 0x14, 0x18, 0x12, 0x14, 0x15, 0x14, 0xFF, 0xC0, 0x00, 0x14, 0x08, 0x00, 0x08, 0x00, 0x08,
        0x04, 0x43, 0x11, 0x00, 0x4D, 0x11, 0x00, 0x59, 0x11, 0x00, 0x4B, 0x11, 0x00, 0xFF, 0xC4, 0x00,
        0x14, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x06, 0xFF, 0xC4, 0x00, 0x17, 0x10, 0x00, 0x03, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x19, 0x65, 0xA3, 0xFF, 0xDA, 0x00, 0x0E,
        0x04, 0x43, 0x00, 0x4D, 0x00, 0x59, 0x00, 0x4B, 0x00, 0x00, 0x3F, 0x00, 0x28, 0xB6, 0xE5, 0xE6,
        0x14, 0x5B, 0x72, 0xF3, 0x0A, 0x2D, 0xB9, 0x79, 0x85, 0x16, 0xDC, 0xBC, 0xCF, 0xFF, 0xD9,
    ]
}

/// A fresh folder under the system's temporary directory; `remove()` deletes it and its files.
private struct TemporaryFolder {
    let path: String

    init() throws {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("colorcube-jpeg-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ name: String) -> String {
        path + "/" + name
    }
}
