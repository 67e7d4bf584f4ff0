/// How a lossy image stored its colour before it was decoded to RGB: luma at every pixel and two
/// chroma planes with one sample per block of `horizontal` x `vertical` pixels, under a matrix and
/// a range. A reader that models the subsampling (as `learn` does) uses it with
/// `ImageReadOptions.replicatesChroma`.
///
/// Set for lossy WebP (VP8: 2x2, BT.601, limited range) and for HEIC and AVIF files whose coded
/// layout and colour description are known (the codec configuration box and the nclx box, with
/// libheif's defaults where the box is absent). JPEG keeps its own `jpegSubsampling` (its matrix
/// is always JFIF's BT.601 with full range).
public struct YCbCrLayout: Sendable, Equatable {
    /// Pixels per chroma sample across (1 for 4:4:4, 2 for 4:2:2 and 4:2:0).
    public var horizontal: Int
    /// Pixels per chroma sample down (2 for 4:2:0, else 1).
    public var vertical: Int
    /// ITU-T H.273 matrix coefficients: 0 identity (the planes are G, B, R), 1 BT.709, 5 and 6
    /// BT.601, 9 BT.2020 non-constant luminance, others as the file declares them.
    public var matrix: Int
    /// True for full-range coding (0...255 at 8 bits), false for limited (16...235 luma).
    public var fullRange: Bool

    public init(horizontal: Int, vertical: Int, matrix: Int, fullRange: Bool) {
        self.horizontal = horizontal
        self.vertical = vertical
        self.matrix = matrix
        self.fullRange = fullRange
    }

    /// VP8, lossy WebP's codec: 4:2:0 with BT.601 coefficients in limited range.
    public static let vp8 = YCbCrLayout(horizontal: 2, vertical: 2, matrix: 6, fullRange: false)
}
