extension ImageFormat {
    /// WebP, lossy (VP8) or lossless (VP8L), still or animated.
    public static let webp = ImageFormat(identifier: "webp")
}

/// WebP in the codec table (see `WebPFile`). A lossless input is written lossless with every RGB
/// value kept; anything else is written lossy at `options.quality`.
public struct WebPCodec: ImageCodec {
    public var storedSampleBits: Int { 8 }
    public init() {}

    public var format: ImageFormat { .webp }
    public var displayName: String { "WebP" }
    public var fileExtensions: [String] { ["webp"] }

    /// "RIFF", a 4-byte size, then "WEBP".
    public func matches(_ probe: FileProbe) -> Bool {
        probe.headHas(Array("RIFF".utf8)) && probe.headHas(Array("WEBP".utf8), at: 8)
    }

    public func read(path: String, options: ImageReadOptions) throws(ImageError) -> RasterImage {
        try WebPFile.read(path: path, options: options)
    }

    public func write(_ image: RasterImage, to path: String, options: ImageWriteOptions) throws(ImageError) {
        try WebPFile.write(image, to: path, displayPath: options.displayPath, quality: options.quality,
                           lossless: image.metadata.webpLossless ?? false)
    }
}
