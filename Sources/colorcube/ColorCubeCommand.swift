import Foundation
import ArgumentParser
import ColorCubeCore

@main
struct ColorCubeCommand: ParsableCommand {
    static func main() {
        InterruptHandler.install()
        if let typo = CommandLine.arguments.dropFirst().first, let suggestion = suggestion(for: typo) {
            Diagnostics.error("unknown command '\(typo.prefix(40))'; did you mean '\(suggestion)'? "
                + "(colorcube --help lists the commands)")
            Foundation.exit(64)
        }
        if let (foreign, ours) = CommandLine.arguments.dropFirst().lazy.compactMap({ word in ffmpegSpelling(word).map { (word, $0) } }).first {
            Diagnostics.error("\(foreign) is ffmpeg's spelling; colorcube's is \(ours) (colorcube apply --help lists the options)")
            Foundation.exit(64)
        }
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            InterruptHandler.yieldToInterrupt()
            exit(withError: error)
        }
        InterruptHandler.yieldToInterrupt()
    }

    static let configuration = CommandConfiguration(
        commandName: "colorcube",
        abstract: "Make, convert and apply colour-cube LUTs.",
        discussion: """
            Workflow: `generate` an identity reference PNG, edit it in Photoshop (colour adjustments \
            only), `convert` it into Core Image cube data or another LUT format, `apply` it to photos \
            or video frames. `learn` makes a look from a photo before and after an edit done anywhere.
            """,
        version: "0.1.0",
        subcommands: [Generate.self, Convert.self, Apply.self, Combine.self, Invert.self, Info.self, Preview.self, Learn.self, Spaces.self, Studio.self]
    )
}

extension ColorCubeCommand {
    /// colorcube's option for an ffmpeg option a user may carry over ("-c:v" is `--video-codec`),
    /// which the parser would otherwise take for a typo of another option; nil for any other word.
    static func ffmpegSpelling(_ word: String) -> String? {
        switch word {
        case "-c:v", "-codec:v", "-vcodec": "--video-codec"
        case "-c:a", "-codec:a", "-acodec": "--audio-codec"
        case "-crf": "--crf"
        case "-q:v", "-qscale:v": "--quality (pictures) or --crf (clips)"
        case "-threads": "--jobs"
        default: nil
        }
    }

    /// The command `word` was probably meant to be, when it is no command but within two edits
    /// of one ("aply", "conver"); nil for commands, options and words far from any.
    static func suggestion(for word: String) -> String? {
        let names = configuration.subcommands.map { $0._commandName } + ["help"]
        guard !word.hasPrefix("-"), !names.contains(word) else { return nil }
        let scored = names.map { (name: $0, distance: EditDistance.between(word.lowercased(), $0)) }
        guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= 2,
              best.distance < best.name.count else { return nil }
        return best.name
    }
}
