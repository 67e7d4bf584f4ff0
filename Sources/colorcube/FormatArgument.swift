import ArgumentParser
import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore

/// A `--format` value: a name from `LUTFormats`.
struct FormatArgument: ExpressibleByArgument {
    let format: any LUTFileFormat

    /// Only the formats colorcube writes: `--format` names an output.
    init?(argument: String) {
        guard let format = LUTFormats.all.named(argument), format.isWritable else { return nil }
        self.format = format
    }

    static var allValueStrings: [String] { LUTFormats.all.filter(\.isWritable).map(\.name) }

    /// The extensions colorcube reads, from the table: ".bin/.raw, .cube, .3dl, .png or .icc/.icm/.pf".
    static var readableList: String { LUTFormats.list(LUTFormats.all.extensionGroups, joinedBy: "or") }

    /// The extensions of the formats a cube can be written in (what `learn` makes), from the table.
    static var cubeExtensionList: String {
        LUTFormats.list(LUTFormats.all.filter(\.writesCubes).extensionGroups, joinedBy: "or")
    }

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
            var extensions: [String] = []
            for format in LUTFormats.all where format.isWritable {
                for name in format.extensions.map({ "." + $0 }) where !extensions.contains(name) { extensions.append(name) }
            }
            throw ValidationError("cannot tell the format of \(output) from its extension; use "
                + LUTFormats.list(extensions, joinedBy: "or") + ", or pass --format")
        }
        return byExtension
    }

    /// Each format colorcube writes with its extensions, from the table: "raw Core Image data
    /// (RGBA Float32) (.bin/.raw), .cube (Adobe/Iridas, Resolve) (also .itx), ..." (a name that
    /// holds its extension is not given it twice).
    static var writableList: String {
        LUTFormats.list(LUTFormats.all.filter(\.isWritable).map { format in
            let extensions = format.extensions.map { "." + $0 }
            guard let first = extensions.first, !format.displayName.contains(first) else {
                return format.displayName + (extensions.count > 1 ? " (also " + extensions.dropFirst().joined(separator: ", ") + ")" : "")
            }
            return format.displayName + " (" + extensions.joined(separator: "/") + ")"
        }, joinedBy: "or")
    }
}

extension LUTReadOptions.AlphaHandling: ExpressibleByArgument {}
