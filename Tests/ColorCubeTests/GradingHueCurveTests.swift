import ColorCubeCore
import ColorCubeLooks
import ColorCubeTransform
import Foundation
import Testing

/// OpenColorIO's GradingHueCurve: identities and round trips checked by hand, the rules its
/// curves keep, and .ctf files (OpenColorIO's own test file among them) read as OpenColorIO 2.6
/// reads them, compared with PyOpenColorIO when it is installed.
@Suite struct GradingHueCurveTests {
    static func processList(_ body: String, version: String = "2.5") -> String {
        CTFOperatorTests.processList(body, version: version)
    }

    static func hueCurve(_ style: String, _ body: String, _ extra: String = "") -> String {
        CTFFormatTests.node("GradingHueCurve", " style=\"\(style)\"" + extra, body)
    }

    static func curve(_ name: String, _ points: [Double], slopes: [Double]? = nil) -> String {
        GradingRGBCurveTests.curve(name, points, slopes: slopes)
    }

    /// OpenColorIO's tests/data/files/grading_hue_curve.ctf, its values as written there.
    static let openColorIOFile = processList(hueCurve("log", """
        <HueHue><ControlPoints>0.05, 0.15, 0.2, 0.3, 0.35, 0.4, 0.45, 0.45, 0.6, 0.7, 0.8, 0.85</ControlPoints></HueHue>
        <HueSat><ControlPoints>-0.1, 1.2, 0.2, 0.7, 0.4, 1.5, 0.5, 0.5, 0.6, 1.4, 0.8, 0.7</ControlPoints></HueSat>
        <HueLum><ControlPoints>0.1, 1.5, 0.2, 0.7, 0.4, 1.4, 0.5, 0.8, 0.8, 0.5</ControlPoints></HueLum>
        <LumSat><ControlPoints>0.05, 1.5, 0.5, 0.9, 1.1, 1.4</ControlPoints></LumSat>
        <SatSat><ControlPoints>0., 0.1, 0.5, 0.45, 1., 1.1</ControlPoints></SatSat>
        <LumLum><ControlPoints>-0.02, -0.04, 0.2, 0.1, 0.8, 0.95, 1.1, 1.2</ControlPoints></LumLum>
        <SatLum><ControlPoints>0., 1.2, 0.6, 0.8, 0.9, 1.1</ControlPoints></SatLum>
        <HueFx><ControlPoints>0.2, 0.05, .4, -0.09, .6, -0.2, .8, 0.05, 0.99, -0.02</ControlPoints></HueFx>
        """))

    static let hueOnly = curve("HueHue", [0, 0.05, 0.2, 0.3, 0.5, 0.45, 0.8, 0.85]) + curve("HueFx", [0.1, 0.02, 0.5, -0.05, 0.9, 0.03])
    static let gains = curve("HueSat", [0, 1.1, 0.3, 0.8, 0.6, 1.3]) + curve("HueLum", [0.2, 0.9, 0.7, 1.2])
        + curve("SatLum", [0, 1, 0.5, 0.9, 1, 1.1])
    static let linearLuma = curve("LumLum", [-7, -6.5, 0, 0.3, 7, 6.8]) + curve("LumSat", [-7, 1, 0, 1.2, 7, 0.9])
        + curve("SatSat", [0, 0, 0.4, 0.5, 1, 1], slopes: [1.5, 1, 0.7])

    /// Files OpenColorIO reads, in both directions.
    static let written: [(name: String, text: String)] = {
        var files: [(String, String)] = [("grading_hue_curve.ctf", openColorIOFile),
                                         ("grading_hue_curve-rev.ctf", openColorIOFile.replacingOccurrences(of: "\"log\"", with: "\"logRev\""))]
        let bodies: [(String, String, String)] = [("video", hueOnly + gains, ""), ("linear", linearLuma + gains, ""),
                                                  ("log", hueOnly + linearLuma.replacingOccurrences(of: "-7", with: "0")
                                                      .replacingOccurrences(of: "7", with: "1"), " hsyTransform=\"none\"")]
        for (index, (style, body, extra)) in bodies.enumerated() {
            for reverse in [false, true] {
                files.append(("huecurve\(index)-\(style)\(reverse ? "-rev" : "").ctf",
                              processList(hueCurve(style + (reverse ? "Rev" : ""), body, extra))))
            }
        }
        return files
    }()

    /// Colours of every hue, grey, dark, bright and negative.
    static let inputs: [SIMD3<Double>] = {
        var colours: [SIMD3<Double>] = [SIMD3(0.18, 0.18, 0.18), SIMD3(0, 0, 0), SIMD3(1.5, 1.2, 0.9), SIMD3(-0.05, 0.1, 0.3)]
        for hue in stride(from: 0.0, to: 1, by: 1.0 / 12) {
            for (saturation, level) in [(0.3, 0.2), (0.8, 0.5), (1.0, 0.9)] {
                let angle = 2 * Double.pi * hue
                colours.append(SIMD3(level * (1 + saturation * cos(angle)), level * (1 + saturation * cos(angle - 2.1)),
                                     level * (1 + saturation * cos(angle + 2.1))))
            }
        }
        return colours
    }()

    @Test func defaultCurvesLeaveEveryValueAlone() throws {
        for style in GradingStyle.allCases {
            let op = try GradingHueCurveOp(style: style, curves: GradingHueCurveOp.Curves(style: style))
            #expect(op.isIdentity)
            for input in Self.inputs { #expect(op.apply(input) == input) }
        }
    }

    @Test func theInverseUndoesTheCurves() throws {
        let look = try CTFFormatTests.read(Self.written[2].text)
        let forward = try #require(look.transform.operations.first as? GradingHueCurveOp)
        let inverse = try #require(try forward.inverse().first)
        for input in Self.inputs where input.min() > 0.01 {
            let back = inverse.apply(forward.apply(input))
            #expect(((back - input) * (back - input)).sum().squareRoot() <= 1e-6, "at \(input): \(back)")
        }
    }

    static let refusals: [(text: String, mentions: String)] = [
        (processList(hueCurve("log", curve("HueHue", [-0.1, 0, 0.5, 0.5]))), "below 0"),
        (processList(hueCurve("log", curve("HueSat", [0, 1, 1, 1]))), "same hue"),
        (processList(hueCurve("log", curve("SatSat", [0, 0.5, 1, 0.4]))), "must not decrease"),
        (processList(hueCurve("log", Self.hueOnly), version: "2.0"), "came with version 2.5"),
        (processList(hueCurve("log", Self.hueOnly, " hsyTransform=\"HSY1\"")), "hsyTransform"),
    ]

    @Test func curvesOfTheWrongShapeAreRefused() throws {
        for (text, mentions) in Self.refusals {
            let error = #expect(throws: LUTFileError.self) { try CTFFormatTests.read(text) }
            #expect(error?.description.contains(mentions) == true, "\(error?.description ?? "")")
        }
    }

    @Test(.enabled(if: SpaceOracle.python != nil, "PyOpenColorIO 2.6 is not installed (see Tools/install-deps)"))
    func openColorIOReadsTheSameFiles() throws {
        let python = try #require(SpaceOracle.python)
        let largest = try OCIOReference.largestRelativeDifference(Self.written, inputs: Self.inputs, python: python, tolerance: 1e-5)
        print("GradingHueCurve against OpenColorIO: largest relative difference \(largest)")
    }

    @Test(.enabled(if: SpaceOracle.python != nil, "PyOpenColorIO 2.6 is not installed (see Tools/install-deps)"))
    func openColorIORefusesTheSameFiles() throws {
        try CTFFormatTests.expectOpenColorIORefuses(Self.refusals)
    }

    @Test func aFileReadsIntoOneOperatorWithItsCurves() throws {
        let look = try CTFFormatTests.read(Self.written[0].text)
        let op = try #require(look.transform.operations.first as? GradingHueCurveOp)
        #expect(op.style == .log && !op.isReverse && !op.skipsHSY && !op.isPerChannel)
        #expect(op.curves[.hueFx].points.count == 5 && op.curves[.hueFx].kind == .periodic0)
        #expect(op.description.contains("HueHue 6 points") && op.description.contains("HueFx 5 points"))
    }
}
