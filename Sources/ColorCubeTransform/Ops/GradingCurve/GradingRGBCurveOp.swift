import Foundation

/// OpenColorIO's GradingRGBCurve: a curve per channel (red, green, blue) and then a master
/// curve on all three, each a monotonic `GradingBSpline`, as OpenColorIO 2.6 evaluates it.
///
/// Forward, each channel goes through its own curve and then the master curve; the inverse
/// undoes the master curve first, then the channel's (`GradingBSpline.inverseValue(at:)`).
///
/// The `log` and `video` styles apply the curves to the values as they are. The `linear` style
/// wraps them in OpenColorIO's own lin-to-log encoding: `log2((x + s) / (0.18 + s))` with
/// `s = -0.000157849851665374` above `x = 0.0041318374739483946`, and the straight line
/// `363.034608563 x - 7` below it (so 0.18 is 0, and 0 is -7), then back with its inverse (the
/// line below -5.5). The default linear curve runs from -7 to 7 in those log units.
/// `bypassLinToLog` drops the wrapping. When every curve is an identity, OpenColorIO skips the
/// operator, wrapping and all, so values pass through exactly. On x86 OpenColorIO computes the
/// wrapping with its SSE approximations of log2 and exp2 (about 15 bits), whatever the
/// processor's optimisation flags; colorcube computes it exactly, within 1e-4 of OpenColorIO.
///
/// Each channel depends on itself alone. Values outside the curves' knots follow the end lines;
/// NaN stays NaN and an infinity stays infinite (or NaN where a curve is flat at its end).
public struct GradingRGBCurveOp: TransformOp {
    /// The four curves, in OpenColorIO's order.
    public struct Curves: Equatable, Sendable {
        public var red, green, blue, master: GradingCurve

        /// Each of the style's default (identity) curves.
        public init(style: GradingStyle) {
            red = style.defaultCurve
            green = red
            blue = red
            master = red
        }

        public init(red: GradingCurve, green: GradingCurve, blue: GradingCurve, master: GradingCurve) {
            self.red = red
            self.green = green
            self.blue = blue
            self.master = master
        }

        /// The curves with their names, in order.
        public var named: [(name: String, curve: GradingCurve)] {
            [("red", red), ("green", green), ("blue", blue), ("master", master)]
        }
    }

    public let style: GradingStyle
    public let curves: Curves
    /// Whether this is OpenColorIO's inverse direction (a `...Rev` style in a CTF).
    public let isReverse: Bool
    /// Whether the linear style skips its lin-to-log wrapping.
    public let bypassLinToLog: Bool
    /// Whether the file marks the curves dynamic (`RGB_CURVE`): they are applied as written.
    public let isDynamic: Bool
    /// The fitted red, green, blue and master curves; nil for an identity curve.
    private let splines: [GradingBSpline?]

    /// Validates and fits `curves`.
    /// - Throws: `TransformError.invalidOperation` naming the curve and the rule it breaks (see
    ///   `GradingCurve.validate(_:)`), or when the fitted curves hold more knots than OpenColorIO
    ///   does (`GradingBSpline.maxKnots`).
    public init(style: GradingStyle, curves: Curves, isReverse: Bool = false, bypassLinToLog: Bool = false,
                isDynamic: Bool = false) throws(TransformError) {
        let splines = try GradingBSpline.fitting(curves.named.map { ($0.name, $0.curve, .rgb) }, operation: "RGB curves")
        self.style = style
        self.curves = curves
        self.isReverse = isReverse
        self.bypassLinToLog = bypassLinToLog
        self.isDynamic = isDynamic
        self.splines = splines
    }

    /// Whether values are taken to OpenColorIO's log encoding around the curves.
    private var wrapsInLog: Bool { style == .linear && !bypassLinToLog }

    public func apply(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        if isIdentity { return rgb }
        var out = rgb
        for channel in 0..<3 {
            var value = wrapsInLog ? GradingStyle.linToLog(rgb[channel]) : rgb[channel]
            let own = splines[channel], master = splines[3]
            if isReverse {
                value = master?.inverseValue(at: value) ?? value
                value = own?.inverseValue(at: value) ?? value
            } else {
                value = own?.value(at: value) ?? value
                value = master?.value(at: value) ?? value
            }
            out[channel] = wrapsInLog ? GradingStyle.logToLin(value) : value
        }
        return out
    }

    public var isPerChannel: Bool { true }

    /// Every curve is an identity (dynamic or not: the file's values are what is applied).
    public var isIdentity: Bool { splines.allSatisfy { $0 == nil } }

    /// The same curves in the other direction. Never throws: the curves are monotonic, and where
    /// one is flat its inverse takes the end of the flat part, as OpenColorIO's does.
    public func inverse() throws(TransformError) -> [any TransformOp] {
        [try GradingRGBCurveOp(style: style, curves: curves, isReverse: !isReverse, bypassLinToLog: bypassLinToLog,
                               isDynamic: isDynamic)]
    }

    public var description: String {
        let shown = curves.named.filter { !$0.curve.isIdentity }.map { named in
            "\(named.name) \(named.curve.points.count) points" + (named.curve.estimatesSlopes ? "" : " with slopes")
        }
        var text = "RGB curves (\(style.rawValue)\(isReverse ? ", inverse" : "")"
            + "\(style == .linear && bypassLinToLog ? ", no lin-to-log" : "")): "
            + (shown.isEmpty ? "identity" : shown.joined(separator: ", "))
        if isDynamic { text += " (dynamic, applied as written)" }
        return text
    }
}
