import ColorCubeCore
import ColorCubeLooks
import ColorCubeTransform
import Foundation
import Testing

/// OpenColorIO's GradingRGBCurve: the B-spline fit and its evaluation checked by hand (identity
/// curves, lines, curves through their control points, round trips through the inverse), the
/// rules a curve must keep, and .ctf files read as OpenColorIO 2.6 reads them (compared with
/// PyOpenColorIO when it is installed) or refused where it refuses them.
@Suite struct GradingRGBCurveTests {
    static func processList(_ body: String, version: String = "2.0") -> String {
        CTFOperatorTests.processList(body, version: version)
    }

    /// A `<GradingRGBCurve>` of `style` holding `body` (curve elements).
    static func rgbCurve(_ style: String, _ body: String, _ extra: String = "") -> String {
        CTFFormatTests.node("GradingRGBCurve", " style=\"\(style)\"" + extra, body)
    }

    /// A curve element `name` with the x y pairs `points` and optional `slopes`.
    static func curve(_ name: String, _ points: [Double], slopes: [Double]? = nil) -> String {
        let text = { (values: [Double]) in values.map { "\($0)" }.joined(separator: " ") }
        return "<\(name)><ControlPoints>\(text(points))</ControlPoints>"
            + (slopes.map { "<Slopes>\(text($0))</Slopes>" } ?? "") + "</\(name)>"
    }

    // Curves with some character: bends, a curve below 0 and past 1, given slopes, a flat part,
    // slopes steep enough that OpenColorIO refits them, and many points.
    static let bend = curve("Red", [0, 0, 0.3, 0.5, 1, 1])
    static let sCurve = curve("Green", [0, 0.1, 0.5, 0.4, 0.8, 0.9, 1, 1])
    static let sloped = curve("Master", [-0.2, 0, 0.5, 0.6, 1.2, 1.1], slopes: [0.5, 1.5, 0.7])
    static let flat = curve("Blue", [0, 0.2, 0.3, 0.2, 0.6, 0.7, 1, 0.7])
    static let steep = curve("Red", [0, 0, 0.5, 0.5, 1, 1], slopes: [5, 0.1, 5])
    static let many = curve("Master", [0, 0, 0.1, 0.05, 0.2, 0.15, 0.3, 0.3, 0.4, 0.42, 0.5, 0.5, 0.6, 0.62, 0.7, 0.75,
                                       0.8, 0.85, 0.9, 0.92, 1, 1])
    static let line = curve("Master", [0, 0.05, 1, 0.95])
    static let logRed = curve("Red", [-7, -6, 0, 0.5, 7, 6.5])
    static let logMaster = curve("Master", [-5, -5.5, -1, -1, 2, 2.5, 6, 6])

    /// Files OpenColorIO reads, each style in both directions; `wrapped` holds the linear style
    /// with its lin-to-log wrapping, the others the rest.
    static let written: (plain: [(name: String, text: String)], wrapped: [(name: String, text: String)]) = {
        var files: (plain: [(name: String, text: String)], wrapped: [(name: String, text: String)]) = ([], [])
        let bodies: [(String, String, String)] = [
            ("log", bend + sCurve + sloped, "<DynamicParameter param=\"RGB_CURVE\"/>"),
            ("video", curve("Blue", [0, 0, 0.2, 0.05, 0.5, 0.5, 0.8, 0.95, 1, 1]) + line, ""),
            ("log", flat + steep, ""),
            ("video", many + sCurve, ""),
            ("linear", logRed + logMaster, ""),
            ("linear", bend + sloped, " bypassLinToLog=\"true\""),
        ]
        for (index, (style, body, extra)) in bodies.enumerated() {
            let isAttribute = extra.hasPrefix(" ")
            for reverse in [false, true] {
                let name = "rgbcurve\(index)-\(style)\(reverse ? "-rev" : "").ctf"
                let node = rgbCurve(style + (reverse ? "Rev" : ""), body + (isAttribute ? "" : extra), isAttribute ? extra : "")
                if style == "linear", extra.isEmpty {
                    files.wrapped.append((name, processList(node)))
                } else {
                    files.plain.append((name, processList(node)))
                }
            }
        }
        return files
    }()

    /// Every channel takes each of `values`: -1 to 10, densely over 0...1.
    static let values: [Double] = [-1, -0.3, -0.05, 0, 0.002, 0.01, 0.05, 0.1, 0.18, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.75,
                                   0.8, 0.9, 0.95, 1, 1.1, 1.3, 2, 4, 10]
    static let inputs: [SIMD3<Double>] = values.indices.map { i in
        SIMD3(values[i], values[(i + 7) % values.count], values[(i + 16) % values.count])
    }

    static func read(_ text: String) throws -> Look {
        try CTFFormatTests.read(text)
    }

    static func op(_ style: GradingStyle = .log, red: GradingCurve? = nil, master: GradingCurve? = nil,
                   reverse: Bool = false) throws -> GradingRGBCurveOp {
        var curves = GradingRGBCurveOp.Curves(style: style)
        if let red { curves.red = red }
        if let master { curves.master = master }
        return try GradingRGBCurveOp(style: style, curves: curves, isReverse: reverse)
    }

    // MARK: Exact values

    @Test func defaultCurvesLeaveEveryValueAlone() throws {
        for style in GradingStyle.allCases {
            for reverse in [false, true] {
                let op = try Self.op(style, reverse: reverse)
                #expect(op.isIdentity)
                for input in Self.inputs + [SIMD3(-.infinity, .infinity, 1e30)] {
                    #expect(op.apply(input) == input, "\(style) at \(input)")
                }
                #expect(op.apply(SIMD3(.nan, 0, 0)).x.isNaN)
            }
        }
    }

    @Test func twoPointsMakeAStraightLineAndItsExtension() throws {
        let op = try Self.op(master: GradingCurve([(0, 0.1), (1, 0.6)]))
        let spline = GradingBSpline(fitting: GradingCurve([(0, 0.1), (1, 0.6)]))
        #expect(spline.a == [0] && spline.b == [0.5] && spline.c == [Float(0.1)])
        // Up to the last point exactly; beyond it the end value is OpenColorIO's Float32 sum.
        for x in [-2.0, -0.5, 0, 0.25, 0.5, 1, 3] {
            let expected = 0.5 * x + Double(Float(0.1))
            let tolerance = x < 1 ? 1e-15 : 1e-7
            #expect(abs(op.apply(SIMD3(x, x, x)).x - expected) <= tolerance, "at \(x)")
            #expect(abs(spline.inverseValue(at: expected) - x) <= 2 * tolerance, "inverse at \(expected)")
        }
    }

    @Test func aCurvePassesThroughItsControlPoints() throws {
        let curves = [GradingCurve([(0, 0), (0.3, 0.5), (1, 1)]),
                      GradingCurve([(0, 0.1), (0.5, 0.4), (0.8, 0.9), (1, 1)]),
                      GradingCurve([(-0.2, 0), (0.5, 0.6), (1.2, 1.1)], slopes: [0.5, 1.5, 0.7]),
                      GradingCurve([(0, 0.2), (0.3, 0.2), (0.6, 0.7), (1, 0.7)])]
        for curve in curves {
            let spline = GradingBSpline(fitting: curve)
            for point in curve.points {
                // The fit runs in Float32: the point is met to its rounding.
                #expect(abs(spline.value(at: Double(point.x)) - Double(point.y)) <= 2e-6, "\(curve.points) at \(point)")
            }
        }
    }

    @Test func theInverseUndoesTheCurve() throws {
        let curve = GradingCurve([(0, 0.1), (0.5, 0.4), (0.8, 0.9), (1, 1)])
        for style in GradingStyle.allCases {
            let forward = try Self.op(style, red: curve, master: GradingCurve([(-0.2, 0), (0.5, 0.6), (1.2, 1.1)]))
            let inverse = try #require(try forward.inverse().first)
            for input in Self.inputs {
                let back = inverse.apply(forward.apply(input))
                for channel in 0..<3 {
                    #expect(abs(back[channel] - input[channel]) <= 1e-9 * max(1, abs(input[channel])), "\(style) at \(input)")
                }
            }
        }
    }

    @Test func theLinearStylesEncodingPutsGreyAtZero() {
        #expect(abs(GradingStyle.linToLog(0.18)) < 1e-7)
        #expect(abs(GradingStyle.linToLog(0) + 7) < 1e-12)
        for x in [-1.0, 0, 0.001, 0.0041318374739483946, 0.18, 1, 100] {
            #expect(abs(GradingStyle.logToLin(GradingStyle.linToLog(x)) - x) <= 1e-6 * max(1, abs(x)), "at \(x)")
        }
    }

    @Test func nonFiniteValuesNeverTrap() throws {
        let forward = try Self.op(.linear, red: GradingCurve([(-7, -6), (0, 0.5), (7, 6.5)]),
                                  master: GradingCurve([(-5, -5.5), (-1, -1), (2, 2.5), (6, 6)]))
        let inverse = try #require(try forward.inverse().first)
        for op in [forward, inverse] {
            let out = op.apply(SIMD3(.nan, .infinity, -.infinity))
            #expect(out.x.isNaN && out.y == .infinity)
        }
    }

    // MARK: What a curve must keep

    static let invalidCurves: [(GradingCurve, mentions: String)] = [
        (GradingCurve([(0, 0)]), "at least 2"),
        (GradingCurve([(0, 0), (0.6, 0.5), (0.5, 1)]), "increasing x"),
        (GradingCurve([(0, 0), (0.5, 0.6), (1, 0.5)]), "must not decrease"),
        (GradingCurve([(0, 0), (1, 1)], slopes: [1, 1, 1]), "one slope per point"),
    ]

    @Test func curvesOpenColorIORefusesAreRefused() throws {
        for (curve, mentions) in Self.invalidCurves {
            let error = #expect(throws: TransformError.self) { try Self.op(red: curve) }
            #expect(error?.description.contains(mentions) == true && error?.description.contains("red") == true,
                    "\(error?.description ?? "")")
        }
        // 31 points fit to up to 61 knots: two such curves pass OpenColorIO's 120.
        let points = (0...30).map { (Float($0) / 30, Float($0) / 30 + 0.1 * sin(Float($0))) }.sorted { $0.0 < $1.0 }
        var monotonic = points
        for i in 1..<monotonic.count { monotonic[i].1 = max(monotonic[i].1, monotonic[i - 1].1 + 0.001) }
        let crowded = GradingCurve(monotonic)
        var curves = GradingRGBCurveOp.Curves(style: .log)
        curves.red = crowded
        curves.green = crowded
        curves.blue = crowded
        let error = #expect(throws: TransformError.self) { try GradingRGBCurveOp(style: .log, curves: curves) }
        #expect(error?.description.contains("120") == true, "\(error?.description ?? "")")
        // Thousands of points are refused before any fit.
        curves.red = GradingCurve((0..<5000).map { (Float($0), Float($0) * 0.5) })
        let many = #expect(throws: TransformError.self) { try GradingRGBCurveOp(style: .log, curves: curves) }
        #expect(many?.description.contains("control points") == true, "\(many?.description ?? "")")
    }

    // MARK: Files

    static let refusals: [(text: String, mentions: String)] = [
        (processList(rgbCurve("log", bend), version: "1.7"), "came with version 2.0"),
        (CTFFormatTests.processList(rgbCurve("log", bend), root: "compCLFversion=\"3.0\""), "read as a CLF"),
        (processList(CTFFormatTests.node("GradingRGBCurve", "", bend)), "style is missing"),
        (processList(rgbCurve("logarithmic", bend)), "is not one of log"),
        (processList(rgbCurve("linear", bend, " bypassLinToLog=\"false\"")), "bypassLinToLog"),
        (processList(rgbCurve("log", "<Red><ControlPoints>0 0 0.5 0.5 1</ControlPoints></Red>")), "odd number"),
        (processList(rgbCurve("log", curve("Green", [0, 0, 1, 1], slopes: [1, 1, 1]))), "one slope per point"),
        (processList(rgbCurve("log", "<Blue><Slopes>1 1</Slopes><ControlPoints>0 0 1 1</ControlPoints></Blue>")), "one slope per point"),
        (processList(rgbCurve("log", curve("Master", [0, 0, 0.6, 0.5, 0.5, 1]))), "increasing x"),
        (processList(rgbCurve("video", curve("Red", [0, 0, 0.5, 0.6, 1, 0.5]))), "must not decrease"),
        (processList(rgbCurve("log", curve("Red", [0.5, 0.5]))), "at least 2"),
        (processList(rgbCurve("log", bend + "<DynamicParameter param=\"EXPOSURE\"/>")), "EXPOSURE"),
    ]

    @Test func filesOpenColorIORefusesAreRefusedWithAReason() throws {
        for (text, mentions) in Self.refusals {
            let error = #expect(throws: LUTFileError.self, "\(mentions)") { try Self.read(text) }
            let message = error?.description ?? ""
            #expect(message.contains(mentions) && message.contains("GradingRGBCurve") || message.contains(mentions)
                    && (message.contains("ControlPoints") || message.contains("Slopes") || message.contains("DynamicParameter")),
                    "\(message)")
        }
    }

    @Test func aFileReadsIntoOneOperatorWithItsCurves() throws {
        let look = try Self.read(Self.processList(Self.rgbCurve("videoRev", Self.bend + Self.sloped)))
        let op = try #require(look.transform.operations.first as? GradingRGBCurveOp)
        #expect(op.style == .video && op.isReverse && !op.isDynamic)
        #expect(op.curves.red.points == [GradingCurve.Point(0, 0), GradingCurve.Point(0.3, 0.5), GradingCurve.Point(1, 1)])
        #expect(op.curves.master.slopes == [0.5, 1.5, 0.7])
        #expect(op.curves.green == GradingStyle.video.defaultCurve)
        #expect(op.description.contains("red 3 points") && op.description.contains("master 3 points with slopes"))
    }

    // MARK: Against OpenColorIO

    @Test(.enabled(if: SpaceOracle.python != nil, "PyOpenColorIO 2.6 is not installed (see Tools/install-deps)"))
    func openColorIOReadsTheSameFiles() throws {
        let python = try #require(SpaceOracle.python)
        let plain = try OCIOReference.largestRelativeDifference(Self.written.plain, inputs: Self.inputs, python: python,
                                                                tolerance: 1e-5)
        // OpenColorIO wraps the linear style with its SSE log2 and exp2, good to about 15 bits:
        // it lies within 1e-4 of the exact values colorcube computes.
        let wrapped = try OCIOReference.largestRelativeDifference(Self.written.wrapped, inputs: Self.inputs, python: python,
                                                                  tolerance: 1e-4)
        print("GradingRGBCurve against OpenColorIO: largest relative difference \(plain), \(wrapped) with lin-to-log")
    }

    @Test(.enabled(if: SpaceOracle.python != nil, "PyOpenColorIO 2.6 is not installed (see Tools/install-deps)"))
    func openColorIORefusesTheSameFiles() throws {
        try CTFFormatTests.expectOpenColorIORefuses(Self.refusals)
    }
}
