import ColorCubeCore

// The hot loops. Each is flat, reads the per-cube constants held by the engine, and calls the
// interpolation kernel for one pixel; the `switch` over the interpolation sits outside the loop.
extension LUTEngine {
    /// Interpolates at lattice offset `base` (the lower corner) with fractions `f`.
    @inline(__always)
    func interpolate(_ base: Int, _ f: SIMD3<Float>) -> SIMD4<Float> {
        switch interpolation {
        case .trilinear: trilinear(base, f)
        case .tetrahedral: tetrahedral(base, f)
        case .nearest: nearest(base, f)
        }
    }

    @inline(__always)
    func trilinear(_ base: Int, _ f: SIMD3<Float>) -> SIMD4<Float> {
        let p = lattice + base
        let sg = strides.y, sb = strides.z
        let c000 = p[0], c100 = p[1], c010 = p[sg], c110 = p[sg + 1]
        let c001 = p[sb], c101 = p[sb + 1], c011 = p[sb + sg], c111 = p[sb + sg + 1]
        let fr = SIMD4<Float>(repeating: f.x), fg = SIMD4<Float>(repeating: f.y), fb = SIMD4<Float>(repeating: f.z)
        let c00 = c000 + (c100 - c000) * fr
        let c10 = c010 + (c110 - c010) * fr
        let c01 = c001 + (c101 - c001) * fr
        let c11 = c011 + (c111 - c011) * fr
        let c0 = c00 + (c10 - c00) * fg
        let c1 = c01 + (c11 - c01) * fg
        return c0 + (c1 - c0) * fb
    }

    @inline(__always)
    func tetrahedral(_ base: Int, _ f: SIMD3<Float>) -> SIMD4<Float> {
        let p = lattice + base
        let sg = strides.y, sb = strides.z
        let c000 = p[0], c111 = p[sb + sg + 1]
        let x = SIMD4<Float>(repeating: f.x), y = SIMD4<Float>(repeating: f.y), z = SIMD4<Float>(repeating: f.z)
        if f.x > f.y {
            if f.y > f.z {
                let c100 = p[1], c110 = p[sg + 1]
                return c000 + (c100 - c000) * x + (c110 - c100) * y + (c111 - c110) * z
            } else if f.x > f.z {
                let c100 = p[1], c101 = p[sb + 1]
                return c000 + (c100 - c000) * x + (c101 - c100) * z + (c111 - c101) * y
            } else {
                let c001 = p[sb], c101 = p[sb + 1]
                return c000 + (c001 - c000) * z + (c101 - c001) * x + (c111 - c101) * y
            }
        } else {
            if f.z > f.y {
                let c001 = p[sb], c011 = p[sb + sg]
                return c000 + (c001 - c000) * z + (c011 - c001) * y + (c111 - c011) * x
            } else if f.z > f.x {
                let c010 = p[sg], c011 = p[sb + sg]
                return c000 + (c010 - c000) * y + (c011 - c010) * z + (c111 - c011) * x
            } else {
                let c010 = p[sg], c110 = p[sg + 1]
                return c000 + (c010 - c000) * y + (c110 - c010) * x + (c111 - c110) * z
            }
        }
    }

    @inline(__always)
    func nearest(_ base: Int, _ f: SIMD3<Float>) -> SIMD4<Float> {
        let step = (f.x >= 0.5 ? 1 : 0) + (f.y >= 0.5 ? strides.y : 0) + (f.z >= 0.5 ? strides.z : 0)
        return lattice[base + step]
    }

    /// Rounds Float code values (already scaled) to integers in 0...maxCode.
    @inline(__always)
    static func quantize(_ value: SIMD4<Float>, maxCode: Float) -> SIMD4<Int32> {
        let clamped = pointwiseMin(pointwiseMax(value, .zero), SIMD4(repeating: maxCode))
        return SIMD4<Int32>(clamped + 0.5, rounding: .towardZero)
    }

    func apply8(_ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>, _ count: Int,
                _ layout: PixelLayout) {
        switch interpolation {
        case .trilinear: run8(source, destination, count, layout) { self.trilinear($0, $1) }
        case .tetrahedral: run8(source, destination, count, layout) { self.tetrahedral($0, $1) }
        case .nearest: run8(source, destination, count, layout) { self.nearest($0, $1) }
        }
    }

    @inline(__always)
    private func run8(_ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>, _ count: Int,
                      _ layout: PixelLayout, _ kernel: (Int, SIMD3<Float>) -> SIMD4<Float>) {
        let stride = layout.stride, ri = layout.red, gi = layout.green, bi = layout.blue
        let offsets = offsets8, fractions = fractions8
        let s = SIMD4<Float>(repeating: strength), full = strength == 1
        let copiesExtra = stride == 4 && source != UnsafePointer(destination)
        let extra = 6 - ri - gi - bi  // the one sample that is not a colour, when stride is 4
        for i in 0..<count {
            let pixel = i * stride
            let r = Int(source[pixel + ri]), g = Int(source[pixel + gi]), b = Int(source[pixel + bi])
            let base = Int(offsets[r]) + Int(offsets[256 + g]) + Int(offsets[512 + b])
            var out = kernel(base, SIMD3(fractions[r], fractions[256 + g], fractions[512 + b])) * 255
            if !full {
                let input = SIMD4<Float>(Float(r), Float(g), Float(b), 0)
                out = input + s * (out - input)
            }
            let q = Self.quantize(out, maxCode: 255)
            destination[pixel + ri] = UInt8(truncatingIfNeeded: q.x)
            destination[pixel + gi] = UInt8(truncatingIfNeeded: q.y)
            destination[pixel + bi] = UInt8(truncatingIfNeeded: q.z)
            if copiesExtra { destination[pixel + extra] = source[pixel + extra] }
        }
    }

    func apply16(_ source: UnsafePointer<UInt16>, _ destination: UnsafeMutablePointer<UInt16>, _ count: Int,
                 _ layout: PixelLayout) {
        switch interpolation {
        case .trilinear: run16(source, destination, count, layout) { self.trilinear($0, $1) }
        case .tetrahedral: run16(source, destination, count, layout) { self.tetrahedral($0, $1) }
        case .nearest: run16(source, destination, count, layout) { self.nearest($0, $1) }
        }
    }

    @inline(__always)
    private func run16(_ source: UnsafePointer<UInt16>, _ destination: UnsafeMutablePointer<UInt16>, _ count: Int,
                       _ layout: PixelLayout, _ kernel: (Int, SIMD3<Float>) -> SIMD4<Float>) {
        let stride = layout.stride, ri = layout.red, gi = layout.green, bi = layout.blue
        let s = SIMD4<Float>(repeating: strength), full = strength == 1
        let copiesExtra = stride == 4 && source != UnsafePointer(destination)
        let extra = 6 - ri - gi - bi
        let scale = Float(size - 1) / 65535
        let last = Int32(size - 2)
        let lattice3 = SIMD3<Int32>(1, Int32(strides.y), Int32(strides.z))
        for i in 0..<count {
            let pixel = i * stride
            let input = SIMD3<Float>(Float(source[pixel + ri]), Float(source[pixel + gi]), Float(source[pixel + bi]))
            let position = input * scale
            let node = pointwiseMin(SIMD3<Int32>(position, rounding: .towardZero), SIMD3(repeating: last))
            let fraction = position - SIMD3<Float>(node)
            let base = Int((node &* lattice3).wrappedSum())
            var out = kernel(base, fraction) * 65535
            if !full {
                let original = SIMD4<Float>(input.x, input.y, input.z, 0)
                out = original + s * (out - original)
            }
            let q = Self.quantize(out, maxCode: 65535)
            destination[pixel + ri] = UInt16(truncatingIfNeeded: q.x)
            destination[pixel + gi] = UInt16(truncatingIfNeeded: q.y)
            destination[pixel + bi] = UInt16(truncatingIfNeeded: q.z)
            if copiesExtra { destination[pixel + extra] = source[pixel + extra] }
        }
    }

    func applyPlanar(_ red: UnsafeMutablePointer<Float>, _ green: UnsafeMutablePointer<Float>,
                     _ blue: UnsafeMutablePointer<Float>, _ count: Int) {
        for i in 0..<count {
            let out = sample(SIMD3(red[i], green[i], blue[i]))
            red[i] = out.x
            green[i] = out.y
            blue[i] = out.z
        }
    }
}
