import ColorCubeCore

/// Choices for reading a LUT; each applies only to the formats named (image LUTs: Hald, tile and
/// strip PNGs; ASC CDL collections), the others ignore them.
public struct LUTReadOptions: Sendable {
    /// What to do with pixels of a reference image that are not opaque.
    public enum AlphaHandling: String, CaseIterable, Sendable {
        /// Fail, naming how many pixels are not opaque.
        case reject
        /// Multiply colours by alpha, as Core Image's cube data expects.
        case premultiply
    }

    /// The cube size the caller expects of a reference image, or nil to take it from the image.
    public var expectedSize: Int?
    /// Keep a reference image's code values as stored even when it embeds a non-sRGB profile.
    public var ignoreProfile: Bool
    public var alpha: AlphaHandling
    /// The largest reference image accepted, checked before its pixels are allocated.
    public var pixelLimit: PixelLimit
    /// Which correction of an ASC CDL collection (.ccc) or decision list (.cdl) to read, by its
    /// `id`; nil takes the first.
    public var correctionID: String?
    /// The layout an image LUT is in, or nil to take it from the image's size and content (a
    /// square image may be a Hald CLUT or a square of tiles; see `ImageLUTLayoutDetector`).
    public var imageLayout: ImageLUTLayout.Kind?

    public init(expectedSize: Int? = nil, ignoreProfile: Bool = false, alpha: AlphaHandling = .reject,
                pixelLimit: PixelLimit = .fromEnvironment(), correctionID: String? = nil,
                imageLayout: ImageLUTLayout.Kind? = nil) {
        self.correctionID = correctionID
        self.expectedSize = expectedSize
        self.ignoreProfile = ignoreProfile
        self.alpha = alpha
        self.pixelLimit = pixelLimit
        self.imageLayout = imageLayout
    }
}
