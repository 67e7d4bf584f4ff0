import ColorCubeConverter
import ArgumentParser
import ColorCubeApplier
import ColorCubeEngine
import ColorCubeCore
import Foundation

/// Options for raw video frame streams.
struct RawStreamOptions: ParsableArguments {
    @Option(help: "Process raw video frames of this size (WxH, e.g. 1920x1080) instead of image files.")
    var raw: String?

    @Option(help: "Raw frame pixel format (with --raw): rgb24, bgr24, rgba, bgra, rgb48le, rgba64le or gbrpf32le.")
    var pixelFormat: RawPixelFormat?

    @Option(name: .shortAndLong, help: "Raw frame input (with --raw; default: - for stdin).")
    var input: String?

    /// Width and height from --raw.
    var frameSize: (width: Int, height: Int)? {
        guard let raw else { return nil }
        let parts = raw.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else {
            return nil
        }
        return (width, height)
    }

    /// The frames' source as messages name it.
    var streamName: String {
        guard let input, input != "-" else { return "standard input" }
        return input
    }

    func validate() throws {
        if raw == nil {
            guard pixelFormat == nil, input == nil else {
                throw ValidationError("--pixel-format and -i/--input go with --raw WxH")
            }
            return
        }
        guard frameSize != nil else {
            throw ValidationError("invalid --raw \(raw ?? ""); give the frame size as WxH, e.g. 1920x1080")
        }
        guard pixelFormat != nil else {
            throw ValidationError("--raw needs --pixel-format: \(RawPixelFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }
}

extension RawPixelFormat: ExpressibleByArgument {}

extension ColorCubeCommand.Apply {
    /// Streams frames from -i (stdin) through the engine to -o (stdout).
    func runRaw(engine: LUTEngine) throws {
        guard let size = rawOptions.frameSize, let format = rawOptions.pixelFormat else { return }
        let inputPath = rawOptions.input ?? "-"
        let outputPath = output ?? "-"
        if outputPath == "-", isatty(STDOUT_FILENO) != 0 {
            throw CommandFailure("refusing to write raw frames to a terminal: give -o FILE, or send standard output "
                + "to a file or a program (> frames.rgb, | ffmpeg ...)")
        }
        if outputPath != "-" {
            // Opening the output truncates it: check first that it is neither the frames nor the look.
            try OutputSafety.refuseOverwritingInput(output: outputPath, inputs: inputPath == "-" ? LookSpec.paths(look) : [inputPath] + LookSpec.paths(look))
        }
        let stream = RawStreamApplier(engine: engine, width: size.width, height: size.height, format: format,
                                      pixelLimit: limits.pixelLimit, name: rawOptions.streamName)
        _ = try stream.run(inputPath: inputPath, outputPath: outputPath)
    }
}
