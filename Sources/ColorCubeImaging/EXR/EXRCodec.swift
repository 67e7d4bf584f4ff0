extension ImageFormat {
    /// OpenEXR.
    public static let openEXR = ImageFormat(identifier: "exr")
}

/// OpenEXR in the codec table (see `EXRFile`): half, float and uint RGB and RGBA, scanline or
/// tiled, every compression the library decodes; samples arrive as floats, values above 1.0 kept.
public struct EXRCodec: ImageCodec {
    public init() {}

    public var format: ImageFormat { .openEXR }
    public var displayName: String { "OpenEXR" }
    public var fileExtensions: [String] { ["exr"] }
    public var storesFloats: Bool { true }

    /// OpenEXR's magic number, 20000630 little-endian.
    public func matches(_ probe: FileProbe) -> Bool {
        probe.headHas([0x76, 0x2F, 0x31, 0x01])
    }

    public func read(path: String, options: ImageReadOptions) throws(ImageError) -> RasterImage {
        try EXRFile.read(path: path, options: options)
    }

    public func write(_ image: RasterImage, to path: String, options: ImageWriteOptions) throws(ImageError) {
        try EXRFile.write(image, to: path, displayPath: options.displayPath)
    }
}
