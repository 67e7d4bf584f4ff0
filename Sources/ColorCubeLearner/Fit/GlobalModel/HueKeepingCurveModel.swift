/// The global model as a tone curve that keeps hue, as Adobe's and RawTherapee's film-like curves
/// apply it, then a change of saturation: in ProPhoto RGB, one curve c moves the largest and the
/// smallest channel, the middle one keeps its place between them in linear light, and the result
/// moves away from (or towards) its largest channel by a factor f, HSV style, itself a function of
/// the colour's HSV saturation (a vibrance raises pale colours more than saturated ones). A curve
/// per channel changes a colour's hue and saturation in ways that depend on how far apart its
/// channels are; this one does not, so from browns it carries over to blues. It fits the pairs
/// worse than the channel curves (it has 38 unknowns against 153), so `GlobalModelChooser` picks
/// it by how well it predicts each pair from the others, not by its fit.
struct HueKeepingCurveModel: GlobalModelForm {
    /// The tone curve c on `GlobalModelTuning.toneKnots` knots over ProPhoto RGB codes.
    private let curve: [Double]
    /// The saturation factor f on `GlobalModelTuning.factorKnots` knots over HSV saturation.
    private let factors: [Double]

    /// The saturation factor f averaged over HSV saturation (its knots).
    var saturationFactor: Double { factors.reduce(0, +) / Double(factors.count) }

    var summary: GlobalModelSummary {
        GlobalModelSummary(curveSpace: .proPhoto, changesSaturation: false, followsLuminance: false, keepsHue: true,
                           saturationFactor: saturationFactor)
    }

    /// The model fitted to `colors` (the total weight plays no part: the fit weighs the unclipped
    /// colours among themselves).
    func refitted(to colors: [FitColor], totalWeight: UInt64) -> HueKeepingCurveModel {
        HueKeepingCurveModel(colors: colors)
    }

    /// The model fitted to `colors`, where the curve acts: in ProPhoto RGB's coding, to the afters'
    /// largest and smallest channels (the middle one follows from them). The change of saturation
    /// keeps the largest channel, c(high), and puts the smallest at f c(low) + (1 - f) c(high), with
    /// f a piecewise linear function of the before colour's HSV saturation: linear in the curve for
    /// a given f, so the curve and f are solved together by Gauss-Newton steps from the identity
    /// (solving for one and then the other creeps: on photos of a few hues the curve's lower part
    /// can mimic a change of saturation).
    init(colors: [FitColor]) {
        typealias Tuning = GlobalModelTuning
        let k = Tuning.toneKnots, fk = Tuning.factorKnots, count = k + fk
        // Per colour: the knots below its largest and smallest channel (coded) and below its HSV
        // saturation, the fractions beyond them, and the after's values of those channels.
        struct Extremes {
            var weight: Double; var knots: SIMD3<Int>; var fractions: SIMD3<Double>; var after: SIMD2<Double>
        }
        // Afters clipped to sRGB's gamut (a channel at 0 or 1) are left out: the model's own colour
        // went beyond it, by an amount the after no longer tells.
        let unclipped = colors.filter { $0.after.min() > Tuning.clipMargin && $0.after.max() < 1 - Tuning.clipMargin }
        let extremes = unclipped.map { color -> Extremes in
            let before = CurveSpace.proPhoto.encode(color.before), after = CurveSpace.proPhoto.encode(color.after)
            let high = before.x >= before.y ? (before.x >= before.z ? 0 : 2) : (before.y >= before.z ? 1 : 2)
            let low = before.x < before.y ? (before.x < before.z ? 0 : 2) : (before.y < before.z ? 1 : 2)
            let (hk, hf) = KnotCurve.hat(before[high], knots: k), (lk, lf) = KnotCurve.hat(before[low], knots: k)
            let (sk, sf) = KnotCurve.hat(KnotCurve.hsvSaturation(of: before), knots: fk)
            return Extremes(weight: color.weight, knots: SIMD3(hk, lk, sk), fractions: SIMD3(hf, lf, sf),
                            after: SIMD2(after[high], after[low]))
        }
        let perPixel = 1 / max(unclipped.reduce(0) { $0 + $1.weight }, 1)
        var curve = (0..<k).map { Double($0) / Double(k - 1) }
        var factors = [Double](repeating: 1, count: fk)
        for _ in 0..<Tuning.hueKeepingSteps {
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
            KnotCurve.addSecondDifferences(to: &matrix, stride: count, curves: 1, knots: k, offset: 0,
                                           weight: Tuning.toneCurvature)
            KnotCurve.addSecondDifferences(to: &matrix, stride: count, curves: 1, knots: fk, offset: k,
                                           weight: Tuning.factorCurvature)
            for i in 0..<count {
                matrix[i * count + i] += Tuning.ridge
                rhs[i].x = rhs[i].x * perPixel + Tuning.ridge * (i < k ? Double(i) / Double(k - 1) : 1)
            }
            let solution = DenseCholesky(matrix: matrix, count: count).solve(rhs).map(\.x)
            curve = Array(solution[0..<k])
            factors = Array(solution[k...])
        }
        self.curve = curve
        self.factors = factors
    }

    /// The model's colour for `color`, in sRGB codes 0...1 (alpha lane 0).
    func callAsFunction(_ color: SIMD3<Double>) -> SIMD4<Double> {
        let coded = CurveSpace.proPhoto.encode(color)
        let high = coded.max(), low = coded.min()
        let linearHigh = CurveSpace.rommToLinear(high), linearLow = CurveSpace.rommToLinear(low)
        let outHigh = CurveSpace.rommToLinear(KnotCurve.value(curve, at: high))
        let outLow = CurveSpace.rommToLinear(KnotCurve.value(curve, at: low))
        var result = SIMD3<Double>.zero
        for channel in 0..<3 {
            let span = linearHigh - linearLow
            let place = span > 0 ? (CurveSpace.rommToLinear(coded[channel]) - linearLow) / span : 1
            result[channel] = CurveSpace.linearToROMM(outLow + place * (outHigh - outLow))
        }
        let largest = result.max()
        let factor = KnotCurve.value(factors, at: KnotCurve.hsvSaturation(of: coded))
        result = SIMD3(repeating: largest) + factor * (result - SIMD3(repeating: largest))
        // Clipped to sRGB as the editor's output is: the curve and the saturation push saturated
        // colours out of its gamut.
        return SIMD4(CurveSpace.proPhoto.decode(result).clamped(lowerBound: .zero, upperBound: .one), 0)
    }
}
