import ColorCubeConverter
import ColorCubeCore

/// Errors in asking for an identity reference.
public enum GeneratorError: ColorCubeError, Equatable {
    /// A reference size other than 4, 16, 64 or 256.
    case invalidSize(Int)
    /// A bit depth a Hald PNG does not hold (see `HaldFormat.bitDepths`).
    case invalidBitDepth(Int)

    /// None: these are values given in code.
    public var path: String? { nil }

    public var description: String {
        switch self {
        case .invalidSize(let size):
            "invalid reference size \(size); valid sizes are "
                + HaldLayout.referenceSizes.map(String.init).joined(separator: ", ")
        case .invalidBitDepth(let depth):
            "invalid bit depth \(depth); use "
                + HaldFormat.supportedBitDepths.map(String.init).joined(separator: " or ")
        }
    }
}
