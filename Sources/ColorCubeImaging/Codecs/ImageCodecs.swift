/// The table of image formats: the one place that lists them, consulted by everything that reads,
/// writes or recognises images.
///
/// Order matters only for recognition: the first codec whose `matches` accepts a file wins, so
/// camera raw comes before TIFF (most raw files are TIFF underneath).
public enum ImageCodecs {
    /// Every format colorcube recognises.
    public static let all: [any ImageCodec] = [
        PNGCodec(),
        JPEGCodec(),
        CameraRawCodec(),
        TIFFCodec(),
        WebPCodec(),
        HEIFCodec(.heic),
        HEIFCodec(.avif),
        EXRCodec(),
        DPXCodec(),
    ] + UnreadPictureCodec.Kind.allCases.map(UnreadPictureCodec.init)

    /// The codec of `format`, or nil for a format not in the table.
    public static func codec(for format: ImageFormat) -> (any ImageCodec)? {
        all.first { $0.format == format }
    }

    /// The codec that recognises the file at `path` by content, or nil when none does or the file
    /// cannot be read.
    public static func sniff(path: String) -> (any ImageCodec)? {
        guard let probe = try? FileProbe(path: path) else { return nil }
        return sniff(probe: probe)
    }

    /// The codec that recognises the file behind `probe`, or nil.
    public static func sniff(probe: FileProbe) -> (any ImageCodec)? {
        all.first { $0.matches(probe) }
    }

    /// The codec that writes files with extension `pathExtension` (case-insensitive), or nil.
    public static func writer(forExtension pathExtension: String) -> (any ImageCodec)? {
        let wanted = pathExtension.lowercased()
        return all.first { $0.fileExtensions.contains(wanted) }
    }

    /// The readable formats' names, for messages: "PNG, JPEG, TIFF, ...".
    public static var readableNames: String {
        all.filter(\.isReadable).map(\.displayName).joined(separator: ", ")
    }

    /// The writable formats' usual extensions, for messages: ".png, .jpg, ...".
    public static var writableExtensions: String {
        all.compactMap { $0.fileExtensions.first.map { "." + $0 } }.joined(separator: ", ")
    }

    /// Decodes the image at `path`, whatever its format, recognised by content (never by name).
    /// - Throws: `ImageError.cannotOpen` when the file cannot be read, `.notAnImage` when no codec
    ///   recognises it, else the codec's error (`.cameraRaw` for camera raw files, `.unreadFormat`
    ///   for GIF, BMP and the other pictures colorcube recognises but does not decode).
    public static func read(path: String, options: ImageReadOptions = ImageReadOptions())
        throws(ImageError) -> (image: RasterImage, format: ImageFormat) {
        let probe = try FileProbe(path: path)
        guard !probe.head.isEmpty else { throw .notAnImage(path: path) }
        guard let codec = sniff(probe: probe) else { throw .notAnImage(path: path) }
        return (try codec.read(path: path, options: options), codec.format)
    }

    /// Encodes `image` as `format` to `path`.
    /// - Throws: `ImageError.cannotWrite` for a format colorcube does not write, else the codec's
    ///   errors.
    public static func write(_ image: RasterImage, as format: ImageFormat, to path: String,
                             options: ImageWriteOptions = ImageWriteOptions()) throws(ImageError) {
        guard let codec = codec(for: format), codec.isWritable else {
            throw .cannotWrite(path: options.displayPath ?? path, reason: "colorcube does not write \(format) files")
        }
        try codec.write(image, to: path, options: options)
    }
}
