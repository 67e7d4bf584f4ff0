import ColorCubeCore
import Foundation

/// Solves for the lattice that fits the tally best, with a smoothness penalty, by conjugate
/// gradients preconditioned with a multigrid cycle.
///
/// The energy, for lattice values L (one system per output channel, the matrix shared) and a
/// prior model G evaluated at the nodes (a `GlobalModelForm`, or the identity):
///
///     (1/P) sum_c n_c |F_L(x_c) - y_c|^2  +  S (N-1) sum_axes sum |second difference of (L - G)|^2
///                                         +  eps |L - G|^2
///
/// The factor N-1 makes the penalty approximate S times the integral of the squared second
/// derivatives along red, green and blue over the unit cube, so one S means the same on every
/// lattice size. The penalty does not see affine or multilinear departures from G (they have no
/// second differences along an axis), so colours the photos never show follow the prior model's
/// curves, shifted smoothly by what the photos show beyond it; with the identity as G that is
/// straight lines. eps = 1e-9 only settles the directions nothing else fixes (say, a lattice
/// where the photos hold only greys), towards G. As the penalty is quadratic, penalising L - G
/// only adds lambda K G (and eps G) to the right-hand side; the matrix, and so the multigrid
/// levels, are unchanged.
///
/// The same energy on lattices of about half, a quarter... the points per axis makes the levels
/// of `MultigridCycle`, which preconditions conjugate gradients on the requested size (the three
/// channels at once, each with its own step lengths), started from each node's average colour
/// shift. Everything runs in Float64; sums run in a fixed order (the matrix product on all
/// cores, each node summed by one thread; sweeps and dot products on one), so the result is the
/// same bit for bit on every run.
enum LatticeSolver {
    /// The result on the requested lattice.
    struct Solution {
        /// Padded per `LatticeGrid`.
        var values: [SIMD4<Double>]
        var grid: LatticeGrid
        /// Conjugate-gradient iterations on the requested size.
        var iterations: Int

        /// The lattice's trilinear interpolation at `color`, as the engine computes it.
        func value(at color: SIMD3<Double>) -> SIMD3<Double> {
            let position = CellPosition(color, size: grid.size)
            let base = grid.slot(position.node.x, position.node.y, position.node.z)
            let low = 1 - position.fraction, f = position.fraction
            var sum = SIMD4<Double>.zero
            for corner in 0..<8 {
                let weight = (corner & 1 != 0 ? f.x : low.x) * (corner & 2 != 0 ? f.y : low.y)
                    * (corner & 4 != 0 ? f.z : low.z)
                sum += weight * values[base + grid.offset(corner & 1, corner >> 1 & 1, corner >> 2 & 1)]
            }
            return SIMD3(sum.x, sum.y, sum.z)
        }
    }

    static let ridge = 1e-9
    /// Relative residual at which the fit counts as solved. On the 24 Mpx coffee pair graded
    /// teal-orange (global-model prior), against a solve to 1e-12 the 33-cube differs by at most
    /// 0.03-0.04 codes, 0.001-0.002 on average (the two solves with matrices summed in different
    /// orders agree to 0.0003); 1e-7 takes 22 iterations there, 1e-6 17.
    static let tolerance = 1e-7

    /// - Parameter start: where conjugate gradients start (a lattice on the same grid, say the last
    ///   round's); nil starts from each node's average colour shift.
    static func solve(colors: [FitColor], totalWeight: UInt64, size: Int, smoothness: Double,
                      prior: any GlobalModelForm = ChannelCurvesModel.identity, start: [SIMD4<Double>]? = nil) -> Solution {
        let sizes = MultigridCycle.sizes(from: size)
        // Each level's matrix comes from cell moments: on lattices whose nodes are every 2^k-th
        // node of the finest (17, 33, 65 halving down) the finest level's moments give them all;
        // other ladders (64, 32) sum moments per level. The finest level's right-hand side is a
        // pass of its own over the colours, beside them on the other core.
        let nested = CellMoments.nests(sizes)
        let momentSizes = nested ? [sizes[0]] : sizes
        let summed = Locked<(moments: [CellMoments?], data: NormalEquations.DataSide?)>(
            (Array(repeating: nil, count: momentSizes.count), nil))
        ParallelLoop.run(iterations: momentSizes.count + 1) { task in
            if task == 0 {
                let data = NormalEquations.DataSide(colors: colors, totalWeight: totalWeight, size: sizes[0], base: prior)
                summed.withLock { $0.data = data }
            } else {
                let moments = CellMoments(colors: colors, size: momentSizes[task - 1])
                summed.withLock { $0.moments[task - 1] = moments }
            }
        }
        let (moments, data) = summed.withLock { ($0.moments.compactMap { $0 }, $0.data) }
        let built = Locked<[NormalEquations?]>(Array(repeating: nil, count: sizes.count))
        ParallelLoop.run(iterations: sizes.count) { index in
            let equations = NormalEquations(moments: moments[nested ? 0 : index], size: sizes[index],
                                            totalWeight: totalWeight, data: index == 0 ? data : nil)
            built.withLock { $0[index] = equations }
        }
        let levels = built.withLock { $0 }.compactMap { $0 }.map { LatticeOperator($0, smoothness: smoothness) }
        let cycle = MultigridCycle(levels: levels)
        let finest = levels[0]
        let last = Double(finest.grid.size - 1)
        var model = [SIMD4<Double>](repeating: .zero, count: finest.grid.slotCount)
        finest.grid.forEachNode { slot, r, g, b in
            model[slot] = prior(SIMD3(Double(r) / last, Double(g) / last, Double(b) / last))
        }
        let (values, count) = conjugateGradients(finest, preconditioner: cycle,
                                                 start: start ?? finest.equations.averageGuess,
                                                 prior: model)
        return Solution(values: values, grid: finest.grid, iterations: count)
    }

    /// Preconditioned conjugate gradients on the three channels at once (each with its own step
    /// lengths). Returns the solution and the iteration count.
    /// `prior` holds the prior model's value at each node (padded like the lattice): the
    /// smoothness term and the ridge penalise the departure from it.
    static func conjugateGradients(_ op: LatticeOperator, preconditioner: MultigridCycle,
                                   start: [SIMD4<Double>], prior: [SIMD4<Double>]) -> ([SIMD4<Double>], Int) {
        let grid = op.grid
        let n = grid.size
        let count = grid.slotCount
        // Work vectors over the padded lattice; the ghost slots stay zero throughout.
        let b = Vector(count), x = Vector(count), r = Vector(count), z = Vector(count), p = Vector(count), q = Vector(count)
        defer {
            for v in [b, x, r, z, p, q] { v.deallocate() }
        }
        // K (L - G) in place of K L: the right-hand side gains K G, and the ridge pulls towards G.
        let pulled = op.penaltyProduct(prior)
        grid.forEachNode { slot, _, _, _ in
            b[slot] = op.equations.rhs[slot] + pulled[slot] + ridge * prior[slot]
            x[slot] = start[slot]
        }
        let runs = grid.runs
        op.multiply(x, into: q)
        var bb = SIMD4<Double>.zero
        for run in runs {
            for slot in run {
                r[slot] = b[slot] - q[slot]
                bb += b[slot] * b[slot]
            }
        }
        preconditioner.apply(r, into: z)
        var rz = SIMD4<Double>.zero
        for run in runs {
            for slot in run {
                p[slot] = z[slot]
                rz += r[slot] * z[slot]
            }
        }
        let limit = (tolerance * tolerance) * bb
        let maximum = 4 * n + 100
        var iteration = 0
        while iteration < maximum {
            var rr = SIMD4<Double>.zero
            for run in runs { for slot in run { rr += r[slot] * r[slot] } }
            if all((rr .<= limit) .| (bb .== 0)) { break }
            iteration += 1
            op.multiply(p, into: q)
            var pq = SIMD4<Double>.zero
            for run in runs { for slot in run { pq += p[slot] * q[slot] } }
            let alpha = (rz / pq).replacing(with: 0, where: pq .== 0)
            for run in runs {
                for slot in run {
                    x[slot] += alpha * p[slot]
                    r[slot] -= alpha * q[slot]
                }
            }
            preconditioner.apply(r, into: z)
            var rzNext = SIMD4<Double>.zero
            for run in runs { for slot in run { rzNext += r[slot] * z[slot] } }
            let beta = (rzNext / rz).replacing(with: 0, where: rz .== 0)
            rz = rzNext
            for run in runs { for slot in run { p[slot] = z[slot] + beta * p[slot] } }
        }
        return (Array(UnsafeBufferPointer(start: x.base, count: count)), iteration)
    }
}
