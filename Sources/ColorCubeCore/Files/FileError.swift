/// Errors in reading or writing files, each naming the file and the system's reason.
///
/// `cannotOpen` is the one "cannot open" error of every reader, whatever the format: LUT readers
/// and whole-file reads throw it, image codecs carry it in `ImageError.file`.
public enum FileError: ColorCubeError, Equatable {
    /// The file does not exist, is a folder, or cannot be opened or read.
    case cannotOpen(path: String, reason: String)
    case cannotCreate(path: String, reason: String)
    case cannotWrite(path: String, reason: String)
    case cannotRename(from: String, to: String, reason: String)
    /// The output path names an existing folder.
    case isAFolder(path: String)
    /// A file to read that is not a regular file: `kind` says what it is ("a FIFO (named pipe)").
    case notAFile(path: String, kind: String)
    /// A file to read larger than `limit` bytes; `bytes` is its size when known beforehand.
    case tooLarge(path: String, bytes: Int?, limit: Int)

    public var path: String? {
        switch self {
        case .cannotOpen(let path, _), .cannotCreate(let path, _), .cannotWrite(let path, _), .isAFolder(let path),
             .notAFile(let path, _), .tooLarge(let path, _, _):
            path
        case .cannotRename(_, let to, _):
            to
        }
    }

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            "cannot open \(path): \(reason)"
        case .cannotCreate(let path, let reason):
            "cannot create \(path): \(reason); check that the folder exists and is writable"
        case .cannotWrite(let path, let reason):
            "cannot write \(path): \(reason)"
        case .cannotRename(_, let to, let reason):
            "cannot write \(to): \(reason)"
        case .isAFolder(let path):
            "cannot write \(path): it is a folder; give a file name"
        case .notAFile(let path, let kind):
            "cannot read \(path): it is \(kind), not a file; give a look file"
        case .tooLarge(let path, let bytes, let limit):
            "cannot read \(path): it is "
                + (bytes.map { "\(Self.megabytes($0))" } ?? "larger than \(Self.megabytes(limit))")
                + ", and colorcube reads look files of up to \(Self.megabytes(limit)) "
                + "(set \(BinaryFile.environmentVariable) to a number of bytes to raise the limit)"
        }
    }

    /// "12.3 MB" (decimal megabytes, one decimal) from a megabyte on, else "4096 bytes".
    private static func megabytes(_ bytes: Int) -> String {
        guard bytes >= 1_000_000 else { return "\(bytes) bytes" }
        let tenths = (bytes + 50_000) / 100_000
        return "\(tenths / 10).\(tenths % 10) MB"
    }
}
