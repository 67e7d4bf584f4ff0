import Foundation

/// An ASC CDL: slope, offset and power per channel, then saturation, in one of CLF's four styles.
///
/// Forward: `v = in * slope + offset`, then `v = v^power`, then saturation about the Rec. 709
/// luma `l = 0.2126 r + 0.7152 g + 0.0722 b`: `out = l + saturation * (v - l)`.
/// - `Fwd` (ASC v1.2): `v` is clamped to 0...1 before the power and the result clamped to 0...1
///   again; NaN clamps to 0.
/// - `FwdNoClamp`: no clamps; the power leaves negative values as they are; NaN becomes 0.
/// - `Rev` and `RevNoClamp`: the inverse steps in reverse order with reciprocal saturation,
///   power and slope (each reciprocal taken of at least 0.01, as OpenColorIO does), and the same
///   clamps as the forward style (`Rev` clamps its input, the value before the power and its output).
///
/// OpenColorIO evaluates these formulas in Float32; here they are Float64.
public struct CDLOp: TransformOp {
    /// CLF's style names; `init(clfName:)` also takes the pre-SMPTE names (v1.2_Fwd, noClampFwd...).
    public enum Style: String, CaseIterable, Sendable {
        case fwd = "Fwd"
        case rev = "Rev"
        case fwdNoClamp = "FwdNoClamp"
        case revNoClamp = "RevNoClamp"

        /// A CLF style name, SMPTE or pre-SMPTE (case-insensitive), or nil.
        public init?(clfName: String) {
            switch clfName.lowercased() {
            case "fwd", "v1.2_fwd": self = .fwd
            case "rev", "v1.2_rev": self = .rev
            case "fwdnoclamp", "noclampfwd": self = .fwdNoClamp
            case "revnoclamp", "noclamprev": self = .revNoClamp
            default: return nil
            }
        }

        var clamps: Bool { self == .fwd || self == .rev }
        var isReverse: Bool { self == .rev || self == .revNoClamp }

        /// The style that undoes this one.
        public var inverse: Style {
            switch self {
            case .fwd: .rev
            case .rev: .fwd
            case .fwdNoClamp: .revNoClamp
            case .revNoClamp: .fwdNoClamp
            }
        }
    }

    /// Rec. 709 luma weights of red, green and blue, the ASC CDL's saturation axis.
    public static let lumaWeights = SIMD3<Double>(0.2126, 0.7152, 0.0722)
    /// The smallest slope, power or saturation whose reciprocal a reverse style takes.
    public static let smallestReciprocal = 0.01

    public let slope: SIMD3<Double>
    public let offset: SIMD3<Double>
    public let power: SIMD3<Double>
    public let saturation: Double
    public let style: Style
    /// The correction's name when it was read from an ASC CDL file (its `ColorCorrection`'s `id`):
    /// not part of the maths, kept so that the correction written out again keeps its name. Nil
    /// otherwise (an inverse has no name of its own).
    public let id: String?

    /// - Throws: `TransformError.invalidOperation` for a non-finite value, a negative slope or
    ///   saturation, or a power that is not above 0 (the ASC CDL's rules, which OpenColorIO enforces).
    public init(slope: SIMD3<Double> = .one, offset: SIMD3<Double> = .zero, power: SIMD3<Double> = .one,
                saturation: Double = 1, style: Style = .fwd, id: String? = nil) throws(TransformError) {
        for (name, values) in [("slope", slope), ("offset", offset), ("power", power)] {
            for channel in 0..<3 where !values[channel].isFinite {
                throw .invalidOperation(operation: "ASC CDL", reason: "\(name) \(values[channel]) is not a finite number")
            }
        }
        guard saturation.isFinite else {
            throw .invalidOperation(operation: "ASC CDL", reason: "saturation \(saturation) is not a finite number")
        }
        if let channel = (0..<3).first(where: { slope[$0] < 0 }) {
            throw .invalidOperation(operation: "ASC CDL", reason: "slope \(Describe.number(slope[channel])) is negative; "
                + "the ASC CDL allows slopes of 0 and more")
        }
        if let channel = (0..<3).first(where: { !(power[$0] > 0) }) {
            throw .invalidOperation(operation: "ASC CDL", reason: "power \(Describe.number(power[channel])) is not above 0; "
                + "the ASC CDL allows powers above 0")
        }
        guard saturation >= 0 else {
            throw .invalidOperation(operation: "ASC CDL", reason: "saturation \(Describe.number(saturation)) is negative")
        }
        self.slope = slope
        self.offset = offset
        self.power = power
        self.saturation = saturation
        self.style = style
        self.id = id
    }

    public func apply(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        let clamps = style.clamps
        if !style.isReverse {
            var value = rgb * slope + offset
            value = Self.power(value, power, clamps: clamps)
            value = Self.saturate(value, saturation)
            return clamps ? Self.clamp(value) : value
        }
        var value = clamps ? Self.clamp(rgb) : rgb
        value = Self.saturate(value, 1 / max(saturation, Self.smallestReciprocal))
        value = Self.power(value, SIMD3(power.indices.map { 1 / max(power[$0], Self.smallestReciprocal) }), clamps: clamps)
        value = (value - offset) * SIMD3(slope.indices.map { 1 / max(slope[$0], Self.smallestReciprocal) })
        return clamps ? Self.clamp(value) : value
    }

    /// The same steps as `apply(_:)`, with the style's choices and the reverse style's
    /// reciprocals worked out once for the whole run.
    public func apply(red: UnsafeMutablePointer<Double>, green: UnsafeMutablePointer<Double>,
                      blue: UnsafeMutablePointer<Double>, count: Int) {
        let clamps = style.clamps
        let reverse = style.isReverse
        let inverseSaturation = 1 / max(saturation, Self.smallestReciprocal)
        let inversePower = SIMD3(power.indices.map { 1 / max(power[$0], Self.smallestReciprocal) })
        let inverseSlope = SIMD3(slope.indices.map { 1 / max(slope[$0], Self.smallestReciprocal) })
        for i in 0..<count {
            var value = SIMD3(red[i], green[i], blue[i])
            if !reverse {
                value = Self.power(value * slope + offset, power, clamps: clamps)
                value = Self.saturate(value, saturation)
            } else {
                value = Self.saturate(clamps ? Self.clamp(value) : value, inverseSaturation)
                value = (Self.power(value, inversePower, clamps: clamps) - offset) * inverseSlope
            }
            if clamps { value = Self.clamp(value) }
            red[i] = value.x
            green[i] = value.y
            blue[i] = value.z
        }
    }

    /// Clamps each channel to 0...1; NaN becomes 0.
    static func clamp(_ value: SIMD3<Double>) -> SIMD3<Double> {
        var result = value
        for channel in 0..<3 {
            if !(result[channel] > 0) { result[channel] = 0 }
            if result[channel] > 1 { result[channel] = 1 }
        }
        return result
    }

    /// `value^power` per channel: clamped to 0...1 first when `clamps`, otherwise negative values
    /// pass through unchanged and NaN becomes 0.
    static func power(_ value: SIMD3<Double>, _ power: SIMD3<Double>, clamps: Bool) -> SIMD3<Double> {
        var result = clamps ? clamp(value) : value
        for channel in 0..<3 {
            let v = result[channel]
            if v.isNaN {
                result[channel] = 0
            } else if v >= 0, power[channel] != 1 {  // v^1 is v: the common case costs no pow
                result[channel] = pow(v, power[channel])
            }
        }
        return result
    }

    /// Saturation about the Rec. 709 luma. A saturation of 1 returns `value` as it is: the
    /// formula would give it back only up to cancellation when one channel is huge.
    static func saturate(_ value: SIMD3<Double>, _ saturation: Double) -> SIMD3<Double> {
        guard saturation != 1 else { return value }
        let luma = (value * lumaWeights).sum()
        return luma + saturation * (value - luma)
    }

    /// True when the saturation is 1: each channel then depends on itself only.
    public var isPerChannel: Bool { saturation == 1 }

    /// True for the no-clamp styles with slope 1, offset 0, power 1 and saturation 1 (the clamping
    /// styles still clamp).
    public var isIdentity: Bool {
        !style.clamps && slope == .one && offset == .zero && power == .one && saturation == 1
    }

    /// The same parameters in the reverse (or forward) style: exact for the no-clamp styles; the
    /// clamping styles cannot bring back colours their clamps flattened (outside 0...1).
    /// - Throws: `TransformError.notInvertible` when a slope, power or saturation is below 0.01:
    ///   the reverse style would use 0.01's reciprocal instead, and a slope or saturation of 0
    ///   maps many colours to one.
    public func inverse() throws(TransformError) -> [any TransformOp] {
        for (name, values) in [("slope", slope), ("power", power), ("saturation", SIMD3(repeating: saturation))] {
            if let channel = (0..<3).first(where: { values[$0] < Self.smallestReciprocal }) {
                throw .notInvertible(operation: "ASC CDL", reason: "its \(name) \(Describe.number(values[channel])) "
                    + "is below 0.01, so distinct colours come out (nearly) the same")
            }
        }
        return [try CDLOp(slope: slope, offset: offset, power: power, saturation: saturation, style: style.inverse)]
    }

    public var description: String {
        "ASC CDL (\(style.rawValue)): slope \(Describe.triple(slope)), offset \(Describe.triple(offset)), "
            + "power \(Describe.triple(power)), saturation \(Describe.number(saturation))"
    }
}
