import ColorCubeCore

/// Errors in writing reference images.
public enum GeneratorError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A reference size other than 4, 16, 64 or 256.
    case invalidSize(Int)
    /// A bit depth other than 8 or 16.
    case invalidBitDepth(Int)
    /// A cube whose size is not L^2 for a Hald level L in 2...16.
    case notAHaldSize(Int)

    public var description: String {
        switch self {
        case .invalidSize(let size):
            "invalid reference size \(size); valid sizes are "
                + HaldLayout.referenceSizes.map(String.init).joined(separator: ", ")
        case .invalidBitDepth(let depth):
            "invalid bit depth \(depth); use 8 or 16"
        case .notAHaldSize(let size):
            "a \(size)-cube cannot be stored as a Hald image (sizes 4, 9, 16, ..., 256: a square of 2...16); "
                + "resample it first with --resample"
        }
    }
}
