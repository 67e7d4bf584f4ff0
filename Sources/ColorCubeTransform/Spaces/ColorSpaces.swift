import ColorCubeCore
import Foundation

/// The catalogue of colour spaces: every space of OpenColorIO's studio config (its `Raw` data
/// space aside), then camera encodings users ask for that the
/// config lacks (Fujifilm F-Log and F-Log2, Nikon N-Log, Leica L-Log), from their makers' documents,
/// and Kodak's Cineon log, the printing density encoding of film scans in DPX files.
///
/// Each space is data: its gamut and the operations that decode its values. Look a space up by
/// ID, name or alias with `named(_:)`; `conversion(from:to:)` gives the transform between two.
public enum ColorSpaces {
    /// Every space, scene-referred first, in the studio config's order.
    public static let all: [ColorSpace] = scene + display

    /// A space by its Color Interop ID (with or without `ocio:`), its studio config name or an
    /// alias, ignoring case and surrounding spaces; nil when none matches.
    public static func named(_ text: String) -> ColorSpace? {
        let key = normalized(text)
        return all.first { space in space.names.contains { normalized($0) == key } }
    }

    /// The scene-linear space whose gamut has these primaries and white (red, green, blue, white
    /// x y, as an OpenEXR `chromaticities` attribute lists them), each within 0.001; nil when none
    /// does. Where several share a gamut, the first in the catalogue (the studio config's).
    public static func sceneLinear(chromaticities values: [Double]) -> ColorSpace? {
        guard values.count == 8 else { return nil }
        let wanted = stride(from: 0, to: 8, by: 2).map { SIMD2(values[$0], values[$0 + 1]) }
        return all.first { space in
            guard space.kind == .scene, space.encoding == "scene-linear" else { return false }
            let gamut = space.gamut
            return zip([gamut.red, gamut.green, gamut.blue, gamut.white], wanted).allSatisfy { pair in
                let gap = pair.0 - pair.1
                return Swift.abs(gap.x) < 0.001 && Swift.abs(gap.y) < 0.001
            }
        }
    }

    /// A space by name, or `ColorSpaceError.unknown` with the nearest names.
    public static func lookUp(_ text: String) throws(ColorSpaceError) -> ColorSpace {
        if let space = named(text) { return space }
        throw .unknown(name: text, nearest: nearest(to: text))
    }

    /// Up to three IDs whose names are closest to `text` (for "did you mean").
    public static func nearest(to text: String) -> [String] {
        let key = normalized(text)
        let scored = all.map { space in
            (id: space.id, distance: space.names.map { name in
                let name = normalized(name)
                // A typo in the first word ("slgo3") is as close as a typo in the whole name.
                return min(EditDistance.between(key, name), EditDistance.between(key, String(name.prefix(key.count))) + 1)
            }.min() ?? .max)
        }
        let best = scored.filter { $0.distance <= max(3, key.count / 3) }.sorted { $0.distance < $1.distance }
        return best.prefix(3).map(\.id)
    }

    /// The transform from `source`'s values to `target`'s. Between two encodings of one gamut
    /// (linear Rec.709 to gamma 2.4 Rec.709) the gamut matrices are left out: their product is
    /// the identity only up to rounding, and a near-identity matrix would keep the curves from
    /// folding beside a look's lattice. A space that clamps the connection space's values keeps
    /// them, as the clamp happens in the connection space.
    /// - Throws: `ColorSpaceError.crossesKinds` from a scene space to a display space or back:
    ///   that needs a view transform (a tone mapping), which is a creative choice, not a conversion.
    public static func conversion(from source: ColorSpace, to target: ColorSpace) throws(ColorSpaceError) -> Transform {
        guard source.kind == target.kind else { throw .crossesKinds(source: source.name, target: target.name) }
        guard source.id != target.id else { return Transform() }
        if source.gamut == target.gamut, !source.clampsReference, !target.clampsReference {
            let encoding = target.decoding.reversed().flatMap { operation in (try? operation.inverse()) ?? [] }
            return Transform(source.decoding + encoding).optimized()
        }
        return Transform(source.toReference + target.fromReference).optimized()
    }

    /// Lower case, `ocio:` dropped, spaces around removed.
    private static func normalized(_ text: String) -> String {
        var key = text.trimmingCharacters(in: .whitespaces).lowercased()
        if key.hasPrefix("ocio:") { key.removeFirst(5) }
        return key
    }

    // MARK: The catalogue

    private static func log(_ style: LogOp.Style = .cameraLogToLin, base: Double, logSlope: Double, logOffset: Double,
                            linSlope: Double, linOffset: Double, linBreak: Double? = nil, linearSlope: Double? = nil) -> [any TransformOp] {
        let p = LogOp.Parameters(logSideSlope: logSlope, logSideOffset: logOffset, linSideSlope: linSlope, linSideOffset: linOffset,
                                 linSideBreak: linBreak, linearSlope: linearSlope)
        return (try? LogOp(style: style, base: base, parameters: [p, p, p])).map { [$0] } ?? []
    }

    private static func exponent(_ style: ExponentOp.Style, _ gamma: Double, offset: Double = 0) -> [any TransformOp] {
        (try? ExponentOp(style: style, exponent: SIMD3(repeating: gamma), offset: SIMD3(repeating: offset))).map { [$0] } ?? []
    }

    private static let sLog3 = log(base: 10, logSlope: 0.255620723362659, logOffset: 0.410557184750733, linSlope: 5.26315789473684,
                                   linOffset: 0.0526315789473684, linBreak: 0.01125, linearSlope: 6.62194371177582)
    private static let srgbCurve = exponent(.monCurveFwd, 2.4, offset: 0.055)
    /// Cineon printing density on 10-bit codes scaled to 0...1: white (linear 1) at code 685, black
    /// (linear 0) at code 95, 0.002 density per code and a negative gamma of 0.6, so
    /// `code = 685 + 300 * log10(x * (1 - b) + b)` with `b = 10^((95 - 685) / 300)`, the black
    /// offset that puts code 95 at linear 0.
    private static let cineonBlack = pow(10, (95.0 - 685) / 300)
    private static let cineon = log(.logToLin, base: 10, logSlope: 300.0 / 1023, logOffset: 685.0 / 1023,
                                    linSlope: 1 - cineonBlack, linOffset: cineonBlack)

    /// ADX10 or ADX16, film scans as ACES's printing-density encoding (SMPTE ST 2065-3): codes to
    /// channel-dependent density (`scale` and `offset`), to channel-independent density, to
    /// relative exposure (the ADX curve), to ACES2065-1 by the Academy's matrix.
    private static func adx(bits: Int, scale: Double, offset: Double) -> ColorSpace {
        let steps: [(any TransformOp)?] = [
            try? MatrixOp(rows: [SIMD3(scale, 0, 0), SIMD3(0, scale, 0), SIMD3(0, 0, scale)], offset: SIMD3(repeating: offset)),
            try? MatrixOp(rows: [SIMD3(0.75573, 0.22197, 0.02230), SIMD3(0.05901, 0.96928, -0.02829),
                                 SIMD3(0.16134, 0.07406, 0.76460)]),
            TransferFunctionOp(.adx, .decode),
            try? MatrixOp(rows: [SIMD3(0.72286, 0.12630, 0.15084), SIMD3(0.11923, 0.76418, 0.11659),
                                 SIMD3(0.01427, 0.08213, 0.90359)]),
        ]
        let operations = steps.compactMap { $0 }
        return ColorSpace(id: "ocio:adx\(bits)_apd_scene", name: "ADX\(bits)", aliases: ["Input - ADX - ADX\(bits)", "adx\(bits)_apd"],
                          family: "ACES", encoding: "log", gamut: Gamuts.ap0, decoding: operations)
    }

    private static let scene: [ColorSpace] = [
        ColorSpace(id: "lin_ap0_scene", name: "ACES2065-1", aliases: ["aces2065_1", "aces", "ACES - ACES2065-1", "lin_ap0"],
                   family: "ACES", encoding: "scene-linear", gamut: Gamuts.ap0),
        ColorSpace(id: "ocio:acescc_ap1_scene", name: "ACEScc", aliases: ["ACES - ACEScc", "acescc_ap1"], family: "ACES",
                   encoding: "log", gamut: Gamuts.ap1, decoding: [TransferFunctionOp(.acescc, .decode)],
                   clampsReference: true),
        ColorSpace(id: "ocio:acescct_ap1_scene", name: "ACEScct", aliases: ["ACES - ACEScct", "acescct_ap1"], family: "ACES",
                   encoding: "log", gamut: Gamuts.ap1,
                   decoding: log(base: 2, logSlope: 1 / 17.52, logOffset: 9.72 / 17.52, linSlope: 1, linOffset: 0, linBreak: 0.0078125)),
        ColorSpace(id: "lin_ap1_scene", name: "ACEScg", aliases: ["ACES - ACEScg", "lin_ap1"], family: "ACES",
                   encoding: "scene-linear", gamut: Gamuts.ap1),
        adx(bits: 10, scale: 1023.0 / 500, offset: -95.0 / 500),
        adx(bits: 16, scale: 65535.0 / 8000, offset: -1520.0 / 8000),
        ColorSpace(id: "ocio:applelog_rec2020_scene", name: "Apple Log", aliases: ["apple_log"], family: "Apple", encoding: "log",
                   gamut: Gamuts.rec2020, decoding: [TransferFunctionOp(.appleLog, .decode)]),
        ColorSpace(id: "ocio:applelog_applewg_scene", name: "Apple Log 2", aliases: ["apple_log_2"], family: "Apple", encoding: "log",
                   gamut: Gamuts.appleWideGamut, decoding: [TransferFunctionOp(.appleLog, .decode)]),
        ColorSpace(id: "ocio:lin_applewg_scene", name: "Linear Apple Wide Gamut", aliases: ["lin_apple_wide_gamut"], family: "Apple",
                   encoding: "scene-linear", gamut: Gamuts.appleWideGamut),
        ColorSpace(id: "ocio:arrilogc3_awg3_scene", name: "ARRI LogC3 (EI800)",
                   aliases: ["arri_logc3_ei800", "logc3ei800_alexawide", "Input - ARRI - V3 LogC (EI800) - Wide Gamut"],
                   family: "ARRI", encoding: "log", gamut: Gamuts.arriWideGamut3,
                   decoding: log(base: 10, logSlope: 0.247189638318671, logOffset: 0.385536998692443, linSlope: 5.55555555555556,
                                 linOffset: 0.0522722750251688, linBreak: 0.0105909904954696)),
        ColorSpace(id: "ocio:lin_awg3_scene", name: "Linear ARRI Wide Gamut 3",
                   aliases: ["lin_arri_wide_gamut_3", "lin_alexawide", "Input - ARRI - Linear - ALEXA Wide Gamut"],
                   family: "ARRI", encoding: "scene-linear", gamut: Gamuts.arriWideGamut3),
        ColorSpace(id: "ocio:arrilogc4_awg4_scene", name: "ARRI LogC4", aliases: ["arri_logc4"], family: "ARRI", encoding: "log",
                   gamut: Gamuts.arriWideGamut4,
                   decoding: log(base: 2, logSlope: 0.0647954196341293, logOffset: -0.295908392682586, linSlope: 2231.82630906769,
                                 linOffset: 64, linBreak: -0.0180569961199113)),
        ColorSpace(id: "ocio:lin_awg4_scene", name: "Linear ARRI Wide Gamut 4", aliases: ["lin_arri_wide_gamut_4", "lin_awg4"],
                   family: "ARRI", encoding: "scene-linear", gamut: Gamuts.arriWideGamut4),
        ColorSpace(id: "ocio:bmdfilm5_wg5_scene", name: "BMDFilm WideGamut Gen5", aliases: ["bmdfilm_widegamut_gen5"],
                   family: "Blackmagic Design", encoding: "log", gamut: Gamuts.blackmagicWideGamut,
                   decoding: log(base: 2.71828182845905, logSlope: 0.0869287606549122, logOffset: 0.530013339229194, linSlope: 1,
                                 linOffset: 0.00549407243225781, linBreak: 0.005)),
        ColorSpace(id: "ocio:lin_bmdwg5_scene", name: "Linear BMD WideGamut Gen5", aliases: ["lin_bmd_widegamut_gen5"],
                   family: "Blackmagic Design", encoding: "scene-linear", gamut: Gamuts.blackmagicWideGamut),
        ColorSpace(id: "ocio:davinci_dwg_scene", name: "DaVinci Intermediate WideGamut", aliases: ["davinci_intermediate_widegamut"],
                   family: "Blackmagic Design", encoding: "log", gamut: Gamuts.davinciWideGamut,
                   decoding: log(base: 2, logSlope: 0.07329248, logOffset: 0.51304736, linSlope: 1, linOffset: 0.0075,
                                 linBreak: 0.00262409, linearSlope: 10.44426855)),
        ColorSpace(id: "ocio:lin_dwg_scene", name: "Linear DaVinci WideGamut", aliases: ["lin_davinci_widegamut"],
                   family: "Blackmagic Design", encoding: "scene-linear", gamut: Gamuts.davinciWideGamut),
        ColorSpace(id: "ocio:canonlog2_cgamutd55_scene", name: "CanonLog2 CinemaGamut D55",
                   aliases: ["canonlog2_cinemagamut_d55", "canonlog2_cgamutday", "Input - Canon - Canon-Log2 - Cinema Gamut Daylight"],
                   family: "Canon", encoding: "log", gamut: Gamuts.cinemaGamut, decoding: [TransferFunctionOp(.canonLog2, .decode)]),
        ColorSpace(id: "ocio:lin_cgamutd55_scene", name: "Linear CinemaGamut D55",
                   aliases: ["lin_cinemagamut_d55", "lin_canoncgamutday", "Input - Canon - Linear - Canon Cinema Gamut Daylight"],
                   family: "Canon", encoding: "scene-linear", gamut: Gamuts.cinemaGamut),
        ColorSpace(id: "ocio:canonlog3_cgamutd55_scene", name: "CanonLog3 CinemaGamut D55",
                   aliases: ["canonlog3_cinemagamut_d55", "canonlog3_cgamutday", "Input - Canon - Canon-Log3 - Cinema Gamut Daylight"],
                   family: "Canon", encoding: "log", gamut: Gamuts.cinemaGamut, decoding: [TransferFunctionOp(.canonLog3, .decode)]),
        ColorSpace(id: "ocio:djilog_dgamut_scene", name: "D-Log D-Gamut", aliases: ["dlog_dgamut"], family: "DJI", encoding: "log",
                   gamut: Gamuts.dGamut,
                   decoding: log(base: 10, logSlope: 0.256662970719888, logOffset: 0.58455504907396, linSlope: 0.9892,
                                 linOffset: 0.0108, linBreak: 0.00758078675)),
        ColorSpace(id: "ocio:lin_dgamut_scene", name: "Linear D-Gamut", aliases: ["lin_dgamut"], family: "DJI",
                   encoding: "scene-linear", gamut: Gamuts.dGamut),
        ColorSpace(id: "ocio:vlog_vgamut_scene", name: "V-Log V-Gamut", aliases: ["vlog_vgamut", "Input - Panasonic - V-Log - V-Gamut"],
                   family: "Panasonic", encoding: "log", gamut: Gamuts.vGamut,
                   decoding: log(base: 10, logSlope: 0.241514, logOffset: 0.598206, linSlope: 1, linOffset: 0.00873, linBreak: 0.01)),
        ColorSpace(id: "ocio:lin_vgamut_scene", name: "Linear V-Gamut", aliases: ["lin_vgamut", "Input - Panasonic - Linear - V-Gamut"],
                   family: "Panasonic", encoding: "scene-linear", gamut: Gamuts.vGamut),
        ColorSpace(id: "ocio:redlog3g10_rwg_scene", name: "Log3G10 REDWideGamutRGB",
                   aliases: ["log3g10_redwidegamutrgb", "rl3g10_rwg", "Input - RED - REDLog3G10 - REDWideGamutRGB"],
                   family: "RED", encoding: "log", gamut: Gamuts.redWideGamut,
                   decoding: log(base: 10, logSlope: 0.224282, logOffset: 0, linSlope: 155.975327, linOffset: 2.55975327, linBreak: -0.01)),
        ColorSpace(id: "ocio:lin_rwg_scene", name: "Linear REDWideGamutRGB",
                   aliases: ["lin_redwidegamutrgb", "lin_rwg", "Input - RED - Linear - REDWideGamutRGB"],
                   family: "RED", encoding: "scene-linear", gamut: Gamuts.redWideGamut),
        ColorSpace(id: "ocio:slog3_sgamut3_scene", name: "S-Log3 S-Gamut3", aliases: ["slog3_sgamut3", "Input - Sony - S-Log3 - S-Gamut3"],
                   family: "Sony", encoding: "log", gamut: Gamuts.sGamut3, decoding: sLog3),
        ColorSpace(id: "ocio:slog3_sgamut3cine_scene", name: "S-Log3 S-Gamut3.Cine",
                   aliases: ["slog3_sgamut3cine", "slog3_sgamutcine", "Input - Sony - S-Log3 - S-Gamut3.Cine"],
                   family: "Sony", encoding: "log", gamut: Gamuts.sGamut3Cine, decoding: sLog3),
        ColorSpace(id: "ocio:slog3_sgamut3venice_scene", name: "S-Log3 Venice S-Gamut3",
                   aliases: ["slog3_venice_sgamut3", "Input - Sony - S-Log3 - Venice S-Gamut3"],
                   family: "Sony", encoding: "log", gamut: Gamuts.veniceSGamut3, decoding: sLog3),
        ColorSpace(id: "ocio:slog3_sgamut3cinevenice_scene", name: "S-Log3 Venice S-Gamut3.Cine",
                   aliases: ["slog3_venice_sgamut3cine", "slog3_venice_sgamutcine", "Input - Sony - S-Log3 - Venice S-Gamut3.Cine"],
                   family: "Sony", encoding: "log", gamut: Gamuts.veniceSGamut3Cine, decoding: sLog3),
        ColorSpace(id: "ocio:lin_sgamut3_scene", name: "Linear S-Gamut3", aliases: ["lin_sgamut3", "Input - Sony - Linear - S-Gamut3"],
                   family: "Sony", encoding: "scene-linear", gamut: Gamuts.sGamut3),
        ColorSpace(id: "ocio:lin_sgamut3cine_scene", name: "Linear S-Gamut3.Cine",
                   aliases: ["lin_sgamut3cine", "Input - Sony - Linear - S-Gamut3.Cine"],
                   family: "Sony", encoding: "scene-linear", gamut: Gamuts.sGamut3Cine),
        ColorSpace(id: "ocio:lin_sgamut3venice_scene", name: "Linear Venice S-Gamut3",
                   aliases: ["lin_venice_sgamut3", "Input - Sony - Linear - Venice S-Gamut3"],
                   family: "Sony", encoding: "scene-linear", gamut: Gamuts.veniceSGamut3),
        ColorSpace(id: "ocio:lin_sgamut3cinevenice_scene", name: "Linear Venice S-Gamut3.Cine",
                   aliases: ["lin_venice_sgamut3cine", "Input - Sony - Linear - Venice S-Gamut3.Cine"],
                   family: "Sony", encoding: "scene-linear", gamut: Gamuts.veniceSGamut3Cine),
        ColorSpace(id: "srgb_rec709_scene", name: "sRGB Encoded Rec.709 (sRGB)",
                   aliases: ["srgb_encoded_rec709_srgb", "srgb_texture", "Utility - sRGB - Texture", "Input - Generic - sRGB - Texture",
                             "sRGB - Texture", "srgb_tx", "srgb"],
                   family: "Utility", encoding: "sdr-video", gamut: Gamuts.rec709, decoding: srgbCurve),
        ColorSpace(id: "g18_rec709_scene", name: "Gamma 1.8 Encoded Rec.709",
                   aliases: ["g18_encoded_rec709", "g18_rec709", "Utility - Gamma 1.8 - Rec.709 - Texture", "Gamma 1.8 Rec.709 - Texture",
                             "g18_rec709_tx"],
                   family: "Utility", encoding: "sdr-video", gamut: Gamuts.rec709, decoding: exponent(.basicPassThruFwd, 1.8)),
        ColorSpace(id: "g22_rec709_scene", name: "Gamma 2.2 Encoded Rec.709",
                   aliases: ["g22_encoded_rec709", "g22_rec709", "Utility - Gamma 2.2 - Rec.709 - Texture", "Gamma 2.2 Rec.709 - Texture",
                             "g22_rec709_tx"],
                   family: "Utility", encoding: "sdr-video", gamut: Gamuts.rec709, decoding: exponent(.basicPassThruFwd, 2.2)),
        ColorSpace(id: "g24_rec709_scene", name: "Gamma 2.4 Encoded Rec.709",
                   aliases: ["g24_encoded_rec709", "g24_rec709", "rec709_display", "Utility - Rec.709 - Display", "Gamma 2.4 Rec.709 - Texture",
                             "g24_rec709_tx", "ocio:g24_rec709_scene"],
                   family: "Utility", encoding: "sdr-video", gamut: Gamuts.rec709, decoding: exponent(.basicPassThruFwd, 2.4)),
        ColorSpace(id: "ocio:itu709_rec709_scene", name: "Camera Rec.709", aliases: ["camera_rec709", "rec709_camera", "Utility - Rec.709 - Camera", "rec709"],
                   family: "Utility", encoding: "sdr-video", gamut: Gamuts.rec709, decoding: exponent(.monCurveFwd, 1 / 0.45, offset: 0.099)),
        ColorSpace(id: "srgb_p3d65_scene", name: "sRGB Encoded P3-D65",
                   aliases: ["srgb_encoded_p3d65", "srgb_p3d65", "srgb_displayp3", "sRGB Encoded P3-D65 - Texture", "srgb_encoded_p3d65_tx"],
                   family: "Utility", encoding: "sdr-video", gamut: Gamuts.p3D65, decoding: srgbCurve),
        ColorSpace(id: "g22_adobergb_scene", name: "Gamma 2.2 Encoded AdobeRGB", aliases: ["g22_encoded_adobergb", "adobergb"],
                   family: "Utility", encoding: "sdr-video", gamut: Gamuts.adobeRGB, decoding: exponent(.basicPassThruFwd, 563.0 / 256)),
        ColorSpace(id: "srgb_ap1_scene", name: "sRGB Encoded AP1",
                   aliases: ["srgb_encoded_ap1", "srgb_ap1", "sRGB Encoded AP1 - Texture", "srgb_encoded_ap1_tx"],
                   family: "Utility", encoding: "sdr-video", gamut: Gamuts.ap1, decoding: srgbCurve),
        ColorSpace(id: "g22_ap1_scene", name: "Gamma 2.2 Encoded AP1", aliases: ["g22_encoded_ap1", "g22_ap1", "Gamma 2.2 AP1 - Texture", "g22_ap1_tx"],
                   family: "Utility", encoding: "sdr-video", gamut: Gamuts.ap1, decoding: exponent(.basicPassThruFwd, 2.2)),
        ColorSpace(id: "lin_ciexyzd65_scene", name: "CIE XYZ-D65 - Scene-referred", aliases: ["cie_xyz_d65_scene"], family: "Utility",
                   encoding: "scene-linear", gamut: Gamut.xyzD65),
        ColorSpace(id: "lin_adobergb_scene", name: "Linear AdobeRGB", aliases: ["lin_adobergb", "Utility - Linear - Adobe RGB"],
                   family: "Utility", encoding: "scene-linear", gamut: Gamuts.adobeRGB),
        ColorSpace(id: "lin_p3d65_scene", name: "Linear P3-D65",
                   aliases: ["lin_p3d65", "lin_displayp3", "Utility - Linear - P3-D65", "Linear Display P3"],
                   family: "Utility", encoding: "scene-linear", gamut: Gamuts.p3D65),
        ColorSpace(id: "lin_rec2020_scene", name: "Linear Rec.2020", aliases: ["lin_rec2020", "Utility - Linear - Rec.2020"],
                   family: "Utility", encoding: "scene-linear", gamut: Gamuts.rec2020),
        ColorSpace(id: "lin_rec709_scene", name: "Linear Rec.709 (sRGB)",
                   aliases: ["lin_rec709_srgb", "lin_rec709", "lin_srgb", "Utility - Linear - sRGB", "Utility - Linear - Rec.709"],
                   family: "Utility", encoding: "scene-linear", gamut: Gamuts.rec709),
        // Beyond the studio config: the makers' documents.
        ColorSpace(id: "flog_fgamut_scene", name: "F-Log F-Gamut", aliases: ["flog", "fujifilm_flog"], family: "Fujifilm",
                   encoding: "log", gamut: Gamuts.fGamut, decoding: [TransferFunctionOp(.fLog, .decode)],
                   origin: "Fujifilm's F-Log data sheet"),
        ColorSpace(id: "flog2_fgamut_scene", name: "F-Log2 F-Gamut", aliases: ["flog2", "fujifilm_flog2"], family: "Fujifilm",
                   encoding: "log", gamut: Gamuts.fGamut, decoding: [TransferFunctionOp(.fLog2, .decode)],
                   origin: "Fujifilm's F-Log2 data sheet"),
        ColorSpace(id: "flog2_fgamutc_scene", name: "F-Log2 F-Gamut C", aliases: ["flog2c", "fujifilm_flog2_fgamutc"], family: "Fujifilm",
                   encoding: "log", gamut: Gamuts.fGamutC, decoding: [TransferFunctionOp(.fLog2, .decode)],
                   origin: "Fujifilm's F-Log2 C data sheet"),
        ColorSpace(id: "lin_fgamutc_scene", name: "Linear F-Gamut C", aliases: ["lin_fgamutc"], family: "Fujifilm",
                   encoding: "scene-linear", gamut: Gamuts.fGamutC, origin: "Fujifilm's F-Log2 C data sheet"),
        ColorSpace(id: "nlog_ngamut_scene", name: "N-Log N-Gamut", aliases: ["nlog", "nikon_nlog"], family: "Nikon",
                   encoding: "log", gamut: Gamuts.nGamut, decoding: [TransferFunctionOp(.nLog, .decode)],
                   origin: "Nikon's N-Log specification"),
        ColorSpace(id: "llog_rec2020_scene", name: "L-Log Rec.2020", aliases: ["llog", "leica_llog"], family: "Leica",
                   encoding: "log", gamut: Gamuts.rec2020, decoding: [TransferFunctionOp(.lLog, .decode)],
                   origin: "Leica's L-Log reference (its curve over BT.2020 primaries)"),
        ColorSpace(id: "cineonlog_rec709_scene", name: "Cineon Log (printing density)", aliases: ["cineon", "cineon_log"],
                   family: "Kodak", encoding: "log", gamut: Gamuts.rec709, decoding: cineon,
                   origin: "Kodak's Cineon printing density encoding (DPX transfer characteristics 1 and 3)"),
    ]

    private static let display: [ColorSpace] = [
        ColorSpace(id: "ocio:lin_ciexyzd65_display", name: "CIE XYZ-D65 - Display-referred",
                   aliases: ["cie_xyz_d65_display"], family: "Display", kind: .display,
                   encoding: "display-linear", gamut: Gamut.xyzD65),
        ColorSpace(id: "srgb_rec709_display", name: "sRGB - Display", aliases: ["srgb_display"], family: "Display", kind: .display,
                   encoding: "sdr-video", gamut: Gamuts.rec709, decoding: exponent(.monCurveMirrorFwd, 2.4, offset: 0.055)),
        ColorSpace(id: "g22_rec709_display", name: "Gamma 2.2 Rec.709 - Display", family: "Display", kind: .display,
                   encoding: "sdr-video", gamut: Gamuts.rec709, decoding: exponent(.basicMirrorFwd, 2.2)),
        ColorSpace(id: "srgb_p3d65_display", name: "Display P3 - Display", aliases: ["displayp3_display"], family: "Display",
                   kind: .display, encoding: "sdr-video", gamut: Gamuts.p3D65, decoding: exponent(.monCurveMirrorFwd, 2.4, offset: 0.055)),
        ColorSpace(id: "srgbe_p3d65_display", name: "Display P3 HDR - Display", aliases: ["displayp3_hdr_display"], family: "Display",
                   kind: .display, encoding: "edr-video", gamut: Gamuts.p3D65, decoding: exponent(.monCurveMirrorFwd, 2.4, offset: 0.055)),
        ColorSpace(id: "g26_p3d65_display", name: "Gamma 2.6 P3-D65 - Display", aliases: ["P3-D65 - Display", "p3d65_display"],
                   family: "Display", kind: .display, encoding: "sdr-video", gamut: Gamuts.p3D65, decoding: exponent(.basicMirrorFwd, 2.6)),
        ColorSpace(id: "g24_rec709_display", name: "Rec.1886 Rec.709 - Display", aliases: ["rec1886_rec709_display"], family: "Display",
                   kind: .display, encoding: "sdr-video", gamut: Gamuts.rec709, decoding: exponent(.basicMirrorFwd, 2.4)),
        ColorSpace(id: "hlg_rec2020_display", name: "Rec.2100-HLG - Display", aliases: ["rec2100_hlg_display"], family: "Display",
                   kind: .display, encoding: "hdr-video", gamut: Gamuts.rec2020,
                   decoding: [TransferFunctionOp(.hlg, .decode), HLGSystemGammaOp()]),
        ColorSpace(id: "pq_rec2020_display", name: "Rec.2100-PQ - Display", aliases: ["rec2100_pq_display"], family: "Display",
                   kind: .display, encoding: "hdr-video", gamut: Gamuts.rec2020, decoding: [TransferFunctionOp(.pq, .decode)]),
        ColorSpace(id: "pq_p3d65_display", name: "ST2084-P3-D65 - Display", aliases: ["st2084_p3d65_display"], family: "Display",
                   kind: .display, encoding: "hdr-video", gamut: Gamuts.p3D65, decoding: [TransferFunctionOp(.pq, .decode)]),
    ]
}
