import Foundation

/// The ACES look "sweeteners", the red modifier and the glow, in the forms OpenColorIO
/// evaluates (the RRT of ACES 0.3 and 0.7 for the `03` styles, of ACES 1.0 for the `10` ones).
/// `min` and `max` keep C++'s argument order, so NaN is dropped or kept as OpenColorIO's
/// `std::min` and `std::max` drop or keep it.
extension FixedFunctionFormulas {
    /// The saturation both sweeteners weight by: `(max - min) / max`, each channel taken as at
    /// least 1e-10 above the line and the divisor as at least `noiseFloor`, so that dark noise
    /// does not count as saturated.
    static func sweetenerSaturation(_ rgb: SIMD3<Double>, noiseFloor: Double = 0.01) -> Double {
        let smallest = min(rgb.x, min(rgb.y, rgb.z)), largest = max(rgb.x, max(rgb.y, rgb.z))
        return (max(1e-10, largest) - max(1e-10, smallest)) / max(noiseFloor, largest)
    }

    /// The red modifier: red moves towards a pivot by a share of the way weighted by a hue
    /// window centred on red and by the saturation.
    struct RedModifier {
        /// The largest share of the way to the pivot red moves (1 - the CTL's scale).
        let strength: Double
        /// 4 over the window's width in radians, so that the window spans knots 0...4.
        let inverseWidth: Double
        /// Whether the middle channel moves with red to keep the hue (ACES 0.3 and 0.7).
        let keepsHue: Bool

        /// The value red moves towards.
        static let pivot = 0.03
        /// A 120° window, 15% of the way.
        static let aces103 = RedModifier(strength: 0.15, inverseWidth: 6 / Double.pi, keepsHue: true)
        /// A 135° window, 18% of the way.
        static let aces10 = RedModifier(strength: 0.18, inverseWidth: 16 / (3 * Double.pi), keepsHue: false)

        /// The hue window at a colour: a cubic B-spline over the angle of the opponent pair
        /// (`2r - g - b`, `√3 (g - b)`), 1 at red and 0 beyond half the width either side.
        func hueWeight(_ rgb: SIMD3<Double>) -> Double {
            let a = 2 * rgb.x - (rgb.y + rgb.z)
            let b = 1.7320508075688772 * (rgb.y - rgb.z)
            let knot = atan2(b, a) * inverseWidth + 2
            // OpenColorIO truncates the knot towards 0, so the first piece also takes knots in
            // (-1, 0), where it is negative and so has no effect; NaN falls outside.
            guard knot > -1, knot < 4 else { return 0 }
            let piece = Int(knot), t = knot - Double(piece)
            switch piece {
            case 0: return t * t * t * 0.25
            case 1: return 0.25 + t * (0.75 + t * (0.75 - t * 0.75))
            case 2: return 1 + t * (t * (-1.5 + t * 0.75))
            default: return 0.25 + t * (-0.75 + t * (0.75 - t * 0.25))
            }
        }

        func apply(_ rgb: SIMD3<Double>, forward: Bool) -> SIMD3<Double> {
            // A weight this small moves red by less than 1e-13 of itself. Skipping it matters on
            // the window's edge (a hue exactly 60° from red, such as (0, -0.5, 0)), where Float64
            // lands a hair inside and the inverse's quadratic has no root; OpenColorIO's Float32
            // lands on the edge and leaves the colour as it is.
            let weight = hueWeight(rgb)
            guard weight > 1e-12 else { return rgb }
            var (red, green, blue) = (rgb.x, rgb.y, rgb.z)
            let newRed: Double
            if forward {
                newRed = red + weight * sweetenerSaturation(rgb) * (Self.pivot - red) * strength
            } else {
                // The forward step with the saturation taken as (red - min) / red, solved for red.
                let smallest = green < blue ? green : blue
                let a = weight * strength - 1
                let b = red - weight * (Self.pivot + smallest) * strength
                let c = weight * Self.pivot * smallest * strength
                newRed = (-b - (b * b - 4 * a * c).squareRoot()) / (2 * a)
            }
            if keepsHue {
                // Within the window red is the largest channel: the middle one keeps its place
                // between the smallest and red.
                if green >= blue {
                    green = (green - blue) / max(1e-10, red - blue) * (newRed - blue) + blue
                } else {
                    blue = (blue - green) / max(1e-10, red - green) * (newRed - green) + green
                }
            }
            red = newRed
            return SIMD3(red, green, blue)
        }
    }

    /// The glow: a gain for dark saturated colours, full below 2/3 of `mid` in a luma-plus-chroma
    /// measure `YC`, fading as `mid / YC - 0.5` to nothing at 2 `mid`.
    struct Glow {
        let gain, mid: Double

        static let aces103 = Glow(gain: 0.075, mid: 0.1)
        static let aces10 = Glow(gain: 0.05, mid: 0.08)

        /// A smooth step of the saturation: two parabolas from 0 at 0 through 1/2 at 0.4 to 1 at
        /// 0.8 and above (and 0 below 0).
        static func sigmoid(_ saturation: Double) -> Double {
            let x = (saturation - 0.4) * 5
            let sign: Double = x.sign == .minus ? -1 : 1
            let t = max(0, 1 - 0.5 * sign * x)
            return (1 + sign * (1 - t * t)) * 0.5
        }

        func apply(_ rgb: SIMD3<Double>, forward: Bool) -> SIMD3<Double> {
            let (red, green, blue) = (rgb.x, rgb.y, rgb.z)
            let chroma = (blue * (blue - green) + green * (green - red) + red * (red - blue)).squareRoot()
            let yc = (blue + green + red + 1.75 * chroma) / 3
            let gain = self.gain * Self.sigmoid(sweetenerSaturation(rgb))
            let factor: Double
            if yc >= mid * 2 {
                factor = 0
            } else if forward {
                factor = yc <= mid * 2 / 3 ? gain : gain * (mid / yc - 0.5)
            } else {
                // The forward gain solved from the output's YC, which the gain scaled.
                factor = yc <= (1 + gain) * mid * 2 / 3 ? -gain / (1 + gain) : gain * (mid / yc - 0.5) / (gain * 0.5 - 1)
            }
            return rgb * (1 + factor)
        }
    }
}
