import ColorCubeCore
import ColorCubeImaging

/// The one place `learn` reads images: the codecs `apply` uses, then the same colour management
/// (an embedded ICC profile converted to sRGB; 16-bit images stay 16-bit).
enum PairImageReader {
    /// Decodes `path` (recognised by content) and brings it to sRGB.
    /// - Throws: `ImageError` naming the file.
    /// - Parameter replicatingChroma: a JPEG, lossy WebP or HEIF is decoded with each chroma block
    ///   repeated over its pixels (`ImageReadOptions.replicatesChroma`), for an after whose blocks
    ///   the fit models. An image whose profile is converted loses `metadata.ycbcrLayout` and
    ///   `jpegSubsampling`: its pixels are then no longer the coded RGB that the blocks' chroma is
    ///   linear in, and it is fitted pixel by pixel.
    /// - Returns: the image, and whether its pixels are still the values the file codes (no profile
    ///   converted), which a JPEG's stored coefficients describe.
    static func read(_ path: String, replicatingChroma: Bool = false) throws -> (image: RasterImage, isCoded: Bool) {
        var options = ImageReadOptions()
        options.replicatesChroma = replicatingChroma
        var image = try ImageCodecs.read(path: path, options: options).image
        var isCoded = true
        if case .icc(let profile) = image.colorSpace, !ColorConversion.isSRGB(profile) {
            image.metadata.ycbcrLayout = nil
            image.metadata.jpegSubsampling = nil
            isCoded = false
        }
        try ColorConversion.convertToSRGB(&image, path: path)
        return (image, isCoded)
    }

    /// True when `path` holds an image `read` decodes (by content, not by name).
    static func isImage(_ path: String) -> Bool {
        ImageCodecs.sniff(path: path)?.isReadable == true
    }
}
