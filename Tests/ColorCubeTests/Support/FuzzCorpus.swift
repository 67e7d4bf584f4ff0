import Foundation

/// The package's Tests/FuzzCorpus folder: the fuzz targets' seed inputs, among them every input that
/// once crashed a reader (named crash-*).
enum FuzzCorpus {
    static func path(_ target: String, _ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("FuzzCorpus/\(target)/\(name)").path
    }
}
