/// What colorcube needs to know of an FFmpeg pixel format name ("yuv420p10le", "nv12",
/// "gbrp12le", "yuvj422p"): is it RGB or YCbCr, how many bits, does it carry alpha.
///
/// Judged from the name, as FFmpeg's names follow a fixed pattern: RGB formats start with rgb,
/// bgr, gbr, argb, abgr, 0rgb or x2rgb; a number in the name is the bit depth (p010 and p016 are
/// 10 and 16 bits); yuva, gbrap, rgba, bgra, argb, abgr and ya carry alpha; yuvj formats are full
/// range.
public struct VideoPixelFormat: Sendable, Equatable {
    public let name: String

    public init(_ name: String) {
        self.name = name
    }

    public var isRGB: Bool {
        ["rgb", "bgr", "gbr", "argb", "abgr", "0rgb", "0bgr", "x2rgb", "x2bgr"].contains { name.hasPrefix($0) }
    }

    public var hasAlpha: Bool {
        ["yuva", "gbrap", "rgba", "bgra", "argb", "abgr", "ya8", "ya16", "ayuv"].contains { name.hasPrefix($0) }
    }

    /// Palette, Bayer and hardware surfaces: nothing to grade through the scaler.
    public var isGradable: Bool {
        !(name.hasPrefix("pal") || name.hasPrefix("bayer") || name.contains("vaapi") || name.contains("cuda")
            || name.contains("qsv") || name.hasPrefix("monow") || name.hasPrefix("monob"))
    }

    /// True for the deprecated full-range names (yuvj420p ...).
    public var impliesFullRange: Bool { name.hasPrefix("yuvj") }

    /// Bits per sample: the number that ends the name before le/be (10 in yuv420p10le, 12 in
    /// gbrp12le), 8 when there is none; p010/p012/p016 are 10/12/16 bits; packed RGB names count
    /// bits per pixel (rgb24: 8, rgb48le: 16); float formats count as 16.
    public var bitDepth: Int {
        if name.hasPrefix("p010") || name.hasPrefix("x2rgb10") || name.hasPrefix("x2bgr10") || name.hasPrefix("y210") { return 10 }
        if name.hasPrefix("p012") { return 12 }
        if name.hasPrefix("p016") || name.hasPrefix("rgb48") || name.hasPrefix("bgr48")
            || name.hasPrefix("rgba64") || name.hasPrefix("bgra64") { return 16 }
        if name.hasPrefix("nv") || name.hasPrefix("rgb") || name.hasPrefix("bgr") { return 8 }
        var stem = Substring(name)
        if stem.hasSuffix("le") || stem.hasSuffix("be") { stem = stem.dropLast(2) }
        let digits = stem.reversed().prefix(while: \.isNumber)
        guard let depth = Int(String(digits.reversed())) else { return 8 }
        return depth > 16 ? 16 : depth
    }

    /// The chroma subsampling part of a planar YCbCr name ("420", "422", "444"), or nil.
    public var subsampling: String? {
        for candidate in ["420", "422", "444", "440", "411", "410"] where name.contains(candidate) { return candidate }
        if name.hasPrefix("nv12") || name.hasPrefix("nv21") || name.hasPrefix("p01") { return "420" }
        if name.hasPrefix("nv16") || name.hasPrefix("yuyv") || name.hasPrefix("uyvy") || name.hasPrefix("y210") { return "422" }
        return nil
    }
}
