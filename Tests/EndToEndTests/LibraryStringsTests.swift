import Foundation
import Testing

/// The library speaks in remedies, the command line in flags: no string literal in a library
/// module names a command-line option (`ErrorRemedy` keys reach the flags in the CLI's Diagnostics).
struct LibraryStringsTests {
    @Test func noLibraryStringNamesAFlag() throws {
        let sources = PortableModulesTests.root.appendingPathComponent("Sources")
        let modules = try FileManager.default.contentsOfDirectory(atPath: sources.path)
            .filter { $0.hasPrefix("ColorCube") }
        #expect(modules.count >= 9)
        let flag = try Regex(#""[^"\n]*--[a-z][a-z-]+[^"\n]*""#)
        for module in modules {
            let folder = sources.appendingPathComponent(module)
            let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String }
                .filter { $0.hasSuffix(".swift") } ?? []
            for file in files {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                    #expect(line.firstMatch(of: flag) == nil, "\(module)/\(file): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
    }
}
