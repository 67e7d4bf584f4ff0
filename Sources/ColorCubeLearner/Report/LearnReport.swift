/// How well a look fits the pairs it was learned from, and whether the edit was a colour map.
public struct LearnReport: Sendable, Equatable {
    /// Pairs added.
    public var pairs: Int
    /// Pixels used (pixels with alpha 0 in either image are left out).
    public var pixels: Int
    /// Distinct 8-bit before colours among them.
    public var distinctColors: Int
    /// Lattice points per axis of the cube reported on.
    public var size: Int
    /// Share of the cube's (size-1)^3 lattice cells holding at least one before colour, 0...1.
    public var coverage: Double
    /// Pixels the errors below are measured on: a grid of up to 256 x 256 per pair.
    public var measuredPixels: Int
    /// Mean CIEDE2000 difference between the look applied to the before pixels and the after.
    public var meanDeltaE: Double
    /// 99th percentile of the same.
    public var percentile99DeltaE: Double
    /// The largest spread of the mean residual between 4 x 4 regions of one picture (L*a*b*).
    public var regionVariation: Double
    /// The pair with that spread.
    public var regionVariationPair: String?
    /// Pearson's r of the residual's L* with the before image's 1-pixel high-pass, and the L* it
    /// explains (RMS); then the same for the 8-pixel high-pass.
    public var fineDetail: (correlation: Double, amplitude: Double)
    public var broadDetail: (correlation: Double, amplitude: Double)
    /// How differently two pairs map the lightness of the colours both show (L*, see `PairAgreement`): the
    /// largest over every two pairs, 0 with one pair.
    public var pairDisagreement: Double = 0
    /// Signs that the edit was not a colour map; empty for a clean global edit.
    public var warnings: [LearnWarning]
    /// The after images' compression noise in 8-bit codes (`LookLearner.afterNoise`), 0 for
    /// lossless exports.
    public var afterNoise: Double = 0
    /// The smoothness the fit used: the one asked for, raised for noisy afters
    /// (`LookLearner.effectiveSmoothness`).
    public var smoothness: Double = 0
    /// The smoothness of the fit's last round: `smoothness`, or lower when JPEG afters were fitted
    /// to their stored coefficients (the smoothness then falls round by round to the one asked for).
    public var finalSmoothness: Double = 0
    /// The space whose curves modelled the edit best, which colours the pairs do not show follow
    /// (`GlobalModelSummary.curveSpace`).
    public var curveSpace: CurveSpace = .sRGB
    /// Whether that model changes saturation as an HSV saturation slider does, which colours the
    /// pairs do not show follow too (`GlobalModelSummary`).
    public var changesSaturation = false
    /// Whether that model maps each colour by its luminance alone (black and white, sepia or
    /// other toning of a grey image), which colours the pairs do not show follow too (`GlobalModelSummary`).
    public var followsLuminance = false
    /// Whether that model is a tone curve that keeps hue in ProPhoto RGB (Adobe's and
    /// RawTherapee's film-like curve) with a change of saturation by `saturationFactor` (averaged
    /// over HSV saturation: the factor may differ between pale and saturated colours).
    public var keepsHue = false
    public var saturationFactor = 1.0
    /// Whether every after was grey, so that the look maps every colour to a grey (black and white).
    public var grey = false

    public static func == (a: LearnReport, b: LearnReport) -> Bool {
        a.pairs == b.pairs && a.pixels == b.pixels && a.distinctColors == b.distinctColors && a.size == b.size
            && a.coverage == b.coverage && a.measuredPixels == b.measuredPixels && a.meanDeltaE == b.meanDeltaE
            && a.percentile99DeltaE == b.percentile99DeltaE && a.regionVariation == b.regionVariation
            && a.regionVariationPair == b.regionVariationPair && a.pairDisagreement == b.pairDisagreement && a.fineDetail == b.fineDetail
            && a.broadDetail == b.broadDetail && a.warnings == b.warnings && a.afterNoise == b.afterNoise
            && a.smoothness == b.smoothness && a.finalSmoothness == b.finalSmoothness && a.curveSpace == b.curveSpace
            && a.changesSaturation == b.changesSaturation && a.followsLuminance == b.followsLuminance
            && a.keepsHue == b.keepsHue && a.saturationFactor == b.saturationFactor && a.grey == b.grey
    }
}
