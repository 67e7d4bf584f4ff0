import ColorCubeCore

/// How an engine runs a transform: through one lattice with per-channel curves around it
/// (`LatticeStages`) when that is exact, else as the chain's steps, one operation after another.
///
/// The lattice form is exact when the chain's middle is one 3D LUT (or nothing, or a part whose
/// bake measures under `bakingTolerance`: a matrix alone is linear, and trilinear interpolation
/// reproduces it), and nothing after the lattice is a 1D table (the output curves are tabulated,
/// which would smear a steep or stepped table). Otherwise the chain runs as steps, each evaluating
/// its own data: no baking behind the user's back.
public struct ChainPlan: Sendable {
    /// The chain split for the lattice form (measured, whether or not it is used).
    public let stages: LatticeStages
    /// True when the chain runs as its steps.
    public let runsAsSteps: Bool

    /// The largest baking error, in 8-bit codes, for which a baked middle is used: a quarter of a
    /// 16-bit code (0.25 / 257 of an 8-bit code).
    public static let bakingTolerance = 0.25 / 257

    /// Plans `transform` (with its lattices read as they will be, see `Transform.interpolating`).
    /// - Throws: `TransformError.invalidBakeSize` only for a 3D LUT larger than the baker takes.
    public init(_ transform: Transform) throws(TransformError) {
        let stages = try LatticeStages(transform)
        self.stages = stages
        let bakedTooFar = (stages.bakingError?.maxCodes ?? 0) > Self.bakingTolerance
        let tableAfter = stages.output.operations.contains { $0 is LUT1DOp }
        self.runsAsSteps = bakedTooFar || tableAfter
    }

    /// How the chain runs, in words for `info`.
    public var summary: String {
        if runsAsSteps {
            let why = (stages.bakingError?.maxCodes ?? 0) > Self.bakingTolerance
                ? "one lattice would be up to \(Self.codes(stages.bakingError?.maxCodes ?? 0)) 8-bit codes off"
                : "a 1D table follows the lattice"
            return "as its steps, each in Float64 (\(why)); 8-bit colours are remembered once evaluated"
        }
        if stages.lattice is IdentityTable {
            return "as per-channel curves, exact for 8- and 16-bit input"
        }
        var parts: [String] = []
        if stages.hasInputStage { parts.append("input curves") }
        if let error = stages.bakingError {
            parts.append("one \(stages.lattice.size)-cube baked from the middle of the chain (up to "
                + "\(Self.codes(error.maxCodes)) 8-bit codes off)")
        } else {
            parts.append("its \(stages.lattice.size)-cube")
        }
        if stages.hasOutputStage { parts.append("output curves") }
        return "as " + parts.joined(separator: ", then ") + ", exact for 8- and 16-bit input"
    }

    /// A code difference with four decimals ("0.0012").
    private static func codes(_ value: Double) -> String {
        let tenThousandths = Int((value * 10_000).rounded())
        let fraction = String(tenThousandths % 10_000)
        return "\(tenThousandths / 10_000)." + String(repeating: "0", count: 4 - fraction.count) + fraction
    }
}
