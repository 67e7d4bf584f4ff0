import ColorCubeCore
import ColorCubeTransform

/// A chain run as its steps: each operation of the (optimised) transform in turn, as
/// `Transform.apply` defines it. This is how `LUTEngine` runs a chain that the lattice kernel could
/// run only after baking it with a measurable error: two 3D LUTs in a row, a matrix or a CDL's
/// saturation between curves and a 3D LUT, a 1D table after the lattice.
///
/// Pixels go through in blocks of `block`, held as three Float planes between steps. A 3D LUT
/// step maps its domain to 0...1 and reads its own lattice through a `LatticeKernel` of its own
/// (the planar Float loops, hand-vectorised where the CPU allows); every run of other operations
/// (1D tables read from their own entries, matrices, CDLs, logs, ranges) is evaluated per pixel in
/// Float64 by the operations themselves, or for pictures of floats by their Float32 forms
/// (`TransformOp.apply(red:green:blue:count:)` on Float planes, no round trip through Float64).
/// Nothing is resampled.
///
/// Integer outputs are clamped to their code range and rounded half up (NaN to 0); Float outputs
/// are the chain's values, not clamped. Integer inputs are 0...1 by construction; Float inputs are
/// clamped to 0...1 first (NaN to 0), as the lattice kernel clamps them, unless the caller asks
/// for the unbounded form (pictures of floats: each operation then sees the values as they are,
/// and only a 3D LUT clamps, to its own domain, as OpenColorIO does). 8-bit input goes through `LUTEngine`'s colour memo, so a chain costs
/// one evaluation per distinct colour there.
struct ChainKernel: Sendable, Kernel8 {
    /// One step: a 3D LUT on the lattice kernel, or a run of other operations in Float64.
    enum Step: @unchecked Sendable {
        case lattice(LatticeKernel, low: SIMD3<Float>, scale: SIMD3<Float>)
        case operations(Transform)
    }

    /// The chain as it runs: `Transform.optimized()` (identities dropped, tables that return
    /// their inputs kept as clamps, neighbouring matrices folded, exact up to Float64 rounding).
    let transform: Transform
    let steps: [Step]
    /// For 8-bit input: the chain's leading per-channel operations (a picture's decoding curve)
    /// worked out once for each of the 256 codes, red then green then blue, and the steps that
    /// remain after them. Nil when the chain does not start with such an operation.
    let leading8: (table: [Float], steps: [Step])?
    /// Mix between input (0) and chain (1).
    let strength: Float

    /// Pixels per block: three planes of 4096 Floats stay in the first-level cache.
    static let block = 4096

    /// Prepares `transform`; the lattices are read with the interpolation each 3D LUT carries.
    init(transform: Transform, strength: Float) {
        self.transform = transform.optimized()
        self.strength = min(max(strength.isNaN ? 1 : strength, 0), 1)
        var steps: [Step] = []
        var pending: [any TransformOp] = []
        for operation in self.transform.operations {
            guard let lattice = operation as? LUT3DOp else {
                pending.append(operation)
                continue
            }
            if !pending.isEmpty { steps.append(.operations(Transform(pending))) }
            pending = []
            let kernel = LatticeKernel(table: lattice.table, interpolation: lattice.interpolation, strength: 1)
            let span = lattice.domainMax - lattice.domainMin
            steps.append(.lattice(kernel, low: SIMD3<Float>(lattice.domainMin), scale: SIMD3<Float>(1 / span)))
        }
        if !pending.isEmpty { steps.append(.operations(Transform(pending))) }
        self.steps = steps
        leading8 = Self.leadingCurves(steps)
    }

    /// The 8-bit table of the first step's leading per-channel operations, and the steps after
    /// them; each code's input is the Float the per-pixel loop would give those operations.
    private static func leadingCurves(_ steps: [Step]) -> (table: [Float], steps: [Step])? {
        guard case .operations(let first) = steps.first else { return nil }
        let count = first.operations.prefix { $0.isPerChannel }.count
        guard count > 0 else { return nil }
        let curves = Transform(Array(first.operations.prefix(count)))
        var table = [Float](repeating: 0, count: 3 * 256)
        for code in 0..<256 {
            let input = Double(Float(code) * (1 / Float(255)))
            let value = curves.apply(SIMD3(repeating: input))
            table[code] = Float(value.x)
            table[256 + code] = Float(value.y)
            table[512 + code] = Float(value.z)
        }
        let rest = Array(first.operations.dropFirst(count))
        return (table, (rest.isEmpty ? [] : [.operations(Transform(rest))]) + steps.dropFirst())
    }

    /// Frees the lattice kernels' tables.
    func deallocate() {
        for step in steps {
            if case .lattice(let kernel, _, _) = step { kernel.deallocate() }
        }
    }

    /// Runs every step over `count` (at most `block`) pixels of the planes, in place; below full
    /// strength, then mixes the result with the input the caller kept in `kept` (three planes of
    /// `block`, each value times `keptScale` to 0...1). `inFloat32` runs the operations between
    /// lattices in their Float32 forms rather than in Float64.
    private func run(_ red: UnsafeMutablePointer<Float>, _ green: UnsafeMutablePointer<Float>,
                     _ blue: UnsafeMutablePointer<Float>, _ count: Int, kept: UnsafeMutablePointer<Float>,
                     keptScale: Float, steps: [Step]? = nil, inFloat32: Bool = false) {
        for step in steps ?? self.steps {
            switch step {
            case .lattice(let kernel, let low, let scale):
                if low != .zero || scale != .one {
                    for i in 0..<count {
                        red[i] = (red[i] - low.x) * scale.x
                        green[i] = (green[i] - low.y) * scale.y
                        blue[i] = (blue[i] - low.z) * scale.z
                    }
                }
                kernel.applyPlanar(red, green, blue, count)
            case .operations(let operations) where inFloat32:
                for operation in operations.operations {
                    operation.apply(red: red, green: green, blue: blue, count: count)
                }
            case .operations(let operations):
                // In Float64 planes, each operation over the whole block (its data read once).
                withUnsafeTemporaryAllocation(of: Double.self, capacity: 3 * Self.block) { planes in
                    guard let r = planes.baseAddress else { return }
                    let g = r + Self.block, b = g + Self.block
                    for i in 0..<count {
                        r[i] = Double(red[i])
                        g[i] = Double(green[i])
                        b[i] = Double(blue[i])
                    }
                    for operation in operations.operations {
                        operation.apply(red: r, green: g, blue: b, count: count)
                    }
                    for i in 0..<count {
                        red[i] = Float(r[i])
                        green[i] = Float(g[i])
                        blue[i] = Float(b[i])
                    }
                }
            }
        }
        if strength < 1 {
            let keep = 1 - strength
            let keptGreen = kept + Self.block, keptBlue = keptGreen + Self.block
            for i in 0..<count {
                red[i] = strength * red[i] + keep * kept[i] * keptScale
                green[i] = strength * green[i] + keep * keptGreen[i] * keptScale
                blue[i] = strength * blue[i] + keep * keptBlue[i] * keptScale
            }
        }
    }

    /// `value` (1.0 = `maxCode`) as a code: clamped, NaN to 0, rounded half up.
    @inline(__always)
    static func code(_ value: Float, maxCode: Float) -> Float {
        let scaled = value * maxCode + 0.5
        guard scaled >= 1 else { return 0 }  // also NaN
        return scaled >= maxCode ? maxCode : scaled.rounded(.down)
    }

    /// An input sample as 0...1: clamped, NaN to 0.
    @inline(__always)
    static func unit(_ value: Float) -> Float {
        value > 0 ? min(value, 1) : 0
    }

    func apply8(_ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>, _ count: Int,
                _ layout: PixelLayout) {
        loop(source, destination, count, layout, maxCode: 255)
    }

    func apply16(_ source: UnsafePointer<UInt16>, _ destination: UnsafeMutablePointer<UInt16>, _ count: Int,
                 _ layout: PixelLayout) {
        loop(source, destination, count, layout, maxCode: 65535)
    }

    /// Interleaved integer pixels, a block at a time through Float planes.
    private func loop<Sample: FixedWidthInteger & UnsignedInteger>(
        _ source: UnsafePointer<Sample>, _ destination: UnsafeMutablePointer<Sample>, _ count: Int,
        _ layout: PixelLayout, maxCode: Float
    ) {
        let stride = layout.stride, ri = layout.red, gi = layout.green, bi = layout.blue
        let copiesExtra = stride == 4 && source != UnsafePointer(destination)
        let extra = 6 - ri - gi - bi
        let scale = 1 / maxCode
        // 8-bit codes read the leading curves from their table.
        let leading = maxCode == 255 ? leading8 : nil
        // The three working planes, then the three `run` keeps the input in.
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 6 * Self.block) { planes in
            guard let red = planes.baseAddress else { return }
            let green = red + Self.block, blue = green + Self.block
            let kept = blue + Self.block, keptGreen = kept + Self.block, keptBlue = keptGreen + Self.block
            var start = 0
            while start < count {
                let n = min(Self.block, count - start)
                var pixel = start * stride
                for i in 0..<n {
                    kept[i] = Float(source[pixel &+ ri])
                    keptGreen[i] = Float(source[pixel &+ gi])
                    keptBlue[i] = Float(source[pixel &+ bi])
                    red[i] = kept[i] * scale
                    green[i] = keptGreen[i] * scale
                    blue[i] = keptBlue[i] * scale
                    pixel &+= stride
                }
                if let leading {
                    leading.table.withUnsafeBufferPointer { table in
                        for i in 0..<n {
                            red[i] = table[Int(kept[i])]
                            green[i] = table[256 + Int(keptGreen[i])]
                            blue[i] = table[512 + Int(keptBlue[i])]
                        }
                    }
                    run(red, green, blue, n, kept: kept, keptScale: scale, steps: leading.steps)
                } else {
                    // 16-bit codes: in Float32, at most one code from Float64 (see ChainsAsSteps).
                    run(red, green, blue, n, kept: kept, keptScale: scale, inFloat32: maxCode > 255)
                }
                pixel = start * stride
                for i in 0..<n {
                    if copiesExtra { destination[pixel &+ extra] = source[pixel &+ extra] }
                    destination[pixel &+ ri] = Sample(Self.code(red[i], maxCode: maxCode))
                    destination[pixel &+ gi] = Sample(Self.code(green[i], maxCode: maxCode))
                    destination[pixel &+ bi] = Sample(Self.code(blue[i], maxCode: maxCode))
                    pixel &+= stride
                }
                start += n
            }
        }
    }

    /// Planar Float pixels in place, a block at a time.
    /// - Parameters:
    ///   - clampsInput: clamp the input to 0...1 (NaN to 0) first; false passes it as it is.
    ///   - inFloat32: run the operations between lattices in their Float32 forms (pictures of
    ///     floats); false keeps Float64, which integer results rest on.
    func applyPlanar(_ red: UnsafeMutablePointer<Float>, _ green: UnsafeMutablePointer<Float>,
                     _ blue: UnsafeMutablePointer<Float>, _ count: Int, clampsInput: Bool = true,
                     inFloat32: Bool = false) {
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 3 * Self.block) { kept in
            guard let kept = kept.baseAddress else { return }
            var start = 0
            while start < count {
                let n = min(Self.block, count - start)
                let r = red + start, g = green + start, b = blue + start
                if clampsInput {
                    for i in 0..<n {
                        r[i] = Self.unit(r[i])
                        g[i] = Self.unit(g[i])
                        b[i] = Self.unit(b[i])
                    }
                }
                if strength < 1 {
                    kept.update(from: r, count: n)
                    (kept + Self.block).update(from: g, count: n)
                    (kept + 2 * Self.block).update(from: b, count: n)
                }
                run(r, g, b, n, kept: kept, keptScale: 1, inFloat32: inFloat32)
                start += n
            }
        }
    }
}

/// What the colour memo asks of a kernel: 8-bit results for a list of colours, in place.
protocol Kernel8 {
    func apply8(_ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>, _ count: Int,
                _ layout: PixelLayout)
}

extension LatticeKernel: Kernel8 {}
