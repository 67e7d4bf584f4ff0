import ColorCubeCore
import Foundation

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

    /// Measures `table`. Work is split by blue planes across cores; each worker reads the planes it
    /// needs (its own and one on each side) through `copyEntries`, so a 256-cube is never copied whole.
    public init(measuring table: some CubeTable) {
        let n = table.size
        self.size = n
        guard n >= 3 else {
            self.curvature = .zero
            self.zigzag = .zero
            return
        }
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, n / 8))
        var parts = [Part](repeating: Part(), count: workers)
        parts.withUnsafeMutableBufferPointer { parts in
            guard let base = parts.baseAddress else { return }
            // Worker k writes part k only.
            let results = DisjointRegions(base)
            ParallelLoop.run(iterations: workers) { worker in
                let planes = (n * worker / workers)..<(n * (worker + 1) / workers)
                results.start(of: worker).pointee = Self.measure(table, planes: planes)
            }
        }
        var total = Part()
        for part in parts { total.merge(part) }
        let runs = SIMD3<Double>(total.runs) * 3
        self.zigzag = total.zigzag / pointwiseMax(runs, SIMD3(repeating: 1))
        self.curvature = SIMD3(total.histograms[0].percentile(0.99), total.histograms[1].percentile(0.99),
                               total.histograms[2].percentile(0.99))
    }

    /// One worker's sums: zig-zag totals and curvature histograms per axis.
    private struct Part {
        var zigzag = SIMD3<Double>.zero
        /// Runs measured along each axis.
        var runs = SIMD3<Int>.zero
        var histograms = [Histogram(), Histogram(), Histogram()]

        mutating func merge(_ other: Part) {
            zigzag += other.zigzag
            runs &+= other.runs
            for axis in 0..<3 { histograms[axis].merge(other.histograms[axis]) }
        }
    }

    /// Measures the runs centred on the blue planes `planes`.
    private static func measure(_ table: some CubeTable, planes: Range<Int>) -> Part {
        let n = table.size, plane = n * n
        // Three plane buffers in a ring, in 8-bit code units.
        let ring = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: 3 * plane)
        defer { ring.deallocate() }
        var loaded = [-1, -1, -1]
        func planeBuffer(_ b: Int) -> UnsafeMutablePointer<SIMD4<Float>> {
            let slot = b % 3
            let buffer = ring + slot * plane
            if loaded[slot] != b {
                table.copyEntries((b * plane)..<((b + 1) * plane), into: buffer)
                for i in 0..<plane { buffer[i] *= 255 }
                loaded[slot] = b
            }
            return buffer
        }
        var part = Part()
        let red = Histogram(), green = Histogram(), blue = Histogram()
        // Above 64 nodes a side, measure every `step`-th line across each axis: the same statistics
        // from a 64-cube's worth of runs, so a 256-cube costs what a 64-cube does.
        let step = max(1, n / 64)
        for b in planes {
            let p = planeBuffer(b)
            if b % step == 0 {
                for g in 0..<n {
                    let row = p + g * n
                    if g % step == 0 {
                        var sum: Float = 0
                        for r in 1..<(n - 1) { sum += run(row[r - 1], row[r], row[r + 1], red) }
                        part.zigzag.x += Double(sum)
                        part.runs.x += n - 2
                    }
                    if g >= 1, g + 1 < n {
                        var sum: Float = 0
                        for r in stride(from: 0, to: n, by: step) { sum += run(row[r - n], row[r], row[r + n], green) }
                        part.zigzag.y += Double(sum)
                        part.runs.y += (n + step - 1) / step
                    }
                }
            }
            if b >= 1, b + 1 < n {
                let below = planeBuffer(b - 1), above = planeBuffer(b + 1)
                let current = planeBuffer(b)
                var sum: Float = 0
                for g in stride(from: 0, to: n, by: step) {
                    for r in stride(from: 0, to: n, by: step) {
                        let i = g * n + r
                        sum += run(below[i], current[i], above[i], blue)
                    }
                }
                part.zigzag.z += Double(sum)
                part.runs.z += ((n + step - 1) / step) * ((n + step - 1) / step)
            }
        }
        part.histograms = [red, green, blue]
        return part
    }

    /// Records one run's second differences and returns its zig-zag. Scalar per channel: the
    /// generic SIMD min/max helpers are not inlined here and cost more than the arithmetic.
    @inline(__always)
    private static func run(_ a: SIMD4<Float>, _ b: SIMD4<Float>, _ c: SIMD4<Float>, _ histogram: Histogram) -> Float {
        channel(a.x, b.x, c.x, histogram, lane: 0) + channel(a.y, b.y, c.y, histogram, lane: 1)
            + channel(a.z, b.z, c.z, histogram, lane: 2)
    }

    @inline(__always)
    private static func channel(_ a: Float, _ b: Float, _ c: Float, _ histogram: Histogram, lane: Int) -> Float {
        let first = b - a, second = c - b
        let curvature = second - first
        histogram.add(curvature < 0 ? -curvature : curvature, lane: lane)
        guard first * second < 0 else { return 0 }
        let up = first < 0 ? -first : first, down = second < 0 ? -second : second
        return up < down ? up : down
    }

    /// Counts of values in bins of 1/8 code value up to 1024 (larger values share the last bin).
    /// Each channel counts into its own lane: consecutive increments of one bin would otherwise wait
    /// on each other through memory.
    private final class Histogram {
        static let binsPerCode: Float = 8
        static let binCount = 8 * 1024 + 1
        static let lanes = 3
        let counts = UnsafeMutablePointer<Int>.allocate(capacity: lanes * binCount)

        init() {
            counts.initialize(repeating: 0, count: Self.lanes * Self.binCount)
        }

        deinit {
            counts.deallocate()
        }

        /// NaN and infinity (from operations undefined at some lattice nodes, such as a log of
        /// a negative value) count in the last bin, with the largest values.
        @inline(__always)
        func add(_ value: Float, lane: Int) {
            let bin = value * Self.binsPerCode
            counts[lane * Self.binCount + (bin < Float(Self.binCount - 1) ? Int(bin) : Self.binCount - 1)] += 1
        }

        func merge(_ other: Histogram) {
            for bin in 0..<(Self.lanes * Self.binCount) { counts[bin] += other.counts[bin] }
        }

        func count(_ bin: Int) -> Int {
            (0..<Self.lanes).reduce(0) { $0 + counts[$1 * Self.binCount + bin] }
        }

        func percentile(_ fraction: Double) -> Double {
            let total = (0..<Self.binCount).reduce(0) { $0 + count($1) }
            let target = Int((Double(total) * fraction).rounded(.up))
            var seen = 0
            for bin in 0..<Self.binCount {
                seen += count(bin)
                if seen >= target { return Double(bin) / Double(Self.binsPerCode) }
            }
            return Double(Self.binCount - 1) / Double(Self.binsPerCode)
        }
    }
}
