import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeTransform
import Testing

/// The .cube writer's chain forms (Resolve's 1D shaper then 3D table, a 1D table alone, a 3D
/// table over its own domain) and .itx, read by the .cube reader.
@Suite struct CubeShaperWriterTests {
    static func shaperLook() throws -> Look {
        let shaper = try LUT1DOp(entries: (0..<9).map { index in
            let x = Double(index) / 8
            return SIMD3(x.squareRoot(), x * x, x)
        }, inputRange: -0.25...2)
        let table = try ColorCube(size: 5) { v in SIMD3(v.x * 0.8 + 0.1, v.y * v.y, 1 - v.z * 0.5) }
        let lattice = try LUT3DOp(table: table, domainMin: SIMD3(repeating: 0), domainMax: SIMD3(repeating: 1.5))
        return Look(transform: Transform([shaper, lattice]), format: CinespaceFormat())
    }

    @Test func shaperAndLatticeAreWrittenWithoutBaking() throws {
        let folder = try TemporaryDirectory()
        let look = try Self.shaperLook()
        let path = folder.file("shaper.cube")
        let report = try LUTWriter.write(look, format: CubeTextFormat(), to: path, title: "shaper")
        #expect(report.size == nil && report.bakingError == nil)
        let text = String(decoding: try BinaryFile.readAll(path: path), as: UTF8.self)
        #expect(text.hasPrefix("# shaper\nLUT_1D_SIZE 9\nLUT_1D_INPUT_RANGE -0.25 2.0\nLUT_3D_SIZE 5\nLUT_3D_INPUT_RANGE 0.0 1.5\n"))
        let read = try LUTReader.read(path: path)
        #expect(read.transform.operations.count == 2)
        for rgb in [SIMD3(0.1, 0.5, 0.9), SIMD3(-1, 3, 0.3), SIMD3(1.2, 0.7, 0.05)] {
            #expect((read.transform.apply(rgb) - look.transform.apply(rgb)).magnitudeMax < 2e-6, "\(rgb)")
        }
        if OCIOReference.ocioconvert != nil {
            for bitDepth in [8, 16] {
                let agreement = try OCIOReference.compare(read, lutPath: path, bitDepth: bitDepth)
                #expect(agreement.isWithinGoals, "\(agreement)")
            }
        }
    }

    @Test func oneDTableAloneAndDomainKeepTheirForm() throws {
        let folder = try TemporaryDirectory()
        let oneD = try LUT1DOp(entries: [SIMD3(0, 0.1, 0.2), SIMD3(1, 0.9, 0.8)], inputRange: 0...4)
        let path = folder.file("one.cube")
        try LUTWriter.write(Look(transform: Transform([oneD]), format: CubeTextFormat()), format: CubeTextFormat(), to: path, title: "one")
        let read = try LUTReader.read(path: path)
        #expect(read.transform.operations.count == 1 && read.transform.operations[0] is LUT1DOp)
        #expect((read.transform.apply(SIMD3(2, 2, 2)) - SIMD3(0.5, 0.5, 0.5)).magnitudeMax < 1e-6)

        let table = try ColorCube(size: 3) { v in SIMD3(v.z, v.y, v.x) }
        let lattice = try LUT3DOp(table: table, domainMin: SIMD3(-1, 0, 0), domainMax: SIMD3(2, 1, 4))
        let domainPath = folder.file("domain.cube")
        try LUTWriter.write(Look(transform: Transform([lattice]), format: CubeTextFormat()), format: CubeTextFormat(), to: domainPath, title: "d")
        let domain = try #require(try LUTReader.read(path: domainPath).transform.operations.first as? LUT3DOp)
        #expect(domain.domainMin == SIMD3(-1, 0, 0) && domain.domainMax == SIMD3(2, 1, 4))
    }

    @Test func unevenShaperIsBaked() throws {
        let uneven = try LUT1DOp(curves: [Curve(inputs: .points([0, 0.3, 1]), outputs: [0, 0.5, 1]), Curve.identity(), Curve.identity()])
        let table = try ColorCube.identity(size: 3)
        let look = Look(transform: Transform([uneven, LUT3DOp(table: table)]), format: CinespaceFormat())
        #expect(!CubeTextFormat().holdsExactly(look.transform))
        let folder = try TemporaryDirectory()
        let report = try LUTWriter.write(look, format: CubeTextFormat(), to: folder.file("baked.cube"), title: "b")
        #expect(report.size != nil)
    }

    @Test(.enabled(if: OCIOReference.ocioconvert != nil, "ocioconvert is not installed"))
    func itxMatchesOpenColorIO() throws {
        let folder = try TemporaryDirectory()
        let text = "# an Iridas .itx\nLUT_3D_SIZE 4\n" + LUTTestFiles.nodes(size: 4, blueFastest: false)
        let path = try OCIOReference.write(text, named: "look.itx", in: folder)
        let look = try LUTReader.read(path: path)
        #expect(look.transform.plainLattice?.size == 4)
        let agreement = try OCIOReference.compare(look, lutPath: path, bitDepth: 8)
        #expect(agreement.isWithinGoals, "\(agreement)")
    }
}
