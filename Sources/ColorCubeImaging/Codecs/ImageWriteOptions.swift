/// Choices that apply to encoding; each format uses the ones it has.
public struct ImageWriteOptions: Sendable {
    /// The name errors give: the final output when the codec writes to a temporary file.
    public var displayPath: String?
    /// Quality of lossy encoders, 1...100 (JPEG, lossy WebP, HEIC, AVIF).
    public var quality: Int

    /// 92: visually lossless for photos in every lossy format here, at a fraction of the size.
    public static let defaultQuality = 92

    public init(displayPath: String? = nil, quality: Int = ImageWriteOptions.defaultQuality) {
        self.displayPath = displayPath
        self.quality = quality
    }
}
