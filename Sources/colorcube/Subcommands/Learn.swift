import ArgumentParser
import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeLearner
import ColorCubeTransform

extension ColorCubeCommand {
    struct Learn: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Learn a look from a photo before and after an edit, as a LUT.",
            discussion: """
                BEFORE and AFTER are two images of the same pixel size, or two folders whose images \
                pair by relative path (the extension may differ: IMG_1.png with IMG_1.jpg). The look \
                is the colour cube whose trilinear interpolation maps the before pixels closest to the \
                after pixels, smoothed where the photos show no colours. The format follows the \
                extension of -o, any format convert writes (default size 64 for Core Image data and \
                Hald PNGs, 33 otherwise). Only the global colour part of an edit can be learned: vignettes, \
                brushes, sharpening and clarity are reported and left out.
                """ + HelpExamples.learn
        )

        @Argument(help: "The photo before the edit, or a folder of them.")
        var before: String

        @Argument(help: "The same photo after the edit, or a folder of them.")
        var after: String

        @Option(name: .shortAndLong, help: ArgumentHelp("The look to write, a cube; its extension picks the format: "
            + FormatArgument.cubeExtensionList + "."))
        var output: String

        @Option(help: "Lattice points per axis, 2 to 65 (default: 33, or 64 for .png and .bin).")
        var size: Int?

        @Option(help: "Weight of the smoothness penalty on second differences (default \(LookLearner.defaultSmoothness); noisy afters such as JPEG exports add to it).")
        var smoothness: Double = LookLearner.defaultSmoothness

        @Option(help: "Also write a PNG showing, for each pair, the before, the after, the learned look on the before and a heat map of the error, and which colours the pairs cover.")
        var report: String?

        @Option(help: ArgumentHelp("The colour space the look is to expect and give, by ID, name or alias (colorcube spaces "
            + "lists them), e.g. acescct or slog3_sgamut3cine: the look is learned on the photos as they are, then written for "
            + "that space, to apply with the same --look-space or to log footage directly.", valueName: "space"))
        var lookSpace: String?

        @Option(help: ArgumentHelp("The colour space of the photos (default: srgb_tx, the sRGB curve over Rec.709); needs --look-space.",
                                   valueName: "space"))
        var imageSpace: String?

        /// The two spaces of `--look-space` and `--image-space`, nil without them.
        func spaces() throws -> LookFileLearner.Spaces? {
            guard let lookSpace else { return nil }
            return LookFileLearner.Spaces(picture: try ColorSpaces.lookUp(imageSpace ?? SpaceOptions.photoSpace),
                                          look: try ColorSpaces.lookUp(lookSpace))
        }

        func validate() throws {
            if lookSpace == nil, imageSpace != nil {
                throw ValidationError("--image-space needs --look-space: without it the look is learned for the photos' own space")
            }
            do {
                if let spaces = try spaces() { _ = try ColorSpaces.conversion(from: spaces.picture, to: spaces.look) }
            } catch let error as ColorSpaceError {
                throw ValidationError(error.description + " (colorcube spaces lists them)")
            }
            guard let format = LUTFormats.all.forPath(output) else {
                throw ValidationError("cannot tell the format of \(output) from its extension; use "
                    + FormatArgument.cubeExtensionList)
            }
            guard format.writesCubes else {
                throw ValidationError("learn makes a cube, and \(format.noun) holds none; name -o with "
                    + FormatArgument.cubeExtensionList)
            }
            if let size, !LearnError.sizeRange.contains(size) {
                throw ValidationError("invalid --size \(size); use 2 to 65 points per axis")
            }
            if let report, !report.lowercased().hasSuffix(".png") {
                throw ValidationError("--report \(report) must name a .png file")
            }
            guard smoothness.isFinite, smoothness >= 0 else {
                throw ValidationError("invalid --smoothness \(smoothness); use 0 or more")
            }
        }

        func run() throws {
            try Diagnostics.reportingFailures {
                let format = LUTFormats.all.forPath(output) ?? CubeTextFormat()
                let result = try LookFileLearner.learn(before: before, after: after, output: output, format: format,
                                                       size: size, smoothness: smoothness,
                                                       reportPicture: report, spaces: spaces())
                LearnSummary.print(result, output: output)
            }
        }
    }
}
