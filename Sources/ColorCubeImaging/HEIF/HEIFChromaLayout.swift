import Foundation

/// The chroma subsampling of a HEIF file's coded images, read from the codec configuration
/// properties in its `meta` box (`iprp` / `ipco`): an HEVC `hvcC` box's chroma_format_idc, an AV1
/// `av1C` box's subsampling bits. libheif 1.15 has no call that tells it short of a full decode.
///
/// Every colour image's configuration counts (the primary image, its tiles, its thumbnails);
/// monochrome ones (an alpha plane) are skipped. The layout is unknown, and nil returned, when
/// there is none, when they disagree, or when a transform property (`irot`, `imir`, `clap`)
/// could turn or crop the picture so that the decoded blocks no longer sit on even pixels.
enum HEIFChromaLayout {
    /// The top-level boxes read before giving up, and the largest `meta` box read.
    static let boxLimit = 64
    static let metaLimit = 16 << 20

    /// Pixels per chroma sample across and down: (2, 2) for 4:2:0, (2, 1) for 4:2:2, (1, 1) for
    /// 4:4:4; nil when unknown (see above) or the file cannot be read.
    static func read(path: String) -> (horizontal: Int, vertical: Int)? {
        guard let file = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? file.close() }
        var offset: UInt64 = 0
        for _ in 0..<boxLimit {
            guard let header = try? read(file, at: offset, count: 16), header.count >= 8 else { return nil }
            let size32 = UInt64(bigEndian(header, 0))
            let type = String(decoding: header[4..<8], as: UTF8.self)
            var size = size32, headerSize: UInt64 = 8
            if size32 == 1 {
                guard header.count == 16 else { return nil }
                size = UInt64(bigEndian(header, 8)) << 32 | UInt64(bigEndian(header, 12))
                headerSize = 16
            } else if size32 == 0 {
                size = .max  // to the end of the file
            }
            guard size >= headerSize else { return nil }
            if type == "meta" {
                guard size - headerSize <= UInt64(metaLimit),
                      let body = try? read(file, at: offset + headerSize, count: Int(size - headerSize)),
                      body.count == Int(size - headerSize), body.count >= 4 else { return nil }
                return layout(meta: body)
            }
            guard size != .max else { return nil }
            offset += size
        }
        return nil
    }

    /// The layout from a `meta` box's payload (a full box: 4 bytes of version and flags first).
    static func layout(meta: [UInt8]) -> (horizontal: Int, vertical: Int)? {
        guard let iprp = children(of: meta, from: 4).first(where: { $0.type == "iprp" }),
              let ipco = children(of: meta, in: iprp.range).first(where: { $0.type == "ipco" }) else { return nil }
        var found: (horizontal: Int, vertical: Int)?
        for box in children(of: meta, in: ipco.range) {
            let payload = meta[box.range]
            let layout: (horizontal: Int, vertical: Int)?
            switch box.type {
            case "irot", "imir", "clap":
                return nil
            case "hvcC":
                // HEVCDecoderConfigurationRecord: chroma_format_idc in the low 2 bits of byte 16.
                guard payload.count > 16 else { return nil }
                switch payload[payload.startIndex + 16] & 3 {
                case 1: layout = (2, 2)
                case 2: layout = (2, 1)
                case 3: layout = (1, 1)
                default: layout = nil  // monochrome
                }
            case "av1C":
                // AV1CodecConfigurationRecord byte 2: monochrome 0x10, subsampling_x 0x08, _y 0x04.
                guard payload.count > 2 else { return nil }
                let bits = payload[payload.startIndex + 2]
                layout = bits & 0x10 != 0 ? nil : (bits & 0x08 != 0 ? 2 : 1, bits & 0x04 != 0 ? 2 : 1)
            default:
                continue
            }
            guard let layout else { continue }
            if let seen = found, seen != layout { return nil }
            found = layout
        }
        return found
    }

    private struct Box {
        var type: String
        /// The payload's range in the bytes searched.
        var range: Range<Int>
    }

    private static func children(of bytes: [UInt8], from start: Int) -> [Box] {
        children(of: bytes, in: start..<bytes.count)
    }

    /// The boxes laid end to end in `range`; stops at the first that does not fit.
    private static func children(of bytes: [UInt8], in range: Range<Int>) -> [Box] {
        var boxes: [Box] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            let size = Int(bigEndian(bytes, offset))
            guard size >= 8, offset + size <= range.upperBound else { break }
            boxes.append(Box(type: String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self),
                             range: (offset + 8)..<(offset + size)))
            offset += size
        }
        return boxes
    }

    private static func bigEndian(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        bytes[at..<(at + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func read(_ file: FileHandle, at offset: UInt64, count: Int) throws -> [UInt8] {
        try file.seek(toOffset: offset)
        return [UInt8](try file.read(upToCount: count) ?? Data())
    }
}
