import ColorCubeCore
import ColorCubeLooks
import Foundation
import Testing

/// The defects a caller or a test branches on come typed, across the formats: a count that does not
/// match, a file that ends early, a part that is missing. Each file here breaks one rule; the error
/// must be that case with that evidence, at that line.
@Suite struct LUTFileDefectTests {
    typealias Defect = LUTFileError.Defect

    static let clfHead = "<?xml version=\"1.0\"?>\n<ProcessList id=\"p\" compCLFversion=\"3.0\">\n"

    /// (file name, text, line, defect).
    static let cases: [(String, String, Int, Defect)] = [
        ("short.cube", "LUT_3D_SIZE 2\n0 0 0\n1 0\n",
         3, .wrongCount(what: "values (red green blue)", expected: 3, found: 2)),
        ("domain.cube", "DOMAIN_MIN 0 0\nLUT_3D_SIZE 2\n",
         1, .wrongCount(what: "numbers after DOMAIN_MIN", expected: 3, found: 2)),
        ("cut.cube", "LUT_3D_SIZE 2\n0 0 0\n1 0 0\n0 1 0\n",
         4, .endsEarly(what: "data lines", found: 3, expected: 8, calledFor: "LUT_3D_SIZE 2")),
        ("cut.vf", "#Inventor V2.1 ascii\ngrid_size 2 2 2\ndata\n0 0 0\n",
         4, .endsEarly(what: "data lines", found: 1, expected: 8, calledFor: "grid_size 2")),
        ("grid.vf", "#Inventor V2.1 ascii\ngrid_size 2 2\n",
         2, .wrongCount(what: "sizes after grid_size", expected: 3, found: 2)),
        ("cut.spi3d", "SPILUT 1.0\n3 3\n2 2 2\n" + (0..<7).map { "\($0 & 1) \($0 >> 1 & 1) \($0 >> 2) 0.5 0.5 0.5\n" }.joined(),
         10, .endsEarly(what: "node lines", found: 7, expected: 8, calledFor: "a 2-cube")),
        ("twelve.spimtx", "1 0 0 0\n0 1 0 0\n0 0 1\n",
         3, .wrongCount(what: "numbers (3 rows of 3 weights and an offset)", expected: 12, found: 11)),
        ("nolength.spi1d", "Version 1\nFrom 0 1\nComponents 1\n{\n0\n1\n}\n",
         4, .missing(part: "the 'Length n' line", container: nil, hint: "it comes before '{'")),
        ("open.spi1d", "Version 1\nFrom 0 1\nLength 2\nComponents 1\n{\n0\n1\n",
         7, .missing(part: "the '}' that closes the table", container: nil, hint: nil)),
        ("noslope.cc", "<ColorCorrection id=\"x\">\n<SOPNode>\n<Offset>0 0 0</Offset>\n<Power>1 1 1</Power>\n</SOPNode>\n</ColorCorrection>\n",
         2, .missing(part: "<Slope>", container: "<SOPNode>", hint: nil)),
        ("twoslope.cc", "<ColorCorrection id=\"x\">\n<SOPNode>\n<Slope>1 1</Slope>\n</SOPNode>\n</ColorCorrection>\n",
         3, .wrongCount(what: "numbers in <Slope>", expected: 3, found: 2)),
        ("noarray.clf", clfHead + "<LUT1D inBitDepth=\"32f\" outBitDepth=\"32f\">\n</LUT1D>\n</ProcessList>\n",
         3, .missing(part: "<Array>", container: "<LUT1D>", hint: "it holds the values")),
        ("threevalues.clf", clfHead + "<LUT1D inBitDepth=\"32f\" outBitDepth=\"32f\">\n<Array dim=\"2 1\">0 0.5 1</Array>\n</LUT1D>\n</ProcessList>\n",
         4, .wrongCount(what: "values in <Array> (its dimensions)", expected: 2, found: 3)),
        ("noid.clf", "<?xml version=\"1.0\"?>\n<ProcessList compCLFversion=\"3.0\">\n<Range inBitDepth=\"32f\" outBitDepth=\"32f\"/>\n</ProcessList>\n",
         2, .missing(part: "attribute id", container: "<ProcessList>", hint: "CLF requires one")),
    ]

    @Test(arguments: cases.indices)
    func eachDefectComesTypedWithItsEvidence(index: Int) throws {
        let (name, text, line, defect) = Self.cases[index]
        let folder = try TemporaryDirectory()
        let path = folder.file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let error = #expect(throws: LUTFileError.self) { try LUTReader.read(path: path) }
        #expect(error == .malformed(path: path, line: line, defect: defect), "\(String(describing: error))")
    }

    /// The words a user reads follow from the evidence.
    @Test func theMessagesSayTheCountsAndTheParts() {
        #expect(Defect.wrongCount(what: "values (red green blue)", expected: 3, found: 2).description
            == "expected 3 values (red green blue), found 2")
        #expect(Defect.endsEarly(what: "data lines", found: 3, expected: 8, calledFor: "LUT_3D_SIZE 2").description
            == "the file ends after 3 data lines; LUT_3D_SIZE 2 calls for 8")
        #expect(Defect.missing(part: "<Slope>", container: "<SOPNode>", hint: nil).description == "<SOPNode>: <Slope> is missing")
        #expect(Defect.missing(part: "the 'Length n' line", container: nil, hint: "it comes before '{'").description
            == "the 'Length n' line is missing; it comes before '{'")
    }
}
