import ColorCubeTransform
import Foundation

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

    /// Reads the first frame's side data of the clip's video stream (and the stream's own).
    static func probe(path: String, streamIndex: Int, ffprobe: String) -> HDRMetadata {
        guard let result = try? ChildProcess.capture(executable: ffprobe, arguments: [
            "-v", "error", "-print_format", "json", "-select_streams", String(streamIndex), "-read_intervals", "%+#1",
            "-show_frames", "-show_entries", "frame=side_data_list:stream=side_data_list", "-show_streams", "-i", path,
        ]), result.status == 0 else { return HDRMetadata() }
        return parse(json: result.output)
    }

    /// Reads ffprobe's JSON: the side data lists of `frames` and `streams`.
    static func parse(json: [UInt8]) -> HDRMetadata {
        var metadata = HDRMetadata()
        guard let object = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any] else { return metadata }
        let lists = ((object["frames"] as? [[String: Any]] ?? []) + (object["streams"] as? [[String: Any]] ?? []))
            .compactMap { $0["side_data_list"] as? [[String: Any]] }
        for entry in lists.joined() {
            let type = (entry["side_data_type"] as? String ?? "").lowercased()
            if type.contains("mastering display") {
                func value(_ key: String) -> Double? { (entry[key] as? String).flatMap(VideoProbe.rational) ?? entry[key] as? Double }
                func xy(_ name: String) -> SIMD2<Double>? {
                    guard let x = value(name + "_x"), let y = value(name + "_y") else { return nil }
                    return SIMD2(x, y)
                }
                if let red = xy("red"), let green = xy("green"), let blue = xy("blue"), let white = xy("white_point"),
                   let low = value("min_luminance"), let high = value("max_luminance") {
                    metadata.masteringDisplay = MasteringDisplay(red: red, green: green, blue: blue, white: white,
                                                                 minLuminance: low, maxLuminance: high)
                }
            } else if type.contains("content light level") {
                if let maxCLL = entry["max_content"] as? Int, let maxFALL = entry["max_average"] as? Int {
                    metadata.contentLight = (maxCLL, maxFALL)
                }
            } else if type.contains("dolby vision") || type.contains("dovi") {
                if !metadata.dynamic.contains("Dolby Vision") { metadata.dynamic.append("Dolby Vision") }
            } else if type.contains("2094-40") || type.contains("hdr10+") {
                if !metadata.dynamic.contains("HDR10+") { metadata.dynamic.append("HDR10+") }
            }
        }
        return metadata
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
        case "smpte2084": .pq
        case "arib-std-b67": .hlg
        default: nil
        }
    }

    /// The primaries' gamut for an HDR clip: BT.2020 unless tagged P3-D65 or BT.709.
    public var hdrGamut: Gamut {
        switch primaries {
        case "smpte432": Gamuts.p3D65
        case "bt709": Gamuts.rec709
        default: Gamuts.rec2020
        }
    }

    /// The catalogue's scene space an SDR clip's tags name, where it has one: the camera curve
    /// (BT.709, BT.601, BT.2020's 10 and 12-bit forms) over BT.709 primaries, the sRGB curve over
    /// BT.709 or P3-D65, gamma 2.2, or linear light; nil for HDR, untagged or other streams.
    public var sdrSpace: ColorSpace? {
        let id: String? = switch (transfer, primaries ?? "bt709") {
        case ("bt709"?, "bt709"), ("smpte170m"?, "bt709"), ("bt2020-10"?, "bt709"), ("bt2020-12"?, "bt709"): "ocio:itu709_rec709_scene"
        case ("iec61966-2-1"?, "bt709"): "srgb_rec709_scene"
        case ("iec61966-2-1"?, "smpte432"): "srgb_p3d65_scene"
        case ("gamma22"?, "bt709"): "g22_rec709_scene"
        case ("linear"?, "bt709"): "lin_rec709_scene"
        case ("linear"?, "bt2020"): "lin_rec2020_scene"
        case ("linear"?, "smpte432"): "lin_p3d65_scene"
        default: nil
        }
        return id.flatMap(ColorSpaces.named)
    }

    /// The catalogue's display space of an HDR clip's signal and primaries, where it has one.
    public var hdrSpace: ColorSpace? {
        switch (hdrSignal, primaries) {
        case (.pq?, "smpte432"?): ColorSpaces.named("pq_p3d65_display")
        case (.pq?, _): ColorSpaces.named("pq_rec2020_display")
        case (.hlg?, _): ColorSpaces.named("hlg_rec2020_display")
        case (nil, _): nil
        }
    }
}
