import ColorCubeCore
import ColorCubeLooks
import ColorCubeTransform
import Foundation
import Testing

/// OpenColorIO's GradingPrimary: values worked out by hand for each style, round trips through
/// the inverse, and CTF files read as OpenColorIO 2.6 reads them (compared with PyOpenColorIO
/// on a grid when it is installed) or refused where it refuses them.
@Suite struct GradingPrimaryTests {
    typealias RGBM = GradingPrimaryOp.RGBM

    static func gp(_ style: String, _ body: String) -> String {
        CTFFormatTests.node("GradingPrimary", " style=\"\(style)\"", body)
    }

    static func file(_ body: String, version: String = "2.0") -> String {
        CTFOperatorTests.processList(body, version: version)
    }

    static let logControls = "<Brightness rgb=\"1 -2 3\" master=\"4\"/><Contrast rgb=\"1.1 0.9 1.2\" master=\"1.05\"/>"
        + "<Gamma rgb=\"1.1 0.9 1\" master=\"1.2\"/><Pivot contrast=\"0.1\" black=\"0.05\" white=\"0.9\"/>"
    static let linearControls = "<Offset rgb=\"0.01 0.02 -0.01\" master=\"0.005\"/><Exposure rgb=\"0.1 -0.2 0.3\" master=\"0.5\"/>"
        + "<Contrast rgb=\"1.1 1.2 0.9\" master=\"1.05\"/><Pivot contrast=\"0.5\"/>"
    static let videoControls = "<Lift rgb=\"0.01 0 0.02\" master=\"-0.01\"/><Gamma rgb=\"1.1 0.9 1\" master=\"1.2\"/>"
        + "<Gain rgb=\"1.1 1 0.9\" master=\"1.2\"/><Offset rgb=\"0.01 0.02 -0.01\" master=\"0.005\"/><Pivot black=\"0.05\" white=\"0.9\"/>"

    /// Files OpenColorIO reads: every style in both directions, with and without saturation and clamps.
    static let written: [(name: String, text: String)] = [
        ("log.ctf", file(gp("log", logControls + "<Saturation master=\"1.2\"/><Clamp black=\"-0.5\" white=\"2\"/>"))),
        ("log-rev.ctf", file(gp("logRev", logControls + "<Saturation master=\"1.2\"/><Clamp black=\"-0.5\" white=\"2\"/>"))),
        ("log-plain.ctf", file(gp("LOG", logControls))),
        ("log-plain-rev.ctf", file(gp("logrev", logControls + "<Saturation master=\"0.7\"/>"))),
        ("linear.ctf", file(gp("linear", linearControls + "<Saturation master=\"0.8\"/><Clamp black=\"-0.2\"/>"))),
        ("linear-rev.ctf", file(gp("linearRev", linearControls + "<Saturation master=\"0.8\"/><Clamp black=\"-0.2\"/>"))),
        ("linear-plain.ctf", file(gp("linear", linearControls))),
        ("linear-plain-rev.ctf", file(gp("linearRev", linearControls))),
        ("video.ctf", file(gp("video", videoControls + "<Saturation master=\"1.3\"/><Clamp white=\"1.5\"/>"))),
        ("video-rev.ctf", file(gp("videoRev", videoControls + "<Saturation master=\"1.3\"/><Clamp white=\"1.5\"/>"))),
        ("video-plain.ctf", file(gp("video", videoControls))),
        ("video-plain-rev.ctf", file(gp("videoRev", videoControls))),
        // Every control given: the video style ignores brightness, exposure and the contrast pivot.
        ("video-all.ctf", file(gp("video", logControls + videoControls + "<Exposure rgb=\"1 1 1\" master=\"1\"/>"
                                  + "<DynamicParameter param=\"PRIMARY\"/>"))),
        // Degenerate values OpenColorIO replaces: a log contrast of 0 (its reverse takes it as 1),
        // a video gain of 0 (taken as 1), a saturation of 0 (the reverse skips it). A file holding
        // a grade and its reverse with the same values is left out: OpenColorIO's optimiser
        // drops the pair, which colorcube applies as written.
        ("log-flat.ctf", file(gp("log", "<Contrast rgb=\"1 0 1\" master=\"1\"/>"))),
        ("log-flat-rev.ctf", file(gp("logRev", "<Contrast rgb=\"1 0 1\" master=\"1\"/>"))),
        ("video-no-gain.ctf", file(gp("video", "<Gain rgb=\"1 0 2\" master=\"1\"/>") + gp("videoRev", "<Gain rgb=\"0 1 1\" master=\"1\"/>"))),
        ("grey.ctf", file(gp("linear", "<Saturation master=\"0\"/>"))),
        ("grey-rev.ctf", file(gp("linearRev", "<Saturation master=\"0\"/>"))),
        ("clamp-only.ctf", file(gp("video", "<Clamp black=\"0\" white=\"1\"/>"), version: "2.1")),
        ("defaults.ctf", file(gp("logRev", ""))),
    ]

    /// Files OpenColorIO refuses too, with what colorcube's message mentions.
    static let refusals: [(text: String, mentions: String)] = [
        (file(CTFFormatTests.node("GradingPrimary", "", "")), "style is missing"),
        (file(gp("logFwd", "")), "is not one of log, logRev"),
        (file(gp("log", ""), version: "1.7"), "came with version 2.0"),
        (CTFFormatTests.processList(gp("log", ""), root: "compCLFversion=\"3.0\""), "read as a CLF"),
        (file(gp("log", "<Brightness rgb=\"1 2\" master=\"0\"/>")), "rgb holds 2 numbers"),
        (file(gp("log", "<Brightness rgb=\"1 2 3 4\" master=\"0\"/>")), "rgb holds 4 numbers"),
        (file(gp("log", "<Contrast rgb=\"1 1 1\"/>")), "needs both rgb"),
        (file(gp("log", "<Gamma master=\"1\"/>")), "needs both rgb"),
        (file(gp("log", "<Gain rgb=\"1 1 1\" master=\"1 2\"/>")), "master holds 2 numbers"),
        (file(gp("log", "<Lift rgb=\"1 1 1\" master=\"1\" red=\"2\"/>")), "attribute red is not one of rgb, master"),
        (file(gp("log", "<Offset rgb=\"1 x 1\" master=\"1\"/>")), "rgb"),
        (file(gp("log", "<Pivot/>")), "gives none of contrast, black, white"),
        (file(gp("log", "<Pivot contrast=\"0\" gray=\"1\"/>")), "attribute gray is not one of"),
        (file(gp("log", "<Saturation/>")), "gives none of master"),
        (file(gp("log", "<Saturation rgb=\"1 1 1\" master=\"1\"/>")), "attribute rgb is not one of master"),
        (file(gp("log", "<Clamp/>")), "gives none of black, white"),
        (file(gp("log", "<Clamp black=\"1\" white=\"0\"/>")), "black clamp 1 is above its white clamp 0"),
        (file(gp("log", "<Gamma rgb=\"1 0.005 1\" master=\"1\"/>")), "gamma 0.005 is below 0.01"),
        (file(gp("videoRev", "<Gamma rgb=\"1 1 1\" master=\"-1\"/>")), "gamma -1 is below 0.01"),
        (file(gp("linear", "<Contrast rgb=\"1 1 1\" master=\"0\"/>")), "contrast 0 is below 0.01"),
        (file(gp("video", "<Pivot black=\"0.5\" white=\"0.5\"/>")), "black pivot 0.5 is not below its white pivot 0.5"),
        (file(gp("linear", "<Pivot black=\"1\" white=\"0\"/>")), "is not below its white pivot"),
        (file(gp("log", "<DynamicParameter param=\"EXPOSURE\"/>")), "belongs to <ExposureContrast>"),
        (file(gp("log", "<DynamicParameter param=\"SHARPNESS\"/>")), "not one OpenColorIO knows"),
    ]

    /// A grid of 11^3 colours from -0.5 to 3, around the pivots and beyond 1.
    static let grid: [SIMD3<Double>] = {
        let steps = [-0.5, -0.1, 0, 0.02, 0.1, 0.18, 0.4, 0.5, 0.9, 1.25, 3]
        return steps.flatMap { r in steps.flatMap { g in steps.map { b in SIMD3(r, g, b) } } }
    }()

    static func read(_ text: String) throws -> Look {
        try CTFFormatTests.read(text)
    }

    static func op(_ style: GradingPrimaryOp.Style, reverse: Bool = false,
                   _ change: (inout GradingPrimaryOp.Parameters) -> Void) throws -> GradingPrimaryOp {
        var p = GradingPrimaryOp.Parameters(style: style)
        change(&p)
        return try GradingPrimaryOp(style: style, isReverse: reverse, parameters: p)
    }

    static func near(_ a: SIMD3<Double>, _ b: SIMD3<Double>, _ tolerance: Double = 1e-12) -> Bool {
        (0..<3).allSatisfy { abs(a[$0] - b[$0]) <= tolerance }
    }

    // MARK: Exact values

    @Test func logBrightnessAndContrast() throws {
        // 16.368 * 6.25 / 1023 = 0.1 in log.
        let bright = try Self.op(.log) { $0.brightness = RGBM(0, 16.368, -16.368, master: 0) }
        #expect(Self.near(bright.apply(SIMD3(0.3, 0.3, 0.3)), SIMD3(0.3, 0.4, 0.2)))
        // Pivot 0 is log 0.5: contrast 2 doubles the distance from it.
        let contrast = try Self.op(.log) { $0.contrast = RGBM(1, 2, 1, master: 2); $0.pivot = 0 }
        #expect(Self.near(contrast.apply(SIMD3(0.3, 0.6, 0.5)), SIMD3(0.1, 0.9, 0.5)))
        // Gamma 2 takes the square root between the pivots 0 and 1, mirrored below black.
        let gamma = try Self.op(.log) { $0.gamma = RGBM(all: 1); $0.gamma.master = 2 }
        #expect(Self.near(gamma.apply(SIMD3(0.25, -0.25, 4)), SIMD3(0.5, -0.5, 2)))
    }

    @Test func linearExposureAndContrast() throws {
        let exposure = try Self.op(.linear) { $0.offset.master = 0.1; $0.exposure = RGBM(0, 1, -1, master: 1) }
        #expect(Self.near(exposure.apply(SIMD3(0.2, 0.2, -0.3)), SIMD3(0.6, 1.2, -0.2)))
        // A contrast of 2 about 0.18 (pivot 0 stops): 0.36 is twice the pivot, so 4 times it out.
        let contrast = try Self.op(.linear) { $0.contrast.master = 2; $0.pivot = 0 }
        #expect(Self.near(contrast.apply(SIMD3(0.36, -0.36, 0.18)), SIMD3(0.72, -0.72, 0.18)))
        #expect(contrast.isPerChannel && !contrast.isIdentity)
    }

    @Test func videoLiftAndGain() throws {
        let gain = try Self.op(.video) { $0.gain.master = 2 }
        #expect(Self.near(gain.apply(SIMD3(0.25, 0, 0.5)), SIMD3(0.5, 0, 1)))
        // Lift 0.1 is added, then the slope about black 1 / 1.1 brings white back to 1: black
        // comes out at 0.1 / 1.1, not 0.1.
        let lift = try Self.op(.video) { $0.lift.master = 0.1 }
        #expect(Self.near(lift.apply(SIMD3(0, 1, 0.5)), SIMD3(0.1 / 1.1, 1, 0.6 / 1.1)))
    }

    @Test func saturationMixesWithLumaAndClampsCatchNaN() throws {
        let grey = try Self.op(.linear) { $0.saturation = 0 }
        let luma = 0.2126 * 0.5 + 0.7152 * 0.2 + 0.0722 * 0.1
        #expect(Self.near(grey.apply(SIMD3(0.5, 0.2, 0.1)), SIMD3(repeating: luma)))
        #expect(!grey.isPerChannel)
        let clamped = try Self.op(.video) { $0.clampBlack = -0.25; $0.clampWhite = 1 }
        let out = clamped.apply(SIMD3(.nan, 2, -1))
        #expect(out == SIMD3(-0.25, 1, -0.25))
        // Without a clamp, NaN meets Float32's negative infinity; an identity passes it through.
        let bright = try Self.op(.log) { $0.brightness.master = 1 }
        #expect(bright.apply(SIMD3(.nan, 0, 0)).x == -.infinity)
        let identity = try Self.op(.log) { $0.pivot = 0.3 }
        #expect(identity.isIdentity && identity.apply(SIMD3(.nan, 0, 0)).x.isNaN)
        // A power takes NaN to 0, and the gamma step then to the black pivot.
        let gamma = try Self.op(.video) { $0.gamma.master = 1.5; $0.pivotBlack = 0.1 }
        #expect(gamma.apply(SIMD3(.nan, 0.1, 0.1)) == SIMD3(0.1, 0.1, 0.1))
    }

    @Test func inverseUndoesEveryStyle() throws {
        let inputs: [SIMD3<Double>] = [SIMD3(0.1, 0.5, 0.9), SIMD3(-0.2, 0.3, 1.4), SIMD3(0.18, 0.18, 0.18)]
        for style in GradingPrimaryOp.Style.allCases {
            for reverse in [false, true] {
                let op = try Self.op(style, reverse: reverse) { p in
                    p.brightness = RGBM(1, -2, 3, master: 4)
                    p.contrast = RGBM(1.1, 0.9, 1.2, master: 1.05)
                    p.gamma = RGBM(1.1, 0.9, 1, master: 1.2)
                    p.offset = RGBM(0.01, 0.02, -0.01, master: 0.005)
                    p.exposure = RGBM(0.1, -0.2, 0.3, master: 0.5)
                    p.lift = RGBM(0.01, 0, 0.02, master: -0.01)
                    p.gain = RGBM(1.1, 1, 0.9, master: 1.2)
                    p.saturation = 1.2
                    p.pivot = 0.1
                    p.pivotBlack = 0.05
                    p.pivotWhite = 0.9
                }
                let inverse = try #require(try op.inverse().first as? GradingPrimaryOp)
                #expect(inverse.isReverse == !reverse && inverse.style == style)
                for input in inputs {
                    let back = inverse.apply(op.apply(input))
                    #expect(Self.near(back, input, 1e-9), "\(style) reverse \(reverse) at \(input): \(back)")
                }
            }
        }
    }

    @Test func inverseRefusesWhatFlattens() throws {
        for op in [try Self.op(.linear) { $0.saturation = 0 }, try Self.op(.log) { $0.contrast.green = 0 },
                   try Self.op(.video, reverse: true) { $0.lift.master = -1 }] {
            #expect(throws: TransformError.self, "\(op)") { try op.inverse() }
        }
    }

    @Test func valuesOpenColorIORefusesAreRefused() {
        let cases: [(GradingPrimaryOp.Style, (inout GradingPrimaryOp.Parameters) -> Void)] = [
            (.log, { $0.gamma.red = 0 }), (.video, { $0.gamma.master = 0.009 }), (.linear, { $0.contrast.blue = -1 }),
            (.log, { $0.pivotWhite = 0 }), (.linear, { $0.clampBlack = 2; $0.clampWhite = 1 }), (.video, { $0.offset.red = .nan }),
        ]
        for (style, change) in cases {
            #expect(throws: TransformError.self) { try Self.op(style, change) }
        }
        // A linear grade ignores gamma, and the others the contrast floor.
        #expect(throws: Never.self) { try Self.op(.linear) { $0.gamma.red = 0 } }
        #expect(throws: Never.self) { try Self.op(.log) { $0.contrast.red = 0 } }
    }

    // MARK: Files

    @Test func filesReadIntoTheOperator() throws {
        let look = try Self.read(Self.written[0].text)
        let op = try #require(look.transform.operations.first as? GradingPrimaryOp)
        #expect(op.style == .log && !op.isReverse && !op.dynamic)
        #expect(op.parameters.brightness == RGBM(1, -2, 3, master: 4) && op.parameters.pivotWhite == 0.9)
        #expect(op.parameters.clampBlack == -0.5 && op.parameters.saturation == 1.2)
        let all = try #require(try Self.read(Self.written.first { $0.name == "video-all.ctf" }?.text ?? "").transform.operations.first
            as? GradingPrimaryOp)
        #expect(all.style == .video && all.dynamic && all.parameters.exposure == RGBM(all: 1))
        #expect(all.description.contains("dynamic"))
        let defaults = try #require(try Self.read(Self.written.last?.text ?? "").transform.operations.first as? GradingPrimaryOp)
        #expect(defaults.isReverse && defaults.isIdentity && defaults.parameters == GradingPrimaryOp.Parameters(style: .log))
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
        var largest = (relative: 0.0, absolute: 0.0, name: "")
        for (name, text) in Self.written {
            let path = try OCIOReference.write(text, named: name, in: folder)
            let ours = try LUTReader.read(path: path).transform
            guard case .outputs(let theirs) = try OCIOReference.verdict(lut: path, inputs: Self.grid, python: python) else {
                Issue.record("OpenColorIO refuses \(name)")
                continue
            }
            for (input, reference) in zip(Self.grid, theirs) {
                let value = ours.apply(input)
                for channel in 0..<3 {
                    let difference = abs(value[channel] - reference[channel])
                    largest.absolute = max(largest.absolute, difference)
                    if difference / max(abs(reference[channel]), 1) > largest.relative {
                        largest = (difference / max(abs(reference[channel]), 1), largest.absolute, name)
                    }
                    if !Self.agrees(value[channel], reference[channel]) {
                        Issue.record("\(name) at \(input): ours \(value[channel]), OpenColorIO \(reference[channel])")
                    }
                }
            }
        }
        print("GradingPrimary against OpenColorIO, \(Self.written.count) files on \(Self.grid.count) colours: largest difference "
              + "\(largest.absolute), largest relative to max(1, |value|) \(largest.relative) (\(largest.name))")
    }

    /// OpenColorIO evaluates in Float32, and its SSE power is within about 2e-5 relative of the
    /// exact one: within 3e-5 of its value, relative to the value's magnitude or 1, whichever is
    /// larger. (Where no power is taken the two agree to Float32's rounding.)
    static func agrees(_ ours: Double, _ theirs: Double) -> Bool {
        guard theirs.isFinite else { return !ours.isFinite }
        return abs(ours - theirs) <= 3e-5 * max(abs(theirs), 1)
    }

    @Test(.enabled(if: SpaceOracle.python != nil, "PyOpenColorIO 2.6 is not installed (see Tools/install-deps)"))
    func openColorIORefusesTheSameFiles() throws {
        try CTFFormatTests.expectOpenColorIORefuses(Self.refusals)
    }
}
