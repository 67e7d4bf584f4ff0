/// The least-squares data term of a fit on one lattice size, from the colour tally.
///
/// For a colour c of tally weight n_c (its pixels' weights summed, see `ColorTally`) with mean
/// before x_c and mean after y_c, the look's output is sum_k w_k(x_c) L_k over the 8 corners of
/// its cell, so the data term (1/P) sum_c n_c |sum_k w_k L_k - y_c|^2 (P the total weight) has
/// the normal matrix
/// (1/P) sum_c n_c w_a w_b and right-hand side (1/P) sum_c n_c w_a y_c. A node couples only to the
/// 26 around it, so the matrix is stored as a 27-point stencil per node (index
/// (dr+1) + 3 (dg+1) + 9 (db+1)); the three output channels share it.
struct NormalEquations {
    let grid: LatticeGrid
    /// 27 values per slot.
    private(set) var matrix: [Double]
    /// Right-hand side per slot, red, green, blue and a zero lane; empty on a multigrid's coarse
    /// levels, which need only the matrix.
    private(set) var rhs: [SIMD4<Double>]
    /// A starting point (see `DataSide`); empty where `rhs` is.
    private(set) var averageGuess: [SIMD4<Double>]

    /// Stencil index of corner b seen from corner a (corners numbered red 1, green 2, blue 4).
    private static let cornerStencil: [Int] = (0..<64).map { pair in
        let a = pair / 8, b = pair % 8
        let dr = (b & 1) - (a & 1), dg = (b >> 1 & 1) - (a >> 1 & 1), db = (b >> 2 & 1) - (a >> 2 & 1)
        return (dr + 1) + 3 * (dg + 1) + 9 * (db + 1)
    }

    /// The equations on a lattice of `size`: the matrix from `moments` (summed on this lattice or
    /// on a finer one whose every 2^k-th node is one of these, see `CellMoments`), and the
    /// right-hand side and starting point from `data` (nil on a coarse level, whose two stay empty).
    init(moments: CellMoments, size: Int, totalWeight: UInt64, data: DataSide? = nil) {
        grid = LatticeGrid(size: size)
        matrix = Self.matrix(moments: moments, grid: grid, totalWeight: totalWeight)
        rhs = data?.rhs ?? []
        averageGuess = data?.averageGuess ?? []
    }

    /// What the colours give a lattice besides the matrix: the right-hand side (1/P) sum_c n_c w_a
    /// y_c, and a starting point: each node's colour under the base model moved by the weighted
    /// mean of (after - base(before)) over the colours around it, base(before) read by trilinear
    /// interpolation of the base model at the nodes (exact for the model's curves where their
    /// knots are nodes, and a starting point needs no more); nodes without data keep the base
    /// model. One pass over the colours, 8 corners each; the matrix's 64 products per colour come
    /// from the cell moments instead, summed alongside on another core.
    struct DataSide {
        let rhs: [SIMD4<Double>]
        let averageGuess: [SIMD4<Double>]

        init(colors: [FitColor], totalWeight: UInt64, size: Int, base model: any GlobalModelForm = ChannelCurvesModel.identity) {
            let grid = LatticeGrid(size: size)
            // Raw buffers: every index is in range by construction (a colour's cell lies inside
            // the lattice), and arrays' bounds checks were most of the loop's time.
            let rhs = NormalEquations.buffer(SIMD4<Double>.zero, grid.slotCount)
            let shift = NormalEquations.buffer(SIMD4<Double>.zero, grid.slotCount)
            let shiftWeight = NormalEquations.buffer(0.0, grid.slotCount)
            let prior = NormalEquations.buffer(SIMD4<Double>.zero, grid.slotCount)
            defer {
                shiftWeight.deallocate()
                for buffer in [rhs, shift, prior] { buffer.deallocate() }
            }
            let last = Double(size - 1)
            grid.forEachNode { slot, r, g, b in
                prior[slot] = model(SIMD3(Double(r) / last, Double(g) / last, Double(b) / last))
            }
            let corners = SIMD8<Int>((0..<8).map { grid.offset($0 & 1, $0 >> 1 & 1, $0 >> 2 & 1) })
            var weights = SIMD8<Double>()
            for color in colors {
                let n = color.weight
                let after = SIMD4(color.after, 0)
                let position = CellPosition(color.before, size: size)
                let node = position.node
                let low = 1 - position.fraction, f = position.fraction
                for corner in 0..<8 {
                    weights[corner] = (corner & 1 != 0 ? f.x : low.x) * (corner & 2 != 0 ? f.y : low.y)
                        * (corner & 4 != 0 ? f.z : low.z)
                }
                let base = grid.slot(node.x, node.y, node.z)
                var modelled = SIMD4<Double>.zero
                for a in 0..<8 { modelled += weights[a] * prior[base &+ corners[a]] }
                let offsetAfter = after - modelled
                for a in 0..<8 {
                    let wa = n * weights[a]
                    let slot = base &+ corners[a]
                    rhs[slot] += wa * after
                    shift[slot] += wa * offsetAfter
                    shiftWeight[slot] += wa
                }
            }
            let perPixel = 1 / Double(max(totalWeight, 1))
            self.rhs = rhs.map { $0 * perPixel }
            var guess = [SIMD4<Double>](repeating: .zero, count: grid.slotCount)
            grid.forEachNode { slot, _, _, _ in
                guess[slot] = shiftWeight[slot] > 0 ? prior[slot] + shift[slot] / shiftWeight[slot] : prior[slot]
            }
            averageGuess = guess
        }
    }

    /// The normal matrix (1/P) sum_c n_c w_a w_b on `grid`, from cell moments summed on it or on
    /// a finer lattice whose every 2^k-th node is one of its nodes: each cell's products follow
    /// from its 27 moments (`CellMoments.contract`), so the colours are read once for all levels.
    /// Equal to the sums over the colours up to rounding (`CellMomentsTests`).
    private static func matrix(moments: CellMoments, grid: LatticeGrid, totalWeight: UInt64) -> [Double] {
        let cells = moments.size - 1
        let scale = cells / (grid.size - 1)
        let perPixel = 1 / Double(max(totalWeight, 1))
        let corners = (0..<8).map { grid.offset($0 & 1, $0 >> 1 & 1, $0 >> 2 & 1) }
        // Per corner pair (a, b): where its product goes in a's row, and which of the 27.
        let pairs = (0..<64).map { pair -> (target: Int, product: Int) in
            let a = pair / 8, b = pair % 8
            let product = ((a & 1) + (b & 1)) + 3 * ((a >> 1 & 1) + (b >> 1 & 1)) + 9 * ((a >> 2 & 1) + (b >> 2 & 1))
            return (corners[a] * 27 + Self.cornerStencil[pair], product)
        }
        let products = (0..<scale).flatMap { CellMoments.products(offset: $0, scale: scale) }
        var matrix = [Double](repeating: 0, count: grid.slotCount * 27)
        var work = [Double](repeating: 0, count: 27 + 54)
        moments.moments.withUnsafeBufferPointer { m in
            products.withUnsafeBufferPointer { q in
                matrix.withUnsafeMutableBufferPointer { out in
                    work.withUnsafeMutableBufferPointer { w in
                        guard let m = m.baseAddress, let q = q.baseAddress, let out = out.baseAddress,
                              let sums = w.baseAddress else { return }
                        for cz in 0..<cells {
                            for cy in 0..<cells {
                                for cx in 0..<cells {
                                    let cell = (cx + cells * (cy + cells * cz)) * 27
                                    guard m[cell] > 0 else { continue }
                                    CellMoments.contract(m + cell, x: q + 3 * (cx % scale), y: q + 3 * (cy % scale),
                                                         z: q + 3 * (cz % scale), scratch: sums + 27, into: sums)
                                    let row = out + grid.slot(cx / scale, cy / scale, cz / scale) * 27
                                    for pair in pairs { row[pair.target] += sums[pair.product] * perPixel }
                                }
                            }
                        }
                    }
                }
            }
        }
        return matrix
    }

    /// A buffer of `count` copies of `value` (the caller deallocates it).
    private static func buffer<T>(_ value: T, _ count: Int) -> UnsafeMutableBufferPointer<T> {
        let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: count)
        buffer.initialize(repeating: value)
        return buffer
    }
}
