/// The pixel count an image file's header declares, read without a decoder.
///
/// The image decoders allocate the whole raster from the header before reading any pixel data, so
/// a 30-byte file can ask for gigabytes. Refusing such sizes is the decoders' pixel limit; until
/// the harness can hand the decoders a small limit of their own, it skips inputs whose header
/// declares more than `maximumPixels`, so that the fuzzer spends its time on the decoding itself.
/// A file whose header this reading misses is still decoded: a large allocation from it is a
/// finding.
enum DeclaredSize {
    /// The largest image the image targets decode: 16 Mpx (128 MB at 16-bit RGBA).
    static let maximumPixels = 1 << 24

    /// True when `pixels` is unknown or at most `maximumPixels`.
    static func isSmall(_ pixels: Int?) -> Bool {
        pixels.map { $0 <= maximumPixels } ?? true
    }

    /// Width times height from a PNG's IHDR, which must be the first chunk (bytes 16...23).
    static func png(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes.count >= 24 else { return nil }
        let (pixels, overflow) = bigEndian(bytes, at: 16, count: 4).multipliedReportingOverflow(by: bigEndian(bytes, at: 20, count: 4))
        return overflow ? Int.max : pixels
    }

    /// Width times height from the largest frame header (SOFn) among the JPEG's marker segments.
    static func jpeg(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var largest: Int?
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { offset += 1; continue }
            let marker = bytes[offset + 1]
            if marker == 0xFF || marker == 0x00 || marker == 0x01 || (0xD0...0xD8).contains(marker) { offset += 2; continue }
            let length = bigEndian(bytes, at: offset + 2, count: 2)
            let isFrame = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
            if isFrame, offset + 9 <= bytes.count {
                let pixels = bigEndian(bytes, at: offset + 5, count: 2) * bigEndian(bytes, at: offset + 7, count: 2)
                largest = max(largest ?? 0, pixels)
            }
            offset += 2 + max(length, 2)
        }
        return largest
    }

    private static func bigEndian(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, count: Int) -> Int {
        (0..<count).reduce(0) { ($0 << 8) | Int(bytes[offset + $1]) }
    }
}
