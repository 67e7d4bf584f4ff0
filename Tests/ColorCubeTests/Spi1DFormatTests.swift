import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeTransform
import Foundation
import Testing

@Suite struct Spi1DFormatTests {
    static let oneComponent = """
        Version 1
        From -0.5 1.5
        Length 5
        Components 1
        {
            0.0
            0.2
            0.45
            0.8
            1.1
        }

        """
    static let threeComponents = """
        Version 1
        From 0.0 1.0
        Length 4
        Components 3
        {
        0.0 0.1 0.0
        0.5 0.3 0.2
        0.7 0.6 0.5
        0.9 1.0 1.0
        }

        """
    static let twoComponents = """
        Version 1
        From 0 1
        Length 2
        Components 2
        {
        0.2 0.1
        0.8 0.9
        }

        """

    @Test func readsEntriesOverTheFromRange() throws {
        let folder = try TemporaryDirectory()
        let look = try OCIOReference.read(Self.oneComponent, named: "a.spi1d", in: folder)
        #expect(look.format.name == "spi1d")
        #expect(look.transform.operations.count == 1)
        // From -0.5 1.5 over 5 entries: nodes at -0.5, 0, 0.5, 1, 1.5.
        #expect(look.transform.apply(SIMD3(0, 0.5, 1)) == SIMD3(0.2, 0.45, 0.8))
        #expect(look.transform.apply(SIMD3(-3, 9, 0.25)) == SIMD3(0.0, 1.1, 0.325))
    }

    @Test func twoComponentsLeaveBlueAtZero() throws {
        let folder = try TemporaryDirectory()
        let look = try OCIOReference.read(Self.twoComponents, named: "b.spi1d", in: folder)
        #expect(look.transform.apply(SIMD3(0, 1, 0.5)) == SIMD3(0.2, 0.9, 0))
    }

    @Test(.enabled(if: OCIOReference.ocioconvert != nil, "ocioconvert is not installed"),
          arguments: [("a.spi1d", Self.oneComponent), ("c.spi1d", Self.threeComponents), ("b.spi1d", Self.twoComponents)], [8, 16])
    func matchesOpenColorIO(file: (String, String), bitDepth: Int) throws {
        let folder = try TemporaryDirectory()
        let path = try OCIOReference.write(file.1, named: file.0, in: folder)
        let agreement = try OCIOReference.compare(LUTReader.read(path: path), lutPath: path, bitDepth: bitDepth)
        #expect(agreement.isWithinGoals, "\(agreement)")
    }

    /// Each read file written again gives the same transform, entry for entry; two components
    /// become three (blue 0), one stays one.
    @Test(arguments: [Self.oneComponent, Self.threeComponents, Self.twoComponents])
    func roundTripsExactly(text: String) throws {
        let folder = try TemporaryDirectory()
        let look = try OCIOReference.read(text, named: "in.spi1d", in: folder)
        let path = folder.file("out.spi1d")
        let report = try LUTWriter.write(look, format: Spi1DFormat(), to: path, title: "out")
        #expect(report.size == nil)
        let back = try LUTReader.read(path: path)
        let a = try #require(look.transform.operations.first as? LUT1DOp), b = try #require(back.transform.operations.first as? LUT1DOp)
        #expect(a.curves == b.curves)
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written.contains(text == Self.oneComponent ? "Components 1" : "Components 3"))
    }

    /// A .cube 1D LUT over its input range written as .spi1d: OpenColorIO reads the file written
    /// as colorcube reads it.
    @Test(.enabled(if: OCIOReference.ocioconvert != nil, "ocioconvert is not installed"), arguments: [8, 16])
    func openColorIOReadsWhatIsWritten(bitDepth: Int) throws {
        let folder = try TemporaryDirectory()
        var text = "LUT_1D_SIZE 64\nLUT_1D_INPUT_RANGE -0.25 1.25\n"
        for i in 0..<64 {
            let x = -0.25 + 1.5 * Double(i) / 63
            text += "\(pow(max(x, 0), 0.8)) \(x * 0.9 + 0.05) \(pow(max(x, 0), 1.3))\n"
        }
        let look = try OCIOReference.read(text, named: "curve.cube", in: folder)
        let path = folder.file("curve.spi1d")
        try LUTWriter.write(look, format: Spi1DFormat(), to: path, title: "curve")
        let agreement = try OCIOReference.compare(LUTReader.read(path: path), lutPath: path, bitDepth: bitDepth)
        #expect(agreement.isWithinGoals, "\(agreement)")
    }

    /// A cube or a chain cannot be a 1D table: refused with what the look holds, nothing written.
    @Test func refusesLooksThatAreNotOne1DLUT() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("x.spi1d")
        let cube = Look(transform: Transform(cube: try ColorCube.identity(size: 2)), format: CubeTextFormat())
        #expect(throws: LUTFileError.unsupported(path: path, reason: "an .spi1d holds one 1D LUT with evenly spaced inputs; this look is "
            + "3D LUT 2x2x2, domain 0...1, trilinear; write a .cube, .clf or another format that holds it")) {
            try LUTWriter.write(cube, format: Spi1DFormat(), to: path, title: "x")
        }
        #expect(throws: ConversionError.notACube(path: path, format: "an .spi1d", holds: "a 1D table")) {
            try LUTWriter.write(cube, format: Spi1DFormat(), to: path, title: "x", size: 17)
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func refusesBadFiles() throws {
        let header = "Version 1\nFrom 0 1\nLength 2\nComponents 1\n"
        let cases: [(String, Int)] = [
            ("Version 2\nFrom 0 1\nLength 2\nComponents 1\n{\n0\n1\n}\n", 1),
            ("From 0 1\nLength 2\nComponents 1\n{\n0\n1\n}\n", 4),
            ("Version 1\nFrom 0 1\nComponents 1\n{\n0\n1\n}\n", 4),
            ("Version 1\nFrom 0 1\nLength 2\nComponents 4\n{\n0\n1\n}\n", 4),
            ("Version 1\nFrom 0 one\nLength 2\nComponents 1\n{\n0\n1\n}\n", 2),
            ("Version 1\nFrom 1 1\nLength 2\nComponents 1\n{\n0\n1\n}\n", 2),
            ("Version 1\nLength 999999999\nComponents 1\n{\n0\n1\n}\n", 2),
            (header + "{\n0\n1\n2\n}\n", 8),
            (header + "{\n0\n}\n", 7),
            (header + "{\n0 1\n1\n}\n", 6),
            (header + "{\n1e39\n1\n}\n", 6),
            (header + "{\n0\n-1e39\n}\n", 7),
            (header + "{\n0\n1\n", 7),
        ]
        for (text, line) in cases {
            #expect(try LUTTestFiles.malformedLine(text, named: "bad.spi1d") == line, "\(text)")
        }
    }

    @Test(.enabled(if: OCIOReference.ocioconvert != nil, "ocioconvert is not installed"))
    func openColorIORefusesThemToo() throws {
        let header = "Version 1\nFrom 0 1\nLength 2\nComponents 1\n"
        for text in ["Version 2\nFrom 0 1\nLength 2\nComponents 1\n{\n0\n1\n}\n", header + "{\n0\n1\n2\n}\n", header + "{\n0\n}\n",
                     "From 0 1\nLength 2\nComponents 1\n{\n0\n1\n}\n"] {
            #expect(try LUTTestFiles.ocioRefuses(text, named: "bad.spi1d"), "\(text)")
        }
    }
}
