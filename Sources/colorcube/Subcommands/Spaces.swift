import ArgumentParser
import Foundation
import ColorCubeTransform

extension ColorCubeCommand {
    struct Spaces: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the colour spaces a look or a picture can be in.",
            discussion: """
                One line per space: its Color Interop ID, its name in OpenColorIO's studio config, then its maker, \
                what its values are (log, scene-linear, sdr-video, hdr-video) and whether it is scene- or \
                display-referred, and its aliases (srgb_tx, acescct, camera_rec709, ...). Commands take a space by ID (with or without ocio:), name or alias, in any case.
                """ + HelpExamples.spaces
        )

        @Argument(help: "Show only the spaces whose ID, name, aliases or maker contain this text (any case).")
        var filter: String?

        func run() throws {
            let key = filter?.lowercased()
            let shown = ColorSpaces.all.filter { space in
                guard let key else { return true }
                return (space.names + [space.family]).contains { $0.lowercased().contains(key) }
            }
            guard !shown.isEmpty else {
                Diagnostics.error("no colour space matches '\(key?.prefix(40) ?? "")' (colorcube spaces lists them all)")
                throw ExitCode(64)
            }
            let idWidth = shown.map(\.id.count).max() ?? 0, nameWidth = shown.map(\.name.count).max() ?? 0
            for space in shown {
                let id = space.id.padding(toLength: idWidth, withPad: " ", startingAt: 0)
                let name = space.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
                print("\(id)  \(name)  \(space.family), \(space.encoding), \(space.kind.rawValue)"
                    + (space.origin.map { "; from \($0)" } ?? "")
                    + (space.aliases.isEmpty ? "" : "; also " + space.aliases.joined(separator: ", ")))
            }
        }
    }
}
