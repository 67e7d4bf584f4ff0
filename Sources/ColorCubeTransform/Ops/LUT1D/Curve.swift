/// One channel of a 1D LUT: output values at input positions, linearly interpolated between them.
///
/// The inputs are either evenly spaced over a range (every .cube, .spi1d and CLF table) or listed
/// one by one, strictly increasing (a Cinespace pre-LUT, a CLF half-domain table whose inputs are
/// every finite half-float value, an inverted table). Inputs below the first position read the
/// first output and inputs above the last read the last (a 1D LUT clamps to its domain); NaN reads
/// as the first position.
public struct Curve: Sendable, Equatable {
    /// Where the outputs sit on the input axis.
    public enum Inputs: Sendable, Equatable {
        /// `outputs.count` positions evenly spaced from `lowerBound` to `upperBound`.
        case uniform(ClosedRange<Double>)
        /// One position per output, strictly increasing.
        case points([Double])
    }

    public let inputs: Inputs
    /// At least two values.
    public let outputs: [Double]

    /// - Throws: `TransformError.invalidOperation` for fewer than two outputs, a non-finite value,
    ///   an empty uniform range, or points that are not strictly increasing or not one per output.
    public init(inputs: Inputs, outputs: [Double]) throws(TransformError) {
        guard outputs.count >= 2 else {
            throw .invalidOperation(operation: "1D LUT", reason: "a curve needs at least 2 entries, found \(outputs.count)")
        }
        if let bad = outputs.firstIndex(where: { !$0.isFinite }) {
            throw .invalidOperation(operation: "1D LUT", reason: "entry \(bad) is \(outputs[bad]), not a finite number")
        }
        switch inputs {
        case .uniform(let range):
            guard range.lowerBound.isFinite, range.upperBound.isFinite, range.upperBound > range.lowerBound else {
                throw .invalidOperation(operation: "1D LUT", reason: "input range \(range.lowerBound)...\(range.upperBound) is empty")
            }
        case .points(let points):
            guard points.count == outputs.count else {
                throw .invalidOperation(operation: "1D LUT",
                                        reason: "\(points.count) input positions for \(outputs.count) outputs")
            }
            for index in 1..<points.count where !(points[index] > points[index - 1]) || !points[index].isFinite {
                throw .invalidOperation(operation: "1D LUT",
                                        reason: "input positions must increase: \(points[index - 1]) then \(points[index])")
            }
        }
        self.inputs = inputs
        self.outputs = outputs
    }

    /// The identity on `range`: two entries, the range's ends.
    public static func identity(over range: ClosedRange<Double> = 0...1) -> Curve {
        // Two finite, ordered values: the initialiser cannot fail.
        (try? Curve(inputs: .uniform(range), outputs: [range.lowerBound, range.upperBound]))
            ?? Curve(unchecked: .uniform(0...1), outputs: [0, 1])
    }

    private init(unchecked inputs: Inputs, outputs: [Double]) {
        self.inputs = inputs
        self.outputs = outputs
    }

    /// `apply(_:)` over `count` values in place, the table read once: the same results.
    public func apply(to values: UnsafeMutablePointer<Double>, count: Int) {
        guard case .uniform(let range) = inputs else {
            for i in 0..<count { values[i] = apply(values[i]) }
            return
        }
        let last = outputs.count - 1, low = range.lowerBound, width = range.upperBound - range.lowerBound
        outputs.withUnsafeBufferPointer { table in
            guard let table = table.baseAddress else { return }
            for i in 0..<count {
                var t = (values[i] - low) / width
                if !(t > 0) { t = 0 }  // also NaN
                if t > 1 { t = 1 }
                let position = t * Double(last)
                let lower = min(Int(position), last - 1)
                let fraction = position - Double(lower)
                values[i] = table[lower] + (table[lower + 1] - table[lower]) * fraction
            }
        }
    }

    /// The curve's value at `x`, linearly interpolated; clamped to the first and last entries.
    public func apply(_ x: Double) -> Double {
        let last = outputs.count - 1
        switch inputs {
        case .uniform(let range):
            var t = (x - range.lowerBound) / (range.upperBound - range.lowerBound)
            if !(t > 0) { t = 0 }  // also NaN
            if t > 1 { t = 1 }
            let position = t * Double(last)
            let lower = min(Int(position), last - 1)
            let fraction = position - Double(lower)
            return outputs[lower] + (outputs[lower + 1] - outputs[lower]) * fraction
        case .points(let points):
            guard x > points[0] else { return outputs[0] }  // also NaN
            guard x < points[last] else { return outputs[last] }
            // The last position at or below x: a binary search over the increasing positions.
            var low = 0, high = last
            while high - low > 1 {
                let middle = (low + high) / 2
                if points[middle] <= x { low = middle } else { high = middle }
            }
            let fraction = (x - points[low]) / (points[low + 1] - points[low])
            return outputs[low] + (outputs[low + 1] - outputs[low]) * fraction
        }
    }

    /// The input positions, one per output.
    public var positions: [Double] {
        switch inputs {
        case .uniform(let range):
            let last = Double(outputs.count - 1)
            return outputs.indices.map { range.lowerBound + (range.upperBound - range.lowerBound) * Double($0) / last }
        case .points(let points):
            return points
        }
    }

    /// The first input position to the last: inputs outside read the end values.
    public var domain: ClosedRange<Double> {
        switch inputs {
        case .uniform(let range): range
        case .points(let points): points[0]...points[points.count - 1]
        }
    }

    /// True when the curve returns every input in its domain unchanged.
    public var isIdentity: Bool {
        zip(positions, outputs).allSatisfy { abs($0 - $1) <= 1e-12 }
    }

    /// The inverse curve: positions and outputs swapped. A decreasing curve is read backwards; a
    /// flat run (equal outputs) maps back to its middle input.
    /// - Throws: `TransformError.notInvertible` when the curve rises and falls (no single input
    ///   per output) or is flat throughout.
    public func inverse() throws(TransformError) -> Curve {
        var xs = positions, ys = outputs
        let rising = (ys.last ?? 0) >= (ys.first ?? 0)
        if !rising {
            xs.reverse()
            ys.reverse()
        }
        var points: [Double] = [], values: [Double] = []
        var index = 0
        while index < ys.count {
            var end = index
            while end + 1 < ys.count, ys[end + 1] == ys[index] { end += 1 }
            if let previous = points.last, ys[index] < previous {
                throw .notInvertible(operation: "1D LUT", reason: "the curve is not monotonic near input "
                    + "\(xs[index]) (output \(ys[index]) after \(previous)): some outputs have two inputs")
            }
            points.append(ys[index])
            values.append((xs[index] + xs[end]) / 2)
            index = end + 1
        }
        guard points.count >= 2 else {
            throw .notInvertible(operation: "1D LUT", reason: "the curve is flat: every input gives \(ys[0])")
        }
        // Flat runs at the ends map back to their outer end, so the whole domain is reached.
        values[0] = rising ? xs.first ?? values[0] : values[0]
        return try Curve(inputs: .points(points), outputs: values)
    }
}
