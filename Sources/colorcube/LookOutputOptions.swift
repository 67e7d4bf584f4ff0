import ArgumentParser
import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore

/// Where and how a command that writes a whole look writes it (`combine`, `invert`):
/// `@OptionGroup var writing: LookOutputOptions`.
struct LookOutputOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "The look file to write; its extension picks the format unless --format is given.")
    var output: String

    @Option(help: ArgumentHelp("Output format: " + LUTFormats.list(FormatArgument.allValueStrings, joinedBy: "or") + " (default: from the output extension)."))
    var format: FormatArgument?

    @Option(help: "Points per axis of a cube (2 to 256): the size a look is baked to, also for formats that hold chains, and of inverted 3D LUTs (default: the largest 3D LUT's size, at least 33).")
    var size: Int?

    @Option(help: "Bits per value for formats that have a choice: 8 or 16 for png, 10, 12 or 16 for 3dl.")
    var depth: Int?

    func validate() throws {
        if let size, !ColorCube.sizeRange.contains(size) {
            throw ValidationError("invalid --size \(size); use 2 to 256 points per axis")
        }
        _ = try chosenFormat()
    }

    /// --format, else the format of -o's extension.
    func chosenFormat() throws -> any LUTFileFormat {
        try FormatArgument.outputFormat(format, output: output)
    }
}
