import ArgumentParser
import ColorCubeApplier
import ColorCubeEngine
import ColorCubeCore
#if canImport(Glibc)
import Glibc
#endif

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
        if outputPath != "-" {
            // Opening the output truncates it: check first that it is neither the frames nor the look.
            try OutputSafety.refuseOverwritingInput(output: outputPath, inputs: inputPath == "-" ? LookSpec.paths(look) : [inputPath] + LookSpec.paths(look))
        }
        if inputPath != "-", Folders.exists(inputPath) {
            throw RawStreamFileError(path: inputPath, action: "read", reason: "it is a folder")
        }
        let input = inputPath == "-" ? STDIN_FILENO : open(inputPath, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            throw RawStreamFileError(path: inputPath, action: "open", reason: String(cString: strerror(errno)))
        }
        defer { if input != STDIN_FILENO { close(input) } }
        // A named output is a stream too (a FIFO, a file being filled): opened as it is, not
        // through a temporary file.
        let outputDescriptor = outputPath == "-" ? STDOUT_FILENO : open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard outputDescriptor >= 0 else {
            throw RawStreamFileError(path: outputPath, action: "create", reason: String(cString: strerror(errno)))
        }
        defer { if outputDescriptor != STDOUT_FILENO { close(outputDescriptor) } }
        let stream = RawStreamApplier(engine: engine, width: size.width, height: size.height, format: format,
                                      pixelLimit: limits.pixelLimit, name: rawOptions.streamName)
        _ = try stream.run(input: input, output: outputDescriptor)
    }
}

/// A raw stream's file that cannot be opened.
struct RawStreamFileError: Error, CustomStringConvertible {
    var path: String
    var action: String
    var reason: String

    var description: String { "cannot \(action) \(path): \(reason)" }
}
