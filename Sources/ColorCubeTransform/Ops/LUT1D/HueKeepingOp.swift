/// A per-channel operation that keeps each colour's hue: CLF's `hueAdjust="dw3"` on a 1D LUT.
///
/// The channels are ordered by their input values (largest, middle, smallest), the operation is
/// applied to each channel, and the middle channel's output is then set so that it sits between
/// the other two outputs where its input sat between theirs:
/// `mid' = min' + (mid - min) / (max - min) * (max' - min')` (0 when the input is grey). The
/// order of equal channels, and of NaN, is OpenColorIO's, so ties resolve alike.
public struct HueKeepingOp: TransformOp {
    /// The per-channel operation (a 1D LUT, or the table of an inverse one).
    public let curves: any TransformOp

    /// - Throws: `TransformError.invalidOperation` when `curves` mixes channels.
    public init(_ curves: any TransformOp) throws(TransformError) {
        guard curves.isPerChannel else {
            throw .invalidOperation(operation: "hue adjustment", reason: "applies to per-channel curves, not to \(curves.description)")
        }
        self.curves = curves
    }

    /// Channel indices, read three at a time (largest, middle, smallest) from the index `order`
    /// makes of three comparisons (0 to 9); index 0 is reached only with a NaN, which it keeps
    /// defined.
    private static let ranks = [2, 1, 0, 2, 1, 0, 2, 1, 2, 0, 1, 2]

    /// The largest, middle and smallest channels of `rgb`, ties and NaN resolved as OpenColorIO
    /// resolves them.
    @inline(__always)
    static func order<T: BinaryFloatingPoint>(_ red: T, _ green: T, _ blue: T) -> (max: Int, mid: Int, min: Int) {
        let index = (red > green ? 5 : 0) + (green > blue ? 4 : 0) - (red > blue ? 3 : 0) + 3
        return (ranks[index], ranks[index + 1], ranks[index + 2])
    }

    /// `output` with its middle channel moved as the type's description says, in `T`.
    @inline(__always)
    static func keepHue<T: BinaryFloatingPoint>(input: SIMD3<T>, output: SIMD3<T>) -> SIMD3<T> {
        let (max, mid, min) = order(input.x, input.y, input.z)
        let chroma = input[max] - input[min]
        let factor = chroma == 0 ? 0 : (input[mid] - input[min]) / chroma
        var result = output
        result[mid] = factor * (output[max] - output[min]) + output[min]
        return result
    }

    public func apply(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        Self.keepHue(input: rgb, output: curves.apply(rgb))
    }

    /// The curves over the planes, then each colour's middle channel moved, in Float32 as
    /// OpenColorIO computes it.
    public func apply(red: UnsafeMutablePointer<Float>, green: UnsafeMutablePointer<Float>,
                      blue: UnsafeMutablePointer<Float>, count: Int) {
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 3 * count) { planes in
            guard let r = planes.baseAddress else { return }
            let g = r + count, b = g + count
            r.update(from: red, count: count)
            g.update(from: green, count: count)
            b.update(from: blue, count: count)
            curves.apply(red: red, green: green, blue: blue, count: count)
            for i in 0..<count {
                let kept = Self.keepHue(input: SIMD3(r[i], g[i], b[i]), output: SIMD3(red[i], green[i], blue[i]))
                red[i] = kept.x
                green[i] = kept.y
                blue[i] = kept.z
            }
        }
    }

    public var isPerChannel: Bool { false }

    public var isIdentity: Bool { curves.isIdentity }

    /// The inverse curves, hue kept the same way (as OpenColorIO inverts such a table).
    public func inverse() throws(TransformError) -> [any TransformOp] {
        let inverted = try curves.inverse()
        guard inverted.count == 1, let single = inverted.first else {
            throw .notInvertible(operation: "hue-adjusted 1D LUT", reason: "its curves invert to more than one operation")
        }
        return [try HueKeepingOp(single)]
    }

    public var description: String { curves.description + ", hue kept (dw3)" }
}
