/// A Camera Raw RGB table (a Lightroom or Camera Raw "profile") with the conversions Camera Raw
/// wraps it in, evaluated as Adobe's DNG SDK's reference renderer evaluates it.
///
/// Input and output are linear ProPhoto RGB. For each colour:
/// 1. `primaries.toTable` (none for ProPhoto) and a clamp to 0...1; with `gamut` `.extend`, the
///    part clamped away is kept aside;
/// 2. `gamma`'s encoding, through the SDK's 4097-sample curve (`RGBTableCurve`);
/// 3. the table: a 3D table read by tetrahedral interpolation (samples are 16-bit, blue
///    varying fastest), or a 1D table per channel read linearly;
/// 4. the amount: `in + amount · (table − in)` in the encoded values, clamped to 0...1;
/// 5. the decoding curve, the part kept aside added back, `primaries.fromTable`, and a clamp of
///    the result to 0...1.
///
/// For a 1D table the SDK folds steps 2 to 5's curves into one 4097-sample curve per channel;
/// this op does the same, so the results agree to Float32 rounding. Inputs outside 0...1 and
/// NaN are clamped in step 1 (Camera Raw never hands the table such values).
public struct RGBTableOp: TransformOp {
    /// The largest 3D table the format holds (points per side), and the largest 1D table.
    public static let largest3D = 32
    public static let largest1D = 4096

    /// 1 or 3.
    public let dimensions: Int
    /// Points per side.
    public let divisions: Int
    /// Three 16-bit values per point, blue index fastest then green then red (the payload's
    /// order, identity deltas already added back); `divisions` points for a 1D table.
    public let samples: [UInt16]
    public let primaries: RGBTablePrimaries
    public let gamma: RGBTableGamma
    public let gamut: RGBTableGamut
    /// The amounts the table allows (its profile's slider range), 0...1 and 1...2.
    public let amountRange: ClosedRange<Double>
    /// The amount applied, rounded to 0.01 and clamped to `amountRange`, as the SDK does.
    public let amount: Double

    private let toTable: [SIMD3<Double>]?
    private let fromTable: [SIMD3<Double>]?
    private let encode: RGBTableCurve?
    private let decode: RGBTableCurve?
    /// For a 1D table: the per-channel curves with the gamma and the amount folded in.
    private let channelCurves: [RGBTableCurve]

    /// - Throws: `TransformError.invalidOperation` when `dimensions` is not 1 or 3, `divisions`
    ///   is outside 2...32 (3D) or 2...4096 (1D), `samples` does not hold three values per point,
    ///   or the amount range is not within 0...1 and 1...2.
    public init(dimensions: Int, divisions: Int, samples: [UInt16], primaries: RGBTablePrimaries,
                gamma: RGBTableGamma, gamut: RGBTableGamut, amountRange: ClosedRange<Double> = 0...2,
                amount: Double = 1) throws(TransformError) {
        let largest = dimensions == 3 ? Self.largest3D : Self.largest1D
        guard dimensions == 1 || dimensions == 3 else {
            throw .invalidOperation(operation: "RGB table", reason: "it has \(dimensions) dimensions, not 1 or 3")
        }
        guard (2...largest).contains(divisions) else {
            throw .invalidOperation(operation: "RGB table", reason: "\(divisions) points per side is outside 2...\(largest)")
        }
        let points = dimensions == 3 ? divisions * divisions * divisions : divisions
        guard samples.count == 3 * points else {
            throw .invalidOperation(operation: "RGB table", reason: "\(samples.count) values for \(points) points of 3")
        }
        guard (0...1).contains(amountRange.lowerBound), (1...2).contains(amountRange.upperBound) else {
            throw .invalidOperation(operation: "RGB table",
                                    reason: "amount range \(amountRange) is not within 0...1 to 1...2")
        }
        self.dimensions = dimensions
        self.divisions = divisions
        self.samples = samples
        self.primaries = primaries
        self.gamma = gamma
        self.gamut = gamut
        self.amountRange = amountRange
        self.amount = min(max((amount * 100).rounded() / 100, amountRange.lowerBound), amountRange.upperBound)
        toTable = primaries.toTable
        fromTable = primaries.fromTable
        if dimensions == 3 {
            encode = gamma == .linear ? nil : RGBTableCurve(gamma.encode)
            decode = gamma == .linear ? nil : RGBTableCurve(gamma.decode)
            channelCurves = []
        } else {
            encode = nil
            decode = nil
            let (gamma, amount) = (gamma, self.amount)
            channelCurves = (0..<3).map { channel in
                RGBTableCurve { x in
                    let mapped = Self.oneDimensional(samples, divisions: divisions, channel: channel, at: gamma.encode(x))
                    let blended = gamma.encode(x) + amount * (mapped - gamma.encode(x))
                    return gamma == .linear ? blended : gamma.decode(blended)
                }
            }
        }
    }

    /// The same table at another amount (rounded to 0.01, clamped to `amountRange`).
    public func withAmount(_ amount: Double) -> RGBTableOp {
        // The data was checked when `self` was made; only the amount changes.
        (try? RGBTableOp(dimensions: dimensions, divisions: divisions, samples: samples, primaries: primaries,
                         gamma: gamma, gamut: gamut, amountRange: amountRange, amount: amount)) ?? self
    }

    public func apply(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        var value = rgb
        var aside = SIMD3<Double>.zero
        if let toTable {
            let converted = SIMD3(Self.dot(toTable[0], value), Self.dot(toTable[1], value), Self.dot(toTable[2], value))
            value = Self.clamped(converted)
            if gamut == .extend, converted.x.isFinite, converted.y.isFinite, converted.z.isFinite {
                aside = converted - value
            }
        } else {
            value = Self.clamped(value)
        }
        if dimensions == 3 {
            if let encode { value = SIMD3(encode(value.x), encode(value.y), encode(value.z)) }
            let looked = lookUp(value)
            if amount != 1 { value = Self.clamped(value + amount * (looked - value)) } else { value = looked }
            if let decode { value = SIMD3(decode(value.x), decode(value.y), decode(value.z)) }
        } else {
            value = SIMD3(channelCurves[0](value.x), channelCurves[1](value.y), channelCurves[2](value.z))
        }
        guard let fromTable else { return value }
        value += aside
        return Self.clamped(SIMD3(Self.dot(fromTable[0], value), Self.dot(fromTable[1], value), Self.dot(fromTable[2], value)))
    }

    /// The 3D table at encoded coordinates in 0...1, by tetrahedral interpolation.
    func lookUp(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        let strideB = 3, strideG = 3 * divisions, strideR = 3 * divisions * divisions
        let (corners, weights) = Self.tetrahedron(rgb, divisions: divisions, strides: SIMD3(strideR, strideG, strideB))
        var result = SIMD3<Double>.zero
        for channel in 0..<3 {
            var sum = 0.0
            for corner in 0..<4 { sum += weights[corner] * Double(samples[corners[corner] + channel]) }
            result[channel] = sum / 65535
        }
        return result
    }

    /// The four corners (offsets by `strides` of red, green, blue) and weights with which a 3D
    /// table of `divisions` is read at `rgb` (0...1; the last cell holds 1): the corners walk
    /// from the cell's origin along the axes in the order of the fractions, largest first.
    public static func tetrahedron(_ rgb: SIMD3<Double>, divisions: Int,
                                   strides: SIMD3<Int>) -> (corners: SIMD4<Int>, weights: SIMD4<Double>) {
        let scaled = rgb * Double(divisions - 1)
        let last = divisions - 2
        let r = min(Int(scaled.x), last), g = min(Int(scaled.y), last), b = min(Int(scaled.z), last)
        let fr = scaled.x - Double(r), fg = scaled.y - Double(g), fb = scaled.z - Double(b)
        let (strideR, strideG, strideB) = (strides.x, strides.y, strides.z)
        let (first, second, f1, f2, f3): (Int, Int, Double, Double, Double)
        if fg >= fr {
            if fb >= fg { (first, second, f1, f2, f3) = (strideB, strideB + strideG, fb, fg, fr) }
            else if fb >= fr { (first, second, f1, f2, f3) = (strideG, strideG + strideB, fg, fb, fr) }
            else { (first, second, f1, f2, f3) = (strideG, strideG + strideR, fg, fr, fb) }
        } else {
            if fb >= fr { (first, second, f1, f2, f3) = (strideB, strideB + strideR, fb, fr, fg) }
            else if fb >= fg { (first, second, f1, f2, f3) = (strideR, strideR + strideB, fr, fb, fg) }
            else { (first, second, f1, f2, f3) = (strideR, strideR + strideG, fr, fg, fb) }
        }
        let base = r * strideR + g * strideG + b * strideB
        return (SIMD4(base, base + first, base + second, base + strideR + strideG + strideB), SIMD4(1 - f1, f1 - f2, f2 - f3, f3))
    }

    /// A 1D table's channel at an encoded value in 0...1, read linearly.
    private static func oneDimensional(_ samples: [UInt16], divisions: Int, channel: Int, at x: Double) -> Double {
        let scaled = x * Double(divisions - 1)
        let index = min(max(Int(scaled), 0), divisions - 2)
        let fraction = scaled - Double(index)
        let low = Double(samples[3 * index + channel]), high = Double(samples[3 * (index + 1) + channel])
        return ((1 - fraction) * low + fraction * high) / 65535
    }

    private static func dot(_ row: SIMD3<Double>, _ value: SIMD3<Double>) -> Double {
        row.x * value.x + row.y * value.y + row.z * value.z
    }

    /// Each channel clamped to 0...1, NaN to 0.
    private static func clamped(_ value: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3((0..<3).map { channel in value[channel] > 0 ? min(value[channel], 1) : 0 })
    }

    public var isPerChannel: Bool { false }

    public var isIdentity: Bool { false }

    /// A table is inverted numerically, with the chain around it (`TransformInverter`).
    public func inverse() throws(TransformError) -> [any TransformOp] {
        throw .needsNumericalInverse
    }

    public var description: String {
        let size = dimensions == 3 ? "\(divisions)x\(divisions)x\(divisions)" : "\(divisions) points"
        return "Camera Raw RGB table \(dimensions)D \(size), \(primaries.name) primaries, \(gamma.name), \(gamut.name) gamut, amount \(Describe.number(amount))"
    }
}
