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
///
/// A model may also change saturation as photo editors do, in the HSV sense: each channel moves
/// away from (or towards) the colour's largest channel by a factor that is a curve of its HSV
/// saturation s = (max - min) / max, shared by the three channels,
///
///     G_k(x) += h(s(x)) (x_k - max(x))
///
/// with h piecewise linear on `saturationKnots` knots. A sum of curves cannot hold that (the pivot
/// is each colour's own largest channel), and it is what G'MIC's and RawTherapee's saturation
/// sliders do; so a look made with one follows it on hues the photos do not show. The fit is then
/// one coupled system for the three channels' curves and h.
///
/// Or a model may map each colour by its luminance alone, one curve per output channel:
///
///     G_k(x) = l_k(t(x)),  t = the sRGB transfer of the colour's relative luminance Y
///
/// with l_k piecewise linear on `toneKnots` knots over t. That is black and white by
/// luminance, sepia and any other toning of a grey image (G'MIC's sepia, darktable's monochrome):
/// no sum of curves of r, g and b holds a curve of their weighted linear sum. Y is weighted as
/// sRGB's D65 luminance or as the D50 luminance of ICC workflows (`LuminanceWeights`); both are
/// tried, the closer kept.
///
/// Or a tone curve that keeps hue, as Adobe's and RawTherapee's film-like curves apply it, then a
/// change of saturation: in ProPhoto RGB, one curve c moves the largest and the smallest channel,
/// the middle one keeps its place between them in linear light, and the result moves away from
/// (or towards) its largest channel by a factor f, HSV style, itself a function of the colour's
/// HSV saturation (a vibrance raises pale colours more than saturated ones). A curve per channel
/// changes a colour's hue and saturation in ways that depend on how far apart its channels are;
/// this one does not, so from browns it carries over to blues. It fits the pairs worse than the
/// curves (it has 38 unknowns against 153), so it is chosen by how well it predicts each pair from the
/// others (`LookLearner`), not by its fit.
struct GlobalModel {
    static let knots = 17
    static let curvature = 1e-5
    static let ridge = 1e-7

    /// What the model is made of (see the type's documentation).
    enum Form: Equatable, Sendable {
        /// A sum of curves of each input channel per output channel, in the model's space.
        case curves
        /// The curves and the saturation curve h.
        case saturation
        /// One curve of the colour's luminance per output channel (the space is not used).
        case luminance(LuminanceWeights)
        /// A hue-keeping tone curve and a saturation factor, in ProPhoto RGB.
        case hueKeeping
    }

    /// The weights of linear sRGB in a colour's relative luminance.
    enum LuminanceWeights: CaseIterable, Sendable {
        /// sRGB's own (D65 white, ITU-R BT.709 primaries): ImageMagick, libvips.
        case d65
        /// Adapted to D50 (Bradford), the white of ICC profile connection: G'MIC, RawTherapee,
        /// darktable.
        case d50

        var weights: SIMD3<Double> {
            switch self {
            case .d65: SIMD3(0.2126729, 0.7151522, 0.0721750)
            case .d50: SIMD3(0.2224884, 0.7169037, 0.0606079)
            }
        }
    }

    /// Curve values, [output channel][input channel * knots + knot]; for the luminance form
    /// [output channel][knot]; for the hue-keeping form the one curve, [0][knot].
    private let values: [[Double]]
    /// The space the curves act in.
    let space: CurveSpace
    /// The saturation curve h, [knot]; empty for a model without it; the hue-keeping form's
    /// saturation factor f over HSV saturation, [knot].
    private let saturation: [Double]
    /// What the model is made of.
    let form: Form
    /// Whether the model changes HSV saturation (see the type's documentation).
    var changesSaturation: Bool { form == .saturation }
    /// The hue-keeping form's saturation factor f, averaged over HSV saturation (its knots).
    var saturationFactor: Double {
        form == .hueKeeping ? saturation.reduce(0, +) / Double(saturation.count) : 1
    }
    /// Whether the model maps each colour by its luminance alone (see the type's documentation).
    var followsLuminance: Bool { if case .luminance = form { true } else { false } }

    /// The identity: f_kk(x) = x, the other curves 0.
    static let identity = GlobalModel(values: (0..<3).map { k in
        (0..<(3 * knots)).map { index in index / knots == k ? Double(index % knots) / Double(knots - 1) : 0 }
    }, space: .sRGB, saturation: [], form: .curves)

    private init(values: [[Double]], space: CurveSpace, saturation: [Double], form: Form) {
        self.values = values
        self.space = space
        self.saturation = saturation
        self.form = form
    }

    /// The model fitted in the `CurveSpace` where it lies closest to the colours' afters, with the
    /// saturation curve when that earns its place (`savesEnough` with no floor).
    static func bestFitting(colors: [FitColor], totalWeight: UInt64) -> GlobalModel {
        let sample = Sample(colors: colors, totalWeight: totalWeight)
        return sample.chosen(sample.candidates(), floor: 0, fittedTo: colors, totalWeight: totalWeight)
    }

    /// The model of `form` fitted to the colours' afters; curves in the `CurveSpace` where they
    /// lie closest to them.
    static func closest(colors: [FitColor], totalWeight: UInt64, form: Form) -> GlobalModel {
        switch form {
        case .luminance(let weights): return GlobalModel(colors: colors, totalWeight: totalWeight, luminance: weights)
        case .hueKeeping: return GlobalModel(keepingHue: colors)
        case .curves, .saturation: break
        }
        let sample = Sample(colors: colors, totalWeight: totalWeight)
        return sample.fitted(sample.closest(changingSaturation: form == .saturation).model, to: colors,
                             totalWeight: totalWeight)
    }

    /// Whether a model with the saturation curve whose error is `saturating` is to be chosen over
    /// one without it whose error is `plain`: its error above `floor` must stay under
    /// `saturationGain` of the other's. `floor` is the part of the error no model removes, the
    /// noise of lossy afters, which the fitted lattice itself leaves (`LookLearner` measures it
    /// with `Sample.residual`); without it a noisy pair's error would hide what the curve gains.
    /// The margin is wanted: on colours the photos do not show the curve extrapolates, and a model
    /// that fits the pairs a little better through it (an edit that depends on hue, noise) would
    /// carry that into every unseen hue.
    static func savesEnough(_ saturating: Double, against plain: Double, floor: Double) -> Bool {
        let kept = max(0, min(floor, plain))
        return saturating - kept < saturationGain * (plain - kept)
    }

    /// The colours models are compared on: at most `selectionColors` of a fit's colours, every
    /// k-th of the tally's order (which spreads them over the cube), with their own total weight.
    /// Each candidate is fitted to the sample and the chosen one then to every colour: a large
    /// pair's tally holds half a million colours, and the choice needs far fewer.
    struct Sample {
        let colors: [FitColor]
        let totalWeight: UInt64
        /// Whether the sample is every colour.
        let isAll: Bool

        init(colors all: [FitColor], totalWeight: UInt64) {
            let step = max(1, all.count / selectionColors)
            isAll = step == 1
            colors = isAll ? all : stride(from: 0, to: all.count, by: step).map { all[$0] }
            self.totalWeight = isAll ? totalWeight : UInt64(max(1, colors.reduce(0) { $0 + $1.weight }.rounded()))
        }

        /// The model of the form asked, fitted to the sample in the space where it lies closest to
        /// the afters in sRGB (the first space on a tie), and its mean squared error there.
        func closest(changingSaturation: Bool) -> (model: GlobalModel, error: Double) {
            var best: (model: GlobalModel, error: Double)?
            for space in CurveSpace.allCases {
                let found = fitted(space: space, changingSaturation: changingSaturation)
                if best == nil || found.error < best!.error { best = found }
            }
            return best!
        }

        /// The model of the form asked, fitted to the sample in `space`, and its mean squared error.
        func fitted(space: CurveSpace, changingSaturation: Bool) -> (model: GlobalModel, error: Double) {
            let model = GlobalModel(colors: colors, totalWeight: totalWeight, space: space,
                                    changingSaturation: changingSaturation)
            return (model, model.squaredError(over: colors) / Double(totalWeight))
        }

        /// A plain model, one with the saturation curve and one of luminance, each with its mean
        /// squared error.
        typealias Candidates = (plain: (model: GlobalModel, error: Double), saturating: (model: GlobalModel, error: Double),
                                luminance: (model: GlobalModel, error: Double))

        /// The closest model without the saturation curve (`closest`), the model with it in the
        /// same space (the space is chosen on the curves, then whether saturation changes), and the
        /// closer of the luminance models.
        func candidates() -> Candidates {
            let plain = closest(changingSaturation: false)
            var luminance: (model: GlobalModel, error: Double)?
            for weights in LuminanceWeights.allCases {
                let model = GlobalModel(colors: colors, totalWeight: totalWeight, luminance: weights)
                let error = model.squaredError(over: colors) / Double(totalWeight)
                if luminance == nil || error < luminance!.error { luminance = (model, error) }
            }
            return (plain, fitted(space: plain.model.space, changingSaturation: true), luminance!)
        }

        /// Of `candidates`, the model with h when it saves enough above `floor` (`savesEnough`),
        /// else the plain one, fitted to `all`, the colours the sample was taken from.
        func chosen(_ candidates: Candidates, floor: Double, fittedTo all: [FitColor], totalWeight: UInt64) -> GlobalModel {
            fitted(choice(candidates, floor: floor), to: all, totalWeight: totalWeight)
        }

        /// `model`, fitted to the sample, fitted again to `all`, the colours the sample was taken
        /// from (the same model when the sample is all of them).
        func fitted(_ model: GlobalModel, to all: [FitColor], totalWeight: UInt64) -> GlobalModel {
            isAll ? model : model.fitted(to: all, totalWeight: totalWeight)
        }

        /// Of `candidates`, the model with h when it saves enough above `floor`, else the plain
        /// one; and the luminance model instead when it saves enough against that. As fitted to
        /// the sample.
        func choice(_ candidates: Candidates, floor: Double) -> GlobalModel {
            let (plain, saturating, luminance) = candidates
            let curves = savesEnough(saturating.error, against: plain.error, floor: floor) ? saturating : plain
            return savesEnough(luminance.error, against: curves.error, floor: floor) ? luminance.model : curves.model
        }

        /// The weighted mean squared distance in sRGB between `value` and the afters.
        func residual(_ value: (SIMD3<Double>) -> SIMD3<Double>) -> Double {
            var sum = 0.0
            for color in colors {
                let difference = value(color.before) - color.after
                sum += color.weight * (difference * difference).sum()
            }
            return sum / Double(totalWeight)
        }
    }

    /// The same form (and space) fitted to `colors`.
    func fitted(to colors: [FitColor], totalWeight: UInt64) -> GlobalModel {
        switch form {
        case .luminance(let weights): return GlobalModel(colors: colors, totalWeight: totalWeight, luminance: weights)
        case .hueKeeping: return GlobalModel(keepingHue: colors)
        case .curves, .saturation: break
        }
        return GlobalModel(colors: colors, totalWeight: totalWeight, space: space, changingSaturation: changesSaturation)
    }

    /// The share of the plain model's error (above the floor) that a model with the saturation
    /// curve must stay under to be chosen.
    static let saturationGain = 0.7

    /// Colours the spaces are compared on, at most.
    static let selectionColors = 1 << 16

    /// The model fitted to `colors` in `space`, with the saturation curve when `changingSaturation`
    /// (see the type's energy; h has its own second differences, weighted `saturationCurvature`).
    init(colors: [FitColor], totalWeight: UInt64, space: CurveSpace = .sRGB, changingSaturation: Bool = false) {
        let k = Self.knots, unknowns = 3 * k
        // The data sums over the colours; a large tally's two halves on two threads, added half
        // after half (the same sums whatever the cores).
        let halves = colors.count >= Self.splitThreshold ? 2 : 1
        let parts = Locked<[DataSums?]>(Array(repeating: nil, count: halves))
        ParallelLoop.run(iterations: halves) { part in
            let middle = colors.count / 2
            let range = halves == 1 ? colors.indices : part == 0 ? 0..<middle : middle..<colors.count
            let sums = DataSums(colors[range], space: space, saturation: changingSaturation)
            parts.withLock { $0[part] = sums }
        }
        let summed = parts.withLock { $0 }.compactMap { $0 }
        var data = summed[0]
        for other in summed.dropFirst() { data.add(other) }
        var matrix = data.matrix
        var rhs = (0..<3).map { channel in (0..<unknowns).map { data.sums[3 * $0 + channel] } }
        let perPixel = 1 / Double(max(totalWeight, 1))
        for i in matrix.indices { matrix[i] *= perPixel }
        Self.addSecondDifferences(to: &matrix, stride: unknowns, curves: 3, knots: k, offset: 0, weight: Self.curvature)
        let identity = Self.identity.values
        for i in 0..<unknowns { matrix[i * unknowns + i] += Self.ridge }
        for channel in 0..<3 {
            for i in 0..<unknowns { rhs[channel][i] = rhs[channel][i] * perPixel + Self.ridge * identity[channel][i] }
        }
        self.space = space
        form = changingSaturation ? .saturation : .curves
        guard changingSaturation else {
            let packed = (0..<unknowns).map { SIMD4(rhs[0][$0], rhs[1][$0], rhs[2][$0], 0) }
            let solution = DenseCholesky(matrix: matrix, count: unknowns).solve(packed)
            values = (0..<3).map { channel in solution.map { $0[channel] } }
            saturation = []
            return
        }
        // One system for the three channels' curves (each channel's block the matrix above) and
        // h, which couples them.
        let sk = Self.saturationKnots, count = 3 * unknowns + sk, h = 3 * unknowns
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
            full[(h + i) * count + h + i] += Self.ridge
        }
        Self.addSecondDifferences(to: &full, stride: count, curves: 1, knots: sk, offset: h, weight: Self.saturationCurvature)
        // The mixing curves held back (towards 0): on photos of a few hues, where one channel is
        // nearly always the largest, mixing and h can explain the same pixels, and the mixing
        // would carry over wrongly to hues where another channel is the largest.
        for channel in 0..<3 {
            for input in 0..<3 where input != channel {
                for knot in 0..<k {
                    let i = channel * unknowns + input * k + knot
                    full[i * count + i] += Self.saturationMixingRidge
                }
            }
        }
        let solution = DenseCholesky(matrix: full, count: count).solve(vector)
        values = (0..<3).map { channel in (0..<unknowns).map { solution[channel * unknowns + $0].x } }
        saturation = (0..<sk).map { solution[h + $0].x }
    }

    /// The luminance model (see the type's documentation) fitted to `colors`: the same energy as
    /// the curves' (curvature, and a ridge towards grey, l_k(t) = t), over one curve per channel.
    init(colors: [FitColor], totalWeight: UInt64, luminance weights: LuminanceWeights) {
        let k = Self.toneKnots
        var matrix = [Double](repeating: 0, count: k * k)
        var rhs = [SIMD4<Double>](repeating: .zero, count: k)
        for color in colors {
            let (knot, fraction) = Self.luminanceKnot(color.before, weights: weights)
            let n = color.weight, hat = SIMD2(1 - fraction, fraction)
            let after = SIMD4(color.after, 0)
            for i in 0..<2 {
                rhs[knot + i] += n * hat[i] * after
                for j in 0..<2 { matrix[(knot + i) * k + knot + j] += n * hat[i] * hat[j] }
            }
        }
        let perPixel = 1 / Double(max(totalWeight, 1))
        for i in matrix.indices { matrix[i] *= perPixel }
        Self.addSecondDifferences(to: &matrix, stride: k, curves: 1, knots: k, offset: 0, weight: Self.toneCurvature)
        for i in 0..<k {
            matrix[i * k + i] += Self.ridge
            rhs[i] = rhs[i] * perPixel + SIMD4(repeating: Self.ridge * Double(i) / Double(k - 1))
        }
        let solution = DenseCholesky(matrix: matrix, count: k).solve(rhs)
        values = (0..<3).map { channel in solution.map { $0[channel] } }
        space = .sRGB
        saturation = []
        form = .luminance(weights)
    }

    /// The hue-keeping model (see the type's documentation) fitted to `colors`, where the curve
    /// acts: in ProPhoto RGB's coding, to the afters' largest and smallest channels (the middle
    /// one follows from them). The change of saturation keeps the largest channel, c(high), and
    /// puts the smallest at f c(low) + (1 - f) c(high), with f a piecewise linear function of the
    /// before colour's HSV saturation (a vibrance raises pale colours more than saturated ones):
    /// linear in the curve for a given f, so the curve and f are solved together by Gauss-Newton
    /// steps from the identity (solving for one and then the other creeps: on photos of a few
    /// hues the curve's lower part can mimic a change of saturation).
    init(keepingHue colors: [FitColor]) {
        let k = Self.toneKnots, fk = Self.factorKnots, count = k + fk
        // Per colour: the knots below its largest and smallest channel (coded) and below its HSV
        // saturation, the fractions beyond them, and the after's values of those channels.
        struct Extremes {
            var weight: Double; var knots: SIMD3<Int>; var fractions: SIMD3<Double>; var after: SIMD2<Double>
        }
        // Afters clipped to sRGB's gamut (a channel at 0 or 1) are left out: the model's own colour
        // went beyond it, by an amount the after no longer tells.
        let unclipped = colors.filter { $0.after.min() > Self.clipMargin && $0.after.max() < 1 - Self.clipMargin }
        let extremes = unclipped.map { color -> Extremes in
            let before = CurveSpace.proPhoto.encode(color.before), after = CurveSpace.proPhoto.encode(color.after)
            let high = before.x >= before.y ? (before.x >= before.z ? 0 : 2) : (before.y >= before.z ? 1 : 2)
            let low = before.x < before.y ? (before.x < before.z ? 0 : 2) : (before.y < before.z ? 1 : 2)
            let (hk, hf) = Self.hat(before[high], knots: k), (lk, lf) = Self.hat(before[low], knots: k)
            let (sk, sf) = Self.hat(Self.saturation(of: before), knots: fk)
            return Extremes(weight: color.weight, knots: SIMD3(hk, lk, sk), fractions: SIMD3(hf, lf, sf),
                            after: SIMD2(after[high], after[low]))
        }
        let perPixel = 1 / max(unclipped.reduce(0) { $0 + $1.weight }, 1)
        var curve = (0..<k).map { Double($0) / Double(k - 1) }
        var factors = [Double](repeating: 1, count: fk)
        for _ in 0..<Self.hueKeepingSteps {
            // Unknowns: the curve's k values, then f's fk. Each row is a few weights: c(high) =
            // afterHigh, and the smallest channel's row linearised at the current curve and f.
            var matrix = [Double](repeating: 0, count: count * count)
            var rhs = [SIMD4<Double>](repeating: .zero, count: count)
            func add(_ at: SIMD8<Int>, _ weights: SIMD8<Double>, terms: Int, target: Double, weight: Double) {
                for a in 0..<terms {
                    let wa = weight * weights[a]
                    rhs[at[a]].x += wa * target
                    for b in 0..<terms { matrix[at[a] * count + at[b]] += wa * weights[b] }
                }
            }
            for e in extremes {
                let (hk, lk, sk) = (e.knots[0], e.knots[1], e.knots[2])
                let (hf, lf, sf) = (e.fractions[0], e.fractions[1], e.fractions[2])
                let high = (1 - hf) * curve[hk] + hf * curve[hk + 1], low = (1 - lf) * curve[lk] + lf * curve[lk + 1]
                let factor = (1 - sf) * factors[sk] + sf * factors[sk + 1]
                add(SIMD8(hk, hk + 1, 0, 0, 0, 0, 0, 0), SIMD8(1 - hf, hf, 0, 0, 0, 0, 0, 0), terms: 2,
                    target: e.after[0], weight: e.weight)
                add(SIMD8(lk, lk + 1, hk, hk + 1, k + sk, k + sk + 1, 0, 0),
                    SIMD8(factor * (1 - lf), factor * lf, (1 - factor) * (1 - hf), (1 - factor) * hf,
                          (1 - sf) * (low - high), sf * (low - high), 0, 0),
                    terms: 6, target: e.after[1] + factor * (low - high), weight: e.weight)
            }
            for i in matrix.indices { matrix[i] *= perPixel }
            Self.addSecondDifferences(to: &matrix, stride: count, curves: 1, knots: k, offset: 0, weight: Self.toneCurvature)
            Self.addSecondDifferences(to: &matrix, stride: count, curves: 1, knots: fk, offset: k,
                                      weight: Self.factorCurvature)
            for i in 0..<count {
                matrix[i * count + i] += Self.ridge
                rhs[i].x = rhs[i].x * perPixel + Self.ridge * (i < k ? Double(i) / Double(k - 1) : 1)
            }
            let solution = DenseCholesky(matrix: matrix, count: count).solve(rhs).map(\.x)
            curve = Array(solution[0..<k])
            factors = Array(solution[k...])
        }
        values = [curve]
        space = .proPhoto
        saturation = factors
        form = .hueKeeping
    }

    /// Knots of the hue-keeping model's saturation factor over HSV saturation.
    static let factorKnots = 5
    /// Weight of that factor's squared second derivative.
    static let factorCurvature = 1e-4

    /// HSV saturation, (max - min) / max, of a colour (0 for black).
    @inline(__always)
    private static func saturation(of color: SIMD3<Double>) -> Double {
        let largest = color.max()
        return largest > 0 ? (largest - color.min()) / largest : 0
    }

    /// How near 0 or 1 an after's channel counts as clipped (half an 8-bit code).
    static let clipMargin = 0.5 / 255

    /// Gauss-Newton steps of the hue-keeping model's fit.
    static let hueKeepingSteps = 6

    /// The knot of a `knots`-knot curve over 0...1 below `value` (clamped) and the fraction of the
    /// way to the next.
    @inline(__always)
    private static func hat(_ value: Double, knots: Int) -> (Int, Double) {
        var clamped = value
        if !(clamped > 0) { clamped = 0 }
        if clamped > 1 { clamped = 1 }
        let position = clamped * Double(knots - 1)
        let lower = min(Int(position), knots - 2)
        return (lower, position - Double(lower))
    }

    /// A piecewise linear curve's value at `value` (clamped to 0...1).
    @inline(__always)
    private static func curveValue(_ curve: [Double], at value: Double) -> Double {
        let (knot, fraction) = hat(value, knots: curve.count)
        return (1 - fraction) * curve[knot] + fraction * curve[knot + 1]
    }

    /// The hue-keeping model's colour for `color`, in sRGB codes 0...1.
    private func keepingHue(_ color: SIMD3<Double>) -> SIMD3<Double> {
        let coded = CurveSpace.proPhoto.encode(color)
        let high = coded.max(), low = coded.min()
        let curve = values[0]
        let linearHigh = CurveSpace.rommToLinear(high), linearLow = CurveSpace.rommToLinear(low)
        let outHigh = CurveSpace.rommToLinear(Self.curveValue(curve, at: high))
        let outLow = CurveSpace.rommToLinear(Self.curveValue(curve, at: low))
        var result = SIMD3<Double>.zero
        for channel in 0..<3 {
            let span = linearHigh - linearLow
            let place = span > 0 ? (CurveSpace.rommToLinear(coded[channel]) - linearLow) / span : 1
            result[channel] = CurveSpace.linearToROMM(outLow + place * (outHigh - outLow))
        }
        let largest = result.max()
        let factor = Self.curveValue(saturation, at: Self.saturation(of: coded))
        result = SIMD3(repeating: largest) + factor * (result - SIMD3(repeating: largest))
        // Clipped to sRGB as the editor's output is: the curve and the saturation push saturated
        // colours out of its gamut.
        return CurveSpace.proPhoto.decode(result).clamped(lowerBound: .zero, upperBound: .one)
    }

    /// Knots of the luminance model's curves and of the hue-keeping curve (finer than the curves':
    /// they carry the whole edit).
    static let toneKnots = 33
    /// Weight of those curves' squared second derivative: a hundredth of the curves', as one
    /// curve carries the whole tone of the edit (a sepia's dark browns bend sharply) and every
    /// photo covers its range.
    static let toneCurvature = 1e-7

    /// The luminance curves' knot below a colour's t (see the type's documentation) and the
    /// fraction of the way to the next.
    @inline(__always)
    private static func luminanceKnot(_ color: SIMD3<Double>, weights: LuminanceWeights) -> (Int, Double) {
        let linear = SIMD3(CurveSpace.srgbToLinear(color.x), CurveSpace.srgbToLinear(color.y),
                           CurveSpace.srgbToLinear(color.z))
        return hat(CurveSpace.linearToSRGB((weights.weights * linear).sum()), knots: toneKnots)
    }

    /// Knots of the saturation curve h over HSV saturation 0...1.
    static let saturationKnots = 9
    /// Weight of h's squared second derivative (h is a factor, smoother than the curves).
    static let saturationCurvature = 1e-4
    /// Ridge on the mixing curves' values of a model with h.
    static let saturationMixingRidge = 1e-4

    /// Adds `weight` (knots-1)^3 times the squared second differences of `curves` consecutive
    /// curves of `knots` values, starting at unknown `offset`, to a `stride`-wide matrix.
    private static func addSecondDifferences(to matrix: inout [Double], stride: Int, curves: Int, knots: Int,
                                             offset: Int, weight: Double) {
        let mu = weight * Double((knots - 1) * (knots - 1) * (knots - 1))
        let d = [1.0, -2.0, 1.0]
        for curve in 0..<curves {
            for centre in 1..<(knots - 1) {
                let first = offset + curve * knots + centre - 1
                for a in 0..<3 { for b in 0..<3 { matrix[(first + a) * stride + first + b] += mu * d[a] * d[b] } }
            }
        }
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

    /// The data term's sums over some colours, unscaled: the normal matrix of one channel's curves
    /// (unknowns^2) and the three channels' right-hand sides (interleaved, [3 * unknown + channel]);
    /// with the saturation curve also each channel's curves against h ([channel][unknown][knot]), h
    /// against itself and h's right-hand side.
    private struct DataSums {
        var matrix: [Double]
        var sums: [Double]
        var cross: [Double] = []
        var saturationMatrix: [Double] = []
        var saturationSums: [Double] = []

        init(_ colors: ArraySlice<FitColor>, space: CurveSpace, saturation: Bool) {
            let unknowns = 3 * knots, sk = saturationKnots
            matrix = [Double](repeating: 0, count: unknowns * unknowns)
            sums = [Double](repeating: 0, count: 3 * unknowns)
            if saturation {
                cross = [Double](repeating: 0, count: 3 * unknowns * sk)
                saturationMatrix = [Double](repeating: 0, count: sk * sk)
                saturationSums = [Double](repeating: 0, count: sk)
            }
            matrix.withUnsafeMutableBufferPointer { m in
                sums.withUnsafeMutableBufferPointer { r in
                    cross.withUnsafeMutableBufferPointer { x in
                        saturationMatrix.withUnsafeMutableBufferPointer { hm in
                            saturationSums.withUnsafeMutableBufferPointer { hr in
                                // Raw buffers and fixed-size locals: this loop runs once per tally
                                // colour, millions on a large pair.
                                var index: (Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0)
                                var weight: SIMD8<Double> = .zero
                                for color in colors {
                                    let n = color.weight, after = space.encode(color.after)
                                    let before = space.encode(color.before)
                                    basis(before, index: &index, weight: &weight)
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
                                        guard saturation else { return }
                                        let (knot, fraction, away) = saturationTerm(before)
                                        let hw = SIMD2(1 - fraction, fraction)
                                        for a in 0..<6 {
                                            let wa = n * weight[a]
                                            guard wa != 0 else { continue }
                                            for channel in 0..<3 {
                                                let slot = (channel * unknowns + at[a]) * sk + knot
                                                x[slot] += wa * away[channel] * hw[0]
                                                x[slot + 1] += wa * away[channel] * hw[1]
                                            }
                                        }
                                        let squared = (away * away).sum(), projected = (away * after).sum()
                                        for i in 0..<2 {
                                            hr[knot + i] += n * hw[i] * projected
                                            for j in 0..<2 { hm[(knot + i) * sk + knot + j] += n * hw[i] * hw[j] * squared }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }

        mutating func add(_ other: DataSums) {
            for i in matrix.indices { matrix[i] += other.matrix[i] }
            for i in sums.indices { sums[i] += other.sums[i] }
            for i in cross.indices { cross[i] += other.cross[i] }
            for i in saturationMatrix.indices { saturationMatrix[i] += other.saturationMatrix[i] }
            for i in saturationSums.indices { saturationSums[i] += other.saturationSums[i] }
        }
    }

    /// For a colour in the model's space: the saturation curve's knot below its HSV saturation, the
    /// fraction of the way to the next, and each channel's distance from the largest channel
    /// (x_k - max, what h multiplies).
    @inline(__always)
    private static func saturationTerm(_ color: SIMD3<Double>) -> (Int, Double, SIMD3<Double>) {
        let (lower, fraction) = hat(saturation(of: color), knots: saturationKnots)
        return (lower, fraction, color - SIMD3(repeating: color.max()))
    }

    /// The model's colour for `color` (alpha lane 0), in sRGB codes. Called once per tally colour,
    /// so it allocates nothing.
    func callAsFunction(_ color: SIMD3<Double>) -> SIMD4<Double> {
        if form == .hueKeeping { return SIMD4(keepingHue(color), 0) }
        if case .luminance(let weights) = form {
            let (knot, fraction) = Self.luminanceKnot(color, weights: weights)
            let lower = SIMD4(values[0][knot], values[1][knot], values[2][knot], 0)
            let upper = SIMD4(values[0][knot + 1], values[1][knot + 1], values[2][knot + 1], 0)
            return (1 - fraction) * lower + fraction * upper
        }
        return SIMD4(space.decode(curves(space.encode(color))), 0)
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
        if !saturation.isEmpty {
            let (knot, fraction, away) = Self.saturationTerm(color)
            result += ((1 - fraction) * saturation[knot] + fraction * saturation[knot + 1]) * away
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

    /// The curves' knot below `value` (clamped to 0...1) and the fraction of the way to the next.
    @inline(__always)
    private static func hat(_ value: Double) -> (Int, Double) {
        hat(value, knots: knots)
    }
}
