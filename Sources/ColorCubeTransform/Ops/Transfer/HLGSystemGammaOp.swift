import Foundation

/// BT.2100 HLG's OOTF: scene light `E` (0...1 per channel, BT.2020 primaries) to display light,
/// `F = peak * Ys^(gamma - 1) * E` with `Ys` the scene luminance (BT.2020 weights), or back.
///
/// Display light is in units of 100 cd/m², so a 1000 cd/m² display's peak is 10. The system
/// gamma is BT.2100's 1.2 at 1000 cd/m² and no black lift, as the studio config's
/// `Rec.2100-HLG - Display` uses. Not per channel: each output reads all three inputs.
public struct HLGSystemGammaOp: TransformOp {
    /// The display's peak in cd/m².
    public let peak: Double
    public let gamma: Double
    /// True for display light to scene light.
    public let inverted: Bool

    static let weights = SIMD3<Double>(0.2627, 0.6780, 0.0593)

    public init(peak: Double = 1000, gamma: Double = 1.2, inverted: Bool = false) {
        self.peak = peak
        self.gamma = gamma
        self.inverted = inverted
    }

    public func apply(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        let scale = peak / 100
        if !inverted {
            let ys = (Self.weights * rgb).sum()
            return ys > 0 ? rgb * (scale * pow(ys, gamma - 1)) : .zero
        }
        let yd = (Self.weights * rgb).sum()
        guard yd > 0 else { return .zero }
        let ys = pow(yd / scale, 1 / gamma)
        return rgb / (scale * pow(ys, gamma - 1))
    }

    public var isPerChannel: Bool { false }

    public func inverse() throws(TransformError) -> [any TransformOp] {
        [HLGSystemGammaOp(peak: peak, gamma: gamma, inverted: !inverted)]
    }

    public var description: String {
        "HLG system gamma \(Describe.number(gamma)) for a \(Describe.number(peak)) cd/m² display" + (inverted ? " (inverse)" : "")
    }
}
