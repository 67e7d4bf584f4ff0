import Foundation

extension ACES2 {
    /// The compression of M into the limiting gamut. Each colour moves along a line through it
    /// aimed at a focus on the J axis (between the hue's cusp and grey, further off for higher
    /// peaks); on that line the gamut's boundary (a lower and an upper hull meeting at the cusp,
    /// blended by a smooth minimum) and the reach gamut's boundary are estimated, and M beyond
    /// 75% of the way (or more, for gamuts close to the reach) is compressed so that the reach
    /// lands on the gamut's boundary.
    ///
    /// The cusp (J, M of the gamut's most colourful colour) and the upper hull's gamma per hue
    /// come from a table of 360 hues, sampled uniformly between the hues of the gamut's and the
    /// reach gamut's primaries and secondaries.
    struct GamutCompression: Sendable {
        /// J of the display's grey.
        let midJ: Double
        let focusDistance: Double
        /// 1 over the lower hull's gamma.
        let lowerHullGammaInverse: Double
        /// The table's hues, one wrapped entry below and two above the 360.
        let hues: [Double]
        /// Per hue: the cusp's J, M (slightly enlarged for the smooth minimum), and 1 over the
        /// upper hull's gamma (set last: its search uses the rest of the table).
        var cusps: [SIMD3<Double>]
        /// How far the table's index can lie below and above a hue's whole degrees.
        let searchRange: (lower: Int, upper: Int)
        /// J of the peak luminance, the top of every hull.
        let limitJ: Double

        static let smoothCusps = 0.12
        static let focusGainBlend = 0.3
        static let compressionThreshold = 0.75

        /// The cusp of `hue` and what follows from it.
        struct HueParameters {
            let cuspJ: Double, cuspM: Double
            let gammaTopInverse: Double
            let focusJ: Double
            /// J above which the focus gain grows towards the peak.
            let analyticalThreshold: Double
        }

        func hueParameters(_ hue: Double) -> HueParameters {
            let upper = hueInterval(hue)
            let t = (hue - hues[upper - 1]) / (hues[upper] - hues[upper - 1])
            let lo = cusps[upper - 1], hi = cusps[upper]
            let cusp = lo + t * (hi - lo)
            return HueParameters(cuspJ: cusp.x, cuspM: cusp.y, gammaTopInverse: cusp.z,
                                 focusJ: Self.focusJ(cuspJ: cusp.x, midJ: midJ, limitJ: limitJ),
                                 analyticalThreshold: lerp(cusp.x, limitJ, Self.focusGainBlend))
        }

        /// The upper index of the table interval holding `hue`, by bisection over the range the
        /// hues' deviation from uniform allows.
        func hueInterval(_ hue: Double) -> Int {
            var i = 1 + index(hue, within: 0...360)
            var lower = max(0, i + searchRange.lower)
            var upper = min(361, i + searchRange.upper)
            while lower + 1 < upper {
                if hue > hues[i] { lower = i } else { upper = i }
                i = (lower + upper) / 2
            }
            return max(1, upper)
        }

        static func focusJ(cuspJ: Double, midJ: Double, limitJ: Double) -> Double {
            lerp(cuspJ, midJ, min(1, 1.3 - cuspJ / limitJ))
        }

        /// Tone-mapped J, M, h into the limiting gamut; `reachM` is the reach gamut's M at the
        /// peak's J for this hue. J at or below 0 gives 0, 0, h; M at or below 0, or J above the
        /// peak's, gives M = 0.
        func forward(_ jmh: SIMD3<Double>, reachM: Double) -> SIMD3<Double> {
            if jmh.x <= 0 { return SIMD3(0, 0, jmh.z) }
            if jmh.y <= 0 || jmh.x > limitJ { return SIMD3(jmh.x, 0, jmh.z) }
            return compress(jmh, focusJ: jmh.x, reachM: reachM, hueParameters(jmh.z), inverse: false)
        }

        /// The inverse. Above the analytical threshold the focus gain depends on the unknown
        /// source J: it is estimated from one inverse step first.
        func inverse(_ jmh: SIMD3<Double>, reachM: Double) -> SIMD3<Double> {
            if jmh.x <= 0 { return SIMD3(0, 0, jmh.z) }
            if jmh.y <= 0 || jmh.x > limitJ { return SIMD3(jmh.x, 0, jmh.z) }
            let p = hueParameters(jmh.z)
            var jx = jmh.x
            if jx > p.analyticalThreshold { jx = compress(jmh, focusJ: jx, reachM: reachM, p, inverse: true).x }
            return compress(jmh, focusJ: jx, reachM: reachM, p, inverse: true)
        }

        /// One compression (or its inverse) along the line through `jmh`, with the focus gain
        /// of lightness `jx`.
        func compress(_ jmh: SIMD3<Double>, focusJ jx: Double, reachM: Double, _ p: HueParameters, inverse: Bool) -> SIMD3<Double> {
            let gain = focusGain(jx, p.analyticalThreshold)
            let intersect = Self.intersectJ(jmh.x, jmh.y, p.focusJ, limitJ, gain)
            let slope = Self.slope(intersect, p.focusJ, limitJ, gain)
            let cuspIntersect = Self.intersectJ(p.cuspJ, p.cuspM, p.focusJ, limitJ, gain)
            let boundary = Self.boundaryM(p, limitJ: limitJ, lowerGammaInverse: lowerHullGammaInverse,
                                          intersect: intersect, slope: slope, cuspIntersect: cuspIntersect)
            if boundary <= 0 { return SIMD3(jmh.x, 0, jmh.z) }
            let reach = Self.lineMeetsHull(intersect, slope, 1 / modelGamma, limitJ, reachM, limitJ)
            let m = Self.remap(jmh.y, boundary, reach, inverse: inverse)
            return SIMD3(intersect + m * slope, m, jmh.z)
        }

        /// The gain of the focus distance; above the analytical threshold it grows with the
        /// square of log10 of how much closer to the peak J is.
        func focusGain(_ j: Double, _ threshold: Double) -> Double {
            var gain = limitJ * focusDistance
            if j > threshold {
                let adjustment = log10((limitJ - threshold) / max(0.0001, limitJ - j))
                gain *= adjustment * adjustment + 1
            }
            return gain
        }

        /// J where the compression line through J, M meets the J axis.
        static func intersectJ(_ j: Double, _ m: Double, _ focusJ: Double, _ maxJ: Double, _ gain: Double) -> Double {
            let scaled = m / gain
            let a = scaled / focusJ
            if j < focusJ {
                let b = 1 - scaled, c = -j
                return -2 * c / (b + (b * b - 4 * a * c).squareRoot())
            }
            let b = -(1 + scaled + maxJ * a), c = maxJ * scaled + j
            return -2 * c / (b - (b * b - 4 * a * c).squareRoot())
        }

        /// The slope dJ/dM of the compression line from its J-axis intersection.
        static func slope(_ intersectJ: Double, _ focusJ: Double, _ limitJ: Double, _ gain: Double) -> Double {
            let scaler = intersectJ < focusJ ? intersectJ : limitJ - intersectJ
            return scaler * (intersectJ - focusJ) / (focusJ * gain)
        }

        /// M where the line `J = intersect + slope M` meets the hull `J = maxJ (M / maxM)^(1/γ)`,
        /// estimated by shifting the intersection through the hull's power (about `reference`)
        /// and meeting the straight line from the origin to the hull's top instead.
        static func lineMeetsHull(_ intersect: Double, _ slope: Double, _ gammaInverse: Double,
                                  _ maxJ: Double, _ maxM: Double, _ reference: Double) -> Double {
            let shifted = reference * pow(intersect / reference, gammaInverse)
            return shifted * maxM / (maxJ - slope * maxM)
        }

        /// M of the gamut's boundary on the line: a smooth minimum of the lower hull and the
        /// upper hull (flipped about the peak's J). At the peak's J the intersection can land a
        /// rounding above it (display white at 100 cd/m² does in Float64): the flipped distance
        /// is kept at 0 or more, where a negative one would give NaN.
        static func boundaryM(_ p: HueParameters, limitJ: Double, lowerGammaInverse: Double,
                              intersect: Double, slope: Double, cuspIntersect: Double) -> Double {
            let lower = lineMeetsHull(intersect, slope, lowerGammaInverse, p.cuspJ, p.cuspM, cuspIntersect)
            let upper = lineMeetsHull(max(0, limitJ - intersect), -slope, p.gammaTopInverse, limitJ - p.cuspJ, p.cuspM, limitJ - cuspIntersect)
            let scale = smoothCusps * p.cuspM
            let h = max(scale - abs(lower - upper), 0) / scale
            return min(lower, upper) - h * h * h * scale / 6
        }

        /// M beyond the threshold compressed (or expanded) by a Reinhard curve that takes the
        /// reach boundary to the gamut boundary.
        static func remap(_ m: Double, _ gamutM: Double, _ reachM: Double, inverse: Bool) -> Double {
            let proportion = max(gamutM / reachM, compressionThreshold)
            let threshold = proportion * gamutM
            if m <= threshold || proportion >= 1 { return m }
            let offset = m - threshold
            let gamutOffset = gamutM - threshold, reachOffset = reachM - threshold
            let scale = reachOffset / (reachOffset / gamutOffset - 1)
            let nd = offset / scale
            if inverse { return threshold + (nd >= 1 ? scale : scale * -(nd / (nd - 1))) }
            return threshold + scale * nd / (1 + nd)
        }
    }
}
