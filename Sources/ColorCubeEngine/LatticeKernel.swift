import ColorCubeCore
import _CLatticeKernel
#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// Everything `LUTEngine` fixes for a cube, and the per-pixel interpolation that reads it.
///
/// A plain struct of pointers, so the hot loops touch no class and do no reference counting: each
/// worker thread copies it and reads the shared, immutable lattice and tables. The engine owns the
/// memory and calls `deallocate()` once.
///
/// Sendable by promise (`@unchecked`): the memory behind the pointers is written only by `init`,
/// before the kernel is shared, and only read afterwards, so any number of threads may read it.
///
/// Lattice entries are SIMD4<Float> (red, green, blue, alpha), red fastest: node (r, g, b) is at
/// `r + g * greenStride + b * blueStride`. Interpolation works on a cell's lower corner `base` and
/// the three fractions towards the next node; the cell is never past node N-2, so 1.0 is node N-2
/// with fraction 1 and no read steps outside the lattice.
///
/// The loops here (LatticeKernel+Loops) are the portable ones and the reference for the AVX2
/// loops in `_CLatticeKernel`, which `apply8` and `applyPlanar` run instead where the CPU has AVX2
/// and FMA (`vector` is then set): the same interpolation with fused multiply-adds, for 8-bit
/// input within one code of these loops and equal to them but for a few colours in a million,
/// for Float input within a few units in the last place (see cclattice.h). 8-bit trilinear at full
/// strength without stages runs in fixed point where the look fits (`fixed` is then set): within
/// 1/64 of a code of the exact value before rounding (3/128 at worst), so an output differs from
/// the exact value rounded only where that lies that close to a half code (cclattice.h).
struct LatticeKernel: @unchecked Sendable {
    /// For one 8-bit code (or 16-bit code, with an input stage) on one axis: the lower node's
    /// lattice offset (node times the axis stride) and the fraction towards the next node.
    typealias Step = cclattice_step

    let lattice: UnsafeMutablePointer<SIMD4<Float>>
    let size: Int
    let greenStride: Int
    let blueStride: Int
    /// The highest lower corner on an axis: N-2.
    let lastCell: Int
    let interpolation: Interpolation
    let strength: Float
    /// Per-axis tables for 8-bit codes, red then green then blue, 256 entries each (the input
    /// stage, if any, folded in).
    let steps8: UnsafeMutablePointer<Step>
    /// Per-axis lattice offsets of the nearest node for 8-bit codes, laid out like `steps8`.
    let nearest8: UnsafeMutablePointer<Int32>
    /// For each of the 8 outcomes of (x > y, y > z, x > z) as bits 2, 1, 0: the offsets of the two
    /// inner corners of the tetrahedron holding the point (the two impossible outcomes repeat a
    /// neighbour; they never occur).
    let tetrahedra: UnsafeMutablePointer<SIMD2<Int32>>
    /// With an input stage: per-axis steps for every 16-bit code, 65536 per axis (nil: none).
    let steps16: UnsafeMutablePointer<Step>?
    /// With an input stage: the stage sampled for Float inputs, `ChannelStages.floatInputSamples`
    /// values per channel at 0, 2^-16, ..., 1 (nil: none).
    let floatInput: UnsafeMutablePointer<Float>?
    /// With an output stage: `ChannelStages.outputSamples` values per channel, sample j of channel
    /// c at lattice value curveMin[c] + j / curveInverseStep[c] (nil: none).
    let curves: UnsafeMutablePointer<Float>?
    let curveMin: SIMD4<Float>
    let curveInverseStep: SIMD4<Float>
    /// The AVX2 loops' view of these tables, when they run `apply8` and `applyPlanar` (nil: the
    /// Swift loops do).
    let vector: UnsafeMutablePointer<cclattice_kernel>?
    /// The lattice in fixed point, when 8-bit trilinear runs the fixed-point AVX2 loop (nil: the
    /// Float one; see `init`'s `fixedPoint`).
    let fixed: FixedPointLattice?

    /// Packs `table` into the kernel's own lattice, the one copy the kernel keeps: the table is
    /// read in chunks through `CubeTable.copyEntries`, so a view on other storage (a decoded
    /// reference image) is never first copied to a `ColorCube`. The stages' closures are
    /// evaluated here, into tables (see `ChannelStages`), and never afterwards.
    /// - Parameters:
    ///   - vectorized: run the AVX2 loops for 8-bit and planar Float trilinear and tetrahedral
    ///     input where the CPU has them; false keeps the portable loops.
    ///   - fixedPoint: with the AVX2 loops, run 8-bit trilinear in fixed point where the look
    ///     allows it (full strength, no stages, values within a range of 1.0039: see
    ///     `FixedPointLattice`); false keeps the Float loop.
    init(table: some CubeTable, interpolation: Interpolation, strength: Float, stages: ChannelStages = .none,
         vectorized: Bool = true, fixedPoint: Bool = true) {
        let n = table.size
        size = n
        greenStride = n
        blueStride = n * n
        lastCell = n - 2
        self.interpolation = interpolation
        self.strength = strength

        lattice = .allocate(capacity: n * n * n)
        let chunk = 1 << 16
        for start in stride(from: 0, to: n * n * n, by: chunk) {
            table.copyEntries(start..<min(start + chunk, n * n * n), into: lattice + start)
        }

        steps8 = .allocate(capacity: 3 * 256)
        nearest8 = .allocate(capacity: 3 * 256)
        let axisStrides = [1, n, n * n]
        for axis in 0..<3 {
            for code in 0..<256 {
                let stride = axisStrides[axis]
                let node: Int, fraction: Float
                if let input = stages.input {
                    (node, fraction) = Self.split(input(axis, Double(code) / 255), size: n)
                } else {
                    // Node and fraction in exact integer arithmetic: code * (N-1) / 255 splits into
                    // a quotient and a remainder, so a code that falls on a node gets fraction 0.
                    let position = code * (n - 1)
                    node = min(position / 255, n - 2)
                    fraction = Float(position - node * 255) / 255
                }
                steps8[axis * 256 + code] = Step(offset: Int32(node * stride), fraction: fraction)
                let nearest = fraction >= 0.5 ? node + 1 : node
                nearest8[axis * 256 + code] = Int32(nearest * stride)
            }
        }

        let r = Int32(1), g = Int32(n), b = Int32(n * n)
        tetrahedra = .allocate(capacity: 8)
        tetrahedra[0] = SIMD2(b, b + g)  // z >= y >= x
        tetrahedra[1] = SIMD2(b, b + g)  // impossible
        tetrahedra[2] = SIMD2(g, g + b)  // y > z >= x
        tetrahedra[3] = SIMD2(g, g + r)  // y >= x > z
        tetrahedra[4] = SIMD2(b, b + r)  // z >= x > y
        tetrahedra[5] = SIMD2(r, r + b)  // x > z >= y
        tetrahedra[6] = SIMD2(r, r + g)  // impossible
        tetrahedra[7] = SIMD2(r, r + g)  // x > y > z

        if let input = stages.input {
            let steps = UnsafeMutablePointer<Step>.allocate(capacity: 3 * 65536)
            let samples = ChannelStages.floatInputSamples
            let values = UnsafeMutablePointer<Float>.allocate(capacity: 3 * samples)
            for axis in 0..<3 {
                for code in 0..<65536 {
                    let (node, fraction) = Self.split(input(axis, Double(code) / 65535), size: n)
                    steps[axis * 65536 + code] = Step(offset: Int32(node * axisStrides[axis]), fraction: fraction)
                }
                for sample in 0..<samples {
                    values[axis * samples + sample] = Float(input(axis, Double(sample) / Double(samples - 1)))
                }
            }
            steps16 = steps
            floatInput = values
        } else {
            steps16 = nil
            floatInput = nil
        }

        if let output = stages.output {
            let samples = ChannelStages.outputSamples
            let values = UnsafeMutablePointer<Float>.allocate(capacity: 3 * samples)
            var low = SIMD4<Float>(repeating: 0), inverse = SIMD4<Float>(repeating: 0)
            for channel in 0..<3 {
                // The range of the lattice on this channel bounds every interpolated value.
                var minimum = Float.infinity, maximum = -Float.infinity
                for node in 0..<(n * n * n) where lattice[node][channel].isFinite {
                    minimum = min(minimum, lattice[node][channel])
                    maximum = max(maximum, lattice[node][channel])
                }
                if minimum > maximum { (minimum, maximum) = (0, 0) }
                low[channel] = minimum
                let range = Double(maximum) - Double(minimum)
                inverse[channel] = range > 0 ? Float(Double(samples - 1) / range) : 0
                for sample in 0..<samples {
                    let value = Double(minimum) + range * Double(sample) / Double(samples - 1)
                    values[channel * samples + sample] = Float(output(channel, value))
                }
            }
            curves = values
            curveMin = low
            curveInverseStep = inverse
        } else {
            curves = nil
            curveMin = SIMD4(repeating: 0)
            curveInverseStep = SIMD4(repeating: 0)
        }

        let vectorLoops = vectorized && interpolation != .nearest && cclattice_available() != 0
        if vectorLoops && fixedPoint && interpolation == .trilinear && strength == 1 && stages.input == nil
            && stages.output == nil {
            fixed = FixedPointLattice.make(lattice, size: n)
        } else {
            fixed = nil
        }
        if vectorLoops {
            let description = UnsafeMutablePointer<cclattice_kernel>.allocate(capacity: 1)
            description.initialize(to: cclattice_kernel(
                lattice: UnsafeRawPointer(lattice).assumingMemoryBound(to: Float.self),
                steps: UnsafePointer(steps8),
                tetrahedra: UnsafeRawPointer(tetrahedra).assumingMemoryBound(to: Int32.self),
                green_stride: Int64(n), blue_stride: Int64(n * n),
                scale: strength * 255, keep: 1 - strength, mixes: strength == 1 ? 0 : 1,
                curves: curves.map { UnsafePointer($0) }, curve_samples: Int32(ChannelStages.outputSamples),
                curve_min: (curveMin.x, curveMin.y, curveMin.z, 0),
                curve_inverse_step: (curveInverseStep.x, curveInverseStep.y, curveInverseStep.z, 0),
                size: Int32(n), strength: strength, input_curves: floatInput.map { UnsafePointer($0) },
                input_samples: Int32(ChannelStages.floatInputSamples),
                fixed_lattice: fixed.map { UnsafePointer($0.nodes) }, fixed_steps: fixed.map { UnsafePointer($0.steps) }))
            vector = description
        } else {
            vector = nil
        }
    }

    /// A shaped coordinate's lower node and fraction, in Double: clamped to 0...1 (NaN to 0), and
    /// snapped to a node it lies within 1e-9 of, so that a stage returning code / 255 lands on the
    /// nodes exactly as the stage-free tables do (fraction 0, or 1 at the last cell).
    static func split(_ value: Double, size n: Int) -> (node: Int, fraction: Float) {
        let clamped = value > 0 ? min(value, 1) : 0
        var position = clamped * Double(n - 1)
        let nearestNode = position.rounded()
        if abs(position - nearestNode) < 1e-9 { position = nearestNode }
        let node = min(Int(position), n - 2)
        return (node, Float(position - Double(node)))
    }

    func deallocate() {
        lattice.deallocate()
        steps8.deallocate()
        nearest8.deallocate()
        tetrahedra.deallocate()
        steps16?.deallocate()
        floatInput?.deallocate()
        curves?.deallocate()
        vector?.deallocate()
        fixed?.deallocate()
    }

    // MARK: One pixel

    // The per-pixel helpers are @_transparent rather than @inline(__always) so that they are
    // inlined in debug builds too, where the tests push all 2^24 8-bit colours through them.

    /// Trilinear: the weighted mean of the cell's 8 corners, as seven lerps (red, then green, then
    /// blue), the same order as `CubeSampler`.
    @_transparent
    func trilinear(_ base: Int, _ fr: Float, _ fg: Float, _ fb: Float) -> SIMD4<Float> {
        let p = UnsafePointer(lattice) + base
        let sg = greenStride, sb = blueStride
        let c000 = p[0], c100 = p[1], c010 = p[sg], c110 = p[sg &+ 1]
        let c001 = p[sb], c101 = p[sb &+ 1], c011 = p[sb &+ sg], c111 = p[sb &+ sg &+ 1]
        let x = Lanes.splat(fr), y = Lanes.splat(fg), z = Lanes.splat(fb)
        let c00 = Lanes.lerp(c000, c100, x)
        let c10 = Lanes.lerp(c010, c110, x)
        let c01 = Lanes.lerp(c001, c101, x)
        let c11 = Lanes.lerp(c011, c111, x)
        let c0 = Lanes.lerp(c00, c10, y)
        let c1 = Lanes.lerp(c01, c11, y)
        return Lanes.lerp(c0, c1, z)
    }

    /// Tetrahedral without branches: the order of the three fractions picks one of six tetrahedra
    /// (a table lookup), whose corners walk from c000 to c111 along the axes in decreasing order
    /// of their fraction; the weights are the differences of the sorted fractions. Ties give the
    /// ambiguous corner weight 0, so the choice among tied tetrahedra does not matter.
    @_transparent
    func tetrahedral(_ base: Int, _ x: Float, _ y: Float, _ z: Float) -> SIMD4<Float> {
        let p = UnsafePointer(lattice) + base
        let outcome = (x > y ? 4 : 0) | (y > z ? 2 : 0) | (x > z ? 1 : 0)
        let inner = tetrahedra[outcome]
        let high = Self.larger(x, Self.larger(y, z)), low = Self.smaller(x, Self.smaller(y, z))
        let middle = Self.larger(Self.smaller(x, y), Self.smaller(Self.larger(x, y), z))
        let c000 = p[0], cA = p[Int(inner.x)], cB = p[Int(inner.y)], c111 = p[blueStride &+ greenStride &+ 1]
        let near = Lanes.add(Lanes.multiply(c000, Lanes.splat(1 - high)), Lanes.multiply(cA, Lanes.splat(high - middle)))
        let far = Lanes.add(Lanes.multiply(cB, Lanes.splat(middle - low)), Lanes.multiply(c111, Lanes.splat(low)))
        return Lanes.add(near, far)
    }

    /// The nearest node: a step along each axis whose fraction is at least 0.5.
    @_transparent
    func nearest(_ base: Int, _ fr: Float, _ fg: Float, _ fb: Float) -> SIMD4<Float> {
        let step = (fr >= 0.5 ? 1 : 0) &+ (fg >= 0.5 ? greenStride : 0) &+ (fb >= 0.5 ? blueStride : 0)
        return lattice[base &+ step]
    }

    /// The output stage on a lattice value (red, green, blue): each channel's position in its
    /// table, clamped to the table (NaN to its start), and a lerp between the two samples around
    /// it. The AVX2 loops do the same operations.
    @_transparent
    func curved(_ value: SIMD4<Float>, _ table: UnsafePointer<Float>) -> SIMD4<Float> {
        let samples = ChannelStages.outputSamples
        let last = Float(samples - 1)
        var out = SIMD4<Float>(repeating: 0)
        for channel in 0..<3 {
            var t = (value[channel] - curveMin[channel]) * curveInverseStep[channel]
            t = t > 0 ? t : 0
            t = t < last ? t : last
            let node = min(Int(t), samples - 2)
            let low = table[channel &* samples &+ node], high = table[channel &* samples &+ node &+ 1]
            out[channel] = low + (high - low) * (t - Float(node))
        }
        return out
    }

    // MARK: Splitting inputs

    /// A 16-bit code's lower node (as a lattice offset on `axis`) and fraction, from the input
    /// stage's table when there is one.
    @_transparent
    func step16(_ code: UInt16, axis: Int, stride: Int, _ shaped: UnsafePointer<Step>?) -> (offset: Int, fraction: Float) {
        if let shaped {
            let step = shaped[axis &* 65536 &+ Int(code)]
            return (Int(step.offset), step.fraction)
        }
        let (node, fraction) = split16(code)
        return (node &* stride, fraction)
    }

    /// A Float input through the input stage's table: clamped to 0...1 (NaN to 0), then the
    /// stage's value, linearly interpolated between the two samples around it.
    @_transparent
    func shapedFloat(_ value: Float, channel: Int, _ table: UnsafePointer<Float>) -> Float {
        let samples = ChannelStages.floatInputSamples
        let clamped = value > 0 ? min(value, 1) : 0
        let t = clamped * Float(samples - 1)
        let node = min(Int(t), samples - 2)
        let low = table[channel &* samples &+ node], high = table[channel &* samples &+ node &+ 1]
        return low + (high - low) * (t - Float(node))
    }

    /// A 16-bit code's lower node and fraction on one axis, in exact integer arithmetic (the
    /// division by the constant 65535 compiles to a multiply and shift).
    @_transparent
    func split16(_ code: UInt16) -> (node: Int, fraction: Float) {
        let position = UInt32(code) &* UInt32(truncatingIfNeeded: size - 1)
        let node = min(Int(position / 65535), lastCell)
        let remainder = Int(position) &- node &* 65535
        return (node, Float(remainder) * (1 / 65535))
    }

    /// A Float input's lower node and fraction on one axis, clamping to [0, 1] (NaN to 0).
    @_transparent
    func splitFloat(_ value: Float) -> (node: Int, fraction: Float, clamped: Float) {
        let clamped = value > 0 ? min(value, 1) : 0
        let position = clamped * Float(size - 1)
        let node = min(Int(position), lastCell)
        return (node, position - Float(node), clamped)
    }

    /// max and min for inputs known not to be NaN: single instructions, where Swift's `max` and
    /// `min` branch to honour NaN and signed zeros.
    @_transparent
    static func larger(_ a: Float, _ b: Float) -> Float { a > b ? a : b }

    @_transparent
    static func smaller(_ a: Float, _ b: Float) -> Float { a < b ? a : b }

    /// Rounds red, green and blue (code values, already scaled to 0...255) to nearest and clamps
    /// them to 0...255, packed as red | green << 8 | blue << 16.
    ///
    /// On x86-64 this is four SSE2 instructions (convert, two saturating packs, move); the Float
    /// to integer conversions of the standard library's SIMD types go lane by lane through
    /// generic code, many times slower.
    @_transparent
    static func packedBytes(_ value: SIMD4<Float>) -> UInt32 {
        #if arch(x86_64)
        // The upper clamp in Float keeps huge values from converting to Int32.min; the packs
        // saturate the rest. Adding a half and truncating rounds half up, as exact arithmetic
        // rounds a value on a half code (the lanes that matter are >= 0).
        let integers = _mm_cvttps_epi32(_mm_add_ps(_mm_min_ps(value, _mm_set1_ps(255)), _mm_set1_ps(0.5)))
        let shorts = _mm_packs_epi32(integers, integers)
        return UInt32(bitPattern: _mm_cvtsi128_si32(_mm_packus_epi16(shorts, shorts)))
        #else
        let codes = roundedCodes(value, maxCode: 255)
        return codes.x | codes.y << 8 | codes.z << 16
        #endif
    }

    /// Rounds red, green and blue (code values, already scaled to 0...65535) to nearest, half up,
    /// clamped to 0...65535.
    @_transparent
    static func codes16(_ value: SIMD4<Float>) -> (red: UInt16, green: UInt16, blue: UInt16) {
        #if arch(x86_64)
        // SSE2 has only a signed pack: shift 0...65535 to the signed range, pack, shift back
        // (in integers, after rounding, so that no Float rounding happens twice).
        let clamped = _mm_min_ps(_mm_max_ps(value, _mm_setzero_ps()), _mm_set1_ps(65535))
        let integers = _mm_sub_epi32(_mm_cvttps_epi32(_mm_add_ps(clamped, _mm_set1_ps(0.5))), _mm_set1_epi32(32768))
        let shorts = _mm_xor_si128(_mm_packs_epi32(integers, integers), _mm_set1_epi16(-32768))
        let lanes = UInt64(bitPattern: _mm_cvtsi128_si64(shorts))
        return (UInt16(truncatingIfNeeded: lanes), UInt16(truncatingIfNeeded: lanes >> 16),
                UInt16(truncatingIfNeeded: lanes >> 32))
        #else
        let codes = roundedCodes(value, maxCode: 65535)
        return (UInt16(truncatingIfNeeded: codes.x), UInt16(truncatingIfNeeded: codes.y),
                UInt16(truncatingIfNeeded: codes.z))
        #endif
    }

    /// The portable rounding: clamps each lane to 0...maxCode (NaN to 0), then rounds to
    /// nearest, half up (a half and truncation), as exact arithmetic rounds a value on a half code.
    @_transparent
    static func roundedCodes(_ value: SIMD4<Float>, maxCode: Float) -> SIMD4<UInt32> {
        var clamped = value
        for lane in 0..<4 {
            clamped[lane] = value[lane] > 0 ? (value[lane] < maxCode ? value[lane] : maxCode) : 0
        }
        return SIMD4<UInt32>(clamped + SIMD4(repeating: 0.5), rounding: .towardZero)
    }
}
