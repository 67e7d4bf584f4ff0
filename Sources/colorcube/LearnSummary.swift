import ColorCubeLearner
import Foundation

/// What `learn` tells the user on stderr once the look is written.
enum LearnSummary {
    static func print(_ result: LookFileLearner.Result, output: String) {
        for path in result.pairs.unpaired {
            Diagnostics.warning("\(path) has no partner of the same name in the other folder; left out")
        }
        for path in result.pairs.ambiguous {
            Diagnostics.warning("\(path) shares its name with another image in its folder; left out")
        }
        let report = result.report
        let percent = Diagnostics.decimal(report.coverage * 100, places: 1)
        Diagnostics.note("learned \(output) (\(report.size)-cube) from \(report.pixels) pixels in "
            + "\(report.pairs) pair\(report.pairs == 1 ? "" : "s") (\(report.distinctColors) distinct colours, "
            + "\(percent)% of the lattice cells)")
        Diagnostics.note("fit on the pairs: CIEDE2000 mean \(Diagnostics.decimal(report.meanDeltaE, places: 2)), "
            + "99th percentile \(Diagnostics.decimal(report.percentile99DeltaE, places: 2)) "
            + "(over \(report.measuredPixels) pixels)")
        if report.pairs >= 2, !report.warnings.contains(where: { if case .pairsDisagree = $0 { true } else { false } }) {
            Diagnostics.note("the pairs agree within \(Diagnostics.decimal(report.pairDisagreement, places: 2)) in L* "
                + "on the colours they share")
        }
        if report.grey {
            Diagnostics.note("every after is grey (black and white): the look maps every colour to a grey")
        }
        if report.followsLuminance {
            Diagnostics.note("the edit maps each colour by its luminance alone (black and white, sepia or other "
                + "toning): colours the pairs do not show follow it")
        } else if report.keepsHue {
            Diagnostics.note("the edit follows a tone curve that keeps hue in ProPhoto RGB (the film-like curve of "
                + "Lightroom and RawTherapee), saturation x\(Diagnostics.decimal(report.saturationFactor, places: 2)): "
                + "colours the pairs do not show follow it")
        } else if report.curveSpace != .sRGB {
            Diagnostics.note("the edit follows curves in \(report.curveSpace.name) more closely than in sRGB "
                + "(as RawTherapee and Lightroom apply them): colours the pairs do not show follow them there")
        }
        if report.changesSaturation {
            Diagnostics.note("the edit changes saturation as an HSV saturation slider does (G'MIC's, RawTherapee's): "
                + "hues the pairs do not show follow it too")
        }
        if report.afterNoise > 0 {
            let lowered = report.finalSmoothness < report.smoothness
                ? ", then lowered round by round to \(String(format: "%.2g", report.finalSmoothness)) as the fit "
                    + "follows the JPEG files' stored coefficients, the last round counting every pixel" : ""
            Diagnostics.note("the afters carry compression noise (\(Diagnostics.decimal(report.afterNoise, places: 2)) codes): "
                + "busy areas counted less, smoothness raised to \(String(format: "%.2g", report.smoothness))" + lowered)
        }
        for warning in report.warnings {
            Diagnostics.warning(warning.description)
        }
    }
}
