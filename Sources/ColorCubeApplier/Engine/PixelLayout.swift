/// Where red, green and blue sit inside one interleaved pixel, in samples.
///
/// Samples not named (alpha, padding) are copied from input to output unchanged.
public struct PixelLayout: Sendable, Equatable {
    /// Samples per pixel (3 or 4).
    public var stride: Int
    public var red: Int
    public var green: Int
    public var blue: Int

    public init(stride: Int, red: Int, green: Int, blue: Int) {
        precondition(stride >= 3 && max(red, green, blue) < stride, "channel offset outside the pixel")
        self.stride = stride
        self.red = red
        self.green = green
        self.blue = blue
    }

    public static let rgb = PixelLayout(stride: 3, red: 0, green: 1, blue: 2)
    public static let bgr = PixelLayout(stride: 3, red: 2, green: 1, blue: 0)
    public static let rgba = PixelLayout(stride: 4, red: 0, green: 1, blue: 2)
    public static let bgra = PixelLayout(stride: 4, red: 2, green: 1, blue: 0)
}
