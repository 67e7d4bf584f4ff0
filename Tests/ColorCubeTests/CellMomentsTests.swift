@testable import ColorCubeLearner
import Testing

/// The multigrid's coarse levels built from the colours' cell moments have the matrices the
/// colours themselves give (the finest lattice's too, as a check of the moments alone).
struct CellMomentsTests {
    @Test(arguments: [33, 17])
    func coarseMatricesFromMomentsEqualThoseFromTheColours(finest: Int) throws {
        var generator = TestRandom(seed: 20_261_124)
        var colors = (0..<5000).map { _ in
            FitColor(weight: Double(1 + generator.next() % 50),
                     before: SIMD3(generator.unit(), generator.unit(), generator.unit()),
                     after: SIMD3(generator.unit(), generator.unit(), generator.unit()))
        }
        // The cube's faces and corners, where `CellPosition` clamps to the last cell.
        colors += [SIMD3(0, 0, 0), SIMD3(1, 1, 1), SIMD3(1, 0, 0.5), SIMD3(0.5, 1, 0)].map {
            FitColor(weight: 7, before: $0, after: $0)
        }
        let sizes = MultigridCycle.sizes(from: finest)
        #expect(CellMoments.nests(sizes))
        let moments = CellMoments(colors: colors, size: finest)
        let total: UInt64 = 123_456
        for size in sizes {
            let direct = NormalEquations(colors: colors, totalWeight: total, size: size)
            let fromMoments = NormalEquations(moments: moments, size: size, totalWeight: total)
            let largest = direct.matrix.map(abs).max() ?? 0
            try #require(largest > 0 && direct.matrix.count == fromMoments.matrix.count)
            let difference = zip(direct.matrix, fromMoments.matrix).map { abs($0 - $1) }.max() ?? 0
            #expect(difference <= 1e-12 * largest, "size \(size): \(difference) against entries up to \(largest)")
        }
    }

    @Test func onlyHalvingLatticesNest() {
        #expect(CellMoments.nests(MultigridCycle.sizes(from: 65)))
        #expect(!CellMoments.nests(MultigridCycle.sizes(from: 64)))
        #expect(!CellMoments.nests(MultigridCycle.sizes(from: 32)))
    }
}
