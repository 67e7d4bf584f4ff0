/// A reason Core Image's `CIColorCube` would not take a cube as it is.
public enum CoreImageProblem: Equatable, Sendable, CustomStringConvertible {
    /// More points per axis than the 64 Core Image is reported to accept; resampling fixes it.
    case tooLarge(size: Int)
    /// Outputs outside 0...1 (or not finite), which Core Image clamps.
    case valuesOutsideUnitRange

    public var description: String {
        switch self {
        case .tooLarge(let size): "size \(size) is above \(LUTWriter.coreImageMaximumSize)"
        case .valuesOutsideUnitRange: "values outside 0...1"
        }
    }
}
