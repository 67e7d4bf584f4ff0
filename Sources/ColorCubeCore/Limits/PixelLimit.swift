#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The largest picture colorcube agrees to hold in memory, counted in pixels (width * height).
///
/// Sizes come from what a file or a user declares (an image header, `--raw WxH`), and a declared
/// size is cheap to lie about: checking it against this limit before allocating turns an absurd size
/// into an error that names it, instead of a failed allocation that ends the process. The default,
/// 500,000,000 pixels, is about a 22,000 x 22,000 image: 1.5 GB at 8-bit RGB, 6 GB as Float32
/// planes. Anything that decodes or buffers whole pictures checks its size here first.
public struct PixelLimit: Sendable, Equatable {
    /// The limit when nothing else is asked for.
    public static let defaultMaxPixels = 500_000_000
    /// The environment variable `fromEnvironment()` reads: a positive whole number of pixels.
    public static let environmentVariable = "COLORCUBE_MAX_PIXELS"
    /// The default limit.
    public static let `default` = PixelLimit(maxPixels: defaultMaxPixels)

    /// Pictures of more than this many pixels are refused (at least 1).
    public let maxPixels: Int

    /// A limit of `maxPixels` pixels; values below 1 are raised to 1.
    public init(maxPixels: Int) {
        self.maxPixels = max(1, maxPixels)
    }

    /// Parses a positive whole number of pixels ("800000000", with optional `_` or `,` between
    /// digits); nil for anything else, zero or negative numbers included.
    public init?(parsing text: String) {
        let digits = text.filter { $0 != "_" && $0 != "," }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
              let value = Int(digits), value >= 1 else { return nil }
        self.init(maxPixels: value)
    }

    /// The limit `COLORCUBE_MAX_PIXELS` sets, else the default. A value that is set but is not a
    /// positive whole number also gives the default; front ends that want to refuse it check
    /// `environmentValue` with `init(parsing:)` themselves.
    public static func fromEnvironment() -> PixelLimit {
        environmentValue.flatMap(PixelLimit.init(parsing:)) ?? .default
    }

    /// The raw value of `COLORCUBE_MAX_PIXELS`, or nil when it is not set.
    public static var environmentValue: String? {
        getenv(environmentVariable).map { String(cString: $0) }
    }

    /// The pixel count of a `width` x `height` picture, or nil when it overflows `Int`.
    public static func pixelCount(width: Int, height: Int) -> Int? {
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? nil : count
    }

    /// Checks a declared picture size before anything of that size is allocated.
    /// - Parameter path: what is being checked, for the message: the file, or a name such as
    ///   "standard input" for a stream.
    /// - Throws: `PixelLimitError.tooManyPixels` when `width * height` is above `maxPixels` or
    ///   overflows. Sizes that are zero or negative are not this check's business and pass.
    public func check(width: Int, height: Int, path: String) throws(PixelLimitError) {
        guard width > 0, height > 0 else { return }
        if let count = Self.pixelCount(width: width, height: height), count <= maxPixels { return }
        throw .tooManyPixels(path: path, width: width, height: height, limit: maxPixels)
    }
}
