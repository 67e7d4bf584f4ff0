/// The gamuts of the catalogue's spaces: primaries and white as their makers publish them, and
/// the adaptation each maker's matrices to ACES use (checked against the studio config's matrices).
public enum Gamuts {
    private static func gamut(_ r: (Double, Double), _ g: (Double, Double), _ b: (Double, Double),
                              white: SIMD2<Double> = Whites.d65, _ adaptation: ChromaticAdaptation) -> Gamut {
        Gamut(red: SIMD2(r.0, r.1), green: SIMD2(g.0, g.1), blue: SIMD2(b.0, b.1), white: white, adaptation: adaptation)
    }

    public static let ap0 = gamut((0.7347, 0.2653), (0, 1), (0.0001, -0.077), white: Whites.aces, .bradford)
    public static let ap1 = gamut((0.713, 0.293), (0.165, 0.830), (0.128, 0.044), white: Whites.aces, .bradford)
    public static let rec709 = gamut((0.64, 0.33), (0.30, 0.60), (0.15, 0.06), .bradford)
    public static let p3D65 = gamut((0.680, 0.320), (0.265, 0.690), (0.150, 0.060), .bradford)
    public static let rec2020 = gamut((0.708, 0.292), (0.170, 0.797), (0.131, 0.046), .bradford)
    public static let adobeRGB = gamut((0.64, 0.33), (0.21, 0.71), (0.15, 0.06), .bradford)
    public static let appleWideGamut = gamut((0.725, 0.301), (0.221, 0.814), (0.068, -0.076), .bradford)
    public static let arriWideGamut3 = gamut((0.684, 0.313), (0.221, 0.848), (0.0861, -0.102), .cat02)
    public static let arriWideGamut4 = gamut((0.7347, 0.2653), (0.1424, 0.8576), (0.0991, -0.0308), .cat02)
    public static let blackmagicWideGamut = gamut((0.7177215, 0.3171181), (0.228041, 0.861569), (0.1005841, -0.0820452),
                                                  white: SIMD2(0.312717, 0.3290312), .cat02)
    public static let davinciWideGamut = gamut((0.8, 0.313), (0.1682, 0.9877), (0.079, -0.1155), .cat02)
    public static let cinemaGamut = gamut((0.74, 0.27), (0.17, 1.14), (0.08, -0.1), .cat02)
    public static let dGamut = gamut((0.71, 0.31), (0.21, 0.88), (0.09, -0.08), .cat02)
    public static let vGamut = gamut((0.73, 0.28), (0.165, 0.84), (0.1, -0.03), .bradford)
    public static let redWideGamut = gamut((0.780308, 0.304253), (0.121595, 1.493994), (0.095612, -0.084589), .bradford)
    public static let sGamut3 = gamut((0.73, 0.28), (0.14, 0.855), (0.1, -0.05), .cat02)
    public static let sGamut3Cine = gamut((0.766, 0.275), (0.225, 0.8), (0.089, -0.087), .cat02)
    public static let veniceSGamut3 = gamut((0.740464264304292, 0.27936437475066), (0.089241145423286, 0.893809528608105),
                                            (0.110488236673827, -0.052579333080476), .cat02)
    public static let veniceSGamut3Cine = gamut((0.775901871567345, 0.274502392854799), (0.188682902773355, 0.828684937020288),
                                                (0.101337382499301, -0.089187517306263), .cat02)
    /// Fujifilm's F-Gamut is BT.2020's primaries; F-Gamut C is wider.
    public static let fGamut = gamut((0.708, 0.292), (0.170, 0.797), (0.131, 0.046), .cat02)
    public static let fGamutC = gamut((0.7347, 0.2653), (0.0263, 0.9737), (0.1173, -0.0224), .cat02)
    /// Nikon's N-Gamut is BT.2020's primaries.
    public static let nGamut = gamut((0.708, 0.292), (0.170, 0.797), (0.131, 0.046), .cat02)
}
