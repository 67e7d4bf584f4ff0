import ColorCubeCore
import ColorCubeLooks

/// What a look does, measured over its lattice: output range, distance from the identity in
/// CIEDE2000, roughness, and whether Core Image can take it.
///
/// Colour differences compare each node's output with the node's own input colour, both read as
/// sRGB, with `CIEDE2000` (D65, the figures `learn` reports too).
/// Outputs are clamped to 0...1 (NaN to 0) first, as a display would; a difference of about 1 is
/// the smallest most people see side by side. Ranges, identity and roughness read every node; colour
/// differences are measured at every node of cubes up to `deltaESamples` points per axis and, for
/// larger ones, at the nodes of an evenly spread `deltaESamples`^3 subset (both ends of every axis
/// included), which gives the same figures to a few hundredths in a fraction of the time.
public struct LUTAnalysis: Sendable {
    /// Lattice points per axis.
    public let size: Int
    /// The smallest red, green and blue outputs over all nodes (NaN ignored).
    public let outputMin: SIMD3<Float>
    /// The largest red, green and blue outputs over all nodes (NaN ignored).
    public let outputMax: SIMD3<Float>
    /// Entries with a NaN or infinite red, green or blue value.
    public let nonFiniteCount: Int
    /// The largest |output - input| over all nodes and channels.
    public let largestIdentityDeviation: Float
    /// The mean CIEDE2000 difference from the identity over all nodes (never nil since the
    /// difference is computed in Swift; optional for source compatibility).
    public let meanDeltaE: Double?
    /// The largest CIEDE2000 difference from the identity over all nodes.
    public let maxDeltaE: Double?
    /// How rough the table is (see `Roughness`).
    public let roughness: Roughness

    /// Largest deviation that still counts as the identity: half an 8-bit code value (what an
    /// 8-bit identity reference PNG's rounding leaves), so the look changes no 8-bit pixel by more
    /// than rounding does.
    public static let identityTolerance: Float = 0.5 / 255 + 1e-6

    /// Points per axis at which colour differences are measured in large cubes.
    public static let deltaESamples = 65

    /// True when every node is within `identityTolerance` of its input.
    public var isIdentity: Bool { nonFiniteCount == 0 && largestIdentityDeviation <= Self.identityTolerance }

    /// True when some output lies outside 0...1 or is not finite.
    public var hasValuesOutsideUnitRange: Bool {
        nonFiniteCount > 0 || outputMin.min() < 0 || outputMax.max() > 1
    }

    /// Why Core Image's `CIColorCube` would not take this cube as it is (empty when it would):
    /// it is reported to accept sizes 2...64, and looks should stay in 0...1.
    public var coreImageProblems: [CoreImageProblem] {
        var problems: [CoreImageProblem] = []
        if size > LUTWriter.coreImageMaximumSize { problems.append(.tooLarge(size: size)) }
        if hasValuesOutsideUnitRange { problems.append(.valuesOutsideUnitRange) }
        return problems
    }

    /// Measures `table`.
    /// - Parameter roughness: the table's roughness when already measured (a reference PNG's
    ///   decoder measures it), to save measuring it again.
    public init(measuring table: some CubeTable, roughness: Roughness? = nil) {
        let n = table.size
        size = n
        self.roughness = roughness ?? Roughness(measuring: table)
        let planes = Self.measurePlanes(table)
        var low = SIMD3<Float>(repeating: .infinity), high = SIMD3<Float>(repeating: -.infinity)
        var nonFinite = 0, deviation: Float = 0
        var sum = 0.0, largest = 0.0, measured = true
        for plane in planes {
            low = pointwiseMin(low, plane.low)
            high = pointwiseMax(high, plane.high)
            nonFinite += plane.nonFinite
            deviation = max(deviation, plane.deviation)
            sum += plane.deltaESum
            largest = max(largest, plane.deltaEMax)
            measured = measured && plane.measured
        }
        outputMin = low
        outputMax = high
        nonFiniteCount = nonFinite
        largestIdentityDeviation = deviation
        let picked = Self.deltaEIndices(size: n).count
        meanDeltaE = measured ? sum / Double(picked * picked * picked) : nil
        maxDeltaE = measured ? largest : nil
    }

    /// Figures for one plane of constant blue.
    private struct Plane {
        var low = SIMD3<Float>(repeating: .infinity)
        var high = SIMD3<Float>(repeating: -.infinity)
        var nonFinite = 0
        var deviation: Float = 0
        var deltaESum = 0.0
        var deltaEMax = 0.0
        /// False when colour differences were due on this plane but could not be measured.
        var measured = true
    }

    /// The node indices along each axis where colour differences are measured: all of them up to
    /// `deltaESamples`, else `deltaESamples` evenly spread ones from 0 to size - 1.
    public static func deltaEIndices(size: Int) -> [Int] {
        guard size > deltaESamples else { return Array(0..<size) }
        let last = Double(size - 1), steps = Double(deltaESamples - 1)
        return (0..<deltaESamples).map { Int((Double($0) * last / steps).rounded()) }
    }

    private static func measurePlanes(_ table: some CubeTable) -> [Plane] {
        let n = table.size
        let picks = deltaEIndices(size: n)
        var picked = [Bool](repeating: false, count: n)
        for index in picks { picked[index] = true }
        var planes = [Plane](repeating: Plane(), count: n)
        planes.withUnsafeMutableBufferPointer { results in
            guard let base = results.baseAddress else { return }
            // Iteration b writes result b only.
            let planes = DisjointRegions(base)
            let picked = picked
            let work = { @Sendable (b: Int) in
                planes.start(of: b).pointee = measurePlane(b, of: table, measuresColour: picked[b], picks: picks)
            }
            if n >= 32 {
                ParallelLoop.run(iterations: n, work)
            } else {
                (0..<n).forEach(work)
            }
        }
        return planes
    }

    /// Ranges over plane `b`; when `measuresColour`, also colour differences at the picked nodes.
    private static func measurePlane(_ b: Int, of table: some CubeTable, measuresColour: Bool, picks: [Int]) -> Plane {
        let n = table.size
        let scale = 1 / Float(n - 1)
        var plane = Plane()
        for index in (b * n * n)..<((b + 1) * n * n) {
            let e = table.entry(at: index)
            let output = SIMD3(e.x, e.y, e.z)
            guard output.x.isFinite && output.y.isFinite && output.z.isFinite else {
                plane.nonFinite += 1
                plane.deviation = .infinity
                continue
            }
            let r = index % n, g = (index / n) % n
            let difference = output - SIMD3(Float(r), Float(g), Float(b)) * scale
            plane.low = pointwiseMin(plane.low, output)
            plane.high = pointwiseMax(plane.high, output)
            plane.deviation = max(plane.deviation, pointwiseMax(difference, -difference).max())
        }
        guard measuresColour else { return plane }
        for g in picks {
            for r in picks {
                let e = table.entry(at: ColorCube.redFastestIndex(r: r, g: g, b: b, size: n))
                let input = SIMD3(Double(r), Double(g), Double(b)) * Double(scale)
                var output = SIMD3(Double(e.x), Double(e.y), Double(e.z))
                output = output.replacing(with: 0, where: .!(output .== output))  // NaN reads as 0
                output = pointwiseMin(pointwiseMax(output, .zero), .one)
                let difference = CIEDE2000.difference(sRGB: input, output)
                plane.deltaESum += difference
                plane.deltaEMax = max(plane.deltaEMax, difference)
            }
        }
        return plane
    }
}
