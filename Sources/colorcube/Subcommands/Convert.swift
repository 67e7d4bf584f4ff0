import ArgumentParser
import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeTransform

extension ColorCubeCommand {
    struct Convert: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Turn an edited reference PNG or any LUT into Core Image cube data or another LUT format.",
            discussion: "INPUT may be a reference or Hald CLUT PNG (levels 2 to 16, 8 or 16 bits), a tile or strip image LUT (see --layout), or "
                + LookSpec.help + ". The output format follows --format, else the extension of -o: "
                + FormatArgument.writableList + ". Formats that hold a chain keep the look as it is; the "
                + "others get it baked into a cube, and a warning when that changes it by more than one 8-bit code. "
                + "Without -o the output is INPUT with the extension .bin: size^3 RGBA Float32 entries, "
                + "little-endian, red fastest, as CIColorCube's inputCubeData takes them. Core Image is "
                + "reported to reject cubes above 64: use --size 64 for it." + HelpExamples.convert
        )

        @Argument(help: ArgumentHelp("The look: an edited reference PNG or " + LookSpec.help + " (none with --from and --to)."))
        var input: String?

        @Option(help: ArgumentHelp("With --to and no INPUT: write the conversion from this colour space (colorcube spaces lists them).",
                                   valueName: "space"))
        var from: String?

        @Option(help: ArgumentHelp("With --from: the colour space to convert to.", valueName: "space"))
        var to: String?

        @OptionGroup var spaces: SpaceOptions

        @Option(name: .shortAndLong, help: ArgumentHelp(
            "Points per axis of the cube written (2 to 256), as in every command: the look is resampled or baked to it, "
                + "e.g. 64 for Core Image or 33 for a .cube (default: the look's own size; a chain is baked to its natural size "
                + "unless the format holds it).", valueName: "points"))
        var size: Int?

        /// The spelling of `--size` before every command's `--size` meant the cube written; still taken.
        @Option(help: .hidden)
        var resample: Int?

        @Option(help: ArgumentHelp(
            "Refuse the input unless it holds a cube of this size: a reference PNG or image LUT (e.g. 64 for 512x512, "
                + "32 for a 1024x32 strip) or a plain cube.", valueName: "points"))
        var expectSize: Int?

        @Option(name: .shortAndLong, help: "Output file (default: INPUT with the format's extension, .bin for raw).")
        var output: String?

        @Option(help: ArgumentHelp("Output format: " + LUTFormats.list(FormatArgument.allValueStrings, joinedBy: "or")
            + " (default: from the output extension, else raw)."))
        var format: FormatArgument?

        @Option(help: ArgumentHelp("Interpolation used to read the look's 3D LUTs when --size changes their size: "
            + "trilinear (Core Image's), tetrahedral or nearest (default: as the look's file states, else trilinear)."))
        var interpolation: Interpolation?

        @Option(help: "Bits per value: 8 or 16 for png output (default 8), 10, 12 or 16 for 3dl (default 12).")
        var depth: Int?

        @OptionGroup var profile: ProfileOutputOptions

        @Flag(help: "Keep the code values even when the PNG embeds a non-sRGB ICC profile.")
        var ignoreProfile = false

        @Option(help: "Pixels that are not opaque: reject (fail) or premultiply.")
        var alpha: LUTReadOptions.AlphaHandling = .reject

        @OptionGroup var reading: LookReadOptions

        @OptionGroup var limits: LimitOptions

        func validate() throws {
            switch (input, from, to) {
            case (nil, nil, nil):
                throw ValidationError("give the look to convert (INPUT), or --from and --to for a colour space conversion")
            case (nil, .some, nil), (nil, nil, .some):
                throw ValidationError("a conversion needs both --from and --to")
            case (.some, .some, _), (.some, _, .some):
                throw ValidationError("--from and --to write a conversion on their own; to use a look in a colour space, "
                    + "give --look-space (and --look-output-space)")
            case (nil, .some, .some) where output == nil:
                throw ValidationError("give the output file with -o (its extension chooses the format: .clf keeps the conversion exact)")
            case (nil, .some, .some) where spaces.isSet:
                throw ValidationError("--look-space applies to a look, not to a --from/--to conversion")
            default:
                break
            }
            for (flag, value) in [("--size", size), ("--resample", resample), ("--expect-size", expectSize)] {
                if let value, !ColorCube.sizeRange.contains(value) {
                    throw ValidationError("invalid \(flag) \(value); use 2 to 256 points per axis")
                }
            }
            if let size, let resample, size != resample {
                throw ValidationError("--resample is the older spelling of --size; give one of them")
            }
            let chosen = try outputFormat()
            try profile.validate(for: chosen)
            if let depth, !chosen.bitDepths.contains(depth) {
                guard !chosen.bitDepths.isEmpty else {
                    let withDepths = LUTFormats.all.filter { !$0.bitDepths.isEmpty }.map(\.name)
                    throw ValidationError("--depth applies to \(LUTFormats.list(withDepths, joinedBy: "and")) output, "
                        + "not \(chosen.name)")
                }
                throw ValidationError("invalid --depth \(depth) for \(chosen.name) output; use "
                    + LUTFormats.list(chosen.bitDepths.map(String.init), joinedBy: "or"))
            }
        }

        func run() throws {
            try Diagnostics.reportingFailures { try work() }
        }

        private func work() throws {
            var chosen = try outputFormat()
            var size = size ?? resample
            if let from, let to, let output {
                let source = try ColorSpaces.lookUp(from), target = try ColorSpaces.lookUp(to)
                var look = try Look(conversionFrom: source, to: target)
                let evaluation: BakingError?
                (look, chosen, size, evaluation) = profile.prepare(look, format: chosen, size: size)
                var written = try LUTWriter.write(look, format: chosen, to: output, title: profile.name ?? look.title ?? "conversion",
                                                  size: size, interpolation: size == nil ? nil : interpolation,
                                                  options: LUTWriter.Options(bitDepth: depth))
                if let evaluation { written.bakingError = evaluation }
                Diagnostics.report(written, path: output, format: chosen)
                return
            }
            guard let input else { return }
            let path = output ?? FilePath.replacingExtension(of: input, with: chosen.extensions.first ?? chosen.name)
            try OutputSafety.refuseOverwritingInput(output: path, inputs: LookSpec.paths(input))
            let options = reading.options(expectedSize: expectSize, ignoreProfile: ignoreProfile, alpha: alpha,
                                          pixelLimit: limits.pixelLimit)
            let look = try spaces.wrap(try LookSpec.read(input, options: options), path: input)
            // An image LUT checks --expect-size itself (against its pixel size); other formats here.
            if let expectSize, !look.format.readsImages {
                guard let table = look.plainTable else {
                    throw CommandFailure("\(input) is not a single cube, so --expect-size \(expectSize) has nothing to check; "
                        + "drop --expect-size, or pass --size \(expectSize) to write a \(expectSize)-cube")
                }
                if table.size != expectSize {
                    throw CommandFailure("\(input) holds a \(table.size)-cube, but --expect-size \(expectSize) was asked for; "
                        + "drop --expect-size, or pass --size \(expectSize) to write a \(expectSize)-cube")
                }
            }
            Diagnostics.report(look, path: input)
            let (prepared, format, cubeSize, evaluation) = profile.prepare(look, format: chosen, size: size)
            (chosen, size) = (format, cubeSize)
            // A reference PNG stays a view on its pixels: a 256-cube is never copied to Float32.
            var written = try LUTWriter.write(prepared, format: chosen, to: path, title: chosen is CameraRawProfileFormat ? profile.name ?? FilePath.stem(path) : FilePath.stem(input),
                                              size: size, interpolation: size == nil ? nil : interpolation,
                                              options: LUTWriter.Options(bitDepth: depth))
            if let evaluation { written.bakingError = evaluation }
            Diagnostics.report(written, path: path, format: chosen)
        }

        /// The output format: --format, else the extension of -o, else raw.
        private func outputFormat() throws -> any LUTFileFormat {
            guard format != nil || output != nil else { return RawCubeFormat() }
            return try FormatArgument.outputFormat(format, output: output ?? "")
        }
    }
}
