import ColorCubeCore

/// Reads a look from a LUT file: the one way to read a look. The format comes from the caller,
/// else the file's extension, else its first bytes, looked up in a table of formats.
public enum LUTReader {
    /// Reads `path` into a `Look`: the file's operations as they are (nothing is baked); a
    /// reference PNG's lattice stays a view on its decoded pixels, so a 256-cube costs the 50 MB
    /// image rather than 268 MB of Float32 entries.
    ///
    /// `formats` is the table the format is looked up in when `format` is nil:
    /// `LUTFormats.portable` with this module alone; ColorCubeConverter's `read(path:format:options:)`
    /// passes its `LUTFormats.all`.
    /// - Throws: `FileError.notAFile` for a folder, FIFO or device, `FileError.tooLarge` for a
    ///   file past `BinaryFile.maxBytes`, `FileError.cannotOpen` for a file that cannot be read,
    ///   `LUTFileError.unknownFormat` when neither `format`, the extension nor the content tells
    ///   the format; otherwise the format reader's errors, each naming the file.
    public static func read(path: String, format: (any LUTFileFormat)? = nil,
                            options: LUTReadOptions = LUTReadOptions(), formats: [any LUTFileFormat]) throws -> Look {
        // Before anything opens it: a FIFO would block the first read, a device never end.
        if let kind = BinaryFile.specialKind(path: path) {
            throw FileError.notAFile(path: path, kind: kind)
        }
        guard let format = format ?? formats.forPath(path) ?? formats.sniff(path: path) else {
            throw LUTFileError.unknownFormat(path: path, readable: formats.extensionGroups)
        }
        return try format.read(path: path, options: options)
    }
}
