import ArgumentParser

extension ColorCubeCommand {
    struct Convert: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Turn an edited reference PNG into cube data.")
        func run() throws {}
    }
}
