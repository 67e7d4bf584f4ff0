import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeTransform
import Testing

@Suite struct HoudiniLUTFormatTests {
    static func header(type: String, from: String = "0.0 1.0", length: String) -> String {
        "Version\t\t3\nFormat\t\tany\nType\t\t\(type)\nFrom\t\t\(from)\nTo\t\t0.0 1.0\nBlack\t\t0\nWhite\t\t1\nLength\t\t\(length)\nLUT:\n"
    }

    static let threeDPlusOneD = header(type: "3D+1D", from: "-0.25 1.25", length: "4 5")
        + "Pre {\n\t0.0 0.2 0.5 0.85 1.0\n}\n3D {\n" + LUTTestFiles.nodes(size: 4, blueFastest: false) + "}\n"
    static let channel = header(type: "C", from: "0.0 2.0", length: "3") + "RGB {\n\t0.0\n\t0.6\n\t1.0\n}\n"
    static let threeD = header(type: "3D", length: "3") + "{\n" + LUTTestFiles.nodes(size: 3, blueFastest: false) + "}\n"

    @Test func readsEachType() throws {
        let folder = try TemporaryDirectory()
        let chain = try OCIOReference.read(Self.threeDPlusOneD, named: "a.lut", in: folder)
        #expect(chain.format.name == "houdini")
        #expect(chain.transform.operations.count == 2)
        let pre = try #require(chain.transform.operations.first as? LUT1DOp)
        // From -0.25 1.25 over 5 entries: nodes at -0.25, 0.125, 0.5, 0.875 and 1.25.
        #expect(pre.apply(SIMD3(0.5, 0.125, 1.25)) == SIMD3(0.5, 0.2, 1.0))
        let curve = try OCIOReference.read(Self.channel, named: "c.lut", in: folder)
        #expect(curve.transform.apply(SIMD3(1, 0.5, 2)) == SIMD3(0.6, 0.3, 1.0))
        #expect(try OCIOReference.read(Self.threeD, named: "d.lut", in: folder).transform.plainLattice?.size == 3)
    }

    @Test(.enabled(if: OCIOReference.ocioconvert != nil, "ocioconvert is not installed"), arguments: [8, 16])
    func matchesOpenColorIO(bitDepth: Int) throws {
        try OCIOReference.expectAgreement([("a.lut", Self.threeDPlusOneD), ("c.lut", Self.channel), ("d.lut", Self.threeD)], bitDepth: bitDepth)
    }

    @Test func writerRoundTrips() throws {
        let folder = try TemporaryDirectory()
        let cube = try ColorCube(size: 3) { v in SIMD3(v.x * 0.5, v.y, 1 - v.z) }
        let path = folder.file("w.lut")
        try LUTWriter.write(cube, format: HoudiniLUTFormat(), to: path, title: "t")
        let read = try LUTReader.read(path: path)
        #expect(read.format.name == "houdini")
        let table = try #require(read.plainTable)
        for index in 0..<27 { #expect(table.entry(at: index) == cube.entry(at: index)) }
    }

    @Test func refusesBadFiles() throws {
        let cube = LUTTestFiles.nodes(size: 2, blueFastest: false)
        let cases: [(String, Int)] = [
            ("Version 3\nFormat any\nType 3D\nFrom 0 1\nTo 0 1\nBlack 0\nWhite 1\nLength 2\n{\n" + cube + "}\n", 18),
            (Self.header(type: "3D", length: "2").replacingOccurrences(of: "Black\t\t0\n", with: "") + "{\n" + cube + "}\n", 8),
            (Self.header(type: "RGBA", length: "2") + "{\n" + cube + "}\n", 3),
            (Self.header(type: "3D", length: "300") + "{\n" + cube + "}\n", 8),
            (Self.header(type: "3D", length: "3") + "{\n" + cube + "}\n", 10),
            (Self.header(type: "3D", length: "2") + "{\n" + cube + "0 0 0\n}\n", 19),
            (Self.header(type: "3D", length: "2") + "{\n" + cube.replacingOccurrences(of: "0.100000", with: "nan") + "}\n", 11),
            (Self.header(type: "C", length: "3") + "RGB {\n0 0.5 1\n", 11),
            (Self.header(type: "C", length: "3") + "RGB [\n0 0.5 1\n]\n", 10),
            (Self.header(type: "3D+1D", length: "2") + "Pre {\n0 1\n}\n{\n" + cube + "}\n", 8),
            (Self.header(type: "3D+1D", length: "2 2") + "{\n" + cube + "}\n", 19),
            // A type C length far beyond a lattice's: checked against the values, not cubed.
            (Self.header(type: "C", length: "1000000") + "RGB {\n0 0.5 1\n}\n", 10),
        ]
        for (text, line) in cases {
            #expect(try LUTTestFiles.malformedLine(text, named: "bad.lut") == line, "\(text.prefix(120))")
        }
        if OCIOReference.ocioconvert != nil {
            for (text, _) in [cases[1], cases[2], cases[4], cases[10]] {
                #expect(try LUTTestFiles.ocioRefuses(text, named: "bad.lut"), "\(text.prefix(120))")
            }
        }
    }
}
