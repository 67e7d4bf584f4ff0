/// Copies TIFF directories (IFDs) between files byte by byte: the EXIF and GPS directories of a TIFF
/// into a standalone EXIF block (`ImageMetadata.exif`), and from such a block into a TIFF that
/// libtiff has written.
///
/// Each entry's values are copied with their type, swapped to the target byte order element by
/// element; the EXIF, GPS and interoperability pointers are followed (at most `maximumDepth` deep)
/// and rewritten. Everything read is bounded (`maximumEntries` per directory, `maximumValueBytes`
/// per value), so a hostile file costs a few small reads. A maker note is copied as the opaque
/// block it is: offsets inside it that count from the original file no longer point where they did.
struct TIFFDirectoryCopier {
    static let exifTag: UInt16 = 34665
    static let gpsTag: UInt16 = 34853
    static let interoperabilityTag: UInt16 = 40965
    static let pointerTags: Set<UInt16> = [exifTag, gpsTag, interoperabilityTag]
    static let orientationTag: UInt16 = 274
    /// The main-directory text tags an EXIF block's first directory carries: ImageDescription,
    /// Make, Model, DateTime (the picture's, not the file's), Artist, Copyright.
    static let textTags: [UInt16] = [270, 271, 272, 306, 315, 33432]
    static let maximumEntries = 1000
    static let maximumValueBytes = 1 << 20
    static let maximumDepth = 3

    /// One directory entry with its values in the target byte order, or the directory it points to.
    struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: Int
        var value: [UInt8]
        var directory: [Entry]?
    }

    /// Reads bytes of the source at an offset (fewer, or none, past its end).
    let read: (_ offset: Int, _ count: Int) -> [UInt8]
    let sourceBigEndian: Bool
    let targetBigEndian: Bool

    /// Bytes per element of each TIFF type, and the size of the unit that is byte-swapped.
    static func sizes(of type: UInt16) -> (element: Int, swap: Int)? {
        switch type {
        case 1, 2, 6, 7: (1, 1)
        case 3, 8: (2, 2)
        case 4, 9, 11, 13: (4, 4)
        case 5, 10: (8, 4)
        case 12: (8, 8)
        default: nil
        }
    }

    /// The entries of the directory at `offset`, keeping only tags `keep` accepts; nil when the
    /// directory cannot be read.
    func directory(at offset: Int, depth: Int = 0, keep: (UInt16) -> Bool = { _ in true }) -> [Entry]? {
        guard offset >= 8, depth <= Self.maximumDepth else { return nil }
        let countBytes = read(offset, 2)
        guard countBytes.count == 2 else { return nil }
        let count = Int(u16(countBytes, 0, bigEndian: sourceBigEndian))
        guard count > 0, count <= Self.maximumEntries else { return nil }
        let table = read(offset + 2, count * 12)
        guard table.count == count * 12 else { return nil }
        var entries: [Entry] = []
        for index in 0..<count {
            let base = index * 12
            let tag = u16(table, base, bigEndian: sourceBigEndian)
            let type = u16(table, base + 2, bigEndian: sourceBigEndian)
            let valueCount = Int(u32(table, base + 4, bigEndian: sourceBigEndian))
            guard keep(tag), let sizes = Self.sizes(of: type), valueCount > 0 else { continue }
            let (bytes, overflow) = valueCount.multipliedReportingOverflow(by: sizes.element)
            guard !overflow, bytes <= Self.maximumValueBytes else { continue }
            var value = bytes <= 4 ? Array(table[(base + 8)..<(base + 8 + bytes)])
                : read(Int(u32(table, base + 8, bigEndian: sourceBigEndian)), bytes)
            guard value.count == bytes else { continue }
            if Self.pointerTags.contains(tag) {
                let target = Int(u32(table, base + 8, bigEndian: sourceBigEndian))
                guard let inner = directory(at: target, depth: depth + 1) else { continue }
                entries.append(Entry(tag: tag, type: 4, count: 1, value: [0, 0, 0, 0], directory: inner))
                continue
            }
            if sourceBigEndian != targetBigEndian, sizes.swap > 1 {
                for start in stride(from: 0, to: value.count, by: sizes.swap) {
                    value[start..<(start + sizes.swap)].reverse()
                }
            }
            entries.append(Entry(tag: tag, type: type, count: valueCount, value: value, directory: nil))
        }
        return entries
    }

    /// Serialises `entries` as a directory placed at file offset `base`, followed by its values
    /// and the directories it points to; every offset written counts from the start of the file.
    func serialise(_ entries: [Entry], at base: Int) -> [UInt8] {
        let sorted = entries.sorted { $0.tag < $1.tag }
        var out: [UInt8] = []
        append16(&out, UInt16(sorted.count))
        let tableStart = out.count
        out += [UInt8](repeating: 0, count: sorted.count * 12 + 4)
        for (index, entry) in sorted.enumerated() {
            let slot = tableStart + index * 12
            put16(&out, slot, entry.tag)
            put16(&out, slot + 2, entry.type)
            put32(&out, slot + 4, UInt32(entry.count))
            if let inner = entry.directory {
                if out.count % 2 == 1 { out.append(0) }
                put32(&out, slot + 8, UInt32(base + out.count))
                out += serialise(inner, at: base + out.count)
            } else if entry.value.count <= 4 {
                out.replaceSubrange((slot + 8)..<(slot + 8 + entry.value.count), with: entry.value)
            } else {
                if out.count % 2 == 1 { out.append(0) }
                put32(&out, slot + 8, UInt32(base + out.count))
                out += entry.value
            }
        }
        return out
    }

    /// A standalone EXIF block (little-endian TIFF structure: header, then the first directory at
    /// offset 8) holding `entries` as its first directory.
    func block(with entries: [Entry]) -> [UInt8] {
        precondition(!targetBigEndian, "EXIF blocks are written little-endian")
        return [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00] + serialise(entries, at: 8)
    }

    // MARK: Byte order

    func u16(_ bytes: [UInt8], _ at: Int, bigEndian: Bool) -> UInt16 {
        let a = UInt16(bytes[at]), b = UInt16(bytes[at + 1])
        return bigEndian ? a << 8 | b : a | b << 8
    }

    func u32(_ bytes: [UInt8], _ at: Int, bigEndian: Bool) -> UInt32 {
        let a = UInt32(u16(bytes, at, bigEndian: bigEndian)), b = UInt32(u16(bytes, at + 2, bigEndian: bigEndian))
        return bigEndian ? a << 16 | b : a | b << 16
    }

    private func append16(_ out: inout [UInt8], _ value: UInt16) {
        out += [0, 0]
        put16(&out, out.count - 2, value)
    }

    private func put16(_ out: inout [UInt8], _ at: Int, _ value: UInt16) {
        let high = UInt8(value >> 8), low = UInt8(value & 0xFF)
        out[at] = targetBigEndian ? high : low
        out[at + 1] = targetBigEndian ? low : high
    }

    func put32(_ out: inout [UInt8], _ at: Int, _ value: UInt32) {
        let high = UInt16(value >> 16), low = UInt16(value & 0xFFFF)
        put16(&out, at, targetBigEndian ? high : low)
        put16(&out, at + 2, targetBigEndian ? low : high)
    }
}
