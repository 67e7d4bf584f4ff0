/// Reads the tag numbers and photometric interpretations of a TIFF file's image directories
/// without decoding anything: enough to tell a camera raw file from a picture.
///
/// Follows the chain of directories and their SubIFDs, at most `maximumDirectories` of them, and
/// stops quietly at anything out of bounds, so a hostile file costs a few small reads.
struct TIFFDirectoryScanner {
    static let dngVersionTag: UInt16 = 50706
    static let photometricTag: UInt16 = 262
    static let subIFDsTag: UInt16 = 330
    /// Photometric interpretations of sensor data: colour filter array and linear raw.
    static let sensorPhotometrics: Set<Int> = [32803, 34892]
    static let maximumDirectories = 32
    static let maximumEntries = 4096

    private(set) var tags: Set<UInt16> = []
    private(set) var photometrics: [Int] = []

    /// Scans the file behind `probe`, or returns nil when it does not start like a classic TIFF.
    init?(probe: FileProbe) {
        let head = probe.head
        guard head.count >= 8 else { return nil }
        let littleEndian: Bool
        if head[0] == 0x49, head[1] == 0x49 {
            littleEndian = true
        } else if head[0] == 0x4D, head[1] == 0x4D {
            littleEndian = false
        } else {
            return nil
        }
        let reader = Reader(probe: probe, littleEndian: littleEndian)
        guard reader.u16(head, 2) == 42 else { return nil }
        var pending = [Int(reader.u32(head, 4))]
        var visited: Set<Int> = []
        while let offset = pending.popLast(), visited.count < Self.maximumDirectories {
            guard offset >= 8, visited.insert(offset).inserted else { continue }
            let countBytes = probe.read(at: offset, count: 2)
            guard countBytes.count == 2 else { continue }
            let entries = min(Int(reader.u16(countBytes, 0)), Self.maximumEntries)
            let table = probe.read(at: offset + 2, count: entries * 12 + 4)
            guard table.count >= entries * 12 else { continue }
            for entry in 0..<entries {
                let base = entry * 12
                let tag = reader.u16(table, base)
                tags.insert(tag)
                let type = reader.u16(table, base + 2)
                let count = Int(reader.u32(table, base + 4))
                switch tag {
                case Self.photometricTag:
                    photometrics.append(Int(type == 3 ? reader.u16(table, base + 8) : UInt16(truncatingIfNeeded: reader.u32(table, base + 8))))
                case Self.subIFDsTag:
                    pending += reader.offsets(in: table, entry: base, type: type, count: min(count, Self.maximumDirectories))
                default:
                    break
                }
            }
            if table.count >= entries * 12 + 4 {
                let next = Int(reader.u32(table, entries * 12))
                if next != 0 { pending.append(next) }
            }
        }
    }

    func hasTag(_ tag: UInt16) -> Bool {
        tags.contains(tag)
    }

    /// True when a directory holds CFA or linear raw data.
    var hasSensorData: Bool {
        photometrics.contains { Self.sensorPhotometrics.contains($0) }
    }

    private struct Reader {
        let probe: FileProbe
        let littleEndian: Bool

        func u16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
            guard at + 2 <= bytes.count else { return 0 }
            let a = UInt16(bytes[at]), b = UInt16(bytes[at + 1])
            return littleEndian ? a | b << 8 : a << 8 | b
        }

        func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
            guard at + 4 <= bytes.count else { return 0 }
            let a = UInt32(u16(bytes, at)), b = UInt32(u16(bytes, at + 2))
            return littleEndian ? a | b << 16 : a << 16 | b
        }

        /// The directory offsets a SubIFDs entry points at (LONG or IFD type), inline or not.
        func offsets(in table: [UInt8], entry base: Int, type: UInt16, count: Int) -> [Int] {
            guard type == 4 || type == 13, count > 0 else { return [] }
            if count == 1 { return [Int(u32(table, base + 8))] }
            let values = probe.read(at: Int(u32(table, base + 8)), count: count * 4)
            return stride(from: 0, to: values.count - 3, by: 4).map { Int(u32(values, $0)) }
        }
    }
}
