/// Where red, green and blue sit inside one interleaved pixel, in samples.
///
/// Samples not named (alpha, padding) are copied from input to output unchanged.
public struct PixelLayout: Sendable, Equatable {
    /// Samples per pixel (3 or 4).
    public var stride: Int
    /// Offset of red within a pixel, in samples.
    public var red: Int
    /// Offset of green within a pixel, in samples.
    public var green: Int
    /// Offset of blue within a pixel, in samples.
    public var blue: Int

    /// - Precondition: `stride` is at least 3 and every offset is inside the pixel.
    public init(stride: Int, red: Int, green: Int, blue: Int) {
        precondition(stride >= 3 && max(red, green, blue) < stride, "channel offset outside the pixel")
        self.stride = stride
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Red, green, blue.
    public static let rgb = PixelLayout(stride: 3, red: 0, green: 1, blue: 2)
    /// Blue, green, red.
    public static let bgr = PixelLayout(stride: 3, red: 2, green: 1, blue: 0)
    /// Red, green, blue, alpha.
    public static let rgba = PixelLayout(stride: 4, red: 0, green: 1, blue: 2)
    /// Blue, green, red, alpha.
    public static let bgra = PixelLayout(stride: 4, red: 2, green: 1, blue: 0)
}
