import ColorCubeCore

/// What `LookLearner.fit(size:smoothness:)` returns: the learned cube and how the fit reached it.
/// Pass it to `LookLearner.report(for:)` for how well it fits the pairs.
public struct LearnedLook: Sendable {
    /// The learned cube; alpha is 1, values may fall outside 0...1 where the edit pushes colours
    /// there.
    public var cube: ColorCube
    /// Conjugate-gradient iterations: one count per solve on the requested size (one solve, or two
    /// when the global model's form changed after the first; `ChromaBlocks.rounds` when an after
    /// stores chroma per block, `JPEGAfters.rounds` when a JPEG after is fitted to its
    /// coefficients).
    public var iterations: [Int]
    /// The smoothness the fit used: `LookLearner.effectiveSmoothness` of the one asked for.
    public var smoothness: Double
    /// The smoothness of the fit's last round: `smoothness`, or lower when the smoothness fell over
    /// the rounds of JPEG afters fitted to their coefficients.
    public var finalSmoothness: Double
    /// The global model the lattice was pulled towards where the photos are silent.
    public var model: GlobalModelSummary
    /// Whether every after was grey (`ColorTally.aftersAreGrey`): a black and white look, whose
    /// every node then takes the mean of its three channels (see `LookLearner.fit`).
    public var grey: Bool
}
