/// One image file format: how to recognise it by content, decode it to a `RasterImage` and encode
/// one back.
///
/// Every format colorcube knows is one type conforming to this protocol, listed once in
/// `ImageCodecs.all`; `apply`, `preview`, `convert`, `learn` and the folder walker consult that
/// table and never switch over formats themselves.
public protocol ImageCodec: Sendable {
    /// The format this codec reads and writes.
    var format: ImageFormat { get }
    /// The name users know the format by ("PNG", "TIFF", "HEIC").
    var displayName: String { get }
    /// File extensions, lower case without the dot; the first is the one new files get. Empty for
    /// formats colorcube recognises but does not write.
    var fileExtensions: [String] { get }
    /// True when files of this format are decoded at all. A codec that only recognises files
    /// (camera raw) refuses them in `read` with an error that says what to do instead.
    var isReadable: Bool { get }
    /// True for a format that is not read (`isReadable` false) whose files are plain pictures any
    /// converter turns into one colorcube reads (GIF, BMP); false for camera raw, which needs
    /// developing, and for the formats colorcube reads.
    var isPictureToConvert: Bool { get }

    /// True when the file behind `probe` is of this format. Most formats decide from
    /// `probe.head`; a codec may read further into the file (a TIFF's directories) with
    /// `probe.read(at:count:)`.
    func matches(_ probe: FileProbe) -> Bool

    /// Decodes the file at `path`: the primary image, as 8 or 16-bit RGB or RGBA, with its colour
    /// space and the metadata an output may carry.
    ///
    /// The size the header declares is checked against `options.pixelLimit` before any pixel
    /// buffer is allocated.
    /// - Throws: `ImageError` naming `path`.
    func read(path: String, options: ImageReadOptions) throws(ImageError) -> RasterImage

    /// Encodes `image` to `path` (created or truncated). Callers write to a temporary name and
    /// pass the final name as `options.displayPath` for messages.
    /// - Throws: `ImageError` naming `options.displayPath ?? path`.
    func write(_ image: RasterImage, to path: String, options: ImageWriteOptions) throws(ImageError)

    /// The bits per sample the format stores a 16-bit picture in (8 for JPEG and WebP, 10 for
    /// HEIC, 12 for AVIF, 16 for PNG and TIFF): where fewer than 16, a writer rounds, and
    /// `Dither` can spread that rounding instead.
    var storedSampleBits: Int { get }

    /// True when the format stores floats (OpenEXR): `.float` pictures reach its writer as they
    /// are. Other writers get them as 16-bit codes (`RasterImage.integerSamples`).
    var storesFloats: Bool { get }
}

extension ImageCodec {
    public var isReadable: Bool { true }
    public var isPictureToConvert: Bool { false }
    public var storedSampleBits: Int { 16 }
    public var storesFloats: Bool { false }
    /// True when colorcube can write this format.
    public var isWritable: Bool { !fileExtensions.isEmpty }
}
