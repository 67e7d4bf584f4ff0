/// Choices that apply to decoding any format.
public struct ImageReadOptions: Sendable, Equatable {
    /// The largest width x height a decoder accepts. It is checked against the header before any
    /// pixel buffer is allocated, so a hostile header costs nothing.
    public var pixelLimit: Int

    /// 500 million pixels: over ten times a 45 Mpx camera's frame, and at most 4 GB decoded
    /// (16-bit RGBA).
    public static let defaultPixelLimit = 500_000_000

    public init(pixelLimit: Int = ImageReadOptions.defaultPixelLimit) {
        self.pixelLimit = pixelLimit
    }

    /// Checks a declared size against `pixelLimit`.
    /// - Throws: `ImageError.tooManyPixels` naming `path`, for a size over the limit, and
    ///   `.corrupt` for a width or height below 1.
    public func check(width: Int, height: Int, path: String) throws(ImageError) {
        guard width > 0, height > 0 else {
            throw .corrupt(path: path, reason: "the header declares \(width)x\(height) pixels")
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= pixelLimit else {
            throw .tooManyPixels(path: path, width: width, height: height, limit: pixelLimit)
        }
    }
}
