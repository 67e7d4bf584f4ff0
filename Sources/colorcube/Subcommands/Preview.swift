import ColorCubeConverter
import ArgumentParser
import ColorCubeApplier
import ColorCubeCore
import ColorCubeImaging

extension ColorCubeCommand {
    struct Preview: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a contact sheet of a photo under several looks, to pick one by eye.",
            discussion: """
                The sheet shows the photo once per look, labelled with the look's file name, the \
                original first, in rows of --columns thumbnails.
                """ + HelpExamples.preview
        )

        @Argument(help: ArgumentHelp("Looks, each " + LookSpec.help + "."))
        var looks: [String]

        @Option(help: "The photo to preview (PNG or JPEG).")
        var image: String

        @Option(name: .shortAndLong, help: "The contact sheet to write: PNG, or JPEG (quality 90) for a smaller file.")
        var output: String

        @Option(help: "Thumbnail width in pixels.")
        var width: Int = 320

        @Option(help: "Thumbnails per row.")
        var columns: Int = 4

        @OptionGroup var engineOptions: EngineOptions

        @OptionGroup var limits: LimitOptions

        func validate() throws {
            guard !looks.isEmpty else { throw ValidationError("give at least one LOOK") }
            guard (16...4096).contains(width) else { throw ValidationError("--width must be between 16 and 4096, got \(width)") }
            guard (1...64).contains(columns) else { throw ValidationError("--columns must be between 1 and 64, got \(columns)") }
            guard let format = ImageFormat(pathExtension: FilePath.pathExtension(output)),
                  format == .png || format == .jpeg else {
                throw ValidationError("give -o a .png or .jpg name for the contact sheet, not \(output)")
            }
        }

        func run() throws {
            try Diagnostics.reportingFailures {
                try OutputSafety.refuseOverwritingInput(output: output, inputs: looks.flatMap(LookSpec.paths) + [image])
                // A thumbnail's few pixels are interpolated: no colour table per look.
                let sheetLooks = try looks.map { look in
                    let engine = try engineOptions.loadEngine(look: look, ignoreProfile: false, colorMemory: .none,
                                                          pixelLimit: limits.pixelLimit)
                    return ContactSheet.Look(name: FilePath.stem(look), engine: engine)
                }
                let photo = try ImageApplier.read(image, options: ImageReadOptions(limit: limits.pixelLimit)).image
                let sheet = try ContactSheet(options: .init(thumbnailWidth: width, columns: columns))
                    .render(photo: photo, looks: sheetLooks, path: image)
                let format = ImageFormat(pathExtension: FilePath.pathExtension(output)) ?? .png
                try AtomicFile.write(to: output) { temporary in
                    try ImageCodecs.write(sheet, as: format, to: temporary,
                                          options: ImageWriteOptions(displayPath: output, quality: 90))
                }
            }
        }
    }
}
