import ArgumentParser
import ColorCubeApplier

/// Options for raw video frame streams.
struct RawStreamOptions: ParsableArguments {
    @Option(help: "Process raw video frames of this size (WxH) instead of image files.")
    var raw: String?

    @Option(help: "Raw frame pixel format (with --raw): rgb24, bgr24, rgba, bgra, rgb48le, rgba64le or gbrpf32le.")
    var pixelFormat: String?

    @Option(name: .shortAndLong, help: "Raw frame input (with --raw; default: - for stdin).")
    var input: String?
}

extension ColorCubeCommand.Apply {
    func runRaw(engine: LUTEngine) throws {
        throw ValidationError("--raw is not available yet")
    }
}
