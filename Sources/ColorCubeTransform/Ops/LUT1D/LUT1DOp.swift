/// A 1D LUT: one `Curve` per channel (red, green, blue), each applied to its own channel.
///
/// Readers replicate a one-column table to all three channels. The curves may differ in length
/// and domain (a Cinespace pre-LUT lists its own input points per channel).
public struct LUT1DOp: TransformOp {
    /// Red, green and blue.
    public let curves: [Curve]

    /// - Throws: `TransformError.invalidOperation` unless there are exactly three curves.
    public init(curves: [Curve]) throws(TransformError) {
        guard curves.count == 3 else {
            throw .invalidOperation(operation: "1D LUT", reason: "needs 3 curves (red, green, blue), found \(curves.count)")
        }
        self.curves = curves
    }

    /// Evenly spaced entries over one input range for all three channels.
    /// - Parameter entries: per entry, the red, green and blue outputs.
    public init(entries: [SIMD3<Double>], inputRange: ClosedRange<Double> = 0...1) throws(TransformError) {
        var curves: [Curve] = []
        for channel in 0..<3 {
            curves.append(try Curve(inputs: .uniform(inputRange), outputs: entries.map { $0[channel] }))
        }
        self.curves = curves
    }

    public func apply(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(curves[0].apply(rgb.x), curves[1].apply(rgb.y), curves[2].apply(rgb.z))
    }

    /// Each plane through its channel's curve (`Curve.apply(to:count:)`).
    public func apply(red: UnsafeMutablePointer<Double>, green: UnsafeMutablePointer<Double>,
                      blue: UnsafeMutablePointer<Double>, count: Int) {
        curves[0].apply(to: red, count: count)
        curves[1].apply(to: green, count: count)
        curves[2].apply(to: blue, count: count)
    }

    public var isPerChannel: Bool { true }

    /// True when every curve returns its inputs and its domain holds every finite half-float (a
    /// CLF half-domain table): a table over a narrower domain clamps to it.
    public var isIdentity: Bool {
        curves.allSatisfy { $0.isIdentity && $0.domain.lowerBound <= -65504 && $0.domain.upperBound >= 65504 }
    }

    /// A table whose curves return their inputs over one shared domain is the clamp to that
    /// domain; over different domains it stays a table.
    public var optimizedForm: [any TransformOp] {
        if isIdentity { return [] }
        let domain = curves[0].domain
        guard curves.allSatisfy({ $0.isIdentity && $0.domain == domain }),
              let clamp = try? RangeOp(lower: domain.lowerBound, upper: domain.upperBound) else { return [self] }
        return [clamp]
    }

    public func inverse() throws(TransformError) -> [any TransformOp] {
        var inverted: [Curve] = []
        for curve in curves { inverted.append(try curve.inverse()) }
        return [try LUT1DOp(curves: inverted)]
    }

    public var description: String {
        let counts = Set(curves.map(\.outputs.count))
        let entries = counts.count == 1 ? "\(curves[0].outputs.count) entries" : "\(curves.map { String($0.outputs.count) }.joined(separator: "/")) entries"
        let domain: String
        switch curves[0].inputs {
        case .uniform(let range): domain = "domain \(Describe.number(range.lowerBound))...\(Describe.number(range.upperBound))"
        case .points(let points): domain = "inputs listed, \(Describe.number(points.first ?? 0))...\(Describe.number(points.last ?? 0))"
        }
        return "1D LUT, \(entries), \(domain)"
    }
}
