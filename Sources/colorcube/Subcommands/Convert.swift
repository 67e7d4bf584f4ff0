import ArgumentParser
import ColorCubeConverter
import ColorCubeCore

extension ColorCubeCommand {
    struct Convert: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Turn an edited reference PNG into Core Image cube data or another LUT format.",
            discussion: """
                The default output is INPUT with the extension .bin: size^3 RGBA Float32 entries, \
                little-endian, red fastest, as CIColorCube's inputCubeData takes them.
                """
        )

        @Argument(help: "The edited reference PNG.")
        var input: String

        @Option(name: .shortAndLong, help: "Expected cube size (4, 16, 64 or 256); the image must agree.")
        var size: Int?

        @Option(name: .shortAndLong, help: "Output file (default: INPUT with the format's extension, .bin for raw).")
        var output: String?

        @Option(help: "Output format: raw or cube (default: from the output extension, else raw).")
        var format: LUTFormat?

        @Flag(help: "Keep the code values even when the PNG embeds a non-sRGB ICC profile.")
        var ignoreProfile = false

        @Option(help: "Pixels that are not opaque: reject (fail) or premultiply.")
        var alpha: ReferenceDecoder.AlphaHandling = .reject

        func validate() throws {
            if let size, !HaldLayout.referenceSizes.contains(size) {
                throw ValidationError("invalid --size \(size); valid sizes are 4, 16, 64, 256")
            }
        }

        func run() throws {
            try Diagnostics.reportingFailures { try work() }
        }

        private func work() throws {
            let (path, format) = try outputPathAndFormat()
            let options = ReferenceDecoder.Options(expectedSize: size, ignoreProfile: ignoreProfile, alpha: alpha)
            let result = try ReferenceDecoder.decode(path: input, options: options)
            if let profile = result.convertedFromProfile {
                Diagnostics.note("\(input): converted colours from its embedded profile \"\(profile)\" to sRGB "
                    + "(pass --ignore-profile to keep the code values)")
            }
            if result.roughness.suggestsSpatialEdit {
                Diagnostics.warning(Self.roughnessWarning(result.roughness, path: input))
            }
            try LUTWriter.write(result.table, format: format, to: path, title: FilePath.stem(input))
        }

        static func roughnessWarning(_ roughness: Roughness, path: String) -> String {
            func figures(_ v: SIMD3<Double>) -> String {
                [v.x, v.y, v.z].map { Diagnostics.decimal($0, places: 2) }.joined(separator: "/")
            }
            return "\(path) looks spatially edited (blurred, sharpened, resized or given noise?), which ruins a LUT: "
                + "curvature along red/green/blue \(figures(roughness.curvature)) code values "
                + "(colour adjustments stay below \(Diagnostics.decimal(roughness.curvatureLimit, places: 2))), "
                + "zig-zag \(figures(roughness.zigzag)) (below \(Diagnostics.decimal(Roughness.zigzagLimit, places: 2))); "
                + "edit a fresh reference with colour adjustments only"
        }

        private func outputPathAndFormat() throws -> (String, LUTFormat) {
            let chosen: LUTFormat
            if let format {
                chosen = format
            } else if let output {
                guard let byExtension = LUTFormat(path: output) else {
                    throw ValidationError("cannot tell the format of \(output) from its extension; use .bin, .raw or .cube, or pass --format")
                }
                chosen = byExtension
            } else {
                chosen = .raw
            }
            guard [.raw, .cube].contains(chosen) else {
                throw ValidationError("\(chosen.rawValue) output is not supported; use --format raw or cube")
            }
            let path = output ?? FilePath.replacingExtension(of: input, with: chosen.defaultExtension)
            try OutputSafety.refuseOverwritingInput(output: path, inputs: [input])
            return (path, chosen)
        }
    }
}

extension LUTFormat: ExpressibleByArgument {}
extension ReferenceDecoder.AlphaHandling: ExpressibleByArgument {}
