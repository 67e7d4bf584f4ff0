import ColorCubeCore

/// A global model of an edit: a map of every sRGB colour with few unknowns, fitted to the same
/// tally as the lattice, which the lattice's smoothness penalty pulls towards where the photos are
/// silent (`LatticeSolver`). Each form holds one kind of edit and carries it over to colours the
/// pairs do not show:
///
/// - `ChannelCurvesModel`: per-channel curves and colour mixing in a `CurveSpace`, optionally with
///   an HSV saturation curve;
/// - `LuminanceCurvesModel`: one curve of the colour's luminance per output channel (black and
///   white, sepia, toning);
/// - `HueKeepingCurveModel`: a tone curve that keeps hue, then a change of saturation.
///
/// `GlobalModelChooser` fits the candidates and keeps one; the constants are in
/// `GlobalModelTuning`.
protocol GlobalModelForm: Sendable {
    /// The model's colour for `color` (alpha lane 0), in sRGB codes. Inputs outside 0...1 (and
    /// NaN) are read at the nearest end of each curve. Called once per tally colour and per
    /// lattice node, so it allocates nothing.
    func callAsFunction(_ color: SIMD3<Double>) -> SIMD4<Double>

    /// The same form, in the same space or with the same weights, fitted to `colors`.
    func refitted(to colors: [FitColor], totalWeight: UInt64) -> Self

    /// What the model is, as the report tells it.
    var summary: GlobalModelSummary { get }
}

extension GlobalModelForm {
    /// Sum over `colors` of weight times the squared distance between the model's colour and the
    /// after, in sRGB codes; two halves on two threads, added in order (the same sum whatever the
    /// cores).
    func squaredError(over colors: [FitColor]) -> Double {
        let halves = colors.count >= GlobalModelTuning.splitThreshold ? 2 : 1
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
}
