import CLittleCMS
import ColorCubeImaging

/// ICC profiles made with Little CMS for tests.
enum TestProfiles {
    /// Display P3: P3 primaries, D65 white, the sRGB tone curve.
    static func displayP3() -> ICCProfileData {
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        var primaries = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: 0.680, y: 0.320, Y: 1),
            Green: cmsCIExyY(x: 0.265, y: 0.690, Y: 1),
            Blue: cmsCIExyY(x: 0.150, y: 0.060, Y: 1))
        var parameters: [Double] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        let curve = cmsBuildParametricToneCurve(nil, 4, &parameters)
        var curves: [OpaquePointer?] = [curve, curve, curve]
        let profile = cmsCreateRGBProfile(&white, &primaries, &curves)
        defer {
            cmsCloseProfile(profile)
            cmsFreeToneCurve(curve)
        }
        return ICCProfileData(bytes: profile.map(ICCProfiles.serialize) ?? [], name: "Display P3")
    }

    /// Little CMS's own conversion of one 16-bit colour from `profile` to sRGB, in Double precision
    /// (relative colorimetric, black point compensation), as the independent reference.
    static func toSRGB(_ rgb: SIMD3<Double>, from profile: ICCProfileData) -> SIMD3<Double> {
        let input = profile.bytes.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }
        let output = cmsCreate_sRGBProfile()
        defer {
            cmsCloseProfile(input)
            cmsCloseProfile(output)
        }
        let format = CCMS_TYPE_RGB_DBL
        let transform = cmsCreateTransform(input, format, output, format, CCMS_INTENT_RELATIVE_COLORIMETRIC,
                                           CCMS_FLAGS_BLACKPOINTCOMPENSATION | CCMS_FLAGS_NOOPTIMIZE)
        defer { cmsDeleteTransform(transform) }
        var source = [rgb.x, rgb.y, rgb.z]
        var result = [0.0, 0.0, 0.0]
        cmsDoTransform(transform, &source, &result, 1)
        return SIMD3(result[0], result[1], result[2])
    }
}
