/// The colours global models are compared on: at most `GlobalModelTuning.selectionColors` of a
/// fit's colours, every k-th of the tally's order (which spreads them over the cube), with their
/// own total weight. Each candidate is fitted to the sample and the chosen one then to every
/// colour: a large pair's tally holds half a million colours, and the choice needs far fewer.
struct ModelSample {
    let colors: [FitColor]
    let totalWeight: UInt64
    /// Whether the sample is every colour.
    let isAll: Bool

    init(colors all: [FitColor], totalWeight: UInt64) {
        let step = max(1, all.count / GlobalModelTuning.selectionColors)
        isAll = step == 1
        colors = isAll ? all : stride(from: 0, to: all.count, by: step).map { all[$0] }
        self.totalWeight = isAll ? totalWeight : UInt64(max(1, colors.reduce(0) { $0 + $1.weight }.rounded()))
    }

    /// The channel curves, with the saturation curve when `changingSaturation`, fitted to the
    /// sample in the space where they lie closest to the afters in sRGB (the first space on a tie),
    /// and their mean squared error there.
    func closest(changingSaturation: Bool) -> (model: ChannelCurvesModel, error: Double) {
        var best = fitted(space: CurveSpace.allCases[0], changingSaturation: changingSaturation)
        for space in CurveSpace.allCases.dropFirst() {
            let found = fitted(space: space, changingSaturation: changingSaturation)
            if found.error < best.error { best = found }
        }
        return best
    }

    /// The channel curves fitted to the sample in `space`, and their mean squared error.
    func fitted(space: CurveSpace, changingSaturation: Bool) -> (model: ChannelCurvesModel, error: Double) {
        let model = ChannelCurvesModel(colors: colors, totalWeight: totalWeight, space: space,
                                       changingSaturation: changingSaturation)
        return (model, meanSquaredError(of: model))
    }

    /// The model's weighted mean squared distance in sRGB from the afters.
    func meanSquaredError(of model: some GlobalModelForm) -> Double {
        model.squaredError(over: colors) / Double(totalWeight)
    }

    /// `model`, fitted to the sample, fitted again to `all`, the colours the sample was taken from
    /// (the same model when the sample is all of them).
    func fitted<Model: GlobalModelForm>(_ model: Model, to all: [FitColor], totalWeight: UInt64) -> Model {
        isAll ? model : model.refitted(to: all, totalWeight: totalWeight)
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
