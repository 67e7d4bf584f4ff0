import Foundation

/// Runs the built `colorcube` executable and captures what it prints.
///
/// The executable sits beside the test bundle in the build's products folder, whatever scratch
/// path or configuration the tests were built with; COLORCUBE_BINARY overrides it.
enum CommandRunner {
    struct Result {
        var status: Int32
        var stdout: Data
        var stderr: String
        var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    }

    static var binary: String {
        if let override = ProcessInfo.processInfo.environment["COLORCUBE_BINARY"] { return override }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = executable.deletingLastPathComponent()
        // On Linux the test runner is <products>/colorcubePackageTests.xctest.
        if folder.lastPathComponent.hasSuffix(".xctest") { folder = folder.deletingLastPathComponent() }
        return folder.appendingPathComponent("colorcube").path
    }

    /// Runs `colorcube arguments...` in `directory`, feeding `input` on standard input, with
    /// `environment` added to this process's environment.
    @discardableResult
    static func run(_ arguments: [String], in directory: String? = nil, input: Data? = nil,
                    environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let output = Pipe(), errors = Pipe(), standardInput = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = standardInput
        try process.run()
        // Read standard error on another thread so a chatty child never blocks on a full pipe.
        let errorText = ErrorCollector(errors.fileHandleForReading)
        if let input {
            let writer = standardInput.fileHandleForWriting
            Thread.detachNewThread {
                try? writer.write(contentsOf: input)
                try? writer.close()
            }
        } else {
            try? standardInput.fileHandleForWriting.close()
        }
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: stdout, stderr: errorText.wait())
    }
}

/// Reads a pipe to its end on a thread of its own.
final class ErrorCollector: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}

/// A fresh folder, removed when released.
final class Scratch {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("colorcube-e2e-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: file(name)) }

    /// Names of everything in the folder, hidden ones included, sorted.
    func listing(_ folder: String = "") -> [String] {
        let root = folder.isEmpty ? path : file(folder)
        let items = (FileManager.default.enumerator(atPath: root)?.allObjects as? [String]) ?? []
        return items.sorted()
    }
}

/// Paths of shared resources.
enum Resources {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static func fixture(_ name: String) -> String { packageRoot.appendingPathComponent("Tests/Fixtures/\(name)").path }
    /// A sample photo shipped with the package, or nil when it is absent.
    static func photo(_ name: String) -> String? {
        for folder in ["LUTs/samples", "../shared/photos"] {
            let path = packageRoot.appendingPathComponent("\(folder)/\(name)").path
            if FileManager.default.fileExists(atPath: path) { return path }
        }
        return nil
    }
}
