import CLittleCMS
import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import Testing

@Suite struct LUTAnalysisTests {
    @Test func theIdentityIsRecognised() throws {
        let analysis = LUTAnalysis(measuring: try ColorCube.identity(size: 17))
        #expect(analysis.isIdentity)
        #expect(analysis.meanDeltaE == 0)
        #expect(analysis.maxDeltaE == 0)
        #expect(analysis.outputMin == SIMD3(repeating: 0))
        #expect(analysis.outputMax == SIMD3(repeating: 1))
        #expect(analysis.coreImageProblems.isEmpty)
        #expect(!analysis.roughness.suggestsSpatialEdit)
    }

    @Test func anEightBitReferenceCountsAsTheIdentity() throws {
        // Half a code value of rounding is what an 8-bit identity reference carries.
        let rounded = try ColorCube(size: 64) { ($0 * 255).rounded(.toNearestOrAwayFromZero) / 255 }
        #expect(LUTAnalysis(measuring: rounded).isIdentity)
        let shifted = try ColorCube(size: 64) { pointwiseMin($0 + SIMD3(repeating: 1.0 / 255), SIMD3(repeating: 1)) }
        #expect(!LUTAnalysis(measuring: shifted).isIdentity)
    }

    /// The figure is the shared CIEDE2000 (D65, checked against Sharma's test pairs in the learner's
    /// tests); Little CMS, which compares in D50 after adaptation, agrees to a few tenths.
    @Test func oneChangedNodeGivesItsCIEDE2000Difference() throws {
        var cube = try ColorCube.identity(size: 3)
        let index = ColorCube.redFastestIndex(r: 1, g: 1, b: 1, size: 3)
        cube.withUnsafeMutableValues { values in
            values[4 * index] = 0.75  // (0.5, 0.5, 0.5) becomes (0.75, 0.5, 0.5)
        }
        let analysis = LUTAnalysis(measuring: cube)
        let expected = CIEDE2000.difference(sRGB: SIMD3(0.5, 0.5, 0.5), SIMD3(0.75, 0.5, 0.5))
        #expect(expected > 10)
        #expect(abs(try Self.deltaE(SIMD3(0.5, 0.5, 0.5), SIMD3(0.75, 0.5, 0.5)) - expected) < 0.5)
        #expect(abs((analysis.maxDeltaE ?? 0) - expected) < 1e-9)
        #expect(abs((analysis.meanDeltaE ?? 0) - expected / 27) < 1e-9)
        #expect(abs(analysis.largestIdentityDeviation - 0.25) < 1e-7)
    }

    @Test func outOfRangeAndLargeCubesAreNotForCoreImage() throws {
        let hot = try ColorCube(size: 4) { $0 * 1.2 - 0.1 }
        let analysis = LUTAnalysis(measuring: hot)
        #expect(analysis.hasValuesOutsideUnitRange)
        #expect(analysis.coreImageProblems == [.valuesOutsideUnitRange])
        #expect(abs(analysis.outputMin.x - -0.1) < 1e-6 && abs(analysis.outputMax.z - 1.1) < 1e-6)
        let large = LUTAnalysis(measuring: try IdentityTable(size: 65))
        #expect(large.coreImageProblems == [.tooLarge(size: 65)])
        #expect(large.coreImageProblems.map(\.description) == ["size 65 is above 64"])
    }

    @Test func nonFiniteEntriesAreCounted() throws {
        var cube = try ColorCube.identity(size: 2)
        cube.withUnsafeMutableValues { $0[0] = .nan; $0[5] = .infinity }
        let analysis = LUTAnalysis(measuring: cube)
        #expect(analysis.nonFiniteCount == 2)
        #expect(!analysis.isIdentity)
        #expect(analysis.hasValuesOutsideUnitRange)
    }

    @Test func largeCubesAreMeasuredOnAnEvenSubset() throws {
        #expect(LUTAnalysis.deltaEIndices(size: 64) == Array(0..<64))
        let picks = LUTAnalysis.deltaEIndices(size: 256)
        #expect(picks.count == 65 && picks.first == 0 && picks.last == 255)
        // The subset's figures agree with the full lattice's for a smooth look.
        let transform: (SIMD3<Float>) -> SIMD3<Float> = { SIMD3($0.x * $0.x, $0.y, 1 - $0.z * 0.5) }
        let small = LUTAnalysis(measuring: try ColorCube(size: 65, sampling: transform))
        let large = LUTAnalysis(measuring: try ColorCube(size: 129, sampling: transform))
        #expect(abs((small.meanDeltaE ?? 0) - (large.meanDeltaE ?? 0)) < 0.05)
    }

    static func deltaE(_ a: SIMD3<Float>, _ b: SIMD3<Float>) throws -> Double {
        let srgb = try #require(cmsCreate_sRGBProfile())
        defer { cmsCloseProfile(srgb) }
        let lab = try #require(cmsCreateLab4Profile(nil))
        defer { cmsCloseProfile(lab) }
        let transform = try #require(cmsCreateTransform(srgb, CCMS_TYPE_RGB_FLT, lab, CCMS_TYPE_Lab_DBL,
                                                        CCMS_INTENT_RELATIVE_COLORIMETRIC, 0))
        defer { cmsDeleteTransform(transform) }
        var first = cmsCIELab(), second = cmsCIELab()
        var input = [a.x, a.y, a.z]
        cmsDoTransform(transform, &input, &first, 1)
        input = [b.x, b.y, b.z]
        cmsDoTransform(transform, &input, &second, 1)
        return cmsCIE2000DeltaE(&first, &second, 1, 1, 1)
    }
}
