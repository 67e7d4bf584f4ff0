import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeTransform
import Testing

@Suite struct Spi3DFormatTests {
    static func file(size: Int) -> String {
        "SPILUT 1.0\n3 3\n\(size) \(size) \(size)\n"
            + LUTTestFiles.nodes(size: size, blueFastest: true, prefix: { "\($0) \($1) \($2) " })
    }

    @Test func readsNodesByTheirIndices() throws {
        let folder = try TemporaryDirectory()
        // Nodes in a shuffled order: the indices place them.
        let lines = Self.file(size: 3).split(separator: "\n").map(String.init)
        let text = (lines.prefix(3) + lines.dropFirst(3).reversed()).joined(separator: "\n") + "\n"
        let look = try OCIOReference.read(text, named: "shuffled.spi3d", in: folder)
        #expect(look.format.name == "spi3d")
        let lattice = try #require(look.transform.plainLattice)
        let expected = LUTTestFiles.look(0.5, 0, 1)
        let entry = lattice.table.entry(at: ColorCube.redFastestIndex(r: 1, g: 0, b: 2, size: 3))
        #expect(abs(Double(entry.x) - expected.x) <= 5e-7 && abs(Double(entry.y) - expected.y) <= 5e-7 && abs(Double(entry.z) - expected.z) <= 5e-7)
    }

    @Test(.enabled(if: OCIOReference.ocioconvert != nil, "ocioconvert is not installed"), arguments: [8, 16])
    func matchesOpenColorIO(bitDepth: Int) throws {
        let folder = try TemporaryDirectory()
        let path = try OCIOReference.write(Self.file(size: 5), named: "look.spi3d", in: folder)
        let agreement = try OCIOReference.compare(LUTReader.read(path: path), lutPath: path, bitDepth: bitDepth)
        #expect(agreement.isWithinGoals, "\(agreement)")
    }

    @Test func writerRoundTrips() throws {
        let folder = try TemporaryDirectory()
        let cube = try ColorCube(size: 4) { v in SIMD3(v.x * v.x, 0.5 * v.y + 0.2, 1 - v.z) }
        let path = folder.file("written.spi3d")
        try LUTWriter.write(cube, format: Spi3DFormat(), to: path, title: "t")
        let read = try #require(try LUTReader.read(path: path).plainTable)
        for index in 0..<64 {
            let a = cube.entry(at: index), b = read.entry(at: index)
            #expect(abs(a.x - b.x) <= 5e-7 && abs(a.y - b.y) <= 5e-7 && abs(a.z - b.z) <= 5e-7)
        }
        if OCIOReference.ocioconvert != nil {
            let agreement = try OCIOReference.compare(LUTReader.read(path: path), lutPath: path, bitDepth: 8)
            #expect(agreement.isWithinGoals, "\(agreement)")
        }
    }

    @Test func refusesBadFiles() throws {
        let head = "SPILUT 1.0\n3 3\n2 2 2\n"
        let full = LUTTestFiles.nodes(size: 2, blueFastest: true, prefix: { "\($0) \($1) \($2) " })
        let lines = full.split(separator: "\n").map(String.init)
        let cases: [(String, Int)] = [
            ("LUT 1.0\n3 3\n2 2 2\n" + full, 1),
            ("SPILUT 1.0\n3 3\n2 2 3\n" + full, 3),
            ("SPILUT 1.0\n3 3\n300 300 300\n" + full, 3),
            ("SPILUT 1.0\n3 3\n200 200 200\n" + full, 3),
            (head + lines.dropLast().joined(separator: "\n") + "\n", 10),
            (head + lines.dropLast().joined(separator: "\n") + "\n" + lines[0] + "\n", 11),
            (head + "0 0 2 0 0 0\n" + full, 4),
            (head + "0 0 0 0 0\n" + full, 4),
            (head + "0 0 0 nan 0 0\n" + full, 4),
        ]
        for (text, line) in cases {
            #expect(try LUTTestFiles.malformedLine(text, named: "bad.spi3d") == line, "\(text.prefix(60))")
        }
        if OCIOReference.ocioconvert != nil {
            for (text, _) in [cases[0], cases[1], cases[4], cases[5], cases[6]] {
                #expect(try LUTTestFiles.ocioRefuses(text, named: "bad.spi3d"), "\(text.prefix(60))")
            }
        }
    }
}
