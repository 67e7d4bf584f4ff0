import ArgumentParser
import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeTransform

extension ColorCubeCommand {
    struct Invert: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the inverse of a look: the look that undoes it.",
            discussion: "LOOK is " + LookSpec.help + ". 1D LUTs, matrices, ranges, CDLs, logs and exponents "
                + "are inverted exactly; a 3D LUT numerically, node by node, as OpenColorIO "
                + "inverts it, into a 3D LUT over 0...1 (wider where the look's output is). A look of per-channel "
                + "operations only becomes a 1D LUT where the output format holds one (.cube, .spi1d, .csp, .clf) "
                + "unless --size asks for a cube. The inverse is "
                + "then checked by running the look on it: "
                + "colours the look never produces (a black-and-white look, a clamp) cannot be "
                + "recovered, and a warning says how many and how far off they come back. A look "
                + "with no inverse at all (a singular matrix, a curve that rises and falls) is refused." + HelpExamples.invert
        )

        @Argument(help: ArgumentHelp("The look to invert: " + LookSpec.help + "."))
        var look: String

        @OptionGroup var writing: LookOutputOptions

        @OptionGroup var reading: LookReadOptions

        @OptionGroup var limits: LimitOptions

        func run() throws {
            try Diagnostics.reportingFailures {
                let chosen = try writing.chosenFormat()
                let (output, size, depth) = (writing.output, writing.size, writing.depth)
                try OutputSafety.refuseOverwritingInput(output: output, inputs: LookSpec.paths(look))
                let forward = try LookSpec.read(look, options: reading.options(pixelLimit: limits.pixelLimit))
                    .bakingCameraRawTables(size: size ?? 33)
                Diagnostics.report(forward, path: look)
                let inverse = try forward.inverse(writtenAs: chosen, cubeSize: size)
                let check = TransformInverter.report(inverse: inverse, of: forward.transform)
                if check.unrecoveredCount > 0 {
                    let c = check.worstColor
                    Diagnostics.warning("\(look): \(Diagnostics.decimal(100 * check.unrecoveredFraction, places: 1))% of colours "
                        + "cannot be recovered (the look never produces them): the inverse takes them to the edge of the look's "
                        + "domain, as OpenColorIO does, and they come back off by up to \(Diagnostics.decimal(check.maxCodes, places: 1)) 8-bit codes "
                        + "(99% within \(Diagnostics.decimal(check.p99Codes, places: 2))), worst at RGB "
                        + "\([c.x, c.y, c.z].map { String(Int(($0 * 255).rounded())) }.joined(separator: " "))")
                }
                var inverted = Look(transform: inverse, format: forward.format)
                inverted.title = "inverse of \(FilePath.stem(look))"
                let written = try LUTWriter.write(inverted, format: chosen, to: output, title: inverted.title ?? "",
                                                  size: size,
                                                  options: LUTWriter.Options(bitDepth: depth))
                Diagnostics.report(written, path: output, format: chosen)
            }
        }
    }
}
