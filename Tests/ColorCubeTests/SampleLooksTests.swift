import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeGenerator
import Testing

@Suite struct SampleLooksTests {
    @Test(arguments: SampleLook.allCases)
    func everyLookStaysInRangeAndSmooth(look: SampleLook) throws {
        let cube = try look.cube(size: 64)
        let range = cube.outputRange()
        #expect(range.min.min() >= 0 && range.max.max() <= 1)
        #expect(!Roughness(measuring: cube).suggestsSpatialEdit)
        #expect(!Roughness(measuring: try look.cube(size: 16)).suggestsSpatialEdit)
        let analysis = LUTAnalysis(measuring: cube)
        #expect(!analysis.isIdentity)
        #expect(analysis.coreImageProblems.isEmpty)
    }

    @Test(arguments: [SampleLook.bwRedFilter, .infrared])
    func monochromeLooksAreGrey(look: SampleLook) {
        for colour in [SIMD3<Float>(0.9, 0.2, 0.1), SIMD3(0.1, 0.3, 0.8), SIMD3(0.5, 0.5, 0.5)] {
            let output = look.transform(colour)
            #expect(output.x == output.y && output.y == output.z)
        }
    }

    @Test func theRedFilterLightensRedsAndDarkensBlues() {
        let red = SampleLook.bwRedFilter.transform(SIMD3(0.8, 0.1, 0.1)).x
        let blue = SampleLook.bwRedFilter.transform(SIMD3(0.1, 0.2, 0.8)).x
        #expect(red > 0.6 && blue < 0.1)
    }

    @Test func infraredIsInverted() {
        #expect(SampleLook.infrared.transform(.zero) == SIMD3(repeating: 1))
        #expect(SampleLook.infrared.transform(.one) == SIMD3(repeating: 0))
    }

    @Test func tintedLooksHaveTheirColour() {
        let cyan = SampleLook.cyanotype.transform(SIMD3(repeating: 0.4))
        #expect(cyan.z > cyan.y && cyan.y > cyan.x)
        let night = SampleLook.nightVision.transform(SIMD3(repeating: 0.4))
        #expect(night.y > 2 * night.x && night.y > 2 * night.z)
        // Low contrast: neither black nor white is reached.
        #expect(SampleLook.nightVision.transform(.zero).y > 0.1)
        #expect(SampleLook.nightVision.transform(.one).y < 0.8)
    }

    @Test func namesAreFileNames() {
        for look in SampleLook.allCases {
            #expect(look.rawValue.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" })
            #expect(!look.summary.isEmpty)
        }
        #expect(SampleLook(rawValue: "bleach-bypass") == .bleachBypass)
    }

    @Test func aLatticeNeedsTwoPoints() {
        #expect(throws: CubeError.invalidSize(1)) { try SampleLook.warmFade.cube(size: 1) }
    }
}
