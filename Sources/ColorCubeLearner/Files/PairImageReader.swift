import ColorCubeApplier
import ColorCubeCore
import ColorCubeImaging

/// The one place `learn` reads images: the codecs `apply` uses, then the same colour management
/// (an embedded ICC profile converted to sRGB; 16-bit images stay 16-bit).
enum PairImageReader {
    /// Decodes `path` (recognised by content) and brings it to sRGB.
    /// - Throws: `ImageError` naming the file.
    /// - Parameter replicatingChroma: a JPEG is decoded with each chroma block repeated over its
    ///   pixels (`ImageReadOptions.replicatesChroma`), for an after whose blocks the fit models.
    static func read(_ path: String, replicatingChroma: Bool = false) throws -> RasterImage {
        var options = ImageReadOptions()
        options.replicatesChroma = replicatingChroma
        var image = try ImageApplier.read(path, options: options).image
        try ColorConversion.convertToSRGB(&image, path: path)
        return image
    }

    /// True when `path` holds an image `read` decodes (by content, not by name).
    static func isImage(_ path: String) -> Bool {
        ImageFormat(sniffing: path) != nil
    }
}
