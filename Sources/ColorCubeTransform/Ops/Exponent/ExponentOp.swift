import Foundation

/// CLF's Exponent node: a power function per channel, in ten styles.
///
/// With `g` the channel's exponent (and, for the monCurve styles, `o` its offset):
/// - `basicFwd`: `out = max(x, 0)^g` (negative and NaN inputs give 0); `basicRev`: `max(x, 0)^(1/g)`.
/// - `basicMirrorFwd`/`Rev`: `sign(x) * |x|^g` (or `1/g`): odd-symmetric about 0.
/// - `basicPassThruFwd`/`Rev`: `x^g` (or `1/g`) above 0; 0, negative values and NaN pass unchanged.
/// - `monCurveFwd`: `((x + o) / (1 + o))^g` above the break `o / (g - 1)`, and the straight line
///   through 0 that meets the curve with the same slope there at and below it (the sRGB and
///   Rec. 709 shape). `monCurveRev` is its inverse. The mirror forms are odd-symmetric about 0.
///   As OpenColorIO does, `g` is taken as at least 1 + 1e-6 and `o` as at least 1e-6 so that the
///   break exists.
///
/// Exponents: 0.01...100 for the basic styles, 1...10 for monCurve with offsets 0...0.9 (the
/// ranges OpenColorIO accepts).
public struct ExponentOp: TransformOp {
    public enum Style: String, CaseIterable, Sendable {
        case basicFwd, basicRev, basicMirrorFwd, basicMirrorRev, basicPassThruFwd, basicPassThruRev
        case monCurveFwd, monCurveRev, monCurveMirrorFwd, monCurveMirrorRev

        /// A CLF style name, any case, or nil.
        public init?(clfName: String) {
            guard let style = Style.allCases.first(where: { $0.rawValue.lowercased() == clfName.lowercased() }) else { return nil }
            self = style
        }

        public var isMonCurve: Bool { rawValue.hasPrefix("monCurve") }
        public var isReverse: Bool { rawValue.hasSuffix("Rev") }

        public var inverse: Style {
            let name = isReverse ? String(rawValue.dropLast(3)) + "Fwd" : String(rawValue.dropLast(3)) + "Rev"
            return Style(rawValue: name) ?? self
        }
    }

    public let style: Style
    /// Per channel (red, green, blue).
    public let exponent: SIMD3<Double>
    /// Per channel; used by the monCurve styles only.
    public let offset: SIMD3<Double>

    /// The accepted exponents of the basic styles.
    public static let basicExponents = 0.01...100.0
    /// The accepted exponents and offsets of the monCurve styles.
    public static let monCurveExponents = 1.0...10.0
    public static let monCurveOffsets = 0.0...0.9

    /// - Throws: `TransformError.invalidOperation` for an exponent or offset outside the style's range.
    public init(style: Style, exponent: SIMD3<Double>, offset: SIMD3<Double> = .zero) throws(TransformError) {
        let exponents = style.isMonCurve ? Self.monCurveExponents : Self.basicExponents
        for channel in 0..<3 {
            guard exponents.contains(exponent[channel]) else {
                throw .invalidOperation(operation: "exponent", reason: "exponent \(Describe.number(exponent[channel])) is outside "
                    + "\(Describe.number(exponents.lowerBound))...\(Describe.number(exponents.upperBound)) for the \(style.rawValue) style")
            }
            guard !style.isMonCurve || Self.monCurveOffsets.contains(offset[channel]) else {
                throw .invalidOperation(operation: "exponent", reason: "offset \(Describe.number(offset[channel])) is outside 0...0.9")
            }
        }
        self.style = style
        self.exponent = exponent
        self.offset = style.isMonCurve ? offset : .zero
        monCurves = (0..<3).map { MonCurve(exponent: exponent[$0], offset: offset[$0]) }
    }

    /// A monCurve channel's constants, worked out once: its exponent and offset with OpenColorIO's
    /// nudges away from the degenerate g = 1, o = 0, and the break and slope of its straight part
    /// on each side.
    struct MonCurve: Sendable {
        let g, o, forwardBreak, forwardSlope, reverseBreak, reverseSlope: Double

        init(exponent: Double, offset: Double) {
            g = max(exponent, 1 + 1e-6)
            o = max(offset, 1e-6)
            forwardBreak = o / (g - 1)
            forwardSlope = (g - 1) / o * pow(o * g / ((g - 1) * (1 + o)), g)
            reverseBreak = pow(o * g / ((g - 1) * (1 + o)), g)
            reverseSlope = pow((g - 1) / o, g - 1) * pow((1 + o) / g, g)
        }

        /// The curve: a power above the break, the straight line below it.
        @inline(__always)
        func forward(_ x: Double) -> Double {
            x > forwardBreak || x.isNaN ? pow((x + o) / (1 + o), g) : x * forwardSlope
        }

        /// Its inverse.
        @inline(__always)
        func reverse(_ y: Double) -> Double {
            y > reverseBreak || y.isNaN ? (1 + o) * pow(y, 1 / g) - o : y * reverseSlope
        }
    }

    let monCurves: [MonCurve]

    public func apply(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(channel(rgb.x, 0), channel(rgb.y, 1), channel(rgb.z, 2))
    }

    /// The same values as `apply(_:)`, a channel at a time with its constants read once (the
    /// monCurve styles, a picture's decoding and encoding curves, are the common ones in chains).
    public func apply(red: UnsafeMutablePointer<Double>, green: UnsafeMutablePointer<Double>,
                      blue: UnsafeMutablePointer<Double>, count: Int) {
        for (index, plane) in [red, green, blue].enumerated() {
            let c = monCurves[index]
            switch style {
            case .monCurveFwd:
                for i in 0..<count { plane[i] = c.forward(plane[i]) }
            case .monCurveRev:
                for i in 0..<count { plane[i] = c.reverse(plane[i]) }
            default:
                for i in 0..<count { plane[i] = channel(plane[i], index) }
            }
        }
    }

    private func channel(_ x: Double, _ index: Int) -> Double {
        let g = exponent[index]
        switch style {
        case .basicFwd, .basicRev:
            return pow(x > 0 ? x : 0, style == .basicFwd ? g : 1 / g)
        case .basicMirrorFwd, .basicMirrorRev:
            let magnitude = pow(abs(x), style == .basicMirrorFwd ? g : 1 / g)
            return x.sign == .minus ? -magnitude : magnitude
        case .basicPassThruFwd, .basicPassThruRev:
            return x > 0 ? pow(x, style == .basicPassThruFwd ? g : 1 / g) : x
        case .monCurveFwd:
            return monCurveForward(x, index)
        case .monCurveRev:
            return monCurveReverse(x, index)
        case .monCurveMirrorFwd:
            let magnitude = monCurveForward(abs(x), index)
            return x.sign == .minus ? -magnitude : magnitude
        case .monCurveMirrorRev:
            let magnitude = monCurveReverse(abs(x), index)
            return x.sign == .minus ? -magnitude : magnitude
        }
    }

    private func monCurveForward(_ x: Double, _ index: Int) -> Double {
        monCurves[index].forward(x)
    }

    private func monCurveReverse(_ y: Double, _ index: Int) -> Double {
        monCurves[index].reverse(y)
    }

    public var isPerChannel: Bool { true }

    /// True for an exponent of 1 in the mirror and pass-through styles (the plain basic styles
    /// still clamp negative values to 0; monCurve is never exactly the identity).
    public var isIdentity: Bool {
        exponent == .one && !style.isMonCurve && style != .basicFwd && style != .basicRev
    }

    /// True when some channel's curve rises vertically at 0: a basic style whose power (g, or 1/g
    /// for the reverse styles) is below 1, such as a display's 1/2.2. A table sampled across 0
    /// cannot follow that rise (linear interpolation is off by about the power of the step), so
    /// `ChainPlan` evaluates such a curve as itself rather than tabulated.
    public var isVerticalAtZero: Bool {
        guard !style.isMonCurve else { return false }
        let powers = style.isReverse ? 1 / exponent : exponent
        return powers.min() < 1
    }

    /// The opposite direction with the same parameters: exact, except that `basicFwd` and
    /// `basicRev` cannot bring back the negative values they set to 0.
    public func inverse() throws(TransformError) -> [any TransformOp] {
        [try ExponentOp(style: style.inverse, exponent: exponent, offset: offset)]
    }

    public var description: String {
        "exponent (\(style.rawValue)): \(Describe.triple(exponent))" + (style.isMonCurve ? ", offset \(Describe.triple(offset))" : "")
    }
}
