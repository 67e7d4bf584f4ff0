import Foundation

/// OpenColorIO's GradingPrimary: a colourist's primary grade in one of three spaces (`Style`),
/// forward or reverse, as OpenColorIO 2.6 evaluates it.
///
/// Per channel `i`, with `S` the saturation, `pb`/`pw` the black and white pivots, `B` and `W`
/// the clamps, and each RGBM control combined with its master (`+` for brightness, offset,
/// exposure and lift; `*` for contrast, gamma and gain):
/// - `log`: `x += brightness * 6.25 / 1023`; `x = (x - P) * contrast + P` with `P = 0.5 + 0.5 * pivot`;
///   the gamma step with power `1 / gamma`.
/// - `linear`: `x = (x + offset) * 2^exposure`; then `sign(x) * P * |x / P|^contrast` with
///   `P = 0.18 * 2^pivot`.
/// - `video`: `x += offset + lift`; `x = (x - pb) * slope + pb` with
///   `slope = (pw - pb) / (pw / gain + lift - pb)` (a gain of 0 is taken as 1, a zero denominator
///   as 1); the gamma step with power `1 / gamma`.
///
/// The gamma step is `pb + sign(x - pb) * (pw - pb) * (|x - pb| / (pw - pb))^power`. Every style
/// then mixes with Rec. 709 luma, `L + S * (x - L)` (`L = 0.2126 r + 0.7152 g + 0.0722 b`), and
/// clamps to `B...W`. The reverse undoes the steps in the opposite order: clamp first, then
/// saturation `1 / S` (skipped when `S` is 0), the power with the reciprocal exponent, the line
/// with the reciprocal slope (a log contrast of 0 taken as 1), the offsets subtracted.
///
/// What OpenColorIO does that surprises, and colorcube does too:
/// - A power (gamma, linear contrast) whose exponent rounds to 1 in Float32 is skipped, and a
///   grade whose steps all round to nothing, with saturation 1 and no clamps, passes every
///   value through unchanged, NaN included.
/// - Otherwise NaN never survives: a power takes it to 0 (so the gamma step gives `pb`), and the
///   clamp takes it to the black clamp, which without a clamp is negative infinity (OpenColorIO
///   clamps in Float32, where the default black clamp, the most negative Double, is `-inf`).
/// - A value the power sees as 0 or less comes out 0 from the power: only the magnitude is raised.
/// - The saturation step mixes channels, so a NaN or infinity in one channel reaches all three.
/// - OpenColorIO's optimiser drops a grade followed by its reverse with the same values, even
///   where the pair is no identity (a clamp, a saturation or a log contrast of 0); colorcube
///   applies both as written.
///
/// OpenColorIO raises to powers with an SSE approximation, within about 1e-6 relative of the
/// exact power colorcube uses; for an infinite input it gives a large finite value (`2^(128 e)`)
/// where colorcube gives infinity.
public struct GradingPrimaryOp: TransformOp {
    public let style: Style
    /// Whether this is the reverse grade (OpenColorIO's `logRev`, `linearRev`, `videoRev`).
    public let isReverse: Bool
    public let parameters: Parameters
    /// Whether the file marks the grade dynamic (`DynamicParameter param="PRIMARY"`): it is applied
    /// with the values the file gives, and the description says so.
    public let dynamic: Bool

    /// OpenColorIO's "no clamp" values: the largest finite Double of each sign.
    public static let noClampBlack = -Double.greatestFiniteMagnitude
    public static let noClampWhite = Double.greatestFiniteMagnitude
    /// The smallest gamma (log, video) or contrast (linear) OpenColorIO takes, and the smallest
    /// gap between the black and white pivots.
    public static let smallestPower = 0.01

    /// The constants of one direction, computed once.
    private let kernel: Kernel
    /// The controls the style reads are at their defaults, saturation 1 and no clamps.
    public let isIdentity: Bool

    /// - Throws: `TransformError.invalidOperation` where OpenColorIO refuses the values (see
    ///   `Parameters`): a gamma or linear contrast below 0.01, pivots less than 0.01 apart, a
    ///   black clamp above the white one, a non-finite control.
    public init(style: Style, isReverse: Bool = false, parameters: Parameters, dynamic: Bool = false) throws(TransformError) {
        if let defect = parameters.defect(for: style) {
            throw .invalidOperation(operation: "grading primary", reason: defect)
        }
        self.style = style
        self.isReverse = isReverse
        self.parameters = parameters
        self.dynamic = dynamic
        kernel = Kernel(style: style, isReverse: isReverse, parameters)
        isIdentity = parameters.isDefault(for: style)
    }

    /// The per-direction constants: the line `(x + add - centre) * scale + centre` forward (the
    /// reverse adds after the line), the power about `origin` in units of `unit`, the saturation
    /// (nil when skipped) and the clamps as Float32 holds them.
    private struct Kernel {
        var add = SIMD3<Double>.zero, scale = SIMD3<Double>.one, centre = 0.0
        var power = SIMD3<Double>.one, origin = 0.0, unit = 1.0
        var appliesPower = false
        var saturation: Double?
        var black = 0.0, white = 0.0
        /// Every step rounds to nothing in Float32: values pass through untouched.
        var bypasses = false

        init(style: Style, isReverse: Bool, _ p: Parameters) {
            let pivotRange = p.pivotWhite - p.pivotBlack
            switch style {
            case .log:
                add = p.brightness.sums * 6.25 / 1023
                scale = p.contrast.products
                power = 1 / p.gamma.products
                centre = 0.5 + 0.5 * p.pivot
                origin = p.pivotBlack
                unit = pivotRange
                if isReverse {
                    scale = SIMD3(1 / Self.nonZero(scale.x), 1 / Self.nonZero(scale.y), 1 / Self.nonZero(scale.z))
                }
            case .linear:
                add = p.offset.sums
                scale = SIMD3(pow(2, p.exposure.sums.x), pow(2, p.exposure.sums.y), pow(2, p.exposure.sums.z))
                power = p.contrast.products
                unit = 0.18 * pow(2, p.pivot)
                if isReverse { scale = 1 / scale }
            case .video:
                add = p.offset.sums + p.lift.sums
                let gain = p.gain.products
                let lift = p.lift.sums
                var slope = SIMD3<Double>.one
                for i in 0..<3 {
                    let run = p.pivotWhite / Self.nonZero(gain[i]) + lift[i] - p.pivotBlack
                    slope[i] = isReverse ? run / pivotRange : pivotRange / Self.nonZero(run)
                }
                scale = slope
                power = 1 / p.gamma.products
                centre = p.pivotBlack
                origin = p.pivotBlack
                unit = pivotRange
            }
            if isReverse {
                add = -add
                power = 1 / power
            }
            appliesPower = !Self.roundsToOne(power)
            if isReverse {
                saturation = p.saturation == 1 || p.saturation == 0 ? nil : 1 / p.saturation
            } else {
                saturation = p.saturation == 1 ? nil : p.saturation
            }
            black = Double(Float(p.clampBlack))
            white = Double(Float(p.clampWhite))
            bypasses = saturation == nil && p.clampBlack == noClampBlack && p.clampWhite == noClampWhite && !appliesPower
                && Self.roundsToOne(scale) && (0..<3).allSatisfy { Float(add[$0]) == 0 }
        }

        static func nonZero(_ value: Double) -> Double { value == 0 ? 1 : value }

        static func roundsToOne(_ values: SIMD3<Double>) -> Bool {
            (0..<3).allSatisfy { Float(values[$0]) == 1 }
        }
    }

    public func apply(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        let k = kernel
        if k.bypasses || isIdentity { return rgb }
        var x = rgb
        if isReverse {
            x = clamp(x)
            if let s = k.saturation { x = Self.saturate(x, s) }
            if k.appliesPower { x = raise(x) }
            x = (x - k.centre) * k.scale + k.centre + k.add
        } else {
            x = (x + k.add - k.centre) * k.scale + k.centre
            if k.appliesPower { x = raise(x) }
            if let s = k.saturation { x = Self.saturate(x, s) }
            x = clamp(x)
        }
        return x
    }

    /// The power step: `origin + sign(d) * unit * (|d| / unit)^power` with `d = x - origin`; a
    /// magnitude of 0 or NaN raises to 0.
    private func raise(_ x: SIMD3<Double>) -> SIMD3<Double> {
        let k = kernel
        var out = x
        for i in 0..<3 {
            let d = x[i] - k.origin
            let m = abs(d) / k.unit
            let raised = (m > 0 ? pow(m, k.power[i]) : 0) * k.unit
            out[i] = (d < 0 ? -raised : raised) + k.origin
        }
        return out
    }

    /// Each channel into `black...white`, NaN to `black` (OpenColorIO's SSE max keeps the clamp).
    private func clamp(_ x: SIMD3<Double>) -> SIMD3<Double> {
        let k = kernel
        var out = x
        for i in 0..<3 {
            out[i] = x[i].isNaN ? k.black : min(max(x[i], k.black), k.white)
        }
        return out
    }

    /// `L + s * (x - L)`, `L` the Rec. 709 luma.
    private static func saturate(_ x: SIMD3<Double>, _ s: Double) -> SIMD3<Double> {
        let luma = 0.2126 * x.x + 0.7152 * x.y + 0.0722 * x.z
        return luma + s * (x - luma)
    }

    /// Only the saturation mixes channels.
    public var isPerChannel: Bool { kernel.saturation == nil }

    /// The other direction with the same controls. Clamps are not undone (the reverse clamps
    /// its input where the forward clamped its output).
    /// - Throws: `TransformError.notInvertible` for a saturation of 0, a log contrast of 0 or a
    ///   video lift and gain that send the white pivot to the black one: one direction flattens
    ///   what the other takes as unchanged.
    public func inverse() throws(TransformError) -> [any TransformOp] {
        let other = Kernel(style: style, isReverse: !isReverse, parameters)
        let flattens = (0..<3).contains { abs(kernel.scale[$0] * other.scale[$0] - 1) > 1e-9 }
        if parameters.saturation == 0 || flattens {
            throw .notInvertible(operation: "grading primary", reason: parameters.saturation == 0
                ? "a saturation of 0 turns every colour grey" : "a slope of 0 flattens every value of a channel to one")
        }
        return [try GradingPrimaryOp(style: style, isReverse: !isReverse, parameters: parameters, dynamic: dynamic)]
    }

    public var description: String {
        let p = parameters
        var parts: [String]
        switch style {
        case .log:
            parts = ["brightness \(p.brightness.text)", "contrast \(p.contrast.text)", "gamma \(p.gamma.text)",
                     "pivot \(Describe.number(p.pivot))"]
        case .linear:
            parts = ["offset \(p.offset.text)", "exposure \(p.exposure.text)", "contrast \(p.contrast.text)",
                     "pivot \(Describe.number(p.pivot))"]
        case .video:
            parts = ["lift \(p.lift.text)", "gain \(p.gain.text)", "gamma \(p.gamma.text)", "offset \(p.offset.text)"]
        }
        if style != .linear {
            parts.append("black/white pivots \(Describe.number(p.pivotBlack))/\(Describe.number(p.pivotWhite))")
        }
        parts.append("saturation \(Describe.number(p.saturation))")
        if p.clampBlack != Self.noClampBlack || p.clampWhite != Self.noClampWhite {
            parts.append("clamp \(Describe.number(p.clampBlack))...\(Describe.number(p.clampWhite))")
        }
        let direction = isReverse ? "reverse" : "forward"
        return "grading primary (\(style.rawValue), \(direction)): " + parts.joined(separator: ", ")
            + (dynamic ? " (dynamic, applied as written)" : "")
    }
}
