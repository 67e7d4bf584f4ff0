import ColorCubeCore
import ColorCubeImaging

/// Turns an edited reference PNG (or any Hald CLUT PNG) into a cube: checks its size, brings an
/// embedded ICC profile to sRGB, handles transparency and looks for signs of spatial edits.
public enum ReferenceDecoder {
    /// What to do with pixels that are not opaque.
    public enum AlphaHandling: String, CaseIterable, Sendable {
        /// Fail, naming how many pixels are not opaque.
        case reject
        /// Multiply colours by alpha, as Core Image's cube data expects.
        case premultiply
    }

    /// How to read a reference.
    public struct Options: Sendable {
        /// The cube size the caller expects, or nil to take it from the image.
        public var expectedSize: Int?
        /// Keep code values as stored even when the PNG embeds a non-sRGB profile.
        public var ignoreProfile: Bool
        public var alpha: AlphaHandling

        public init(expectedSize: Int? = nil, ignoreProfile: Bool = false, alpha: AlphaHandling = .reject) {
            self.expectedSize = expectedSize
            self.ignoreProfile = ignoreProfile
            self.alpha = alpha
        }
    }

    /// A decoded reference and what was noticed on the way.
    public struct Result: Sendable {
        public var table: ReferenceTable
        /// Set when colours were converted from an embedded profile: that profile's description.
        public var convertedFromProfile: String?
        public var roughness: Roughness
    }

    /// Decodes the reference PNG at `path`.
    /// - Throws: `ImageError` for unreadable files, `ConversionError.wrongDimensions`,
    ///   `.sizeMismatch` and `.transparentPixels`.
    public static func decode(path: String, options: Options = Options()) throws -> Result {
        var image = try ImageCodecs.read(path: path).image
        let layout = try validatedLayout(of: image, path: path, expectedSize: options.expectedSize)

        if image.hasAlpha, options.alpha == .reject {
            let count = transparentPixelCount(image)
            if count > 0 { throw ConversionError.transparentPixels(path: path, count: count) }
        }
        var convertedFrom: String?
        if !options.ignoreProfile, case .icc(let profile) = image.colorSpace, !ColorConversion.isSRGB(profile) {
            try ColorConversion.convertToSRGB(&image, path: path, promoteTo16Bit: true)
            convertedFrom = ColorConversion.describe(profile)
        }
        let table = ReferenceTable(image: image, size: layout.cubeSize,
                                   premultiplied: options.alpha == .premultiply)
        return Result(table: table, convertedFromProfile: convertedFrom, roughness: Roughness(measuring: table))
    }

    /// The Hald layout of a W x W image, checked against the caller's expected size.
    static func validatedLayout(of image: RasterImage, path: String, expectedSize: Int?) throws -> HaldLayout {
        guard image.width == image.height, let layout = HaldLayout(side: image.width) else {
            let expected = expectedSize.flatMap { try? HaldLayout(cubeSize: $0) }
            throw ConversionError.wrongDimensions(path: path, width: image.width, height: image.height,
                                                  expectedSide: expected?.side)
        }
        if let expectedSize, expectedSize != layout.cubeSize {
            let expectedSide = (try? HaldLayout(cubeSize: expectedSize))?.side
            throw ConversionError.sizeMismatch(path: path, width: image.width, height: image.height,
                                               foundSize: layout.cubeSize, expectedSize: expectedSize,
                                               expectedSide: expectedSide)
        }
        return layout
    }

    private static func transparentPixelCount(_ image: RasterImage) -> Int {
        let opaque = image.pixels.maxCode
        var count = 0
        for pixel in 0..<image.pixelCount where image.pixels[4 * pixel + 3] != opaque {
            count += 1
        }
        return count
    }
}
