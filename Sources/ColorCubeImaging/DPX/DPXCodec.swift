extension ImageFormat {
    /// Digital Picture Exchange (SMPTE 268), the film scanning and VFX frame format.
    public static let dpx = ImageFormat(identifier: "dpx")
}

/// DPX in the codec table (see `DPXFile`): 8, 10, 12 and 16-bit RGB, RGBA, ABGR and luma, in either
/// byte order; the input's layout and headers kept.
///
/// `storedSampleBits` is 16, the most a DPX output stores: the depth actually written belongs to
/// each picture (an output of a DPX input keeps the input's 8, 10, 12 or 16 bits, see
/// `DPXFile.write`), and the writer reduces 16-bit samples to it with `SampleDepth.reduce`, so
/// nothing dithers ahead of it.
public struct DPXCodec: ImageCodec {
    public init() {}

    public var format: ImageFormat { .dpx }
    public var displayName: String { "DPX" }
    public var fileExtensions: [String] { ["dpx"] }

    /// `SDPX` (big-endian) or `XPDS` (little-endian) at the start.
    public func matches(_ probe: FileProbe) -> Bool {
        probe.headHas(DPXHeader.bigEndianMagic) || probe.headHas(DPXHeader.littleEndianMagic)
    }

    public func read(path: String, options: ImageReadOptions) throws(ImageError) -> RasterImage {
        try DPXFile.read(path: path, options: options)
    }

    public func write(_ image: RasterImage, to path: String, options: ImageWriteOptions) throws(ImageError) {
        try DPXFile.write(image, to: path, displayPath: options.displayPath)
    }
}
