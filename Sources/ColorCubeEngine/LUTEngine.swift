import ColorCubeCore
import ColorCubeTransform
import Synchronization
import _CLatticeKernel

/// The LUT engine every caller uses (images, video frames, raw streams, previews): a cube prepared
/// once for fast application, with trilinear, tetrahedral or nearest interpolation and a strength mix.
///
/// Semantics are `CubeSampler`'s (the scalar reference): inputs clamped to [0, 1], NaN read as 0,
/// 1.0 lands on the last node; out = in + strength * (look(in) - in), with `in` the clamped input;
/// integer outputs are clamped to their code range and rounded to nearest, half up. Integer results stay
/// within one code value of `CubeSampler` rounded to nearest (Float32 against Float64 arithmetic),
/// and identity cubes return every 8-bit and 16-bit code unchanged.
///
/// Everything fixed for a cube is computed at init (see `LatticeKernel`): the lattice as
/// SIMD4<Float> entries, and for 8-bit input per-channel 256-entry tables of lattice offset and
/// fraction, so the 8-bit loops do no division, clamping or index arithmetic per pixel beyond
/// three table reads.
///
/// Thread safety: immutable after init (the colour memo fills itself atomically); any number of
/// threads may apply it at once.
public final class LUTEngine: Sendable {
    /// Lattice points per axis of the prepared cube.
    public let size: Int
    /// How the lattice is read between nodes.
    public let interpolation: Interpolation
    /// Mix between input (0) and look (1).
    public let strength: Float

    /// The per-cube constants and the loops that read them; owns the lattice and tables.
    let kernel: LatticeKernel

    /// The kernel's 8-bit results, filled as colours are met (nil: always interpolate).
    let memo: ColorMemo8?

    /// Set when the look runs as its steps (`ChainKernel`) rather than through the lattice
    /// kernel; `kernel` is then an unused identity.
    let chain: ChainKernel?

    /// The transform a lattice engine was prepared from (nil for a bare table and for an engine
    /// that runs as steps), and its steps, made the first time a picture of floats needs them:
    /// floats run through the operations themselves, unbounded (see `apply(floats:...)`).
    private let transform: Transform?
    private let floatSteps = Mutex<ChainKernel?>(nil)

    /// Prepares `table` for application. The table is read once, in chunks, into the engine's
    /// own lattice (16 bytes per node), which is the only copy the engine keeps: any `CubeTable`
    /// (a `ColorCube`, a view on a decoded reference image, the identity) is taken as it is.
    /// - Parameters:
    ///   - interpolation: how to read between lattice nodes.
    ///   - strength: mix between input (0) and look (1), clamped to 0...1; NaN reads as 1.
    ///   - colorMemory: which 8-bit results to keep once computed, so later pixels of those
    ///     colours cost one table read (see `ColorMemory`; identical results): the colours met
    ///     lately by default (where that pays), every colour for long runs of frames, or none.
    ///   - stages: per-channel curves before and after the lattice (see `ChannelStages` for how
    ///     each is evaluated and its error); none by default.
    ///   - vectorized: on x86-64 CPUs with AVX2 and FMA, run 8-bit and planar Float trilinear and
    ///     tetrahedral input through the AVX2 loops (fused multiply-adds: 8-bit within one code of
    ///     the portable loops, and equal but for a few colours in a million; Float within a few
    ///     units in the last place). False runs the portable loops everywhere, for comparisons.
    ///   - fixedPoint: with the AVX2 loops, run 8-bit trilinear in fixed point (Int16 lattice,
    ///     about 1.5x the Float loop's speed) where the look allows it: full strength, no stages,
    ///     lattice values within a range of 1.0039 on each channel (any look inside 0...1), and
    ///     at most 129 nodes a side (the Int16 copy is half the Float lattice's memory again).
    ///     An output then differs from the exact value rounded only where that lies within 1/64
    ///     of a code of a half code (3/128 at worst; `FixedPointKernelTests` checks all 2^24
    ///     colours through a 64-cube); inputs on lattice nodes
    ///     give the Float loops' codes.
    ///     False keeps the Float loop, for comparisons.
    public convenience init(table: some CubeTable, interpolation: Interpolation = .trilinear, strength: Float = 1,
                            colorMemory: ColorMemory = .recent, stages: ChannelStages = .none, vectorized: Bool = true,
                            fixedPoint: Bool = true) {
        self.init(table: table, interpolation: interpolation, strength: strength, colorMemory: colorMemory,
                  stages: stages, vectorized: vectorized, fixedPoint: fixedPoint, transform: nil)
    }

    /// The lattice engine; `transform`, when given, is what `table` and `stages` were made from,
    /// kept for pictures of floats.
    init(table: some CubeTable, interpolation: Interpolation, strength: Float, colorMemory: ColorMemory,
         stages: ChannelStages, vectorized: Bool = true, fixedPoint: Bool = true, transform: Transform?) {
        self.size = table.size
        self.interpolation = interpolation
        self.strength = min(max(strength.isNaN ? 1 : strength, 0), 1)
        let kernel = LatticeKernel(table: table, interpolation: interpolation, strength: self.strength,
                                   stages: stages, vectorized: vectorized, fixedPoint: fixedPoint)
        self.kernel = kernel
        // The cache of recent colours answers a photo's pixel no faster than the AVX2 loops
        // interpolate it (see `ColorMemory.recent`); it is kept where a miss costs more.
        let cheapMisses = kernel.vector != nil && kernel.curves == nil
        self.memo = colorMemory == .recent && cheapMisses ? nil : ColorMemo8(colorMemory)
        self.chain = nil
        self.transform = transform
    }

    /// Prepares `chain` to run as its steps (see `ChainKernel`). An evaluation costs far more
    /// than a lattice read, so 8-bit results are always remembered (`.recent` unless `.every`
    /// or `.none` is asked for).
    init(steps chain: ChainKernel, interpolation: Interpolation, strength: Float, colorMemory: ColorMemory) {
        self.size = chain.transform.lattices.map(\.size).max() ?? 2
        self.interpolation = interpolation
        self.strength = min(max(strength.isNaN ? 1 : strength, 0), 1)
        self.kernel = LatticeKernel(table: IdentityTable.unitCube, interpolation: interpolation, strength: 1,
                                    vectorized: false, fixedPoint: false)
        self.memo = ColorMemo8(colorMemory)
        self.chain = chain
        self.transform = nil
    }

    /// True when the look runs as its steps rather than through one lattice.
    public var runsAsSteps: Bool { chain != nil }

    /// Prepares `cube` for application; the same as `init(table:)`.
    public convenience init(cube: ColorCube, interpolation: Interpolation = .trilinear, strength: Float = 1,
                            colorMemory: ColorMemory = .recent, stages: ChannelStages = .none, vectorized: Bool = true,
                            fixedPoint: Bool = true) {
        self.init(table: cube, interpolation: interpolation, strength: strength, colorMemory: colorMemory,
                  stages: stages, vectorized: vectorized, fixedPoint: fixedPoint)
    }

    /// True when 8-bit and planar Float input run through the AVX2 loops (see `init(table:...)`'s
    /// `vectorized`).
    public var isVectorized: Bool { kernel.vector != nil }

    /// True when 8-bit results are remembered (see `ColorMemory`; `.recent` is not kept where the
    /// AVX2 loops alone interpolate faster).
    public var remembersColors: Bool { memo != nil }

    /// True when 8-bit input runs through the fixed-point trilinear loop (see `init(table:...)`'s
    /// `fixedPoint`).
    public var isFixedPoint: Bool { kernel.fixed != nil }

    /// True when this CPU runs the AVX2 loops (x86-64 with AVX2 and FMA).
    public static var hasVectorKernel: Bool { cclattice_available() != 0 }

    deinit {
        kernel.deallocate()
        chain?.deallocate()
        floatSteps.withLock { $0?.deallocate() }
    }

    // MARK: Whole buffers, split across cores

    /// Applies the look to `pixelCount` interleaved 8-bit pixels, `source` to `destination` (which
    /// may be the same buffer, or must not overlap it otherwise). Samples other than red, green and
    /// blue (alpha, padding) are copied unchanged.
    /// - Parameter parallel: split the buffer across all cores; false runs on the calling thread.
    public func apply(_ source: UnsafePointer<UInt8>, to destination: UnsafeMutablePointer<UInt8>,
                      pixelCount: Int, layout: PixelLayout, parallel: Bool = true) {
        let kernel = self.kernel
        let input = DisjointRegions(source, itemStride: layout.stride)
        let output = DisjointRegions(destination, itemStride: layout.stride)
        if let chain {
            ParallelLoop.forEachChunk(of: pixelCount, chunkSize: Self.chunk, parallel: parallel) { pixels in
                if let memo {
                    memo.apply(input.start(of: pixels), output.start(of: pixels), pixels.count, layout, kernel: chain)
                } else {
                    chain.apply8(input.start(of: pixels), output.start(of: pixels), pixels.count, layout)
                }
            }
            return
        }
        if let memo {
            ParallelLoop.forEachChunk(of: pixelCount, chunkSize: Self.chunk, parallel: parallel) { pixels in
                memo.apply(input.start(of: pixels), output.start(of: pixels), pixels.count, layout, kernel: kernel)
            }
            return
        }
        ParallelLoop.forEachChunk(of: pixelCount, chunkSize: Self.chunk, parallel: parallel) { pixels in
            kernel.apply8(input.start(of: pixels), output.start(of: pixels), pixels.count, layout)
        }
    }

    /// Applies the look to `pixelCount` interleaved 16-bit pixels in host byte order (code 65535
    /// is 1.0), `source` to `destination` (the same buffer or not overlapping). Samples other than
    /// red, green and blue are copied unchanged.
    /// - Parameter parallel: split the buffer across all cores; false runs on the calling thread.
    public func apply(_ source: UnsafePointer<UInt16>, to destination: UnsafeMutablePointer<UInt16>,
                      pixelCount: Int, layout: PixelLayout, parallel: Bool = true) {
        let kernel = self.kernel
        let input = DisjointRegions(source, itemStride: layout.stride)
        let output = DisjointRegions(destination, itemStride: layout.stride)
        let chain = self.chain
        ParallelLoop.forEachChunk(of: pixelCount, chunkSize: Self.chunk, parallel: parallel) { pixels in
            if let chain {
                chain.apply16(input.start(of: pixels), output.start(of: pixels), pixels.count, layout)
            } else {
                kernel.apply16(input.start(of: pixels), output.start(of: pixels), pixels.count, layout)
            }
        }
    }

    /// Applies the look to planar Float pixels in place (any plane order, each plane holding
    /// `pixelCount` values). Inputs outside 0...1 are clamped and NaN reads as 0; outputs are the
    /// look's values, not clamped (a look may leave the unit range).
    /// - Parameter parallel: split the planes across all cores; false runs on the calling thread.
    public func apply(red: UnsafeMutablePointer<Float>, green: UnsafeMutablePointer<Float>,
                      blue: UnsafeMutablePointer<Float>, pixelCount: Int, parallel: Bool = true) {
        let kernel = self.kernel
        let reds = DisjointRegions(red), greens = DisjointRegions(green), blues = DisjointRegions(blue)
        let chain = self.chain
        ParallelLoop.forEachChunk(of: pixelCount, chunkSize: Self.chunk, parallel: parallel) { pixels in
            if let chain {
                chain.applyPlanar(reds.start(of: pixels), greens.start(of: pixels), blues.start(of: pixels), pixels.count)
            } else {
                kernel.applyPlanar(reds.start(of: pixels), greens.start(of: pixels), blues.start(of: pixels), pixels.count)
            }
        }
    }

    /// Applies the look to `pixelCount` interleaved Float pixels (1.0 = full scale), `source` to
    /// `destination` (the same buffer or not overlapping), for pictures that hold values beyond
    /// 0...1 (OpenEXR, float TIFF). Unlike the planar form, inputs are not clamped: curves,
    /// matrices, CDLs and logs see the values as they are and may give values above 1.0, and a 3D
    /// LUT clamps to its own domain, as OpenColorIO does. The operations run in Float32 (their
    /// Float32 forms; see `TransformOp`), within a few Float ulps of the Float64 evaluation that
    /// 8 and 16-bit pictures get. An engine made from a bare table (no
    /// transform) is one 3D LUT and clamps to 0...1. Samples other than red, green and blue are
    /// copied unchanged.
    /// - Parameter parallel: split the buffer across all cores; false runs on the calling thread.
    public func apply(floats source: UnsafePointer<Float>, to destination: UnsafeMutablePointer<Float>,
                      pixelCount: Int, layout: PixelLayout, parallel: Bool = true) {
        let steps = chain ?? transform.map { transform in
            floatSteps.withLock { made in
                if let made { return made }
                let steps = ChainKernel(transform: transform, strength: strength)
                made = steps
                return steps
            }
        }
        let kernel = self.kernel
        let input = DisjointRegions(source, itemStride: layout.stride)
        let output = DisjointRegions(destination, itemStride: layout.stride)
        ParallelLoop.forEachChunk(of: pixelCount, chunkSize: Self.chunk, parallel: parallel) { pixels in
            Self.throughPlanes(input.start(of: pixels), output.start(of: pixels), pixels.count, layout) { r, g, b, n in
                if let steps {
                    steps.applyPlanar(r, g, b, n, clampsInput: false, inFloat32: true)
                } else {
                    kernel.applyPlanar(r, g, b, n)
                }
            }
        }
    }

    /// Runs `body` over interleaved Float pixels a block at a time, as three planes it changes in
    /// place, and writes them back interleaved; other samples are copied.
    private static func throughPlanes(
        _ source: UnsafePointer<Float>, _ destination: UnsafeMutablePointer<Float>, _ count: Int, _ layout: PixelLayout,
        _ body: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>, Int) -> Void
    ) {
        let block = ChainKernel.block
        let stride = layout.stride, ri = layout.red, gi = layout.green, bi = layout.blue
        let copiesExtra = stride == 4 && source != UnsafePointer(destination)
        let extra = 6 - ri - gi - bi
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 3 * block) { planes in
            guard let red = planes.baseAddress else { return }
            let green = red + block, blue = green + block
            var start = 0
            while start < count {
                let n = min(block, count - start)
                var pixel = start * stride
                for i in 0..<n {
                    red[i] = source[pixel &+ ri]
                    green[i] = source[pixel &+ gi]
                    blue[i] = source[pixel &+ bi]
                    pixel &+= stride
                }
                body(red, green, blue, n)
                pixel = start * stride
                for i in 0..<n {
                    if copiesExtra { destination[pixel &+ extra] = source[pixel &+ extra] }
                    destination[pixel &+ ri] = red[i]
                    destination[pixel &+ gi] = green[i]
                    destination[pixel &+ bi] = blue[i]
                    pixel &+= stride
                }
                start += n
            }
        }
    }

    /// Pixels per parallel chunk, 64k: small enough to balance the load across cores and large
    /// enough that scheduling costs nothing measurable.
    private static let chunk = 1 << 16

    /// The look at one colour, in Float, with strength applied: the single-pixel form of the
    /// planar kernel (input clamped to [0, 1], NaN read as 0; output not clamped).
    public func sample(_ rgb: SIMD3<Float>) -> SIMD3<Float> {
        var red = rgb.x, green = rgb.y, blue = rgb.z
        if let chain {
            chain.applyPlanar(&red, &green, &blue, 1)
        } else {
            kernel.applyPlanar(&red, &green, &blue, 1)
        }
        return SIMD3(red, green, blue)
    }
}
