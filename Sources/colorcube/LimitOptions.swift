import ArgumentParser
import ColorCubeCore

/// Limits on what a command agrees to load and which part of a look file it takes, shared by every
/// command that reads pictures and looks (`@OptionGroup var limits: LimitOptions`).
struct LimitOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Refuse pictures and raw frames of more than N pixels (default: \(PixelLimit.defaultMaxPixels), or \(PixelLimit.environmentVariable)).",
        valueName: "N"))
    var maxPixels: Int?

    func validate() throws {
        if let maxPixels, maxPixels < 1 {
            throw ValidationError("--max-pixels must be at least 1, got \(maxPixels)")
        }
        if maxPixels == nil, let value = PixelLimit.environmentValue, PixelLimit(parsing: value) == nil {
            throw ValidationError("\(PixelLimit.environmentVariable)=\(value) is not a positive whole number of pixels")
        }
    }

    /// --max-pixels, else COLORCUBE_MAX_PIXELS, else the default.
    var pixelLimit: PixelLimit {
        maxPixels.map(PixelLimit.init(maxPixels:)) ?? .fromEnvironment()
    }
}
