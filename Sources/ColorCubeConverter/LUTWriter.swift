import ColorCubeCore

/// Writes a cube in any format of `LUTFormats.all`, atomically (temporary file, then rename).
public enum LUTWriter {
    /// Format-specific choices; each applies only to the formats that have them.
    public struct Options: Sendable, Equatable {
        /// Bits per value, one of the format's `bitDepths` (8 or 16 for a Hald PNG, 10, 12 or 16
        /// for a .3dl); nil takes the format's default.
        public var bitDepth: Int?

        public init(bitDepth: Int? = nil) {
            self.bitDepth = bitDepth
        }
    }

    /// The largest cube Core Image is reported to accept in `CIColorCube` (sizes 2...64).
    public static let coreImageMaximumSize = 64

    /// Writes `table` to `path` as `format`. `title` goes where the format has a title (.cube's
    /// TITLE, the ICC profile description).
    ///
    /// Raw and .cube keep every Float value; formats whose `clampsValues` is true round to their
    /// bit depth and clamp to 0...1.
    /// - Throws: `ConversionError` when the format cannot hold this cube or bit depth (checked
    ///   first, see `LUTFileFormat.validate`), or the writer's file errors. Nothing is left at
    ///   `path` on failure.
    public static func write(_ table: some CubeTable, format: any LUTFileFormat, to path: String, title: String,
                             options: Options = Options()) throws {
        try format.validate(size: table.size, bitDepth: options.bitDepth, path: path)
        try AtomicFile.write(to: path) { temporary in
            try format.write(table, to: temporary, displayPath: path, title: title, bitDepth: options.bitDepth)
        }
    }
}
