/// How far a baked cube, read with trilinear interpolation, is from the transform it was baked
/// from, measured in 8-bit code values over a grid of colours between the nodes.
public struct BakingError: Sendable, Equatable {
    /// The largest difference in any channel, in 8-bit codes (output values times 255).
    public let maxCodes: Double
    /// The mean over the measured colours of their largest channel difference, in 8-bit codes.
    public let meanCodes: Double
    /// The colour (0...1) where the largest difference was found.
    public let worstInput: SIMD3<Double>

    /// One 8-bit code: above this, baking visibly changes the look and callers say so.
    public static let noticeableCodes = 1.0

    /// True when the bake is off by more than one 8-bit code somewhere.
    public var isNoticeable: Bool { maxCodes > Self.noticeableCodes }
}
