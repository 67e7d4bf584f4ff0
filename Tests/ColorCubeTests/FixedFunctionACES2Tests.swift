import ColorCubeCore
import ColorCubeLooks
import ColorCubeTransform
import Foundation
import Testing

/// ACES 2.0's output transform and its parts (FixedFunction styles ACESOutputTransform20,
/// RGB_TO_JMh_20, ToneScaleCompress20, GamutCompress20): round trips, refusals, and CTF files read
/// as OpenColorIO 2.6 reads them, compared with PyOpenColorIO when it is installed.
@Suite struct FixedFunctionACES2Tests {
    typealias Style = FixedFunctionOp.Style

    /// Limiting primaries and white (x, y of red, green, blue, white).
    static let limits: [(name: String, xy: [Double])] = [
        ("Rec709", [0.64, 0.33, 0.3, 0.6, 0.15, 0.06, 0.3127, 0.329]),
        ("P3-D65", [0.68, 0.32, 0.265, 0.69, 0.15, 0.06, 0.3127, 0.329]),
        ("Rec2020", [0.708, 0.292, 0.17, 0.797, 0.131, 0.046, 0.3127, 0.329]),
    ]
    static let ap0 = [0.7347, 0.2653, 0, 1, 0.0001, -0.077, 0.32168, 0.33767]
    static let peaks: [Double] = [100, 1000, 4000]

    static func op(_ style: Style, _ parameters: [Double]) throws -> FixedFunctionOp {
        try FixedFunctionOp(style: style, parameters: parameters)
    }

    /// The largest difference of `a` from `b` over the channels, relative to b's largest
    /// channel (at least 1): Float32 rounding scales with the colour, not with each channel.
    static func difference(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        let d = a - b
        return max(abs(d.x), abs(d.y), abs(d.z)) / max(1, abs(b.x), abs(b.y), abs(b.z))
    }

    /// J, M, h as J, a, b: a neutral's hue is noise in Float32, its a and b are not.
    static func opponent(_ jmh: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(jmh.x, jmh.y * cos(jmh.z * .pi / 180), jmh.y * sin(jmh.z * .pi / 180))
    }

    /// ACES2065-1 colours OpenColorIO's round trip holds for: AP1's primaries and secondaries
    /// times 4, a grey ramp up to diffuse white, and everyday colours.
    static let scene: [SIMD3<Double>] = {
        let ap1ToAP0 = Gamuts.ap1.matrix(to: Gamuts.ap0)
        let corners: [SIMD3<Double>] = [SIMD3(4, 0, 0), SIMD3(4, 4, 0), SIMD3(0, 4, 0), SIMD3(0, 4, 4), SIMD3(0, 0, 4), SIMD3(4, 0, 4)]
        let primaries = corners.map { c in SIMD3((ap1ToAP0[0] * c).sum(), (ap1ToAP0[1] * c).sum(), (ap1ToAP0[2] * c).sum()) }
        let greys = [0.01, 0.04, 0.09, 0.18, 0.35, 0.57, 0.87, 0.98].map { SIMD3<Double>(repeating: $0) }
        let colours: [SIMD3<Double>] = [SIMD3(0.12, 0.09, 0.06), SIMD3(0.4, 0.32, 0.24), SIMD3(0.18, 0.2, 0.31), SIMD3(0.11, 0.14, 0.06),
                                        SIMD3(0.39, 0.23, 0.06), SIMD3(0.3, 0.14, 0.13), SIMD3(0.49, 0.37, 0.08), SIMD3(0.22, 0.07, 0.05),
                                        SIMD3(0.71, 0.51, 0.81), SIMD3(0.43, 0.82, 0.71), SIMD3(0.11, 0.02, 0.04)]
        return primaries + greys + colours
    }()

    // MARK: Styles and parameters

    @Test func theEightStylesReadByNameAndInvertEachOther() {
        let pairs: [(Style, Style)] = [(.acesOutputTransform20Fwd, .acesOutputTransform20Inv), (.rgbToJMh20, .jmhToRGB20),
                                       (.toneScaleCompress20Fwd, .toneScaleCompress20Inv), (.gamutCompress20Fwd, .gamutCompress20Inv)]
        for (forward, inverse) in pairs {
            #expect(forward.inverse == inverse && inverse.inverse == forward)
            #expect(forward.parameterCount == inverse.parameterCount)
            #expect(Style(ctfName: forward.rawValue.lowercased()) == forward && Style(ctfName: inverse.rawValue.uppercased()) == inverse)
            #expect(!forward.isPerChannel)
        }
        #expect([Style.acesOutputTransform20Fwd, .rgbToJMh20, .toneScaleCompress20Fwd, .gamutCompress20Fwd].map(\.parameterCount) == [9, 8, 1, 9])
    }

    /// What OpenColorIO refuses: the wrong number of parameters, a peak outside 1...10000 or not
    /// a whole number of cd/m².
    static let refusals: [(style: String, params: String, mentions: String)] = [
        ("ACESOutputTransform20Fwd", "1000 0.64 0.33 0.3 0.6 0.15 0.06 0.3127", "takes 9 parameters, 8 given"),
        ("ACESOutputTransform20Inv", "0.5 0.64 0.33 0.3 0.6 0.15 0.06 0.3127 0.329", "peak_luminance 0.5 is outside 1...10000"),
        ("ACESOutputTransform20Fwd", "10001 0.64 0.33 0.3 0.6 0.15 0.06 0.3127 0.329", "peak_luminance 10001 is outside"),
        ("ACESOutputTransform20Fwd", "100.5 0.64 0.33 0.3 0.6 0.15 0.06 0.3127 0.329", "peak_luminance 100.5 has a fractional part"),
        ("RGB_TO_JMh_20", "0.64 0.33 0.3 0.6 0.15 0.06 0.3127 0.329 1", "takes 8 parameters, 9 given"),
        ("JMh_TO_RGB_20", "", "takes 8 parameters, 0 given"),
        ("ToneScaleCompress20Fwd", "100 1000", "takes 1 parameter, 2 given"),
        ("ToneScaleCompress20Inv", "0", "peak_luminance 0 is outside"),
        ("ToneScaleCompress20Fwd", "999.9", "has a fractional part"),
        ("GamutCompress20Fwd", "1000", "takes 9 parameters, 1 given"),
        ("GamutCompress20Inv", "20000 0.64 0.33 0.3 0.6 0.15 0.06 0.3127 0.329", "peak_luminance 20000 is outside"),
    ]

    static func file(_ style: String, _ params: String) -> String {
        CTFOperatorTests.processList(CTFOperatorTests.ff(style, params.isEmpty ? nil : params), version: "2.4")
    }

    @Test func refusalsNameTheProblem() throws {
        for (index, refusal) in Self.refusals.enumerated() {
            let error = #expect(throws: LUTFileError.self, "refusal \(index)") {
                try CTFFormatTests.read(Self.file(refusal.style, refusal.params))
            }
            #expect(error?.description.contains(refusal.mentions) == true, "refusal \(index): \(String(describing: error))")
        }
    }

    @Test func theOpRefusesAPeakOutsideItsRangeItself() {
        let xy = Self.limits[0].xy
        #expect(throws: TransformError.self) { try Self.op(.gamutCompress20Fwd, [0.99] + xy) }
        #expect(throws: TransformError.self) { try Self.op(.toneScaleCompress20Fwd, [.nan]) }
        #expect(throws: TransformError.self) { try Self.op(.acesOutputTransform20Fwd, xy) }
        #expect(throws: Never.self) { try Self.op(.acesOutputTransform20Fwd, [1] + xy) }
        #expect(throws: Never.self) { try Self.op(.acesOutputTransform20Inv, [10000] + xy) }
    }

    // MARK: Values and round trips

    /// Diffuse white (RGB 1 = 100 cd/m²) has J = 100 and no colourfulness in any space.
    @Test func whiteIsJ100() throws {
        for xy in [Self.ap0] + Self.limits.map(\.xy) {
            let jmh = try Self.op(.rgbToJMh20, xy).apply(SIMD3(repeating: 1))
            #expect(abs(jmh.x - 100) < 1e-9 && abs(jmh.y) < 1e-9, "\(jmh)")
        }
        #expect(try Self.op(.rgbToJMh20, Self.ap0).apply(SIMD3(-0.1, -0.2, -0.1)) == .zero)
    }

    @Test func jmhRoundTripsExactly() throws {
        for xy in [Self.ap0] + Self.limits.map(\.xy) {
            let forward = try Self.op(.rgbToJMh20, xy), inverse = try Self.op(.jmhToRGB20, xy)
            for rgb in Self.scene {
                let back = inverse.apply(forward.apply(rgb))
                #expect(Self.difference(back, rgb) < 1e-9, "\(rgb) came back as \(back)")
            }
            // The hue wraps: -30° is 330°.
            let a = inverse.apply(SIMD3(50, 20, -30)), b = inverse.apply(SIMD3(50, 20, 330))
            #expect(Self.difference(a, b) < 1e-12)
        }
    }

    /// Scene colours through the output transform and back, as OpenColorIO's own test (1e-4 of
    /// max(1, |value|), P3-D65 at 1000 cd/m²); here at 1000 and 4000 cd/m² for each limiting
    /// gamut, and the tone scale and gamut compression on their own. (At 100 cd/m² AP1's red
    /// and magenta times 4 come back 1% off: the gamut compression's inverse is an estimate
    /// near the peak.)
    @Test func sceneColoursRoundTrip() throws {
        for peak in Self.peaks.dropFirst() {
            for limit in Self.limits {
                let parameters = [peak] + limit.xy
                let forward = try Self.op(.acesOutputTransform20Fwd, parameters), inverse = try Self.op(.acesOutputTransform20Inv, parameters)
                let tone = try Self.op(.toneScaleCompress20Fwd, [peak]), untone = try Self.op(.toneScaleCompress20Inv, [peak])
                let gamut = try Self.op(.gamutCompress20Fwd, parameters), ungamut = try Self.op(.gamutCompress20Inv, parameters)
                let jmh = try Self.op(.rgbToJMh20, Self.ap0)
                for rgb in Self.scene {
                    let back = inverse.apply(forward.apply(rgb))
                    #expect(Self.difference(back, rgb) < 1e-4, "\(peak) \(limit.name): \(rgb) came back as \(back)")
                    let toned = tone.apply(jmh.apply(rgb))
                    #expect(Self.difference(untone.apply(toned), jmh.apply(rgb)) < 1e-9)
                    #expect(Self.difference(ungamut.apply(gamut.apply(toned)), toned) < 1e-4)
                }
            }
        }
    }

    /// Display colours (the cube up to the peak) through the inverse and back, with OpenColorIO's
    /// tolerances: 1e-3 for Rec.709 at 100 cd/m² and P3-D65 at 1000, 1e-2 for P3-D65 at 100.
    @Test func displayColoursRoundTrip() throws {
        for (peak, limit, tolerance) in [(100.0, 0, 1e-3), (100, 1, 1e-2), (1000, 1, 1e-3)] {
            let parameters = [peak] + Self.limits[limit].xy
            let forward = try Self.op(.acesOutputTransform20Fwd, parameters), inverse = try Self.op(.acesOutputTransform20Inv, parameters)
            let steps = (0..<8).map { Double($0) / 7 * peak / 100 }
            for r in steps {
                for g in steps {
                    for b in steps {
                        let rgb = SIMD3(r, g, b), back = forward.apply(inverse.apply(rgb))
                        #expect(Self.difference(back, rgb) < tolerance, "\(peak) \(Self.limits[limit].name): \(rgb) came back as \(back)")
                    }
                }
            }
        }
    }

    /// Hues at exactly 0 and 360 degrees, NaN and infinities stay within the tables.
    @Test func edgeHuesAndNonFiniteValuesAreDefined() throws {
        let parameters = [100] + Self.limits[0].xy
        let gamut = try Self.op(.gamutCompress20Fwd, parameters), tone = try Self.op(.toneScaleCompress20Inv, [100])
        for hue in [0, 360, -360, 359.99999999999994, 720, -1e-300] {
            #expect(gamut.apply(SIMD3(50, 80, hue)).x.isFinite && tone.apply(SIMD3(50, 20, hue)).x.isFinite)
        }
        #expect(gamut.apply(SIMD3(50, 80, .nan)).x.isNaN && tone.apply(SIMD3(50, 20, .infinity)).x.isNaN)
        let output = try Self.op(.acesOutputTransform20Fwd, parameters)
        #expect(output.apply(SIMD3(.nan, 0.2, 0.3)) == .zero)
        #expect(output.apply(SIMD3(-1, -1, -1)) == .zero)
        #expect(output.apply(SIMD3(0.742242277, 0.0931933373, 0.321542144)).x.isFinite)
    }

    // MARK: Against OpenColorIO

    /// ACES2065-1 colours: dark, bright (up to 100), negative and saturated ones, and the
    /// scene colours; as Float32 values, which OpenColorIO computes with.
    static let sceneGrid: [SIMD3<Double>] = {
        let steps: [Double] = [-0.02, 0, 0.002, 0.02, 0.18, 0.6, 2, 8, 30, 100]
        let grid = steps.flatMap { r in steps.flatMap { g in steps.map { b in SIMD3(r, g, b) } } }
        return (grid + scene + [SIMD3(0.742242277, 0.0931933373, 0.321542144)]).map { SIMD3<Double>(SIMD3<Float>($0)) }
    }()

    /// Display values outside what the forward reaches.
    static let displayExtras: [SIMD3<Double>] = [SIMD3(1.2, 0.5, -0.1), SIMD3(-0.2, 0.3, 0.5), SIMD3(0.5, 0.5, 0.5), SIMD3(0, 0, 0),
                                                 SIMD3(0.02, 0.01, 0.9), SIMD3(1, 1, 1)]

    /// One style over `inputs` in colorcube and PyOpenColorIO (both reading the same CTF file).
    static func compare(_ style: Style, _ parameters: [Double], _ inputs: [SIMD3<Double>], python: String,
                        in folder: TemporaryDirectory) throws -> (ours: [SIMD3<Double>], theirs: [SIMD3<Double>]) {
        let name = "\(style.rawValue)-\(parameters.first ?? 0)-\(parameters.count).ctf"
        let path = try OCIOReference.write(file(style.rawValue, parameters.map { "\($0)" }.joined(separator: " ")), named: name, in: folder)
        let ours = try LUTReader.read(path: path).transform
        guard case .outputs(let theirs) = try OCIOReference.verdict(lut: path, inputs: inputs, python: python) else {
            Issue.record("OpenColorIO refuses \(name)")
            return ([], [])
        }
        return (inputs.map(ours.apply), theirs)
    }

    /// Results agree within `tolerance` (see `difference`; JMh compared as J, a, b).
    static func expectAgreement(_ ours: [SIMD3<Double>], _ theirs: [SIMD3<Double>], _ inputs: [SIMD3<Double>],
                                jmh: Bool, tolerance: Double, _ label: String) -> Double {
        var largest = 0.0
        for (index, (value, reference)) in zip(ours, theirs).enumerated() {
            guard reference.x.isFinite, reference.y.isFinite, reference.z.isFinite else {
                #expect(!(value.x.isFinite && value.y.isFinite && value.z.isFinite), "\(label) at \(inputs[index]): ours \(value), OpenColorIO not finite")
                continue
            }
            let error = jmh ? difference(opponent(value), opponent(reference)) : difference(value, reference)
            largest = max(largest, error)
            #expect(error <= tolerance, "\(label) at \(inputs[index]): ours \(value), OpenColorIO \(reference)")
        }
        return largest
    }

    /// Every style both ways, peaks 100, 1000 and 4000, limiting gamuts Rec.709, P3-D65 and
    /// Rec.2020; the forwards within 1e-4. The inverses take the forwards' outputs (and a few
    /// values beyond their reach): where an inverse is ill-conditioned (saturated colours the
    /// gamut compression presses onto the boundary, values near the peak) Float32 rounding moves
    /// OpenColorIO's result far, so an inverse is compared through the forward
    /// (`expectSamePreimage`).
    @Test(.enabled(if: SpaceOracle.python != nil, "PyOpenColorIO 2.6 is not installed (see Tools/install-deps)"))
    func openColorIOAgrees() throws {
        let python = try #require(SpaceOracle.python)
        let folder = try TemporaryDirectory()
        var report: [String] = []
        func note(_ label: String, _ value: Double) { report.append("\(label) \(String(format: "%.2g", value))") }

        // JMh both ways, in AP0 and the limiting gamuts.
        var jmhInputs: [SIMD3<Double>] = []
        for xy in [Self.ap0] + Self.limits.map(\.xy) {
            let (ours, theirs) = try Self.compare(.rgbToJMh20, xy, Self.sceneGrid, python: python, in: folder)
            note("RGB_TO_JMh_20 \(xy[0])", Self.expectAgreement(ours, theirs, Self.sceneGrid, jmh: true, tolerance: 1e-4, "RGB_TO_JMh_20"))
            let inputs = theirs.filter { $0.x > 0 && $0.x.isFinite } + [SIMD3(50, 30, -30), SIMD3(50, 30, 400), SIMD3(0, 0, 0), SIMD3(120, 60, 720)]
            let (back, reference) = try Self.compare(.jmhToRGB20, xy, inputs, python: python, in: folder)
            note("JMh_TO_RGB_20 \(xy[0])", Self.expectAgreement(back, reference, inputs, jmh: false, tolerance: 1e-4, "JMh_TO_RGB_20"))
            if xy == Self.ap0 { jmhInputs = theirs.filter { $0.x > 0 && $0.x.isFinite } }
        }
        for peak in Self.peaks {
            let (toned, tonedReference) = try Self.compare(.toneScaleCompress20Fwd, [peak], jmhInputs, python: python, in: folder)
            note("ToneScaleCompress20Fwd \(peak)", Self.expectAgreement(toned, tonedReference, jmhInputs, jmh: true, tolerance: 1e-4, "ToneScaleCompress20Fwd \(peak)"))
            let (untoned, untonedReference) = try Self.compare(.toneScaleCompress20Inv, [peak], tonedReference, python: python, in: folder)
            note("ToneScaleCompress20Inv \(peak)", Self.expectSamePreimage(untoned, untonedReference, tonedReference,
                                                                           try Self.op(.toneScaleCompress20Fwd, [peak]), jmh: true,
                                                                           tolerance: 1e-3, label: "ToneScaleCompress20Inv \(peak)"))
            for limit in Self.limits {
                let parameters = [peak] + limit.xy, label = "\(peak) \(limit.name)"
                let gamut = try Self.op(.gamutCompress20Fwd, parameters), output = try Self.op(.acesOutputTransform20Fwd, parameters)
                let (compressed, compressedReference) = try Self.compare(.gamutCompress20Fwd, parameters, tonedReference, python: python, in: folder)
                note("GamutCompress20Fwd \(label)", Self.expectAgreement(compressed, compressedReference, tonedReference, jmh: true, tolerance: 1e-4, "GamutCompress20Fwd \(label)"))
                let (expanded, expandedReference) = try Self.compare(.gamutCompress20Inv, parameters, compressedReference, python: python, in: folder)
                // OpenColorIO's own round trips allow 1e-2 at 100 cd/m², where the inverse
                // near the peak is an estimate.
                let tolerance = peak == 100 ? 1e-2 : 1e-3
                note("GamutCompress20Inv \(label)", Self.expectSamePreimage(expanded, expandedReference, compressedReference, gamut, jmh: true,
                                                                           tolerance: tolerance, label: "GamutCompress20Inv \(label)"))

                let (display, displayReference) = try Self.compare(.acesOutputTransform20Fwd, parameters, Self.sceneGrid, python: python, in: folder)
                note("ACESOutputTransform20Fwd \(label)", Self.expectAgreement(display, displayReference, Self.sceneGrid, jmh: false, tolerance: 1e-4, "ACESOutputTransform20Fwd \(label)"))
                let displayInputs = displayReference.filter { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite } + Self.displayExtras.map { $0 * peak / 100 }
                let (scene, sceneReference) = try Self.compare(.acesOutputTransform20Inv, parameters, displayInputs, python: python, in: folder)
                let cube = 0...(peak / 100)
                note("ACESOutputTransform20Inv \(label)", Self.expectSamePreimage(scene, sceneReference, displayInputs, output, jmh: false, tolerance: tolerance,
                                                                                 checked: { cube.contains($0.x) && cube.contains($0.y) && cube.contains($0.z) },
                                                                                 label: "ACESOutputTransform20Inv \(label)"))
            }
        }
        print("ACES 2.0 against OpenColorIO, largest difference relative to max(1, |value|) (inverses: of the forward's images): "
              + report.joined(separator: ", "))
    }

    /// An inverse's results against OpenColorIO's, seen through `forward`: ours must map to
    /// what OpenColorIO's maps to, or to the input itself (where OpenColorIO's Float32 inverse
    /// misses it), within `tolerance` (see `difference`). Inputs `checked` rejects (display
    /// values outside the display's cube, which the forward never gives) are not compared.
    static func expectSamePreimage(_ ours: [SIMD3<Double>], _ theirs: [SIMD3<Double>], _ inputs: [SIMD3<Double>],
                                   _ forward: FixedFunctionOp, jmh: Bool, tolerance: Double,
                                   checked: (SIMD3<Double>) -> Bool = { _ in true }, label: String) -> Double {
        func measure(_ v: SIMD3<Double>) -> SIMD3<Double> { jmh ? opponent(v) : v }
        var largest = 0.0
        for (index, (value, reference)) in zip(ours, theirs).enumerated() {
            let image = forward.apply(value), referenceImage = forward.apply(reference)
            guard checked(inputs[index]), referenceImage.x.isFinite, referenceImage.y.isFinite, referenceImage.z.isFinite else { continue }
            let error = min(difference(measure(image), measure(referenceImage)), difference(measure(image), measure(inputs[index])))
            largest = max(largest, error)
            #expect(error <= tolerance, "\(label) at \(inputs[index]): ours \(value) (giving \(image)), OpenColorIO \(reference) (giving \(referenceImage))")
        }
        return largest
    }

    /// Chains PyOpenColorIO writes as CTF (its GroupTransform's writer): the output transform
    /// both ways, and the parts in a row.
    @Test(.enabled(if: SpaceOracle.python != nil, "PyOpenColorIO 2.6 is not installed (see Tools/install-deps)"))
    func filesOpenColorIOWritesAreRead() throws {
        let python = try #require(SpaceOracle.python)
        let folder = try TemporaryDirectory()
        let script = """
            import sys, PyOpenColorIO as O
            P3 = [0.68, 0.32, 0.265, 0.69, 0.15, 0.06, 0.3127, 0.329]
            R709 = [0.64, 0.33, 0.3, 0.6, 0.15, 0.06, 0.3127, 0.329]
            AP0 = [0.7347, 0.2653, 0.0, 1.0, 0.0001, -0.077, 0.32168, 0.33767]
            F, I = O.TRANSFORM_DIR_FORWARD, O.TRANSFORM_DIR_INVERSE
            def write(transforms, path):
                text = O.GroupTransform(transforms).write(formatName="Color Transform Format", config=O.Config.CreateRaw())
                open(path, "w").write(text)
            write([O.FixedFunctionTransform(O.FIXED_FUNCTION_ACES_OUTPUT_TRANSFORM_20, params=[1000] + P3, direction=F)], sys.argv[1])
            write([O.FixedFunctionTransform(O.FIXED_FUNCTION_ACES_OUTPUT_TRANSFORM_20, params=[100] + R709, direction=I)], sys.argv[2])
            write([O.FixedFunctionTransform(O.FIXED_FUNCTION_ACES_RGB_TO_JMH_20, params=AP0, direction=F),
                   O.FixedFunctionTransform(O.FIXED_FUNCTION_ACES_TONESCALE_COMPRESS_20, params=[100], direction=F),
                   O.FixedFunctionTransform(O.FIXED_FUNCTION_ACES_GAMUT_COMPRESS_20, params=[100] + R709, direction=F),
                   O.FixedFunctionTransform(O.FIXED_FUNCTION_ACES_RGB_TO_JMH_20, params=R709, direction=I)], sys.argv[3])
            """
        let paths = ["output.ctf", "inverse.ctf", "stages.ctf"].map(folder.file)
        _ = try SpaceOracle.run(python, ["-c", script] + paths, input: Data())
        let display = [SIMD3(0.0, 0, 0), SIMD3(0.1, 0.1, 0.1), SIMD3(0.5, 0.2, 0.1), SIMD3(0.05, 0.6, 0.3), SIMD3(0.9, 0.9, 0.2), SIMD3(0.3, 0.1, 0.8)]
        for (path, inputs) in [(paths[0], Self.scene), (paths[1], display), (paths[2], Self.scene)] {
            let look = try LUTReader.read(path: path)
            #expect(look.format.name == "ctf")
            guard case .outputs(let theirs) = try OCIOReference.verdict(lut: path, inputs: inputs, python: python) else {
                Issue.record("OpenColorIO refuses its own \(path)")
                continue
            }
            _ = Self.expectAgreement(inputs.map(look.transform.apply), theirs, inputs, jmh: false, tolerance: 1e-4, path)
        }
    }

    @Test(.enabled(if: SpaceOracle.python != nil, "PyOpenColorIO 2.6 is not installed (see Tools/install-deps)"))
    func openColorIORefusesTheSameFiles() throws {
        try CTFFormatTests.expectOpenColorIORefuses(Self.refusals.map { (Self.file($0.style, $0.params), $0.mentions) })
    }
}
