import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeTransform
import Testing

@Suite struct SpiMtxFormatTests {
    static let matrix = "0.9 0.1 0.0 3276.75\n0.05 0.9 0.05 0\n0.0 0.2 0.8 -655.35\n"

    @Test func offsetsAreSixteenBitCodes() throws {
        let folder = try TemporaryDirectory()
        let look = try OCIOReference.read(Self.matrix, named: "m.spimtx", in: folder)
        #expect(look.format.name == "spimtx")
        let out = look.transform.apply(SIMD3(0.5, 0.5, 0.5))
        #expect(abs(out.x - 0.55) < 1e-12 && abs(out.y - 0.5) < 1e-12 && abs(out.z - 0.49) < 1e-12)
    }

    @Test(.enabled(if: OCIOReference.ocioconvert != nil, "ocioconvert is not installed"), arguments: [8, 16])
    func matchesOpenColorIO(bitDepth: Int) throws {
        let folder = try TemporaryDirectory()
        let path = try OCIOReference.write(Self.matrix, named: "m.spimtx", in: folder)
        let agreement = try OCIOReference.compare(LUTReader.read(path: path), lutPath: path, bitDepth: bitDepth)
        #expect(agreement.isWithinGoals, "\(agreement)")
    }

    @Test func refusesBadFiles() throws {
        #expect(try LUTTestFiles.malformedLine("1 0 0 0\n0 1 0 0\n0 0 1\n", named: "short.spimtx") == 3)
        #expect(try LUTTestFiles.malformedLine("1 0 0 0\n0 1 0 0\n0 0 1 0 7\n", named: "long.spimtx") == 3)
        #expect(try LUTTestFiles.malformedLine("1 0 0 0\n0 one 0 0\n0 0 1 0\n", named: "word.spimtx") == 2)
        #expect(try LUTTestFiles.malformedLine("1 0 0 0\n0 1 0 0\n0 0 nan 0\n", named: "nan.spimtx") == 3)
        if OCIOReference.ocioconvert != nil {
            #expect(try LUTTestFiles.ocioRefuses("1 0 0 0\n0 1 0 0\n0 0 1\n", named: "short.spimtx"))
            #expect(try LUTTestFiles.ocioRefuses("1 0 0 0\n0 1 0 0\n0 0 1 0 7\n", named: "long.spimtx"))
        }
    }
}
