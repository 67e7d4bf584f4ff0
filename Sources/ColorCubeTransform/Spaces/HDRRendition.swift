import Foundation

/// Where HDR video meets SDR, as ITU-R BT.2408 sets it: HDR reference white, 203 cd/m² (75% of
/// the HLG signal, 58% of PQ's), is SDR's 1.0, SDR's display curve is BT.1886's gamma 2.4 and its
/// primaries are BT.709's.
///
/// An HDR signal's *SDR rendition* is its display light in BT.709 primaries with reference white at
/// 1.0 (`linear(signal:)`), encoded with the inverse of gamma 2.4 (`sdrCode(linear:)`): the code
/// values an SDR clip of the same scene holds, which is what an SDR look expects. Linear values
/// above 1.0 are highlights brighter than reference white; negative ones are colours outside
/// BT.709. Both directions are exact inverses of each other.
///
/// PQ signals are display light (ST 2084, absolute). HLG signals are scene light: BT.2100's OOTF
/// for a 1000 cd/m² display (system gamma 1.2) gives their display light, as the studio config's
/// `Rec.2100-HLG - Display` does, so that 75% HLG is 203 cd/m².
public struct HDRRendition: Sendable {
    /// The HDR signal's transfer function.
    public enum Signal: String, Sendable, CaseIterable {
        /// SMPTE ST 2084, absolute display light up to 10,000 cd/m².
        case pq
        /// ARIB STD-B67 (BT.2100 HLG), scene light shown on a 1000 cd/m² display.
        case hlg

        /// "PQ" or "HLG".
        public var title: String { self == .pq ? "PQ" : "HLG" }
    }

    /// HDR reference white in cd/m²: SDR's 1.0.
    public static let referenceWhite = 203.0
    /// SDR's display gamma (BT.1886 with a zero black level).
    public static let sdrGamma = 2.4
    /// The nominal peak of an HLG display, and the peak assumed for a PQ clip that states none.
    public static let nominalPeak = 1000.0

    public let signal: Signal
    /// The signal's primaries (BT.2020 for BT.2100 video; P3-D65 for some PQ masters).
    public let gamut: Gamut
    /// Signal to display light in `gamut`, 1.0 = 100 cd/m², and back.
    private let decoding: Transform
    private let encoding: Transform
    /// Display light in `gamut` to BT.709 with reference white at 1.0, and back.
    private let toRendition: [SIMD3<Double>]
    private let fromRendition: [SIMD3<Double>]

    public init(signal: Signal, gamut: Gamut = Gamuts.rec2020) {
        self.signal = signal
        self.gamut = gamut
        let decoding: [any TransformOp] = switch signal {
        case .pq: [TransferFunctionOp(.pq, .decode)]
        case .hlg: [TransferFunctionOp(.hlg, .decode), HLGSystemGammaOp(peak: Self.nominalPeak)]
        }
        self.decoding = Transform(decoding)
        encoding = Transform(decoding.reversed().flatMap { (try? $0.inverse()) ?? [] })
        let scale = 100 / Self.referenceWhite
        toRendition = gamut.matrix(to: Gamuts.rec709).map { $0 * scale }
        fromRendition = Matrix3.inverse(toRendition)
    }

    /// The rendition's linear light (BT.709, reference white 1.0) of a signal's code values (0...1).
    public func linear(signal code: SIMD3<Double>) -> SIMD3<Double> {
        Matrix3.multiply(toRendition, decoding.apply(code))
    }

    /// The signal's code values for the rendition's linear light.
    public func signal(linear: SIMD3<Double>) -> SIMD3<Double> {
        encoding.apply(Matrix3.multiply(fromRendition, linear))
    }

    /// The rows of the matrix from the signal's display light (in `gamut`, 1.0 = 100 cd/m²) to the
    /// rendition's linear light, for callers that evaluate the curves themselves.
    public var renditionMatrix: [SIMD3<Double>] { toRendition }

    /// The rows of `renditionMatrix`'s inverse.
    public var inverseRenditionMatrix: [SIMD3<Double>] { fromRendition }

    /// SDR's code value for linear light: the inverse of gamma 2.4, mirrored below 0.
    public static func sdrCode(linear value: Double) -> Double {
        value < 0 ? -pow(-value, 1 / sdrGamma) : pow(value, 1 / sdrGamma)
    }

    /// SDR's linear light for a code value: gamma 2.4, mirrored below 0.
    public static func sdrLinear(code value: Double) -> Double {
        value < 0 ? -pow(-value, sdrGamma) : pow(value, sdrGamma)
    }

    /// How far a colour's brightest channel is above reference white (1 at or below it): a
    /// highlight divided by it is the colour at reference white with the same hue and saturation,
    /// which is where an SDR look's change is taken for it.
    public static func headroom(_ linear: SIMD3<Double>) -> Double {
        max(1, linear.max())
    }

    /// BT.709 luminance weights.
    public static let luminance = SIMD3<Double>(0.2126, 0.7152, 0.0722)

    /// A colour of the rendition brought inside BT.709's gamut: where a channel is negative, the
    /// colour is desaturated toward its own luminance (kept) just far enough to bring it to 0.
    /// Colours inside the gamut are returned as they are; black for no light at all.
    public static func gamutMapped(_ linear: SIMD3<Double>) -> SIMD3<Double> {
        let low = linear.min()
        guard low < 0 else { return linear }
        let y = (luminance * linear).sum()
        guard y > 0 else { return .zero }
        let keep = y / (y - low)
        return SIMD3(repeating: y) + (linear - SIMD3(repeating: y)) * keep
    }
}

/// How HDR highlights are rolled off into SDR's range: a colour whose brightest channel is at or
/// below the knee (80% of reference white) is kept as it is; above it, that channel follows
/// Reinhard's extended operator on the part above the knee, scaled so that the source's peak
/// lands on SDR's 1.0 with the curve's slope continuous at the knee; the other channels are scaled
/// with it, so hue and saturation stay.
///
///     t = (m - k) / (1 - k),  T = (peak - k) / (1 - k)
///     m' = k + (1 - k) * t (1 + t / T²) / (1 + t)
///
/// A source whose peak is at or below reference white is only clipped at 1.0.
public struct HighlightRollOff: Sendable, Equatable {
    /// Where the curve leaves the identity, in units of reference white.
    public static let knee = 0.8

    /// The source's brightest light, in units of reference white.
    public let peak: Double

    /// - Parameter peak: the source's brightest light in cd/m² (its content light level or
    ///   mastering display's peak; 1000 when it says neither).
    public init(peakLuminance peak: Double) {
        self.peak = max(peak, 1) / HDRRendition.referenceWhite
    }

    /// The rolled-off value of a colour's brightest channel `value` (units of reference white).
    public func apply(_ value: Double) -> Double {
        let k = Self.knee
        guard value > k else { return value }
        guard peak > 1 else { return min(value, 1) }
        let t = (value - k) / (1 - k), limit = (peak - k) / (1 - k)
        return min(1, k + (1 - k) * t * (1 + t / (limit * limit)) / (1 + t))
    }

    /// A linear colour (inside BT.709, no channel negative) with its highlights rolled off.
    public func apply(_ linear: SIMD3<Double>) -> SIMD3<Double> {
        let high = linear.max()
        guard high > Self.knee else { return linear }
        return linear * (apply(high) / high)
    }
}
