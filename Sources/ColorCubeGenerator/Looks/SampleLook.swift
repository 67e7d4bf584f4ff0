import ColorCubeCore

/// The sample looks colorcube ships in LUTs/, defined as functions of an sRGB colour so that
/// Tools/make-looks can rebuild every file from this code.
///
/// Each look maps an sRGB-encoded input in 0...1 to an output in 0...1, the way an adjustment in an
/// image editor would. All are smooth (no steps or kinks a lattice would turn into banding), so
/// their cubes pass `Roughness`'s checks at every size. Luma is Rec. 709's weighting of the encoded
/// values, as editors' black-and-white conversions use.
///
/// The first four are the classic `CIColorCube` examples: a high-contrast black and white through a
/// deep red filter, an inverted ("black hot") infrared, a blue cyanotype and a low-contrast green
/// night vision. The rest are looks photographers reach for.
public enum SampleLook: String, CaseIterable, Sendable {
    /// High-contrast black and white as if shot through a deep red (Wratten 25/29) filter: reds
    /// turn light, blue skies and greens dark.
    case bwRedFilter = "bw-red-filter"
    /// Thermal-camera "black hot" infrared: warm, bright subjects go dark, cool ones light, in a
    /// contrasty monochrome.
    case infrared = "infrared-hot-black"
    /// A cyanotype print: tones mapped from deep Prussian blue to a pale blue-white.
    case cyanotype = "cyanotype"
    /// Green phosphor night vision: monochrome, low contrast, no true black or white.
    case nightVision = "night-vision"
    /// Faded warm film: lifted blacks, softened whites, a warm cast and slightly muted colour.
    case warmFade = "warm-fade"
    /// Teal shadows and orange mid-tones and highlights (skin), with a little extra contrast.
    case tealOrange = "teal-orange"
    /// Bleach bypass: half the colour, hard contrast, as if the bleach bath was skipped.
    case bleachBypass = "bleach-bypass"

    /// A one-line description for listings.
    public var summary: String {
        switch self {
        case .bwRedFilter: "high-contrast black and white through a deep red filter"
        case .infrared: "inverted \"black hot\" infrared monochrome"
        case .cyanotype: "blue cyanotype print"
        case .nightVision: "low-contrast green night vision"
        case .warmFade: "faded warm film with lifted blacks"
        case .tealOrange: "teal shadows, orange highlights"
        case .bleachBypass: "bleach bypass: desaturated, hard contrast"
        }
    }

    /// The look's output for an sRGB input (each channel in 0...1); outputs lie in 0...1.
    public func transform(_ input: SIMD3<Float>) -> SIMD3<Float> {
        let c = Self.clamp(input)
        let output: SIMD3<Float>
        switch self {
        case .bwRedFilter:
            let y = Self.clamp(0.90 * c.x + 0.15 * c.y - 0.05 * c.z)
            output = SIMD3(repeating: Self.smoothstep(0.06, 0.94, y))
        case .infrared:
            let heat = 0.60 * c.x + 0.35 * c.y + 0.05 * c.z
            output = SIMD3(repeating: Self.smoothstep(0.04, 0.96, 1 - heat))
        case .cyanotype:
            let y = Self.luma(c)
            let t = y * (1.15 - 0.15 * y)  // a gentle lift of the mid-tones
            output = Self.mix(SIMD3(0.03, 0.12, 0.30), SIMD3(0.86, 0.93, 0.98), t)
        case .nightVision:
            let y = Self.luma(c)
            let level = 0.14 + 0.58 * y * (1.2 - 0.2 * y)
            output = level * SIMD3(0.38, 1.0, 0.42)
        case .warmFade:
            let muted = Self.mix(SIMD3(repeating: Self.luma(c)), c, 0.8)
            let faded = 0.07 + 0.85 * muted
            output = faded * SIMD3(1.04, 1.0, 0.88) + SIMD3(0.015, 0.01, 0.02)
        case .tealOrange:
            let y = Self.luma(c)
            // Teal in the shadows turning to orange above the mid-tones; black and white stay neutral.
            let shift = Self.mix(SIMD3(-0.07, 0.02, 0.07), SIMD3(0.07, 0.0, -0.08), Self.smoothstep(0.15, 0.75, y))
            let toned = c + shift * (4 * y * (1 - y))
            let contrasted = Self.mix(toned, Self.sCurve(Self.clamp(toned)), 0.35)
            output = Self.mix(SIMD3(repeating: Self.luma(Self.clamp(contrasted))), contrasted, 1.12)
        case .bleachBypass:
            let muted = Self.mix(SIMD3(repeating: Self.luma(c)), c, 0.45)
            output = Self.mix(muted, Self.sCurve(muted), 0.85)
        }
        return Self.clamp(output)
    }

    /// The look sampled on a lattice of `size` points per axis.
    /// - Throws: `CubeError.invalidSize` when `size` is outside 2...256.
    public func cube(size: Int) throws(CubeError) -> ColorCube {
        try ColorCube(size: size, sampling: transform)
    }

    // MARK: Building blocks

    private static func clamp(_ v: SIMD3<Float>) -> SIMD3<Float> {
        pointwiseMin(pointwiseMax(v, .zero), .one)
    }

    private static func clamp(_ v: Float) -> Float { min(max(v, 0), 1) }

    private static func luma(_ c: SIMD3<Float>) -> Float {
        0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z
    }

    private static func mix(_ a: SIMD3<Float>, _ b: SIMD3<Float>, _ t: Float) -> SIMD3<Float> {
        a + (b - a) * t
    }

    /// 0 below `low`, 1 above `high`, the cubic 3t^2 - 2t^3 between: flat at both ends, so no kink.
    private static func smoothstep(_ low: Float, _ high: Float, _ x: Float) -> Float {
        let t = clamp((x - low) / (high - low))
        return t * t * (3 - 2 * t)
    }

    /// The smoothstep S-curve on each channel (0 and 1 fixed, contrast 1.5 at the middle).
    private static func sCurve(_ c: SIMD3<Float>) -> SIMD3<Float> {
        c * c * (3 - 2 * c)
    }
}
