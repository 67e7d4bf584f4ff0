/// The three grading spaces of OpenColorIO's grading operators (`GradingPrimaryOp`,
/// `GradingToneOp`), by their CTF names.
public enum GradingStyle: String, CaseIterable, Sendable {
    /// Log-encoded values, about 0...1.
    case log
    /// Scene-linear values.
    case linear
    /// Display (video) values, 0...1.
    case video
}
