import ArgumentParser
import ColorCubeConverter
import ColorCubeCore
import ColorCubeGenerator
import Foundation

extension ColorCubeCommand {
    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write an identity reference PNG (a Hald CLUT) to edit.",
            discussion: """
                The image holds every lattice colour once, red fastest, then green, then blue: a \
                64-cube is 512x512. Edit it with colour-only adjustments and `convert` it.
                """
        )

        @Option(name: [.customShort("s"), .customLong("size")], help: "Cube size: 4, 16, 64 or 256; 64 when not given.")
        var requestedSize: Int?

        /// The size to write.
        var size: Int { requestedSize ?? 64 }

        @Option(help: "Bits per sample: 8 or 16.")
        var depth: Int = 8

        @Flag(help: "Write all four sizes (identity-4.png ... identity-256.png) into the -o folder.")
        var all = false

        @Option(name: .shortAndLong, help: "Output file (default identity-N.png), or folder with --all (default: current).")
        var output: String?

        @Option(help: ArgumentHelp("Write this sample look's reference instead of the identity (default output NAME.png): "
            + SampleLook.allCases.map(\.rawValue).joined(separator: ", ") + ".", valueName: "name"))
        var look: SampleLook?

        func validate() throws {
            guard HaldLayout.referenceSizes.contains(size) else {
                throw ValidationError("invalid --size \(size); valid sizes are 4, 16, 64, 256")
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
                try LUTWriter.write(look.cube(size: size), format: HaldFormat(), to: output ?? "\(look.rawValue).png",
                                    title: look.rawValue, options: .init(bitDepth: depth))
            } else if all {
                let folder = output ?? "."
                try Folders.create(folder)
                for size in HaldLayout.referenceSizes {
                    try ReferenceGenerator.writeIdentity(size: size, bitDepth: depth,
                                                         to: "\(folder)/identity-\(size).png")
                }
            } else {
                try ReferenceGenerator.writeIdentity(size: size, bitDepth: depth,
                                                     to: output ?? "identity-\(size).png")
            }
        }
    }
}

extension SampleLook: ExpressibleByArgument {}
