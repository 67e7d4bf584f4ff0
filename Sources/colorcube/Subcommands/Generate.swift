import ArgumentParser
import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeGenerator
import Foundation

extension ColorCubeCommand {
    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write an identity reference PNG (a Hald CLUT, or a tile or strip image LUT) to edit.",
            discussion: """
                The image holds every lattice colour once, red fastest, then green, then blue: a \
                64-cube is 512x512. Edit it with colour-only adjustments and `convert` it. With \
                --layout tile it is a square of tiles, blue choosing the tile (8x8 tiles of 64x64 \
                for a 64-cube: OBS, ReShade); with --layout strip the tiles sit side by side \
                (1024x32 for a 32-cube: Unreal), with unity-strip green grows upwards (Unity).
                """ + HelpExamples.generate
        )

        @Option(name: [.customShort("s"), .customLong("size")],
                help: "Cube size: 4, 16, 64 or 256 (64 when not given); for strips 2 to 256 (32 when not given).")
        var requestedSize: Int?

        @Option(help: ArgumentHelp("Layout: hald, tile (OBS, ReShade), strip (Unreal) or unity-strip (Unity).", valueName: "layout"))
        var layout: ImageLUTLayout.Kind = .hald

        /// The size to write.
        var size: Int { requestedSize ?? ImageLUT.format(for: layout).preferredSize }

        @Option(help: "Bits per sample: 8 or 16.")
        var depth: Int = 8

        @Flag(help: "Write all standard sizes (identity-4.png ... identity-256.png; strips 16, 32 and 64) into the -o folder.")
        var all = false

        @Option(name: .shortAndLong, help: "Output file (default identity-N.png, identity-N-LAYOUT.png), or folder with --all (default: current).")
        var output: String?

        @Option(help: ArgumentHelp("Write this sample look's reference instead of the identity (default output NAME.png): "
            + SampleLook.allCases.map(\.rawValue).joined(separator: ", ") + ".", valueName: "name"))
        var look: SampleLook?

        func validate() throws {
            guard ReferenceGenerator.canGenerate(size: size, layout: layout) else {
                throw ValidationError(layout.isSquare
                    ? "invalid --size \(size); valid sizes are 4, 16, 64, 256"
                    : "invalid --size \(size) for --layout \(layout.rawValue); use 2 to 256")
            }
            guard [8, 16].contains(depth) else {
                throw ValidationError("invalid --depth \(depth); use 8 or 16")
            }
            if requestedSize != nil, all {
                throw ValidationError("--all writes every size; drop --size")
            }
            if look != nil, all {
                throw ValidationError("--look writes one reference; drop --all")
            }
        }

        func run() throws {
            try Diagnostics.reportingFailures { try work() }
        }

        private func work() throws {
            if let look {
                try LUTWriter.write(look.cube(size: size), format: ImageLUT.format(for: layout),
                                    to: output ?? "\(look.rawValue).png", title: look.rawValue, options: .init(bitDepth: depth))
            } else if all {
                let folder = output ?? "."
                try Folders.create(folder)
                for size in ReferenceGenerator.standardSizes(for: layout) {
                    try ReferenceGenerator.writeIdentity(size: size, bitDepth: depth, layout: layout,
                                                         to: "\(folder)/" + ReferenceGenerator.fileName(size: size, layout: layout))
                }
            } else {
                try ReferenceGenerator.writeIdentity(size: size, bitDepth: depth, layout: layout,
                                                     to: output ?? ReferenceGenerator.fileName(size: size, layout: layout))
            }
        }
    }
}

extension SampleLook: ExpressibleByArgument {}
