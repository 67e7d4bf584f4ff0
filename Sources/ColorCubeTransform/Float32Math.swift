/// Base-2 logarithm, exponential and power in Float32, for the operations' Float32 forms (pictures
/// of floats, see `TransformOp.apply(red:green:blue:count:)` on Float planes).
///
/// Each is a few multiplications and additions with no branch and no call, so a loop over a plane
/// vectorises; the C library's `log2f` and `exp2f` are calls, one sample at a time.
///
/// - `log2(x)`: the exponent read from the bits, the significand `m` brought into [√½, √2), and
///   `log2 m = (2 / ln 2) atanh(f)` with `f = (m - 1) / (m + 1)`, `|f| <= 0.1716`, summed to f⁹
///   (the next term is below 1e-9). Error at most 8.3e-8 plus half an ulp of the result over
///   every 257th positive Float against Float64 (`Float32FormsTests` allows 1.3e-7).
/// - `exp2(x)`: `x = n + r` with `n` the nearest integer and `|r| <= 1/2`, `2^r` by its Taylor
///   series to r⁷ (the next term is below 6e-9 relative), `2^n` put into the exponent bits in two
///   halves so that results between 2^-149 and 2^128 come out as numbers, subnormals included.
///   At most 0.83 ulp measured over -160...130 in steps of 1/512 (the test allows 3).
/// - `pow(x, y)` = `exp2(y * log2(x))` for `x >= 0`, `y > 0`: the rounding of the product adds a
///   relative error of about `0.35 ulp(y log2 x)`, which is 3e-7 where the product is near 10.
///
/// Edge cases follow the C library: `log2` gives -inf at 0, NaN below 0 and for NaN, +inf at
/// +inf, and exact values for subnormals; `exp2` gives 0 below -150, +inf from 128 and NaN for NaN.
package enum Float32Math {
    /// 2 / ln 2 over 1, 3, 5, 7, 9: the series of log2 in f = (m - 1) / (m + 1).
    private static let c1: Float = 2.885390082, c3: Float = 0.9617966939, c5: Float = 0.5770780164
    private static let c7: Float = 0.4121985831, c9: Float = 0.3205988980

    /// The base-2 logarithm of `x` (see the type's notes for its error).
    @inline(__always)
    package static func log2(_ x: Float) -> Float {
        // Subnormals are scaled into the normal range first, and the exponent corrected.
        let subnormal = x < Float.leastNormalMagnitude
        let bits = (subnormal ? x * 0x1p23 : x).bitPattern
        let significand = Float(bitPattern: (bits & 0x007f_ffff) | 0x3f80_0000)
        let high = significand > 1.41421356
        let m = high ? significand * 0.5 : significand
        let exponent = Int32(bitPattern: bits >> 23) &- (subnormal ? 150 : 127) &+ (high ? 1 : 0)
        let f = (m - 1) / (m + 1)
        let f2 = f * f
        let series = f * (c1 + f2 * (c3 + f2 * (c5 + f2 * (c7 + f2 * c9))))
        let value = Float(exponent) + series
        // 0 gives -inf, negatives and NaN give NaN, +inf stays.
        return x > 0 ? (x < .infinity ? value : x) : (x == 0 ? -.infinity : .nan)
    }

    /// (ln 2)^k / k!, k = 1 ... 7: the Taylor series of 2^r.
    private static let e1: Float = 0.6931471806, e2: Float = 0.2402265070, e3: Float = 0.05550410866
    private static let e4: Float = 0.009618129108, e5: Float = 0.001333355815, e6: Float = 0.0001540353039
    private static let e7: Float = 0.00001525273380

    /// 2 raised to `x` (see the type's notes for its error).
    @inline(__always)
    package static func exp2(_ x: Float) -> Float {
        // Clamped so that both halves of the exponent fit; NaN goes to the bound and is put back
        // at the end.
        let t = x > -252 ? (x < 254 ? x : 254) : -252
        // Adding 1.5 * 2^23 rounds to the nearest integer, which lands in the low bits.
        let shifted = t + 0x1.8p23
        let n = Int32(bitPattern: shifted.bitPattern) &- 0x4b40_0000
        let r = t - (shifted - 0x1.8p23)
        let p = 1 + r * (e1 + r * (e2 + r * (e3 + r * (e4 + r * (e5 + r * (e6 + r * e7))))))
        let low = n >> 1, high = n &- low
        let scaleLow = Float(bitPattern: UInt32(bitPattern: (low &+ 127) &<< 23))
        let scaleHigh = Float(bitPattern: UInt32(bitPattern: (high &+ 127) &<< 23))
        let value = p * scaleLow * scaleHigh
        return x.isNaN ? x : value
    }

    /// `x` raised to `y`, for `x >= 0` (0 gives 0) and `y > 0`.
    @inline(__always)
    package static func pow(_ x: Float, _ y: Float) -> Float {
        exp2(y * log2(x))
    }
}
