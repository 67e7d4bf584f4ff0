import ColorCubeCore
import ColorCubeLooks
import ColorCubeTransform
import Foundation
import Testing

/// The CTF operators colorcube applies (ExposureContrast, FixedFunction and its deprecated forms
/// Function and ACES): exact values and round trips through the inverse, and files read as
/// OpenColorIO 2.6 reads them (compared with PyOpenColorIO when it is installed) or refused
/// where it refuses them.
@Suite struct CTFOperatorTests {
    static func processList(_ body: String, version: String = "2.0") -> String {
        CTFFormatTests.processList(body, root: "version=\"\(version)\"")
    }

    static func ec(_ style: String, _ params: String, _ extra: String = "") -> String {
        CTFFormatTests.node("ExposureContrast", " style=\"\(style)\"", "<ECParams \(params)/>" + extra)
    }

    static func ff(_ style: String, _ params: String? = nil) -> String {
        CTFFormatTests.node("FixedFunction", " style=\"\(style)\"" + (params.map { " params=\"\($0)\"" } ?? ""), "")
    }

    /// BT.2100's HLG OETF as a GammaLog: a square root up to 1/12, a natural log above.
    static let gammaLog = "0 0.08333333333333333 0.5 1.7320508075688772 0 2.718281828459045 0.17883277 0.55991073 12 -0.28466892"
    /// ACES 1.3's reference gamut compression.
    static let gamutComp = "1.147 1.264 1.312 0.815 0.803 0.88 1.2"
    /// Log curves below 0.1 and above 0.6 meeting the line y = x at the breaks.
    static let doubleLog = "10 0.1 0.6 0.1 0.2 1 0 0.5 0.7109243748081782 1 0 1 0"

    /// Files OpenColorIO reads, one style or corner each.
    static let written: [(name: String, text: String)] = [
        ("ec-linear.ctf", processList(ec("linear", "exposure=\"0.65\" contrast=\"1.2\" gamma=\"0.5\" pivot=\"1\"",
                                         "<DynamicParameter param=\"EXPOSURE\"/><DynamicParameter param=\"GAMMA\"/>"), version: "1.3")),
        ("ec-linear-rev.ctf", processList(ec("linearRev", "exposure=\"0.65\" contrast=\"1.2\" gamma=\"0.5\" pivot=\"1\""))),
        ("ec-scale.ctf", processList(ec("linear", "exposure=\"-1.25\" contrast=\"2\" gamma=\"0.5\" pivot=\"0.18\""))),
        ("ec-video.ctf", processList(ec("video", "exposure=\"0.2\" contrast=\"0.65\" pivot=\"0.23\""))),
        ("ec-video-rev.ctf", processList(ec("VIDEOREV", "exposure=\"-0.4\" contrast=\"1.4\" gamma=\"1.1\" pivot=\"0.0001\""))),
        ("ec-log.ctf", processList(ec("log", "exposure=\"-1.5\" contrast=\"0.5\" gamma=\"1.2\" pivot=\"0.18\"",
                                      "<DynamicParameter param=\"CONTRAST\"/>"))),
        ("ec-log-rev.ctf", processList(ec("logRev", "exposure=\"-1.5\" contrast=\"0.5\" gamma=\"1.2\" pivot=\"0.18\""))),
        ("ec-log-steps.ctf", processList(ec("log", "exposure=\"1\" contrast=\"1.5\" pivot=\"0.5\" logExposureStep=\"0.2\" logMidGray=\"0.4\"")
                                         + ec("logRev", "exposure=\"0.5\" contrast=\"0.8\" pivot=\"0.01\" logExposureStep=\"0.05\" logMidGray=\"0.1\""))),
        ("ec-defaults.ctf", processList(CTFFormatTests.node("ExposureContrast", " style=\"video\"", ""))),
        ("surround.ctf", processList(ff("Rec2100SurroundFwd", "0.8") + ff("Rec2100SurroundRev", "1.25"))),
        ("surround-rev.ctf", processList(ff("rec2100surroundrev", "0.78"))),
        ("rgb-hsv.ctf", processList(ff("RGB_TO_HSV"))),
        ("hsv-rgb.ctf", processList(ff("HSV_to_RGB"))),
        ("xyz-xyY.ctf", processList(ff("XYZ_TO_xyY"))),
        ("xyY-xyz.ctf", processList(ff("xyY_TO_XYZ"))),
        ("xyz-uvY.ctf", processList(ff("XYZ_TO_uvY"))),
        ("uvY-xyz.ctf", processList(ff("uvY_TO_XYZ"))),
        ("xyz-luv.ctf", processList(ff("XYZ_TO_LUV"))),
        ("luv-xyz.ctf", processList(ff("LUV_TO_XYZ"))),
        ("lin-pq.ctf", processList(ff("Lin_TO_PQ"))),
        ("pq-lin.ctf", processList(ff("PQ_TO_Lin"))),
        ("lin-gammalog.ctf", processList(ff("Lin_TO_GammaLog", gammaLog))),
        ("gammalog-lin.ctf", processList(ff("GammaLog_TO_Lin", gammaLog.replacingOccurrences(of: " ", with: ", ")))),
        ("lin-doublelog.ctf", processList(ff("Lin_TO_DoubleLog", doubleLog))),
        ("doublelog-lin.ctf", processList(ff("DoubleLog_TO_Lin", doubleLog))),
        ("deprecated.ctf", processList(CTFFormatTests.node("ACES", " style=\"Surround\"", "<ACESParams gamma=\"1.2\"/>")
                                       + CTFFormatTests.node("Function", " style=\"RGB_to_HSV\"", "")
                                       + CTFFormatTests.node("ACES", " style=\"HSV_TO_RGB\"", ""), version: "1.6")),
        ("dark-dim.ctf", processList(ff("DarkToDim10"))),
        ("dim-dark.ctf", processList(ff("dimtodark10"))),
        ("gamut-comp.ctf", processList(ff("GamutComp13Fwd", gamutComp))),
        ("gamut-comp-rev.ctf", processList(ff("GamutComp13Rev", gamutComp))),
        // OpenColorIO scales neither operator by integer bit depths.
        ("depths.ctf", processList("<FixedFunction inBitDepth=\"8i\" outBitDepth=\"10i\" style=\"RGB_TO_HSV\"/>"
                                   + "<ExposureContrast inBitDepth=\"10i\" outBitDepth=\"8i\" style=\"linear\">"
                                   + "<ECParams exposure=\"1\" contrast=\"1\" pivot=\"0.18\"/></ExposureContrast>")),
    ]

    /// Files OpenColorIO refuses too, with what colorcube's message mentions.
    static let refusals: [(text: String, mentions: String)] = [
        (processList(ec("unknown", "exposure=\"0\" contrast=\"1\" pivot=\"1\"")), "is not one of linear"),
        (processList(CTFFormatTests.node("ExposureContrast", "", "<ECParams exposure=\"0\" contrast=\"1\" pivot=\"1\"/>")), "style is missing"),
        (processList(ec("video", "contrast=\"1\" pivot=\"1\"")), "exposure is missing"),
        (processList(ec("video", "exposure=\"1\" contrast=\"1\"")), "pivot is missing"),
        (processList(ec("log", "exposure=\"1\" contrast=\"1\" pivot=\"1\"", "<DynamicParameter param=\"PRIMARY\"/>")), "PRIMARY"),
        (CTFFormatTests.processList(ec("linear", "exposure=\"1\" contrast=\"1\" pivot=\"1\""), root: "compCLFversion=\"3.0\""), "read as a CLF"),
        (processList(ff("RGB_TO_HSV"), version: "1.7"), "has no <FixedFunction>"),
        (processList(CTFFormatTests.node("Function", " style=\"RGB_TO_HSV\"", ""), version: "1.5"), "has no <Function>"),
        (processList(CTFFormatTests.node("ACES", " style=\"Surround\"", "<ACESParams gamma=\"1.2\"/>"), version: "1.4"), "has no <ACES>"),
        (processList(ff("Rec2100SurroundFwd")), "takes 1 parameter, 0 given"),
        (processList(ff("Rec2100SurroundFwd", "200")), "outside 0.01...100"),
        (processList(ff("RGB_TO_HSV", "1")), "takes 0 parameters"),
        (processList(ff("Lin_TO_PQ", "a b")), "not a list of numbers"),
        (processList(ff("Lin_TO_GammaLog", "0.5 0.02 0.5 1.1 0.06 10 0.25 0.6 1 0.01")), "is not below the break"),
        (processList(ff("Lin_TO_GammaLog", "-0.05 0.02 0.5 1.1 0.06 -10 0.25 0.6 1 0.01")), "log base"),
        (processList(ff("Lin_TO_DoubleLog", "10 0.6 0.5 0.2 0.5 1 0.02 0.25 0.6 1 0.01 1.1 0.05")), "above the second"),
        (processList(ff("Lin_TO_DoubleLog", "10 0.05 0.5")), "takes 13 parameters, 3 given"),
        (processList(ff("NotAStyle")), "is not a fixed function"),
        (processList(ff("GamutComp13Fwd", "1.0 1.264 1.312 0.815 0.803 0.88 1.2")), "lim_cyan 1 is outside"),
        (processList(ff("GamutComp13Rev", "1.147 1.264 1.312 0.815 0.803 1 1.2")), "thr_yellow 1 is outside"),
        (processList(ff("DarkToDim10", "1")), "takes 0 parameters"),
        (processList(ff("RedMod03Fwd", "0.5")), "takes 0 parameters"),
        (processList(ff("HSY_LIN_TO_RGB", "1 2")), "takes 0 parameters"),
        (processList(CTFFormatTests.node("ACES", " style=\"Glow03Rev\"", "<ACESParams gamma=\"1.2\"/>"), version: "1.5"), "takes no parameter"),
        (processList(CTFFormatTests.node("ACES", " style=\"RGB_TO_HSV\"", "<ACESParams gamma=\"1.2\"/>"), version: "1.6"), "takes no parameter"),
        (processList(CTFFormatTests.node("ACES", " style=\"Surround\"", ""), version: "1.6"), "takes 1 parameter"),
    ]

    /// Colours inside and outside 0...1, with negative channels and a zero.
    static let inputs: [SIMD3<Double>] = [SIMD3(0, 0, 0), SIMD3(0.1, 0.2, 0.3), SIMD3(0.25, 0.5, 0.75), SIMD3(0.9, 0.6, 0.05),
                                          SIMD3(1, 1, 1), SIMD3(-0.1, 0.5, 2), SIMD3(4, -2, 0.01), SIMD3(0.18, 0.18, 0.18),
                                          SIMD3(-0.3, -0.2, -0.1), SIMD3(1.3, 0.002, 0.7)]

    static func read(_ text: String) throws -> Look {
        try CTFFormatTests.read(text)
    }

    // MARK: Exact values

    @Test func exposureScalesByPowersOfTwo() throws {
        var p = ExposureContrastOp.Parameters()
        p.exposure = 1
        #expect(ExposureContrastOp(style: .linear, parameters: p).apply(SIMD3(0.25, -0.5, 2)) == SIMD3(0.5, -1, 4))
        #expect(ExposureContrastOp(style: .linearRev, parameters: p).apply(SIMD3(0.5, -1, 4)) == SIMD3(0.25, -0.5, 2))
        // In the log styles one stop is one log exposure step (0.088 by default), and the pivot
        // is mid grey's code value, 0.435, which contrast keeps.
        p.exposure = 0
        p.contrast = 2
        #expect(ExposureContrastOp(style: .log, parameters: p).apply(SIMD3(repeating: 0.435)) == SIMD3(repeating: 0.435))
        p.exposure = 2
        p.contrast = 1
        let log = ExposureContrastOp(style: .log, parameters: p).apply(SIMD3(0.3, 0.4, 0.5))
        #expect(abs(log.x - 0.476) < 1e-12 && abs(log.z - 0.676) < 1e-12)
    }

    /// A contrast about the pivot keeps the pivot and clamps negative values to 0.
    @Test func contrastTurnsAboutThePivot() {
        var p = ExposureContrastOp.Parameters()
        p.contrast = 1.5
        p.pivot = 0.18
        let out = ExposureContrastOp(style: .linear, parameters: p).apply(SIMD3(0.18, -0.2, .nan))
        #expect(abs(out.x - 0.18) < 1e-15 && out.y == 0 && out.z == 0)
    }

    /// OpenColorIO's logRev takes 0.088 as the step of its exposure whatever the file gives;
    /// the inverse of a log style rescales its exposure so that the two still undo each other.
    @Test func logReverseUsesTheDefaultExposureStep() throws {
        var p = ExposureContrastOp.Parameters()
        p.exposure = 1
        p.contrast = 1.5
        p.logExposureStep = 0.2
        p.logMidGray = 0.5
        let out = ExposureContrastOp(style: .logRev, parameters: p).apply(SIMD3(0.5, 0.2, -0.1))
        #expect(abs(out.x - (0.5 - 0.088)) < 1e-12)
        let forward = ExposureContrastOp(style: .log, parameters: p)
        let inverse = try #require(try forward.inverse().first)
        for input in Self.inputs {
            let back = inverse.apply(forward.apply(input))
            #expect(abs(back.x - input.x) < 1e-12 && abs(back.y - input.y) < 1e-12 && abs(back.z - input.z) < 1e-12)
        }
    }

    @Test func fixedFunctionsKnownValues() throws {
        // PQ: 10000 cd/m² (100 in units of 100) is code 1, and the curve mirrors about 0.
        let pq = try FixedFunctionOp(style: .linToPQ)
        #expect(abs(pq.apply(SIMD3(100, -100, 0)).x - 1) < 1e-14)
        #expect(pq.apply(SIMD3(100, -100, 0)).y == -pq.apply(SIMD3(100, -100, 0)).x)
        // HSV: pure red is hue 0, saturation 1; a grey has no saturation.
        let hsv = try FixedFunctionOp(style: .rgbToHSV)
        #expect(hsv.apply(SIMD3(1, 0, 0)) == SIMD3(0, 1, 1))
        #expect(hsv.apply(SIMD3(0, 0, 1)) == SIMD3(4.0 / 6.0, 1, 1))
        #expect(hsv.apply(SIMD3(0.4, 0.4, 0.4)) == SIMD3(0, 0, 0.4))
        // L*u*v* of the white point is L* 1 (100 scaled by 1/100) with no chroma.
        let (u, v) = (FixedFunctionOp.whiteChromaticity.u, FixedFunctionOp.whiteChromaticity.v)
        let white = SIMD3(9 * u / (4 * v), 1, (12 - 3 * u - 20 * v) / (4 * v))
        let luv = try FixedFunctionOp(style: .xyzToLUV).apply(white)
        #expect(abs(luv.x - 1) < 1e-12 && abs(luv.y) < 1e-12 && abs(luv.z) < 1e-12)
        // Zero denominators give zeros, not infinities.
        #expect(try FixedFunctionOp(style: .xyzToxyY).apply(.zero) == .zero)
        #expect(try FixedFunctionOp(style: .uvYToXYZ).apply(SIMD3(0.2, 0, 1)) == SIMD3(0, 1, 0))
        // A surround gamma of 1 is an identity; luminance 1 keeps its colour.
        #expect(try FixedFunctionOp(style: .rec2100SurroundFwd, parameters: [1]).isIdentity)
        #expect(try FixedFunctionOp(style: .rec2100SurroundFwd, parameters: [0.8]).apply(SIMD3(1, 1, 1)) == SIMD3(1, 1, 1))
    }

    /// Every style, then its inverse, gives the input back where the formulas are defined.
    @Test func fixedFunctionsRoundTrip() throws {
        let gammaLog = Self.gammaLog.split(separator: " ").compactMap { Double($0) }
        let doubleLog = Self.doubleLog.split(separator: " ").compactMap { Double($0) }
        let positive: [SIMD3<Double>] = [SIMD3(0.1, 0.2, 0.3), SIMD3(0.25, 0.5, 0.75), SIMD3(0.9, 0.6, 0.05), SIMD3(0.7, 1.3, 0.4)]
        // The sweeteners, HSY and ACES 2.0 have round trips of their own (ACES 2.0's in
        // FixedFunctionACES2Tests).
        let aces2: [FixedFunctionOp.Style] = [.acesOutputTransform20Fwd, .acesOutputTransform20Inv, .rgbToJMh20, .jmhToRGB20,
                                              .toneScaleCompress20Fwd, .toneScaleCompress20Inv, .gamutCompress20Fwd, .gamutCompress20Inv]
        for style in FixedFunctionOp.Style.allCases where !(Self.sweetenerStyles + Self.hsyStyles + aces2).contains(style) {
            let gamutComp = Self.gamutComp.split(separator: " ").compactMap { Double($0) }
            let parameters = style.parameterCount == 1 ? [0.8] : style.parameterCount == 10 ? gammaLog
                : style.parameterCount == 13 ? doubleLog : style.parameterCount == 7 ? gamutComp : []
            let op = try FixedFunctionOp(style: style, parameters: parameters)
            let inverse = try #require(try op.inverse().first)
            for input in positive {
                // HSV and the CIE styles are checked from the side where all inputs are valid.
                let back = [.hsvToRGB, .xyYToXYZ, .uvYToXYZ, .luvToXYZ].contains(style)
                    ? op.apply(inverse.apply(input)) : inverse.apply(op.apply(input))
                let error = max(abs(back.x - input.x), abs(back.y - input.y), abs(back.z - input.z))
                if !(error < 1e-9) { Issue.record("\(style.rawValue) at \(input): back \(back)") }
            }
        }
    }

    // MARK: Files

    @Test func filesReadIntoTheOperators() throws {
        let look = try Self.read(Self.written[0].text)
        let op = try #require(look.transform.operations.first as? ExposureContrastOp)
        #expect(op.style == .linear && op.parameters.gamma == 0.5 && op.dynamic == ["EXPOSURE", "GAMMA"])
        #expect(op.description.contains("dynamic EXPOSURE, GAMMA"))
        let defaults = try #require(try Self.read(Self.written[8].text).transform.operations.first as? ExposureContrastOp)
        #expect(defaults.parameters == ExposureContrastOp.Parameters() && defaults.isIdentity)
        let deprecated = try Self.read(Self.written.first { $0.name == "deprecated.ctf" }?.text ?? "").transform.operations.compactMap { $0 as? FixedFunctionOp }
        #expect(deprecated.map(\.style) == [.rec2100SurroundFwd, .rgbToHSV, .hsvToRGB])
        #expect(deprecated.first?.parameters == [1.2])
    }

    @Test func refusalsNameTheProblem() throws {
        for (index, refusal) in Self.refusals.enumerated() {
            let error = #expect(throws: LUTFileError.self, "refusal \(index)") { try Self.read(refusal.text) }
            #expect(error?.description.contains(refusal.mentions) == true, "refusal \(index): \(String(describing: error))")
        }
    }

    // MARK: Against OpenColorIO

    @Test(.enabled(if: SpaceOracle.python != nil, "PyOpenColorIO 2.6 is not installed (see Tools/install-deps)"))
    func openColorIOReadsTheSameFiles() throws {
        let python = try #require(SpaceOracle.python)
        let folder = try TemporaryDirectory()
        for (name, text) in Self.written {
            let path = try OCIOReference.write(text, named: name, in: folder)
            let ours = try LUTReader.read(path: path).transform
            guard case .outputs(let theirs) = try OCIOReference.verdict(lut: path, inputs: Self.inputs, python: python) else {
                Issue.record("OpenColorIO refuses \(name)")
                continue
            }
            for (input, reference) in zip(Self.inputs, theirs) {
                let value = ours.apply(input)
                for channel in 0..<3 where !Self.agrees(value[channel], reference[channel]) {
                    Issue.record("\(name) at \(input): ours \(value[channel]), OpenColorIO \(reference[channel])")
                }
            }
        }
    }

    /// OpenColorIO evaluates in Float32: within 1e-4 relative, or 1e-6 near zero, of its value,
    /// and not finite where it is not.
    static func agrees(_ ours: Double, _ theirs: Double) -> Bool {
        guard theirs.isFinite else { return !ours.isFinite }
        return abs(ours - theirs) <= max(1e-4 * abs(theirs), 1e-6)
    }

    @Test(.enabled(if: SpaceOracle.python != nil, "PyOpenColorIO 2.6 is not installed (see Tools/install-deps)"))
    func openColorIORefusesTheSameFiles() throws {
        try CTFFormatTests.expectOpenColorIORefuses(Self.refusals)
    }
}
