import ArgumentParser
import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore

/// How looks are read, shared by every command that reads one (`apply`, `preview` through
/// `EngineOptions`, `convert`, `info`): `@OptionGroup var reading: LookReadOptions`.
struct LookReadOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Layout of an image LUT: hald, tile (8x8 tiles of 64x64 for a 64-cube: OBS, ReShade), strip (256x16, 1024x32: "
            + "Unreal) or unity-strip (the same with green growing upwards). Default: from the image's size and content.",
        valueName: "layout"))
    var layout: ImageLUTLayout.Kind?

    @Option(name: .customLong("cdl-id"), help: ArgumentHelp(
        "Which correction of an ASC CDL collection (.ccc) or decision list (.cdl) to take, by its id (default: the first).",
        valueName: "ID"))
    var cdlID: String?

    /// The library's read options with `--layout`, `--cdl-id` and the caller's own choices.
    func options(expectedSize: Int? = nil, ignoreProfile: Bool = false, alpha: LUTReadOptions.AlphaHandling = .reject,
                 pixelLimit: PixelLimit) -> LUTReadOptions {
        LUTReadOptions(expectedSize: expectedSize, ignoreProfile: ignoreProfile, alpha: alpha,
                       pixelLimit: pixelLimit, correctionID: cdlID, imageLayout: layout)
    }
}

extension ImageLUTLayout.Kind: ExpressibleByArgument {}
