import ArgumentParser
import ColorCubeConverter
import ColorCubeCore

extension ColorCubeCommand {
    struct Combine: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Chain several looks into one, the first applied first.",
            discussion: "Each LOOK is " + LookSpec.help + ". Into a format that holds a chain (" + FormatArgument.chainList
                + ") the looks' operations are written as they are, nothing baked. Into any other format "
                + "each node of the output cube is the whole chain evaluated exactly at that node, so the "
                + "result equals applying the looks one after the other up to the interpolation of the "
                + "final cube; a warning says when that is off by more than one 8-bit code."
        )

        @Argument(help: ArgumentHelp("The looks, in the order they apply: " + LookSpec.help + "."))
        var looks: [String] = []

        @Option(name: .shortAndLong, help: "The combined look's file; its extension picks the format unless --format is given.")
        var output: String

        @Option(help: ArgumentHelp("Output format: " + LUTFormats.list(LUTFormats.names, joinedBy: "or") + " (default: from the output extension)."))
        var format: FormatArgument?

        @Option(help: "Bake into a cube of N points per axis (2 to 256), also for formats that hold chains (default: the largest 3D LUT's size, at least 33).")
        var size: Int?

        @Option(help: "Bits per value for formats that have a choice: 8 or 16 for png, 10, 12 or 16 for 3dl.")
        var depth: Int?

        @OptionGroup var reading: LookReadOptions

        @OptionGroup var limits: LimitOptions

        func validate() throws {
            guard looks.count >= 2 else { throw ValidationError("give at least two LOOKs to combine") }
            if let size, !ColorCube.sizeRange.contains(size) {
                throw ValidationError("invalid --size \(size); use 2 to 256 points per axis")
            }
            _ = try FormatArgument.outputFormat(format, output: output)
        }

        func run() throws {
            try Diagnostics.reportingFailures {
                let chosen = try FormatArgument.outputFormat(format, output: output)
                try OutputSafety.refuseOverwritingInput(output: output, inputs: looks.flatMap(LookSpec.paths))
                let options = reading.options(pixelLimit: limits.pixelLimit)
                let parts = try looks.map { spec in
                    let look = try LookSpec.read(spec, options: options)
                    Diagnostics.report(look, path: spec)
                    return look
                }
                let written = try LUTWriter.write(Look(chain: parts), format: chosen, to: output,
                                                  title: looks.map(FilePath.stem).joined(separator: " + "),
                                                  size: size, options: LUTWriter.Options(bitDepth: depth))
                Diagnostics.report(written, path: output, format: chosen)
            }
        }
    }
}
