extension ImageFormat {
    /// JPEG (JFIF or EXIF), baseline or progressive.
    public static let jpeg = ImageFormat(identifier: "jpeg")
}

/// JPEG in the codec table (see `JPEGFile`). Written at `options.quality` with the input's chroma
/// subsampling when the input was a JPEG, else 4:4:4 so that no colour detail is thrown away.
public struct JPEGCodec: ImageCodec {
    public var storedSampleBits: Int { 8 }
    public init() {}

    public var format: ImageFormat { .jpeg }
    public var displayName: String { "JPEG" }
    public var fileExtensions: [String] { ["jpg", "jpeg", "jpe"] }

    public func matches(_ probe: FileProbe) -> Bool {
        probe.headHas([0xFF, 0xD8, 0xFF])
    }

    public func read(path: String, options: ImageReadOptions) throws(ImageError) -> RasterImage {
        try JPEGFile.read(path: path, options: options)
    }

    public func write(_ image: RasterImage, to path: String, options: ImageWriteOptions) throws(ImageError) {
        try JPEGFile.write(image, to: path, displayPath: options.displayPath, quality: options.quality,
                           subsampling: image.metadata.jpegSubsampling ?? (1, 1))
    }
}
