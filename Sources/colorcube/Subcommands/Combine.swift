import ArgumentParser
import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore

extension ColorCubeCommand {
    struct Combine: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Chain several looks into one, the first applied first.",
            discussion: "Each LOOK is " + LookSpec.help + ". Into a format that holds a chain (" + FormatArgument.chainList
                + ") the looks' operations are written as they are, nothing baked. Into any other format "
                + "each node of the output cube is the whole chain evaluated exactly at that node, so the "
                + "result equals applying the looks one after the other up to the interpolation of the "
                + "final cube; a warning says when that is off by more than one 8-bit code." + HelpExamples.combine
        )

        @Argument(help: ArgumentHelp("The looks, in the order they apply: " + LookSpec.help + "."))
        var looks: [String] = []

        @OptionGroup var writing: LookOutputOptions

        @OptionGroup var reading: LookReadOptions

        @OptionGroup var limits: LimitOptions

        func validate() throws {
            guard looks.count >= 2 else { throw ValidationError("give at least two LOOKs to combine") }
        }

        func run() throws {
            try Diagnostics.reportingFailures {
                let chosen = try writing.chosenFormat()
                let (output, size, depth) = (writing.output, writing.size, writing.depth)
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
