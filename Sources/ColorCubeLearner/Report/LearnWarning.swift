/// A sign that the edit between before and after was more than a colour map. A LUT maps each
/// colour to one colour wherever it is in the picture, so it keeps only the global colour part of
/// such an edit.
public enum LearnWarning: Sendable, Equatable, CustomStringConvertible {
    /// The fit's mean residual differs between regions of one picture by up to `variation`
    /// (CIE L*a*b* units): a vignette, brush, graduated or radial filter.
    case localEdit(pair: String, variation: Double)
    /// The residual follows the before image's local contrast: sharpening (`radius` 1) or clarity,
    /// texture or local contrast (`radius` 8). `correlation` is Pearson's r of the residual's L*
    /// with the high-pass of the before luma; `amplitude` the L* the high-pass explains (RMS).
    case neighbourhoodEdit(radius: Int, correlation: Double, amplitude: Double)
    /// Two pairs map the colours both show differently, by up to `difference` (L* units, the
    /// 90th percentile over the colours they share, see `PairAgreement`): the edit adapts to each
    /// photo, and the look averages the pairs.
    case pairsDisagree(first: String, second: String, difference: Double)

    public var description: String {
        switch self {
        case .localEdit(let pair, let variation):
            "\(pair): the edit varies across the picture (region means of the residual differ by up to "
                + "\(Self.format(variation)) in L*a*b*): a vignette, brush or graduated filter? "
                + "the learned look keeps only the global colour part of the edit"
        case .neighbourhoodEdit(let radius, let correlation, let amplitude):
            "the edit depends on each pixel's neighbourhood (\(radius == 1 ? "sharpening" : "clarity or local contrast"): "
                + "the residual follows the \(radius)-pixel high-pass with r = \(Self.format(correlation)), "
                + "\(Self.format(amplitude)) L* RMS): the learned look keeps only the global colour part of the edit"
        case .pairsDisagree(let first, let second, let difference):
            "the pairs map the same colours differently (\(first) and \(second) by up to \(Self.format(difference)) "
                + "in L*): the edit adapts to each photo, for example contrast around its own mean or auto tone; "
                + "the look averages them"
        }
    }

    static func format(_ value: Double) -> String {
        let scaled = (value * 100).rounded()
        let sign = scaled < 0 ? "-" : ""
        let magnitude = Int(abs(scaled))
        let fraction = magnitude % 100
        return "\(sign)\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
