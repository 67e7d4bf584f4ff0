import Foundation

/// The RGB space in which a global model's curves act (`ChannelCurvesModel`).
///
/// Editors apply tone and channel curves in their own working space: ImageMagick, G'MIC, libvips
/// and most of Photoshop on the image's sRGB codes; RawTherapee and Lightroom in ProPhoto RGB. A
/// curve per channel in ProPhoto RGB is not a curve per channel in sRGB: it moves a saturated blue
/// differently from a brown of the same codes. Fitted in the space the editor worked in, curves
/// learned from the colours two photos show carry over to the colours they do not; so the learner
/// fits the model in each space and keeps the one that fits the pairs best.
public enum CurveSpace: CaseIterable, Sendable {
    /// The sRGB codes themselves, 0...1.
    case sRGB
    /// ProPhoto RGB (ROMM RGB): D50 white, the wide primaries of ISO 22028-2, encoded with its
    /// 1.8 power and linear toe below 1/512.
    case proPhoto

    /// The space's name, for people.
    public var name: String {
        switch self {
        case .sRGB: "sRGB"
        case .proPhoto: "ProPhoto RGB"
        }
    }

    /// The colour's coordinates in this space, from sRGB codes 0...1 (an sRGB colour lands in
    /// 0...1 in either space).
    @inline(__always)
    func encode(_ color: SIMD3<Double>) -> SIMD3<Double> {
        switch self {
        case .sRGB:
            return color
        case .proPhoto:
            let linear = SIMD3(Self.srgbToLinear(color.x), Self.srgbToLinear(color.y), Self.srgbToLinear(color.z))
            let romm = Self.times(Self.srgbToROMM, linear)
            return SIMD3(Self.linearToROMM(romm.x), Self.linearToROMM(romm.y), Self.linearToROMM(romm.z))
        }
    }

    /// The sRGB codes of a colour given in this space; outside the sRGB gamut they leave 0...1.
    @inline(__always)
    func decode(_ color: SIMD3<Double>) -> SIMD3<Double> {
        switch self {
        case .sRGB:
            return color
        case .proPhoto:
            let romm = SIMD3(Self.rommToLinear(color.x), Self.rommToLinear(color.y), Self.rommToLinear(color.z))
            let linear = Self.times(Self.rommToSRGB, romm)
            return SIMD3(Self.linearToSRGB(linear.x), Self.linearToSRGB(linear.y), Self.linearToSRGB(linear.z))
        }
    }

    /// Linear sRGB (D65) to linear ROMM RGB (D50), with Bradford adaptation between the whites:
    /// the sRGB to XYZ matrix, then Bradford D65 to D50, then XYZ to ROMM RGB. Each row sums to 1,
    /// so white stays white.
    private static let srgbToROMM: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>) = (
        SIMD3(0.5293458493, 0.3300727999, 0.1405812391),
        SIMD3(0.0983743964, 0.8734610766, 0.0281647021),
        SIMD3(0.0168831868, 0.1176724674, 0.8654442687))
    /// Its inverse.
    private static let rommToSRGB = inverse(srgbToROMM)

    @inline(__always)
    private static func times(_ m: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>), _ v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3((m.0 * v).sum(), (m.1 * v).sum(), (m.2 * v).sum())
    }

    private static func inverse(_ m: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>))
        -> (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>) {
        let (a, b, c) = m
        // Rows of the inverse are the columns of the adjugate over the determinant.
        let c0 = SIMD3(b.y * c.z - b.z * c.y, b.z * c.x - b.x * c.z, b.x * c.y - b.y * c.x)
        let c1 = SIMD3(a.z * c.y - a.y * c.z, a.x * c.z - a.z * c.x, a.y * c.x - a.x * c.y)
        let c2 = SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
        let determinant = (a * c0).sum()
        return (SIMD3(c0.x, c1.x, c2.x) / determinant, SIMD3(c0.y, c1.y, c2.y) / determinant,
                SIMD3(c0.z, c1.z, c2.z) / determinant)
    }

    // The four transfer functions, tabulated over 0...1 (the model runs them a few times per tally
    // colour, hundreds of thousands of colours per fit) and exact outside it, odd around 0.
    static let srgbToLinear = TransferTable { x in x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4) }
    static let linearToSRGB = TransferTable { y in y <= 0.0031308 ? y * 12.92 : 1.055 * pow(y, 1 / 2.4) - 0.055 }
    static let rommToLinear = TransferTable { x in x < 16.0 / 512 ? x / 16 : pow(x, 1.8) }
    static let linearToROMM = TransferTable { y in y < 1.0 / 512 ? y * 16 : pow(y, 1 / 1.8) }
}

/// A transfer function sampled at 4096 even steps over 0...1 and read with linear interpolation
/// there (within 2e-5 of the function for the curves above); outside 0...1 the function itself,
/// extended as an odd function below 0.
struct TransferTable: Sendable {
    private static let steps = 4096
    private let samples: [Double]
    private let function: @Sendable (Double) -> Double

    init(_ function: @escaping @Sendable (Double) -> Double) {
        self.function = function
        samples = (0...Self.steps).map { function(Double($0) / Double(Self.steps)) }
    }

    @inline(__always)
    func callAsFunction(_ x: Double) -> Double {
        guard x >= 0, x <= 1 else {
            return x < 0 ? -function(-x) : function(x)
        }
        let position = x * Double(Self.steps)
        let lower = min(Int(position), Self.steps - 1)
        let fraction = position - Double(lower)
        return samples.withUnsafeBufferPointer { s in s[lower] + fraction * (s[lower + 1] - s[lower]) }
    }
}
