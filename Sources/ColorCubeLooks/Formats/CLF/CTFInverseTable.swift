import ColorCubeTransform

/// One channel of a CTF `InverseLUT1D` evaluated by OpenColorIO 2.6's rules: the input at which
/// the forward table, interpolated linearly, gives a value.
///
/// The forward table (its entries divided by the node's `inBitDepth` scale, held as Float32 as
/// OpenColorIO holds them) is first made monotonic: its direction is that of its first and last
/// entries (of the entries at 0 and 1 for a half-domain table; a flat table counts as
/// decreasing), and every entry that goes against it is lowered or raised to the one before, so a
/// table that rises and falls has a flat stretch instead of two inputs for one output. A flat
/// stretch at either end is dropped from the search, so its value maps to the end nearest the
/// middle of the table; a flat stretch inside maps to its first input in the search order. Values
/// beyond the table's range clamp to its ends.
///
/// A half-domain table is searched in two halves: inputs from +0 up (for values on the side of
/// the +0 entry the table rises towards) and from -0 down, each with its own flat ends; between
/// adjacent half values the input is interpolated linearly.
///
/// This is not `Curve.inverse()`, which maps a flat run to its middle and refuses a curve that
/// rises and falls: that stays the inverse of every other path, and this one is OpenColorIO's.
struct CTFInverseTable {
    /// The entries searched, in increasing order: the monotonic table, negated where it falls (for
    /// a half-domain table, the negative half negated the other way).
    private let searched: [Float]
    /// The forward table made monotonic, as OpenColorIO compares it with a LUT1D's.
    let monotonic: [Float]
    let halfDomain: Bool
    /// Whether the table rises from its first entry (from +0 for a half-domain table).
    let isIncreasing: Bool
    /// The first and last index searched, past the flat stretches at the ends.
    let start: Int, end: Int
    /// The same for the negative half of a half-domain table (indices 32768 and up).
    private let negativeStart: Int, negativeEnd: Int
    /// The +0 entry: in a half-domain table, which half a value is searched in.
    private let bisectPoint: Float
    /// True when some monotonic entry lies outside 0...1 (with OpenColorIO's tolerance of 1e-5).
    let hasExtendedRange: Bool

    /// Half-float patterns of the table's landmarks.
    private static let one = 15360, positiveInfinity = 31744, negativeZero = 32768, negativeInfinity = 64512

    /// - Parameters:
    ///   - entries: the forward table, at least two entries, or 65536 when `halfDomain` (one per
    ///     half-float bit pattern).
    ///   - halfDomain: whether the table's inputs are the half-float values themselves.
    init(entries: [Double], halfDomain: Bool) {
        var values = entries.map { Float($0) }
        self.halfDomain = halfDomain
        let last = values.count - 1
        isIncreasing = values[0] < values[halfDomain ? Self.one : last]
        if halfDomain {
            Self.flattenReversals(&values, from: 1, through: Self.positiveInfinity, increasing: isIncreasing, previous: values[0])
            // The negative half runs from -0 outwards and so the other way; it starts from +0.
            Self.flattenReversals(&values, from: Self.negativeZero, through: Self.negativeInfinity,
                                  increasing: !isIncreasing, previous: values[0])
            // The ends stop short of infinity: 65504 and -65504 are the largest finite inputs.
            (start, end) = Self.searchedRange(values, from: 0, to: Self.positiveInfinity - 1)
            (negativeStart, negativeEnd) = Self.searchedRange(values, from: Self.negativeZero, to: Self.negativeInfinity - 1)
        } else {
            Self.flattenReversals(&values, from: 1, through: last, increasing: isIncreasing, previous: values[0])
            (start, end) = Self.searchedRange(values, from: 0, to: last)
            (negativeStart, negativeEnd) = (0, 0)
        }
        bisectPoint = values[0]
        monotonic = values
        hasExtendedRange = values.contains { !$0.isNaN && ($0 < -1e-5 || $0 > 1 + 1e-5) }
        let increasing = isIncreasing
        searched = values.indices.map { index in
            let negativeHalf = halfDomain && index >= Self.negativeZero
            return increasing != negativeHalf ? values[index] : -values[index]
        }
    }

    /// Lowers (for a rising table) or raises every entry in `first...last` that goes against the
    /// table's direction to the entry before it.
    private static func flattenReversals(_ values: inout [Float], from first: Int, through last: Int, increasing: Bool, previous: Float) {
        var previous = previous
        for index in first...last {
            if increasing != (values[index] > previous) {
                values[index] = previous
            } else {
                previous = values[index]
            }
        }
    }

    /// `first...last` without the flat stretches at its ends (for a flat table, `first...first`).
    private static func searchedRange(_ values: [Float], from first: Int, to last: Int) -> (Int, Int) {
        var end = last
        while end > first, values[end - 1] == values[last] { end -= 1 }
        var start = first
        while start < end, values[start + 1] == values[first] { start += 1 }
        return (start, end)
    }

    /// The input whose forward output is `value` (in the units of the forward table's outputs),
    /// in Float32 as OpenColorIO computes it. `negativeHalfIncreasing` is the direction the
    /// negative half of a half-domain table is searched in: the table's own, except that
    /// OpenColorIO takes the blue channel's from the red channel.
    func input(for value: Float, negativeHalfIncreasing: Bool? = nil) -> Float {
        let flip: Float = isIncreasing ? 1 : -1
        guard halfDomain else {
            let (index, delta) = search(value, from: start, to: end, flip: flip)
            return (Float(index) + delta) * (1 / Float(searched.count - 1))
        }
        let (index, delta): (Int, Float)
        if isIncreasing == (value >= bisectPoint) {
            (index, delta) = search(value, from: start, to: end, flip: flip)
        } else {
            (index, delta) = search(value, from: negativeStart, to: negativeEnd, flip: (negativeHalfIncreasing ?? isIncreasing) ? -1 : 1)
        }
        // Indices are half-float patterns: interpolate between the two half values.
        let base = Float(Self.halfValue(index)), next = Float(Self.halfValue(index + 1))
        return base + delta * (next - base)
    }

    /// The last searched index at or below `value * flip` (clamped to the searched range) and the
    /// fraction of the way to the next one; a flat step gives fraction 0.
    private func search(_ value: Float, from first: Int, to last: Int, flip: Float) -> (Int, Float) {
        var target = value * flip
        if target < searched[first] { target = searched[first] }
        if searched[last] < target { target = searched[last] }
        // The first entry in first..<last not below the target (last when none is).
        var low = first, high = last
        while low < high {
            let middle = (low + high) / 2
            if searched[middle] < target { low = middle + 1 } else { high = middle }
        }
        let lower = low > first ? low - 1 : low
        let upper = lower < last ? lower + 1 : lower
        let delta = searched[upper] > searched[lower] ? (target - searched[lower]) / (searched[upper] - searched[lower]) : 0
        return (lower, delta)
    }

    /// OpenColorIO's default rendering of an inverse 1D LUT (red, green, blue): the exact
    /// inverse (`input(for:)`) baked into a forward table it then interpolates linearly. The
    /// table has one entry per code value of `codes` evenly spaced over 0...1 (inputs beyond
    /// clamp), or, when `codes` is nil (a float depth) or some channel's entries lie outside
    /// 0...1, one per finite half-float value.
    /// - Throws: `TransformError.invalidOperation` when no entry of a channel is finite.
    static func bakedCurves(_ tables: [CTFInverseTable], codes: Int?) throws(TransformError) -> [Curve] {
        let halfInputs = codes == nil || tables.contains(where: \.hasExtendedRange)
        let inputs: [Double]
        if halfInputs {
            inputs = HalfFloat.finitePatternsInOrder.map { HalfFloat.value(bits: $0) }
        } else {
            let last = Double((codes ?? 2) - 1)
            inputs = (0...Int(last)).map { Double(Float(Double($0) / last)) }
        }
        var curves: [Curve] = []
        for (channel, table) in tables.enumerated() {
            // OpenColorIO searches the blue channel's negative half in the red channel's direction.
            let negative = channel == 2 ? tables[0].isIncreasing : table.isIncreasing
            var outputs = inputs.map { Double(table.input(for: Float($0), negativeHalfIncreasing: negative)) }
            // A value no input reaches (a half-domain search ending at infinity) takes its neighbour's.
            guard let firstFinite = outputs.first(where: \.isFinite) else {
                throw .invalidOperation(operation: "inverse 1D LUT", reason: "no entry of channel \(channel + 1) is finite")
            }
            var previous = firstFinite
            for index in outputs.indices {
                if outputs[index].isFinite { previous = outputs[index] } else { outputs[index] = previous }
            }
            curves.append(try Curve(inputs: halfInputs ? .points(inputs) : .uniform(0...1), outputs: outputs))
        }
        return curves
    }

    /// The half float with bit pattern `bits` (taken modulo 65536).
    private static func halfValue(_ bits: Int) -> Double {
        HalfFloat.value(bits: UInt16(truncatingIfNeeded: bits))
    }
}
