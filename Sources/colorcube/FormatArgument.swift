import ArgumentParser
import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore

/// A `--format` value: a name from `LUTFormats`.
struct FormatArgument: ExpressibleByArgument {
    let format: any LUTFileFormat

    init?(argument: String) {
        guard let format = LUTFormats.all.named(argument) else { return nil }
        self.format = format
    }

    static var allValueStrings: [String] { LUTFormats.all.names }

    /// The extensions colorcube reads, from the table: ".bin/.raw, .cube, .3dl, .png or .icc/.icm".
    static var readableList: String { LUTFormats.list(LUTFormats.all.extensionGroups, joinedBy: "or") }

    /// The formats that hold a chain, by name: "clf".
    static var chainList: String {
        let names = LUTFormats.all.filter(\.holdsChains).map { "." + ($0.extensions.first ?? $0.name) }
        return names.isEmpty ? "none yet" : LUTFormats.list(names, joinedBy: "and")
    }

    /// The output format: `format`, else the extension of `output`.
    /// - Throws: `ValidationError` when neither tells a format.
    static func outputFormat(_ format: FormatArgument?, output: String) throws -> any LUTFileFormat {
        if let format { return format.format }
        guard let byExtension = LUTFormats.all.forPath(output) else {
            let extensions = LUTFormats.all.flatMap(\.extensions).map { "." + $0 }
            throw ValidationError("cannot tell the format of \(output) from its extension; use "
                + LUTFormats.list(extensions, joinedBy: "or") + ", or pass --format")
        }
        return byExtension
    }

    /// Each format with its extensions, from the table: ".bin/.raw (raw Core Image data ...), ...".
    static var writableList: String {
        LUTFormats.list(LUTFormats.all.map { format in
            format.extensions.map { "." + $0 }.joined(separator: "/") + " (" + format.displayName + ")"
        }, joinedBy: "or")
    }
}

extension LUTReadOptions.AlphaHandling: ExpressibleByArgument {}
