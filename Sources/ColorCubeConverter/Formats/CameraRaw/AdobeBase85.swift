/// The text form of Camera Raw's tables: base 85 in Adobe's alphabet (Z85's, with `.`, `-`,
/// `:`, `+`, `=`, `^`, `!`, `/`, `*`, `?`, `` ` ``, `'`, `|`, `(`, `)`, `[`, `]`, `{`, `}`,
/// `@`, `%`, `$`, `#` as digits 62...84: none of them needs escaping in XML).
///
/// Each group of four bytes is read as a little-endian 32-bit number and written as five digits,
/// least significant first; a last group of one to three bytes is written as two to four digits.
enum AdobeBase85 {
    static let alphabet: [UInt8] = Array("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?`'|()[]{}@%$#".utf8)

    /// Each byte's digit value, or 0xFF for characters outside the alphabet.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, character) in alphabet.enumerated() { table[Int(character)] = UInt8(value) }
        return table
    }()

    /// Why text is not a table's base 85.
    enum Defect: Error, Equatable {
        /// A character outside the alphabet (not white space) at a byte offset.
        case character(UInt8, offset: Int)
        /// A group of five digits whose value does not fit 32 bits, at the offset of its first digit.
        case overflow(offset: Int)
        /// One digit left over at the end: it holds no byte.
        case strayDigit
    }

    /// The bytes `text` encodes. White space (which XML writers may wrap long attributes with)
    /// is skipped.
    static func decode(_ text: ArraySlice<UInt8>) throws(Defect) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 5 * 4 + 3)
        var value: UInt64 = 0, weight: UInt64 = 1, digits = 0, groupStart = 0
        for (offset, character) in zip(text.indices, text) {
            if character == 0x20 || character == 0x0A || character == 0x0D || character == 0x09 { continue }
            let digit = values[Int(character)]
            guard digit != 0xFF else { throw .character(character, offset: offset - text.startIndex) }
            if digits == 0 { groupStart = offset - text.startIndex }
            value += UInt64(digit) * weight
            weight *= 85
            digits += 1
            if digits == 5 {
                guard value <= UInt64(UInt32.max) else { throw .overflow(offset: groupStart) }
                for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
                (value, weight, digits) = (0, 1, 0)
            }
        }
        guard digits != 1 else { throw .strayDigit }
        for index in 0..<max(0, digits - 1) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(8 * index))) }
        return bytes
    }

    /// `bytes` as text.
    static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count / 4 * 5 + 5)
        var index = 0
        while index < bytes.count {
            let count = min(4, bytes.count - index)
            var value: UInt32 = 0
            for offset in 0..<count { value |= UInt32(bytes[index + offset]) << (8 * UInt32(offset)) }
            for _ in 0..<(count + 1) {
                text.append(alphabet[Int(value % 85)])
                value /= 85
            }
            index += count
        }
        return text
    }
}
