import ColorCubeCore

/// Bakes a transform into a plain cube over 0...1: the one step where a chain becomes a lattice
/// (Core Image data, a Hald PNG, a plain .cube or .3dl), with its error measured.
public enum TransformBaker {
    /// The cube whose node (r, g, b) holds the transform evaluated exactly at (r, g, b) / (size - 1).
    /// A transform that already is one plain lattice of this size is returned as it is.
    /// - Throws: `TransformError.invalidBakeSize` for a size outside 2...256.
    public static func bake(_ transform: Transform, size: Int) throws(TransformError) -> any CubeTable & Sendable {
        if let plain = transform.plainLattice, plain.size == size { return plain.table }
        guard ColorCube.sizeRange.contains(size) else { throw .invalidBakeSize(size) }
        do throws(CubeError) {
            return try ColorCube.sampledInParallel(size: size) { transform.apply($0) }
        } catch {
            throw .invalidBakeSize(size)
        }
    }

    /// Entries of the 1D table a per-channel look is sampled into (`curves(of:)`): at 4096 the
    /// linear pieces between them stay well under an 8-bit code from smooth curves such as logs.
    public static let curveLength = 4096

    /// A look whose every operation is per channel (curves, logs, ranges, diagonal matrices) as one
    /// 1D table of `length` evenly spaced entries over 0...1 per channel, each entry the look
    /// evaluated exactly there; nil when some operation mixes channels. This is the form such a
    /// look takes in a format that holds 1D tables but not the look's chain (.spi1d, .csp, .cube).
    public static func curves(of transform: Transform, length: Int = curveLength) throws(TransformError) -> LUT1DOp? {
        guard !transform.operations.isEmpty, transform.operations.allSatisfy(\.isPerChannel) else { return nil }
        let count = max(length, 2)
        let entries = (0..<count).map { transform.apply(SIMD3(repeating: Double($0) / Double(count - 1))) }
        guard entries.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }) else { return nil }
        return try LUT1DOp(entries: entries)
    }

    /// The default lattice size for baking `transform`: its largest 3D LUT's size, at least 33
    /// (what text LUTs usually hold), so a plain cube keeps its own size.
    public static func naturalSize(of transform: Transform) -> Int {
        if let plain = transform.plainLattice { return plain.size }
        return max(33, transform.lattices.map(\.size).max() ?? 0)
    }

    /// How far `baked` (read with trilinear interpolation) is from `transform`: both evaluated at
    /// `samplesPerAxis`^3 colours evenly spread over 0...1, which with the default 52 fall between
    /// the nodes of any usual lattice. Output values are clamped to 0...1 first, as an 8-bit
    /// image would.
    public static func measure(_ baked: some CubeTable & Sendable, against transform: Transform,
                               samplesPerAxis: Int = 52) -> BakingError {
        measure(Transform([LUT3DOp(table: baked)]), against: transform, samplesPerAxis: samplesPerAxis)
    }

    /// How far `candidate` (a look as something else will read it) is from `transform`, measured
    /// as `measure(_:against:samplesPerAxis:)` measures a baked cube.
    public static func measure(_ candidate: Transform, against transform: Transform, samplesPerAxis: Int = 52) -> BakingError {
        let count = max(samplesPerAxis, 2)
        let step = 1 / Double(count - 1)
        let results = Locked([(max: Double, sum: Double, worst: SIMD3<Double>)]())
        ParallelLoop.run(iterations: count) { b in
            var largest = -1.0, sum = 0.0, worst = SIMD3<Double>()
            for g in 0..<count {
                for r in 0..<count {
                    let input = SIMD3(Double(r), Double(g), Double(b)) * step
                    let exact = clamped(transform.apply(input)), approximate = clamped(candidate.apply(input))
                    let difference = (exact - approximate).largestMagnitude * 255
                    sum += difference
                    if difference > largest {
                        largest = difference
                        worst = input
                    }
                }
            }
            results.withLock { $0.append((largest, sum, worst)) }
        }
        let all = results.withLock { $0 }
        let worst = all.max { $0.max < $1.max } ?? (0, 0, SIMD3())
        let total = all.reduce(0) { $0 + $1.sum }
        return BakingError(maxCodes: max(worst.max, 0), meanCodes: total / Double(count * count * count),
                           worstInput: worst.worst)
    }

    private static func clamped(_ value: SIMD3<Double>) -> SIMD3<Double> {
        var result = value
        for channel in 0..<3 {
            result[channel] = value[channel] > 0 ? min(value[channel], 1) : 0
        }
        return result
    }
}
