extension RangeOp {
    /// The Float32 form (see `TransformOp`): `x * scale + offset` with both rounded to Float, then
    /// the clamps (NaN to the lower bound, as in Float64).
    public func apply(red: UnsafeMutablePointer<Float>, green: UnsafeMutablePointer<Float>,
                      blue: UnsafeMutablePointer<Float>, count: Int) {
        let scale = Float(self.scale), offset = Float(self.offset)
        let lower = self.lower.map(Float.init), upper = self.upper.map(Float.init)
        for plane in [red, green, blue] {
            for i in 0..<count { plane[i] = plane[i] * scale + offset }
            if let lower {
                for i in 0..<count where !(plane[i] >= lower) { plane[i] = lower }
            }
            if let upper {
                for i in 0..<count where plane[i] > upper { plane[i] = upper }
            }
        }
    }
}
