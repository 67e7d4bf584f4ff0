/// One of Camera Raw's table encodings (`RGBTableGamma`) applied per channel, exactly (not
/// through the SDK's sampled curve): the conversions a profile's table sits between, so that a
/// picture reaches the table as Camera Raw's pipeline hands it over and a look is written into a
/// table's space as Camera Raw will read it back. Inputs are clamped to 0...1 (NaN to 0).
public struct RGBTableGammaOp: TransformOp {
    public let gamma: RGBTableGamma
    /// True for linear to encoded, false for encoded to linear.
    public let encodes: Bool

    public init(_ gamma: RGBTableGamma, encodes: Bool) {
        self.gamma = gamma
        self.encodes = encodes
    }

    public func apply(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        encodes ? SIMD3(gamma.encode(rgb.x), gamma.encode(rgb.y), gamma.encode(rgb.z))
            : SIMD3(gamma.decode(rgb.x), gamma.decode(rgb.y), gamma.decode(rgb.z))
    }

    public var isPerChannel: Bool { true }

    /// The linear "gamma" still clamps to 0...1, so it is kept.
    public var isIdentity: Bool { false }

    /// The other direction; exact within 0...1, where the clamp keeps values.
    public func inverse() throws(TransformError) -> [any TransformOp] {
        [RGBTableGammaOp(gamma, encodes: !encodes)]
    }

    public var description: String {
        "Camera Raw \(gamma.name) curve, \(encodes ? "linear to encoded" : "encoded to linear"), clamped to 0...1"
    }
}
