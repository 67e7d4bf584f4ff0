import Foundation

extension ACES2 {
    /// The appearance model for one RGB space: RGB (1.0 = 100 cd/m²) to achromatic response A and
    /// opponent a, b, then lightness J, colourfulness M and hue h (degrees).
    ///
    /// RGB goes to the CAM16 cone space with the white's discounting folded into the matrix, each
    /// cone response is compressed by `sign(x) |x|^0.42 / (27.13 + |x|^0.42)` (inverse: the
    /// response is capped at 0.99), and a second matrix gives A (white at 1), a and b.
    /// `J = 100 A^cz`; a colour with A at or below 0 is J = M = h = 0.
    struct JMhModel: Sendable {
        /// Rows: RGB to the discounted cone responses, and back.
        let rgbToCone: [SIMD3<Double>], coneToRGB: [SIMD3<Double>]
        /// Rows: compressed cone responses to A, a, b, and back.
        let coneToAab: [SIMD3<Double>], aabToCone: [SIMD3<Double>]
        /// The luminance-level adaptation factor over the reference luminance.
        let luminanceFactor: Double
        /// The compressed response to the adapting luminance, which Y is measured against.
        let whiteResponse: Double

        init(_ gamut: Gamut) {
            // The luminance-level adaptation factor F_L at an adapting luminance of 100 cd/m².
            let k = 1 / (5 * adaptingLuminance + 1), k4 = k * k * k * k
            let fL = 0.2 * k4 * (5 * adaptingLuminance) + 0.1 * (1 - k4) * (1 - k4) * pow(5 * adaptingLuminance, 1.0 / 3)
            luminanceFactor = fL / referenceLuminance

            let toXYZ = gamut.toXYZ
            let xyzToCAM16 = Matrix3.inverse(cam16.toXYZ)
            let whiteXYZ = Matrix3.multiply(toXYZ, SIMD3(repeating: referenceLuminance))
            let whiteCone = Matrix3.multiply(xyzToCAM16, whiteXYZ)
            // Full discounting: each cone's white lands on F_L Yw / 100.
            let discount = luminanceFactor * whiteXYZ.y / whiteCone
            let toCone = Matrix3.product(xyzToCAM16, toXYZ).map { $0 * referenceLuminance }
            rgbToCone = [toCone[0] * discount.x, toCone[1] * discount.y, toCone[2] * discount.z]
            coneToRGB = Matrix3.inverse(rgbToCone)

            let whiteCompressed = SIMD3(repeating: Self.compress(luminanceFactor * whiteXYZ.y))
            let base: [SIMD3<Double>] = Self.opponentRows.map { $0 * compressionScale }
            let achromaticWhite = (base[0] * whiteCompressed).sum()
            coneToAab = [base[0] / achromaticWhite, base[1] * 43 * surroundN, base[2] * 43 * surroundN]
            aabToCone = Matrix3.inverse(coneToAab)
            whiteResponse = Self.compress(fL)
        }

        /// Compressed cone responses to achromatic response and the two opponent axes.
        private static let opponentRows: [SIMD3<Double>] = [
            SIMD3(2, 1, 1.0 / 20), SIMD3(1, -12.0 / 11, 1.0 / 11), SIMD3(1.0 / 9, 1.0 / 9, -2.0 / 9),
        ]

        /// The cone response compression of a value at or above 0.
        @inline(__always)
        static func compress(_ x: Double) -> Double {
            let p = pow(x, 0.42)
            return p / (compressionOffset + p)
        }

        /// Its inverse; responses above 0.99 count as 0.99 (NaN below 0).
        @inline(__always)
        static func expand(_ r: Double) -> Double {
            let capped = min(r, 0.99)
            return pow(compressionOffset * capped / (1 - capped), 1 / 0.42)
        }

        func rgbToAab(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
            let cone = Matrix3.multiply(rgbToCone, rgb)
            let compressed = SIMD3(Self.signed(cone.x, Self.compress), Self.signed(cone.y, Self.compress),
                                   Self.signed(cone.z, Self.compress))
            return Matrix3.multiply(coneToAab, compressed)
        }

        func aabToRGB(_ aab: SIMD3<Double>) -> SIMD3<Double> {
            let compressed = Matrix3.multiply(aabToCone, aab)
            let cone = SIMD3(Self.signed(compressed.x, Self.expand), Self.signed(compressed.y, Self.expand),
                             Self.signed(compressed.z, Self.expand))
            return Matrix3.multiply(coneToRGB, cone)
        }

        /// `f(|x|)` with the sign of `x`.
        @inline(__always)
        private static func signed(_ x: Double, _ f: (Double) -> Double) -> Double {
            Double(signOf: x, magnitudeOf: f(abs(x)))
        }

        /// A, a, b to J, M, h; A at or below 0 gives 0, 0, 0.
        func aabToJMh(_ aab: SIMD3<Double>) -> SIMD3<Double> {
            guard aab.x > 0 else { return .zero }
            let hue = atan2(aab.z, aab.y) * 180 / .pi
            return SIMD3(jScale * pow(aab.x, modelGamma), (aab.y * aab.y + aab.z * aab.z).squareRoot(), hue < 0 ? hue + 360 : hue)
        }

        /// J, M and the hue's cosine and sine to A, a, b (J below 0 gives NaN).
        func jmhToAab(_ jmh: SIMD3<Double>, cos: Double, sin: Double) -> SIMD3<Double> {
            SIMD3(pow(jmh.x / jScale, 1 / modelGamma), jmh.y * cos, jmh.y * sin)
        }

        func rgbToJMh(_ rgb: SIMD3<Double>) -> SIMD3<Double> { aabToJMh(rgbToAab(rgb)) }

        func jmhToRGB(_ jmh: SIMD3<Double>) -> SIMD3<Double> {
            let radians = jmh.z * .pi / 180
            return aabToRGB(jmhToAab(jmh, cos: cos(radians), sin: sin(radians)))
        }

        /// The luminance (1.0 = 1 cd/m²) of an achromatic colour with response A.
        func luminance(achromatic a: Double) -> Double {
            Self.expand(whiteResponse * a) / luminanceFactor
        }

        /// The luminance of an achromatic colour of lightness |J|.
        func luminance(lightness j: Double) -> Double {
            luminance(achromatic: pow(abs(j) / jScale, 1 / modelGamma))
        }

        /// The lightness of an achromatic colour of luminance |Y|.
        func lightness(luminance y: Double) -> Double {
            jScale * pow(Self.compress(abs(y) * luminanceFactor) / whiteResponse, modelGamma)
        }
    }
}
