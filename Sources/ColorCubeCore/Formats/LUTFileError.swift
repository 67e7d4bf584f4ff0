/// Errors in reading a LUT file; each case names the file and, for text formats, the line.
public enum LUTFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be opened or read.
    case unreadable(path: String, reason: String)
    /// A text LUT that breaks its format's rules at `line` (1-based).
    case malformed(path: String, line: Int, reason: String)
    /// Raw cube data whose length is not size^3 * 16 bytes for a size in 2...256.
    case wrongLength(path: String, bytes: Int)
    /// A file whose format cannot be told from its extension or content.
    case unknownFormat(path: String)
    /// A file that is valid but holds something colorcube cannot use as a look.
    case unsupported(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "cannot read \(path): \(reason)"
        case .malformed(let path, let line, let reason):
            "\(path), line \(line): \(reason)"
        case .wrongLength(let path, let bytes):
            "\(path): \(bytes) bytes is not raw cube data (expected size^3 * 16 bytes, "
                + "e.g. 4,194,304 for a 64-cube); was it written as RGBA Float32?"
        case .unknownFormat(let path):
            "\(path): unknown LUT format; colorcube reads .png, .cube, .3dl, .bin/.raw and .icc files"
        case .unsupported(let path, let reason):
            "\(path): \(reason)"
        }
    }
}
