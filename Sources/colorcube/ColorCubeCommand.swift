import ArgumentParser

@main
struct ColorCubeCommand: ParsableCommand {
    static func main() {
        InterruptHandler.install()
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
        subcommands: [Generate.self, Convert.self, Apply.self, Combine.self, Invert.self, Info.self, Preview.self, Learn.self]
    )
}
