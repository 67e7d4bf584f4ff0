import ColorCubeCore

/// What a text LUT file holds before it is baked into a plain cube (a shaper, a domain, ...).
public protocol BakeableLUT: Sendable {
    /// The plain cube the file describes.
    func baked() -> ColorCube
}

/// A text LUT format (.cube, .3dl): one parser, and the four ways of calling it.
public protocol TextLUTFormat {
    associatedtype Contents: BakeableLUT

    /// Parses the file's text; `path` names the file in errors.
    /// - Throws: `LUTFileError.malformed` with the 1-based line of the first problem.
    static func parseContents(_ bytes: UnsafeBufferPointer<UInt8>, path: String) throws(LUTFileError) -> Contents
}

extension TextLUTFormat {
    /// Reads the file at `path` and bakes it into a plain cube.
    /// - Throws: `FileError.cannotOpen`, or `LUTFileError.malformed` as `parseContents` does.
    public static func read(path: String) throws -> ColorCube {
        try readContents(path: path).baked()
    }

    /// Reads the file at `path` without baking it.
    /// - Throws: `FileError.cannotOpen`, or `LUTFileError.malformed` as `parseContents` does.
    public static func readContents(path: String) throws -> Contents {
        try parseContents(BinaryFile.readAll(path: path), path: path)
    }

    /// Parses the file's text and bakes it into a plain cube; `path` names the file in errors.
    /// - Throws: `LUTFileError.malformed` as `parseContents` does.
    public static func parse(_ bytes: [UInt8], path: String) throws(LUTFileError) -> ColorCube {
        try parseContents(bytes, path: path).baked()
    }

    /// Parses the file's text without baking it; `path` names the file in errors.
    /// - Throws: `LUTFileError.malformed` as the buffer form does.
    public static func parseContents(_ bytes: [UInt8], path: String) throws(LUTFileError) -> Contents {
        try bytes.withUnsafeBufferPointer { (buffer) throws(LUTFileError) -> Contents in
            try parseContents(buffer, path: path)
        }
    }
}
