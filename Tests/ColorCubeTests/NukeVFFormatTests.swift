import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeTransform
import Testing

@Suite struct NukeVFFormatTests {
    static func file(size: Int, transform: String?) -> String {
        "#Inventor V2.1 ascii\n# a test field\ngrid_size \(size) \(size) \(size)\n"
            + (transform.map { "global_transform \($0)\n" } ?? "") + "data\n" + LUTTestFiles.nodes(size: size, blueFastest: true)
    }

    /// 1 / 4 on the diagonal of a 4-grid: OpenColorIO scales it by the grid size to the identity.
    static let identity = file(size: 4, transform: "0.25 0 0 0  0 0.25 0 0  0 0 0.25 0  0 0 0 1")
    /// A 5-grid whose transform scales inputs by 0.9 and moves red by 0.05.
    static let scaled = file(size: 5, transform: "0.18 0 0 0.05  0 0.18 0 0  0 0 0.18 0  0 0 0 1")

    @Test func readsBlueFastestWithTheGlobalTransform() throws {
        let folder = try TemporaryDirectory()
        let look = try OCIOReference.read(Self.identity, named: "a.vf", in: folder)
        #expect(look.format.name == "vf")
        let matrix = try #require(look.transform.operations.first as? MatrixOp)
        #expect(matrix.isIdentity)
        let lattice = try #require(look.transform.operations.last as? LUT3DOp)
        let entry = lattice.table.entry(at: ColorCube.redFastestIndex(r: 3, g: 0, b: 1, size: 4))
        let expected = LUTTestFiles.look(1, 0, 1.0 / 3)
        #expect(abs(Double(entry.x) - expected.x) <= 5e-7 && abs(Double(entry.z) - expected.z) <= 5e-7)
        let plain = try OCIOReference.read(Self.file(size: 2, transform: nil), named: "b.vf", in: folder)
        #expect(plain.transform.operations.count == 1)
    }

    @Test(.enabled(if: OCIOReference.ocioconvert != nil, "ocioconvert is not installed"), arguments: [8, 16])
    func matchesOpenColorIO(bitDepth: Int) throws {
        try OCIOReference.expectAgreement([("a.vf", Self.identity), ("s.vf", Self.scaled), ("p.vf", Self.file(size: 3, transform: nil))], bitDepth: bitDepth)
    }

    @Test func refusesBadFiles() throws {
        let nodes = LUTTestFiles.nodes(size: 2, blueFastest: true)
        let cases: [(String, Int)] = [
            ("#Inventor V2.1 ascii\ngrid_size 2 2 2\ndata\n" + nodes + "0 0 0\n", 12),
            ("#Inventor V2.1 ascii\ngrid_size 2 2 2\ndata\n" + nodes.split(separator: "\n").dropLast().joined(separator: "\n") + "\n", 10),
            ("#Inventor V2.1 ascii\ngrid_size 2 2 3\ndata\n" + nodes, 2),
            ("#Inventor V2.1 ascii\ngrid_size 2 2 2\nglobal_transform 1 0 0\ndata\n" + nodes, 3),
            ("Inventor\ngrid_size 2 2 2\ndata\n" + nodes, 1),
            ("#Inventor V2.1 ascii\ndata\n" + nodes, 2),
            ("#Inventor V2.1 ascii\ngrid_size 2 2 2\ndata\n0 0 nan\n", 4),
        ]
        for (text, line) in cases {
            #expect(try LUTTestFiles.malformedLine(text, named: "bad.vf") == line, "\(text.prefix(60))")
        }
        if OCIOReference.ocioconvert != nil {
            for (text, _) in cases.prefix(5) {
                #expect(try LUTTestFiles.ocioRefuses(text, named: "bad.vf"), "\(text.prefix(60))")
            }
        }
    }
}
