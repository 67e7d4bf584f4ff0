import ColorCubeCore
import Foundation

/// Solves for the lattice that fits the tally best, with a smoothness penalty, by conjugate
/// gradients preconditioned with a multigrid cycle.
///
/// The energy, for lattice values L (one system per output channel, the matrix shared):
///
///     (1/P) sum_c n_c |F_L(x_c) - y_c|^2  +  S (N-1) sum_axes sum |second difference of L|^2
///                                         +  eps |L - identity|^2
///
/// The factor N-1 makes the penalty approximate S times the integral of the squared second
/// derivatives along red, green and blue over the unit cube, so one S means the same on every
/// lattice size. The penalty does not see affine or multilinear colour maps (they have no second
/// differences along an axis), so colours the photos never show are extended smoothly from the
/// ones they do; eps = 1e-9 only settles the directions nothing else fixes (say, a lattice where
/// the photos hold only greys), towards the identity.
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
    }

    static let ridge = 1e-9
    /// Relative residual at which the fit counts as solved. On the 24 Mpx coffee pair graded
    /// teal-orange, against a solve to 1e-12 the 33-cube differs by at most 0.0008 codes (0.01 at
    /// 1e-6, 0.05 at 1e-5); 1e-7 takes 22 iterations there, 1e-6 17.
    static let tolerance = 1e-7

    static func solve(tally: [ColorTally.Entry], totalWeight: UInt64, size: Int, smoothness: Double) -> Solution {
        let sizes = MultigridCycle.sizes(from: size)
        // The levels' data terms are independent sums over the tally: built side by side.
        let built = Locked<[NormalEquations?]>(Array(repeating: nil, count: sizes.count))
        ParallelLoop.run(iterations: sizes.count) { index in
            let equations = NormalEquations(tally: tally, totalWeight: totalWeight, size: sizes[index])
            built.withLock { $0[index] = equations }
        }
        let levels = built.withLock { $0 }.compactMap { $0 }.map { LatticeOperator($0, smoothness: smoothness) }
        let cycle = MultigridCycle(levels: levels)
        let finest = levels[0]
        let (values, count) = conjugateGradients(finest, preconditioner: cycle, start: finest.equations.averageGuess)
        return Solution(values: values, grid: finest.grid, iterations: count)
    }

    /// Preconditioned conjugate gradients on the three channels at once (each with its own step
    /// lengths). Returns the solution and the iteration count.
    static func conjugateGradients(_ op: LatticeOperator, preconditioner: MultigridCycle,
                                   start: [SIMD4<Double>]) -> ([SIMD4<Double>], Int) {
        let grid = op.grid
        let n = grid.size
        let last = Double(n - 1)
        let count = grid.slotCount
        // Work vectors over the padded lattice; the ghost slots stay zero throughout.
        let b = Vector(count), x = Vector(count), r = Vector(count), z = Vector(count), p = Vector(count), q = Vector(count)
        defer {
            for v in [b, x, r, z, p, q] { v.deallocate() }
        }
        grid.forEachNode { slot, red, green, blue in
            // The ridge pulls towards the identity.
            b[slot] = op.equations.rhs[slot] + ridge * SIMD4(Double(red) / last, Double(green) / last, Double(blue) / last, 0)
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
