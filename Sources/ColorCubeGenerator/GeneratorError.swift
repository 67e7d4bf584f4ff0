import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore

/// Errors in asking for an identity reference. (A bit depth an image LUT does not hold is the
/// writers' `ConversionError.bitDepth`.)
public enum GeneratorError: ColorCubeError, Equatable {
    /// A reference size the layout is not generated at (see `ReferenceGenerator.canGenerate`).
    case invalidSize(Int, layout: ImageLUTLayout.Kind)

    /// None: these are values given in code.
    public var path: String? { nil }

    public var description: String {
        switch self {
        case .invalidSize(let size, let layout) where layout.isSquare:
            "invalid reference size \(size); valid sizes are "
                + ReferenceGenerator.standardSizes(for: layout).map(String.init).joined(separator: ", ")
        case .invalidSize(let size, let layout):
            "invalid reference size \(size) for a \(layout); valid sizes are \(layout.sizeDescription)"
        }
    }
}
