extension MatrixOp {
    /// The Float32 form (see `TransformOp`): the same sums with the coefficients rounded to Float,
    /// within a few Float ulps of the largest product in each sum.
    public func apply(red: UnsafeMutablePointer<Float>, green: UnsafeMutablePointer<Float>,
                      blue: UnsafeMutablePointer<Float>, count: Int) {
        let r0 = SIMD3<Float>(rows[0]), r1 = SIMD3<Float>(rows[1]), r2 = SIMD3<Float>(rows[2])
        let offset = SIMD3<Float>(self.offset)
        if isPerChannel { return Self.scale(red, green, blue, count, by: SIMD3<Float>(diagonal), plus: offset) }
        for i in 0..<count {
            let r = red[i], g = green[i], b = blue[i]
            red[i] = r0.x * r + r0.y * g + r0.z * b + offset.x
            green[i] = r1.x * r + r1.y * g + r1.z * b + offset.y
            blue[i] = r2.x * r + r2.y * g + r2.z * b + offset.z
        }
    }
}
