/// IEEE 754 half-precision values from their bit patterns, for LUTs indexed or filled by them
/// (Discreet 1D LUTs of 65536 entries), without relying on `Float16`, which some platforms lack.
enum HalfFloat {
    /// The value of the half float with bits `bits`: sign, 5 exponent bits, 10 fraction bits.
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

    /// A table indexed by half-float bit patterns as increasing input points and their outputs:
    /// every finite half value in order, from -65504 to 65504, with -0 left out (it equals +0;
    /// the +0 entry is kept). Infinities and NaN patterns are left out too.
    static func domain(_ table: [Double]) -> (points: [Double], outputs: [Double]) {
        var points: [Double] = [], outputs: [Double] = []
        points.reserveCapacity(63_489)
        outputs.reserveCapacity(63_489)
        // Negative values, most negative first: bits 0xFBFF down to 0x8001.
        for bits in stride(from: 0xFBFF, through: 0x8001, by: -1) {
            points.append(value(bits: UInt16(bits)))
            outputs.append(table[bits])
        }
        for bits in 0...0x7BFF {
            points.append(value(bits: UInt16(bits)))
            outputs.append(table[bits])
        }
        return (points, outputs)
    }
}
