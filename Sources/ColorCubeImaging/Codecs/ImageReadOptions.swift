import ColorCubeCore

/// Choices that apply to decoding any format.
public struct ImageReadOptions: Sendable, Equatable {
    /// The largest width x height a decoder accepts. It is checked against the header before any
    /// pixel buffer is allocated, so a hostile header costs nothing.
    public var pixelLimit: Int
    /// JPEG, lossy WebP and HEIF: each stored chroma sample is repeated over the 2x2 (4:2:0) or
    /// 2x1 (4:2:2) block of pixels it covers instead of interpolated between blocks, so each block
    /// decodes with its chroma exactly as stored (`metadata.jpegSubsampling` or
    /// `metadata.ycbcrLayout` gives the block). For a reader that models the subsampling itself,
    /// as `learn` does; pictures look blockier. libwebp does it without its fancy upsampling;
    /// libheif before 1.16 always repeats chroma, 1.16 and later are asked for nearest-neighbour
    /// upsampling. Default false.
    public var replicatesChroma = false

    /// `PixelLimit.defaultMaxPixels`, 500 million pixels: over ten times a 45 Mpx camera's frame,
    /// and at most 4 GB decoded (16-bit RGBA).
    public static let defaultPixelLimit = PixelLimit.defaultMaxPixels

    /// Options with a limit of `pixelLimit` pixels.
    public init(pixelLimit: Int) {
        self.pixelLimit = pixelLimit
    }

    /// Options with `limit`; by default the one `COLORCUBE_MAX_PIXELS` sets, else 500 million.
    public init(limit: PixelLimit = .fromEnvironment()) {
        pixelLimit = limit.maxPixels
    }

    /// Checks a declared size against `pixelLimit`.
    /// - Throws: `ImageError.pixelLimit` naming `path`, for a size over the limit, and
    ///   `.corrupt` for a width or height below 1.
    public func check(width: Int, height: Int, path: String) throws(ImageError) {
        guard width > 0, height > 0 else {
            throw .corrupt(path: path, reason: "the header declares \(width)x\(height) pixels")
        }
        do {
            try PixelLimit(maxPixels: pixelLimit).check(width: width, height: height, path: path)
        } catch {
            throw .pixelLimit(error)
        }
    }
}
