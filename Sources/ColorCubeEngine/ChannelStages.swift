import ColorCubeTransform

/// Per-channel curves before and after the lattice (nil: none). Channel 0 is red, 1 green, 2 blue.
///
/// The common shape of a look file: per-channel 1D stage -> 3D lattice -> per-channel 1D stage
/// (a Resolve .cube shaper, a CLF chain, a .csp prelut). `LUTEngine` evaluates the closures only
/// while it is made, into tables, so a stage costs nothing per pixel when absent and little when
/// present:
///
/// - Input stage, 8-bit input: exact. Each code's lattice node and fraction come from
///   `input(channel, code / 255)` evaluated in Double, folded into the per-code tables the kernel
///   reads anyway.
/// - Input stage, 16-bit input: exact. A 65,536-entry table per channel of node and fraction,
///   from `input(channel, code / 65535)` in Double.
/// - Input stage, Float input: the input is clamped to 0...1 (NaN to 0), then read from a dense
///   table of `floatInputSamples` (65,537) values per channel, linearly interpolated. Error at most
///   h^2/8 * max|input''| with h = 2^-16 (3.7e-11 * max|input''|), plus the table's Float32
///   rounding (half an ulp of the value).
/// - Output stage: a dense table per channel over the range the lattice can output on that channel
///   (the lattice's own minimum ... maximum on it, which bounds every trilinear and tetrahedral
///   result), `outputSamples` (16,385) samples, linearly interpolated. Error at most
///   h^2/8 * max|output''| with h = (max - min) / 16384, plus half an ulp of Float32: for a range of
///   1 that is 4.7e-10 * max|output''|, far under 1/65535 for any curve with |output''| < 30,000.
///   `ChainPlan` measures it and runs the chain as steps where a curve is steeper than that.
///   A channel whose lattice values are all equal reads the curve at that one value.
public struct ChannelStages: Sendable {
    /// Maps an input value (already clamped to 0...1 for integer inputs; Float inputs: clamped to
    /// 0...1, NaN read as 0) to the lattice coordinate in 0...1 (the kernel clamps the result to
    /// 0...1, and reads NaN as 0).
    public var input: (@Sendable (_ channel: Int, _ value: Double) -> Double)?
    /// Applied to each lattice output channel (before strength mixing and rounding).
    public var output: (@Sendable (_ channel: Int, _ value: Double) -> Double)?

    /// - Parameters:
    ///   - input: the curve before the lattice, or nil for none.
    ///   - output: the curve after the lattice, or nil for none.
    public init(input: (@Sendable (_ channel: Int, _ value: Double) -> Double)? = nil,
                output: (@Sendable (_ channel: Int, _ value: Double) -> Double)? = nil) {
        self.input = input
        self.output = output
    }

    /// No stages: the lattice alone.
    public static let none = ChannelStages()

    /// Samples per channel in the Float input table: 2^16 + 1, so that 0, 1 and every multiple of
    /// 2^-16 between are sampled exactly.
    public static let floatInputSamples = (1 << 16) + 1

    /// Samples per channel in the output table: 2^14 + 1 (`ChainPlan` measures the table's error
    /// before it plans the lattice form).
    public static let outputSamples = ChainPlan.outputTableSamples
}
