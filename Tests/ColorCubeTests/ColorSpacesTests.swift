import ColorCubeCore
import ColorCubeEngine
import ColorCubeImaging
import ColorCubeLooks
import ColorCubeTransform
import Foundation
import Testing

/// The colour space catalogue: names, published values, round trips, and every space against
/// OpenColorIO 2.6's studio config when PyOpenColorIO is installed.
@Suite struct ColorSpacesTests {
    @Test func everyStudioConfigSpaceIsInTheCatalogue() {
        // The studio config's 59 spaces less its Raw data space, plus seven of our own.
        #expect(ColorSpaces.all.count == 58 + 7)
        #expect(ColorSpaces.all.filter { $0.kind == .display }.count == 10)
        #expect(Set(ColorSpaces.all.map(\.id)).count == ColorSpaces.all.count)
        let names = ColorSpaces.all.flatMap(\.names).map { $0.lowercased() }
        #expect(Set(names).count == names.count, "a name answers for two spaces")
    }

    @Test func namesAreIDsNamesAndAliasesInAnyCase() throws {
        let cine = try #require(ColorSpaces.named("ocio:slog3_sgamut3cine_scene"))
        #expect(ColorSpaces.named("SLOG3_SGAMUT3CINE_SCENE")?.id == cine.id)
        #expect(ColorSpaces.named("S-Log3 S-Gamut3.Cine")?.id == cine.id)
        #expect(ColorSpaces.named(" slog3_sgamut3cine ")?.id == cine.id)
        #expect(ColorSpaces.named("srgb_tx")?.name == "sRGB Encoded Rec.709 (sRGB)")
        #expect(ColorSpaces.named("no such space") == nil)
        #expect(throws: ColorSpaceError.self) { try ColorSpaces.lookUp("slgo3") }
        #expect(ColorSpaces.nearest(to: "slgo3").contains { $0.contains("slog3") })
    }

    /// Cineon printing density (white at code 685, black at 95, 0.002 density per code, negative
    /// gamma 0.6): values worked out from Kodak's formula, which colour-science's
    /// `log_decoding_Cineon` and `log_encoding_Cineon` give to the last digit.
    @Test func cineonFollowsKodaksFormula() throws {
        let cineon = try ColorSpaces.lookUp("cineon")
        #expect(cineon.id == "cineonlog_rec709_scene" && cineon.name == "Cineon Log (printing density)")
        #expect(cineon.gamut == Gamuts.rec709 && cineon.kind == .scene)
        let decoding = Transform(cineon.decoding)
        let references: [(code: Double, linear: Double)] = [
            (0, -0.005650819439456877), (95, 0), (200, 0.013521403946172707), (445, 0.1493037120216776),
            (470, 0.18319453128819568), (685, 1), (800, 2.4327863519618087), (1023, 13.521694568553714),
        ]
        for (code, linear) in references {
            let decoded = decoding.apply(SIMD3(repeating: code / 1023)).x
            #expect(abs(decoded - linear) < 1e-12 * max(1, abs(linear)), "code \(code): \(decoded), expected \(linear)")
        }
        let encoding = Transform(try cineon.decoding.reversed().flatMap { try $0.inverse() })
        #expect(abs(encoding.apply(SIMD3(repeating: 0.18)).x * 1023 - 467.83796418638303) < 1e-9)
        #expect(abs(encoding.apply(SIMD3(repeating: 1)).x * 1023 - 685) < 1e-9)
    }

    @Test func sceneAndDisplaySpacesDoNotConvert() throws {
        let log = try ColorSpaces.lookUp("slog3_sgamut3cine"), display = try ColorSpaces.lookUp("srgb_display")
        #expect(throws: ColorSpaceError.crossesKinds(source: log.name, target: display.name)) {
            try ColorSpaces.conversion(from: log, to: display)
        }
    }

    /// Values from the makers' documents and the standards.
    @Test func publishedValues() throws {
        func decode(_ id: String, _ code: Double) throws -> Double {
            try Transform(ColorSpaces.lookUp(id).decoding).apply(SIMD3(repeating: code)).x
        }
        // S-Log3: 18% grey at code 420 of 1023; LogC3 EI800 at 0.391; ACEScct at 0.4136.
        #expect(abs(try decode("slog3_sgamut3", 420.0 / 1023) - 0.18) < 1e-9)
        #expect(abs(try decode("arri_logc3_ei800", 0.3910068360) - 0.18) < 1e-6)
        #expect(abs(try decode("acescct_ap1", 0.4135884) - 0.18) < 1e-6)
        // PQ: 100 cd/m² (1.0 here) at 0.508078; HLG: signal 0.5 is scene light 1/12.
        let pq = TransferFunctionOp(.pq, .encode), hlg = TransferFunctionOp(.hlg, .decode)
        #expect(abs(pq.value(1) - 0.5080784) < 1e-6)
        #expect(abs(pq.value(100) - 1) < 1e-9)
        #expect(abs(hlg.value(0.5) - 1.0 / 12) < 1e-12)
        // BT.2100: an HLG display of 1000 cd/m² shows signal 1.0 white at its peak (10 here).
        let white = try ColorSpaces.conversion(from: ColorSpaces.lookUp("hlg_rec2020_display"),
                                               to: ColorSpaces.lookUp("ocio:lin_ciexyzd65_display")).apply(SIMD3(1, 1, 1))
        #expect(abs(white.y - 10) < 1e-6)
        // Rec.709 white is ACES white: the adapted matrices keep greys grey.
        let grey = try ColorSpaces.conversion(from: ColorSpaces.lookUp("lin_rec709"), to: ColorSpaces.lookUp("aces")).apply(SIMD3(repeating: 0.18))
        #expect(abs(grey.x - 0.18) < 1e-9 && abs(grey.y - 0.18) < 1e-9 && abs(grey.z - 0.18) < 1e-9)
    }

    @Test func everySpaceRoundTripsThroughItsReference() throws {
        for space in ColorSpaces.all {
            let there = Transform(space.toReference), back = Transform(space.fromReference)
            // ADX16 codes above about 0.45 are densities past half-float exposure, which the studio
            // config clamps (so they cannot come back); its codes are taken below.
            let codes = space.name == "ADX16" ? [SIMD3(0.1, 0.3, 0.4), SIMD3(0.3, 0.3, 0.3), SIMD3(0.4, 0.05, 0.25)]
                : [SIMD3(0.1, 0.4, 0.8), SIMD3(0.3, 0.3, 0.3), SIMD3(0.9, 0.05, 0.5)]
            for code in codes {
                let result = back.apply(there.apply(code))
                #expect(distance(result, code) < 1e-9, "\(space.name): \(code) came back as \(result)")
            }
        }
    }

    /// Two encodings of one gamut convert by their curves alone: no near-identity matrix is left
    /// between them to keep the curves from folding beside a look's lattice.
    @Test func encodingsOfOneGamutConvertByTheirCurves() throws {
        let pairs = [("lin_rec709_scene", "g24_rec709_scene"), ("srgb_tx", "g22_rec709"), ("acescct", "lin_ap1")]
        for (from, to) in pairs {
            let source = try ColorSpaces.lookUp(from), target = try ColorSpaces.lookUp(to)
            let direct = try ColorSpaces.conversion(from: source, to: target)
            #expect(direct.operations.allSatisfy { $0.isPerChannel }, "\(from) to \(to): \(direct.operations)")
            let throughReference = Transform(source.toReference + target.fromReference)
            for value in [SIMD3(0.02, 0.4, 0.9), SIMD3(0.6, 0.6, 0.2), SIMD3(1.5, 0.001, 0.3)] {
                let exact = throughReference.apply(value)
                #expect(distance(direct.apply(value), exact) < 1e-12 * max(1, exact.max()), "\(from) to \(to) at \(value)")
            }
        }
    }

    @Test func aConversionWrittenAsCLFReadsBackTheSame() throws {
        let folder = try TemporaryDirectory()
        for (from, to) in [("slog3_sgamut3cine", "srgb_tx"), ("canonlog3_cinemagamut_d55", "acescct"), ("pq_rec2020_display", "srgb_display")] {
            let look = try Look(conversionFrom: ColorSpaces.lookUp(from), to: ColorSpaces.lookUp(to))
            let path = folder.file("\(from).clf")
            try LUTWriter.write(look, format: CLFFormat(), to: path, title: look.title ?? "")
            let read = try LUTReader.read(path: path)
            for value in [SIMD3(0.05, 0.4, 0.9), SIMD3(0.6, 0.6, 0.2)] {
                let exact = look.transform.apply(value), written = read.transform.apply(value)
                // Curves CLF has no node for are half-float tables: close, not equal.
                #expect(distance(exact, written) < 2e-4 * max(1, exact.max()), "\(from) to \(to) at \(value)")
            }
        }
    }

    @Test func aLookSeenFromAPictureSpaceIsWrappedInBothConversions() throws {
        let identity = Look(transform: Transform(), format: CLFFormat())
        let wrapped = try identity.seen(from: ColorSpaces.lookUp("srgb_tx"), lookSpace: ColorSpaces.lookUp("slog3_sgamut3cine"))
        // An identity look in any space leaves the picture as it was.
        for value in [SIMD3(0.02, 0.5, 0.98), SIMD3(0.2, 0.2, 0.2)] {
            #expect(distance(wrapped.transform.apply(value), value) < 1e-9)
        }
        // A look whose output differs from its input: sRGB codes in, Camera Rec.709 codes out.
        let toCamera = try identity.seen(from: ColorSpaces.lookUp("srgb_tx"), lookSpace: ColorSpaces.lookUp("lin_rec709"),
                                         lookOutputSpace: ColorSpaces.lookUp("lin_rec709"))
        #expect(abs(toCamera.transform.apply(SIMD3(repeating: 0.5)).x - 0.5) < 1e-9)
    }

    // MARK: OpenColorIO 2.6 as the oracle

    /// A look applied in its space by the engine, against OpenColorIO evaluating the same chain
    /// (the picture's space to the look's, the look read by OpenColorIO, the look's output space
    /// back): 8-bit within 1 code and 99% exact, 16-bit within 16/65535.
    @Test(.enabled(if: SpaceOracle.python != nil, "PyOpenColorIO 2.6 is not installed (see Tools/install-deps)"),
          arguments: [8, 16])
    func aLookInItsSpaceAgreesWithOpenColorIO(bitDepth: Int) throws {
        let python = try #require(SpaceOracle.python)
        let lookPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("LUTs/teal-orange.cube").path
        let look = try LUTReader.read(path: lookPath)
        let seen = try look.seen(from: ColorSpaces.lookUp("srgb_tx"), lookSpace: ColorSpaces.lookUp("slog3_sgamut3cine"),
                                 lookOutputSpace: ColorSpaces.lookUp("camera_rec709"))
        let engine = try LUTEngine(transform: seen.transform, interpolation: .trilinear)
        var image = OCIOReference.image(bitDepth: bitDepth)
        let maxCode = Double(image.pixels.maxCode)
        let inputs = (0..<(64 * 64)).map { p in SIMD3((0..<3).map { Double(image.pixels[p * 3 + $0]) / maxCode }) }
        let theirs = try SpaceOracle.chain(lut: lookPath, from: "sRGB Encoded Rec.709 (sRGB)", lookSpace: "S-Log3 S-Gamut3.Cine",
                                           lookOutput: "Camera Rec.709", inputs: inputs, python: python)
        switch image.pixels {
        case .eight(var samples):
            samples.withUnsafeMutableBufferPointer { b in
                guard let base = b.baseAddress else { return }
                engine.apply(UnsafePointer(base), to: base, pixelCount: 64 * 64, layout: .rgb, parallel: false)
            }
            image.pixels = .eight(samples)
        case .sixteen(var samples):
            samples.withUnsafeMutableBufferPointer { b in
                guard let base = b.baseAddress else { return }
                engine.apply(UnsafePointer(base), to: base, pixelCount: 64 * 64, layout: .rgb, parallel: false)
            }
            image.pixels = .sixteen(samples)
        case .float:
            Issue.record("the oracle image is 8 or 16-bit")
        }
        var largest = 0, exact = 0
        for pixel in 0..<(64 * 64) {
            for channel in 0..<3 {
                let reference = min(max(theirs[pixel][channel], 0), 1) * maxCode
                let ours = image.pixels[pixel * 3 + channel]
                largest = max(largest, abs(Int(reference.rounded()) - ours))
                if abs(reference - Double(ours)) <= 0.5 + 1e-3 { exact += 1 }
            }
        }
        let share = Double(exact) / Double(64 * 64 * 3)
        if bitDepth == 8 {
            #expect(largest <= 1 && share >= 0.99, "largest \(largest) codes, \(share) exact")
        } else {
            #expect(largest <= 16, "largest \(largest) of 65535")
        }
    }

    /// A picture of floats (scene-linear Rec.709, shadows to highlights of 64, negatives) graded in
    /// ACEScct through `apply(floats:)`, whose conversions run in Float32, against OpenColorIO:
    /// within 1e-3, relative above 1 and absolute below.
    @Test(.enabled(if: SpaceOracle.python != nil, "PyOpenColorIO 2.6 is not installed (see Tools/install-deps)"))
    func floatsGradedInACEScctAgreeWithOpenColorIO() throws {
        let python = try #require(SpaceOracle.python)
        let lookPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("LUTs/teal-orange.cube").path
        let picture = try ColorSpaces.lookUp("lin_rec709_scene"), acescct = try ColorSpaces.lookUp("ACEScct")
        let seen = try LUTReader.read(path: lookPath).seen(from: picture, lookSpace: acescct)
        let engine = try LUTEngine(transform: seen.transform, interpolation: .trilinear)
        let levels: [Double] = [-0.05, 0, 0.002, 0.01, 0.04, 0.1, 0.18, 0.35, 0.6, 1, 1.7, 3, 6, 16, 64]
        let inputs = levels.flatMap { r in levels.flatMap { g in levels.map { b in SIMD3(r, g, b) } } }
        var pixels = inputs.flatMap { [Float($0.x), Float($0.y), Float($0.z)] }
        pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            engine.apply(floats: base, to: base, pixelCount: inputs.count, layout: .rgb, parallel: false)
        }
        let theirs = try SpaceOracle.chain(lut: lookPath, from: picture.name, lookSpace: acescct.name, lookOutput: acescct.name,
                                           inputs: inputs, python: python)
        #expect(theirs.count == inputs.count)
        var worst = 0.0
        for (pixel, reference) in theirs.enumerated() {
            for channel in 0..<3 {
                let error = abs(Double(pixels[pixel * 3 + channel]) - reference[channel]) / max(1, abs(reference[channel]))
                worst = max(worst, error)
            }
        }
        print("floats in ACEScct: largest difference from OpenColorIO \(worst)")
        #expect(worst <= 1e-3, "largest difference \(worst)")
    }

    @Test(.enabled(if: SpaceOracle.python != nil, "PyOpenColorIO 2.6 is not installed (see Tools/install-deps)"))
    func everySpaceAgreesWithOpenColorIOsStudioConfig() throws {
        let python = try #require(SpaceOracle.python)
        let studio = ColorSpaces.all.filter { $0.origin == nil }
        var cases: [SpaceOracle.Case] = []
        for space in studio {
            let reference = try ColorSpaces.lookUp(space.kind == .scene ? "ACES2065-1" : "CIE XYZ-D65 - Display-referred")
            let (low, high) = space.kind == .scene ? (-0.1, 1.2) : (0.0, 1.0)
            let levels = (0..<5).map { low + (high - low) * Double($0) / 4 }
            let inputs = levels.flatMap { r in levels.flatMap { g in levels.map { b in SIMD3(r, g, b) } } }
            for (from, to) in [(space, reference), (reference, space)] where from.id != to.id {
                let conversion = try ColorSpaces.conversion(from: from, to: to)
                cases.append(.init(from: from.name, to: to.name, inputs: inputs, outputs: inputs.map(conversion.apply)))
            }
        }
        let worst = try SpaceOracle.compare(cases, python: python)
        #expect(worst.count == cases.count)
        for (index, error) in worst.enumerated() {
            #expect(error <= 1e-3, "\(cases[index].from) to \(cases[index].to): \(error)")
        }
    }
}

/// PyOpenColorIO 2.6 run as a child: it evaluates the studio config's conversions at our inputs.
enum SpaceOracle {
    struct Case {
        var from, to: String
        var inputs, outputs: [SIMD3<Double>]
    }

    /// A Python that imports PyOpenColorIO 2.6 or later: COLORCUBE_ORACLE_PYTHON, the virtual
    /// environment Tools/install-deps makes with PEERS=1, or the system's.
    static let python: String? = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [ProcessInfo.processInfo.environment["COLORCUBE_ORACLE_PYTHON"],
                          root.appendingPathComponent(".build-oracle/venv/bin/python").path, "/usr/bin/python3"].compactMap { $0 }
        return candidates.first { path in
            guard FileManager.default.isExecutableFile(atPath: path) else { return false }
            let check = "import PyOpenColorIO as o, sys; v = tuple(int(x) for x in o.__version__.split('.')[:2]); sys.exit(0 if v >= (2, 6) else 1)"
            return (try? OCIOReference.run(path, ["-c", check])) == 0
        }
    }()

    /// OpenColorIO's result of `lut` (read trilinearly) between two conversions, at `inputs`.
    static func chain(lut: String, from picture: String, lookSpace: String, lookOutput: String,
                      inputs: [SIMD3<Double>], python: String) throws -> [SIMD3<Double>] {
        let script = """
            import json, sys, numpy as np, PyOpenColorIO as ocio
            config = ocio.Config.CreateFromBuiltinConfig("studio-config-latest")
            lut, picture, space, output = sys.argv[1:5]
            group = ocio.GroupTransform()
            group.appendTransform(ocio.ColorSpaceTransform(picture, space))
            group.appendTransform(ocio.FileTransform(lut, interpolation=ocio.INTERP_LINEAR))
            group.appendTransform(ocio.ColorSpaceTransform(output, picture))
            values = np.array(json.load(sys.stdin), dtype=np.float32)
            config.getProcessor(group).getDefaultCPUProcessor().applyRGB(values)
            print(json.dumps(values.tolist()))
            """
        let output = try run(python, ["-c", script, lut, picture, lookSpace, lookOutput],
                             input: try JSONSerialization.data(withJSONObject: inputs.map { [$0.x, $0.y, $0.z] }))
        return try JSONDecoder().decode([[Double]].self, from: output).map { SIMD3($0[0], $0[1], $0[2]) }
    }

    /// Runs `python arguments...` with `input` on standard input; its standard output.
    static func run(_ python: String, _ arguments: [String], input: Data) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        Thread.detachNewThread {
            try? stdin.fileHandleForWriting.write(contentsOf: input)
            try? stdin.fileHandleForWriting.close()
        }
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return output
    }

    static let script = """
        import json, sys, numpy as np, PyOpenColorIO as ocio
        config = ocio.Config.CreateFromBuiltinConfig("studio-config-latest")
        worst = []
        for case in json.load(sys.stdin):
            processor = config.getProcessor(case["from"], case["to"]).getDefaultCPUProcessor()
            values = np.array(case["inputs"], dtype=np.float32)
            processor.applyRGB(values)
            ours = np.array(case["outputs"])
            worst.append(float((np.abs(values - ours) / np.maximum(1, np.abs(values))).max()))
        print(json.dumps(worst))
        """

    /// The largest error of each case, relative above 1 and absolute below.
    static func compare(_ cases: [Case], python: String) throws -> [Double] {
        let payload = cases.map { c in
            ["from": c.from, "to": c.to, "inputs": c.inputs.map { [$0.x, $0.y, $0.z] }, "outputs": c.outputs.map { [$0.x, $0.y, $0.z] }] as [String: Any]
        }
        let output = try run(python, ["-c", script], input: try JSONSerialization.data(withJSONObject: payload))
        return try JSONDecoder().decode([Double].self, from: output)
    }
}

/// The largest difference of the three channels.
private func distance(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
    max(abs(a.x - b.x), abs(a.y - b.y), abs(a.z - b.z))
}
