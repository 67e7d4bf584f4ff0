import ColorCubeApplier
import ColorCubeCore
import ColorCubeImaging

/// The one place `learn` reads images: the codecs `apply` uses, then the same colour management
/// (an embedded ICC profile converted to sRGB; 16-bit images stay 16-bit).
enum PairImageReader {
    /// Decodes `path` (recognised by content) and brings it to sRGB.
    /// - Throws: `ImageError` naming the file.
    static func read(_ path: String) throws -> RasterImage {
        var image = try ImageApplier.read(path).image
        try ColorConversion.convertToSRGB(&image, path: path)
        return image
    }

    /// True when `path` holds an image `read` decodes (by content, not by name).
    static func isImage(_ path: String) -> Bool {
        ImageFormat(sniffing: path) != nil
    }
}
