/// A `GradingCurve` fitted as OpenColorIO fits it: a quadratic B-spline, held as one quadratic
/// per interval between knots, and evaluated forward and backward as OpenColorIO evaluates it.
///
/// Between knots `k[i]` and `k[i + 1]` the curve is `a[i] t^2 + b[i] t + c[i]` with
/// `t = x - k[i]`. Each interval between two control points holds one quadratic, or two joined
/// at a middle knot where one parabola cannot meet both end slopes. Outside the knots the curve
/// goes on as a straight line with its end slope (OpenColorIO extrapolates linearly).
///
/// The fit runs in Float32 with OpenColorIO's operations in its order, so the knots and
/// coefficients are OpenColorIO's bit for bit; evaluation then runs in Float64 on them. The
/// fitting rules are in `GradingBSpline+RGBFit.swift` for the RGB curves and in
/// `GradingBSpline+HueFit.swift` for the hue curves, which wrap around the hue circle.
public struct GradingBSpline: Equatable, Sendable {
    /// The knots, increasing; one more than there are quadratics.
    public let knots: [Float]
    /// The quadratics' coefficients of t^2, t and 1.
    public let a: [Float], b: [Float], c: [Float]
    /// The value and slope at the last knot, as OpenColorIO computes them (in Float32).
    private let endValue: Float, endSlope: Float

    /// Fits `curve` (already validated) as OpenColorIO fits a curve of its kind.
    public init(fitting curve: GradingCurve) {
        let fit = curve.kind == .rgb ? Self.fitRGB(curve.points, slopes: curve.slopes, estimating: curve.estimatesSlopes)
            : Self.fitHue(curve)
        self.init(knots: fit.knots, a: fit.a, b: fit.b, c: fit.c)
    }

    /// A spline of the given pieces: `knots.count == a.count + 1`, with at least one piece.
    init(knots: [Float], a: [Float], b: [Float], c: [Float]) {
        self.knots = knots
        self.a = a
        self.b = b
        self.c = c
        let last = a.count - 1
        if last >= 0, knots.count >= 2 {
            let t = knots[knots.count - 1] - knots[knots.count - 2]
            endValue = (a[last] * t + b[last]) * t + c[last]
            endSlope = 2 * a[last] * t + b[last]
        } else {
            endValue = 0
            endSlope = 1
        }
    }

    /// The number of knots the fit produced (OpenColorIO caps the total of an operator's curves).
    public var knotCount: Int { knots.count }

    /// The most knots (and a third of the most coefficients) OpenColorIO holds for the curves of
    /// one operator together; a curve of n points takes up to 2n - 1 knots (2n + 3 on a hue).
    public static let maxKnots = 120

    /// An operator's curves validated (each must be of its `kind`) and fitted, nil for each
    /// identity curve, which OpenColorIO leaves out.
    /// - Throws: `TransformError.invalidOperation` naming the curve and the rule it breaks, or
    ///   `operation` when the curves fit to more than `maxKnots` knots together.
    static func fitting(_ curves: [(name: String, curve: GradingCurve, kind: GradingCurve.Kind)],
                        operation: String) throws(TransformError) -> [GradingBSpline?] {
        for (name, curve, kind) in curves {
            try curve.validate(name)
            guard curve.kind == kind else {
                throw .invalidOperation(operation: "\(name) curve", reason: "it must be of the \(kind.rawValue) kind, not \(curve.kind.rawValue)")
            }
        }
        // Each point is a knot at least: a file of thousands of points is refused before any fit
        // (the hue fit sorts its points in quadratic time, as OpenColorIO does).
        let points = curves.reduce(0) { $0 + ($1.curve.isIdentity ? 0 : $1.curve.points.count) }
        guard points <= maxKnots else {
            throw .invalidOperation(operation: operation, reason: "the curves hold \(points) control points, so at least as many "
                + "knots; OpenColorIO holds \(maxKnots) at most for the \(curves.count) together, so use fewer points")
        }
        let splines = curves.map { $0.curve.isIdentity ? nil : GradingBSpline(fitting: $0.curve) }
        let knots = splines.reduce(0) { $0 + ($1?.knotCount ?? 0) }
        guard knots <= maxKnots else {
            throw .invalidOperation(operation: operation, reason: "the curves fit to \(knots) knots; OpenColorIO holds "
                + "\(maxKnots) at most for the \(curves.count) together, so use fewer points")
        }
        return splines
    }

    /// The curve at `x`: the quadratic of the interval holding `x` (the first interval whose end
    /// is above `x`), a line with the end slope beyond the last knot and with the first
    /// quadratic's slope below the first. NaN gives NaN; an infinity gives an infinity, or NaN
    /// where the end slope is 0.
    public func value(at x: Double) -> Double {
        guard let first = knots.first, let last = knots.last, !a.isEmpty else { return x }
        if x <= Double(first) { return (x - Double(first)) * Double(b[0]) + Double(c[0]) }
        if x >= Double(last) { return (x - Double(last)) * Double(endSlope) + Double(endValue) }
        let i = interval { x < Double(knots[$0 + 1]) }
        let t = x - Double(knots[i])
        return (Double(a[i]) * t + Double(b[i])) * t + Double(c[i])
    }

    /// The x at which the curve takes the value `y`, as OpenColorIO inverts its monotonic curves:
    /// the line beyond either end taken back (the end knot itself where that line is flat, a
    /// slope under 1e-5), inside the root of the interval's quadratic in its stable form
    /// `k + 2(y - c) / (sqrt(b^2 - 4a(c - y)) + b)`, or the line `b t + c` where that
    /// denominator is near 0. NaN gives NaN.
    public func inverseValue(at y: Double) -> Double {
        guard let first = knots.first, let last = knots.last, !a.isEmpty else { return y }
        let startValue = Double(c[0])
        if y <= startValue {
            return abs(b[0]) < 1e-5 ? Double(first) : (y - startValue) / Double(b[0]) + Double(first)
        }
        if y >= Double(endValue) {
            return abs(endSlope) < 1e-5 ? Double(last) : (y - Double(endValue)) / Double(endSlope) + Double(last)
        }
        let i = interval { y < Double(c[$0 + 1]) }
        return Self.root(a: Double(a[i]), b: Double(b[i]), c: Double(c[i]) - y, knot: Double(knots[i]))
    }

    /// The hue at which a hue curve takes the hue `y`, as OpenColorIO inverts HueHue and HueFx:
    /// `y` first moves by whole turns into the range the curve covers, then the quadratic of its
    /// interval is solved as in `inverseValue(at:)`. With `shifts` (HueFx, whose value is a shift
    /// added to the hue) the curve inverted is `x + HueFx(x)`. The result may lie outside 0..<1.
    public func inverseHueValue(at given: Double, shifts: Bool) -> Double {
        guard let first = knots.first, let last = knots.last, !a.isEmpty else { return given }
        // OpenColorIO adds the diagonal in Float32.
        let startValue = Double(shifts ? c[0] + first : c[0])
        let finalValue = Double(shifts ? endValue + last : endValue)
        var y = given
        if y < startValue {
            y += (startValue - y).rounded(.up)
        } else if y > finalValue {
            y -= (y - finalValue).rounded(.up)
        }
        let i = interval { y < Double(shifts ? c[$0 + 1] + knots[$0 + 1] : c[$0 + 1]) }
        let slope = shifts ? b[i] + 1 : b[i], offset = shifts ? c[i] + knots[i] : c[i]
        return Self.root(a: Double(a[i]), b: Double(slope), c: Double(offset) - y, knot: Double(knots[i]))
    }

    /// The x past `knot` where `a t^2 + b t + c` is 0, by the form that does not cancel.
    static func root(a: Double, b: Double, c: Double, knot: Double) -> Double {
        let denominator = (b * b - 4 * a * c).squareRoot() + b
        if abs(denominator) < 1e-5 {
            // Next to no curvature and a falling line: the line's own root.
            return abs(b) < 1e-5 ? knot : knot - c / b
        }
        return knot - 2 * c / denominator
    }

    /// The first interval whose test passes, or the last interval (OpenColorIO's search, which
    /// never runs past the last piece).
    private func interval(where test: (Int) -> Bool) -> Int {
        for i in 0..<(a.count - 1) where test(i) { return i }
        return a.count - 1
    }
}
