extension ImageFormat {
    /// Tagged Image File Format.
    public static let tiff = ImageFormat(identifier: "tiff")
}

/// TIFF in the codec table (see `TIFFFile`): 8 and 16 bits and floats, the input's compression kept.
///
/// Sits after `CameraRawCodec`, which claims the TIFF-based raw formats (DNG, NEF, CR2, ...) first.
/// A multi-page TIFF is read as its first image; `metadata.imageCount` says how many there were.
public struct TIFFCodec: ImageCodec {
    public init() {}

    public var format: ImageFormat { .tiff }
    public var displayName: String { "TIFF" }
    public var fileExtensions: [String] { ["tif", "tiff"] }
    public var storesFloats: Bool { true }

    /// Classic and BigTIFF headers, either byte order.
    public func matches(_ probe: FileProbe) -> Bool {
        probe.headHas([0x49, 0x49, 0x2A, 0x00]) || probe.headHas([0x4D, 0x4D, 0x00, 0x2A])
            || probe.headHas([0x49, 0x49, 0x2B, 0x00]) || probe.headHas([0x4D, 0x4D, 0x00, 0x2B])
    }

    public func read(path: String, options: ImageReadOptions) throws(ImageError) -> RasterImage {
        try TIFFFile.read(path: path, options: options)
    }

    public func write(_ image: RasterImage, to path: String, options: ImageWriteOptions) throws(ImageError) {
        try TIFFFile.write(image, to: path, displayPath: options.displayPath)
    }
}
