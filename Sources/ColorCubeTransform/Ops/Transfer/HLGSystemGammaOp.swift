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

    /// The studio config applies the gamma to scene light scaled by 3 (so its peak is 3), with the
    /// luminance's magnitude floored at 1e-4 there; both directions here do the same, so that
    /// negative and near-black colours get OpenColorIO's values.
    public static let sceneScale = 3.0
    private static let floor = 1e-4

    /// What the gamma's output is multiplied by to give display light: `peak / 100 / 3^gamma`.
    public var displayScale: Double { peak / 100 / pow(Self.sceneScale, gamma) }

    public func apply(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        let displayScale = self.displayScale
        if !inverted {
            let scene = rgb * Self.sceneScale
            let ys = (Self.weights * scene).sum()
            return scene * (pow(max(abs(ys), Self.floor), gamma - 1) * displayScale)
        }
        let display = rgb / displayScale
        let yd = (Self.weights * display).sum()
        return display * (pow(max(abs(yd), Self.floor), 1 / gamma - 1) / Self.sceneScale)
    }

    public var isPerChannel: Bool { false }

    public func inverse() throws(TransformError) -> [any TransformOp] {
        [HLGSystemGammaOp(peak: peak, gamma: gamma, inverted: !inverted)]
    }

    public var description: String {
        "HLG system gamma \(Describe.number(gamma)) for a \(Describe.number(peak)) cd/m² display" + (inverted ? " (inverse)" : "")
    }
}
