/// Chooses the global model's form on evidence from the pairs, and refits it round by round: every
/// rule that picks one `GlobalModelForm` over another is here.
///
/// 1. Candidates are fitted to a `ModelSample` of the colours: the channel curves in the
///    `CurveSpace` where they lie closest to the afters (`curves`), the same with the HSV
///    saturation curve in that space (`saturationCurves`), and the closer of the luminance curves
///    under D65 and D50 weights (`luminance`).
/// 2. Before the first solve (`init`): the saturation curve is kept when it saves enough against
///    the plain curves, then the luminance curves when they save enough against that
///    (`savesEnough`, with no floor).
/// 3. After the first solve (`reconsider`): the same rule above the floor the fitted lattice
///    leaves on the sample (the noise of lossy afters, which no model removes); then, with two
///    pairs or more, the hue-keeping curve when it predicts each pair from the others better than
///    the form so chosen (`HueKeepingCurveModel` fits the pairs worse than curves by its nature,
///    so its fit cannot judge it).
/// 4. Later rounds (`refit`) keep the form and fit it to the round's colours, the channel curves'
///    space chosen again: fitted to a round's targets, which follow the last lattice and so the
///    last model, a richer form would always look better.
struct GlobalModelChooser {
    /// The forms a model can take.
    enum Form: Equatable, Sendable {
        /// `ChannelCurvesModel` without the saturation curve.
        case curves
        /// `ChannelCurvesModel` with the saturation curve.
        case saturationCurves
        /// `LuminanceCurvesModel`.
        case luminance
        /// `HueKeepingCurveModel`.
        case hueKeeping
    }

    /// The colours the candidates are compared on.
    let sample: ModelSample
    /// The candidates as fitted to the sample.
    private let candidates: Candidates
    /// The form chosen.
    private(set) var form: Form
    /// The model chosen, fitted to every colour.
    private(set) var model: any GlobalModelForm

    /// Fits the candidates to a sample of `colors` and chooses among them with no floor; the model
    /// is then fitted to every colour.
    init(colors: [FitColor], totalWeight: UInt64) {
        sample = ModelSample(colors: colors, totalWeight: totalWeight)
        candidates = Candidates(sample)
        form = candidates.choice(floor: 0)
        model = sample.fitted(candidates.model(of: form, sample: sample), to: colors, totalWeight: totalWeight)
    }

    /// Chooses again above the floor the lattice leaves on the sample (`latticeValue`, the fitted
    /// lattice's colour for a before colour), and with two pairs or more lets the hue-keeping curve
    /// compete on predicting each pair from the others (`pairs`, each pair's colours). A new form
    /// is fitted to every colour of `colors`. Returns whether the form changed.
    mutating func reconsider(latticeValue: (SIMD3<Double>) -> SIMD3<Double>, pairs: [[FitColor]],
                             colors: [FitColor], totalWeight: UInt64) -> Bool {
        let floor = sample.residual(latticeValue)
        var better = candidates.choice(floor: floor)
        var betterModel = candidates.model(of: better, sample: sample)
        if pairs.count >= 2 {
            let keepingHue = HueKeepingCurveModel(colors: sample.colors)
            if Self.predictsPairsBetter(keepingHue, than: betterModel, pairs: pairs) {
                better = .hueKeeping
                betterModel = keepingHue
            }
        }
        guard better != form else { return false }
        form = better
        model = sample.fitted(betterModel, to: colors, totalWeight: totalWeight)
        return true
    }

    /// The chosen form fitted to a later round's colours; the channel curves' space is chosen
    /// again on a sample of them.
    mutating func refit(to colors: [FitColor], totalWeight: UInt64) {
        switch form {
        case .curves, .saturationCurves:
            let roundSample = ModelSample(colors: colors, totalWeight: totalWeight)
            let closest = roundSample.closest(changingSaturation: form == .saturationCurves).model
            model = roundSample.fitted(closest, to: colors, totalWeight: totalWeight)
        case .luminance, .hueKeeping:
            model = model.refitted(to: colors, totalWeight: totalWeight)
        }
    }

    /// Whether a richer model whose error is `richer` is to be chosen over a simpler one whose
    /// error is `simpler`: its error above `floor` must stay under `GlobalModelTuning.richerFormGain`
    /// of the other's. `floor` is the part of the error no model removes, the noise of lossy
    /// afters, which the fitted lattice itself leaves; without it a noisy pair's error would hide
    /// what the richer model gains. The margin is wanted: on colours the photos do not show a
    /// richer model extrapolates, and one that fits the pairs a little better (an edit that
    /// depends on hue, noise) would carry that into every unseen hue.
    static func savesEnough(_ richer: Double, against simpler: Double, floor: Double) -> Bool {
        let kept = max(0, min(floor, simpler))
        return richer - kept < GlobalModelTuning.richerFormGain * (simpler - kept)
    }

    /// Whether `candidate`'s form, fitted to all pairs but one, predicts that one's colours better
    /// than `model`'s form does, summed over the pairs. This judges what a model is for, the
    /// colours the pairs do not show, where its fit to them cannot: a richer model always fits the
    /// pairs better.
    private static func predictsPairsBetter(_ candidate: any GlobalModelForm, than model: any GlobalModelForm,
                                            pairs: [[FitColor]]) -> Bool {
        func predictionError(_ form: any GlobalModelForm) -> Double {
            pairs.indices.reduce(0) { sum, held in
                let others = pairs.indices.filter { $0 != held }.flatMap { pairs[$0] }
                let fitted = form.refitted(to: others, totalWeight: UInt64(others.count))
                return sum + fitted.squaredError(over: pairs[held]) / Double(max(pairs[held].count, 1))
            }
        }
        return predictionError(candidate) < predictionError(model)
    }

    /// The sample's candidates, each with its mean squared error there: the channel curves in the
    /// space where they lie closest, the same with the saturation curve in that space, and the
    /// closer of the luminance curves.
    private struct Candidates {
        let curves: (model: ChannelCurvesModel, error: Double)
        let saturationCurves: (model: ChannelCurvesModel, error: Double)
        let luminance: (model: LuminanceCurvesModel, error: Double)

        init(_ sample: ModelSample) {
            curves = sample.closest(changingSaturation: false)
            func fitted(_ weights: LuminanceWeights) -> (model: LuminanceCurvesModel, error: Double) {
                let model = LuminanceCurvesModel(colors: sample.colors, totalWeight: sample.totalWeight,
                                                 weights: weights)
                return (model, sample.meanSquaredError(of: model))
            }
            var closest = fitted(LuminanceWeights.allCases[0])
            for weights in LuminanceWeights.allCases.dropFirst() {
                let found = fitted(weights)
                if found.error < closest.error { closest = found }
            }
            luminance = closest
            saturationCurves = sample.fitted(space: curves.model.space, changingSaturation: true)
        }

        /// The saturation curves when they save enough above `floor` against the plain curves,
        /// else the plain curves; and the luminance curves instead when they save enough against
        /// that (`savesEnough`).
        func choice(floor: Double) -> Form {
            let saturating = GlobalModelChooser.savesEnough(saturationCurves.error, against: curves.error, floor: floor)
            let chosen = saturating ? (form: Form.saturationCurves, error: saturationCurves.error)
                : (form: Form.curves, error: curves.error)
            return GlobalModelChooser.savesEnough(luminance.error, against: chosen.error, floor: floor)
                ? .luminance : chosen.form
        }

        /// The candidate of `form` as fitted to the sample; the hue-keeping curve, no candidate
        /// before `reconsider`, fitted to it here.
        func model(of form: Form, sample: ModelSample) -> any GlobalModelForm {
            switch form {
            case .curves: curves.model
            case .saturationCurves: saturationCurves.model
            case .luminance: luminance.model
            case .hueKeeping: HueKeepingCurveModel(colors: sample.colors)
            }
        }
    }
}
