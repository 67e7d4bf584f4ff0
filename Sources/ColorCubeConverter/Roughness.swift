import ColorCubeCore

/// How rough a cube is along each axis: the mark that spatial edits (blur, noise, sharpening,
/// resizing) leave on a reference image, and that colour adjustments do not.
///
/// Two measures per axis, both in 8-bit code values over the three output channels:
/// - curvature: the 99th percentile of |a - 2b + c| over runs of three neighbouring nodes a, b, c.
///   Colour adjustments are smooth functions of the input, so their second differences are small
///   (curves, levels, hue/saturation and channel mixing on a 64-cube measured 1 to 10). A blur,
///   sharpen or resize mixes pixels that are neighbours in the image but far apart in the cube (the
///   end of one red ramp and the start of the next), leaving second differences of 15 to 150.
/// - zig-zag: the mean of min(|b - a|, |c - b|) over runs that turn back (b - a and c - b of opposite
///   sign). Smooth adjustments turn back at most once and slowly (0.00 to 0.01); noise turns back at
///   nearly every node (2% noise: 5). Unlike curvature it does not grow as the cube gets smaller.
public struct Roughness: Sendable, Equatable {
    /// 99th percentile of second differences along red, green and blue.
    public var curvature: SIMD3<Double>
    /// Mean zig-zag along red, green and blue.
    public var zigzag: SIMD3<Double>
    /// The cube size measured, which sets the curvature limit.
    public var size: Int

    /// Zig-zags above this mark noise.
    public static let zigzagLimit = 0.25

    /// Curvature above this marks a spatial edit. Smooth functions' second differences shrink with
    /// the lattice step, so small cubes get a proportionally larger allowance: 15 at size 64.
    public var curvatureLimit: Double {
        max(8, 15 * 63 / Double(max(size - 1, 1)))
    }

    public init(curvature: SIMD3<Double>, zigzag: SIMD3<Double>, size: Int) {
        self.curvature = curvature
        self.zigzag = zigzag
        self.size = size
    }

    /// True when some axis is rougher than any smooth colour adjustment makes it.
    public var suggestsSpatialEdit: Bool {
        curvature.max() > curvatureLimit || zigzag.max() > Self.zigzagLimit
    }

    /// Measures `table`, reading each entry once and keeping three planes of blue at a time.
    public init(measuring table: some CubeTable) {
        let n = table.size
        self.size = n
        guard n >= 3 else {
            self.curvature = .zero
            self.zigzag = .zero
            return
        }
        let plane = n * n
        var planes = [[SIMD3<Float>]](repeating: [SIMD3<Float>](repeating: .zero, count: plane), count: 3)
        var histograms = [Histogram](repeating: Histogram(), count: 3)
        var zigzags = SIMD3<Double>.zero
        func load(_ b: Int, into slot: Int) {
            planes[slot].withUnsafeMutableBufferPointer { p in
                for i in 0..<plane {
                    let e = table.entry(at: b * plane + i)
                    p[i] = SIMD3(e.x, e.y, e.z) * 255
                }
            }
        }
        load(0, into: 0)
        load(1, into: 1)
        for b in 0..<n {
            if b >= 1, b + 1 < n { load(b + 1, into: (b + 1) % 3) }
            let current = planes[b % 3]
            current.withUnsafeBufferPointer { p in
                for g in 0..<n {
                    var red: Float = 0, green: Float = 0
                    for r in 0..<n {
                        let i = g * n + r
                        if r >= 1, r + 1 < n { red += Self.run(p[i - 1], p[i], p[i + 1], into: &histograms[0]) }
                        if g >= 1, g + 1 < n { green += Self.run(p[i - n], p[i], p[i + n], into: &histograms[1]) }
                    }
                    zigzags.x += Double(red)
                    zigzags.y += Double(green)
                }
            }
            if b >= 1, b + 1 < n {
                let below = planes[(b + 2) % 3], above = planes[(b + 1) % 3]
                var blue: Float = 0
                for i in 0..<plane {
                    blue += Self.run(below[i], current[i], above[i], into: &histograms[2])
                }
                zigzags.z += Double(blue)
            }
        }
        let runs = Double(n - 2) * Double(plane) * 3
        self.zigzag = zigzags / runs
        self.curvature = SIMD3(histograms[0].percentile(0.99), histograms[1].percentile(0.99),
                               histograms[2].percentile(0.99))
    }

    /// Records one run's second differences and returns its zig-zag.
    @inline(__always)
    private static func run(_ a: SIMD3<Float>, _ b: SIMD3<Float>, _ c: SIMD3<Float>, into histogram: inout Histogram) -> Float {
        let first = b - a, second = c - b
        let curvature = second - first
        histogram.add(max(curvature.x, -curvature.x))
        histogram.add(max(curvature.y, -curvature.y))
        histogram.add(max(curvature.z, -curvature.z))
        let turning = (first * second) .< SIMD3<Float>(repeating: 0)
        let size = pointwiseMin(pointwiseMax(first, -first), pointwiseMax(second, -second))
        return SIMD3<Float>(repeating: 0).replacing(with: size, where: turning).sum()
    }

    /// Counts of values in bins of 1/8 code value up to 1024 (larger values share the last bin).
    private struct Histogram {
        static let binsPerCode: Float = 8
        var counts = [Int](repeating: 0, count: 8 * 1024 + 1)
        var total = 0

        @inline(__always)
        mutating func add(_ value: Float) {
            let bin = min(Int(value * Self.binsPerCode), counts.count - 1)
            counts[bin] += 1
            total += 1
        }

        func percentile(_ fraction: Double) -> Double {
            let target = Int((Double(total) * fraction).rounded(.up))
            var seen = 0
            for (bin, count) in counts.enumerated() {
                seen += count
                if seen >= target { return Double(bin) / Double(Self.binsPerCode) }
            }
            return Double(counts.count - 1) / Double(Self.binsPerCode)
        }
    }
}
