/// A curve sampled as Adobe's DNG SDK samples it: 4097 Float32 values at x = j/4096 (and the last
/// repeated), read by linear interpolation between the two nearest (the SDK's `dng_1d_table`).
/// Reading through the same samples, rather than the exact curve, keeps colorcube's results on
/// the SDK's: the sampling's own error (up to 2e-5 on the sRGB curve's knee) is part of what
/// Camera Raw shows.
public struct RGBTableCurve: Sendable {
    /// The samples, 4098 values (the SDK keeps one past the end so x = 1 reads the last one).
    public let samples: [Float]

    /// The curve `function` sampled at j/4096, j = 0...4096, each rounded to Float32.
    public init(_ function: (Double) -> Double) {
        var samples = (0...4096).map { Float(function(Double($0) / 4096)) }
        samples.append(samples[4096])
        self.samples = samples
    }

    /// The curve at `x`, clamped to 0...1 first (NaN reads as 0).
    public func callAsFunction(_ x: Double) -> Double {
        let clamped = x > 0 ? min(x, 1) : 0
        let scaled = clamped * 4096
        let index = min(Int(scaled), 4096)
        let fraction = scaled - Double(index)
        return Double(samples[index]) * (1 - fraction) + Double(samples[index + 1]) * fraction
    }
}
