import ArgumentParser
import ColorCubeStudio
import Dispatch
import Foundation

/// `colorcube studio`: parses the command line, starts the server and prints its address.
@main
struct StudioCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "colorcube studio",
        abstract: "Pick and chain looks on your own photos in a browser page, then export the chain or grade a folder.",
        discussion: """
            Serves a page on this machine only (127.0.0.1) and prints its address, which carries a secret for \
            this run: open it in a browser. The page shows the photos given, every look of the --looks folders and \
            the sample looks under each, a chain of looks with a strength per step, the colorcube apply line that \
            does the same, exports of the chain and grading of every photo into a folder. Ctrl-C stops it.

            Examples:
              colorcube studio ~/Pictures/trip --looks ~/LUTs
              colorcube studio photo.jpg --port 8123
            """
    )

    @Argument(help: "Photos and folders of photos to try looks on (and to grade).")
    var photos: [String] = []

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Folders of looks: every file colorcube reads as a look.", valueName: "folder"))
    var looks: [String] = []

    @Option(help: "The port to listen on; 0 lets the system pick one.")
    var port: Int = 0

    @Option(help: ArgumentHelp("The folder of sample looks (default: LUTs/ of the checkout colorcube was built in, when found).",
                               valueName: "folder"))
    var samples: String?

    @Flag(help: "Leave out the sample looks.")
    var noSamples = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535, got \(port)") }
        if noSamples, samples != nil { throw ValidationError("give --samples or --no-samples, not both") }
    }

    func run() async throws {
        let sampleFolder = noSamples ? nil : samples ?? StudioCatalog.findSamples(near: Self.executablePath())
        let catalog: StudioCatalog, renderer: StudioRenderer
        do {
            catalog = try StudioCatalog(photoInputs: photos, lookFolders: looks, samples: sampleFolder)
            renderer = try StudioRenderer()
        } catch {
            Self.fail("\(error)")
        }
        let server: StudioServer
        let host: String
        do {
            server = try StudioServer(address: "127.0.0.1", port: UInt16(port))
            host = try await server.start { host in
                StudioRoutes(catalog: catalog, renderer: renderer, guardian: StudioGuard(host: host))
            }
        } catch {
            renderer.close()
            Self.fail("cannot listen on 127.0.0.1:\(port): \(error); give another --port")
        }
        let secret = server.routes?.guardian.secret ?? ""
        // Written at once, unbuffered: a script waiting for the address reads it while the server runs.
        FileHandle.standardOutput.write(Data("""
            colorcube studio: \(catalog.photos.count) photos, \(catalog.looks.count) looks
            open http://\(host)/?token=\(secret)
            (Ctrl-C stops it)

            """.utf8))
        let stopper = Self.stopOnSignals(server)
        await server.wait()
        stopper.forEach { $0.cancel() }
        renderer.close()
        FileHandle.standardError.write(Data("colorcube: studio stopped\n".utf8))
    }


    /// SIGINT and SIGTERM stop the server; the run then ends normally.
    private static func stopOnSignals(_ server: StudioServer) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { Task { await server.stop() } }
            source.resume()
            return source
        }
    }

    /// The path of this executable.
    private static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("colorcube: error: \(message)\n".utf8))
        Foundation.exit(1)
    }
}
