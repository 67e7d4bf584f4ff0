import Foundation

/// OpenColorIO's ExposureContrast: an exposure change in stops and a contrast (times a gamma)
/// about a pivot, in one of three encodings, as OpenColorIO 2.6 evaluates it.
///
/// With `e` the exposure, `k = max(contrast * gamma, 0.001)` and `p = max(pivot, 0.001)`:
/// - `linear`: `out = max(x * 2^e / p, 0)^k * p`; `linearRev` undoes it: `max(x / p, 0)^(1/k) * p / 2^e`.
/// - `video`: the linear formulas with `2^e` and `p` raised to 1/1.83 (the video OETF's power).
/// - `log`: with `s` the log exposure step and the log pivot `q = max(log2(p / 0.18) * s + m, 0)`
///   (`m` the log mid grey), `out = (x + e * s - q) * k + q`; `logRev` takes
///   `k' = max(1 / (contrast * gamma), 0.001)` and `out = x * k' + q - q * k' - e * 0.088`.
///   OpenColorIO's reverse renderer keeps the default step 0.088 for the exposure term whatever
///   the file says; colorcube does the same, so a file reads as OpenColorIO reads it.
///
/// When `k` rounds to 1 in Float32, the linear and video styles scale only: negative values
/// pass through scaled. Otherwise negative values and NaN become 0 (the power's clamp). The log
/// styles are straight lines and pass NaN on.
public struct ExposureContrastOp: TransformOp {
    public enum Style: String, CaseIterable, Sendable {
        case linear, linearRev, video, videoRev, log, logRev

        /// A CTF style name, any case, or nil.
        public init?(ctfName: String) {
            guard let style = Style.allCases.first(where: { $0.rawValue.lowercased() == ctfName.lowercased() }) else { return nil }
            self = style
        }

        public var isReverse: Bool { rawValue.hasSuffix("Rev") }

        public var inverse: Style {
            switch self {
            case .linear: .linearRev
            case .linearRev: .linear
            case .video: .videoRev
            case .videoRev: .video
            case .log: .logRev
            case .logRev: .log
            }
        }
    }

    /// The parameters, with OpenColorIO's defaults.
    public struct Parameters: Equatable, Sendable {
        /// Stops (a power of two in the linear and video styles, `logExposureStep` per stop in the log styles).
        public var exposure = 0.0
        public var contrast = 1.0
        /// Multiplies the contrast.
        public var gamma = 1.0
        /// Linear value contrast turns about (0.18 is mid grey).
        public var pivot = 0.18
        /// Log code values per stop, for the log styles.
        public var logExposureStep = ExposureContrastOp.defaultLogExposureStep
        /// Log code value of linear 0.18, for the log styles.
        public var logMidGray = 0.435

        public init() {}
    }

    /// OpenColorIO's default log exposure step, which its logRev renderer always uses for exposure.
    public static let defaultLogExposureStep = 0.088
    /// The smallest pivot and contrast OpenColorIO uses.
    public static let smallestPivot = 0.001, smallestContrast = 0.001
    /// The power that takes linear light to OpenColorIO's video encoding (1 / 1.83).
    public static let videoPower = 0.54644808743169393

    public let style: Style
    public let parameters: Parameters
    /// The parameters the file marks dynamic (`EXPOSURE`, `CONTRAST`, `GAMMA`): they are applied
    /// with the values the file gives, and named in the description.
    public let dynamic: [String]

    public init(style: Style, parameters: Parameters, dynamic: [String] = []) {
        self.style = style
        self.parameters = parameters
        self.dynamic = dynamic
    }

    /// The contrast the renderers use, `max(contrast * gamma, 0.001)`.
    private var contrast: Double { max(parameters.contrast * parameters.gamma, Self.smallestContrast) }

    /// Whether the linear and video styles only scale: OpenColorIO checks this in Float32.
    private var onlyScales: Bool { Float(contrast) == 1 }

    /// The log pivot `max(log2(p / 0.18) * s + m, 0)`.
    private var logPivot: Double {
        let p = max(parameters.pivot, Self.smallestPivot)
        return max(0, log2(p / 0.18) * parameters.logExposureStep + parameters.logMidGray)
    }

    public func apply(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        let k = contrast
        switch style {
        case .linear, .video:
            let power = style == .video ? Self.videoPower : 1
            let gain = pow(pow(2, parameters.exposure), power)
            if onlyScales { return rgb * gain }
            let p = pow(max(parameters.pivot, Self.smallestPivot), power)
            return SIMD3(Self.power(rgb.x * gain / p, k) * p, Self.power(rgb.y * gain / p, k) * p, Self.power(rgb.z * gain / p, k) * p)
        case .linearRev, .videoRev:
            let power = style == .videoRev ? Self.videoPower : 1
            let gain = 1 / pow(pow(2, parameters.exposure), power)
            if onlyScales { return rgb * gain }
            let p = pow(max(parameters.pivot, Self.smallestPivot), power)
            let scale = p * gain
            return SIMD3(Self.power(rgb.x / p, 1 / k) * scale, Self.power(rgb.y / p, 1 / k) * scale, Self.power(rgb.z / p, 1 / k) * scale)
        case .log:
            let q = logPivot
            let offset = (parameters.exposure * parameters.logExposureStep - q) * k + q
            return rgb * k + offset
        case .logRev:
            let q = logPivot
            let inverseContrast = max(1 / (parameters.contrast * parameters.gamma), Self.smallestContrast)
            let offset = q - q * inverseContrast - parameters.exposure * Self.defaultLogExposureStep
            return rgb * inverseContrast + offset
        }
    }

    /// `max(x, 0)^k`, with NaN taken as 0 as OpenColorIO's clamp takes it.
    private static func power(_ x: Double, _ k: Double) -> Double {
        x > 0 ? pow(x, k) : 0
    }

    public var isPerChannel: Bool { true }

    /// No exposure and a contrast of 1: every style then leaves values unchanged.
    public var isIdentity: Bool { parameters.exposure == 0 && parameters.contrast * parameters.gamma == 1 }

    /// The reverse style with the same parameters. Between `log` and `logRev` the exposure is
    /// rescaled so that the reverse's fixed step of 0.088 moves by what the forward step moved.
    /// - Throws: `TransformError.notInvertible` for a logRev with exposure whose inverse would
    ///   need a log exposure step of 0, and for a log style whose contrast is at OpenColorIO's
    ///   floor of 0.001 (its reverse floors the reciprocal instead).
    public func inverse() throws(TransformError) -> [any TransformOp] {
        var inverted = parameters
        switch style {
        case .log:
            inverted.exposure = parameters.exposure * parameters.logExposureStep / Self.defaultLogExposureStep
        case .logRev:
            guard parameters.exposure == 0 || parameters.logExposureStep != 0 else {
                throw .notInvertible(operation: "exposure/contrast", reason: "a logRev with exposure and a log exposure step of 0 has no log inverse")
            }
            if parameters.exposure != 0 {
                inverted.exposure = parameters.exposure * Self.defaultLogExposureStep / parameters.logExposureStep
            }
        default:
            break
        }
        let product = parameters.contrast * parameters.gamma
        if style == .log || style == .logRev, !(product >= Self.smallestContrast && 1 / product >= Self.smallestContrast) {
            throw .notInvertible(operation: "exposure/contrast", reason: "contrast times gamma \(Describe.number(product)) is outside "
                + "0.001...1000, where the log styles clamp it")
        }
        return [ExposureContrastOp(style: style.inverse, parameters: inverted, dynamic: dynamic)]
    }

    public var description: String {
        var text = "exposure/contrast (\(style.rawValue)): exposure \(Describe.number(parameters.exposure)), "
            + "contrast \(Describe.number(parameters.contrast)), gamma \(Describe.number(parameters.gamma)), "
            + "pivot \(Describe.number(parameters.pivot))"
        if style == .log || style == .logRev {
            text += ", log exposure step \(Describe.number(parameters.logExposureStep)), log mid grey \(Describe.number(parameters.logMidGray))"
        }
        if !dynamic.isEmpty { text += " (dynamic \(dynamic.joined(separator: ", ")), applied as written)" }
        return text
    }
}
