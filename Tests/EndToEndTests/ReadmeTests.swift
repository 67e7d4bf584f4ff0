import ColorCubeConverter
import ColorCubeImaging
import ColorCubeLooks
import Foundation
import Testing

/// The README against the tool: every command has a section, every option a synopsis names exists
/// in that command's --help, and the look formats table lists exactly the formats of
/// `LUTFormats.all`, with their extensions.
struct ReadmeTests {
    static let readme: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
    }()

    static let subcommands = ["generate", "convert", "apply", "combine", "invert", "info", "preview", "learn", "spaces", "studio"]

    @Test func everyCommandHasASectionAndTheRootHelpListsOnlyThose() throws {
        let help = try CommandRunner.run(["--help"]).stdoutText
        for command in Self.subcommands {
            #expect(Self.readme.contains("\n### \(command)\n"), "README has no section for \(command)")
            #expect(help.contains("  \(command) "), "colorcube --help does not list \(command)")
        }
        let listed = help.components(separatedBy: "SUBCOMMANDS:").last ?? ""
        // Command lines are indented by two spaces; wrapped abstracts by more.
        for line in listed.split(separator: "\n") where line.hasPrefix("  ") && !line.hasPrefix("   ") {
            let name = line.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init) ?? ""
            guard !name.isEmpty, !name.hasPrefix("See"), name != "help" else { continue }
            #expect(Self.subcommands.contains(name), "README's command list lacks \(name)")
        }
    }

    @Test(arguments: subcommands)
    func synopsisOptionsExistInHelp(command: String) throws {
        let help = try CommandRunner.run([command, "--help"]).stdoutText
        // The synopsis: the indented lines after the command's heading, up to the first blank line.
        let section = Self.readme.components(separatedBy: "\n### \(command)\n").dropFirst().first ?? ""
        let synopsis = section.split(separator: "\n", omittingEmptySubsequences: false)
            .drop { $0.trimmingCharacters(in: .whitespaces).isEmpty }
            .prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .joined(separator: "\n")
        #expect(synopsis.contains("colorcube \(command)"), "no synopsis under ### \(command)")
        let options = synopsis.split { !($0.isLetter || $0.isNumber || $0 == "-") }.filter { $0.hasPrefix("--") }
        #expect(!options.isEmpty || command == "info" || command == "spaces")
        for option in Set(options) {
            #expect(help.contains(String(option)), "README's synopsis of \(command) names \(option), which --help does not")
        }
    }

    /// The quick start's picture is what the command beside it makes, byte for byte.
    @Test func theQuickStartPictureIsWhatItsCommandMakes() throws {
        let command = "colorcube preview LUTs/*.cube --image LUTs/samples/coffee.png --width 240 -o LUTs/preview.jpg"
        #expect(Self.readme.contains("`\(command)`"), "the README no longer shows the contact sheet's command")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let looks = try FileManager.default.contentsOfDirectory(atPath: root + "/LUTs").filter { $0.hasSuffix(".cube") }.sorted()
        let scratch = try Scratch()
        let result = try CommandRunner.run(["preview"] + looks.map { "LUTs/" + $0 }
            + ["--image", "LUTs/samples/coffee.png", "--width", "240", "-o", scratch.file("preview.jpg")], in: root)
        #expect(result.status == 0, "\(result.stderr)")
        let made = try Data(contentsOf: URL(fileURLWithPath: scratch.file("preview.jpg")))
        let shown = try Data(contentsOf: URL(fileURLWithPath: root + "/LUTs/preview.jpg"))
        #expect(made == shown, "LUTs/preview.jpg is not what its command makes today: run Tools/make-looks")
    }

    @Test func theLooksTableListsEveryFormatOfTheTable() throws {
        let table = Self.readme.components(separatedBy: "### Looks\n").dropFirst().first?
            .components(separatedBy: "\n\n").first { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty } ?? ""
        let rows = table.split(separator: "\n").filter { $0.hasPrefix("|") }.dropFirst(2)
        var extensions = Set<String>()
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2 else { continue }
            for piece in cells[1].split(separator: "`", omittingEmptySubsequences: false).enumerated() where piece.offset % 2 == 1 && piece.element.hasPrefix(".") {
                extensions.insert(String(piece.element).lowercased())
            }
        }
        let expected = Set(LUTFormats.all.flatMap(\.extensions).map { "." + $0 })
        #expect(extensions == expected,
                "README lists \(extensions.subtracting(expected).sorted()) too many, \(expected.subtracting(extensions).sorted()) missing")
        #expect(rows.count == LUTFormats.all.count, "one README row per format: \(rows.count) rows, \(LUTFormats.all.count) formats")
    }

    /// The image table names exactly the codecs of `ImageCodecs.all` (a row may hold two, "HEIC,
    /// AVIF"), and says "8" in its bit-depth column for the formats that store 8 bits.
    @Test func theImagesTableListsEveryCodecOfTheTable() throws {
        let table = Self.readme.components(separatedBy: "### Images\n").dropFirst().first?
            .components(separatedBy: "\n\n").first { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty } ?? ""
        let rows = table.split(separator: "\n").filter { $0.hasPrefix("|") }.dropFirst(2)
        var named: [String: String] = [:]
        for row in rows {
            let cells = row.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 5 else { continue }
            for name in cells[1].split(separator: ",") {
                named[name.trimmingCharacters(in: .whitespaces).lowercased()] = cells[4]
            }
        }
        let codecs = ImageCodecs.all.map { $0.displayName.lowercased() }
        #expect(Set(named.keys) == Set(codecs), "README's image table: \(named.keys.sorted()), the codecs: \(codecs.sorted())")
        for codec in ImageCodecs.all where codec.isWritable && codec.storedSampleBits == 8 {
            #expect(named[codec.displayName.lowercased()] == "8", "\(codec.displayName) stores 8 bits")
        }
    }
}
