/// IEEE 754 half-precision values, decoded by hand so the XML formats need no `Float16` (which
/// some platforms lack).
enum HalfFloat {
    /// The value of a half-float bit pattern (NaN and infinities included).
    static func value(_ bits: UInt16) -> Double {
        let sign: Double = bits & 0x8000 != 0 ? -1 : 1
        let exponent = Int((bits >> 10) & 0x1F)
        let fraction = Double(bits & 0x3FF)
        switch exponent {
        case 0: return sign * fraction * 0x1p-24
        case 31: return fraction == 0 ? sign * .infinity : .nan
        default: return sign * (1 + fraction / 1024) * Double(sign: .plus, exponent: exponent - 15, significand: 1)
        }
    }

    /// The bit patterns of every finite half value in increasing order, -65504 to 65504, with
    /// -0 left out (it equals +0).
    static let finitePatternsInOrder: [UInt16] = {
        var patterns: [UInt16] = []
        patterns.reserveCapacity(63487)
        for bits in stride(from: UInt16(0xFBFF), through: 0x8001, by: -1) { patterns.append(bits) }
        for bits in UInt16(0)...0x7BFF { patterns.append(bits) }
        return patterns
    }()

    /// A half-domain table (65536 outputs indexed by bit pattern) as increasing inputs and their
    /// outputs: the entries at NaN, infinity and -0 patterns are dropped.
    static func finiteDomain(_ outputs: [Double]) -> (inputs: [Double], outputs: [Double]) {
        let patterns = finitePatternsInOrder
        return (patterns.map { value($0) }, patterns.map { outputs[Int($0)] })
    }
}
