/// The primaries a Camera Raw RGB table's values are in (the payload's primaries field, 0...4),
/// with the matrices Adobe's DNG SDK converts with.
///
/// The SDK's matrices to and from its connection space (XYZ D50) are rounded (the ICC's
/// four-digit luminance rows), so they are taken as the SDK has them, not derived from the
/// spaces' chromaticities: read from the DNG SDK's `dng_color_space` through its `spaces`
/// output, 17 significant digits. Camera Raw works in linear ProPhoto RGB; a table in other
/// primaries is reached through `toTable` (ProPhoto's values to the table's) and left through
/// `fromTable`.
public enum RGBTablePrimaries: UInt32, Sendable, CaseIterable {
    case sRGB = 0
    case adobeRGB = 1
    case proPhoto = 2
    case displayP3 = 3
    case rec2020 = 4

    /// "sRGB", "Adobe RGB", "ProPhoto RGB", "Display P3", "Rec. 2020", for `info`.
    public var name: String {
        switch self {
        case .sRGB: "sRGB"
        case .adobeRGB: "Adobe RGB"
        case .proPhoto: "ProPhoto RGB"
        case .displayP3: "Display P3"
        case .rec2020: "Rec. 2020"
        }
    }

    /// Linear ProPhoto RGB to the table's linear primaries (the SDK's encode matrix: the table
    /// space's from-XYZ times ProPhoto's to-XYZ, multiplied in Float64); nil for ProPhoto,
    /// where the SDK uses none.
    public var toTable: [SIMD3<Double>]? {
        guard self != .proPhoto else { return nil }
        return Self.product(matrices.fromPCS, Self.proPhotoSpace.toPCS)
    }

    /// The table's linear primaries to linear ProPhoto RGB (the SDK's decode matrix); nil for ProPhoto.
    public var fromTable: [SIMD3<Double>]? {
        guard self != .proPhoto else { return nil }
        return Self.product(Self.proPhotoSpace.fromPCS, matrices.toPCS)
    }

    /// The SDK's matrices of this space to and from XYZ D50, rows first.
    public var matrices: (toPCS: [SIMD3<Double>], fromPCS: [SIMD3<Double>]) {
        switch self {
        case .sRGB: Self.sRGBSpace
        case .adobeRGB: Self.adobeRGBSpace
        case .proPhoto: Self.proPhotoSpace
        case .displayP3: Self.displayP3Space
        case .rec2020: Self.rec2020Space
        }
    }

    /// Rows of `a · b`.
    static func product(_ a: [SIMD3<Double>], _ b: [SIMD3<Double>]) -> [SIMD3<Double>] {
        a.map { row in row.x * b[0] + row.y * b[1] + row.z * b[2] }
    }

    private static let sRGBSpace: (toPCS: [SIMD3<Double>], fromPCS: [SIMD3<Double>]) = (
        [SIMD3(0.43609804468623303, 0.38509827335168162, 0.14309935839165319),
         SIMD3(0.2225, 0.71689999999999998, 0.060600000000000001),
         SIMD3(0.013900077535929461, 0.097100541635881346, 0.71410398333864944)],
        [SIMD3(3.133616621020153, -1.6168214013565443, -0.49073966700590282),
         SIMD3(-0.97865470381420383, 1.9160610041253281, 0.033512715110345495),
         SIMD3(0.072076880980505631, -0.22906554547222158, 1.4053516575281628)])
    private static let adobeRGBSpace: (toPCS: [SIMD3<Double>], fromPCS: [SIMD3<Double>]) = (
        [SIMD3(0.609760499812391, 0.20532037167702785, 0.14921480494014883),
         SIMD3(0.31109999999999999, 0.62570000000000003, 0.063200000000000006),
         SIMD3(0.019502472422974513, 0.060907721567135795, 0.74469440852034996)],
        [SIMD3(1.9625158464724084, -0.6107571664103103, -0.34139717365590028),
         SIMD3(-0.9786626982374993, 1.916094102666325, 0.033481943795896064),
         SIMD3(0.028648266608181237, -0.14072034126695965, 1.3490349444819365)])
    private static let proPhotoSpace: (toPCS: [SIMD3<Double>], fromPCS: [SIMD3<Double>]) = (
        [SIMD3(0.79777915483080908, 0.13521341573664958, 0.031303105862108972),
         SIMD3(0.28799999999999998, 0.71189999999999998, 0.0001),
         SIMD3(0, 0, 0.82510460251046036)],
        [SIMD3(1.3457530095537378, -0.25560312004444008, -0.051024668244744428),
         SIMD3(-0.54442599627964106, 1.5080962193746295, 0.020471846748029918),
         SIMD3(0, 0, 1.2119675456389449)])
    private static let displayP3Space: (toPCS: [SIMD3<Double>], fromPCS: [SIMD3<Double>]) = (
        [SIMD3(0.5151511127658891, 0.29202897481584084, 0.15711558884783766),
         SIMD3(0.2412, 0.69220000000000004, 0.066600000000000006),
         SIMD3(-0.0009998843947048718, 0.041895156138134125, 0.78420933076703092)],
        [SIMD3(2.404008543470999, -0.99015415003025775, -0.39755067847220033),
         SIMD3(-0.84231139153217838, 1.7990614321732641, 0.015968643064769337),
         SIMD3(0.04806433233286915, -0.097374509955489005, 1.2738097435144351)])
    private static let rec2020Space: (toPCS: [SIMD3<Double>], fromPCS: [SIMD3<Double>]) = (
        [SIMD3(0.67349698027098814, 0.16569925706147401, 0.12509943909710558),
         SIMD3(0.27910000000000001, 0.67530000000000001, 0.045600000000000002),
         SIMD3(-0.0018997803499392564, 0.029996531841146153, 0.79700785101925331)],
        [SIMD3(1.6472769671547767, -0.39371004702344303, -0.23603311591447593),
         SIMD3(-0.68281639972206976, 1.6477939391535066, 0.0128989256165906),
         SIMD3(0.029625289460865852, -0.062955547941224099, 1.2536446969922501)])
}
