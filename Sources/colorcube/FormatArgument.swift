import ArgumentParser
import ColorCubeConverter

/// A `--format` value: a name from `LUTFormats`.
struct FormatArgument: ExpressibleByArgument {
    let format: any LUTFileFormat

    init?(argument: String) {
        guard let format = LUTFormats.named(argument) else { return nil }
        self.format = format
    }

    static var allValueStrings: [String] { LUTFormats.names }

    /// The extensions colorcube reads, from the table: ".bin/.raw, .cube, .3dl, .png or .icc/.icm".
    static var readableList: String { LUTFormats.list(LUTFormats.extensionGroups, joinedBy: "or") }
}

extension LUTReadOptions.AlphaHandling: ExpressibleByArgument {}
