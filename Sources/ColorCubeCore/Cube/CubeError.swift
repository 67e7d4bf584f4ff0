/// Errors in building a cube from values.
public enum CubeError: ColorCubeError, Equatable {
    /// A lattice size outside 2...256.
    case invalidSize(Int)
    /// The value array does not hold size^3 * 4 values.
    case wrongValueCount(expected: Int, actual: Int)

    /// None: a cube built from values in code concerns no file.
    public var path: String? { nil }

    public var description: String {
        switch self {
        case .invalidSize(let size):
            "cube size \(size) is outside 2...256"
        case .wrongValueCount(let expected, let actual):
            "cube data has \(actual) values, expected \(expected)"
        }
    }
}
