import ColorCubeCore
import Foundation

/// Solves for the lattice that fits the tally best, with a smoothness penalty, by preconditioned
/// conjugate gradients from coarse lattices to fine.
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
/// Each size is solved from the previous, coarser solution interpolated onto it (the coarsest,
/// at most 9 points, from each node's average colour shift): conjugate gradients remove the
/// remaining fine error in fewer iterations than from a flat start, where the smooth filling of empty
/// regions is slowest. Everything runs in Float64; sums run in a fixed order (the matrix
/// product on all cores, each node summed by one thread, dot products on one), so the
/// result is the same bit for bit on every run.
enum LatticeSolver {
    /// The result on the requested lattice.
    struct Solution {
        /// Padded per `LatticeGrid`.
        var values: [SIMD4<Double>]
        var grid: LatticeGrid
        /// Conjugate-gradient iterations on each lattice size, coarsest first.
        var iterations: [(size: Int, count: Int)]
    }

    static let ridge = 1e-9
    /// Relative residual at which a size counts as solved. Against a solve to 1e-9 on one sample
    /// photo the cube differs by 0.6 codes on average, most of it in cells far from any colour
    /// the photo shows; held-out errors on the sample photos are the same as at 1e-6 (0.306 and
    /// 0.305 mean CIEDE2000) at 40% of the iterations.
    static let tolerance = 1e-5

    static func solve(tally: [ColorTally.Entry], pixels: Int, size: Int, smoothness: Double) -> Solution {
        var sizes = [size]
        while let smallest = sizes.first, smallest > 9 { sizes.insert((smallest + 1) / 2, at: 0) }
        var current: Solution?
        var iterations: [(size: Int, count: Int)] = []
        for step in sizes {
            let equations = NormalEquations(tally: tally, pixels: pixels, size: step)
            let start = current.map { prolong($0.values, from: $0.grid, to: equations.grid) } ?? equations.averageGuess
            let (values, count) = conjugateGradients(equations, smoothness: smoothness, start: start)
            iterations.append((step, count))
            current = Solution(values: values, grid: equations.grid, iterations: iterations)
        }
        return current ?? Solution(values: [], grid: LatticeGrid(size: size), iterations: [])
    }

    /// Trilinear interpolation of a coarse lattice at the nodes of a finer one.
    static func prolong(_ coarse: [SIMD4<Double>], from source: LatticeGrid, to target: LatticeGrid) -> [SIMD4<Double>] {
        var result = [SIMD4<Double>](repeating: .zero, count: target.slotCount)
        let last = Double(target.size - 1)
        target.forEachNode { slot, r, g, b in
            let position = CellPosition(SIMD3(Double(r), Double(g), Double(b)) / last, size: source.size)
            let base = source.slot(position.node.x, position.node.y, position.node.z)
            let f = position.fraction, low = 1 - f
            var sum = SIMD4<Double>.zero
            for corner in 0..<8 {
                let w = (corner & 1 != 0 ? f.x : low.x) * (corner & 2 != 0 ? f.y : low.y) * (corner & 4 != 0 ? f.z : low.z)
                sum += w * coarse[base + source.offset(corner & 1, corner >> 1 & 1, corner >> 2 & 1)]
            }
            result[slot] = sum
        }
        return result
    }

    /// Jacobi-preconditioned conjugate gradients on the three channels at once (each with its own
    /// step lengths). Returns the solution and the iteration count.
    static func conjugateGradients(_ equations: NormalEquations, smoothness: Double,
                                   start: [SIMD4<Double>]) -> ([SIMD4<Double>], Int) {
        let grid = equations.grid
        let n = grid.size
        let lambda = smoothness * Double(n - 1)
        let last = Double(n - 1)
        let count = grid.slotCount
        // Work vectors over the padded lattice; the ghost slots stay zero throughout.
        let b = Vector(count), inverseDiagonal = UnsafeMutablePointer<Double>.allocate(capacity: count)
        let x = Vector(count), r = Vector(count), z = Vector(count), p = Vector(count), q = Vector(count)
        defer {
            for v in [b, x, r, z, p, q] { v.deallocate() }
            inverseDiagonal.deallocate()
        }
        inverseDiagonal.initialize(repeating: 0, count: count)
        func penaltyDiagonal(_ k: Int) -> Double {
            var sum = 0.0
            for row in (k - 1)...(k + 1) where row >= 1 && row <= n - 2 { sum += row == k ? 4 : 1 }
            return sum
        }
        let axisDiagonal = (0..<n).map(penaltyDiagonal)
        equations.matrix.withUnsafeBufferPointer { m in
            grid.forEachNode { slot, red, green, blue in
                // The ridge pulls towards the identity.
                b[slot] = equations.rhs[slot] + ridge * SIMD4(Double(red) / last, Double(green) / last, Double(blue) / last, 0)
                x[slot] = start[slot]
                let diagonal = m[slot * 27 + 13] + lambda * (axisDiagonal[red] + axisDiagonal[green] + axisDiagonal[blue]) + ridge
                inverseDiagonal[slot] = 1 / diagonal
            }
        }
        let runs = grid.runs
        multiply(equations, lambda: lambda, x, into: q)
        var rz = SIMD4<Double>.zero, bb = SIMD4<Double>.zero
        for run in runs {
            for slot in run {
                r[slot] = b[slot] - q[slot]
                z[slot] = r[slot] * inverseDiagonal[slot]
                p[slot] = z[slot]
                rz += r[slot] * z[slot]
                bb += b[slot] * b[slot]
            }
        }
        let limit = (tolerance * tolerance) * bb
        let maximum = 80 * n + 200
        var iteration = 0
        while iteration < maximum {
            var rr = SIMD4<Double>.zero
            for run in runs { for slot in run { rr += r[slot] * r[slot] } }
            if all((rr .<= limit) .| (bb .== 0)) { break }
            iteration += 1
            multiply(equations, lambda: lambda, p, into: q)
            var pq = SIMD4<Double>.zero
            for run in runs { for slot in run { pq += p[slot] * q[slot] } }
            let alpha = (rz / pq).replacing(with: 0, where: pq .== 0)
            var rzNext = SIMD4<Double>.zero
            for run in runs {
                for slot in run {
                    x[slot] += alpha * p[slot]
                    r[slot] -= alpha * q[slot]
                    z[slot] = r[slot] * inverseDiagonal[slot]
                    rzNext += r[slot] * z[slot]
                }
            }
            let beta = (rzNext / rz).replacing(with: 0, where: rz .== 0)
            rz = rzNext
            for run in runs { for slot in run { p[slot] = z[slot] + beta * p[slot] } }
        }
        return (Array(UnsafeBufferPointer(start: x.base, count: count)), iteration)
    }

    /// y = (M + lambda K + eps I) x, K the second-difference penalty along each axis. Each node's
    /// row is summed on its own (the penalty gathered, not scattered), so planes of the lattice
    /// run on all cores and the result does not depend on how they are shared out.
    static func multiply(_ equations: NormalEquations, lambda: Double, _ x: Vector, into y: Vector) {
        let grid = equations.grid
        let n = grid.size
        let stencil: [Int] = (0..<27).map { grid.offset($0 % 3 - 1, $0 / 3 % 3 - 1, $0 / 9 - 1) }
        let strides = [1, grid.greenStride, grid.blueStride]
        equations.matrix.withUnsafeBufferPointer { matrix in
            stencil.withUnsafeBufferPointer { offsets in
                guard let matrixBase = matrix.baseAddress, let offsetBase = offsets.baseAddress else { return }
                // Plane b writes y's nodes of plane b only; x, the matrix and the stencil are only read.
                let input = DisjointRegions(x.base), output = DisjointRegions(y.base)
                let rows = DisjointRegions(matrixBase, itemStride: 27), stencilOffsets = DisjointRegions(offsetBase)
                ParallelLoop.run(iterations: n) { b in
                    let x = Vector(viewing: input.start(of: 0)), o = stencilOffsets.start(of: 0)
                    for g in 0..<n {
                        let first = grid.slot(0, g, b)
                        for r in 0..<n {
                            let slot = first &+ r
                            var sum = ridge * x[slot]
                            let row = rows.start(of: slot)
                            for k in 0..<27 { sum += row[k] * x[slot &+ o[k]] }
                            if lambda > 0 && n >= 3 {
                                let positions = (r, g, b)
                                for axis in 0..<3 {
                                    let position = axis == 0 ? positions.0 : axis == 1 ? positions.1 : positions.2
                                    sum += lambda * penaltyRow(x, slot, strides[axis], position, n)
                                }
                            }
                            output.start(of: slot).pointee = sum
                        }
                    }
                }
            }
        }
    }

    /// Row `position` of D2^T D2 along one axis applied to x: the second differences centred at
    /// position - 1, position and position + 1 (those inside 1...n-2), weighted 1, -2 and 1.
    @inline(__always)
    private static func penaltyRow(_ x: Vector, _ slot: Int, _ stride: Int, _ position: Int, _ n: Int) -> SIMD4<Double> {
        @inline(__always) func d(_ centre: Int) -> SIMD4<Double> {
            x[centre &- stride] - 2 * x[centre] + x[centre &+ stride]
        }
        var sum = SIMD4<Double>.zero
        if position - 1 >= 1 { sum += d(slot &- stride) }
        if position >= 1 && position <= n - 2 { sum -= 2 * d(slot) }
        if position + 1 <= n - 2 { sum += d(slot &+ stride) }
        return sum
    }
}

/// A zero-initialised vector of per-node RGB values (a zero fourth lane), freed by its owner.
struct Vector {
    let base: UnsafeMutablePointer<SIMD4<Double>>

    init(_ count: Int) {
        base = .allocate(capacity: count)
        base.initialize(repeating: .zero, count: count)
    }

    /// A view on the storage of another vector, which stays its owner's to free.
    init(viewing base: UnsafeMutablePointer<SIMD4<Double>>) {
        self.base = base
    }

    func deallocate() { base.deallocate() }

    subscript(slot: Int) -> SIMD4<Double> {
        @inline(__always) get { base[slot] }
        @inline(__always) nonmutating set { base[slot] = newValue }
    }
}
