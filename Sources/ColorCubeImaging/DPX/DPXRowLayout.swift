/// How one line of a DPX image element lies in the file: its length in bytes, and the unpacking
/// of its samples to codes (0...2^bits-1) and back.
///
/// - 8 bits: one byte per sample; 16 bits: one 16-bit word per sample in the file's byte order.
/// - 12 bits filled: one 16-bit word per sample, the code in its 12 highest bits (method A) or
///   its 12 lowest (method B).
/// - 10 bits filled: three samples to a 32-bit word, the first in bits 31...22 (method A, bits
///   1...0 unused) or 29...20 (method B, bits 31...30 unused); a line ends on a word boundary.
/// - 10 or 12 bits packed: the samples as one bit stream over 32-bit words, the first sample in
///   the lowest bits of the first word; a line ends on a word boundary.
///
/// Samples run across pixels: a line of RGBA at 10 bits filled has 4 x width samples, three to a
/// word, the last word partly used.
struct DPXRowLayout {
    let bitDepth: Int
    let packing: DPXMetadata.Packing
    let isBigEndian: Bool
    /// Samples in one line: pixels x components.
    let samplesPerRow: Int
    /// Bytes in one line, without the element's end-of-line padding.
    let rowBytes: Int

    /// The layout of `samplesPerRow` samples, or nil when the bit depth and packing do not go
    /// together (8 and 16 bits take any packing, 10 and 12 any of the three) or the line's length
    /// does not fit an Int.
    init?(bitDepth: Int, packing: DPXMetadata.Packing, isBigEndian: Bool, samplesPerRow: Int) {
        guard samplesPerRow > 0 else { return nil }
        let bits: (Int, Bool)
        switch (bitDepth, packing) {
        case (8, _): bits = samplesPerRow.multipliedReportingOverflow(by: 8)
        case (16, _), (12, .filledMethodA), (12, .filledMethodB): bits = samplesPerRow.multipliedReportingOverflow(by: 16)
        case (10, .filledMethodA), (10, .filledMethodB):
            bits = ((samplesPerRow - 1) / 3 + 1).multipliedReportingOverflow(by: 32)
        case (10, .packed), (12, .packed): bits = samplesPerRow.multipliedReportingOverflow(by: bitDepth)
        default: return nil
        }
        guard !bits.1 else { return nil }
        let wordAligned = bitDepth == 10 || (bitDepth == 12 && packing == .packed)
        rowBytes = wordAligned ? (bits.0 / 32 + (bits.0 % 32 == 0 ? 0 : 1)) * 4 : bits.0 / 8
        self.bitDepth = bitDepth
        self.packing = packing
        self.isBigEndian = isBigEndian
        self.samplesPerRow = samplesPerRow
    }

    /// The largest code, 2^bitDepth - 1.
    var maxCode: UInt32 { (1 << UInt32(bitDepth)) - 1 }

    /// Unpacks the line in `row` (at least `rowBytes` bytes) to `samplesPerRow` codes.
    func decode(_ row: UnsafeRawBufferPointer, into codes: UnsafeMutableBufferPointer<UInt16>) {
        switch (bitDepth, packing) {
        case (8, _):
            for index in 0..<samplesPerRow { codes[index] = UInt16(row[index]) }
        case (16, _):
            for index in 0..<samplesPerRow { codes[index] = word16(row, at: 2 * index) }
        case (12, .filledMethodA):
            for index in 0..<samplesPerRow { codes[index] = word16(row, at: 2 * index) >> 4 }
        case (12, .filledMethodB):
            for index in 0..<samplesPerRow { codes[index] = word16(row, at: 2 * index) & 0xFFF }
        case (10, .filledMethodA), (10, .filledMethodB):
            let topShift: UInt32 = packing == .filledMethodA ? 22 : 20
            for index in 0..<samplesPerRow {
                let word = word32(row, at: 4 * (index / 3))
                codes[index] = UInt16((word >> (topShift - 10 * UInt32(index % 3))) & 0x3FF)
            }
        default:
            let mask = UInt64(maxCode)
            for index in 0..<samplesPerRow {
                let bit = index * bitDepth
                let wordIndex = bit / 32, shift = UInt64(bit % 32)
                var pair = UInt64(word32(row, at: 4 * wordIndex))
                if shift + UInt64(bitDepth) > 32 { pair |= UInt64(word32(row, at: 4 * (wordIndex + 1))) << 32 }
                codes[index] = UInt16((pair >> shift) & mask)
            }
        }
    }

    /// Packs `samplesPerRow` codes (each at most `maxCode`) into `row` (`rowBytes` bytes, unused
    /// bits left zero).
    func encode(_ codes: UnsafeBufferPointer<UInt16>, into row: UnsafeMutableRawBufferPointer) {
        switch (bitDepth, packing) {
        case (8, _):
            for index in 0..<samplesPerRow { row[index] = UInt8(truncatingIfNeeded: codes[index]) }
        case (16, _):
            for index in 0..<samplesPerRow { setWord16(codes[index], in: row, at: 2 * index) }
        case (12, .filledMethodA):
            for index in 0..<samplesPerRow { setWord16(codes[index] << 4, in: row, at: 2 * index) }
        case (12, .filledMethodB):
            for index in 0..<samplesPerRow { setWord16(codes[index] & 0xFFF, in: row, at: 2 * index) }
        case (10, .filledMethodA), (10, .filledMethodB):
            let topShift: UInt32 = packing == .filledMethodA ? 22 : 20
            var word: UInt32 = 0
            for index in 0..<samplesPerRow {
                word |= (UInt32(codes[index]) & 0x3FF) << (topShift - 10 * UInt32(index % 3))
                if index % 3 == 2 || index == samplesPerRow - 1 {
                    setWord32(word, in: row, at: 4 * (index / 3))
                    word = 0
                }
            }
        default:
            var stream: UInt64 = 0
            var pending: UInt64 = 0
            var wordIndex = 0
            for index in 0..<samplesPerRow {
                stream |= (UInt64(codes[index]) & UInt64(maxCode)) << pending
                pending += UInt64(bitDepth)
                if pending >= 32 {
                    setWord32(UInt32(truncatingIfNeeded: stream), in: row, at: 4 * wordIndex)
                    wordIndex += 1
                    stream >>= 32
                    pending -= 32
                }
            }
            if pending > 0 { setWord32(UInt32(truncatingIfNeeded: stream), in: row, at: 4 * wordIndex) }
        }
    }

    @inline(__always)
    private func word16(_ row: UnsafeRawBufferPointer, at offset: Int) -> UInt16 {
        let first = UInt16(row[offset]), second = UInt16(row[offset + 1])
        return isBigEndian ? first << 8 | second : second << 8 | first
    }

    @inline(__always)
    private func word32(_ row: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        let value = row.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        return isBigEndian ? UInt32(bigEndian: value) : UInt32(littleEndian: value)
    }

    @inline(__always)
    private func setWord16(_ value: UInt16, in row: UnsafeMutableRawBufferPointer, at offset: Int) {
        row.storeBytes(of: isBigEndian ? value.bigEndian : value.littleEndian, toByteOffset: offset, as: UInt16.self)
    }

    @inline(__always)
    private func setWord32(_ value: UInt32, in row: UnsafeMutableRawBufferPointer, at offset: Int) {
        row.storeBytes(of: isBigEndian ? value.bigEndian : value.littleEndian, toByteOffset: offset, as: UInt32.self)
    }
}
