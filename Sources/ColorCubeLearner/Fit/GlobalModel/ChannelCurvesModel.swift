import ColorCubeCore

/// The global model as curves and colour mixing: each output channel is a sum of three curves,
/// one of each input channel, in the model's `CurveSpace`,
///
///     G_k(r, g, b) = f_kr(r) + f_kg(g) + f_kb(b)
///
/// with every curve piecewise linear on `GlobalModelTuning.knots` evenly spaced knots over 0...1.
/// This holds per-channel tone curves, any 3x3 colour matrix (a channel mixer, black and white
/// through a colour filter, saturation in RGB), and a matrix followed by per-channel curves to
/// first order; it has 3 x 17 unknowns per output channel instead of the lattice's size^3, so the
/// photos almost always cover each curve's range even where they leave most of the cube empty.
///
/// The fit minimises (1/P) sum_c n_c |G(x_c) - y_c|^2 + mu (knots-1)^3 sum |second differences of
/// each curve|^2 + eps |curves - identity|^2: the scale (knots-1)^3 makes mu the integral of the
/// squared second derivative, the tiny eps settles the constants the three curves of a channel
/// share (and any curve the photos do not touch) towards the identity. One dense
/// (3 knots)^2 system solved by `DenseCholesky`, the three output channels sharing its matrix.
/// G is fitted to the colours' coordinates in the space and read back to sRGB codes.
///
/// The model may also change saturation as photo editors do, in the HSV sense: each channel moves
/// away from (or towards) the colour's largest channel by a factor that is a curve of its HSV
/// saturation s = (max - min) / max, shared by the three channels,
///
///     G_k(x) += h(s(x)) (x_k - max(x))
///
/// with h piecewise linear on `GlobalModelTuning.saturationKnots` knots. A sum of curves cannot
/// hold that (the pivot is each colour's own largest channel), and it is what G'MIC's and
/// RawTherapee's saturation sliders do; so a look made with one follows it on hues the photos do
/// not show. The fit is then one coupled system for the three channels' curves and h, whose own
/// second differences are weighted `GlobalModelTuning.saturationCurvature`.
struct ChannelCurvesModel: GlobalModelForm {
    /// Curve values, [output channel][input channel * knots + knot].
    private let values: [[Double]]
    /// The space the curves act in.
    let space: CurveSpace
    /// The saturation curve h, [knot]; empty for a model without it.
    private let saturationCurve: [Double]

    /// Whether the model has the HSV saturation curve h.
    var changesSaturation: Bool { !saturationCurve.isEmpty }

    var summary: GlobalModelSummary {
        GlobalModelSummary(curveSpace: space, changesSaturation: changesSaturation, followsLuminance: false,
                           keepsHue: false, saturationFactor: 1)
    }

    /// The identity on sRGB codes: f_kk(x) = x, the other curves 0.
    static let identity = ChannelCurvesModel(values: (0..<3).map { k in
        let knots = GlobalModelTuning.knots
        return (0..<(3 * knots)).map { index in index / knots == k ? Double(index % knots) / Double(knots - 1) : 0 }
    }, space: .sRGB, saturationCurve: [])

    private init(values: [[Double]], space: CurveSpace, saturationCurve: [Double]) {
        self.values = values
        self.space = space
        self.saturationCurve = saturationCurve
    }

    func refitted(to colors: [FitColor], totalWeight: UInt64) -> ChannelCurvesModel {
        ChannelCurvesModel(colors: colors, totalWeight: totalWeight, space: space,
                           changingSaturation: changesSaturation)
    }

    /// The model fitted to `colors` in `space`, with the saturation curve h when
    /// `changingSaturation` (see the type's energy).
    init(colors: [FitColor], totalWeight: UInt64, space: CurveSpace = .sRGB, changingSaturation: Bool = false) {
        typealias Tuning = GlobalModelTuning
        let k = Tuning.knots, unknowns = 3 * k
        // The data sums over the colours; a large tally's two halves on two threads, added half
        // after half (the same sums whatever the cores).
        let halves = colors.count >= Tuning.splitThreshold ? 2 : 1
        let parts = Locked<[ChannelCurveSums?]>(Array(repeating: nil, count: halves))
        ParallelLoop.run(iterations: halves) { part in
            let middle = colors.count / 2
            let range = halves == 1 ? colors.indices : part == 0 ? 0..<middle : middle..<colors.count
            let sums = ChannelCurveSums(colors[range], space: space, saturation: changingSaturation)
            parts.withLock { $0[part] = sums }
        }
        let summed = parts.withLock { $0 }.compactMap { $0 }
        var data = summed[0]
        for other in summed.dropFirst() { data.add(other) }
        var matrix = data.matrix
        var rhs = (0..<3).map { channel in (0..<unknowns).map { data.sums[3 * $0 + channel] } }
        let perPixel = 1 / Double(max(totalWeight, 1))
        for i in matrix.indices { matrix[i] *= perPixel }
        KnotCurve.addSecondDifferences(to: &matrix, stride: unknowns, curves: 3, knots: k, offset: 0,
                                       weight: Tuning.curvature)
        let identity = Self.identity.values
        for i in 0..<unknowns { matrix[i * unknowns + i] += Tuning.ridge }
        for channel in 0..<3 {
            for i in 0..<unknowns { rhs[channel][i] = rhs[channel][i] * perPixel + Tuning.ridge * identity[channel][i] }
        }
        self.space = space
        guard changingSaturation else {
            let packed = (0..<unknowns).map { SIMD4(rhs[0][$0], rhs[1][$0], rhs[2][$0], 0) }
            let solution = DenseCholesky(matrix: matrix, count: unknowns).solve(packed)
            values = (0..<3).map { channel in solution.map { $0[channel] } }
            saturationCurve = []
            return
        }
        // One system for the three channels' curves (each channel's block the matrix above) and
        // h, which couples them.
        let sk = Tuning.saturationKnots, count = 3 * unknowns + sk, h = 3 * unknowns
        var full = [Double](repeating: 0, count: count * count)
        var vector = [SIMD4<Double>](repeating: .zero, count: count)
        for channel in 0..<3 {
            let base = channel * unknowns
            for a in 0..<unknowns {
                vector[base + a].x = rhs[channel][a]
                for b in 0..<unknowns { full[(base + a) * count + base + b] = matrix[a * unknowns + b] }
                for j in 0..<sk {
                    let value = data.cross[(channel * unknowns + a) * sk + j] * perPixel
                    full[(base + a) * count + h + j] = value
                    full[(h + j) * count + base + a] = value
                }
            }
        }
        for i in 0..<sk {
            vector[h + i].x = data.saturationSums[i] * perPixel
            for j in 0..<sk { full[(h + i) * count + h + j] = data.saturationMatrix[i * sk + j] * perPixel }
            full[(h + i) * count + h + i] += Tuning.ridge
        }
        KnotCurve.addSecondDifferences(to: &full, stride: count, curves: 1, knots: sk, offset: h,
                                       weight: Tuning.saturationCurvature)
        // The mixing curves held back (towards 0): on photos of a few hues, where one channel is
        // nearly always the largest, mixing and h can explain the same pixels, and the mixing
        // would carry over wrongly to hues where another channel is the largest.
        for channel in 0..<3 {
            for input in 0..<3 where input != channel {
                for knot in 0..<k {
                    let i = channel * unknowns + input * k + knot
                    full[i * count + i] += Tuning.saturationMixingRidge
                }
            }
        }
        let solution = DenseCholesky(matrix: full, count: count).solve(vector)
        values = (0..<3).map { channel in (0..<unknowns).map { solution[channel * unknowns + $0].x } }
        saturationCurve = (0..<sk).map { solution[h + $0].x }
    }

    func callAsFunction(_ color: SIMD3<Double>) -> SIMD4<Double> {
        SIMD4(space.decode(curves(space.encode(color))), 0)
    }

    /// The curves' sum at `color`, in the model's space.
    private func curves(_ color: SIMD3<Double>) -> SIMD3<Double> {
        let knots = GlobalModelTuning.knots
        var result = SIMD3<Double>.zero
        for channel in 0..<3 {
            let (lower, fraction) = KnotCurve.hat(color[channel], knots: knots)
            let at = channel * knots + lower
            result.x += (1 - fraction) * values[0][at] + fraction * values[0][at + 1]
            result.y += (1 - fraction) * values[1][at] + fraction * values[1][at + 1]
            result.z += (1 - fraction) * values[2][at] + fraction * values[2][at + 1]
        }
        if !saturationCurve.isEmpty {
            let (knot, fraction, away) = Self.saturationTerm(color)
            result += ((1 - fraction) * saturationCurve[knot] + fraction * saturationCurve[knot + 1]) * away
        }
        return result
    }

    /// For a colour in the model's space: the saturation curve's knot below its HSV saturation, the
    /// fraction of the way to the next, and each channel's distance from the largest channel
    /// (x_k - max, what h multiplies).
    @inline(__always)
    static func saturationTerm(_ color: SIMD3<Double>) -> (Int, Double, SIMD3<Double>) {
        let saturation = KnotCurve.hsvSaturation(of: color)
        let (lower, fraction) = KnotCurve.hat(saturation, knots: GlobalModelTuning.saturationKnots)
        return (lower, fraction, color - SIMD3(repeating: color.max()))
    }

    /// The two hat functions of each channel that are non-zero at `color` (clamped to 0...1):
    /// their unknowns' indices and weights.
    static func basis(_ color: SIMD3<Double>, index: inout (Int, Int, Int, Int, Int, Int),
                      weight: inout SIMD8<Double>) {
        let knots = GlobalModelTuning.knots
        let (r, rf) = KnotCurve.hat(color.x, knots: knots), (g, gf) = KnotCurve.hat(color.y, knots: knots)
        let (b, bf) = KnotCurve.hat(color.z, knots: knots)
        index = (r, r + 1, knots + g, knots + g + 1, 2 * knots + b, 2 * knots + b + 1)
        weight = SIMD8(1 - rf, rf, 1 - gf, gf, 1 - bf, bf, 0, 0)
    }
}
