import Foundation

/// ACES 2.0's output transform as OpenColorIO 2.6 evaluates it: a colour appearance model (JMh,
/// after CAM16 under a dim surround), a tone scale on its lightness J, a compression of its
/// colourfulness M towards the reach gamut (AP1), and a compression of what remains into the
/// limiting display gamut along lines aimed at a focus on the J axis.
///
/// Hue is in degrees, 0...360. Everything fixed by the parameters (matrices, the tone scale's
/// constants, the tables of reach and cusp per hue) is computed once, in `ACES2.Model`; the
/// per-colour work is a few powers, sines and a search of the hue table.
enum ACES2 {
    // The model's viewing conditions: adapting luminance, background and dim surround.
    static let referenceLuminance = 100.0
    static let adaptingLuminance = 100.0
    static let background = 20.0
    static let surroundC = 0.59
    static let surroundN = 0.9
    /// The scale of J (diffuse white is J = 100).
    static let jScale = 100.0
    /// The constant and factor of the cone response compression, `Rc^0.42 / (27.13 + Rc^0.42)`.
    static let compressionOffset = 0.2713 * 100
    static let compressionScale = 4.0 * 100

    /// The exponent of A in J, `c z` of the model: `0.59 (1.48 + √(Yb / Yw))`.
    static let modelGamma = surroundC * (1.48 + (background / referenceLuminance).squareRoot())

    /// The primaries of the model's cone space, as chromaticities (equal-energy white).
    static let cam16 = Gamut(red: SIMD2(0.8336, 0.1735), green: SIMD2(2.3854, -1.4659),
                             blue: SIMD2(0.087, -0.125), white: SIMD2(0.333, 0.333))

    /// `a + t (b - a)`.
    @inline(__always)
    static func lerp(_ a: Double, _ b: Double, _ t: Double) -> Double { a + t * (b - a) }

    /// `Int(x)` (truncated) kept within `bounds`, NaN to the lower bound: tables are indexed
    /// with it, and degenerate primaries fill the model with NaN and infinities.
    @inline(__always)
    static func index(_ x: Double, within bounds: ClosedRange<Int>) -> Int {
        x >= Double(bounds.lowerBound) ? (x < Double(bounds.upperBound) ? Int(x) : bounds.upperBound) : bounds.lowerBound
    }

    /// A hue in degrees brought into 0...360 (360 itself excluded unless rounding makes it).
    @inline(__always)
    static func wrapHue(_ hue: Double) -> Double {
        let y = fmod(hue, 360)
        return y < 0 ? y + 360 : y
    }
}
