import Foundation
import Testing

/// The modules an app on any platform can link without colorcube's C libraries: Core, Transform and
/// Looks (the text, XML and raw look formats). Package.swift must give them no C target, directly
/// or through another module, and their sources must import nothing but Swift's own libraries and
/// each other.
struct PortableModulesTests {
    static let portable = ["ColorCubeCore", "ColorCubeTransform", "ColorCubeLooks"]
    /// What a portable source file may import besides the portable modules.
    static let platformModules: Set<String> = ["Foundation", "FoundationXML", "Dispatch", "Glibc", "Musl", "Darwin"]

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Package.swift's targets: name, kind and the names in `dependencies: [...]`.
    static func targets() throws -> [String: (kind: String, dependencies: [String])] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        var result: [String: (kind: String, dependencies: [String])] = [:]
        let kinds = ["target", "executableTarget", "testTarget", "systemLibrary"]
        let declaration = try Regex(#"\.(target|executableTarget|testTarget|systemLibrary)\(\s*name:\s*"([^"]+)""#)
        let matches = manifest.matches(of: declaration)
        for (index, match) in matches.enumerated() {
            let end = index + 1 < matches.count ? matches[index + 1].range.lowerBound : manifest.endIndex
            let body = manifest[match.range.upperBound..<end]
            var dependencies: [String] = []
            if let list = body.range(of: "dependencies: [") {
                let inside = body[list.upperBound...].prefix { $0 != "]" }
                dependencies = inside.matches(of: try Regex(#""([^"]+)""#)).compactMap { $0.output[1].substring.map(String.init) }
            }
            let kind = String(match.output[1].substring ?? "")
            #expect(kinds.contains(kind))
            result[String(match.output[2].substring ?? "")] = (kind, dependencies)
        }
        return result
    }

    /// True for a system library or a target with C sources.
    static func isC(_ name: String, kind: String) -> Bool {
        if kind == "systemLibrary" { return true }
        let folder = root.appendingPathComponent("Sources").appendingPathComponent(name)
        let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        return files.contains { $0.hasSuffix(".c") || $0.hasSuffix(".h") || $0.hasSuffix(".modulemap") }
    }

    @Test func portableModulesDependOnNoCTarget() throws {
        let targets = try Self.targets()
        #expect(targets["_CPNG"].map { Self.isC("_CPNG", kind: $0.kind) } == true, "the check must see C targets")
        for module in Self.portable {
            var seen: Set<String> = []
            var queue = [module]
            while let next = queue.popLast() {
                guard seen.insert(next).inserted else { continue }
                let target = try #require(targets[next], "Package.swift has no target \(next)")
                #expect(!Self.isC(next, kind: target.kind), "\(module) depends on the C target \(next)")
                queue += target.dependencies
            }
            #expect(seen.isSubset(of: Set(Self.portable)), "\(module) reaches \(seen.subtracting(Self.portable).sorted())")
        }
    }

    @Test(arguments: portable)
    func portableSourcesImportNoCModule(module: String) throws {
        let folder = Self.root.appendingPathComponent("Sources").appendingPathComponent(module)
        let files = (FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        let allowed = Self.platformModules.union(Self.portable)
        let importLine = try Regex(#"^\s*(?:@_exported\s+)?import\s+(?:(?:struct|enum|class|func|var|let)\s+)?([A-Za-z_]+)"#)
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                guard let match = line.firstMatch(of: importLine), let name = match.output[1].substring else { continue }
                #expect(allowed.contains(String(name)), "\(module)/\(file) imports \(name)")
            }
        }
    }
}

/// Every module's `import` of another of the package's modules is declared in Package.swift, for
/// every target, tests included: an undeclared one compiles only through a module that happens to
/// re-export it, and breaks when that one changes.
struct DeclaredImportsTests {
    @Test func everyImportOfAProjectModuleIsDeclared() throws {
        let targets = try PortableModulesTests.targets()
        let importLine = try Regex(#"^\s*(?:@_exported\s+|@testable\s+)?import\s+(?:(?:struct|enum|class|func|var|let)\s+)?([A-Za-z_]+)"#)
        var checked = 0
        for (name, target) in targets where target.kind != "systemLibrary" {
            let base = PortableModulesTests.root.appendingPathComponent(target.kind == "testTarget" ? "Tests" : "Sources")
                .appendingPathComponent(name)
            let files = (FileManager.default.enumerator(atPath: base.path)?.compactMap { $0 as? String } ?? [])
                .filter { $0.hasSuffix(".swift") }
            for file in files {
                let text = try String(contentsOf: base.appendingPathComponent(file), encoding: .utf8)
                for line in text.split(separator: "\n") {
                    guard let match = line.firstMatch(of: importLine), let imported = match.output[1].substring.map(String.init),
                          imported != name, targets[imported] != nil else { continue }
                    checked += 1
                    #expect(target.dependencies.contains(imported), "\(name)/\(file) imports \(imported), which Package.swift does not declare for \(name)")
                }
            }
        }
        #expect(checked > 100, "the check must see the package's imports")
    }
}
