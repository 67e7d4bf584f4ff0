/// A multigrid V-cycle over a ladder of lattice sizes, used as the preconditioner of the
/// conjugate-gradient solve: it removes the smooth error that Jacobi-preconditioned conjugate
/// gradients reduce only slowly (the smoothness penalty makes the matrix a discrete biharmonic
/// far from the photo's colours, with a condition number growing as the fourth power of the size).
///
/// Each coarser level is the same fit on a lattice of about half the points per axis (its data
/// term from the colour tally, its penalty weight from the same smoothness), not a Galerkin
/// product: the energy is defined so that it means the same on every size. Between levels, the
/// fine lattice is the trilinear interpolation of the coarse one (`CellPosition` applied per
/// axis), and residuals go down by the transpose of that. The cycle smooths with
/// `sweeps` forward Gauss-Seidel sweeps before the coarse correction and as many backward
/// sweeps after it, and solves the coarsest level (at most 5 points per axis) exactly by
/// Cholesky, so the cycle is a fixed symmetric positive definite operator, as conjugate gradients
/// need. Everything runs in a fixed order on one thread, apart from the residual products.
final class MultigridCycle {
    /// Sweeps before and after each coarse correction. On the 24 Mpx coffee pair, one sweep
    /// needs 22 iterations and two 15, but two take longer in all.
    static let sweeps = 1
    /// The largest lattice solved directly.
    static let coarsestSize = 5

    private let levels: [LatticeOperator]
    /// Per level but the coarsest, the interpolation from the next coarser level along one axis.
    private let transfers: [AxisInterpolation]
    private let solutions: [Vector]
    private let rhs: [Vector]
    private let residuals: [Vector]
    private let coarsest: DenseCholesky

    /// Lattice sizes from `size` down to `coarsestSize` or less, finest first.
    static func sizes(from size: Int) -> [Int] {
        var sizes = [size]
        while let last = sizes.last, last > coarsestSize { sizes.append((last + 1) / 2) }
        return sizes
    }

    /// - Parameter levels: operators on the sizes of `sizes(from:)`, finest first.
    init(levels: [LatticeOperator]) {
        self.levels = levels
        transfers = zip(levels.dropLast(), levels.dropFirst()).map {
            AxisInterpolation(from: $1.grid.size, to: $0.grid.size)
        }
        solutions = levels.map { Vector($0.grid.slotCount) }
        rhs = levels.map { Vector($0.grid.slotCount) }
        residuals = levels.map { Vector($0.grid.slotCount) }
        coarsest = DenseCholesky(levels[levels.count - 1])
    }

    deinit {
        for vector in solutions + rhs + residuals { vector.deallocate() }
    }

    /// z = B r, B the cycle's approximation of the finest operator's inverse.
    func apply(_ r: Vector, into z: Vector) {
        let grid = levels[0].grid
        for run in grid.runs { for slot in run { rhs[0][slot] = r[slot] } }
        cycle(0)
        for run in grid.runs { for slot in run { z[slot] = solutions[0][slot] } }
    }

    private func cycle(_ level: Int) {
        let op = levels[level]
        let x = solutions[level], b = rhs[level]
        if level == levels.count - 1 {
            coarsest.solve(b, into: x)
            return
        }
        for run in op.grid.runs { for slot in run { x[slot] = .zero } }
        for _ in 0..<Self.sweeps { op.sweep(x, rhs: b, forward: true) }
        let residual = residuals[level]
        op.multiply(x, into: residual)
        for run in op.grid.runs { for slot in run { residual[slot] = b[slot] - residual[slot] } }
        let coarse = levels[level + 1].grid
        let coarseRhs = rhs[level + 1]
        for run in coarse.runs { for slot in run { coarseRhs[slot] = .zero } }
        transfers[level].restrict(residual, fine: op.grid, into: coarseRhs, coarse: coarse)
        cycle(level + 1)
        transfers[level].prolongAdding(solutions[level + 1], coarse: coarse, into: x, fine: op.grid)
        for _ in 0..<Self.sweeps { op.sweep(x, rhs: b, forward: false) }
    }
}
