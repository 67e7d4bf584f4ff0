import Foundation

extension LogOp.Parameters {
    /// One channel of a base-10 `linToLog` / `logToLin` Log given by the Cineon film parameters
    /// that CTF files write: the negative's `gamma`, the 10-bit code values `refWhite` and
    /// `refBlack` (on 0...1023) and the linear values `highlight` and `shadow` they stand for.
    ///
    /// The log side runs over 0.002 density per code value, so with `r = 0.002 * 1023 / gamma`:
    /// `logSideSlope = 1 / r`, `logSideOffset = refWhite / 1023`, and the linear side is scaled so
    /// that refWhite maps to `highlight` and refBlack to `shadow`:
    /// `gain = (highlight - shadow) / (1 - 10^((refBlack - refWhite) / 1023 * r))`,
    /// `linSideSlope = 1 / gain`, `linSideOffset = (gain - highlight) / gain`. The exponent is
    /// held at -0.0001 or below, so `gain` stays finite when refBlack nears refWhite (OpenColorIO
    /// holds it the same way).
    /// - Throws: `TransformError.invalidOperation` unless gamma is above 0.01, refWhite above
    ///   refBlack and highlight above shadow, the limits OpenColorIO checks.
    public init(cineonGamma gamma: Double, refWhite: Double, refBlack: Double, highlight: Double,
                shadow: Double) throws(TransformError) {
        // OpenColorIO compares gamma with 0.01 held as a Float.
        guard gamma > Double(Float(0.01)) else {
            throw .invalidOperation(operation: "log", reason: "Cineon gamma \(gamma) is not above 0.01")
        }
        guard refWhite > refBlack else {
            throw .invalidOperation(operation: "log", reason: "refWhite \(refWhite) is not above refBlack \(refBlack)")
        }
        guard highlight > shadow else {
            throw .invalidOperation(operation: "log", reason: "highlight \(highlight) is not above shadow \(shadow)")
        }
        let range = 0.002 * 1023 / gamma
        let exponent = min((refBlack - refWhite) / 1023 * range, -0.0001)
        let gain = (highlight - shadow) / (1 - pow(10, exponent))
        let offset = gain - (highlight - shadow)
        self.init(logSideSlope: 1 / range, logSideOffset: refWhite / 1023, linSideSlope: 1 / gain,
                  linSideOffset: (offset - shadow) / gain)
    }
}
