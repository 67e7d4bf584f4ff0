@testable import ColorCubeLearner
import Testing

/// The fit's matrices, built from the colours' cell moments on every level of the multigrid, are
/// the ones the colours themselves give: (1/P) sum_c n_c w_a w_b, summed here colour by colour.
struct CellMomentsTests {
    @Test(arguments: [33, 17])
    func matricesFromMomentsEqualThoseFromTheColours(finest: Int) throws {
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
            let direct = Self.matrix(colors: colors, totalWeight: total, size: size)
            let fromMoments = NormalEquations(moments: moments, size: size, totalWeight: total)
            let largest = direct.map(abs).max() ?? 0
            try #require(largest > 0 && direct.count == fromMoments.matrix.count)
            let difference = zip(direct, fromMoments.matrix).map { abs($0 - $1) }.max() ?? 0
            #expect(difference <= 1e-12 * largest, "size \(size): \(difference) against entries up to \(largest)")
        }
    }

    /// A ladder that does not nest (64, 32, ...) sums moments on each level's own lattice.
    @Test func matricesOfLatticesThatDoNotNest() throws {
        var generator = TestRandom(seed: 20_261_127)
        let colors = (0..<3000).map { _ in
            FitColor(weight: Double(1 + generator.next() % 20),
                     before: SIMD3(generator.unit(), generator.unit(), generator.unit()),
                     after: SIMD3(generator.unit(), generator.unit(), generator.unit()))
        }
        for size in MultigridCycle.sizes(from: 32) {
            let direct = Self.matrix(colors: colors, totalWeight: 9_000, size: size)
            let fromMoments = NormalEquations(moments: CellMoments(colors: colors, size: size), size: size,
                                              totalWeight: 9_000)
            let largest = direct.map(abs).max() ?? 0
            let difference = zip(direct, fromMoments.matrix).map { abs($0 - $1) }.max() ?? 0
            #expect(largest > 0 && difference <= 1e-12 * largest, "size \(size): \(difference) of \(largest)")
        }
    }

    /// The normal matrix as its definition sums it: for each colour, each pair of its cell's
    /// corners (a, b) adds n w_a w_b / P at a's row, in the stencil entry of b's offset from a.
    static func matrix(colors: [FitColor], totalWeight: UInt64, size: Int) -> [Double] {
        let grid = LatticeGrid(size: size)
        var matrix = [Double](repeating: 0, count: grid.slotCount * 27)
        for color in colors {
            let position = CellPosition(color.before, size: size)
            let f = position.fraction, low = 1 - f
            func weight(_ corner: Int) -> Double {
                (corner & 1 != 0 ? f.x : low.x) * (corner & 2 != 0 ? f.y : low.y) * (corner & 4 != 0 ? f.z : low.z)
            }
            for a in 0..<8 {
                let row = grid.slot(position.node.x + (a & 1), position.node.y + (a >> 1 & 1),
                                    position.node.z + (a >> 2 & 1))
                for b in 0..<8 {
                    let dr = (b & 1) - (a & 1), dg = (b >> 1 & 1) - (a >> 1 & 1), db = (b >> 2 & 1) - (a >> 2 & 1)
                    let entry = (dr + 1) + 3 * (dg + 1) + 9 * (db + 1)
                    matrix[row * 27 + entry] += color.weight * weight(a) * weight(b) / Double(totalWeight)
                }
            }
        }
        return matrix
    }

    @Test func onlyHalvingLatticesNest() {
        #expect(CellMoments.nests(MultigridCycle.sizes(from: 65)))
        #expect(!CellMoments.nests(MultigridCycle.sizes(from: 64)))
        #expect(!CellMoments.nests(MultigridCycle.sizes(from: 32)))
    }
}
