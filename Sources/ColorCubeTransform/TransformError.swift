import ColorCubeCore

/// Why a transform or one of its operations cannot be built, inverted or baked; each case carries
/// the evidence.
public enum TransformError: ColorCubeError, Equatable {
    /// An operation's data breaks its rules (a table with too few entries, a domain whose maximum
    /// is not above its minimum, a non-finite value); `operation` names the kind.
    case invalidOperation(operation: String, reason: String)
    /// The operation has no exact inverse: `reason` says which colours cannot be recovered.
    case notInvertible(operation: String, reason: String)
    /// A 3D LUT, inverted node by node by `TransformInverter` rather than in closed form.
    case needsNumericalInverse
    /// A lattice size outside what a baked cube can have.
    case invalidBakeSize(Int)

    public var path: String? { nil }

    public var description: String {
        switch self {
        case .invalidOperation(let operation, let reason):
            "invalid \(operation): \(reason)"
        case .notInvertible(let operation, let reason):
            "the \(operation) cannot be inverted: \(reason)"
        case .needsNumericalInverse:
            "a 3D LUT has no closed-form inverse; it is inverted numerically"
        case .invalidBakeSize(let size):
            "cannot bake a \(size)-cube: use 2 to \(ColorCube.sizeRange.upperBound) points per axis"
        }
    }
}
