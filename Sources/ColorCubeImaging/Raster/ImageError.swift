import ColorCubeCore

/// Errors in reading or writing an image file; each names the file and carries the evidence.
///
/// A file that cannot be opened or written is the library's one `FileError`, carried in `file`:
/// `cannotOpen` and `cannotWrite` make it.
public enum ImageError: ColorCubeError, Equatable {
    /// The file cannot be opened, read or written, as the system said.
    case file(FileError)
    /// The file is not in any image format colorcube reads.
    case notAnImage(path: String)
    /// The decoder rejected the file (corrupt or truncated data).
    case corrupt(path: String, reason: String)
    /// A valid file of a kind colorcube does not decode (a CMYK JPEG, a TIFF with 32-bit floats).
    case unsupported(path: String, reason: String)
    /// An ICC profile that Little CMS cannot use.
    case badProfile(path: String, reason: String)
    /// The header declares more pixels than the limit allows; nothing was allocated.
    case pixelLimit(PixelLimitError)
    /// The memory for the decoded pixels could not be had.
    case outOfMemory(path: String, bytes: Int)
    /// A camera raw file (`kind` names it: "DNG", "Canon CR2", ...), which needs developing before
    /// it can be graded: its pixels are sensor data, not colours.
    case cameraRaw(path: String, kind: String)
    /// A picture in a format colorcube recognises but does not decode (`format`: "GIF", "BMP", ...).
    case unreadFormat(path: String, format: String)

    /// The file does not exist or cannot be opened.
    public static func cannotOpen(path: String, reason: String) -> ImageError {
        .file(.cannotOpen(path: path, reason: reason))
    }

    /// The encoder or the file system failed while writing.
    public static func cannotWrite(path: String, reason: String) -> ImageError {
        .file(.cannotWrite(path: path, reason: reason))
    }

    public var path: String? {
        switch self {
        case .file(let error):
            error.path
        case .notAnImage(let path), .corrupt(let path, _), .unsupported(let path, _), .badProfile(let path, _), .outOfMemory(let path, _), .cameraRaw(let path, _),
             .unreadFormat(let path, _):
            path
        case .pixelLimit(let error):
            error.path
        }
    }

    public var remedy: ErrorRemedy? {
        switch self {
        case .badProfile: .ignoreProfile
        case .pixelLimit, .outOfMemory: .raisePixelLimit
        default: nil
        }
    }

    public var description: String {
        switch self {
        case .file(let error):
            error.description
        case .notAnImage(let path):
            "\(path) is not an image colorcube reads (\(ImageCodecs.readableNames))"
        case .corrupt(let path, let reason):
            "\(path) is damaged or truncated: \(reason)"
        case .unsupported(let path, let reason):
            "\(path): \(reason)"
        case .badProfile(let path, let reason):
            "\(path) has an unusable ICC profile (\(reason))"
        case .pixelLimit(let error):
            error.description
        case .outOfMemory(let path, let bytes):
            "\(path): cannot get \(bytes) bytes of memory for its pixels"
        case .cameraRaw(let path, let kind):
            "\(path) is a camera raw file (\(kind)): its pixels are sensor data, not colours; develop it "
                + "into a TIFF, PNG or JPEG first (darktable, RawTherapee, Lightroom)"
        case .unreadFormat(let path, let format):
            "\(path) is a \(format) picture, a format colorcube does not read; convert it to PNG (or TIFF, JPEG) first"
        }
    }
}
