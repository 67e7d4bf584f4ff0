import ColorCubeCore

/// A transform split into the shape the engine runs: per-channel curves, one lattice, per-channel
/// curves. This is how a chain is applied without baking error where it can be: a Resolve .cube
/// (1D shaper, 3D LUT), a CLF with 1D LUTs around its 3D LUT, a .csp with its pre-LUT, a 1D-only
/// look or a CDL without saturation all fit exactly.
///
/// - `input` takes a colour in 0...1 to the lattice coordinate (0...1 per channel): the chain's
///   leading per-channel operations, then the lattice's domain mapping.
/// - `lattice` is read at that coordinate.
/// - `output` is the chain's trailing per-channel operations.
///
/// Where the middle of the chain is more than one 3D LUT (a matrix before the lattice, two 3D
/// LUTs, a CDL's saturation), the middle is baked into one lattice of `bakeSize` over the range
/// the input curves reach, and `bakingError` says how far that is from the exact chain.
public struct LatticeStages: Sendable {
    /// The leading per-channel operations and the domain mapping, as one function per channel.
    public let input: Transform
    /// The lattice's own domain (mapped to 0...1 by `inputCoordinate`).
    public let latticeMin: SIMD3<Double>
    public let latticeMax: SIMD3<Double>
    /// The lattice, over its domain.
    public let lattice: any CubeTable & Sendable
    /// The trailing per-channel operations.
    public let output: Transform
    /// Set when the middle of the chain had to be baked.
    public let bakingError: BakingError?

    /// True when there is nothing before the lattice and its domain is 0...1.
    public var hasInputStage: Bool {
        !input.operations.isEmpty || latticeMin != SIMD3(repeating: 0) || latticeMax != SIMD3(repeating: 1)
    }

    /// True when something follows the lattice.
    public var hasOutputStage: Bool { !output.operations.isEmpty }

    /// The lattice coordinate (0...1, clamped) of channel `channel` of an input value.
    public func inputCoordinate(channel: Int, _ value: Double) -> Double {
        let shaped = input.apply(SIMD3(repeating: value))[channel]
        let t = (shaped - latticeMin[channel]) / (latticeMax[channel] - latticeMin[channel])
        return t > 0 ? min(t, 1) : 0
    }

    /// Channel `channel` of the output stage at `value`.
    public func outputValue(channel: Int, _ value: Double) -> Double {
        output.apply(SIMD3(repeating: value))[channel]
    }

    /// The size a middle that is not one plain 3D LUT is baked to, unless a 3D LUT in it is larger.
    public static let bakeSize = 65

    /// Splits `transform` (see the type's description).
    /// - Throws: `TransformError.invalidBakeSize` only for a 3D LUT larger than the baker takes.
    public init(_ transform: Transform) throws(TransformError) {
        let operations = transform.optimized().operations
        let first = operations.firstIndex { !$0.isPerChannel }
        let last = operations.lastIndex { !$0.isPerChannel }
        guard let first, let last else {
            // Per channel throughout: an identity lattice (exact under trilinear interpolation) with
            // the whole chain after it, so that values outside 0...1 survive.
            self.input = Transform()
            self.latticeMin = SIMD3(repeating: 0)
            self.latticeMax = SIMD3(repeating: 1)
            self.lattice = IdentityTable.unitCube
            self.output = Transform(operations)
            self.bakingError = nil
            return
        }
        let leading = Transform(Array(operations[..<first]))
        let middle = Transform(Array(operations[first...last]))
        self.output = Transform(Array(operations[(last + 1)...]))
        if first == last, let lattice = operations[first] as? LUT3DOp {
            self.input = leading
            self.latticeMin = lattice.domainMin
            self.latticeMax = lattice.domainMax
            self.lattice = lattice.table
            self.bakingError = nil
            return
        }
        // The middle is baked over the range the leading curves reach from inputs in 0...1.
        var low = SIMD3<Double>(repeating: .infinity), high = SIMD3<Double>(repeating: -.infinity)
        for step in 0...4096 {
            let value = leading.apply(SIMD3(repeating: Double(step) / 4096))
            low = pointwiseMin(low, value)
            high = pointwiseMax(high, value)
        }
        for channel in 0..<3 where !(high[channel] > low[channel]) {
            high[channel] = low[channel] + 1
        }
        let size = max(Self.bakeSize, middle.lattices.map(\.size).max() ?? 0)
        let domainLow = low, span = high - low
        let onUnitCube = Transform([RangeMapping(low: domainLow, span: span)]).then(middle)
        let baked = try TransformBaker.bake(onUnitCube, size: size)
        self.input = leading
        self.latticeMin = low
        self.latticeMax = high
        self.lattice = baked
        self.bakingError = TransformBaker.measure(baked, against: onUnitCube)
    }

    /// Maps 0...1 onto `low...low + span` per channel: the baked middle's domain.
    private struct RangeMapping: TransformOp {
        let low: SIMD3<Double>
        let span: SIMD3<Double>

        func apply(_ rgb: SIMD3<Double>) -> SIMD3<Double> { low + rgb * span }
        var isPerChannel: Bool { true }
        func inverse() throws(TransformError) -> [any TransformOp] { [] }
        var description: String { "domain mapping" }
    }
}
