import ColorCubeCore

/// How an engine runs a transform: through one lattice with per-channel curves around it
/// (`LatticeStages`) when that is exact, else as the chain's steps, one operation after another.
///
/// The lattice form is exact when the chain's middle is one 3D LUT (or nothing, or matrices, whose
/// bake measures under `bakingTolerance`: trilinear interpolation reproduces a linear map), and
/// nothing after the lattice is a 1D table (the output curves are tabulated,
/// which would smear a steep or stepped table). Otherwise the chain runs as steps, each evaluating
/// its own data: no baking behind the user's back.
public struct ChainPlan: Sendable {
    /// The chain split for the lattice form; nil when it runs as steps.
    public let stages: LatticeStages?
    /// True when the chain runs as its steps.
    public var runsAsSteps: Bool { stages == nil }
    /// Why it runs as steps, in words ("two 3D LUTs"); nil when it does not.
    public let reason: String?

    /// The largest baking error, in 8-bit codes, for which a baked middle is used: a quarter of a
    /// 16-bit code (0.25 / 257 of an 8-bit code).
    public static let bakingTolerance = 0.25 / 257

    /// Plans `transform` (with its lattices read as they will be, see `Transform.interpolating`).
    ///
    /// Only a middle of matrices is baked (trilinear interpolation reproduces a linear map, so
    /// its measured error is at Float32 rounding), and the bake is measured before it is used;
    /// any other middle that is not one 3D LUT runs as steps without being baked at all.
    /// - Throws: `TransformError.invalidBakeSize` only for a 3D LUT larger than the baker takes.
    public init(_ transform: Transform) throws(TransformError) {
        let operations = transform.optimized().operations
        let first = operations.firstIndex { !$0.isPerChannel }
        let last = operations.lastIndex { !$0.isPerChannel }
        if let first, let last {
            let middle = operations[first...last]
            let lattices = middle.filter { $0 is LUT3DOp }.count
            let oneLattice = middle.count == 1 && lattices == 1
            let linear = middle.allSatisfy { $0 is MatrixOp }
            if !oneLattice && !linear {
                self.stages = nil
                self.reason = lattices > 1 ? "\(lattices) 3D LUTs in a row"
                    : lattices == 1 ? "operations that mix channels beside its 3D LUT"
                    : "operations that mix channels and are not a matrix"
                return
            }
        }
        let stages = try LatticeStages(transform)
        if let error = stages.bakingError, error.maxCodes > Self.bakingTolerance {
            self.stages = nil
            self.reason = "one lattice would be up to \(Self.codes(error.maxCodes)) 8-bit codes off"
        } else if stages.output.operations.contains(where: { $0 is LUT1DOp }) {
            self.stages = nil
            self.reason = "a 1D table follows the lattice"
        } else if let error = Self.outputTableError(stages), error > Self.outputTableTolerance {
            self.stages = nil
            self.reason = "a curve after the lattice too steep for a table, up to \(Self.codes(error)) 16-bit codes off"
        } else {
            self.stages = stages
            self.reason = nil
        }
    }

    /// Samples per channel in the engine's table of the output curves, over the lattice's output
    /// range on that channel: 2^14 + 1.
    public static let outputTableSamples = (1 << 14) + 1

    /// The largest error, in 16-bit codes, for which the output curves are read from that table.
    public static let outputTableTolerance = 0.25

    /// How far the engine's table of the output curves strays from the curves, in 16-bit codes:
    /// the curves evaluated at a quarter, half and three quarters of every interval of the table,
    /// against the straight line between its samples; nil without output curves. A smooth curve
    /// is far under the tolerance; a power below 1 or a log near zero, whose slope has no bound
    /// there, is not, and the chain then runs as its steps.
    static func outputTableError(_ stages: LatticeStages) -> Double? {
        guard stages.hasOutputStage else { return nil }
        let range = stages.lattice.outputRange()
        let low = SIMD3<Double>(range.min), span = SIMD3<Double>(range.max) - low
        let intervals = outputTableSamples - 1
        // The output operations are per channel, so one evaluation reads all three curves.
        func value(_ position: Double) -> SIMD3<Double> {
            stages.output.apply(low + span * (position / Double(intervals)))
        }
        var largest = 0.0
        var previous = value(0)
        for interval in 0..<intervals {
            let next = value(Double(interval + 1))
            for quarter in 1...3 {
                let t = Double(quarter) / 4
                let difference = value(Double(interval) + t) - (previous + t * (next - previous))
                for channel in 0..<3 where span[channel] > 0 {
                    // NaN or infinity in the curve: a table cannot hold it either.
                    guard difference[channel].isFinite else { return .infinity }
                    largest = max(largest, abs(difference[channel]))
                }
            }
            previous = next
        }
        return largest * 65535
    }

    /// How the chain runs, in words for `info`.
    public var summary: String {
        guard let stages else {
            return "as its steps (\(reason ?? "")): each 3D LUT read from its own lattice, the other operations "
                + "in Float64 for 8-bit colours (remembered once evaluated), in Float32 for 16-bit and float pictures"
        }
        if stages.lattice is IdentityTable {
            return "as per-channel curves, exact for 8- and 16-bit input"
        }
        var parts: [String] = []
        if stages.hasInputStage { parts.append("input curves") }
        if let error = stages.bakingError {
            parts.append("one \(stages.lattice.size)-cube baked from the chain's matrices (up to "
                + "\(Self.codes(error.maxCodes)) 8-bit codes off)")
        } else {
            parts.append("its \(stages.lattice.size)-cube")
        }
        if stages.hasOutputStage { parts.append("output curves") }
        return "as " + parts.joined(separator: ", then ") + ", exact for 8- and 16-bit input"
    }

    /// A code difference with four decimals ("0.0012").
    private static func codes(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e12 else { return "\(value)" }
        let tenThousandths = Int((value * 10_000).rounded())
        let fraction = String(tenThousandths % 10_000)
        return "\(tenThousandths / 10_000)." + String(repeating: "0", count: 4 - fraction.count) + fraction
    }
}
