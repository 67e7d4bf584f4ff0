import ColorCubeCore
import Testing

@Suite struct HaldLayoutTests {
    @Test(arguments: [(4, 8), (16, 64), (64, 512), (256, 4096)])
    func referenceSides(size: Int, side: Int) throws {
        let layout = try HaldLayout(cubeSize: size)
        #expect(layout.side == side)
        #expect(HaldLayout(side: side)?.cubeSize == size)
    }

    @Test func rejectsNonSquareSizes() {
        #expect(throws: CubeError.invalidSize(33)) { try HaldLayout(cubeSize: 33) }
        #expect(HaldLayout(side: 100) == nil)
    }
}
