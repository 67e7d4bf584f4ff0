import Foundation

/// A fresh folder under the system's temporary directory, removed when the value is released.
final class TemporaryDirectory {
    let path: String

    init() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("colorcube-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ name: String) -> String { path + "/" + name }
}

/// The package's Tests/Fixtures folder.
enum Fixtures {
    static func path(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)").path
    }
}
