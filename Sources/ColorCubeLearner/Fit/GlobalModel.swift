import ColorCubeCore

/// A simple global model of an edit, fitted to the same tally as the lattice: each output channel
/// is a sum of three curves, one of each input channel,
///
///     G_k(r, g, b) = f_kr(r) + f_kg(g) + f_kb(b)
///
/// with every curve piecewise linear on `knots` evenly spaced knots over 0...1. This holds
/// per-channel tone curves, any 3x3 colour matrix (a channel mixer, black and white through a
/// colour filter, saturation in RGB), and a matrix followed by per-channel curves to first order;
/// it has 3 x 17 unknowns per output channel instead of the lattice's size^3, so the photos
/// almost always cover each curve's range even where they leave most of the cube empty.
///
/// The lattice's smoothness penalty then pulls towards this model rather than towards straight
/// lines (`LatticeSolver`), so colours the photos never show follow the edit's curves and mixing.
///
/// The fit minimises (1/P) sum_c n_c |G(x_c) - y_c|^2 + mu (knots-1)^3 sum |second differences of
/// each curve|^2 + eps |curves - identity|^2: the scale (knots-1)^3 makes mu the integral of the
/// squared second derivative, the tiny eps settles the constants the three curves of a channel
/// share (and any curve the photos do not touch) towards the identity. One dense
/// (3 knots)^2 system solved by `DenseCholesky`, the three output channels sharing its matrix.
///
/// The curves act in a `CurveSpace`: G is fitted to the colours' coordinates in that space and
/// read back to sRGB codes. `bestFitting` fits the model in every space and keeps the one closest
/// to the pairs, so an edit made with curves in ProPhoto RGB (RawTherapee, Lightroom) is modelled
/// as such and carries over to colours the photos do not show.
struct GlobalModel {
    static let knots = 17
    static let curvature = 1e-5
    static let ridge = 1e-7

    /// Curve values, [output channel][input channel * knots + knot].
    private let values: [[Double]]
    /// The space the curves act in.
    let space: CurveSpace

    /// The identity: f_kk(x) = x, the other curves 0.
    static let identity = GlobalModel(values: (0..<3).map { k in
        (0..<(3 * knots)).map { index in index / knots == k ? Double(index % knots) / Double(knots - 1) : 0 }
    }, space: .sRGB)

    private init(values: [[Double]], space: CurveSpace) {
        self.values = values
        self.space = space
    }

    /// The model fitted in the `CurveSpace` where it lies closest to the colours' afters in sRGB
    /// (weighted squared error; the first space on a tie).
    ///
    /// The spaces are compared on at most `selectionColors` of the colours, every k-th of the
    /// tally's order (which spreads them over the cube), each fit there with the sample's own
    /// weight as its total; the chosen space's model is then fitted to every colour. A large
    /// pair's tally holds half a million colours, and the choice needs far fewer.
    static func bestFitting(colors: [FitColor], totalWeight: UInt64) -> GlobalModel {
        let step = max(1, colors.count / selectionColors)
        let sample = step == 1 ? colors : stride(from: 0, to: colors.count, by: step).map { colors[$0] }
        let sampleWeight = step == 1 ? totalWeight : UInt64(max(1, sample.reduce(0) { $0 + $1.weight }.rounded()))
        var best: (model: GlobalModel, error: Double)?
        for space in CurveSpace.allCases {
            let model = GlobalModel(colors: sample, totalWeight: sampleWeight, space: space)
            let error = model.squaredError(over: sample)
            if best == nil || error < best!.error { best = (model, error) }
        }
        let chosen = best!.model
        return step == 1 ? chosen : GlobalModel(colors: colors, totalWeight: totalWeight, space: chosen.space)
    }

    /// Colours the spaces are compared on, at most.
    static let selectionColors = 1 << 16

    /// The model fitted to `colors` in `space` (see the type's energy).
    init(colors: [FitColor], totalWeight: UInt64, space: CurveSpace = .sRGB) {
        let k = Self.knots, unknowns = 3 * k
        // The data sums over the colours; a large tally's two halves on two threads, added half
        // after half (the same sums whatever the cores).
        let halves = colors.count >= Self.splitThreshold ? 2 : 1
        let parts = Locked<[([Double], [Double])?]>(Array(repeating: nil, count: halves))
        ParallelLoop.run(iterations: halves) { part in
            let middle = colors.count / 2
            let range = halves == 1 ? colors.indices : part == 0 ? 0..<middle : middle..<colors.count
            let sums = Self.dataSums(colors[range], space: space)
            parts.withLock { $0[part] = sums }
        }
        let summed = parts.withLock { $0 }.compactMap { $0 }
        var matrix = summed[0].0, sums = summed[0].1
        for other in summed.dropFirst() {
            for i in matrix.indices { matrix[i] += other.0[i] }
            for i in sums.indices { sums[i] += other.1[i] }
        }
        var rhs = (0..<3).map { channel in (0..<unknowns).map { sums[3 * $0 + channel] } }
        let perPixel = 1 / Double(max(totalWeight, 1))
        for i in matrix.indices { matrix[i] *= perPixel }
        let mu = Self.curvature * Double((k - 1) * (k - 1) * (k - 1))
        for curve in 0..<3 {
            for centre in 1..<(k - 1) {
                let nodes = [curve * k + centre - 1, curve * k + centre, curve * k + centre + 1]
                let d = [1.0, -2.0, 1.0]
                for a in 0..<3 { for b in 0..<3 { matrix[nodes[a] * unknowns + nodes[b]] += mu * d[a] * d[b] } }
            }
        }
        let identity = Self.identity.values
        for i in 0..<unknowns { matrix[i * unknowns + i] += Self.ridge }
        for channel in 0..<3 {
            for i in 0..<unknowns { rhs[channel][i] = rhs[channel][i] * perPixel + Self.ridge * identity[channel][i] }
        }
        let packed = (0..<unknowns).map { SIMD4(rhs[0][$0], rhs[1][$0], rhs[2][$0], 0) }
        let solution = DenseCholesky(matrix: matrix, count: unknowns).solve(packed)
        values = (0..<3).map { channel in solution.map { $0[channel] } }
        self.space = space
    }

    /// Sum over `colors` of weight times the squared distance between the model's colour and the
    /// after, in sRGB codes; two halves on two threads, added in order.
    func squaredError(over colors: [FitColor]) -> Double {
        let halves = colors.count >= Self.splitThreshold ? 2 : 1
        let parts = Locked<[Double]>(Array(repeating: 0, count: halves))
        ParallelLoop.run(iterations: halves) { part in
            let middle = colors.count / 2
            let range = halves == 1 ? colors.indices : part == 0 ? 0..<middle : middle..<colors.count
            var sum = 0.0
            for color in colors[range] {
                let difference = self(color.before) - SIMD4(color.after, 0)
                sum += color.weight * (difference * difference).sum()
            }
            parts.withLock { $0[part] = sum }
        }
        return parts.withLock { $0 }.reduce(0, +)
    }

    /// Colours above which the data sums run on two threads.
    static let splitThreshold = 1 << 16

    /// The normal matrix (unknowns^2) and the three channels' right-hand sides (interleaved,
    /// [3 * unknown + channel]) of the data term over `colors`, unscaled.
    private static func dataSums(_ colors: ArraySlice<FitColor>, space: CurveSpace) -> ([Double], [Double]) {
        let unknowns = 3 * knots
        var matrix = [Double](repeating: 0, count: unknowns * unknowns)
        var sums = [Double](repeating: 0, count: 3 * unknowns)
        matrix.withUnsafeMutableBufferPointer { m in
            sums.withUnsafeMutableBufferPointer { r in
                // Raw buffers and fixed-size locals: this loop runs once per tally colour, millions
                // on a large pair.
                var index: (Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0)
                var weight: SIMD8<Double> = .zero
                for color in colors {
                    let n = color.weight, after = space.encode(color.after)
                    basis(space.encode(color.before), index: &index, weight: &weight)
                    withUnsafeBytes(of: index) { raw in
                        let at = raw.bindMemory(to: Int.self)
                        for a in 0..<6 {
                            let wa = n * weight[a]
                            guard wa != 0 else { continue }
                            let row = at[a] * unknowns
                            for b in 0..<6 { m[row + at[b]] += wa * weight[b] }
                            r[3 * at[a]] += wa * after.x
                            r[3 * at[a] + 1] += wa * after.y
                            r[3 * at[a] + 2] += wa * after.z
                        }
                    }
                }
            }
        }
        return (matrix, sums)
    }

    /// The model's colour for `color` (alpha lane 0), in sRGB codes. Called once per tally colour,
    /// so it allocates nothing.
    func callAsFunction(_ color: SIMD3<Double>) -> SIMD4<Double> {
        SIMD4(space.decode(curves(space.encode(color))), 0)
    }

    /// The curves' sum at `color`, in the model's space.
    private func curves(_ color: SIMD3<Double>) -> SIMD3<Double> {
        let last = Double(Self.knots - 1)
        var result = SIMD3<Double>.zero
        for channel in 0..<3 {
            var value = color[channel]
            if !(value > 0) { value = 0 }
            if value > 1 { value = 1 }
            let position = value * last
            let lower = min(Int(position), Self.knots - 2)
            let fraction = position - Double(lower)
            let at = channel * Self.knots + lower
            result.x += (1 - fraction) * values[0][at] + fraction * values[0][at + 1]
            result.y += (1 - fraction) * values[1][at] + fraction * values[1][at + 1]
            result.z += (1 - fraction) * values[2][at] + fraction * values[2][at + 1]
        }
        return result
    }

    /// The two hat functions of each channel that are non-zero at `color` (clamped to 0...1).
    private static func basis(_ color: SIMD3<Double>, index: inout (Int, Int, Int, Int, Int, Int),
                              weight: inout SIMD8<Double>) {
        let (r, rf) = hat(color.x), (g, gf) = hat(color.y), (b, bf) = hat(color.z)
        index = (r, r + 1, knots + g, knots + g + 1, 2 * knots + b, 2 * knots + b + 1)
        weight = SIMD8(1 - rf, rf, 1 - gf, gf, 1 - bf, bf, 0, 0)
    }

    /// The knot below `value` (clamped to 0...1) and the fraction of the way to the next.
    @inline(__always)
    private static func hat(_ value: Double) -> (Int, Double) {
        var clamped = value
        if !(clamped > 0) { clamped = 0 }
        if clamped > 1 { clamped = 1 }
        let position = clamped * Double(knots - 1)
        let lower = min(Int(position), knots - 2)
        return (lower, position - Double(lower))
    }
}
