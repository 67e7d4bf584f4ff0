import CLittleCMS
import ColorCubeCore
import Dispatch

/// What a look does, measured over its lattice: output range, distance from the identity in
/// CIEDE2000, roughness, and whether Core Image can take it.
///
/// Colour differences compare each node's output with the node's own input colour, both read as
/// sRGB and converted to CIELAB (D50) by Little CMS, with `cmsCIE2000DeltaE` (kL = kC = kH = 1).
/// Outputs are clamped to 0...1 (NaN to 0) first, as a display would; a difference of about 1 is
/// the smallest most people see side by side. Every node is measured, including all 16.7 million of
/// a 256-cube (split across cores).
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

    /// True when every node is within `identityTolerance` of its input.
    public var isIdentity: Bool { nonFiniteCount == 0 && largestIdentityDeviation <= Self.identityTolerance }

    /// True when some output lies outside 0...1 or is not finite.
    public var hasValuesOutsideUnitRange: Bool {
        nonFiniteCount > 0 || outputMin.min() < 0 || outputMax.max() > 1
    }

    /// Why Core Image's `CIColorCube` would not take this cube as it is (empty when it would):
    /// it is reported to accept sizes 2...64, and looks should stay in 0...1.
    public var coreImageProblems: [String] {
        var problems: [String] = []
        if size > 64 { problems.append("size \(size) is above 64 (resample with convert --resample 64)") }
        if hasValuesOutsideUnitRange { problems.append("values outside 0...1") }
        return problems
    }

    /// Measures `table`.
    public init(measuring table: some CubeTable) {
        let n = table.size
        size = n
        roughness = Roughness(measuring: table)
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
        meanDeltaE = measured ? sum / Double(n * n * n) : nil
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
        var measured = false
    }

    private static func measurePlanes(_ table: some CubeTable) -> [Plane] {
        let n = table.size
        let transform = LabTransform()
        var planes = [Plane](repeating: Plane(), count: n)
        planes.withUnsafeMutableBufferPointer { results in
            guard let base = results.baseAddress else { return }
            let work = { (b: Int) in
                base[b] = measurePlane(b, of: table, transform: transform)
            }
            if n >= 32 {
                DispatchQueue.concurrentPerform(iterations: n, execute: work)
            } else {
                (0..<n).forEach(work)
            }
        }
        return planes
    }

    private static func measurePlane(_ b: Int, of table: some CubeTable, transform: LabTransform?) -> Plane {
        let n = table.size
        let count = n * n
        let scale = 1 / Float(n - 1)
        var plane = Plane()
        var inputs = [Float](repeating: 0, count: count * 3)
        var outputs = [Float](repeating: 0, count: count * 3)
        for g in 0..<n {
            for r in 0..<n {
                let i = g * n + r
                let e = table.entry(at: b * count + i)
                let input = SIMD3(Float(r), Float(g), Float(b)) * scale
                var output = SIMD3(e.x, e.y, e.z)
                if output.x.isFinite && output.y.isFinite && output.z.isFinite {
                    plane.low = pointwiseMin(plane.low, output)
                    plane.high = pointwiseMax(plane.high, output)
                    let difference = output - input
                    plane.deviation = max(plane.deviation, pointwiseMax(difference, -difference).max())
                } else {
                    plane.nonFinite += 1
                    plane.deviation = .infinity
                    output = output.replacing(with: 0, where: .!(output .== output))
                }
                output = pointwiseMin(pointwiseMax(output, .zero), .one)
                inputs[3 * i] = input.x; inputs[3 * i + 1] = input.y; inputs[3 * i + 2] = input.z
                outputs[3 * i] = output.x; outputs[3 * i + 1] = output.y; outputs[3 * i + 2] = output.z
            }
        }
        guard let transform else { return plane }
        let before = transform.lab(inputs, count: count)
        let after = transform.lab(outputs, count: count)
        for i in 0..<count {
            var first = cmsCIELab(L: before[3 * i], a: before[3 * i + 1], b: before[3 * i + 2])
            var second = cmsCIELab(L: after[3 * i], a: after[3 * i + 1], b: after[3 * i + 2])
            let difference = cmsCIE2000DeltaE(&first, &second, 1, 1, 1)
            plane.deltaESum += difference
            plane.deltaEMax = max(plane.deltaEMax, difference)
        }
        plane.measured = true
        return plane
    }

    /// sRGB (Float) to CIELAB D50 (Double), shareable across threads (no cache).
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
