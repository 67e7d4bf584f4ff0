import Foundation

/// The formulas of `FixedFunctionOp`, one function per style, in Float64 with OpenColorIO's
/// constants and its handling of zero denominators (a zero divisor gives 0, not infinity).
enum FixedFunctionFormulas {
    // MARK: BT.2100 surround

    /// `rgb * Y^(g - 1)` forward, `rgb * Y^(1/g - 1)` in reverse, with `Y` the BT.2100 luminance
    /// made positive and kept at or above 1e-4 (1e-4^g in reverse; NaN takes the floor), which
    /// limits the gain of dark colours.
    static func surround(_ rgb: SIMD3<Double>, gamma: Double, forward: Bool) -> SIMD3<Double> {
        let floor = forward ? 1e-4 : pow(1e-4, gamma)
        let exponent = (forward ? gamma : 1 / gamma) - 1
        let luminance = abs(0.2627 * rgb.x + 0.6780 * rgb.y + 0.0593 * rgb.z)
        let y = luminance > floor ? luminance : floor
        return rgb * pow(y, exponent)
    }

    // MARK: ACES

    /// `rgb * Y^(g - 1)` with `Y` the ACES AP1 luminance, at least 1e-10 (NaN takes the floor).
    static func darkToDim(_ rgb: SIMD3<Double>, gamma: Double) -> SIMD3<Double> {
        let luminance = 0.27222871678091454 * rgb.x + 0.67408176581114831 * rgb.y + 0.053689517407937051 * rgb.z
        let y = 1e-10 < luminance ? luminance : 1e-10
        return rgb * pow(y, gamma - 1)
    }

    /// ACES 1.3's reference gamut compression, per channel about the largest channel.
    struct GamutCompression {
        let thresholds: SIMD3<Double>
        let scales: SIMD3<Double>
        let power: Double

        init(_ p: [Double]) {
            let limits = SIMD3(p[0], p[1], p[2])
            thresholds = SIMD3(p[3], p[4], p[5])
            power = p[6]
            // The scale that takes a distance of `limit` to 1.
            var scales = SIMD3<Double>.zero
            for c in 0..<3 {
                let (limit, threshold) = (limits[c], thresholds[c])
                scales[c] = (limit - threshold) / pow(pow((1 - threshold) / (limit - threshold), -p[6]) - 1, 1 / p[6])
            }
            self.scales = scales
        }

        func apply(_ rgb: SIMD3<Double>, forward: Bool) -> SIMD3<Double> {
            // The largest channel, with C's std::max order for NaN.
            let gb = rgb.y < rgb.z ? rgb.z : rgb.y
            let achromatic = rgb.x < gb ? gb : rgb.x
            var out = rgb
            for c in 0..<3 {
                out[c] = channel(rgb[c], achromatic, thresholds[c], scales[c], forward)
            }
            return out
        }

        private func channel(_ value: Double, _ achromatic: Double, _ threshold: Double, _ scale: Double, _ forward: Bool) -> Double {
            if achromatic == 0 { return 0 }
            let distance = (achromatic - value) / abs(achromatic)
            if distance < threshold { return value }
            let compressed: Double
            if forward {
                let normal = (distance - threshold) / scale
                compressed = threshold + scale * normal / pow(1 + pow(normal, power), 1 / power)
            } else if distance >= threshold + scale {
                compressed = distance
            } else {
                let normal = (distance - threshold) / scale
                let p = pow(normal, power)
                compressed = threshold + scale * pow(-(p / (p - 1)), 1 / power)
            }
            return achromatic - compressed * abs(achromatic)
        }
    }

    // MARK: HSV

    static func rgbToHSV(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        let (red, green, blue) = (rgb.x, rgb.y, rgb.z)
        let smallest = min(min(red, green), blue), largest = max(max(red, green), blue)
        var value = largest, saturation = 0.0, hue = 0.0
        if smallest != largest {
            let delta = largest - smallest
            if largest != 0 { saturation = delta / largest }
            if red == largest {
                hue = (green - blue) / delta
            } else if green == largest {
                hue = 2 + (blue - red) / delta
            } else {
                hue = 4 + (red - green) / delta
            }
            if hue < 0 { hue += 6 }
            hue /= 6
        }
        // Colours with negative channels: value drops by the negative part, and saturation
        // goes above 1 when the negative part outweighs the positive one.
        if smallest < 0 { value += smallest }
        if -smallest > largest { saturation = (largest - smallest) / -smallest }
        return SIMD3(hue, saturation, value)
    }

    /// The largest saturation `hsvToRGB` takes: RGB grows without bound as it nears 2.
    static let largestSaturation = 1.999

    static func hsvToRGB(_ hsv: SIMD3<Double>) -> SIMD3<Double> {
        let hue = (hsv.x - hsv.x.rounded(.down)) * 6
        let saturation = clamp(hsv.y, 0, largestSaturation)
        let value = hsv.z
        let red = clamp(abs(hue - 3) - 1, 0, 1)
        let green = clamp(2 - abs(hue - 2), 0, 1)
        let blue = clamp(2 - abs(hue - 4), 0, 1)
        var largest = value, smallest = value * (1 - saturation)
        if saturation > 1 {
            smallest = value * (1 - saturation) / (2 - saturation)
            largest = value - smallest
        }
        if value < 0 {
            smallest = value / (2 - saturation)
            largest = value - smallest
        }
        let delta = largest - smallest
        return SIMD3(red, green, blue) * delta + smallest
    }

    /// `x` kept to `low...high`, NaN to `low`, as OpenColorIO clamps.
    static func clamp(_ x: Double, _ low: Double, _ high: Double) -> Double {
        min(low < x ? x : low, high)
    }

    // MARK: CIE coordinates

    /// 1 / d, or 0 when d is 0.
    private static func reciprocal(_ d: Double) -> Double { d == 0 ? 0 : 1 / d }

    static func xyzToxyY(_ xyz: SIMD3<Double>) -> SIMD3<Double> {
        let d = reciprocal(xyz.x + xyz.y + xyz.z)
        return SIMD3(xyz.x * d, xyz.y * d, xyz.y)
    }

    static func xyYToXYZ(_ xyY: SIMD3<Double>) -> SIMD3<Double> {
        let (x, y, luminance) = (xyY.x, xyY.y, xyY.z)
        let d = reciprocal(y)
        return SIMD3(luminance * x * d, luminance, luminance * (1 - x - y) * d)
    }

    static func xyzTouvY(_ xyz: SIMD3<Double>) -> SIMD3<Double> {
        let d = reciprocal(xyz.x + 15 * xyz.y + 3 * xyz.z)
        return SIMD3(4 * xyz.x * d, 9 * xyz.y * d, xyz.y)
    }

    static func uvYToXYZ(_ uvY: SIMD3<Double>) -> SIMD3<Double> {
        let (u, v, luminance) = (uvY.x, uvY.y, uvY.z)
        let d = reciprocal(v)
        return SIMD3(2.25 * luminance * u * d, luminance, 0.75 * luminance * (4 - u - 20.0 / 3.0 * v) * d)
    }

    /// The D65 white's u' and v', as OpenColorIO writes them.
    static let whiteU = 0.19783001, whiteV = 0.46831999

    static func xyzToLUV(_ xyz: SIMD3<Double>) -> SIMD3<Double> {
        let uvY = xyzTouvY(xyz)
        let luminance = xyz.y
        // CIE's cube root above (6/29)^3, its straight line below, both scaled by 1/100.
        let lightness = luminance <= 0.008856451679 ? 9.0329629629629608 * luminance : 1.16 * pow(luminance, 1.0 / 3.0) - 0.16
        return SIMD3(lightness, 13 * lightness * (uvY.x - whiteU), 13 * lightness * (uvY.y - whiteV))
    }

    static func luvToXYZ(_ luv: SIMD3<Double>) -> SIMD3<Double> {
        let lightness = luv.x
        let d = lightness == 0 ? 0 : 1 / (13 * lightness)
        let u = luv.y * d + whiteU, v = luv.z * d + whiteV
        let cubeRoot = (lightness + 0.16) / 1.16
        let luminance = lightness <= 0.08 ? 0.11070564598794539 * lightness : cubeRoot * cubeRoot * cubeRoot
        let dd = v == 0 ? 0 : 0.25 / v
        return SIMD3(9 * luminance * u * dd, luminance, luminance * (12 - 3 * u - 20 * v) * dd)
    }

    // MARK: PQ (SMPTE ST 2084): the one implementation, CTF's Lin_TO_PQ and the PQ spaces' transfer alike

    static let m1 = 0.25 * 2610 / 4096, m2 = 128 * 2523 / 4096.0
    static let c2 = 32 * 2413 / 4096.0, c3 = 32 * 2392 / 4096.0
    static let c1 = c3 - c2 + 1

    /// Linear light with 1.0 at 100 cd/m² to PQ, mirrored: negative values give negative codes.
    static func linToPQ(_ x: Double) -> Double {
        let y = pow(abs(x * 0.01), m1)
        let code = pow((c1 + c2 * y) / (1 + c3 * y), m2)
        return x.sign == .minus ? -code : code
    }

    /// PQ to linear light with 1.0 at 100 cd/m², mirrored.
    static func pqToLin(_ code: Double) -> Double {
        let x = pow(abs(code), 1 / m2)
        let nits = pow(max(0, x - c1) / (c2 - c3 * x), 1 / m1)
        let light = 100 * nits
        return code.sign == .minus ? -light : light
    }

    // MARK: Parametric curves

    /// `Lin_TO_GammaLog`'s curve: `slope * (E + offset)^power` below the break and
    /// `logSlope * log_base(linSlope * E + linOffset) + logOffset` at and above it, with
    /// `E = |x - mirror| + mirror` and the result's sign that of `x - mirror`. The reverse
    /// mirrors about the power segment's value at the mirror point.
    struct GammaLog {
        let mirror, breakPoint, power, slope, offset: Double
        /// The log slope over ln(base), so that natural logarithms serve.
        let logSlope: Double
        let logOffset, linSlope, linOffset: Double

        init(_ p: [Double]) {
            (mirror, breakPoint, power, slope, offset) = (p[0], p[1], p[2], p[3], p[4])
            logSlope = p[6] / Foundation.log(p[5])
            (logOffset, linSlope, linOffset) = (p[7], p[8], p[9])
        }

        func apply(_ x: Double, forward: Bool) -> Double {
            forward ? encode(x) : decode(x)
        }

        private func encode(_ x: Double) -> Double {
            let side = x - mirror
            let e = abs(side) + mirror
            let y = e < breakPoint ? slope * pow(e + offset, power) : logSlope * Foundation.log(linSlope * e + linOffset) + logOffset
            return side.sign == .minus ? -y : y
        }

        private func decode(_ y: Double) -> Double {
            let primeBreak = slope * pow(breakPoint + offset, power)
            let primeMirror = slope * pow(mirror + offset, power)
            let side = y - primeMirror
            let e = abs(side) + primeMirror
            let x = e < primeBreak ? pow(e / slope, 1 / power) - offset : (exp((e - logOffset) / logSlope) - linOffset) / linSlope
            return side.sign == .minus ? -x : x
        }
    }

    /// `Lin_TO_DoubleLog`'s curve: `logSlope1 * log_base(linSlope1 * x + linOffset1) + logOffset1`
    /// at and below the first break, `slope * x + offset` between the breaks, and the second log
    /// segment at and above the second break. The reverse finds the segment from the log
    /// segments' values at the breaks.
    struct DoubleLog {
        let break1, break2: Double
        let logSlope1, logOffset1, linSlope1, linOffset1: Double
        let logSlope2, logOffset2, linSlope2, linOffset2: Double
        let slope, offset: Double

        init(_ p: [Double]) {
            let lnBase = Foundation.log(p[0])
            (break1, break2) = (p[1], p[2])
            (logSlope1, logOffset1, linSlope1, linOffset1) = (p[3] / lnBase, p[4], p[5], p[6])
            (logSlope2, logOffset2, linSlope2, linOffset2) = (p[7] / lnBase, p[8], p[9], p[10])
            (slope, offset) = (p[11], p[12])
        }

        func apply(_ x: Double, forward: Bool) -> Double {
            forward ? encode(x) : decode(x)
        }

        private func encode(_ x: Double) -> Double {
            if x <= break1 { return logSlope1 * Foundation.log(linSlope1 * x + linOffset1) + logOffset1 }
            if x < break2 { return slope * x + offset }
            return logSlope2 * Foundation.log(linSlope2 * x + linOffset2) + logOffset2
        }

        private func decode(_ y: Double) -> Double {
            let logBreak1 = logSlope1 * Foundation.log(linSlope1 * break1 + linOffset1) + logOffset1
            let logBreak2 = logSlope2 * Foundation.log(linSlope2 * break2 + linOffset2) + logOffset2
            if y <= logBreak1 { return (exp((y - logOffset1) / logSlope1) - linOffset1) / linSlope1 }
            if y < logBreak2 { return (y - offset) / slope }
            return (exp((y - logOffset2) / logSlope2) - linOffset2) / linSlope2
        }
    }
}
