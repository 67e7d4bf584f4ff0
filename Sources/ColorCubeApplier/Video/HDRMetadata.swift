import ColorCubeTransform
import _CVideoCodec

/// What an HDR clip says about its light beside the pixels: HDR10's static metadata (SMPTE ST
/// 2086 mastering display colour volume, CTA-861.3 content light level), read from its first
/// frame, and whether it carries dynamic metadata (Dolby Vision, HDR10+) that a grade makes wrong.
public struct HDRMetadata: Sendable, Equatable {
    /// The mastering display: primaries and white as xy chromaticities (red, green, blue, white)
    /// and its luminance range in cd/m².
    public struct MasteringDisplay: Sendable, Equatable {
        public var red, green, blue, white: SIMD2<Double>
        public var minLuminance, maxLuminance: Double
    }

    public var masteringDisplay: MasteringDisplay?
    /// MaxCLL and MaxFALL in cd/m².
    public var contentLight: (maxCLL: Int, maxFALL: Int)?
    /// The dynamic metadata the clip carries, by name ("Dolby Vision", "HDR10+").
    public var dynamic: [String] = []

    public init() {}

    public static func == (a: HDRMetadata, b: HDRMetadata) -> Bool {
        a.masteringDisplay == b.masteringDisplay && a.contentLight?.maxCLL == b.contentLight?.maxCLL
            && a.contentLight?.maxFALL == b.contentLight?.maxFALL && a.dynamic == b.dynamic
    }

    /// The brightest light the clip holds, in cd/m²: its MaxCLL, else its mastering display's
    /// peak, else nil.
    public var peakLuminance: Double? {
        if let light = contentLight, light.maxCLL > 0 { return Double(light.maxCLL) }
        if let display = masteringDisplay, display.maxLuminance > 0 { return display.maxLuminance }
        return nil
    }

    /// The metadata as FFmpeg's libraries read it from the stream and its first frame.
    init(_ info: ccvideo_hdr_info) {
        if info.has_mastering != 0 {
            let p = info.primaries
            masteringDisplay = MasteringDisplay(red: SIMD2(p.0.0, p.0.1), green: SIMD2(p.1.0, p.1.1), blue: SIMD2(p.2.0, p.2.1),
                                                white: SIMD2(p.3.0, p.3.1), minLuminance: info.min_luminance,
                                                maxLuminance: info.max_luminance)
        }
        if info.has_light != 0 { contentLight = (Int(info.max_cll), Int(info.max_fall)) }
        if info.dolby_vision != 0 { dynamic.append("Dolby Vision") }
        if info.hdr10_plus != 0 { dynamic.append("HDR10+") }
    }

    /// The static metadata as encoder options: x265's `master-display` and `max-cll`, SVT-AV1's
    /// `mastering-display` and `content-light`; nil for an encoder that takes neither (or when
    /// there is nothing to write).
    func encoderParameters(for encoder: String) -> [String]? {
        switch encoder {
        case "libx265":
            var parts: [String] = []
            if let display = masteringDisplay {
                // x265's units, held to 0...2^31: a damaged clip's side data can say anything.
                func units(_ value: Double, _ scale: Double) -> Int {
                    let scaled = (value * scale).rounded()
                    return scaled > 0 ? (scaled < 2_147_483_647 ? Int(scaled) : 2_147_483_647) : 0
                }
                func xy(_ value: SIMD2<Double>) -> String { "(\(units(value.x, 50000)),\(units(value.y, 50000)))" }
                parts.append("master-display=G\(xy(display.green))B\(xy(display.blue))R\(xy(display.red))WP\(xy(display.white))"
                    + "L(\(units(display.maxLuminance, 10000)),\(units(display.minLuminance, 10000)))")
            }
            if let light = contentLight { parts.append("max-cll=\(light.maxCLL),\(light.maxFALL)") }
            return parts.isEmpty ? nil : ["hdr10=1"] + parts
        case "libsvtav1":
            var parts: [String] = []
            if let display = masteringDisplay {
                func xy(_ value: SIMD2<Double>) -> String { "(\(value.x),\(value.y))" }
                parts.append("mastering-display=G\(xy(display.green))B\(xy(display.blue))R\(xy(display.red))WP\(xy(display.white))"
                    + "L(\(display.maxLuminance),\(display.minLuminance))")
            }
            if let light = contentLight { parts.append("content-light=\(light.maxCLL),\(light.maxFALL)") }
            return parts.isEmpty ? nil : parts
        default:
            return nil
        }
    }

    /// True when there is static metadata to keep.
    var hasStatic: Bool { masteringDisplay != nil || contentLight != nil }
}

extension VideoColor {
    /// The HDR signal the transfer names (PQ, HLG), or nil for SDR.
    public var hdrSignal: HDRRendition.Signal? {
        switch transfer {
        case .smpte2084?: .pq
        case .aribStdB67?: .hlg
        default: nil
        }
    }

    /// The primaries' gamut for an HDR clip: BT.2020 unless tagged P3-D65 or BT.709.
    public var hdrGamut: Gamut {
        switch primaries {
        case .smpte432?: Gamuts.p3D65
        case .bt709?: Gamuts.rec709
        default: Gamuts.rec2020
        }
    }

    /// The catalogue's scene space an SDR clip's tags name, where it has one: the camera curve
    /// (BT.709, BT.601, BT.2020's 10 and 12-bit forms) over BT.709 primaries, the sRGB curve over
    /// BT.709 or P3-D65, gamma 2.2, or linear light; nil for HDR, untagged or other streams.
    public var sdrSpace: ColorSpace? {
        let id: String? = switch (transfer, primaries ?? .bt709) {
        case (.bt709?, .bt709), (.smpte170m?, .bt709), (.bt2020_10?, .bt709), (.bt2020_12?, .bt709): "ocio:itu709_rec709_scene"
        case (.iec61966_2_1?, .bt709): "srgb_rec709_scene"
        case (.iec61966_2_1?, .smpte432): "srgb_p3d65_scene"
        case (.gamma22?, .bt709): "g22_rec709_scene"
        case (.linear?, .bt709): "lin_rec709_scene"
        case (.linear?, .bt2020): "lin_rec2020_scene"
        case (.linear?, .smpte432): "lin_p3d65_scene"
        default: nil
        }
        return id.flatMap(ColorSpaces.named)
    }

    /// The catalogue's display space of an HDR clip's signal and primaries, where it has one.
    public var hdrSpace: ColorSpace? {
        switch (hdrSignal, primaries) {
        case (.pq?, .smpte432?): ColorSpaces.named("pq_p3d65_display")
        case (.pq?, _): ColorSpaces.named("pq_rec2020_display")
        case (.hlg?, _): ColorSpaces.named("hlg_rec2020_display")
        case (nil, _): nil
        }
    }
}
