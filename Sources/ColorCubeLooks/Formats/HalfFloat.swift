/// IEEE 754 half-precision values from their bit patterns, for LUTs indexed or filled by them (CLF
/// half-domain and raw-half tables, Discreet 1D LUTs of 65536 entries), decoded by hand so the
/// text and XML formats need no `Float16`, which some platforms lack.
enum HalfFloat {
    /// The value of the half float with bits `bits`: sign, 5 exponent bits, 10 fraction bits
    /// (NaN and infinities included).
    static func value(bits: UInt16) -> Double {
        let sign: Double = bits & 0x8000 != 0 ? -1 : 1
        let exponent = Int((bits >> 10) & 0x1F)
        let fraction = Double(bits & 0x3FF)
        switch exponent {
        case 0: return sign * fraction * 0x1p-24
        case 31: return fraction == 0 ? sign * .infinity : .nan
        default: return sign * (1 + fraction / 1024) * Double(sign: .plus, exponent: exponent - 15, significand: 1)
        }
    }

    /// The bit patterns of every finite half value in increasing order, -65504 to 65504, with -0
    /// left out (it equals +0; the +0 entry is kept).
    static let finitePatternsInOrder: [UInt16] = {
        var patterns: [UInt16] = []
        patterns.reserveCapacity(63_487)
        for bits in stride(from: UInt16(0xFBFF), through: 0x8001, by: -1) { patterns.append(bits) }
        for bits in UInt16(0)...0x7BFF { patterns.append(bits) }
        return patterns
    }()

    /// A table of 65536 outputs indexed by half-float bit pattern as increasing input points and
    /// their outputs: the entries at NaN, infinity and -0 patterns are dropped.
    static func finiteDomain(_ table: [Double]) -> (inputs: [Double], outputs: [Double]) {
        let patterns = finitePatternsInOrder
        return (patterns.map { value(bits: $0) }, patterns.map { table[Int($0)] })
    }
}
