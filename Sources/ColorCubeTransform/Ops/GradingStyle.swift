import Foundation

/// The three grading spaces of OpenColorIO's grading operators (`GradingPrimaryOp`,
/// `GradingToneOp`, `GradingRGBCurveOp`, `GradingHueCurveOp`), by their CTF names.
public enum GradingStyle: String, CaseIterable, Sendable {
    /// Log-encoded values, about 0...1.
    case log
    /// Scene-linear values, which the tone and curve operators grade in OpenColorIO's own log
    /// encoding (`linToLog(_:)`).
    case linear
    /// Display (video) values, 0...1.
    case video

    /// The identity curve OpenColorIO gives a channel a file leaves out: (0, 0), (0.5, 0.5),
    /// (1, 1), or (-7, -7), (0, 0), (7, 7) in the linear style's log units.
    public var defaultCurve: GradingCurve {
        self == .linear ? GradingCurve([(-7, -7), (0, 0), (7, 7)]) : GradingCurve([(0, 0), (0.5, 0.5), (1, 1)])
    }

    // The linear style's encoding, with OpenColorIO's Float32 constants.
    private static let linearBreak = Double(Float(0.0041318374739483946))
    private static let shift = Double(Float(-0.000157849851665374))
    private static let greyScale = Double(Float(0.18) + Float(shift))
    private static let gain = Double(Float(363.034608563))
    private static let offset = -7.0, logBreak = -5.5

    /// OpenColorIO's lin-to-log for the linear style: `log2((x + s) / (0.18 + s))` (0.18 goes to
    /// 0) above 0.0041318374739483946, the line `363.034608563 x - 7` below, meeting it at -5.5.
    public static func linToLog(_ x: Double) -> Double {
        x < linearBreak ? x * gain + offset : log2((x + shift) / greyScale)
    }

    /// The inverse of `linToLog(_:)`.
    public static func logToLin(_ y: Double) -> Double {
        y < logBreak ? (y - offset) / gain : exp2(y) * greyScale - shift
    }
}
