/// Errors in reading or writing an image file; each names the file.
public enum ImageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file does not exist or cannot be opened.
    case cannotOpen(path: String, reason: String)
    /// The file is not an image format colorcube reads.
    case notAnImage(path: String)
    /// The decoder rejected the file (corrupt or truncated data).
    case corrupt(path: String, reason: String)
    /// The encoder or the file system failed while writing.
    case cannotWrite(path: String, reason: String)
    /// An ICC profile that Little CMS cannot use.
    case badProfile(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            "cannot open \(path): \(reason)"
        case .notAnImage(let path):
            "\(path) is not a PNG or JPEG image"
        case .corrupt(let path, let reason):
            "\(path) is damaged or truncated: \(reason)"
        case .cannotWrite(let path, let reason):
            "cannot write \(path): \(reason)"
        case .badProfile(let path, let reason):
            "\(path) has an unusable ICC profile (\(reason)); use --ignore-profile to keep its code values"
        }
    }
}
