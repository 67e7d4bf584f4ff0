import Foundation

extension ACES2 {
    /// The chroma compression that follows the tone scale: M is scaled by the tone scale's change
    /// of J (to the power 1/cz), then, normalised by a hue-dependent norm, expanded a little near
    /// the achromatic axis and compressed towards a limit that grows with J to the reach gamut's
    /// M at the peak's J.
    struct ChromaCompression: Sendable {
        /// The expansion's strength and threshold, and the compression's strength.
        let saturation: Double, saturationThreshold: Double, compression: Double
        /// The scale of the hue-dependent norm for this peak.
        let normScale: Double

        init(_ toneScale: ToneScale) {
            compression = 2.4 + 2.4 * 3.3 * toneScale.logPeak
            saturation = max(0.2, 1.3 - 1.3 * 0.69 * toneScale.logPeak)
            saturationThreshold = 0.5 / toneScale.peak
            normScale = pow(0.03379 * toneScale.peak, 0.30596) - 0.45135
        }

        /// The norm M is divided by, a third-order Fourier series in the hue.
        func norm(cos c1: Double, sin s1: Double) -> Double {
            let c2 = 2 * c1 * c1 - 1, s2 = 2 * c1 * s1
            let c3 = 4 * c1 * c1 * c1 - 3 * c1, s3 = 3 * s1 - 4 * s1 * s1 * s1
            let m = 11.34072 * c1 + 16.46899 * c2 + 7.88380 * c3 + 14.66441 * s1 - 6.37224 * s2 + 9.19364 * s3 + 77.12896
            return m * normScale
        }

        /// J, M, h (J before the tone scale) to `toneMappedJ`, compressed M, h.
        func forward(_ jmh: SIMD3<Double>, toneMappedJ jTS: Double, norm: Double, reachM: Double, limitJ: Double) -> SIMD3<Double> {
            var m = jmh.y
            if m != 0 {
                let nJ = jTS / limitJ, snJ = max(0, 1 - nJ)
                let limit = pow(nJ, 1 / modelGamma) * reachM / norm
                m = m * pow(jTS / jmh.x, 1 / modelGamma) / norm
                m = limit - Self.toe(limit - m, limit - 0.001, snJ * saturation, (nJ * nJ + saturationThreshold).squareRoot(), inverse: false)
                m = Self.toe(m, limit, nJ * compression, snJ, inverse: false) * norm
            }
            return SIMD3(jTS, m, jmh.z)
        }

        /// The inverse: tone-mapped J, compressed M, h, and the untoned `j`, to J, M, h.
        func inverse(_ jmh: SIMD3<Double>, untonedJ j: Double, norm: Double, reachM: Double, limitJ: Double) -> SIMD3<Double> {
            let jTS = jmh.x
            var m = jmh.y
            if m != 0 {
                let nJ = jTS / limitJ, snJ = max(0, 1 - nJ)
                let limit = pow(nJ, 1 / modelGamma) * reachM / norm
                m = Self.toe(m / norm, limit, nJ * compression, snJ, inverse: true)
                m = limit - Self.toe(limit - m, limit - 0.001, snJ * saturation, (nJ * nJ + saturationThreshold).squareRoot(), inverse: true)
                m = m * norm * pow(jTS / j, -1 / modelGamma)
            }
            return SIMD3(j, m, jmh.z)
        }

        /// A toe that compresses values below `limit` (a quadratic through 0 and the limit);
        /// values above it pass.
        static func toe(_ x: Double, _ limit: Double, _ k1In: Double, _ k2In: Double, inverse: Bool) -> Double {
            if x > limit { return x }
            let k2 = max(k2In, 0.001)
            let k1 = (k1In * k1In + k2 * k2).squareRoot()
            let k3 = (limit + k1) / (limit + k2)
            if inverse { return (x * x + k1 * x) / (k3 * (x + k2)) }
            let minusB = k3 * x - k1
            let minusAC = k2 * k3 * x
            return 0.5 * (minusB + (minusB * minusB + 4 * minusAC).squareRoot())
        }
    }
}
