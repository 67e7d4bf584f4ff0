import ColorCubeCore
import ColorCubeLooks
import ColorCubeTransform
import Foundation
import Testing

/// OpenColorIO's GradingTone: values worked out by hand, round trips through the inverse, and
/// CTF files read as OpenColorIO 2.6 reads them (compared with PyOpenColorIO on a grid when it
/// is installed) or refused where it refuses them.
@Suite struct GradingToneTests {
    typealias RGBMSW = GradingToneOp.RGBMSW

    static func gt(_ style: String, _ body: String) -> String {
        CTFFormatTests.node("GradingTone", " style=\"\(style)\"", body)
    }

    static func file(_ body: String, version: String = "2.0") -> String {
        CTFOperatorTests.processList(body, version: version)
    }

    /// Every control below 1 (or above), placed where each style places it by default.
    static func controls(_ style: GradingStyle, raise: Bool, sContrast: Double) -> String {
        let d = GradingToneOp.Parameters(style: style)
        let values = raise ? ["1.1 0.9 1.2\" master=\"1.05", "0.8 1.1 1.3\" master=\"0.9", "1.2 0.9 1.1\" master=\"1.3",
                              "1.2 0.7 1.05\" master=\"1.1", "0.8 1.3 1.1\" master=\"0.9"]
            : ["0.8 1.3 1\" master=\"0.9", "1.3 0.7 1\" master=\"1.2", "0.7 1.4 1\" master=\"0.8",
               "0.8 1.3 1\" master=\"0.7", "1.2 0.8 1\" master=\"1.3"]
        return "<Blacks rgb=\"\(values[0])\" start=\"\(d.blacks.start)\" width=\"\(d.blacks.width)\"/>"
            + "<Shadows rgb=\"\(values[1])\" start=\"\(d.shadows.start)\" pivot=\"\(d.shadows.width)\"/>"
            + "<Midtones rgb=\"\(values[2])\" center=\"\(d.midtones.start)\" width=\"\(d.midtones.width)\"/>"
            + "<Highlights rgb=\"\(values[3])\" start=\"\(d.highlights.start)\" pivot=\"\(d.highlights.width)\"/>"
            + "<Whites rgb=\"\(values[4])\" start=\"\(d.whites.start)\" width=\"\(d.whites.width)\"/>"
            + "<SContrast master=\"\(sContrast)\"/>"
    }

    /// Files OpenColorIO reads: every style in both directions, controls above and below 1.
    static let written: [(name: String, text: String)] = {
        var files: [(String, String)] = []
        for style in GradingStyle.allCases {
            for (raise, sContrast) in [(true, 1.3), (false, 0.4), (false, 1.6)] {
                for reverse in [false, true] {
                    let name = style.rawValue + (reverse ? "Rev" : "")
                    files.append(("\(name)-\(raise)-\(sContrast).ctf", file(gt(name, controls(style, raise: raise, sContrast: sContrast)))))
                }
            }
        }
        files.append(("moved.ctf", file(gt("log", "<Shadows rgb=\"1 1 1\" master=\"0.6\" start=\"0.45\" pivot=\"0.1\"/>"
                                           + "<Highlights rgb=\"1 1 1\" master=\"1.4\" start=\"0.2\" pivot=\"0.9\"/>"
                                           + "<Midtones rgb=\"1 1 1\" master=\"1.5\" center=\"0.9\" width=\"0.2\"/>"
                                           + "<DynamicParameter param=\"TONE\"/>"))))
        files.append(("defaults.ctf", file(gt("linearRev", ""))))
        return files
    }()

    /// Files OpenColorIO refuses too, with what colorcube's message mentions.
    static let refusals: [(text: String, mentions: String)] = [
        (file(CTFFormatTests.node("GradingTone", "", "")), "style is missing"),
        (file(gt("lin", "")), "is not one of log"),
        (file(gt("log", ""), version: "1.7"), "came with version 2.0"),
        (file(gt("log", "<Blacks rgb=\"1 1 1\" master=\"1\" start=\"0.4\"/>")), "needs all of rgb, master, start, width"),
        (file(gt("log", "<Midtones rgb=\"1 1 1\" master=\"1\" start=\"0.4\" width=\"0.5\"/>")), "attribute start is not one of"),
        (file(gt("log", "<Shadows rgb=\"1 1\" master=\"1\" start=\"0.4\" pivot=\"0\"/>")), "rgb holds 2 numbers"),
        (file(gt("log", "<SContrast/>")), "gives none of master"),
        (file(gt("log", "<SContrast master=\"2.5\"/>")), "s-contrast 2.5 is outside"),
        (file(gt("log", "<Blacks rgb=\"1 0.05 1\" master=\"1\" start=\"0.4\" width=\"0.4\"/>")), "blacks value 0.05 is outside"),
        (file(gt("video", "<Highlights rgb=\"1 1 1\" master=\"1.9\" start=\"0.2\" pivot=\"1\"/>")), "highlights value 1.9"),
        (file(gt("log", "<Whites rgb=\"1 1 1\" master=\"1\" start=\"0.4\" width=\"0\"/>")), "whites width 0 is below 0.01"),
        (file(gt("log", "<Shadows rgb=\"1 1 1\" master=\"1\" start=\"0.1\" pivot=\"0.2\"/>")), "shadows start 0.1 is not above"),
        (file(gt("log", "<Highlights rgb=\"1 1 1\" master=\"1\" start=\"0.995\" pivot=\"1\"/>")), "highlights start 0.995"),
        (file(gt("log", "<DynamicParameter param=\"PRIMARY\"/>")), "belongs to <GradingPrimary>"),
    ]

    static func read(_ text: String) throws -> Look {
        try CTFFormatTests.read(text)
    }

    static func op(_ style: GradingStyle, reverse: Bool = false,
                   _ change: (inout GradingToneOp.Parameters) -> Void) throws -> GradingToneOp {
        var p = GradingToneOp.Parameters(style: style)
        change(&p)
        return try GradingToneOp(style: style, isReverse: reverse, parameters: p)
    }

    // MARK: Exact values

    @Test func neutralValuesChangeNothing() throws {
        for style in GradingStyle.allCases {
            let op = try Self.op(style) { $0.midtones.start = 0.3 }
            #expect(op.isIdentity)
            let out = op.apply(SIMD3(.nan, -3, 1e9))
            #expect(out.x.isNaN && out.y == -3 && out.z == 1e9)
        }
        #expect(abs(GradingStyle.linToLog(0.18)) < 1e-7 && abs(GradingStyle.logToLin(0) - 0.18) < 1e-8)
    }

    @Test func sContrastTurnsAboutThePivot() throws {
        let op = try Self.op(.log) { $0.sContrast = 1.5 }
        let slope = 1 / (1.8125 - 0.8125 * 1.5)
        let out = op.apply(SIMD3(0.4, 0.45, 0.36))
        #expect(abs(out.x - 0.4) < 1e-15)
        #expect(abs(out.y - (0.4 + 0.05 * slope)) < 1e-12 && abs(out.z - (0.4 - 0.04 * slope)) < 1e-12)
        // Far above the top, the line of slope 1 / contrast reaches the half-float limit.
        #expect(op.apply(SIMD3(repeating: 1e9)) == SIMD3(repeating: GradingToneOp.largestOutput))
    }

    @Test func highlightsKeepTheirEnds() throws {
        let op = try Self.op(.log) { $0.highlights.master = 1.5 }
        let out = op.apply(SIMD3(0.2, 0.3, 1))
        #expect(abs(out.x - 0.2) < 1e-15 && abs(out.y - 0.3) < 1e-15 && abs(out.z - 1) < 1e-15)
        #expect(op.apply(SIMD3(repeating: 0.65)).x > 0.65)
        let lower = try Self.op(.log) { $0.highlights.red = 0.5 }
        #expect(lower.apply(SIMD3(repeating: 0.65)).x < 0.65)
        #expect(lower.apply(SIMD3(repeating: 0.65)).y == 0.65)
    }

    @Test func inverseUndoesEveryStyle() throws {
        let inputs: [SIMD3<Double>] = [SIMD3(0.1, 0.5, 0.9), SIMD3(-0.2, 0.3, 1.4), SIMD3(0.02, 0.18, 0.7)]
        for style in GradingStyle.allCases {
            for (raise, sContrast) in [(true, 1.3), (false, 0.4)] {
                let op = try Self.op(style) { p in
                    let v: [Double] = raise ? [1.1, 0.8, 1.2, 1.2, 0.8] : [0.8, 1.3, 0.7, 0.8, 1.2]
                    p.blacks.master = v[0]
                    p.shadows.red = v[1]
                    p.midtones.green = v[2]
                    p.highlights.master = v[3]
                    p.whites.blue = v[4]
                    p.sContrast = sContrast
                }
                let inverse = try #require(try op.inverse().first as? GradingToneOp)
                #expect(inverse.isReverse)
                for input in inputs {
                    let back = inverse.apply(op.apply(input))
                    #expect((0..<3).allSatisfy { abs(back[$0] - input[$0]) <= 1e-9 * max(1, abs(input[$0])) },
                            "\(style) raise \(raise) at \(input): \(back)")
                }
            }
        }
    }

    // MARK: Files

    @Test func filesReadIntoTheOperator() throws {
        let op = try #require(try Self.read(Self.written[0].text).transform.operations.first as? GradingToneOp)
        #expect(op.style == .log && !op.isReverse && op.parameters.blacks == RGBMSW(1.1, 0.9, 1.2, master: 1.05, start: 0.4, width: 0.4))
        #expect(op.parameters.sContrast == 1.3)
        let moved = try #require(try Self.read(Self.written[Self.written.count - 2].text).transform.operations.first as? GradingToneOp)
        #expect(moved.dynamic && moved.parameters.midtones.start == 0.9 && moved.description.contains("dynamic"))
        let defaults = try #require(try Self.read(Self.written.last?.text ?? "").transform.operations.first as? GradingToneOp)
        #expect(defaults.isReverse && defaults.style == .linear && defaults.isIdentity)
    }

    @Test func refusalsNameTheProblem() throws {
        for (index, refusal) in Self.refusals.enumerated() {
            let error = #expect(throws: LUTFileError.self, "refusal \(index)") { try Self.read(refusal.text) }
            #expect(error?.description.contains(refusal.mentions) == true, "refusal \(index): \(String(describing: error))")
        }
    }

    // MARK: Against OpenColorIO

    /// Colours across each style's range: log and video -0.2...1.2, linear -0.1...200.
    static func grid(_ name: String) -> [SIMD3<Double>] {
        let steps = name.hasPrefix("linear") ? [-0.1, 0, 0.001, 0.01, 0.05, 0.18, 0.5, 1, 2, 8, 50, 200]
            : [-0.2, 0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.2]
        let diagonal = steps.map { SIMD3($0, $0 * 0.9 + 0.01, $0 * 1.1 - 0.01) }
        let sparse = stride(from: 0, to: steps.count, by: 3).map { steps[$0] }
        return diagonal + sparse.flatMap { r in sparse.flatMap { g in sparse.map { b in SIMD3(r, g, b) } } }
    }

    @Test(.enabled(if: SpaceOracle.python != nil, "PyOpenColorIO 2.6 is not installed (see Tools/install-deps)"))
    func openColorIOReadsTheSameFiles() throws {
        let python = try #require(SpaceOracle.python)
        let folder = try TemporaryDirectory()
        var largest: [String: Double] = [:]
        for (name, text) in Self.written {
            let path = try OCIOReference.write(text, named: name, in: folder)
            let ours = try LUTReader.read(path: path).transform
            let grid = Self.grid(name)
            guard case .outputs(let theirs) = try OCIOReference.verdict(lut: path, inputs: grid, python: python) else {
                Issue.record("OpenColorIO refuses \(name)")
                continue
            }
            let linear = name.hasPrefix("linear")
            for (input, reference) in zip(grid, theirs) {
                let value = ours.apply(input)
                for channel in 0..<3 {
                    let error = abs(value[channel] - reference[channel]) / max(abs(reference[channel]), 1)
                    let kind = linear ? "linear" : "log and video"
                    largest[kind] = max(largest[kind] ?? 0, error)
                    // OpenColorIO's linear style encodes with SSE approximations of log2 and exp2.
                    if !(error <= (linear ? 3e-4 : 1e-5)) {
                        Issue.record("\(name) at \(input): ours \(value[channel]), OpenColorIO \(reference[channel])")
                    }
                }
            }
        }
        print("GradingTone against OpenColorIO, \(Self.written.count) files: largest difference relative to max(1, |value|) "
              + largest.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
    }

    @Test(.enabled(if: SpaceOracle.python != nil, "PyOpenColorIO 2.6 is not installed (see Tools/install-deps)"))
    func openColorIORefusesTheSameFiles() throws {
        try CTFFormatTests.expectOpenColorIORefuses(Self.refusals)
    }
}
