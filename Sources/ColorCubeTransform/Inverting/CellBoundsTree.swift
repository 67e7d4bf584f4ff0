/// The cells of a lattice (the cubes between neighbouring nodes) in a tree of bounding boxes of
/// their colours, to find the cells that may hold a colour without testing them all.
///
/// Interpolating inside a cell never leaves the box spanned by its eight corner colours, so a
/// colour outside a cell's box (widened by `tolerance`) is not in that cell. Level 0 holds one box
/// per cell; each level above merges blocks of 2x2x2 boxes of the level below, up to one box.
/// `firstCell(containing:where:)` walks the tree depth first visiting the children of a block in
/// the order red, then green, then blue bit (child = r + 2g + 4b), so cells are visited in Morton
/// (Z-curve) order of their indices with blue the most significant bit: the order in which
/// OpenColorIO's inverse searches its cells, so that where several cells hold a colour (a look
/// that folds over itself) both pick the same one.
struct CellBoundsTree: Sendable {
    /// Widening of each cell's box, for rounding in the colours (OpenColorIO uses the same).
    static let tolerance = 1e-6

    /// One box per block of the level.
    struct Level: Sendable {
        /// Blocks per axis.
        let count: Int
        var low: [SIMD3<Double>]
        var high: [SIMD3<Double>]
    }

    /// Cells per axis.
    let cellsPerAxis: Int
    /// Level 0 (cells) first; the last has one block.
    let levels: [Level]

    init(_ lattice: PaddedLattice) {
        let cells = lattice.size - 1
        var levels = [Self.level(count: cells) { r, g, b in
            var low = SIMD3<Double>(repeating: .infinity), high = SIMD3<Double>(repeating: -.infinity)
            for corner in 0..<8 {
                let v = lattice.value(r + (corner & 1), g + (corner >> 1 & 1), b + (corner >> 2 & 1))
                low = pointwiseMin(low, v)
                high = pointwiseMax(high, v)
            }
            return (low - Self.tolerance, high + Self.tolerance)
        }]
        while let below = levels.last, below.count > 1 {
            levels.append(Self.level(count: (below.count + 1) / 2) { r, g, b in
                var low = SIMD3<Double>(repeating: .infinity), high = SIMD3<Double>(repeating: -.infinity)
                for child in 0..<8 {
                    let (cr, cg, cb) = (2 * r + (child & 1), 2 * g + (child >> 1 & 1), 2 * b + (child >> 2 & 1))
                    guard cr < below.count, cg < below.count, cb < below.count else { continue }
                    let index = cr + below.count * (cg + below.count * cb)
                    low = pointwiseMin(low, below.low[index])
                    high = pointwiseMax(high, below.high[index])
                }
                return (low, high)
            })
        }
        self.cellsPerAxis = cells
        self.levels = levels
    }

    /// A level of `count`^3 blocks, red fastest, each block's box given by `box`.
    private static func level(count: Int, box: (Int, Int, Int) -> (SIMD3<Double>, SIMD3<Double>)) -> Level {
        var level = Level(count: count, low: [], high: [])
        level.low.reserveCapacity(count * count * count)
        level.high.reserveCapacity(count * count * count)
        for b in 0..<count {
            for g in 0..<count {
                for r in 0..<count {
                    let (low, high) = box(r, g, b)
                    level.low.append(low)
                    level.high.append(high)
                }
            }
        }
        return level
    }

    /// The first result `accept` gives for a cell whose box holds `colour`, cells taken in Morton
    /// order; nil when no cell's box holds it or `accept` refuses every such cell.
    func firstCell<T>(containing colour: SIMD3<Double>, where accept: (SIMD3<Int>) -> T?) -> T? {
        visit(level: levels.count - 1, block: SIMD3(0, 0, 0), colour: colour, accept: accept)
    }

    private func visit<T>(level: Int, block: SIMD3<Int>, colour: SIMD3<Double>, accept: (SIMD3<Int>) -> T?) -> T? {
        let layer = levels[level]
        let index = block.x + layer.count * (block.y + layer.count * block.z)
        let low = layer.low[index], high = layer.high[index]
        guard colour.x >= low.x, colour.y >= low.y, colour.z >= low.z,
              colour.x <= high.x, colour.y <= high.y, colour.z <= high.z else { return nil }
        if level == 0 { return accept(block) }
        let below = levels[level - 1].count
        for child in 0..<8 {
            let next = block &* 2 &+ SIMD3(child & 1, child >> 1 & 1, child >> 2 & 1)
            guard next.x < below, next.y < below, next.z < below else { continue }
            if let found = visit(level: level - 1, block: next, colour: colour, accept: accept) { return found }
        }
        return nil
    }
}
