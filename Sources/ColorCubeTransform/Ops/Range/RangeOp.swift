/// A range: out = in * scale + offset, then clamped to `lower...upper` where those are set
/// (CLF's Range node, a .cube or .spi domain as an explicit step). The same for every channel.
///
/// NaN inputs clamp to `lower` when one is set and stay NaN otherwise.
public struct RangeOp: TransformOp {
    public let scale: Double
    public let offset: Double
    /// Outputs below this are raised to it; nil: no lower clamp.
    public let lower: Double?
    /// Outputs above this are lowered to it; nil: no upper clamp.
    public let upper: Double?

    /// - Throws: `TransformError.invalidOperation` for a non-finite value, a zero scale, or
    ///   `lower` above `upper`.
    public init(scale: Double = 1, offset: Double = 0, lower: Double? = nil, upper: Double? = nil) throws(TransformError) {
        guard scale.isFinite, offset.isFinite, scale != 0, lower?.isFinite ?? true, upper?.isFinite ?? true else {
            throw .invalidOperation(operation: "range", reason: "scale \(scale) and offset \(offset) must be finite and the scale not 0")
        }
        if let lower, let upper, lower > upper {
            throw .invalidOperation(operation: "range", reason: "clamp \(lower)...\(upper) is empty")
        }
        self.scale = scale
        self.offset = offset
        self.lower = lower
        self.upper = upper
    }

    /// The range mapping `inMin...inMax` onto `outMin...outMax`, clamped to the output ends when
    /// `clamps` (CLF's Range with all four values).
    public init(from inMin: Double, _ inMax: Double, to outMin: Double, _ outMax: Double, clamps: Bool = true) throws(TransformError) {
        guard inMax != inMin else {
            throw .invalidOperation(operation: "range", reason: "minInValue and maxInValue are both \(inMin)")
        }
        let scale = (outMax - outMin) / (inMax - inMin)
        try self.init(scale: scale, offset: outMin - inMin * scale,
                      lower: clamps ? min(outMin, outMax) : nil, upper: clamps ? max(outMin, outMax) : nil)
    }

    public func apply(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        var value = rgb * scale + offset
        for channel in 0..<3 {
            if let lower, !(value[channel] >= lower) { value[channel] = lower }
            if let upper, value[channel] > upper { value[channel] = upper }
        }
        return value
    }

    public var isPerChannel: Bool { true }

    public var isIdentity: Bool { scale == 1 && offset == 0 && lower == nil && upper == nil }

    /// The inverse scale and offset, clamped to the inputs that reach the clamps' ends: colours
    /// the clamp flattened cannot be recovered and come back at the clamp's edge.
    public func inverse() throws(TransformError) -> [any TransformOp] {
        let ends = [lower, upper].map { $0.map { ($0 - offset) / scale } }
        let low = scale > 0 ? ends[0] : ends[1], high = scale > 0 ? ends[1] : ends[0]
        return [try RangeOp(scale: 1 / scale, offset: -offset / scale, lower: low, upper: high)]
    }

    public var description: String {
        var text = "range: x * \(Describe.number(scale)) + \(Describe.number(offset))"
        if lower != nil || upper != nil {
            text += ", clamped to \(lower.map(Describe.number) ?? "-inf")...\(upper.map(Describe.number) ?? "inf")"
        }
        return text
    }
}
