import Foundation

/// How a graded clip is encoded: the encoder, its quality settings and the pixel format.
///
/// Defaults keep the clip what it was, at a quality an editor would hand on: H.264 and HEVC at
/// CRF 16 (libx264, libx265; visually transparent for graded footage, where ffmpeg's own defaults
/// of 23 and 28 are for delivery); VP9 at CRF 16 in constant-quality mode; AV1 (SVT-AV1) at CRF 20;
/// ProRes stays ProRes in the same profile (prores_ks); DNxHR keeps its profile; the lossless
/// codecs (FFV1, HuffYUV, Ut Video, MagicYUV, PNG, QuickTime RLE, uncompressed) stay lossless;
/// MPEG-2, MPEG-4 part 2 and Motion JPEG at their finest quantiser. The pixel format is the
/// source's whenever the encoder takes it, so subsampling and bit depth are kept.
public struct VideoEncoding: Sendable, Equatable {
    /// The FFmpeg encoder's name.
    public var encoder: String
    /// Options after `-c:v ENCODER`.
    public var options: [String]
    /// The pixel format the encoder is given.
    public var pixelFormat: String

    /// Encoders whose `-crf` sets a constant quality.
    public static let crfEncoders: Set<String> = ["libx264", "libx264rgb", "libx265", "libvpx-vp9", "libvpx", "libsvtav1", "libaom-av1"]

    /// The default encoder for a source codec, or nil when colorcube has none.
    public static func defaultEncoder(for codec: String) -> String? {
        switch codec {
        case "h264": "libx264"
        case "hevc": "libx265"
        case "vp9": "libvpx-vp9"
        case "av1": "libsvtav1"
        case "prores": "prores_ks"
        case "dnxhd": "dnxhd"
        case "mpeg2video", "mpeg4", "mjpeg": codec
        case "ffv1", "huffyuv", "ffvhuff", "utvideo", "magicyuv", "png", "qtrle", "rawvideo", "v210", "r210": codec
        default: nil
        }
    }

    /// The video codecs a container holds, where it is choosy (MP4, WebM); absent: any.
    private static let containerCodecs: [String: Set<String>] = [
        "mp4": ["h264", "hevc", "av1", "vp9", "mpeg4", "mpeg2video", "mjpeg"],
        "webm": ["vp8", "vp9", "av1"],
    ]

    /// The encoder to use when the container cannot hold the source's codec (ProRes into MP4,
    /// H.264 into WebM): the container's usual one, libx264 (libx265 above 8 bits) for MP4 and
    /// libvpx-vp9 for WebM. Nil when the source's codec fits.
    public static func containerEncoder(for codec: String, muxer: String, bitDepth: Int) -> String? {
        guard let held = containerCodecs[muxer], !held.contains(codec) else { return nil }
        return muxer == "webm" ? "libvpx-vp9" : bitDepth > 8 ? "libx265" : "libx264"
    }

    /// Chooses the encoding for a clip.
    /// - Parameters:
    ///   - videoCodec: the encoder the user named, or nil for the source's codec's default.
    ///   - crf: the user's quality factor, or nil for the default.
    ///   - muxer: the output container (HEVC in MP4 or MOV gets Apple's hvc1 tag).
    ///   - supportedFormats: the encoder's pixel formats as FFmpeg lists them (empty: not listed).
    /// - Throws: `VideoError.noDefaultEncoder`, `.crfNotSupported`.
    public static func choose(for probe: VideoProbe, path: String, videoCodec: String?, crf: Int?, muxer: String,
                              supportedFormats: [String]) throws(VideoError) -> VideoEncoding {
        guard let encoder = videoCodec ?? defaultEncoder(for: probe.codec) else {
            throw .noDefaultEncoder(path: path, codec: probe.codec)
        }
        if crf != nil, !crfEncoders.contains(encoder) { throw .crfNotSupported(encoder: encoder) }
        var options: [String] = []
        switch encoder {
        case "libx264", "libx264rgb", "libx265":
            options = ["-crf", String(crf ?? 16), "-preset", "medium"]
            if encoder == "libx265" {
                options += ["-x265-params", "log-level=error"]
                if muxer == "mp4" || muxer == "mov" { options += ["-tag:v", "hvc1"] }
            }
        case "libvpx-vp9", "libvpx":
            options = ["-crf", String(crf ?? 16), "-b:v", "0", "-row-mt", "1"]
        case "libsvtav1", "libaom-av1":
            options = ["-crf", String(crf ?? 20)]
        case "prores_ks":
            options = ["-profile:v", String(proresProfile(probe.codec == "prores" ? probe.profile : nil)), "-vendor", "apl0"]
        case "dnxhd":
            if let profile = probe.profile?.lowercased(), profile.hasPrefix("dnxhr") {
                options = ["-profile:v", profile.replacingOccurrences(of: " ", with: "_")]
            } else {
                options = ["-profile:v", "dnxhr_hq"]
            }
        case "mpeg2video", "mpeg4", "mjpeg":
            options = ["-q:v", "2"]
        default:
            break
        }
        let format = closestPixelFormat(for: probe.pixelFormat, supported: supportedFormats)
        return VideoEncoding(encoder: encoder, options: options, pixelFormat: format)
    }

    /// Adds encoder parameters (x265's `-x265-params`, SVT-AV1's `-svtav1-params`) to the ones
    /// chosen, for the encoders that take such a list.
    mutating func addParameters(_ parameters: [String]) {
        let option = encoder == "libx265" ? "-x265-params" : encoder == "libsvtav1" ? "-svtav1-params" : nil
        guard let option, !parameters.isEmpty else { return }
        if let index = options.firstIndex(of: option), index + 1 < options.count {
            options[index + 1] += ":" + parameters.joined(separator: ":")
        } else {
            options += [option, parameters.joined(separator: ":")]
        }
    }

    /// prores_ks's profile number for ffprobe's ProRes profile name (HQ when unknown).
    static func proresProfile(_ name: String?) -> Int {
        guard let name = name?.lowercased() else { return 3 }
        if name.contains("xq") { return 5 }
        if name.contains("4444") { return 4 }
        if name.contains("proxy") { return 0 }
        if name.contains("lt") { return 1 }
        if name.contains("standard") { return 2 }
        return 3
    }

    /// The source's pixel format when the encoder takes it (the deprecated full-range yuvj names as
    /// their plain ones); else the encoder's closest: same subsampling and depth, then same
    /// subsampling and a greater depth, then any format as deep; across RGB and YCbCr, 4:4:4 as
    /// deep, then any as deep, then the encoder's first.
    public static func closestPixelFormat(for source: VideoPixelFormat, supported: [String]) -> String {
        let wanted = source.impliesFullRange ? "yuv" + source.name.dropFirst(4) : source.name
        guard !supported.isEmpty, !supported.contains(wanted) else { return wanted }
        let candidates = supported.map(VideoPixelFormat.init).filter { $0.isGradable && !$0.hasAlpha && $0.isRGB == source.isRGB }
        if let same = candidates.first(where: { $0.subsampling == source.subsampling && $0.bitDepth == source.bitDepth }) {
            return same.name
        }
        if let deeper = candidates.first(where: { $0.subsampling == source.subsampling && $0.bitDepth > source.bitDepth }) {
            return deeper.name
        }
        if let deep = candidates.first(where: { $0.bitDepth >= source.bitDepth }) { return deep.name }
        if let first = candidates.first { return first.name }
        // RGB into an encoder of YCbCr only (or the reverse): full chroma, at least as deep.
        let others = supported.map(VideoPixelFormat.init).filter { $0.isGradable && !$0.hasAlpha && !$0.impliesFullRange }
        return others.first { $0.subsampling == "444" && $0.bitDepth >= source.bitDepth }?.name
            ?? others.first { $0.bitDepth >= source.bitDepth }?.name ?? supported[0]
    }
}
