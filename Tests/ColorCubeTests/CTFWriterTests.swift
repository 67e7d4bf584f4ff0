import ColorCubeCore
import ColorCubeLooks
import ColorCubeTransform
import Foundation
import Testing

/// `.ctf` written by colorcube: every operator it reads from a CTF, and the chains a CLF cannot
/// hold (HLG's system gamma), read back with the same values, and read by OpenColorIO 2.6 as it
/// reads the files they came from.
@Suite struct CTFWriterTests {
    /// The CTF files the operator suites read, one style or corner each: fixed functions,
    /// exposure-contrast and the four grading operators.
    static var sources: [(name: String, text: String)] {
        CTFOperatorTests.written + GradingPrimaryTests.written + GradingToneTests.written + GradingRGBCurveTests.written.plain
            + GradingRGBCurveTests.written.wrapped + GradingHueCurveTests.written
    }

    static let inputs = CTFOperatorTests.inputs + GradingHueCurveTests.inputs

    /// `look` written as a .ctf in `folder`, with the path and the text written.
    static func written(_ look: Look, named name: String, in folder: TemporaryDirectory) throws -> (path: String, text: String) {
        let path = folder.file(name)
        try LUTWriter.write(look, format: CTFFormat(), to: path, title: "round trip")
        return (path, String(decoding: try BinaryFile.readAll(path: path), as: UTF8.self))
    }

    /// Equal, or both NaN.
    static func same(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Bool {
        (0..<3).allSatisfy { a[$0] == b[$0] || (a[$0].isNaN && b[$0].isNaN) }
    }

    /// Each operator reads back as itself: the same values at every input, bit for bit.
    @Test func everyOperatorReadsBackWithTheSameValues() throws {
        let folder = try TemporaryDirectory()
        for (index, (name, text)) in Self.sources.enumerated() {
            let look = try CTFFormatTests.read(text)
            let (path, written) = try Self.written(look, named: "\(index)-\(name)", in: folder)
            let back = try LUTReader.read(path: path)
            #expect(back.transform.operations.count == look.transform.operations.count, "\(name): \(written)")
            for input in Self.inputs {
                let (before, after) = (look.transform.apply(input), back.transform.apply(input))
                #expect(Self.same(before, after), "\(name) at \(input): \(before) read, \(after) read back from \(written)")
            }
        }
    }

    /// The conversion a CLF cannot hold, for its system gamma.
    static func hlgConversion() throws -> Look {
        try Look(conversionFrom: ColorSpaces.lookUp("Rec.2100-HLG - Display"), to: ColorSpaces.lookUp("sRGB - Display"))
    }

    static let hlgInputs: [SIMD3<Double>] = [SIMD3(0.02, 0.01, 0), SIMD3(0.1, 0.2, 0.3), SIMD3(0.5, 0.5, 0.5), SIMD3(0.75, 0.25, 0.1),
                                             SIMD3(0.9, 0.8, 0.2), SIMD3(1, 1, 1), SIMD3(0, 0, 0), SIMD3(0.001, 0.3, 0.002)]

    /// Within `relative` of each other, channel by channel.
    static func near(_ a: SIMD3<Double>, _ b: SIMD3<Double>, _ relative: Double) -> Bool {
        (0..<3).allSatisfy { abs(a[$0] - b[$0]) <= relative * max(1, abs(a[$0])) }
    }

    /// HLG's system gamma is written as OpenColorIO writes it (a surround FixedFunction between
    /// two scalings), which evaluates its formula step by step: the products round differently,
    /// in the last bits alone.
    @Test(arguments: [HLGSystemGammaOp(), HLGSystemGammaOp(inverted: true), HLGSystemGammaOp(peak: 2000, gamma: 1.3)])
    func hlgSystemGammaReadsBack(system: HLGSystemGammaOp) throws {
        let folder = try TemporaryDirectory()
        let look = Look(transform: Transform([system]), format: CTFFormat())
        let (path, text) = try Self.written(look, named: "gamma.ctf", in: folder)
        #expect(text.contains("style=\"Rec2100SurroundFwd\""), "\(text)")
        let back = try LUTReader.read(path: path).transform
        for input in Self.hlgInputs + Self.inputs {
            let (before, after) = (look.transform.apply(input), back.apply(input))
            #expect(Self.near(before, after, 1e-12), "\(system) at \(input): \(before) before, \(after) read back")
        }
    }

    /// The whole conversion reads back: exactly enough at half-float inputs, where its first
    /// step, HLG's curve, is sampled (a half-domain LUT1D, as in a CLF and as OpenColorIO writes
    /// it), and within the linear interpolation of that table between them.
    @Test func theHDRConversionReadsBack() throws {
        let folder = try TemporaryDirectory()
        let look = try Self.hlgConversion()
        #expect(look.transform.operations.contains { $0 is HLGSystemGammaOp })
        let (path, _) = try Self.written(look, named: "hlg.ctf", in: folder)
        let back = try LUTReader.read(path: path).transform
        let halves: [SIMD3<Double>] = [SIMD3(0, 0, 0), SIMD3(0.5, 0.5, 0.5), SIMD3(1, 1, 1), SIMD3(0.75, 0.25, 0.125), SIMD3(0.0625, 0.5, 0.875)]
        for input in halves {
            #expect(Self.near(look.transform.apply(input), back.apply(input), 1e-12), "at \(input)")
        }
        for input in Self.hlgInputs {
            #expect(Self.near(look.transform.apply(input), back.apply(input), 1e-6), "at \(input)")
        }
    }

    /// A CLF refuses it, naming the .ctf that holds it.
    @Test func aCLFRefusesHLGSystemGammaAndNamesTheCTF() throws {
        let folder = try TemporaryDirectory()
        let error = #expect(throws: LUTFileError.self) {
            try LUTWriter.write(try Self.hlgConversion(), format: CLFFormat(), to: folder.file("x.clf"), title: "hlg")
        }
        #expect(error?.description.contains("HLG system gamma") == true && error?.description.contains(".ctf") == true, "\(String(describing: error))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    /// A plain cube is a one-node CTF.
    @Test func aCubeIsOneLUT3D() throws {
        let folder = try TemporaryDirectory()
        let cube = try ColorCube.identity(size: 3)
        try LUTWriter.write(cube, format: CTFFormat(), to: folder.file("cube.ctf"), title: "cube")
        let back = try LUTReader.read(path: folder.file("cube.ctf"))
        #expect(back.transform.operations.count == 1 && back.transform.operations[0] is LUT3DOp)
        #expect(back.transform.apply(SIMD3(0.25, 0.5, 0.75)) == SIMD3(0.25, 0.5, 0.75))
    }

    // MARK: Against OpenColorIO

    /// OpenColorIO reads each written file as it reads the file it came from (within Float32's
    /// rounding of the numbers as written).
    @Test(.enabled(if: SpaceOracle.python != nil, "PyOpenColorIO 2.6 is not installed (see Tools/install-deps)"))
    func openColorIOReadsWhatIsWrittenAsItsSource() throws {
        let python = try #require(SpaceOracle.python)
        let folder = try TemporaryDirectory()
        for (index, (name, text)) in Self.sources.enumerated() {
            let source = try OCIOReference.write(text, named: "source-\(index)-\(name)", in: folder)
            let (path, written) = try Self.written(try CTFFormatTests.read(text), named: "\(index)-\(name)", in: folder)
            guard case .outputs(let expected) = try OCIOReference.verdict(lut: source, inputs: Self.inputs, python: python),
                  case .outputs(let found) = try OCIOReference.verdict(lut: path, inputs: Self.inputs, python: python) else {
                Issue.record("OpenColorIO refuses \(name) or what colorcube wrote from it: \(written)")
                continue
            }
            for (input, (a, b)) in zip(Self.inputs, zip(expected, found)) {
                #expect((0..<3).allSatisfy { (a[$0].isNaN && b[$0].isNaN) || abs(a[$0] - b[$0]) <= 1e-6 * max(1, abs(a[$0])) },
                        "\(name) at \(input): OpenColorIO \(a) from the source, \(b) from \(written)")
            }
        }
    }

    /// OpenColorIO applies the written HLG conversion as colorcube does.
    @Test(.enabled(if: SpaceOracle.python != nil, "PyOpenColorIO 2.6 is not installed (see Tools/install-deps)"))
    func openColorIOAppliesTheWrittenHLGConversion() throws {
        let python = try #require(SpaceOracle.python)
        let folder = try TemporaryDirectory()
        let look = try Self.hlgConversion()
        let (path, _) = try Self.written(look, named: "hlg.ctf", in: folder)
        guard case .outputs(let theirs) = try OCIOReference.verdict(lut: path, inputs: Self.hlgInputs, python: python) else {
            Issue.record("OpenColorIO refuses the written HLG conversion")
            return
        }
        for (input, reference) in zip(Self.hlgInputs, theirs) {
            let value = look.transform.apply(input)
            #expect((0..<3).allSatisfy { CTFOperatorTests.agrees(value[$0], reference[$0]) },
                    "at \(input): ours \(value), OpenColorIO \(reference)")
        }
    }
}
