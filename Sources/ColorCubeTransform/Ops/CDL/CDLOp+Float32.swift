extension CDLOp {
    /// The Float32 form (see `TransformOp`): the Float64 form's steps and clamps with slope,
    /// offset, power and saturation rounded to Float, powers through `Float32Math.pow` (within
    /// about 3e-7 relative where `power log2 x` is near 10) and skipped where the power is 1.
    public func apply(red: UnsafeMutablePointer<Float>, green: UnsafeMutablePointer<Float>,
                      blue: UnsafeMutablePointer<Float>, count: Int) {
        let clamps = style.clamps
        let reverse = style.isReverse
        let offset = SIMD3<Float>(self.offset)
        // What multiplies, what raises and what saturates, in the order of the style.
        let slope = SIMD3<Float>(reverse ? Self.reciprocals(self.slope) : self.slope)
        let power = SIMD3<Float>(reverse ? Self.reciprocals(self.power) : self.power)
        let saturation = Float(reverse ? 1 / max(self.saturation, Self.smallestReciprocal) : self.saturation)
        let luma = SIMD3<Float>(Self.lumaWeights)
        let planes = [red, green, blue]
        for channel in 0..<3 where !reverse {
            let plane = planes[channel], s = slope[channel], o = offset[channel]
            for i in 0..<count { plane[i] = plane[i] * s + o }
        }
        if clamps { Self.clamp(planes, count) }
        for channel in 0..<3 {
            let plane = planes[channel], p = power[channel]
            if reverse && saturation != 1 { continue }  // raised after saturating, below
            Self.raise(plane, count, p)
        }
        if saturation != 1 {
            for i in 0..<count {
                let r = red[i], g = green[i], b = blue[i]
                let y = luma.x * r + luma.y * g + luma.z * b
                red[i] = y + saturation * (r - y)
                green[i] = y + saturation * (g - y)
                blue[i] = y + saturation * (b - y)
            }
            if reverse {
                if clamps { Self.clamp(planes, count) }
                for channel in 0..<3 { Self.raise(planes[channel], count, power[channel]) }
            }
        }
        for channel in 0..<3 where reverse {
            let plane = planes[channel], s = slope[channel], o = offset[channel]
            for i in 0..<count { plane[i] = (plane[i] - o) * s }
        }
        if clamps { Self.clamp(planes, count) }
    }

    /// 1 / x of each, x raised to `smallestReciprocal` first, as the reverse styles take them.
    private static func reciprocals(_ values: SIMD3<Double>) -> SIMD3<Double> {
        1 / values.replacing(with: smallestReciprocal, where: values .< smallestReciprocal)
    }

    /// Each value to 0...1, NaN to 0.
    private static func clamp(_ planes: [UnsafeMutablePointer<Float>], _ count: Int) {
        for plane in planes {
            for i in 0..<count {
                let v = plane[i]
                plane[i] = v > 0 ? (v > 1 ? 1 : v) : 0
            }
        }
    }

    /// `power` of each value at or above 0, NaN to 0, values below 0 kept (the power step).
    private static func raise(_ plane: UnsafeMutablePointer<Float>, _ count: Int, _ power: Float) {
        if power == 1 {
            for i in 0..<count where plane[i].isNaN { plane[i] = 0 }
            return
        }
        for i in 0..<count {
            let v = plane[i]
            plane[i] = v >= 0 ? Float32Math.pow(v, power) : (v.isNaN ? 0 : v)
        }
    }
}
