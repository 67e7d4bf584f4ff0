import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeTransform
import Foundation
import Testing

@Suite struct PandoraFormatTests {
    static func file(size: Int, out: Int) -> String {
        var index = -1
        return "# a Pandora LUT\nchannel 3d\nin \(size * size * size)\nout \(out)\nformat lut\nvalues red green blue\n"
            + LUTTestFiles.nodes(size: size, blueFastest: true, prefix: { _, _, _ in index += 1; return "\(index) " }, value: { rgb in
                (0..<3).map { String(Int((rgb[$0] * Double(out - 1)).rounded())) }.joined(separator: " ")
            })
    }

    @Test func readsCodesOverOutMinusOne() throws {
        let folder = try TemporaryDirectory()
        let look = try OCIOReference.read(Self.file(size: 3, out: 4096), named: "a.m3d", in: folder)
        #expect(look.format.name == "m3d")
        let lattice = try #require(look.transform.plainLattice)
        let entry = lattice.table.entry(at: ColorCube.redFastestIndex(r: 2, g: 1, b: 0, size: 3))
        let expected = LUTTestFiles.look(1, 0.5, 0)
        #expect(entry.y == Float((expected.y * 4095).rounded()) / 4095)
    }

    @Test(.enabled(if: OCIOReference.ocioconvert != nil, "ocioconvert is not installed"), arguments: [8, 16])
    func matchesOpenColorIO(bitDepth: Int) throws {
        try OCIOReference.expectAgreement([("a.m3d", Self.file(size: 5, out: 4096)), ("b.m3d", Self.file(size: 2, out: 256))], bitDepth: bitDepth)
    }

    @Test func writerRoundTrips() throws {
        let folder = try TemporaryDirectory()
        let cube = try ColorCube(size: 3) { v in SIMD3(v.x * 0.5, v.y, 1 - v.z) }
        let path = folder.file("w.m3d")
        try LUTWriter.write(cube, format: PandoraFormat(), to: path, title: "t")
        let table = try #require(try LUTReader.read(path: path).plainTable)
        for index in 0..<27 {
            let a = cube.entry(at: index), b = table.entry(at: index)
            #expect(abs(a.x - b.x) <= 0.5 / 4095 + 1e-7 && abs(a.z - b.z) <= 0.5 / 4095 + 1e-7)
        }
    }

    @Test func refusesBadFiles() throws {
        let good = Self.file(size: 2, out: 256)
        let cases: [(String, Int)] = [
            (good.replacingOccurrences(of: "in 8", with: "in 9"), 3),
            (good.replacingOccurrences(of: "channel 3d", with: "channel 1d"), 2),
            (good.replacingOccurrences(of: "format lut", with: "format image"), 5),
            (good.replacingOccurrences(of: "values red green blue", with: "values blue green red"), 6),
            (good.replacingOccurrences(of: "out 256\n", with: ""), 13),
            (good + "8 0 0 0\n", 15),
            (good.split(separator: "\n").dropLast().joined(separator: "\n") + "\n", 13),
            (good.replacingOccurrences(of: "\n3 ", with: "\n3 1.5 "), 10),
        ]
        for (text, line) in cases {
            #expect(try LUTTestFiles.malformedLine(text, named: "bad.m3d") == line, "\(text)")
        }
        if OCIOReference.ocioconvert != nil {
            for (text, _) in cases.prefix(6) {
                #expect(try LUTTestFiles.ocioRefuses(text, named: "bad.m3d"), "\(text)")
            }
        }
    }
}
