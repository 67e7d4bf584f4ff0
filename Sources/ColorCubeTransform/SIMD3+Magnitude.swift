extension SIMD3 where Scalar == Double {
    /// The largest absolute value of the three channels (NaN when any is NaN).
    var largestMagnitude: Double {
        if x.isNaN || y.isNaN || z.isNaN { return .nan }
        return Swift.max(Swift.abs(x), Swift.abs(y), Swift.abs(z))
    }
}
