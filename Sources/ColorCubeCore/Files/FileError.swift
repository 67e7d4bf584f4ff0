/// Errors in reading or writing files, each naming the file and the system's reason.
///
/// `cannotOpen` is the one "cannot open" error of the LUT readers and whole-file reads, whatever
/// the format.
public enum FileError: ColorCubeError, Equatable {
    /// The file does not exist, is a folder, or cannot be opened or read.
    case cannotOpen(path: String, reason: String)
    case cannotCreate(path: String, reason: String)
    case cannotWrite(path: String, reason: String)
    case cannotRename(from: String, to: String, reason: String)
    /// The output path names an existing folder.
    case isAFolder(path: String)

    public var path: String? {
        switch self {
        case .cannotOpen(let path, _), .cannotCreate(let path, _), .cannotWrite(let path, _), .isAFolder(let path):
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
        }
    }
}
