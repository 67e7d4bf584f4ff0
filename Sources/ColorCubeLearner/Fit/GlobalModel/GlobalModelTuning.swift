/// The global models' tuning constants, each with the reason for its value. The forms and the
/// chooser read them from here and nowhere else (see <doc:LearningALook> for the figures behind
/// the choices).
enum GlobalModelTuning {
    // MARK: Curves and channel mixing (`ChannelCurvesModel`)

    /// Knots of each channel curve over 0...1: 17 makes 3 x 17 unknowns per output channel, which
    /// two photos almost always cover even where they leave most of the cube empty.
    static let knots = 17
    /// Weight of the curves' squared second derivative: bends a curve only where the pixels ask.
    static let curvature = 1e-5
    /// Ridge towards the identity: settles the constant the three curves of a channel share, and
    /// any curve the photos do not touch, without moving what the pixels fix.
    static let ridge = 1e-7

    // MARK: The HSV saturation curve of `ChannelCurvesModel`

    /// Knots of the saturation curve h over HSV saturation 0...1: a factor, far smoother than a
    /// tone curve, so fewer knots.
    static let saturationKnots = 9
    /// Weight of h's squared second derivative: h is a factor, smoother than the curves.
    static let saturationCurvature = 1e-4
    /// Ridge on the mixing curves of a model with h: on photos of a few hues mixing and h explain
    /// the same pixels, and only h carries over to hues where another channel is the largest.
    static let saturationMixingRidge = 1e-4

    // MARK: Luminance curves and the hue-keeping curve

    /// Knots of the luminance curves and of the hue-keeping curve: finer than the channel curves,
    /// as one curve carries the whole tone of the edit.
    static let toneKnots = 33
    /// Weight of those curves' squared second derivative: a hundredth of the channel curves', as a
    /// sepia's dark browns bend sharply and every photo covers the curve's range.
    static let toneCurvature = 1e-7
    /// Knots of the hue-keeping model's saturation factor over HSV saturation: a vibrance differs
    /// between pale and saturated colours, and no more finely than that.
    static let factorKnots = 5
    /// Weight of that factor's squared second derivative: as smooth as the saturation curve h.
    static let factorCurvature = 1e-4
    /// How near 0 or 1 an after's channel counts as clipped, half an 8-bit code: a clipped after no
    /// longer tells how far beyond the gamut the edit took the colour.
    static let clipMargin = 0.5 / 255
    /// Gauss-Newton steps of the hue-keeping fit: the curve and the factor settle within a few.
    static let hueKeepingSteps = 6

    // MARK: Choosing a form (`GlobalModelChooser`)

    /// The share of a simpler model's error (above the floor) a richer one must stay under to be
    /// chosen: a small gain on the pairs (hue-dependent edits, noise) would be carried into every
    /// unseen hue.
    static let richerFormGain = 0.7
    /// Colours the candidates are compared on, at most: a large pair's tally holds half a million
    /// colours, and the choice needs far fewer.
    static let selectionColors = 1 << 16

    // MARK: Speed

    /// Colours above which the data sums run on two threads: below it a second thread costs more
    /// than it saves.
    static let splitThreshold = 1 << 16
}
