import CLittleCMS
import ColorCubeCore

/// What a look does, measured over its lattice: output range, distance from the identity in
/// CIEDE2000, roughness, and whether Core Image can take it.
///
/// Colour differences compare each node's output with the node's own input colour, both read as
/// sRGB and converted to CIELAB (D50) by Little CMS, with `cmsCIE2000DeltaE` (kL = kC = kH = 1).
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
    /// The mean CIEDE2000 difference from the identity over all nodes; nil when Little CMS could
    /// not build the sRGB-to-Lab transform.
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
        let transform = LabTransform()
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
                planes.start(of: b).pointee = measurePlane(b, of: table, measuresColour: picked[b],
                                                           transform: transform, picks: picks)
            }
            if n >= 32 {
                ParallelLoop.run(iterations: n, work)
            } else {
                (0..<n).forEach(work)
            }
        }
        return planes
    }

    /// Ranges over plane `b`; with a transform, also colour differences at the picked nodes.
    private static func measurePlane(_ b: Int, of table: some CubeTable, measuresColour: Bool,
                                     transform: LabTransform?, picks: [Int]) -> Plane {
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
        guard let transform else {
            plane.measured = false
            return plane
        }
        let count = picks.count * picks.count
        var inputs = [Float](repeating: 0, count: count * 3)
        var outputs = [Float](repeating: 0, count: count * 3)
        for (gi, g) in picks.enumerated() {
            for (ri, r) in picks.enumerated() {
                let i = gi * picks.count + ri
                let e = table.entry(at: ColorCube.redFastestIndex(r: r, g: g, b: b, size: n))
                let input = SIMD3(Float(r), Float(g), Float(b)) * scale
                var output = SIMD3(e.x, e.y, e.z)
                output = output.replacing(with: 0, where: .!(output .== output))  // NaN reads as 0
                output = pointwiseMin(pointwiseMax(output, .zero), .one)
                inputs[3 * i] = input.x; inputs[3 * i + 1] = input.y; inputs[3 * i + 2] = input.z
                outputs[3 * i] = output.x; outputs[3 * i + 1] = output.y; outputs[3 * i + 2] = output.z
            }
        }
        let before = transform.lab(inputs, count: count)
        let after = transform.lab(outputs, count: count)
        for i in 0..<count {
            var first = cmsCIELab(L: before[3 * i], a: before[3 * i + 1], b: before[3 * i + 2])
            var second = cmsCIELab(L: after[3 * i], a: after[3 * i + 1], b: after[3 * i + 2])
            let difference = cmsCIE2000DeltaE(&first, &second, 1, 1, 1)
            plane.deltaESum += difference
            plane.deltaEMax = max(plane.deltaEMax, difference)
        }
        return plane
    }

    /// sRGB (Float) to CIELAB D50 (Double), shareable across threads.
    ///
    /// Sendable by promise (`@unchecked`: the handle is an opaque C pointer): the transform is made
    /// without Little CMS's one-colour cache (`cmsFLAGS_NOCACHE`), the only state `cmsDoTransform`
    /// writes, so concurrent calls only read it.
    private final class LabTransform: @unchecked Sendable {
        private let handle: cmsHTRANSFORM

        init?() {
            guard let srgb = cmsCreate_sRGBProfile() else { return nil }
            defer { cmsCloseProfile(srgb) }
            guard let lab = cmsCreateLab4Profile(nil) else { return nil }
            defer { cmsCloseProfile(lab) }
            guard let handle = cmsCreateTransform(srgb, CCMS_TYPE_RGB_FLT, lab, CCMS_TYPE_Lab_DBL,
                                                  CCMS_INTENT_RELATIVE_COLORIMETRIC, CCMS_FLAGS_NOCACHE) else { return nil }
            self.handle = handle
        }

        deinit {
            cmsDeleteTransform(handle)
        }

        func lab(_ rgb: [Float], count: Int) -> [Double] {
            var result = [Double](repeating: 0, count: count * 3)
            rgb.withUnsafeBytes { input in
                result.withUnsafeMutableBytes { output in
                    cmsDoTransform(handle, input.baseAddress, output.baseAddress, cmsUInt32Number(count))
                }
            }
            return result
        }
    }
}
