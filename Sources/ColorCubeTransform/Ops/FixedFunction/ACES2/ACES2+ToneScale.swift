import Foundation

extension ACES2 {
    /// The tone scale for a display peak `n` (cd/m²), on luminance: a Michaelis-Menten curve
    /// `f = m2 (Y / (Y + s2))^g` with a toe `f² / (f + t1)`, scaled so that 1.0 is 100 cd/m².
    /// Grey (0.18) lands on `10.013 (1 + 0.14 log2(n / 100))` cd/m², and the scene value that
    /// reaches the peak grows from 128 at 100 cd/m² to 896 at 10000.
    struct ToneScale: Sendable {
        let peak: Double
        let g = 1.15, t1 = 0.04
        /// The display luminance of grey over 100.
        let greyOut: Double
        let s2: Double, m2: Double
        /// The largest scene value the gamut tables consider, 8 times the one reaching the peak.
        let forwardLimit: Double
        /// The largest display value the inverse accepts (over 100), the peak the curve approaches.
        let inverseLimit: Double
        /// log10(peak / 100).
        let logPeak: Double

        init(peak n: Double) {
            let reference = 100.0, grey = 0.18, greyNits = 10.013, greyGain = 0.14
            let roofHit = 128 + (896 - 128) * (log(n / reference) / log(10000.0 / 100))
            let m0 = n / reference
            let m1 = 0.5 * (m0 + (m0 * (m0 + 4 * t1)).squareRoot())
            let u = pow((roofHit / m1) / (roofHit / m1 + 1), g)
            let m = m1 / u
            greyOut = greyNits / reference * (1 + log(n / 100) / log(2.0) * greyGain)
            let greyInner = 0.5 * (greyOut + (greyOut * (greyOut + 4 * t1)).squareRoot())
            let greyBase = pow(greyInner / m, 1 / g)
            let w2 = grey / (-(m1 * greyBase) / (greyBase - 1))
            s2 = w2 * m1 * referenceLuminance
            let u2 = pow((roofHit / m1) / (roofHit / m1 + w2), g)
            m2 = m1 / u2
            inverseLimit = n / (u2 * reference)
            forwardLimit = 8 * roofHit
            logPeak = log10(n / reference)
            peak = n
        }

        /// Scene luminance to display luminance (both 1.0 = 1 cd/m²); never below 0 (NaN gives 0).
        func forward(_ y: Double) -> Double {
            let f = m2 * pow(y / (y + s2), g)
            return max(0, f * f / (f + t1)) * 100
        }

        /// Display luminance to scene luminance; the input is clamped to 0...the inverse limit.
        func inverse(_ y: Double) -> Double {
            let z = max(0, min(inverseLimit, y / referenceLuminance))
            let f = (z + (z * (4 * t1 + z)).squareRoot()) / 2
            return s2 / (pow(m2 / f, 1 / g) - 1)
        }

        /// A lightness through the tone scale (sign kept), in the `model`'s terms.
        func forward(lightness j: Double, _ model: JMhModel) -> Double {
            Double(signOf: j, magnitudeOf: model.lightness(luminance: forward(model.luminance(lightness: j))))
        }

        func inverse(lightness j: Double, _ model: JMhModel) -> Double {
            Double(signOf: j, magnitudeOf: model.lightness(luminance: inverse(model.luminance(lightness: j))))
        }

        /// The tone-mapped lightness of achromatic response `a` (sign kept; a negative A maps to -0).
        func forward(achromatic a: Double, _ model: JMhModel) -> Double {
            Double(signOf: a, magnitudeOf: model.lightness(luminance: forward(model.luminance(achromatic: a))))
        }
    }
}
