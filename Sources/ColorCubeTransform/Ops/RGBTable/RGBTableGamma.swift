import Foundation

/// The encodings a Camera Raw RGB table's values are in (the payload's gamma field, 0...4), with
/// the curves Adobe's DNG SDK uses for them.
///
/// These are not the textbook curves: "1.8" and "2.2" are powers with a cubic toe near black
/// (a Hermite segment from (0, 0) with slope 32 to the point x1 = 2·32^(1/(γ-1)) where it meets
/// the power with the power's slope), and "Rec. 2020" is the Rec. 709 camera curve with BT.2020's precise constants. The SDK
/// interpolates each curve and its inverse in tables of 4097 Float32 entries over 0...1
/// (`RGBTableCurve`); colorcube builds the same tables from the formulas, so its results
/// follow the SDK's to Float32 rounding.
public enum RGBTableGamma: UInt32, Sendable, CaseIterable {
    case linear = 0
    case sRGB = 1
    case gamma18 = 2
    case gamma22 = 3
    case rec2020 = 4

    /// "linear", "sRGB", "1.8", "2.2", "Rec. 2020 (the Rec. 709 curve)", for `info`.
    public var name: String {
        switch self {
        case .linear: "linear"
        case .sRGB: "sRGB"
        case .gamma18: "gamma 1.8"
        case .gamma22: "gamma 2.2"
        case .rec2020: "Rec. 2020 (the Rec. 709 curve)"
        }
    }

    /// The encoding curve at a linear value in 0...1 (values outside are clamped first).
    public func encode(_ value: Double) -> Double {
        let x = min(max(value, 0), 1)
        switch self {
        case .linear: return x
        case .sRGB: return x <= 0.0031308 ? 12.92 * x : 1.055 * pow(x, 1 / 2.4) - 0.055
        case .rec2020: return x <= Self.rec709Beta ? 4.5 * x : Self.rec709Alpha * pow(x, 0.45) - (Self.rec709Alpha - 1)
        case .gamma18: return Self.tonedPower(x, gamma: 1 / 1.8)
        case .gamma22: return Self.tonedPower(x, gamma: 1 / 2.2)
        }
    }

    /// The inverse of `encode` at an encoded value in 0...1 (clamped first), to Float64 precision:
    /// closed forms above the toes, bisection in them.
    public func decode(_ value: Double) -> Double {
        let y = min(max(value, 0), 1)
        switch self {
        case .linear: return y
        case .sRGB: return y <= 0.04045 ? y / 12.92 : pow((y + 0.055) / 1.055, 2.4)
        case .rec2020: return y <= 4.5 * Self.rec709Beta ? y / 4.5 : pow((y + Self.rec709Alpha - 1) / Self.rec709Alpha, 1 / 0.45)
        case .gamma18, .gamma22:
            let gamma = self == .gamma18 ? 1 / 1.8 : 1 / 2.2
            let x1 = Self.toeEnd(gamma: gamma)
            if y >= pow(x1, gamma) { return pow(y, 1 / gamma) }
            var low = 0.0, high = x1
            for _ in 0..<80 {
                let middle = (low + high) / 2
                if Self.tonedPower(middle, gamma: gamma) < y { low = middle } else { high = middle }
            }
            return (low + high) / 2
        }
    }

    /// The Rec. 709 curve's constants to the precision of BT.2020's 12-bit form, as the SDK has
    /// them (not 1.099 and 0.018).
    private static let rec709Alpha = 1.0992968268094429
    private static let rec709Beta = 0.0180539685108078

    /// Where the toe of a toned power meets the power: 2·32^(1/(γ-1)).
    private static func toeEnd(gamma: Double) -> Double { pow(32, 1 / (gamma - 1)) * 2 }

    /// x^γ above the toe; below it, the cubic Hermite segment from (0, 0) with slope 32 to
    /// (x1, x1^γ) with the power's slope there.
    private static func tonedPower(_ x: Double, gamma: Double) -> Double {
        let x1 = toeEnd(gamma: gamma)
        guard x < x1 else { return pow(x, gamma) }
        let y1 = pow(x1, gamma), slope1 = gamma * pow(x1, gamma - 1)
        let t = x / x1, t2 = t * t, t3 = t2 * t
        let h10 = t3 - 2 * t2 + t, h01 = -2 * t3 + 3 * t2, h11 = t3 - t2
        return x1 * 32 * h10 + y1 * h01 + x1 * slope1 * h11
    }
}
