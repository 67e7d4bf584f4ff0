/// One curve of OpenColorIO's grading curve operators: control points, optional slopes at them,
/// and the kind of spline they are fitted with (`GradingBSpline` does the fitting).
///
/// Values are held in Float32, as OpenColorIO holds them, so that a curve fitted here takes the
/// same knots and coefficients as OpenColorIO's and agrees with it to rounding.
///
/// Slopes are all zero unless a file gives them; OpenColorIO reads all-zero slopes as "estimate
/// them from the points", so a curve cannot ask for zero slopes everywhere.
public struct GradingCurve: Equatable, Sendable {
    /// The kind of curve, which decides what is an identity, what is validated and how the spline
    /// is fitted (OpenColorIO's `BSplineType`).
    public enum Kind: String, CaseIterable, Sendable {
        /// Monotonic, for the red, green, blue and master curves of `GradingRGBCurveOp`.
        case rgb
        /// Monotonic and diagonal (the identity is y = x), for the hue curves' sat-sat and lum-lum.
        case diagonal
        /// Monotonic, diagonal and periodic over hue in 0...1, for hue-hue.
        case hueHue
        /// Periodic over hue, 1 for the identity, for hue-sat and hue-lum.
        case periodic1
        /// Periodic over hue, 0 for the identity, for hue-fx (a hue shift).
        case periodic0
        /// Not periodic, 1 for the identity, for lum-sat and sat-lum.
        case horizontal1

        /// Whether the curve repeats with period 1 in x (a hue).
        public var isPeriodic: Bool { self == .hueHue || self == .periodic1 || self == .periodic0 }

        /// Whether the identity is the line y = x (otherwise a constant, 0 or 1).
        public var isDiagonal: Bool { self == .rgb || self == .diagonal || self == .hueHue }

        /// The constant value of an identity curve that is not diagonal.
        var identityValue: Float { self == .periodic0 ? 0 : 1 }
    }

    /// A control point (x, y).
    public struct Point: Equatable, Sendable {
        public var x: Float
        public var y: Float

        public init(_ x: Float, _ y: Float) {
            self.x = x
            self.y = y
        }
    }

    public var kind: Kind
    public var points: [Point]
    /// One slope per point; all zero means the slopes are estimated from the points.
    public var slopes: [Float]

    /// A curve through `points`, with `slopes` (one per point) or estimated slopes.
    public init(points: [Point], kind: Kind = .rgb, slopes: [Float]? = nil) {
        self.kind = kind
        self.points = points
        self.slopes = slopes ?? Array(repeating: 0, count: points.count)
    }

    /// A curve through the (x, y) pairs of `coordinates`.
    public init(_ coordinates: [(Float, Float)], kind: Kind = .rgb, slopes: [Float]? = nil) {
        self.init(points: coordinates.map { Point($0.0, $0.1) }, kind: kind, slopes: slopes)
    }

    /// Whether the slopes are to be estimated (none given, or all zero).
    public var estimatesSlopes: Bool { slopes.allSatisfy { $0 == 0 } }

    /// True when the curve changes nothing: diagonal kinds with every point on y = x, the others
    /// with every point at their identity value, and no slopes given. OpenColorIO then skips the
    /// curve entirely (not even fitting it), so values pass through exactly.
    public var isIdentity: Bool {
        guard estimatesSlopes else { return false }
        if kind.isDiagonal { return points.allSatisfy { $0.x == $0.y } }
        return points.allSatisfy { $0.y == kind.identityValue }
    }

    /// Checks the curve as OpenColorIO does before fitting it.
    /// - Throws: `TransformError.invalidOperation` naming the rule broken: fewer than 2 points, a
    ///   slope count that differs from the point count, x decreasing, y decreasing on a monotonic
    ///   kind (for hue-hue, also from the last point wrapped down by 1 to the first), a hue-hue x
    ///   outside 0...1, or two points of a periodic curve 1 apart (the same hue).
    public func validate(_ name: String) throws(TransformError) {
        func refuse(_ reason: String) -> TransformError { .invalidOperation(operation: "\(name) curve", reason: reason) }
        guard points.count >= 2 else {
            throw refuse("it has \(points.count) control point\(points.count == 1 ? "" : "s"); a curve needs at least 2")
        }
        guard slopes.count == points.count else {
            throw refuse("it has \(slopes.count) slopes for \(points.count) control points; give one slope per point")
        }
        for i in 1..<points.count where points[i].x < points[i - 1].x {
            throw refuse("control point \(i + 1) has x \(points[i].x), less than the x \(points[i - 1].x) of the point before; "
                + "list the points by increasing x")
        }
        if kind == .hueHue {
            if points[0].x < 0 { throw refuse("a hue-hue curve may not have an x below 0 (first point x \(points[0].x))") }
            if let last = points.last, last.x > 1 { throw refuse("a hue-hue curve may not have an x above 1 (last point x \(last.x))") }
        }
        if kind.isDiagonal {
            var previous = kind == .hueHue ? (points.last?.y ?? 0) - 1 : -Float.greatestFiniteMagnitude
            for (i, point) in points.enumerated() {
                if point.y < previous {
                    throw refuse("control point \(i + 1) has y \(point.y), less than \(previous) before it; "
                        + "this curve must not decrease, so raise it or lower the one before")
                }
                previous = point.y
            }
        }
        if kind.isPeriodic, points.count == 2, abs(1 - (points[1].x - points[0].x)) < 1e-3 {
            throw refuse("its 2 control points are 1 apart in hue, which is the same hue; move one or add a point")
        }
    }
}
