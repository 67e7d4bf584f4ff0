import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeTransform
import Testing

@Suite struct CinespaceFormatTests {
    static func threeD(size: Int = 5) -> String {
        """
        CSPLUTV100
        3D

        BEGIN METADATA
        a test look
        END METADATA

        3
        0.0 0.5 1.0
        0.0 0.7 1.0
        4
        -0.1 0.25 0.6 1.2
        0.0 0.4 0.75 1.0
        2
        0.0 1.0
        0.0 1.0

        \(size) \(size) \(size)

        """ + LUTTestFiles.nodes(size: size, blueFastest: false)
    }

    static let oneD = """
        CSPLUTV100
        1D

        2
        0.0 1.0
        0.0 1.0
        2
        0.0 1.0
        0.0 1.0
        2
        0.0 1.0
        0.0 1.0

        3
        0.0 0.1 0.2
        0.5 0.5 0.6
        1.0 0.9 0.8

        """

    @Test func readsPreLUTThenLattice() throws {
        let folder = try TemporaryDirectory()
        let look = try OCIOReference.read(Self.threeD(), named: "look.csp", in: folder)
        #expect(look.format.name == "csp")
        #expect(look.title == "a test look")
        let ops = look.transform.operations
        #expect(ops.count == 2)
        let pre = try #require(ops.first as? LUT1DOp)
        // The curve passes through its points (to the sampling's linear error).
        #expect(abs(pre.curves[0].apply(0.5) - 0.7) < 1e-9)
        #expect(abs(pre.curves[1].apply(0.25) - 0.4) < 1e-6)
        #expect(abs(pre.curves[1].apply(-1) - 0) < 1e-12)
        #expect(abs(pre.curves[2].apply(0.3) - 0.3) < 1e-12)
        #expect(ops.last is LUT3DOp)
    }

    @Test func oneDTableWithoutPreLUT() throws {
        let folder = try TemporaryDirectory()
        let look = try OCIOReference.read(Self.oneD, named: "one.csp", in: folder)
        #expect(look.transform.operations.count == 1)
        let out = look.transform.apply(SIMD3(0.5, 0.75, 0))
        #expect(abs(out.x - 0.5) < 1e-12 && abs(out.y - 0.7) < 1e-12 && abs(out.z - 0.2) < 1e-12)
    }

    @Test func cinespaceCurveIsStraightForPointsOnALine() {
        let points = [0.0, 0.3, 0.5, 1.0], outputs = [0.1, 0.4, 0.6, 1.1]
        for segment in 0..<3 {
            let x = (points[segment] + points[segment + 1]) / 2
            #expect(abs(CinespaceFormat.cinespaceCurve(points: points, outputs: outputs, segment: segment, x: x) - (x + 0.1)) < 1e-12)
        }
    }

    @Test(.enabled(if: OCIOReference.ocioconvert != nil, "ocioconvert is not installed"), arguments: [8, 16])
    func matchesOpenColorIO(bitDepth: Int) throws {
        try OCIOReference.expectAgreement([("look.csp", Self.threeD()), ("one.csp", Self.oneD)], bitDepth: bitDepth)
    }

    @Test func writesPreLUTAndLatticeWithoutBaking() throws {
        let folder = try TemporaryDirectory()
        let source = try OCIOReference.read(Self.threeD(size: 3), named: "src.csp", in: folder)
        let straight = try LUT1DOp(curves: [Curve(inputs: .points([0, 0.2, 1]), outputs: [0.1, 0.3, 1.1]),
                                            Curve(inputs: .uniform(0...1), outputs: [0.1, 0.9]),
                                            Curve(inputs: .uniform(-1...2), outputs: [0, 1])])
        let look = Look(transform: Transform([straight] + source.transform.operations.suffix(1)), format: CubeTextFormat())
        let path = folder.file("out.csp")
        let report = try LUTWriter.write(look, format: CinespaceFormat(), to: path, title: "written")
        #expect(report.size == nil && report.bakingError == nil)
        let read = try LUTReader.read(path: path)
        #expect(read.transform.operations.count == 2)
        for rgb in [SIMD3(0.1, 0.2, 0.3), SIMD3(0.9, 0.05, 0.6), SIMD3(0.5, 0.5, 0.5)] {
            let difference = (read.transform.apply(rgb) - look.transform.apply(rgb)).magnitudeMax
            #expect(difference < 1e-5, "\(rgb)")
        }
    }

    @Test func bakesABentPreLUT() throws {
        let folder = try TemporaryDirectory()
        let source = try OCIOReference.read(Self.threeD(size: 3), named: "src.csp", in: folder)
        let bent = try LUT1DOp(curves: [Curve(inputs: .points([0, 0.2, 1]), outputs: [0, 0.6, 1]),
                                        Curve.identity(), Curve.identity()])
        let look = Look(transform: Transform([bent] + source.transform.operations.suffix(1)), format: CubeTextFormat())
        #expect(!CinespaceFormat().holdsExactly(look.transform))
        let report = try LUTWriter.write(look, format: CinespaceFormat(), to: folder.file("baked.csp"), title: "baked")
        #expect(report.size == 33)
        #expect(try LUTReader.read(path: folder.file("baked.csp")).transform.operations.count == 1)
    }

    @Test func refusesBadFiles() throws {
        let preLUT = "2\n0 1\n0 1\n2\n0 1\n0 1\n2\n0 1\n0 1\n"
        let cases: [(String, Int)] = [
            ("CSPLUT\n3D\n" + preLUT + "2 2 2\n", 1),
            ("CSPLUTV100\n2D\n" + preLUT + "2 2 2\n", 2),
            ("CSPLUTV100\n3D\nBEGIN METADATA\nx\n", 4),
            ("CSPLUTV100\n3D\n3\n0 1\n0 0.5 1\n", 4),
            ("CSPLUTV100\n3D\n3\n0 1 0.5\n0 0.5 1\n", 4),
            ("CSPLUTV100\n3D\n" + preLUT + "2 2 3\n", 12),
            ("CSPLUTV100\n3D\n" + preLUT + "2 2 2\n0 0 0\n", 13),
            ("CSPLUTV100\n3D\n" + preLUT + "2 2 2\n0 0 nan\n", 13),
            ("CSPLUTV100\n1D\n" + preLUT + "2\n0 0 0\n", 13),
            ("CSPLUTV100\n1D\n" + preLUT + "2\n0 0 0\n1 1\n", 14),
        ]
        for (text, line) in cases {
            #expect(try LUTTestFiles.malformedLine(text, named: "bad.csp") == line, "\(text)")
        }
        if OCIOReference.ocioconvert != nil {
            for (text, _) in [cases[0], cases[1], cases[3], cases[5], cases[9]] {
                #expect(try LUTTestFiles.ocioRefuses(text, named: "bad.csp"), "\(text)")
            }
        }
    }
}

extension SIMD3 where Scalar == Double {
    /// The largest absolute component.
    var magnitudeMax: Double { Swift.max(abs(x), abs(y), abs(z)) }
}
