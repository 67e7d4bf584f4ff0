import Foundation

/// OpenColorIO's GradingHueCurve: eight curves over hue, saturation and luma (HSY), as
/// OpenColorIO 2.6 evaluates it.
///
/// Colours go to OpenColorIO's HSY for the style (`FixedFunctionFormulas.HSY`; with
/// `hsyTransform="none"` the values are taken as HSY already) and, in the linear style, luma to
/// the RGB curves' log encoding (`GradingStyle.linToLog(_:)`). Forward, from the input hue
/// `h`, saturation `s` and luma `y`:
/// - gains `hs = HueSat(h)`, `hl = HueLum(h)`, `ls = LumSat(y)` (each at least 0);
/// - `h = HueHue(h)`, `s = max(SatSat(s), 0) * ls * hs`, then `sl = SatLum(s)` (at least 0) and
///   `y = LumLum(y)`, luma back to linear;
/// - the hue-lum gain fades towards 1 as saturation falls: `hl' = 1 - (1 - hl) min(s, 1)`;
///   luma is multiplied by `hl' sl` in the linear and video styles, and moved by
///   `0.1 (hl' + sl - 2)` in the log style. (OpenColorIO 2.6 multiplies in the video style;
///   sources of it from before the release add there, as in the log style.)
/// - the hue wraps into 0..<1 and `HueFx(h)` is added to it (a hue shift, 0 for the identity).
///
/// The inverse takes the steps back in reverse order, inverting HueFx and HueHue as hues
/// (`GradingBSpline.inverseHueValue(at:shifts:)`), dividing by gains of at least 0.01, and
/// inverting SatSat and LumLum. Hue curves are evaluated on hues in 0..<1, so the periodic
/// curves never extrapolate. When every curve is an identity, OpenColorIO skips the operator
/// and values pass through exactly.
public struct GradingHueCurveOp: TransformOp {
    /// The eight curves in OpenColorIO's order, with their CTF element names as raw values.
    public enum Curve: String, CaseIterable, Sendable {
        case hueHue = "HueHue", hueSat = "HueSat", hueLum = "HueLum", lumSat = "LumSat"
        case satSat = "SatSat", lumLum = "LumLum", satLum = "SatLum", hueFx = "HueFx"

        /// The kind of spline the curve is.
        public var kind: GradingCurve.Kind {
            switch self {
            case .hueHue: .hueHue
            case .hueSat, .hueLum: .periodic1
            case .lumSat, .satLum: .horizontal1
            case .satSat, .lumLum: .diagonal
            case .hueFx: .periodic0
            }
        }

        /// The identity curve OpenColorIO gives the curve when a file leaves it out: six points
        /// a sixth apart for those over hue, three for the others (over -7...7 in the linear
        /// style's log units for those over luma).
        public func defaultCurve(_ style: GradingStyle) -> GradingCurve {
            let sixths = (0..<6).map { Float($0) / 6 }
            let thirds: [Float] = style == .linear && (self == .lumSat || self == .lumLum) ? [-7, 0, 7] : [0, 0.5, 1]
            switch self {
            case .hueHue: return GradingCurve(sixths.map { ($0, $0) }, kind: kind)
            case .hueSat, .hueLum: return GradingCurve(sixths.map { ($0, 1) }, kind: kind)
            case .hueFx: return GradingCurve(sixths.map { ($0, 0) }, kind: kind)
            case .lumSat, .satLum: return GradingCurve(thirds.map { ($0, 1) }, kind: kind)
            case .satSat, .lumLum: return GradingCurve(thirds.map { ($0, $0) }, kind: kind)
            }
        }
    }

    /// The eight curves, by `Curve`.
    public struct Curves: Equatable, Sendable {
        private var curves: [GradingCurve]

        /// Each of the style's default (identity) curves.
        public init(style: GradingStyle) {
            curves = Curve.allCases.map { $0.defaultCurve(style) }
        }

        public subscript(_ curve: Curve) -> GradingCurve {
            get { curves[Curve.allCases.firstIndex(of: curve) ?? 0] }
            set { curves[Curve.allCases.firstIndex(of: curve) ?? 0] = newValue }
        }
    }

    public let style: GradingStyle
    public let curves: Curves
    public let isReverse: Bool
    /// Whether the values are taken as HSY already (`hsyTransform="none"`).
    public let skipsHSY: Bool
    /// Whether the file marks the curves dynamic (`HUE_CURVE`): they are applied as written.
    public let isDynamic: Bool
    /// The fitted curves, by `Curve.allCases` order; nil for an identity curve.
    private let splines: [GradingBSpline?]

    /// Validates and fits `curves`.
    /// - Throws: `TransformError.invalidOperation` naming the curve and the rule it breaks (see
    ///   `GradingCurve.validate(_:)`), a curve of the wrong kind for its place, or more knots than
    ///   OpenColorIO holds (`GradingBSpline.maxKnots` for the eight together).
    public init(style: GradingStyle, curves: Curves, isReverse: Bool = false, skipsHSY: Bool = false,
                isDynamic: Bool = false) throws(TransformError) {
        let splines = try GradingBSpline.fitting(Curve.allCases.map { ($0.rawValue, curves[$0], $0.kind) }, operation: "hue curves")
        self.style = style
        self.curves = curves
        self.isReverse = isReverse
        self.skipsHSY = skipsHSY
        self.isDynamic = isDynamic
        self.splines = splines
    }

    /// The curve `name` at `x`, or `identity` for an identity curve.
    private func value(_ name: Curve, _ x: Double, identity: Double) -> Double {
        splines[Curve.allCases.firstIndex(of: name) ?? 0]?.value(at: x) ?? identity
    }

    private func spline(_ name: Curve) -> GradingBSpline? {
        splines[Curve.allCases.firstIndex(of: name) ?? 0]
    }

    /// C++'s `std::max(a, b)` and `std::min(a, b)`: NaN in `b` gives `a`.
    private static func cMax(_ a: Double, _ b: Double) -> Double { a < b ? b : a }
    private static func cMin(_ a: Double, _ b: Double) -> Double { b < a ? b : a }

    private var hsy: FixedFunctionFormulas.HSY {
        switch style {
        case .linear: .linear
        case .log: .log
        case .video: .video
        }
    }

    /// Whether the luma gains multiply (linear and video) rather than add (log).
    private var multipliesLuma: Bool { style != .log }

    public func apply(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        if isIdentity { return rgb }
        let linear = style == .linear
        var (h, s, y) = { (v: SIMD3<Double>) in (v.x, v.y, v.z) }(skipsHSY ? rgb : hsy.encode(rgb))
        if isReverse {
            h = spline(.hueFx)?.inverseHueValue(at: h, shifts: true) ?? h
            h = spline(.hueHue)?.inverseHueValue(at: h, shifts: false) ?? h
            h -= h.rounded(.down)
            let hueSat = Self.cMax(0, value(.hueSat, h, identity: 1))
            var hueLum = Self.cMax(0, value(.hueLum, h, identity: 1))
            s = Self.cMax(0, s)
            let satLum = Self.cMax(0, value(.satLum, s, identity: 1))
            hueLum = 1 - (1 - hueLum) * Self.cMin(s, 1)
            y = multipliesLuma ? y / Self.cMax(0.01, hueLum * satLum) : y - (hueLum + satLum - 2) * 0.1
            if linear { y = GradingStyle.linToLog(y) }
            y = spline(.lumLum)?.inverseValue(at: y) ?? y
            let lumSat = Self.cMax(0, value(.lumSat, y, identity: 1))
            if linear { y = GradingStyle.logToLin(y) }
            s /= Self.cMax(0.01, lumSat * hueSat)
            s = Self.cMax(0, spline(.satSat)?.inverseValue(at: s) ?? s)
        } else {
            if linear { y = GradingStyle.linToLog(y) }
            let hueSat = Self.cMax(0, value(.hueSat, h, identity: 1))
            var hueLum = Self.cMax(0, value(.hueLum, h, identity: 1))
            h = value(.hueHue, h, identity: h)
            s = Self.cMax(0, value(.satSat, s, identity: s))
            let lumSat = Self.cMax(0, value(.lumSat, y, identity: 1))
            s *= lumSat * hueSat
            let satLum = Self.cMax(0, value(.satLum, s, identity: 1))
            y = value(.lumLum, y, identity: y)
            if linear { y = GradingStyle.logToLin(y) }
            hueLum = 1 - (1 - hueLum) * Self.cMin(s, 1)
            y = multipliesLuma ? y * hueLum * satLum : y + (hueLum + satLum - 2) * 0.1
            h -= h.rounded(.down)
            h += value(.hueFx, h, identity: 0)
        }
        let out = SIMD3(h, s, y)
        return skipsHSY ? out : hsy.decode(out)
    }

    /// Hue mixes the channels.
    public var isPerChannel: Bool { false }

    /// Every curve is an identity (dynamic or not: the file's values are what is applied).
    public var isIdentity: Bool { splines.allSatisfy { $0 == nil } }

    /// The same curves in the other direction (OpenColorIO's inverse renderer). Never throws,
    /// though the inverse is exact only where the gains are above 0.01 and hues are not folded.
    public func inverse() throws(TransformError) -> [any TransformOp] {
        [try GradingHueCurveOp(style: style, curves: curves, isReverse: !isReverse, skipsHSY: skipsHSY, isDynamic: isDynamic)]
    }

    public var description: String {
        let shown = Curve.allCases.filter { !curves[$0].isIdentity }.map { name in
            "\(name.rawValue) \(curves[name].points.count) points" + (curves[name].estimatesSlopes ? "" : " with slopes")
        }
        var text = "hue curves (\(style.rawValue)\(isReverse ? ", inverse" : "")\(skipsHSY ? ", no HSY conversion" : "")): "
            + (shown.isEmpty ? "identity" : shown.joined(separator: ", "))
        if isDynamic { text += " (dynamic, applied as written)" }
        return text
    }
}
