import ColorCubeCore
import ColorCubeTransform

/// A chain run as its steps: each operation of the (optimised) transform in turn, in Float64, at
/// every colour, as `Transform.apply` defines it. This is how `LUTEngine` runs a chain that the
/// lattice kernel could run only after baking it with a measurable error: two 3D LUTs in a row, a
/// matrix or a CDL's saturation between curves and a 3D LUT, a 1D table after the lattice.
///
/// Each step evaluates the file's own data (a 1D LUT interpolates its own table, a 3D LUT its own
/// lattice, logs and exponents their formulas), so nothing is resampled. Integer outputs are
/// clamped to their code range and rounded half up from the Float64 value (NaN to 0); Float outputs
/// are the chain's values, not clamped. Inputs are clamped to 0...1 first (NaN to 0), as the
/// lattice kernel clamps them.
///
/// 8-bit input goes through `LUTEngine`'s colour memo, so a chain costs one evaluation per
/// distinct colour; 16-bit and Float input evaluate every pixel.
struct ChainKernel: Sendable, Kernel8 {
    /// The chain as it runs: `Transform.optimized()` (identities dropped, neighbouring matrices
    /// folded, both exact up to Float64 rounding).
    let transform: Transform
    /// Mix between input (0) and chain (1).
    let strength: Double

    init(transform: Transform, strength: Float) {
        self.transform = transform.optimized()
        self.strength = Double(strength)
    }

    /// The chain at one colour in 0...1, mixed by strength.
    @inline(__always)
    func evaluate(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        let result = transform.apply(rgb)
        return strength == 1 ? result : rgb + strength * (result - rgb)
    }

    /// `value` (1.0 = `maxCode`) as a code: clamped, NaN to 0, rounded half up.
    @inline(__always)
    static func code(_ value: Double, maxCode: Double) -> Double {
        let scaled = value * maxCode + 0.5
        guard scaled >= 1 else { return 0 }  // also NaN
        return scaled >= maxCode ? maxCode : scaled.rounded(.down)
    }

    /// An input sample as 0...1: clamped, NaN to 0.
    @inline(__always)
    static func unit(_ value: Float) -> Double {
        value > 0 ? Double(min(value, 1)) : 0
    }

    func apply8(_ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>, _ count: Int,
                _ layout: PixelLayout) {
        loop(source, destination, count, layout, maxCode: 255)
    }

    func apply16(_ source: UnsafePointer<UInt16>, _ destination: UnsafeMutablePointer<UInt16>, _ count: Int,
                 _ layout: PixelLayout) {
        loop(source, destination, count, layout, maxCode: 65535)
    }

    @inline(__always)
    private func loop<Sample: FixedWidthInteger & UnsignedInteger>(
        _ source: UnsafePointer<Sample>, _ destination: UnsafeMutablePointer<Sample>, _ count: Int,
        _ layout: PixelLayout, maxCode: Double
    ) {
        let stride = layout.stride, ri = layout.red, gi = layout.green, bi = layout.blue
        let copiesExtra = stride == 4 && source != UnsafePointer(destination)
        let extra = 6 - ri - gi - bi
        let scale = 1 / maxCode
        var pixel = 0
        for _ in 0..<count {
            let input = SIMD3(Double(source[pixel &+ ri]), Double(source[pixel &+ gi]), Double(source[pixel &+ bi])) * scale
            let output = evaluate(input)
            if copiesExtra { destination[pixel &+ extra] = source[pixel &+ extra] }
            destination[pixel &+ ri] = Sample(Self.code(output.x, maxCode: maxCode))
            destination[pixel &+ gi] = Sample(Self.code(output.y, maxCode: maxCode))
            destination[pixel &+ bi] = Sample(Self.code(output.z, maxCode: maxCode))
            pixel &+= stride
        }
    }

    func applyPlanar(_ red: UnsafeMutablePointer<Float>, _ green: UnsafeMutablePointer<Float>,
                     _ blue: UnsafeMutablePointer<Float>, _ count: Int) {
        for i in 0..<count {
            let output = evaluate(SIMD3(Self.unit(red[i]), Self.unit(green[i]), Self.unit(blue[i])))
            red[i] = Float(output.x)
            green[i] = Float(output.y)
            blue[i] = Float(output.z)
        }
    }
}

/// What the colour memo asks of a kernel: 8-bit results for a list of colours, in place.
protocol Kernel8 {
    func apply8(_ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>, _ count: Int,
                _ layout: PixelLayout)
}

extension LatticeKernel: Kernel8 {}
