/// The generic and industry headers of a DPX file (SMPTE 268, versions 1.0 and 2.0): the fields
/// colorcube reads and writes, at their fixed offsets, in the file's byte order.
///
/// Layout of the 2048 bytes: file information (0...767), image information (768...1407, with eight
/// 72-byte image element records from 780), orientation (1408...1663), film (1664...1919) and
/// television (1920...2047). Numeric fields that are "undefined" hold all ones.
struct DPXHeader {
    /// Bytes in the generic (1664) and industry (384) headers together.
    static let size = 2048
    /// Bytes in the generic header: file, image and orientation information.
    static let genericSize = 1664
    /// Bytes in the industry header: film and television information.
    static let industrySize = 384
    /// The fewest bytes that hold every field of the first image element.
    static let minimumSize = 852
    static let bigEndianMagic: [UInt8] = Array("SDPX".utf8)
    static let littleEndianMagic: [UInt8] = Array("XPDS".utf8)
    /// A 32-bit field that holds no value.
    static let undefined: UInt32 = 0xFFFF_FFFF

    /// Where the fields colorcube uses lie, from the start of the file.
    enum Offset {
        static let imageDataOffset = 4
        static let version = 8
        static let fileSize = 16
        static let dittoKey = 20
        static let genericSize = 24
        static let industrySize = 28
        static let userDataSize = 32
        static let creator = 160
        static let orientation = 768
        static let elementCount = 770
        static let width = 772
        static let height = 776
        /// The first image element record; the other seven follow every `elementStride` bytes.
        static let element = 780
        static let elementStride = 72
    }

    /// Offsets within an image element record.
    enum ElementField {
        static let dataSign = 0
        static let lowCode = 4
        static let highCode = 12
        static let descriptor = 20
        static let transfer = 21
        static let colorimetric = 22
        static let bitSize = 23
        static let packing = 24
        static let encoding = 26
        static let dataOffset = 28
        static let endOfLinePadding = 32
        static let endOfImagePadding = 36
    }

    /// The header's bytes (`size` of them).
    private(set) var bytes: [UInt8]
    let isBigEndian: Bool

    /// The header at the start of `bytes` (which may be shorter than `size`: the rest is filled
    /// as `undefinedFields` has it), or nil when the magic is neither `SDPX` nor `XPDS`.
    init?(reading bytes: [UInt8]) {
        guard bytes.count >= 4 else { return nil }
        let magic = Array(bytes[0..<4])
        guard magic == Self.bigEndianMagic || magic == Self.littleEndianMagic else { return nil }
        isBigEndian = magic == Self.bigEndianMagic
        var full = Self.undefinedFields()
        full.replaceSubrange(0..<min(bytes.count, Self.size), with: bytes.prefix(Self.size))
        self.bytes = full
    }

    /// A header kept from an earlier file (`DPXMetadata.header`), or a new one when `bytes` is not
    /// a DPX header in the byte order asked for.
    init(keeping bytes: [UInt8], isBigEndian: Bool) {
        if bytes.count == Self.size, let kept = DPXHeader(reading: bytes), kept.isBigEndian == isBigEndian {
            self = kept
        } else {
            self.init(isBigEndian: isBigEndian)
        }
    }

    /// A new header: version 2.0, creator "colorcube", no file name, date or user data, every other
    /// numeric field undefined.
    init(isBigEndian: Bool) {
        self.isBigEndian = isBigEndian
        bytes = Self.undefinedFields()
        bytes.replaceSubrange(0..<4, with: isBigEndian ? Self.bigEndianMagic : Self.littleEndianMagic)
        bytes.replaceSubrange(Offset.version..<(Offset.version + 4), with: Array("V2.0".utf8))
        bytes.replaceSubrange(Offset.creator..<(Offset.creator + 9), with: Array("colorcube".utf8))
        setUInt32(1, at: Offset.dittoKey)
        setUInt32(UInt32(Self.genericSize), at: Offset.genericSize)
        setUInt32(UInt32(Self.industrySize), at: Offset.industrySize)
        setUInt32(0, at: Offset.userDataSize)
    }

    /// 2048 bytes with every numeric field all ones and every text field empty (zero).
    private static func undefinedFields() -> [UInt8] {
        var bytes = [UInt8](repeating: 0xFF, count: size)
        // Text fields: file name, time, creator, project, copyright (36...659); the reserved
        // tail of the file information; the image elements' descriptions and the reserved tail
        // of the image information; the orientation header's names; the film header's text; the
        // television header's reserved tail.
        let text = [36..<660, 664..<768, 1356..<1408, 1432..<1620, 1664..<1712, 1732..<1920, 1972..<2048]
        for range in text { bytes.replaceSubrange(range, with: repeatElement(0, count: range.count)) }
        for element in 0..<8 {
            let description = Offset.element + element * Offset.elementStride + 40
            bytes.replaceSubrange(description..<(description + 32), with: repeatElement(0, count: 32))
        }
        return bytes
    }

    // MARK: Fields

    func uint8(at offset: Int) -> UInt8 { bytes[offset] }

    func uint16(at offset: Int) -> UInt16 {
        let pair = (UInt16(bytes[offset]), UInt16(bytes[offset + 1]))
        return isBigEndian ? pair.0 << 8 | pair.1 : pair.1 << 8 | pair.0
    }

    func uint32(at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { value, index in
            let byte = UInt32(bytes[offset + (isBigEndian ? index : 3 - index)])
            return value << 8 | byte
        }
    }

    mutating func setUInt8(_ value: UInt8, at offset: Int) { bytes[offset] = value }

    mutating func setUInt16(_ value: UInt16, at offset: Int) {
        let high = UInt8(value >> 8), low = UInt8(value & 0xFF)
        bytes[offset] = isBigEndian ? high : low
        bytes[offset + 1] = isBigEndian ? low : high
    }

    mutating func setUInt32(_ value: UInt32, at offset: Int) {
        for index in 0..<4 {
            let shift = UInt32(isBigEndian ? 24 - 8 * index : 8 * index)
            bytes[offset + index] = UInt8(truncatingIfNeeded: value >> shift)
        }
    }

    /// A field of the first image element.
    func elementUInt8(_ field: Int) -> UInt8 { uint8(at: Offset.element + field) }
    func elementUInt16(_ field: Int) -> UInt16 { uint16(at: Offset.element + field) }
    func elementUInt32(_ field: Int) -> UInt32 { uint32(at: Offset.element + field) }
    mutating func setElement(_ value: UInt8, _ field: Int) { setUInt8(value, at: Offset.element + field) }
    mutating func setElement(_ value: UInt16, _ field: Int) { setUInt16(value, at: Offset.element + field) }
    mutating func setElement(_ value: UInt32, _ field: Int) { setUInt32(value, at: Offset.element + field) }

    /// Marks image elements 2...8 unused (all ones), as in a file with one element.
    mutating func clearOtherElements() {
        let start = Offset.element + Offset.elementStride
        for element in 0..<7 {
            let record = start + element * Offset.elementStride
            bytes.replaceSubrange(record..<(record + 40), with: repeatElement(0xFF, count: 40))
            bytes.replaceSubrange((record + 40)..<(record + 72), with: repeatElement(0, count: 32))
        }
    }
}
