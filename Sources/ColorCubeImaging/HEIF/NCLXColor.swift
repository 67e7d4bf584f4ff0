import CLittleCMS
import _CHEIF

/// A HEIF nclx colour box (ITU-T H.273 code points) as a colour tag.
///
/// sRGB (BT.709 primaries, or unspecified ones, with the sRGB or an unspecified curve) is `.sRGB`.
/// Anything else becomes an ICC profile that Little CMS builds from the primaries' and white
/// point's xy chromaticities and a parametric tone curve, so that the ordinary ICC conversion brings
/// the pixels to sRGB: Display P3 phone photos (primaries 12, curve 13) come out as P3 colours
/// rendered in sRGB, not as sRGB code values misread. The matrix and range fields need nothing
/// here: libheif has used them when converting YCbCr to RGB.
public struct NCLXColor: Equatable, Sendable {
    /// H.273 colour primaries (1 BT.709, 2 unspecified, 9 BT.2020, 12 P3 with D65 white, ...).
    public var primaries: Int
    /// H.273 transfer characteristics (13 sRGB, 1 BT.709, 8 linear, 16 PQ, ...).
    public var transfer: Int
    /// Red, green, blue and white xy, as libheif derives them from `primaries`.
    public var chromaticities: [Double]

    init(_ nclx: ccheif_nclx) {
        primaries = Int(nclx.primaries)
        transfer = Int(nclx.transfer)
        chromaticities = [nclx.red_x, nclx.red_y, nclx.green_x, nclx.green_y, nclx.blue_x, nclx.blue_y,
                          nclx.white_x, nclx.white_y].map { Double($0) }
    }

    /// A description from its code points and the chromaticities (red, green, blue, white xy) of
    /// its primaries; implausible chromaticities are replaced by BT.709's.
    public init(primaries: Int, transfer: Int, chromaticities: [Double] = NCLXColor.bt709Chromaticities) {
        self.primaries = primaries
        self.transfer = transfer
        self.chromaticities = chromaticities
    }

    /// BT.709 / sRGB primaries and D65 white.
    public static let bt709Chromaticities = [0.640, 0.330, 0.300, 0.600, 0.150, 0.060, 0.3127, 0.3290]

    /// The tag for this description.
    /// - Throws: `ImageError.unsupported` naming `path` for HDR and other curves colorcube cannot
    ///   express as an SDR ICC profile (PQ, HLG, logarithmic).
    public func colorSpace(path: String) throws(ImageError) -> ColorSpaceTag {
        let srgbCurve = transfer == 13 || transfer == 2
        if (primaries == 1 || primaries == 2) && srgbCurve {
            return .sRGB
        }
        guard let curve = Self.curveParameters(transfer: transfer) else {
            throw .unsupported(path: path, reason: "its nclx colour box declares transfer characteristics \(transfer) "
                               + "(an HDR or logarithmic curve), which colorcube does not grade")
        }
        let xy = primaries == 2 || !Self.plausible(chromaticities) ? Self.bt709Chromaticities : chromaticities
        let bytes = Self.profile(chromaticities: xy, curve: curve)
        guard !bytes.isEmpty else {
            throw .badProfile(path: path, reason: "Little CMS cannot build a profile for nclx primaries \(primaries)")
        }
        return .icc(ICCProfileData(bytes: bytes, name: "nclx primaries \(primaries), transfer \(transfer)"))
    }

    /// Little CMS parametric curve type 4 parameters (gamma, a, b, c, d: Y = (aX + b)^gamma for
    /// X >= d, else cX) for an H.273 transfer characteristic, or nil when none fits.
    static func curveParameters(transfer: Int) -> [Double]? {
        switch transfer {
        case 2, 13: // unspecified (read as sRGB), IEC 61966-2-1 sRGB
            [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        case 1, 6, 14, 15: // BT.709, BT.601, BT.2020: the inverse of the camera curve
            [1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081]
        case 4: [2.2, 1, 0, 0, 0]
        case 5: [2.8, 1, 0, 0, 0]
        case 8: [1, 1, 0, 0, 0]
        default: nil
        }
    }

    private static func plausible(_ xy: [Double]) -> Bool {
        xy.count == 8 && xy.allSatisfy { $0 > 0 && $0 < 1 }
    }

    /// An RGB matrix-shaper profile (serialised without a creation date, so that the same
    /// description always gives the same bytes and files written with it stay deterministic).
    static func profile(chromaticities xy: [Double], curve parameters: [Double]) -> [UInt8] {
        var white = cmsCIExyY(x: xy[6], y: xy[7], Y: 1)
        var primaries = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: xy[0], y: xy[1], Y: 1),
            Green: cmsCIExyY(x: xy[2], y: xy[3], Y: 1),
            Blue: cmsCIExyY(x: xy[4], y: xy[5], Y: 1))
        var parameters = parameters
        guard let curve = cmsBuildParametricToneCurve(nil, 4, &parameters) else { return [] }
        defer { cmsFreeToneCurve(curve) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        guard let profile = cmsCreateRGBProfile(&white, &primaries, &curves) else { return [] }
        defer { cmsCloseProfile(profile) }
        return ICCProfiles.serialize(profile)
    }
}
