import ColorCubeCore
import ColorCubeTransform

/// An ICC matrix/TRC profile (a display profile, .icc, .icm, .pf) read as OpenColorIO 2.x reads
/// it as a FileTransform: the operations that take profile connection space XYZ, adapted to D65,
/// to the display's code values.
///
/// The chain, nothing baked:
/// 1. the inverse of the Bradford adaptation from D50 to D65 (OpenColorIO's constants), which
///    takes D65 XYZ back to the profile's D50 connection space;
/// 2. the inverse of the matrix whose columns are the rXYZ, gXYZ and bXYZ colorant tags
///    (s15Fixed16 / 65536, exact);
/// 3. the tone curves (rTRC, gTRC, bTRC) inverted:
///    - a curveType of one entry (a u8Fixed8 gamma) or a parametricCurveType of function 0: the
///      exponent 1/gamma, mirrored for negative values and not clamped (CLF's basicMirrorRev);
///    - a curveType of N > 1 entries (uint16 / 65535): the inverse of that 1D LUT as OpenColorIO
///      applies it, baked into a 65536-entry forward table over 0...1;
///    - a parametricCurveType of function 1 to 4: sampled at 1024 points over 0...1 (input and
///      output clamped to 0...1, in Float32), then inverted likewise into a table with one entry
///      per half-float value.
///
/// The three curves must be of one kind (and one length for tables); parametric curves are
/// checked as `ICCParametricCurve` says. What the header must hold and how each tag is read is in
/// `ICCTagTable`. A profile with no colorant and tone-curve tags (a CMYK, grey or LUT-based
/// profile) is refused with what it is.
public struct ICCDisplayProfile: Sendable {
    /// The profile's description (the Apple 'dscm' tag, else 'desc'), when it has one.
    public let title: String?
    /// What the profile is, in words: "display profile for RGB data".
    public let kind: String
    /// From D65 XYZ to display code values.
    public let transform: Transform

    /// The Bradford adaptation from D50 to D65 as OpenColorIO holds it, rows of XYZ.
    public static let bradfordD50ToD65: [SIMD3<Double>] = [
        SIMD3(0.955509474537, -0.023074829492, 0.063312392987),
        SIMD3(-0.028327238868, 1.00994465504, 0.021055592145),
        SIMD3(0.012329273379, -0.020536209966, 1.33072998567),
    ]

    /// The tags a matrix/TRC profile holds.
    static let colorantTags = ["rXYZ", "gXYZ", "bXYZ"], curveTags = ["rTRC", "gTRC", "bTRC"]
    static let channels = ["red", "green", "blue"]

    /// Reads a profile from its bytes; `path` names it in errors.
    /// - Throws: `LUTFileError.unsupported` when the profile has no matrix/TRC tags (it says
    ///   what the profile is and what colorcube reads), `.undecodable` when its header or tags
    ///   break the rules above, each naming `path`.
    public init(bytes: [UInt8], path: String) throws(LUTFileError) {
        let table = try ICCTagTable(bytes: bytes, path: path)
        let kind = "\(ICCTagTable.classes[table.deviceClass] ?? table.deviceClass) profile "
            + "for \(table.colorSpace.trimmingSuffix(" ")) data"
        self.kind = kind
        guard (Self.colorantTags + Self.curveTags).allSatisfy(table.has) else {
            let shape = table.has("A2B0") || table.has("B2A0") ? ", built on colour tables (AToB/BToA tags)," : ""
            throw .unsupported(path: path, reason: "this is an ICC \(kind)\(shape) without RGB colorant and tone-curve tags; "
                + "colorcube reads RGB-to-RGB device links "
                + "and RGB matrix/TRC (display) profiles")
        }
        title = Self.description(table)
        func fail(_ reason: String) -> LUTFileError { .undecodable(path: path, reason: reason) }
        var columns: [SIMD3<Double>] = []
        for tag in Self.colorantTags {
            guard case .xyz(let raw) = table.value(of: tag) else { throw fail("the \(tag) tag is not one XYZ value") }
            columns.append(SIMD3(Double(raw.x), Double(raw.y), Double(raw.z)) / 65536)
        }
        let tone = try Self.inverseToneCurves(Self.curveTags.map(table.value(of:)), path: path)
        let adaptation: [any TransformOp], colorants: [any TransformOp]
        do throws(TransformError) {
            adaptation = try MatrixOp(rows: Self.bradfordD50ToD65).inverse()
            colorants = try MatrixOp(rows: (0..<3).map { row in SIMD3(columns[0][row], columns[1][row], columns[2][row]) }).inverse()
        } catch {
            // OpenColorIO's Bradford matrix is not singular: only the colorants can be.
            throw fail("its colorant matrix (rXYZ, gXYZ, bXYZ as columns) is singular, so it cannot be inverted")
        }
        transform = Transform(adaptation + colorants + [tone])
    }

    /// The inverse of the three tone curves, as one operation.
    private static func inverseToneCurves(_ curves: [ICCTagTable.Value?], path: String) throws(LUTFileError) -> any TransformOp {
        func fail(_ reason: String) -> LUTFileError { .undecodable(path: path, reason: reason) }
        var tables: [[UInt16]] = [], parametric: [(function: UInt16, parameters: [Int32])] = []
        for (tag, curve) in zip(curveTags, curves) {
            switch curve {
            case .curve(let entries): tables.append(entries)
            case .parametric(let function, let parameters): parametric.append((function, parameters))
            default: throw fail("the \(tag) tag is not a tone curve (curveType or parametricCurveType)")
            }
        }
        guard tables.count == 3 || parametric.count == 3 else {
            throw fail("its three tone curves are not of one type (all curveType or all parametricCurveType)")
        }
        /// An operation built from checked data; `TransformError` (a gamma outside what an exponent
        /// takes) becomes this file's error.
        func operation(_ build: () throws(TransformError) -> any TransformOp) throws(LUTFileError) -> any TransformOp {
            do throws(TransformError) {
                return try build()
            } catch {
                throw fail("its tone curves: \(error)")
            }
        }
        if !tables.isEmpty {
            guard tables.allSatisfy({ $0.count == tables[0].count }) else {
                throw fail("its three tone curves are not of one length (\(tables.map { String($0.count) }.joined(separator: ", ")) entries)")
            }
            switch tables[0].count {
            case 0:
                throw fail("its tone curves have no entries")
            case 1:
                // A u8Fixed8 gamma, taken through Float as OpenColorIO takes it.
                let gammas = tables.map { Double(Float($0[0]) / 65535 * 65535 / 256) }
                return try operation { () throws(TransformError) in try ExponentOp(style: .basicMirrorRev, exponent: SIMD3(gammas)) }
            default:
                let inverses = tables.map { entries in
                    CTFInverseTable(entries: entries.map { Double(Float($0) / 65535) }, halfDomain: false)
                }
                return try operation { () throws(TransformError) in try LUT1DOp(curves: CTFInverseTable.bakedCurves(inverses, codes: 65536)) }
            }
        }
        guard parametric.allSatisfy({ $0.function == parametric[0].function }) else {
            throw fail("its three tone curves are not of one parametric function type "
                + "(\(parametric.map { String($0.function) }.joined(separator: ", ")))")
        }
        var checked: [ICCParametricCurve] = []
        for (channel, curve) in zip(channels, parametric) {
            checked.append(try ICCParametricCurve(function: curve.function, raw: curve.parameters, channel: channel, path: path))
        }
        if checked[0].function == 0 {
            let gammas = checked.map { Double($0.parameters[0]) }
            return try operation { () throws(TransformError) in try ExponentOp(style: .basicMirrorRev, exponent: SIMD3(gammas)) }
        }
        let inverses = checked.map { curve in
            CTFInverseTable(entries: (0..<1024).map { Double(curve(Float($0) / 1023)) }, halfDomain: false)
        }
        return try operation { () throws(TransformError) in try LUT1DOp(curves: CTFInverseTable.bakedCurves(inverses, codes: nil)) }
    }

    /// The description tag's text: Apple's 'dscm' when it reads, else 'desc'; nil when neither
    /// holds text or the text is empty.
    private static func description(_ table: ICCTagTable) -> String? {
        for tag in ["dscm", "desc"] {
            if case .text(let text) = table.value(of: tag) { return text.isEmpty ? nil : text }
        }
        return nil
    }
}

private extension String {
    func trimmingSuffix(_ character: Character) -> String {
        String(reversed().drop { $0 == character }.reversed())
    }
}
