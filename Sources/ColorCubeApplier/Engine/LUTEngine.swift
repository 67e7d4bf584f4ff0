import ColorCubeCore
import Dispatch

/// The LUT engine every caller uses (images, video frames, resampling): a cube prepared once for
/// fast application, with trilinear, tetrahedral or nearest interpolation and a strength mix.
///
/// Semantics are `CubeSampler`'s (the scalar reference): inputs clamped to [0, 1], NaN read as 0,
/// 1.0 lands on the last node; out = in + strength * (look(in) - in); integer outputs are rounded to
/// nearest. Everything fixed for a cube is computed at init: the lattice as SIMD4<Float> entries and,
/// for 8-bit input, per-channel 256-entry tables of lattice offset and fraction, so the hot loops do
/// no division, clamping or index arithmetic per pixel beyond three table reads.
public final class LUTEngine: @unchecked Sendable {
    public let size: Int
    public let interpolation: Interpolation
    /// Mix between input (0) and look (1).
    public let strength: Float

    /// Lattice entries, red fastest; read-only after init.
    let lattice: UnsafeMutablePointer<SIMD4<Float>>
    /// For 8-bit input code v on each axis: offset of the lower node along that axis (already
    /// multiplied by the axis stride: 1, N, N^2) and the fraction towards the next node.
    let offsets8: UnsafeMutablePointer<Int32>  // 3 x 256
    let fractions8: UnsafeMutablePointer<Float>  // 3 x 256
    let strides: SIMD3<Int>

    /// Prepares `cube` for application.
    /// - Parameter strength: clamped to 0...1.
    public init(cube: ColorCube, interpolation: Interpolation = .trilinear, strength: Float = 1) {
        let n = cube.size
        self.size = n
        self.interpolation = interpolation
        self.strength = min(max(strength.isNaN ? 1 : strength, 0), 1)
        self.strides = SIMD3(1, n, n * n)
        lattice = .allocate(capacity: n * n * n)
        for index in 0..<(n * n * n) {
            lattice[index] = cube.entry(at: index)
        }
        offsets8 = .allocate(capacity: 3 * 256)
        fractions8 = .allocate(capacity: 3 * 256)
        for axis in 0..<3 {
            for code in 0..<256 {
                let (node, fraction) = Self.split(Float(code) / 255, size: n)
                offsets8[axis * 256 + code] = Int32(node * strides[axis])
                fractions8[axis * 256 + code] = fraction
            }
        }
    }

    deinit {
        lattice.deallocate()
        offsets8.deallocate()
        fractions8.deallocate()
    }

    /// Splits a value into the lower lattice node and the fraction towards the next one, clamping to
    /// [0, 1] (NaN to 0) and keeping the node below the last so that 1.0 is node N-2 with fraction 1.
    @inline(__always)
    static func split(_ value: Float, size: Int) -> (node: Int, fraction: Float) {
        let clamped = value > 0 ? min(value, 1) : 0
        let position = clamped * Float(size - 1)
        let node = min(Int(position), size - 2)
        return (node, position - Float(node))
    }

    // MARK: Whole buffers, split across cores

    /// Applies the look to `pixelCount` interleaved 8-bit pixels, `source` to `destination` (which
    /// may be the same buffer). Samples other than red, green and blue are copied.
    public func apply(_ source: UnsafePointer<UInt8>, to destination: UnsafeMutablePointer<UInt8>,
                      pixelCount: Int, layout: PixelLayout, parallel: Bool = true) {
        forEachChunk(pixelCount, parallel: parallel) { start, count in
            let offset = start * layout.stride
            self.apply8(source + offset, destination + offset, count, layout)
        }
    }

    /// Applies the look to `pixelCount` interleaved 16-bit pixels (host byte order).
    public func apply(_ source: UnsafePointer<UInt16>, to destination: UnsafeMutablePointer<UInt16>,
                      pixelCount: Int, layout: PixelLayout, parallel: Bool = true) {
        forEachChunk(pixelCount, parallel: parallel) { start, count in
            let offset = start * layout.stride
            self.apply16(source + offset, destination + offset, count, layout)
        }
    }

    /// Applies the look to planar Float pixels in place (any plane order; values outside 0...1 are
    /// clamped on input, outputs are the look's values unclamped).
    public func apply(red: UnsafeMutablePointer<Float>, green: UnsafeMutablePointer<Float>,
                      blue: UnsafeMutablePointer<Float>, pixelCount: Int, parallel: Bool = true) {
        forEachChunk(pixelCount, parallel: parallel) { start, count in
            self.applyPlanar(red + start, green + start, blue + start, count)
        }
    }

    /// Runs `body` over chunks of about 64k pixels on all cores.
    private func forEachChunk(_ pixelCount: Int, parallel: Bool, _ body: (Int, Int) -> Void) {
        let chunk = 1 << 16
        let chunks = (pixelCount + chunk - 1) / chunk
        if !parallel || chunks <= 1 {
            body(0, pixelCount)
            return
        }
        DispatchQueue.concurrentPerform(iterations: chunks) { i in
            let start = i * chunk
            body(start, min(chunk, pixelCount - start))
        }
    }

    /// The look at one colour, in Float, with strength applied: the single-pixel form of the kernels.
    public func sample(_ rgb: SIMD3<Float>) -> SIMD3<Float> {
        let (r, fr) = Self.split(rgb.x, size: size)
        let (g, fg) = Self.split(rgb.y, size: size)
        let (b, fb) = Self.split(rgb.z, size: size)
        let base = r + g * strides.y + b * strides.z
        let look = interpolate(base, SIMD3(fr, fg, fb))
        let input = pointwiseMin(pointwiseMax(rgb.replacing(with: 0, where: rgb .!= rgb), .zero), .one)
        let mixed = SIMD3(look.x, look.y, look.z)
        return strength == 1 ? mixed : input + strength * (mixed - input)
    }
}
