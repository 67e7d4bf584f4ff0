import Foundation

/// Colour differences as people see them: sRGB to CIE L*a*b* and the CIEDE2000 formula (Sharma,
/// Wu and Dalal, "The CIEDE2000 color-difference formula: implementation notes", 2005),
/// kL = kC = kH = 1. The one colour difference colorcube reports: `info`, `learn` and the tests all
/// use it, so their figures compare.
///
/// The white is D65, sRGB's own: both colours compared are sRGB, so no chromatic adaptation (to the
/// D50 of ICC's connection space) is needed, and none is applied that would shift the figures.
public enum CIEDE2000 {
    /// CIE L*a*b* of an sRGB colour (components 0...1, values outside are extended linearly by the
    /// sRGB curve's own formula), via linear light and XYZ with the D65 white.
    public static func lab(sRGB color: SIMD3<Double>) -> SIMD3<Double> {
        func linear(_ v: Double) -> Double {
            let magnitude = abs(v)
            let value = magnitude <= 0.04045 ? magnitude / 12.92 : pow((magnitude + 0.055) / 1.055, 2.4)
            return v < 0 ? -value : value
        }
        let r = linear(color.x), g = linear(color.y), b = linear(color.z)
        // IEC 61966-2-1 matrix, D65.
        let x = 0.4124564 * r + 0.3575761 * g + 0.1804375 * b
        let y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
        let z = 0.0193339 * r + 0.1191920 * g + 0.9503041 * b
        func f(_ t: Double) -> Double {
            t > 216.0 / 24389.0 ? cbrt(t) : (24389.0 / 27.0 * t + 16) / 116
        }
        let fx = f(x / 0.95047), fy = f(y), fz = f(z / 1.08883)
        return SIMD3(116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    /// The CIEDE2000 difference of two L*a*b* colours.
    public static func difference(_ lab1: SIMD3<Double>, _ lab2: SIMD3<Double>) -> Double {
        let (l1, a1, b1) = (lab1.x, lab1.y, lab1.z)
        let (l2, a2, b2) = (lab2.x, lab2.y, lab2.z)
        let c1 = (a1 * a1 + b1 * b1).squareRoot(), c2 = (a2 * a2 + b2 * b2).squareRoot()
        let cMean = (c1 + c2) / 2
        let c7 = pow(cMean, 7)
        let g = 0.5 * (1 - (c7 / (c7 + pow(25, 7))).squareRoot())
        let a1p = (1 + g) * a1, a2p = (1 + g) * a2
        let c1p = (a1p * a1p + b1 * b1).squareRoot(), c2p = (a2p * a2p + b2 * b2).squareRoot()
        func hue(_ b: Double, _ a: Double) -> Double {
            if b == 0 && a == 0 { return 0 }
            let h = atan2(b, a) * 180 / .pi
            return h < 0 ? h + 360 : h
        }
        let h1p = hue(b1, a1p), h2p = hue(b2, a2p)

        let deltaL = l2 - l1
        let deltaC = c2p - c1p
        var deltaH = 0.0
        if c1p * c2p != 0 {
            deltaH = h2p - h1p
            if deltaH > 180 { deltaH -= 360 } else if deltaH < -180 { deltaH += 360 }
        }
        let deltaHBig = 2 * (c1p * c2p).squareRoot() * sin(deltaH / 2 * .pi / 180)

        let lMean = (l1 + l2) / 2
        let cMeanP = (c1p + c2p) / 2
        var hMean = h1p + h2p
        if c1p * c2p != 0 {
            if abs(h1p - h2p) <= 180 {
                hMean = (h1p + h2p) / 2
            } else if h1p + h2p < 360 {
                hMean = (h1p + h2p + 360) / 2
            } else {
                hMean = (h1p + h2p - 360) / 2
            }
        }
        let radians = Double.pi / 180
        let t = 1 - 0.17 * cos((hMean - 30) * radians) + 0.24 * cos(2 * hMean * radians)
            + 0.32 * cos((3 * hMean + 6) * radians) - 0.20 * cos((4 * hMean - 63) * radians)
        let deltaTheta = 30 * exp(-pow((hMean - 275) / 25, 2))
        let c7p = pow(cMeanP, 7)
        let rc = 2 * (c7p / (c7p + pow(25, 7))).squareRoot()
        let l50 = (lMean - 50) * (lMean - 50)
        let sl = 1 + 0.015 * l50 / (20 + l50).squareRoot()
        let sc = 1 + 0.045 * cMeanP
        let sh = 1 + 0.015 * cMeanP * t
        let rt = -sin(2 * deltaTheta * radians) * rc
        let termL = deltaL / sl, termC = deltaC / sc, termH = deltaHBig / sh
        return (termL * termL + termC * termC + termH * termH + rt * termC * termH).squareRoot()
    }

    /// The CIEDE2000 difference of two sRGB colours (components 0...1).
    public static func difference(sRGB first: SIMD3<Double>, _ second: SIMD3<Double>) -> Double {
        difference(lab(sRGB: first), lab(sRGB: second))
    }
}
