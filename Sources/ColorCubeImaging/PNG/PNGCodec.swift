import ColorCubeCore

extension ImageFormat {
    /// Portable Network Graphics.
    public static let png = ImageFormat(identifier: "png")
}

/// PNG in the codec table: 8 and 16 bits, every colour type, code values exact (see `PNGFile`).
public struct PNGCodec: ImageCodec {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    public init() {}

    public var format: ImageFormat { .png }
    public var displayName: String { "PNG" }
    public var fileExtensions: [String] { ["png"] }

    public func matches(_ probe: FileProbe) -> Bool {
        probe.headHas(Self.signature)
    }

    public func read(path: String, options: ImageReadOptions) throws(ImageError) -> RasterImage {
        try PNGFile.read(path: path, options: options)
    }

    public func write(_ image: RasterImage, to path: String, options: ImageWriteOptions) throws(ImageError) {
        try PNGFile.write(image, to: path, displayPath: options.displayPath)
    }
}
