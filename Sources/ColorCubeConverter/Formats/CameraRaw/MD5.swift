import Foundation

/// The MD5 digest (RFC 1321), which Camera Raw profiles use to name their tables: a table's key
/// is the digest of its uncompressed payload. Not for security; only to find and check tables.
enum MD5 {
    /// The 16-byte digest of `bytes`.
    static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var state: (UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476)
        var message = bytes
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        let bits = UInt64(bytes.count) &* 8
        for shift in stride(from: 0, to: 64, by: 8) { message.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        var words = [UInt32](repeating: 0, count: 16)
        for block in stride(from: 0, to: message.count, by: 64) {
            for i in 0..<16 {
                let at = block + 4 * i
                words[i] = UInt32(message[at]) | UInt32(message[at + 1]) << 8 | UInt32(message[at + 2]) << 16 | UInt32(message[at + 3]) << 24
            }
            var (a, b, c, d) = state
            for i in 0..<64 {
                let f: UInt32, g: Int
                switch i / 16 {
                case 0: (f, g) = ((b & c) | (~b & d), i)
                case 1: (f, g) = ((d & b) | (~d & c), (5 * i + 1) % 16)
                case 2: (f, g) = (b ^ c ^ d, (3 * i + 5) % 16)
                default: (f, g) = (c ^ (b | ~d), (7 * i) % 16)
                }
                let sum = a &+ f &+ constants[i] &+ words[g]
                (a, d, c) = (d, c, b)
                b = b &+ (sum << shifts[i] | sum >> (32 - shifts[i]))
            }
            state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
        }
        return [state.0, state.1, state.2, state.3].flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } }
    }

    /// The digest as 32 upper-case hexadecimal digits, as a table's key is written.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF")
        return String(digest(bytes).flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
    }

    /// Per round: the left rotations.
    private static let shifts: [UInt32] = (0..<64).map { i in
        [[7, 12, 17, 22], [5, 9, 14, 20], [4, 11, 16, 23], [6, 10, 15, 21]][i / 16][i % 4]
    }

    /// Per round: the integer part of 2^32 · |sin(i + 1)|.
    private static let constants: [UInt32] = (0..<64).map { i in
        UInt32(truncatingIfNeeded: Int64((Double(1 << 32) * abs(sin(Double(i + 1)))).rounded(.down)))
    }
}
