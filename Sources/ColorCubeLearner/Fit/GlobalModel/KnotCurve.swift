/// What the global models' piecewise linear curves share: curves on evenly spaced knots over
/// 0...1, read by the two hat functions non-zero at a value, and bent no more than a weight on
/// their squared second differences allows.
enum KnotCurve {
    /// The knot of a `knots`-knot curve over 0...1 below `value` (clamped; NaN as 0) and the
    /// fraction of the way to the next. The last cell takes 1.0, so the knot is at most knots - 2.
    @inline(__always)
    static func hat(_ value: Double, knots: Int) -> (Int, Double) {
        var clamped = value
        if !(clamped > 0) { clamped = 0 }
        if clamped > 1 { clamped = 1 }
        let position = clamped * Double(knots - 1)
        let lower = min(Int(position), knots - 2)
        return (lower, position - Double(lower))
    }

    /// A curve's value at `value` (clamped to 0...1), its knots spread evenly over 0...1.
    @inline(__always)
    static func value(_ curve: [Double], at value: Double) -> Double {
        let (knot, fraction) = hat(value, knots: curve.count)
        return (1 - fraction) * curve[knot] + fraction * curve[knot + 1]
    }

    /// HSV saturation, (max - min) / max, of a colour (0 for black).
    @inline(__always)
    static func hsvSaturation(of color: SIMD3<Double>) -> Double {
        let largest = color.max()
        return largest > 0 ? (largest - color.min()) / largest : 0
    }

    /// Adds `weight` (knots-1)^3 times the squared second differences of `curves` consecutive
    /// curves of `knots` values, starting at unknown `offset`, to a `stride`-wide matrix. The
    /// scale makes `weight` the integral of the squared second derivative over 0...1.
    static func addSecondDifferences(to matrix: inout [Double], stride: Int, curves: Int, knots: Int,
                                     offset: Int, weight: Double) {
        let mu = weight * Double((knots - 1) * (knots - 1) * (knots - 1))
        let d = [1.0, -2.0, 1.0]
        for curve in 0..<curves {
            for centre in 1..<(knots - 1) {
                let first = offset + curve * knots + centre - 1
                for a in 0..<3 { for b in 0..<3 { matrix[(first + a) * stride + first + b] += mu * d[a] * d[b] } }
            }
        }
    }
}
