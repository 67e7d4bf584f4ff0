import Foundation

extension FixedFunctionFormulas {
    /// OpenColorIO's HSY: a hue with magenta at 0 (red at 1/6, so that red sits inside a curve
    /// editor's range rather than at its ends), a saturation measured from the Rec. 709 luma,
    /// and that luma. The three encodings differ in how the saturation is measured, each suited
    /// to its kind of values; `min` and `max` keep C++'s argument order for NaN.
    enum HSY {
        /// Scene-linear values: the distance of the channels from the luma relative to their sum.
        case linear
        /// Log-encoded values: 4 times the distance.
        case log
        /// Video-encoded values: 1.25 times the distance.
        case video

        /// Rec. 709's luma weights.
        static let lumaWeights = SIMD3(0.2126, 0.7152, 0.0722)
        /// The scene-linear saturation's offset to the channel sum, which keeps dark colours from
        /// reading as saturated, and its gain below `darkLuma`.
        static let sumOffset = 0.15, darkGain = 5.0
        /// The scene-linear saturation is the dark one below this luma, the relative one above
        /// `brightLuma`, and a blend of the two between.
        static let darkLuma = 0.001, brightLuma = 0.01
        /// The scene-linear saturation's overall scale.
        static let linearScale = 1.4
        /// The log and video styles' saturation per unit of distance.
        static let logGain = 4.0, videoGain = 1.25

        /// Where luma falls between `darkLuma` (0) and `brightLuma` (1); NaN stays NaN.
        private static func blend(_ luma: Double) -> Double {
            let alpha = (luma - darkLuma) / (brightLuma - darkLuma)
            return alpha > 1 ? 1 : (0 > alpha ? 0 : alpha)
        }

        /// The sum of the channels' distances from `luma`.
        private static func distance(_ rgb: SIMD3<Double>, _ luma: Double) -> Double {
            abs(rgb.x - luma) + abs(rgb.y - luma) + abs(rgb.z - luma)
        }

        /// RGB to hue, saturation and luma.
        func encode(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
            let (red, green, blue) = (rgb.x, rgb.y, rgb.z)
            let smallest = min(min(red, green), blue), largest = max(max(red, green), blue)
            let weights = Self.lumaWeights
            let luma = weights.x * red + weights.y * green + weights.z * blue
            let distance = Self.distance(rgb, luma)
            let saturation: Double
            switch self {
            case .linear:
                let high = distance / max(0.07 * distance + 1e-6, Self.sumOffset + (red + green + blue))
                let low = distance * Self.darkGain
                saturation = (low + Self.blend(luma) * (high - low)) * Self.linearScale
            case .log: saturation = distance * Self.logGain
            case .video: saturation = distance * Self.videoGain
            }
            var hue = 0.0
            if smallest != largest {
                let delta = largest - smallest
                if red == largest {
                    hue = 1 + (green - blue) / delta
                } else if green == largest {
                    hue = 3 + (blue - red) / delta
                } else {
                    hue = 5 + (red - green) / delta
                }
                hue *= 1.0 / 6.0
            }
            return SIMD3(hue, saturation, luma)
        }

        /// Hue, saturation and luma to RGB: the hue's fully saturated colour scaled to the luma,
        /// then its chroma scaled so that `encode` measures the saturation given. The hue wraps;
        /// a negative luma turns it half a turn, as scaling by a negative luma turned it.
        func decode(_ hsy: SIMD3<Double>) -> SIMD3<Double> {
            let luma = hsy.z
            var hue = hsy.x - 1.0 / 6.0
            if luma < 0 { hue += 0.5 }
            hue = (hue - hue.rounded(.down)) * 6
            let hueColour = SIMD3(clamp(abs(hue - 3) - 1, 0, 1), clamp(2 - abs(hue - 2), 0, 1), clamp(2 - abs(hue - 4), 0, 1))
            let weights = Self.lumaWeights
            let colour = hueColour * (luma / (weights.x * hueColour.x + weights.y * hueColour.y + weights.z * hueColour.z))
            let distance = Self.distance(colour, luma)
            let gain = switch self {
            case .linear: Self.linearGain(colour, luma: luma, distance: distance, saturation: hsy.y)
            case .log: hsy.y / max(1e-10, distance * Self.logGain)
            case .video: hsy.y / max(1e-10, distance * Self.videoGain)
            }
            return luma + gain * (colour - luma)
        }

        /// The chroma gain that gives `colour` the scene-linear saturation asked for: solved
        /// from the relative measure above `brightLuma` (at most 50), the dark one below
        /// `darkLuma`, and from the quadratic of their blend between.
        private static func linearGain(_ colour: SIMD3<Double>, luma: Double, distance: Double, saturation: Double) -> Double {
            let sum = colour.x + colour.y + colour.z
            let s = saturation / linearScale
            let alpha = blend(luma)
            if alpha == 1 {
                // A divisor that would go negative would make a negative gain.
                let divisor = max(1e-6, -s * sum + s * 3 * luma + distance)
                return min(s * (sumOffset + 3 * luma) / divisor, 50)
            }
            if alpha == 0 { return s / max(1e-10, distance * darkGain) }
            let dark = distance * darkGain * (1 - alpha)
            let a = dark * (sum - 3 * luma)
            let b = dark * (sumOffset + 3 * luma) + distance * alpha - s * (sum - 3 * luma)
            let c = -s * (sumOffset + 3 * luma)
            let root = (b * b - 4 * a * c).squareRoot()
            let denominator = -root - b
            let gain = 2 * c / denominator
            return gain >= 0 ? gain : 2 * c / (denominator + root * 2)
        }
    }
}
