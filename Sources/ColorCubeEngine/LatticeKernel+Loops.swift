import ColorCubeCore
import _CLatticeKernel

// The hot loops. Each is flat and reads only the kernel's constants; the switch over the
// interpolation sits outside the loop, and each case inlines its own copy of the loop.
extension LatticeKernel {
    // MARK: 8-bit

    /// Applies the look to `count` interleaved 8-bit pixels: the AVX2 loops where they run, else
    /// the portable ones below.
    func apply8(_ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>, _ count: Int,
                _ layout: PixelLayout) {
        if let vector {
            let stride = Int64(layout.stride), r = Int64(layout.red), g = Int64(layout.green), b = Int64(layout.blue)
            if fixed != nil {
                cclattice_trilinear8_fixed(vector, source, destination, Int64(count), stride, r, g, b)
            } else if interpolation == .tetrahedral {
                cclattice_tetrahedral8(vector, source, destination, Int64(count), stride, r, g, b)
            } else {
                cclattice_trilinear8(vector, source, destination, Int64(count), stride, r, g, b)
            }
            return
        }
        applyPortable8(source, destination, count, layout)
    }

    /// The portable 8-bit loops, and the reference for the AVX2 ones.
    func applyPortable8(_ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>, _ count: Int,
                        _ layout: PixelLayout) {
        let steps = UnsafePointer(steps8)
        switch interpolation {
        case .trilinear:
            loop8(source, destination, count, layout) { r, g, b in
                let sr = steps[r], sg = steps[256 &+ g], sb = steps[512 &+ b]
                return trilinear(Int(sr.offset) &+ Int(sg.offset) &+ Int(sb.offset), sr.fraction, sg.fraction, sb.fraction)
            }
        case .tetrahedral:
            loop8(source, destination, count, layout) { r, g, b in
                let sr = steps[r], sg = steps[256 &+ g], sb = steps[512 &+ b]
                return tetrahedral(Int(sr.offset) &+ Int(sg.offset) &+ Int(sb.offset), sr.fraction, sg.fraction, sb.fraction)
            }
        case .nearest:
            let nodes = UnsafePointer(nearest8), lattice = UnsafePointer(self.lattice)
            loop8(source, destination, count, layout) { r, g, b in
                lattice[Int(nodes[r]) &+ Int(nodes[256 &+ g]) &+ Int(nodes[512 &+ b])]
            }
        }
    }

    /// The 8-bit loop around a per-pixel `look` (codes in, lattice values out): output stage,
    /// strength mix, rounding, and the copy of the fourth sample.
    @inline(__always)
    private func loop8(_ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>, _ count: Int,
                       _ layout: PixelLayout, _ look: (Int, Int, Int) -> SIMD4<Float>) {
        // Two copies of the loop, so that the full-strength one carries no mixing at all.
        if strength == 1 {
            loop8(source, destination, count, layout, mixes: false, look)
        } else {
            loop8(source, destination, count, layout, mixes: true, look)
        }
    }

    @inline(__always)
    private func loop8(_ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>, _ count: Int,
                       _ layout: PixelLayout, mixes: Bool, _ look: (Int, Int, Int) -> SIMD4<Float>) {
        let stride = layout.stride, ri = layout.red, gi = layout.green, bi = layout.blue
        let scale = Lanes.splat(strength * 255), keep = Lanes.splat(1 - strength)
        let copiesExtra = stride == 4 && source != UnsafePointer(destination)
        let extra = 6 - ri - gi - bi  // the one sample that is not a colour, when stride is 4
        let curves = self.curves.map { UnsafePointer($0) }
        var pixel = 0
        for _ in 0..<count {
            let r = Int(source[pixel &+ ri]), g = Int(source[pixel &+ gi]), b = Int(source[pixel &+ bi])
            var value = look(r, g, b)
            if let curves { value = curved(value, curves) }
            var out = Lanes.multiply(value, scale)
            if mixes {
                out = Lanes.add(out, Lanes.multiply(SIMD4(Float(r), Float(g), Float(b), 0), keep))
            }
            let bytes = Self.packedBytes(out)
            if copiesExtra { destination[pixel &+ extra] = source[pixel &+ extra] }
            destination[pixel &+ ri] = UInt8(truncatingIfNeeded: bytes)
            destination[pixel &+ gi] = UInt8(truncatingIfNeeded: bytes >> 8)
            destination[pixel &+ bi] = UInt8(truncatingIfNeeded: bytes >> 16)
            pixel &+= stride
        }
    }

    // MARK: 16-bit

    /// Applies the look to `count` interleaved 16-bit pixels (host byte order).
    func apply16(_ source: UnsafePointer<UInt16>, _ destination: UnsafeMutablePointer<UInt16>, _ count: Int,
                 _ layout: PixelLayout) {
        switch interpolation {
        case .trilinear: loop16(source, destination, count, layout) { trilinear($0, $1, $2, $3) }
        case .tetrahedral: loop16(source, destination, count, layout) { tetrahedral($0, $1, $2, $3) }
        case .nearest: loop16(source, destination, count, layout) { nearest($0, $1, $2, $3) }
        }
    }

    @inline(__always)
    private func loop16(_ source: UnsafePointer<UInt16>, _ destination: UnsafeMutablePointer<UInt16>, _ count: Int,
                        _ layout: PixelLayout, _ look: (Int, Float, Float, Float) -> SIMD4<Float>) {
        if strength == 1 {
            loop16(source, destination, count, layout, mixes: false, look)
        } else {
            loop16(source, destination, count, layout, mixes: true, look)
        }
    }

    @inline(__always)
    private func loop16(_ source: UnsafePointer<UInt16>, _ destination: UnsafeMutablePointer<UInt16>, _ count: Int,
                        _ layout: PixelLayout, mixes: Bool, _ look: (Int, Float, Float, Float) -> SIMD4<Float>) {
        let stride = layout.stride, ri = layout.red, gi = layout.green, bi = layout.blue
        let scale = Lanes.splat(strength * 65535), keep = Lanes.splat(1 - strength)
        let copiesExtra = stride == 4 && source != UnsafePointer(destination)
        let extra = 6 - ri - gi - bi
        let sg = greenStride, sb = blueStride
        let shaped = steps16.map { UnsafePointer($0) }, curves = self.curves.map { UnsafePointer($0) }
        var pixel = 0
        for _ in 0..<count {
            let r = source[pixel &+ ri], g = source[pixel &+ gi], b = source[pixel &+ bi]
            let (or, fr) = step16(r, axis: 0, stride: 1, shaped), (og, fg) = step16(g, axis: 1, stride: sg, shaped)
            let (ob, fb) = step16(b, axis: 2, stride: sb, shaped)
            var value = look(or &+ og &+ ob, fr, fg, fb)
            if let curves { value = curved(value, curves) }
            var out = Lanes.multiply(value, scale)
            if mixes {
                out = Lanes.add(out, Lanes.multiply(SIMD4(Float(r), Float(g), Float(b), 0), keep))
            }
            let codes = Self.codes16(out)
            if copiesExtra { destination[pixel &+ extra] = source[pixel &+ extra] }
            destination[pixel &+ ri] = codes.red
            destination[pixel &+ gi] = codes.green
            destination[pixel &+ bi] = codes.blue
            pixel &+= stride
        }
    }

    // MARK: Planar Float

    /// Applies the look to `count` planar Float pixels in place; outputs are not clamped. The AVX2
    /// loops where they run, else the portable ones below.
    func applyPlanar(_ red: UnsafeMutablePointer<Float>, _ green: UnsafeMutablePointer<Float>,
                     _ blue: UnsafeMutablePointer<Float>, _ count: Int) {
        if let vector {
            if interpolation == .tetrahedral {
                cclattice_tetrahedral_planar(vector, red, green, blue, Int64(count))
            } else {
                cclattice_trilinear_planar(vector, red, green, blue, Int64(count))
            }
            return
        }
        applyPortablePlanar(red, green, blue, count)
    }

    /// The portable planar Float loops, and the reference for the AVX2 ones.
    func applyPortablePlanar(_ red: UnsafeMutablePointer<Float>, _ green: UnsafeMutablePointer<Float>,
                             _ blue: UnsafeMutablePointer<Float>, _ count: Int) {
        switch interpolation {
        case .trilinear: loopPlanar(red, green, blue, count) { trilinear($0, $1, $2, $3) }
        case .tetrahedral: loopPlanar(red, green, blue, count) { tetrahedral($0, $1, $2, $3) }
        case .nearest: loopPlanar(red, green, blue, count) { nearest($0, $1, $2, $3) }
        }
    }

    @inline(__always)
    private func loopPlanar(_ red: UnsafeMutablePointer<Float>, _ green: UnsafeMutablePointer<Float>,
                            _ blue: UnsafeMutablePointer<Float>, _ count: Int,
                            _ look: (Int, Float, Float, Float) -> SIMD4<Float>) {
        let s = Lanes.splat(strength), keep = Lanes.splat(1 - strength)
        let full = strength == 1
        let sg = greenStride, sb = blueStride
        let shaping = floatInput.map { UnsafePointer($0) }, curves = self.curves.map { UnsafePointer($0) }
        for i in 0..<count {
            var (nr, fr, r) = splitFloat(red[i]), (ng, fg, g) = splitFloat(green[i]), (nb, fb, b) = splitFloat(blue[i])
            if let shaping {
                (nr, fr, _) = splitFloat(shapedFloat(r, channel: 0, shaping))
                (ng, fg, _) = splitFloat(shapedFloat(g, channel: 1, shaping))
                (nb, fb, _) = splitFloat(shapedFloat(b, channel: 2, shaping))
            }
            var out = look(nr &+ ng &* sg &+ nb &* sb, fr, fg, fb)
            if let curves { out = curved(out, curves) }
            if !full {
                out = Lanes.add(Lanes.multiply(out, s), Lanes.multiply(SIMD4(r, g, b, 0), keep))
            }
            red[i] = out.x
            green[i] = out.y
            blue[i] = out.z
        }
    }
}
