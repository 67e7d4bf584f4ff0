import Foundation

/// OpenColorIO's FixedFunction: a named formula with optional parameters, as OpenColorIO 2.6
/// evaluates it (its CTF `style` names; each style's formula and edge cases are documented on
/// `Style`). Evaluated in Float64 from OpenColorIO's Float32 formulas and constants.
public struct FixedFunctionOp: TransformOp {
    /// The styles colorcube evaluates, by their CTF names.
    public enum Style: String, CaseIterable, Sendable {
        /// BT.2100's surround correction: `rgb * Y^(g - 1)`, `Y` the BT.2100 luminance of the
        /// input taken absolute and at least 1e-4, `g` the one parameter (0.01...100).
        case rec2100SurroundFwd = "Rec2100SurroundFwd"
        /// The inverse: `rgb * Y^(1/g - 1)`, `Y` at least 1e-4^g.
        case rec2100SurroundRev = "Rec2100SurroundRev"
        /// RGB to hue (0...1 for a full turn), saturation and value, extended to negative values:
        /// saturation is 0...1 when the channels share a sign and 1...2 when they do not.
        case rgbToHSV = "RGB_TO_HSV"
        /// The inverse: hue wraps to 0...1, saturation is clamped to 0...1.999 (NaN to 0).
        case hsvToRGB = "HSV_TO_RGB"
        /// CIE XYZ to chromaticity x, y and luminance Y; X + Y + Z = 0 gives x = y = 0.
        case xyzToxyY = "XYZ_TO_xyY"
        /// The inverse; y = 0 gives X = Z = 0.
        case xyYToXYZ = "xyY_TO_XYZ"
        /// CIE XYZ to CIE 1976 u', v' and Y; X + 15Y + 3Z = 0 gives u' = v' = 0.
        case xyzTouvY = "XYZ_TO_uvY"
        /// The inverse; v' = 0 gives X = Z = 0.
        case uvYToXYZ = "uvY_TO_XYZ"
        /// CIE XYZ to L*u*v* scaled by 1/100 (white Y = 1 gives L* = 1), D65 white (u'n 0.19783001,
        /// v'n 0.46831999).
        case xyzToLUV = "XYZ_TO_LUV"
        /// The inverse.
        case luvToXYZ = "LUV_TO_XYZ"
        /// Linear light (1.0 = 100 cd/m²) to SMPTE ST 2084 (PQ), mirrored about 0.
        case linToPQ = "Lin_TO_PQ"
        /// PQ to linear light (1.0 = 100 cd/m²), mirrored about 0.
        case pqToLin = "PQ_TO_Lin"
        /// A power segment below a break and a log above, mirrored about a point (10 parameters:
        /// mirror, break, power, slope, offset of the power segment; base, log slope, log offset,
        /// lin slope, lin offset of the log segment).
        case linToGammaLog = "Lin_TO_GammaLog"
        /// The inverse.
        case gammaLogToLin = "GammaLog_TO_Lin"
        /// Two log segments joined by a straight line (13 parameters: base, break 1, break 2;
        /// log slope, log offset, lin slope, lin offset of each log segment; slope and offset of
        /// the line). The breaks belong to the log segments.
        case linToDoubleLog = "Lin_TO_DoubleLog"
        /// The inverse.
        case doubleLogToLin = "DoubleLog_TO_Lin"
        /// ACES 1.0's dark to dim surround: `rgb * Y^(0.9811 - 1)`, `Y` the AP1 luminance of the
        /// input, at least 1e-10 (NaN takes the floor).
        case darkToDim10 = "DarkToDim10"
        /// The inverse, with gamma 1.0192640913260627.
        case dimToDark10 = "DimToDark10"
        /// ACES 1.3's reference gamut compression: each channel's distance from the largest,
        /// `(max - x) / |max|`, is compressed above its threshold so that the limit lands on 1
        /// (7 parameters: the cyan, magenta and yellow limits, 1.001...65504; their thresholds,
        /// 0...0.9995; the power, 1...65504). A colour whose largest channel is 0 becomes 0.
        case gamutComp13Fwd = "GamutComp13Fwd"
        /// The inverse: distances at or beyond threshold + scale pass unchanged.
        case gamutComp13Rev = "GamutComp13Rev"
        /// The red modifier of ACES 0.3 and 0.7: within 60° of red hue (a B-spline window over the
        /// hue angle of `2r - g - b`, `√3 (g - b)`), red moves towards 0.03 by up to 15% of the
        /// way, weighted by the window and the saturation `(max - min) / max` (channels below
        /// 1e-10 count as 1e-10, the divisor is at least 0.01); the middle channel then moves
        /// to keep the hue.
        case redMod03Fwd = "RedMod03Fwd"
        /// The inverse: red from the quadratic the forward makes of it, the hue kept again
        /// (exact where the largest channel is at least the noise floor of 0.01).
        case redMod03Rev = "RedMod03Rev"
        /// ACES 1.0's red modifier: as RedMod03 within 67.5° of red and by up to 18%, green and
        /// blue left as they are.
        case redMod10Fwd = "RedMod10Fwd"
        /// The inverse, with the window weight of its own input, as OpenColorIO's: not exact, a
        /// round trip moves red by up to about 1.6% of the largest channel.
        case redMod10Rev = "RedMod10Rev"
        /// The glow of ACES 0.3 and 0.7: dark saturated colours gain up to 7.5% (gain 0.075, mid 0.1):
        /// `rgb * (1 + g)`, `g` the gain (times a sigmoid of the saturation, as in RedMod) below
        /// a luma-plus-chroma `YC` of 2/3 mid, `gain * (mid / YC - 0.5)` up to 2 mid, 0 above.
        case glow03Fwd = "Glow03Fwd"
        /// The inverse.
        case glow03Rev = "Glow03Rev"
        /// ACES 1.0's glow: as Glow03 with gain 0.05 and mid 0.08.
        case glow10Fwd = "Glow10Fwd"
        /// The inverse.
        case glow10Rev = "Glow10Rev"
        /// RGB to OpenColorIO's hue (magenta 0, red 1/6, 0...1 for a full turn), saturation and
        /// Rec. 709 luma, for scene-linear values: the saturation is the distance of the channels
        /// from the luma, 5 times it below luma 0.001 and `d / (k + r + g + b)` (`k` 0.15, the
        /// divisor at least 0.07 d + 1e-6) above 0.01, blended between, all times 1.4.
        case rgbToHSYLin = "RGB_TO_HSY_LIN"
        /// The inverse: the hue's colour scaled to the luma, its chroma scaled to the saturation
        /// (in the blend, the root of a quadratic; the gain at most 50 above luma 0.01). A
        /// negative luma turns the hue half a turn.
        case hsyLinToRGB = "HSY_LIN_TO_RGB"
        /// As RGB_TO_HSY_LIN, for log-encoded values: the saturation is 4 times the distance of
        /// the channels from the luma.
        case rgbToHSYLog = "RGB_TO_HSY_LOG"
        /// The inverse (a distance below 1e-10 divides as 1e-10).
        case hsyLogToRGB = "HSY_LOG_TO_RGB"
        /// As RGB_TO_HSY_LIN, for video-encoded values: the saturation is 1.25 times the distance
        /// of the channels from the luma.
        case rgbToHSYVid = "RGB_TO_HSY_VID"
        /// The inverse (a distance below 1e-10 divides as 1e-10).
        case hsyVidToRGB = "HSY_VID_TO_RGB"
        /// ACES 2.0's output transform, ACES2065-1 to display-linear RGB of the limiting gamut
        /// (1.0 = 100 cd/m²): tone scale, chroma and gamut compression in JMh (see `ACES2`).
        /// 9 parameters: peak luminance (a whole number of cd/m², 1...10000), then the limiting
        /// primaries' and white's x, y (red, green, blue, white).
        case acesOutputTransform20Fwd = "ACESOutputTransform20Fwd"
        /// The inverse, display RGB to ACES2065-1 (undefined beyond what the forward reaches).
        case acesOutputTransform20Inv = "ACESOutputTransform20Inv"
        /// RGB (1.0 = 100 cd/m²) to ACES 2.0's J, M and hue in degrees (0...360); A at or below 0
        /// gives 0, 0, 0. 8 parameters: the primaries' and white's x, y.
        case rgbToJMh20 = "RGB_TO_JMh_20"
        /// The inverse; the hue wraps to 0...360, J below 0 gives NaN.
        case jmhToRGB20 = "JMh_TO_RGB_20"
        /// ACES 2.0's tone scale and chroma compression on AP0 JMh (1 parameter: peak luminance).
        case toneScaleCompress20Fwd = "ToneScaleCompress20Fwd"
        /// The inverse.
        case toneScaleCompress20Inv = "ToneScaleCompress20Inv"
        /// ACES 2.0's gamut compression of tone-mapped JMh into the limiting gamut (9 parameters
        /// as ACESOutputTransform20Fwd).
        case gamutCompress20Fwd = "GamutCompress20Fwd"
        /// The inverse.
        case gamutCompress20Inv = "GamutCompress20Inv"

        /// A CTF style name (any case; `Surround`, OpenColorIO's old name, is `Rec2100SurroundFwd`), or nil.
        public init?(ctfName: String) {
            let lowered = ctfName.lowercased()
            if lowered == "surround" { self = .rec2100SurroundFwd; return }
            guard let style = Style.allCases.first(where: { $0.rawValue.lowercased() == lowered }) else { return nil }
            self = style
        }

        /// How many parameters the style takes.
        public var parameterCount: Int {
            switch self {
            case .rec2100SurroundFwd, .rec2100SurroundRev: 1
            case .linToGammaLog, .gammaLogToLin: 10
            case .linToDoubleLog, .doubleLogToLin: 13
            case .gamutComp13Fwd, .gamutComp13Rev: 7
            case .acesOutputTransform20Fwd, .acesOutputTransform20Inv, .gamutCompress20Fwd, .gamutCompress20Inv: 9
            case .rgbToJMh20, .jmhToRGB20: 8
            case .toneScaleCompress20Fwd, .toneScaleCompress20Inv: 1
            default: 0
            }
        }

        public var inverse: Style {
            switch self {
            case .rec2100SurroundFwd: .rec2100SurroundRev
            case .rec2100SurroundRev: .rec2100SurroundFwd
            case .rgbToHSV: .hsvToRGB
            case .hsvToRGB: .rgbToHSV
            case .xyzToxyY: .xyYToXYZ
            case .xyYToXYZ: .xyzToxyY
            case .xyzTouvY: .uvYToXYZ
            case .uvYToXYZ: .xyzTouvY
            case .xyzToLUV: .luvToXYZ
            case .luvToXYZ: .xyzToLUV
            case .linToPQ: .pqToLin
            case .pqToLin: .linToPQ
            case .linToGammaLog: .gammaLogToLin
            case .gammaLogToLin: .linToGammaLog
            case .linToDoubleLog: .doubleLogToLin
            case .doubleLogToLin: .linToDoubleLog
            case .darkToDim10: .dimToDark10
            case .dimToDark10: .darkToDim10
            case .gamutComp13Fwd: .gamutComp13Rev
            case .gamutComp13Rev: .gamutComp13Fwd
            case .redMod03Fwd: .redMod03Rev
            case .redMod03Rev: .redMod03Fwd
            case .redMod10Fwd: .redMod10Rev
            case .redMod10Rev: .redMod10Fwd
            case .glow03Fwd: .glow03Rev
            case .glow03Rev: .glow03Fwd
            case .glow10Fwd: .glow10Rev
            case .glow10Rev: .glow10Fwd
            case .rgbToHSYLin: .hsyLinToRGB
            case .hsyLinToRGB: .rgbToHSYLin
            case .rgbToHSYLog: .hsyLogToRGB
            case .hsyLogToRGB: .rgbToHSYLog
            case .rgbToHSYVid: .hsyVidToRGB
            case .hsyVidToRGB: .rgbToHSYVid
            case .acesOutputTransform20Fwd: .acesOutputTransform20Inv
            case .acesOutputTransform20Inv: .acesOutputTransform20Fwd
            case .rgbToJMh20: .jmhToRGB20
            case .jmhToRGB20: .rgbToJMh20
            case .toneScaleCompress20Fwd: .toneScaleCompress20Inv
            case .toneScaleCompress20Inv: .toneScaleCompress20Fwd
            case .gamutCompress20Fwd: .gamutCompress20Inv
            case .gamutCompress20Inv: .gamutCompress20Fwd
            }
        }

        /// One of ACES 2.0's styles, and whether it is a forward one.
        var aces2Direction: Bool? {
            switch self {
            case .acesOutputTransform20Fwd, .rgbToJMh20, .toneScaleCompress20Fwd, .gamutCompress20Fwd: true
            case .acesOutputTransform20Inv, .jmhToRGB20, .toneScaleCompress20Inv, .gamutCompress20Inv: false
            default: nil
            }
        }

        /// Whether each output channel depends on its own input channel alone.
        public var isPerChannel: Bool {
            switch self {
            case .linToPQ, .pqToLin, .linToGammaLog, .gammaLogToLin, .linToDoubleLog, .doubleLogToLin: true
            default: false
            }
        }
    }

    public let style: Style
    public let parameters: [Double]
    /// ACES 2.0's model with its tables, built from the parameters (nil for the other styles).
    private let aces2: ACES2.Stages?

    /// The white of the L*u*v* styles, D65's u' and v' as OpenColorIO writes them.
    public static let whiteChromaticity = (u: FixedFunctionFormulas.whiteU, v: FixedFunctionFormulas.whiteV)

    /// - Throws: `TransformError.invalidOperation`, with OpenColorIO's reason, for the wrong
    ///   number of parameters or values it refuses: a surround gamma outside 0.01...100; a
    ///   GammaLog base at or below 0, a mirror not below the break, or a power of 0; a
    ///   DoubleLog base at or below 0 or a first break above the second; an ACES 2.0 peak
    ///   luminance outside 1...10000 or with a fractional part.
    public init(style: Style, parameters: [Double] = []) throws(TransformError) {
        func refuse(_ reason: String) -> TransformError {
            .invalidOperation(operation: "fixed function \(style.rawValue)", reason: reason)
        }
        guard parameters.count == style.parameterCount else {
            throw refuse("it takes \(style.parameterCount) parameter\(style.parameterCount == 1 ? "" : "s"), \(parameters.count) given")
        }
        switch style {
        case .rec2100SurroundFwd, .rec2100SurroundRev:
            guard parameters[0] >= 0.01, parameters[0] <= 100 else {
                throw refuse("gamma \(Describe.number(parameters[0])) is outside 0.01...100")
            }
        case .linToGammaLog, .gammaLogToLin:
            guard parameters[5] > 0 else { throw refuse("log base \(Describe.number(parameters[5])) is not above 0") }
            guard parameters[0] < parameters[1] else {
                throw refuse("mirror point \(Describe.number(parameters[0])) is not below the break point \(Describe.number(parameters[1]))")
            }
            guard parameters[2] != 0 else { throw refuse("the power is 0") }
        case .linToDoubleLog, .doubleLogToLin:
            guard parameters[0] > 0 else { throw refuse("log base \(Describe.number(parameters[0])) is not above 0") }
            guard parameters[1] <= parameters[2] else {
                throw refuse("first break point \(Describe.number(parameters[1])) is above the second \(Describe.number(parameters[2]))")
            }
        case .gamutComp13Fwd, .gamutComp13Rev:
            let names = ["lim_cyan", "lim_magenta", "lim_yellow", "thr_cyan", "thr_magenta", "thr_yellow", "power"]
            let ranges = [1.001...65504, 1.001...65504, 1.001...65504, 0...0.9995, 0...0.9995, 0...0.9995, 1...65504]
            for (index, range) in ranges.enumerated() where !range.contains(parameters[index]) {
                throw refuse("\(names[index]) \(Describe.number(parameters[index])) is outside "
                    + "\(Describe.number(range.lowerBound))...\(Describe.number(range.upperBound))")
            }
        case .acesOutputTransform20Fwd, .acesOutputTransform20Inv, .toneScaleCompress20Fwd, .toneScaleCompress20Inv,
             .gamutCompress20Fwd, .gamutCompress20Inv:
            guard parameters[0] >= 1, parameters[0] <= 10000 else {
                throw refuse("peak_luminance \(Describe.number(parameters[0])) is outside 1...10000")
            }
            guard parameters[0].rounded(.down) == parameters[0] else {
                throw refuse("peak_luminance \(Describe.number(parameters[0])) has a fractional part")
            }
        default:
            break
        }
        self.style = style
        self.parameters = parameters
        aces2 = style.aces2Direction == nil ? nil : ACES2.Stages(style, parameters)
    }

    public func apply(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        switch style {
        case .rec2100SurroundFwd, .rec2100SurroundRev:
            return FixedFunctionFormulas.surround(rgb, gamma: parameters[0], forward: style == .rec2100SurroundFwd)
        case .rgbToHSV: return FixedFunctionFormulas.rgbToHSV(rgb)
        case .hsvToRGB: return FixedFunctionFormulas.hsvToRGB(rgb)
        case .xyzToxyY: return FixedFunctionFormulas.xyzToxyY(rgb)
        case .xyYToXYZ: return FixedFunctionFormulas.xyYToXYZ(rgb)
        case .xyzTouvY: return FixedFunctionFormulas.xyzTouvY(rgb)
        case .uvYToXYZ: return FixedFunctionFormulas.uvYToXYZ(rgb)
        case .xyzToLUV: return FixedFunctionFormulas.xyzToLUV(rgb)
        case .luvToXYZ: return FixedFunctionFormulas.luvToXYZ(rgb)
        case .linToPQ:
            return SIMD3(FixedFunctionFormulas.linToPQ(rgb.x), FixedFunctionFormulas.linToPQ(rgb.y), FixedFunctionFormulas.linToPQ(rgb.z))
        case .pqToLin:
            return SIMD3(FixedFunctionFormulas.pqToLin(rgb.x), FixedFunctionFormulas.pqToLin(rgb.y), FixedFunctionFormulas.pqToLin(rgb.z))
        case .linToGammaLog, .gammaLogToLin:
            let curve = FixedFunctionFormulas.GammaLog(parameters)
            let forward = style == .linToGammaLog
            return SIMD3(curve.apply(rgb.x, forward: forward), curve.apply(rgb.y, forward: forward), curve.apply(rgb.z, forward: forward))
        case .linToDoubleLog, .doubleLogToLin:
            let curve = FixedFunctionFormulas.DoubleLog(parameters)
            let forward = style == .linToDoubleLog
            return SIMD3(curve.apply(rgb.x, forward: forward), curve.apply(rgb.y, forward: forward), curve.apply(rgb.z, forward: forward))
        case .darkToDim10, .dimToDark10:
            return FixedFunctionFormulas.darkToDim(rgb, gamma: style == .darkToDim10 ? 0.9811 : 1.0192640913260627)
        case .gamutComp13Fwd, .gamutComp13Rev:
            return FixedFunctionFormulas.GamutCompression(parameters).apply(rgb, forward: style == .gamutComp13Fwd)
        case .redMod03Fwd, .redMod03Rev:
            return FixedFunctionFormulas.RedModifier.aces103.apply(rgb, forward: style == .redMod03Fwd)
        case .redMod10Fwd, .redMod10Rev:
            return FixedFunctionFormulas.RedModifier.aces10.apply(rgb, forward: style == .redMod10Fwd)
        case .glow03Fwd, .glow03Rev:
            return FixedFunctionFormulas.Glow.aces103.apply(rgb, forward: style == .glow03Fwd)
        case .glow10Fwd, .glow10Rev:
            return FixedFunctionFormulas.Glow.aces10.apply(rgb, forward: style == .glow10Fwd)
        case .rgbToHSYLin: return FixedFunctionFormulas.HSY.linear.encode(rgb)
        case .hsyLinToRGB: return FixedFunctionFormulas.HSY.linear.decode(rgb)
        case .rgbToHSYLog: return FixedFunctionFormulas.HSY.log.encode(rgb)
        case .hsyLogToRGB: return FixedFunctionFormulas.HSY.log.decode(rgb)
        case .rgbToHSYVid: return FixedFunctionFormulas.HSY.video.encode(rgb)
        case .hsyVidToRGB: return FixedFunctionFormulas.HSY.video.decode(rgb)
        case .acesOutputTransform20Fwd, .acesOutputTransform20Inv, .rgbToJMh20, .jmhToRGB20,
             .toneScaleCompress20Fwd, .toneScaleCompress20Inv, .gamutCompress20Fwd, .gamutCompress20Inv:
            // `init` builds the model for every ACES 2.0 style.
            guard let aces2, let forward = style.aces2Direction else { return rgb }
            return aces2.apply(rgb, forward: forward)
        }
    }

    public var isPerChannel: Bool { style.isPerChannel }

    /// A surround gamma of 1 changes nothing; no other style is an identity.
    public var isIdentity: Bool {
        (style == .rec2100SurroundFwd || style == .rec2100SurroundRev) && parameters[0] == 1
    }

    /// The reverse style with the same parameters. The formulas invert each other where they
    /// are defined; the clamps (HSV saturation, the surround's luminance floor) are where they
    /// do not, and so is ACES 2.0's gamut compression near the peak, whose inverse is estimated
    /// there (display values come back within 1e-3 at 1000 cd/m², 1e-2 at 100).
    public func inverse() throws(TransformError) -> [any TransformOp] {
        [try FixedFunctionOp(style: style.inverse, parameters: parameters)]
    }

    public var description: String {
        "fixed function \(style.rawValue)" + (parameters.isEmpty ? "" : " (\(parameters.map(Describe.number).joined(separator: ", ")))")
    }
}
