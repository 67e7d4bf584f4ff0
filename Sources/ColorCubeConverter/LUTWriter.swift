import ColorCubeCore
import ColorCubeGenerator

/// Writes a cube in any output format, atomically (temporary file, then rename).
public enum LUTWriter {
    /// Writes `table` to `path` as `format`. `title` goes where the format has a title.
    /// - Throws: `ConversionError.unsupportedOutput` when the format cannot hold this cube, or the
    ///   writer's file errors. Nothing is left at `path` on failure.
    public static func write(_ table: some CubeTable, format: LUTFormat, to path: String, title: String) throws {
        try AtomicFile.write(to: path) { temporary in
            switch format {
            case .raw:
                try RawCubeFormat.write(table, to: temporary, displayPath: path)
            case .cube:
                try CubeTextFormat.write(table, title: title, to: temporary, displayPath: path)
            case .threeDL, .hald, .icc:
                throw ConversionError.unsupportedOutput(path: path, reason: "\(format.rawValue) output is not available yet")
            }
        }
    }
}
