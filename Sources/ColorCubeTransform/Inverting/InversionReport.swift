/// How well an inverse undoes its look, measured by running the look on the inverse's output:
/// look(inverse(y)) against y for colours y spread over the inverse's domain.
public struct InversionReport: Sendable, Equatable {
    /// Colours measured.
    public let sampleCount: Int
    /// Colours the look cannot produce, so the inverse cannot give them back: look(inverse(y))
    /// misses y by more than half an 8-bit code.
    public let unrecoveredCount: Int
    /// The largest miss, in 8-bit codes.
    public let maxCodes: Double
    /// The 99th percentile miss, in 8-bit codes.
    public let p99Codes: Double
    /// A colour that is missed by `maxCodes`.
    public let worstColor: SIMD3<Double>

    /// The share of colours that cannot be recovered, 0...1.
    public var unrecoveredFraction: Double { sampleCount == 0 ? 0 : Double(unrecoveredCount) / Double(sampleCount) }
}
