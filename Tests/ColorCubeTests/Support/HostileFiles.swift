import ColorCubeImaging
import Foundation

/// Small files whose headers lie, and camera raw lookalikes, built byte by byte.
enum HostileFiles {
    /// A PNG of `width` x `height` RGB pixels by its header (a valid IHDR with a correct CRC),
    /// whose image data is an empty zlib stream.
    static func png(width: UInt32, height: UInt32) -> [UInt8] {
        var ihdr: [UInt8] = []
        ihdr += bigEndian(width) + bigEndian(height)
        ihdr += [8, 2, 0, 0, 0]  // 8 bits, RGB, deflate, adaptive filter, not interlaced
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr)
            + chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) + chunk("IEND", [])
    }

    /// A real 8x8 JPEG whose frame header is then rewritten to declare `width` x `height`.
    static func jpeg(width: UInt16, height: UInt16, scratch: String) throws -> [UInt8] {
        let image = RasterImage(width: 8, height: 8, channels: 3, pixels: .eight([UInt8](repeating: 128, count: 192)))
        try JPEGFile.write(image, to: scratch)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: scratch)))
        // SOF0: FF C0, length (2), precision (1), height (2), width (2).
        guard let sof = (0..<(bytes.count - 1)).first(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 }) else {
            return bytes
        }
        bytes.replaceSubrange((sof + 5)..<(sof + 9), with: bigEndian16(height) + bigEndian16(width))
        return bytes
    }

    /// A little-endian TIFF whose first directory holds `entries` (tag, type SHORT, value) and,
    /// when `subIFD` is given, a SubIFDs entry pointing at a second directory with those entries.
    static func tiff(entries: [(tag: UInt16, value: UInt16)], subIFD: [(tag: UInt16, value: UInt16)]? = nil,
                     magic: [UInt8] = [0x49, 0x49, 0x2A, 0x00]) -> [UInt8] {
        var bytes = magic + littleEndian32(8)
        func directory(_ list: [(tag: UInt16, value: UInt16)], extra: [(UInt16, UInt16, UInt32)]) -> [UInt8] {
            var all = list.map { ($0.tag, UInt16(3), UInt32($0.value)) } + extra
            all.sort { $0.0 < $1.0 }
            var out = littleEndian16(UInt16(all.count))
            for (tag, type, value) in all {
                out += littleEndian16(tag) + littleEndian16(type) + littleEndian32(1) + littleEndian32(value)
            }
            return out + littleEndian32(0)
        }
        let firstSize = 2 + 12 * (entries.count + (subIFD == nil ? 0 : 1)) + 4
        let subOffset = UInt32(8 + firstSize)
        bytes += directory(entries, extra: subIFD == nil ? [] : [(330, 4, subOffset)])
        if let subIFD { bytes += directory(subIFD, extra: []) }
        return bytes
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    /// How many times `needle` occurs in `bytes`.
    static func occurrences(of needle: [UInt8], in bytes: [UInt8]) -> Int {
        guard !needle.isEmpty, bytes.count >= needle.count else { return 0 }
        return (0...(bytes.count - needle.count)).reduce(0) { count, start in
            bytes[start..<(start + needle.count)].elementsEqual(needle) ? count + 1 : count
        }
    }

    /// The CRC-32 that PNG chunks end with (the same as gzip's), bit by bit.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func bigEndian16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    private static func littleEndian16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private static func littleEndian32(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }
}
