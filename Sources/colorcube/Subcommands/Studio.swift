import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension ColorCubeCommand {
    /// Runs `colorcube-studio`, built beside `colorcube`, with the same arguments: the HTTP server
    /// stays out of the `colorcube` binary and its build.
    struct Studio: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Pick and chain looks on your photos in a browser page; export the chain or grade a folder.",
            discussion: "Runs colorcube-studio (built beside colorcube); colorcube studio --help lists its options."
        )

        @Argument(parsing: .captureForPassthrough, help: "PHOTO|FOLDER ... [--looks FOLDER ...] [--port N]")
        var arguments: [String] = []

        func run() throws {
            let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
            let studio = URL(fileURLWithPath: own).deletingLastPathComponent().appendingPathComponent("colorcube-studio").path
            guard FileManager.default.isExecutableFile(atPath: studio) else {
                Diagnostics.error("colorcube studio runs \(studio), which is not there: build it with "
                    + "swift build -c release --product colorcube-studio")
                throw ExitCode.failure
            }
            let argv = ([studio] + arguments).map { strdup($0) } + [nil]
            execv(studio, argv)
            Diagnostics.error("cannot run \(studio): \(String(cString: strerror(errno)))")
            throw ExitCode.failure
        }
    }
}
