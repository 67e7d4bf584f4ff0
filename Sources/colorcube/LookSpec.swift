import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import Foundation

/// How a look is named on the command line: one LUT file, or a chain of files joined by `+`
/// (`log-to-rec709.cube+grade.cc`), applied left to right with no intermediate file. A file whose
/// own name holds a `+` is read as that file when it exists.
enum LookSpec {
    /// The separator between the files of a chain.
    static let separator: Character = "+"

    /// The help text's description of a LOOK argument.
    static let help = "any LUT file (" + FormatArgument.readableList + "), or several joined by + to chain them"

    /// The files `spec` names, in order.
    static func paths(_ spec: String) -> [String] {
        if !spec.contains(separator) || FileManager.default.fileExists(atPath: spec) { return [spec] }
        return spec.split(separator: separator, omittingEmptySubsequences: false).map(String.init)
    }

    /// Reads every file of `spec` and chains them (see `Look.init(chain:)`).
    /// - Throws: `CommandFailure` for an empty name in a chain; the reader's errors otherwise.
    static func read(_ spec: String, options: LUTReadOptions) throws -> Look {
        let files = paths(spec)
        if files.contains(where: \.isEmpty) {
            throw CommandFailure("\(spec): a chain of looks needs a file name on each side of every +")
        }
        return Look(chain: try files.map { try LUTReader.read(path: $0, options: options) })
    }
}
