import ColorCubeCore
import Foundation

/// The matrix of the fit on one lattice size, A = M + lambda K + eps I, in the compact form the
/// solver's loops read: the data term M as a 27-point stencil per node (from `NormalEquations`),
/// and the smoothness term K, the sum over the three axes of D2^T D2 along that axis, as 5
/// coefficients per position along an axis (they depend only on how close the node is to the
/// ends), already multiplied by lambda.
///
/// Row `slot` of A applied to a vector is `row(_:slot:_:_:_:)`; the same sum serves the matrix
/// product (all rows at once, planes on all cores, each row summed by one thread) and the
/// Gauss-Seidel sweeps of the multigrid preconditioner (rows in a fixed order, in place), so the
/// three never disagree about A.
final class LatticeOperator {
    let grid: LatticeGrid
    let equations: NormalEquations
    let lambda: Double
    /// lambda times row p of D2^T D2 along one axis: coefficient of neighbour p + d at
    /// `penalty[5 p + d + 2]`, zero where p + d is off the lattice.
    private let penalty: [Double]
    /// The first and last d (-2...2) with a non-zero coefficient at each position.
    private let reach: [(low: Int, high: Int)]
    /// Slot offsets of the 27 stencil entries, index (dr+1) + 3 (dg+1) + 9 (db+1).
    private let stencil: [Int]
    /// 1 / A_ii per slot (zero on the ghosts).
    let inverseDiagonal: [Double]
    /// 1 for a node some colour's cell touches, 0 for one no colour reaches (and the ghosts): the
    /// data term's row of such a node is zero (its diagonal, a sum of squared weights, is), so the
    /// row sum skips its 27 products. On a photo pair most nodes are of the second kind (a 24 Mpx
    /// pair occupies an eighth of a 33-lattice's cells).
    private let hasData: [UInt8]

    init(_ equations: NormalEquations, smoothness: Double) {
        let grid = equations.grid
        let n = grid.size
        self.grid = grid
        self.equations = equations
        let lambda = n >= 3 ? smoothness * Double(n - 1) : 0
        self.lambda = lambda
        // Row p of D2^T D2 (second differences centred at 1...n-2, weights 1, -2, 1).
        var penalty = [Double](repeating: 0, count: 5 * n)
        var reach = [(low: Int, high: Int)](repeating: (0, -1), count: n)
        let weight = [1.0, -2.0, 1.0]
        for p in 0..<n {
            for centre in (p - 1)...(p + 1) where centre >= 1 && centre <= n - 2 {
                for d in -2...2 {
                    let q = p + d
                    let a = p - centre, c = q - centre
                    guard abs(a) <= 1, abs(c) <= 1 else { continue }
                    penalty[5 * p + d + 2] += lambda * weight[a + 1] * weight[c + 1]
                }
            }
            let used = (-2...2).filter { penalty[5 * p + $0 + 2] != 0 }
            reach[p] = (used.first ?? 0, used.last ?? -1)
        }
        self.penalty = penalty
        self.reach = reach
        stencil = (0..<27).map { grid.offset($0 % 3 - 1, $0 / 3 % 3 - 1, $0 / 9 - 1) }
        var inverseDiagonal = [Double](repeating: 0, count: grid.slotCount)
        var hasData = [UInt8](repeating: 0, count: grid.slotCount)
        equations.matrix.withUnsafeBufferPointer { m in
            grid.forEachNode { slot, r, g, b in
                // The diagonal sums n w^2 over the colours: zero only when every product of the
                // row (n w_a w_b) is zero.
                hasData[slot] = m[slot * 27 + 13] != 0 ? 1 : 0
                let diagonal = m[slot * 27 + 13] + penalty[5 * r + 2] + penalty[5 * g + 2] + penalty[5 * b + 2]
                    + LatticeSolver.ridge
                inverseDiagonal[slot] = 1 / diagonal
            }
        }
        self.inverseDiagonal = inverseDiagonal
        self.hasData = hasData
    }

    /// Calls `body` with raw views of the constants the row sum reads.
    @inline(__always)
    func withKernel<Result>(_ body: (Kernel) -> Result) -> Result {
        equations.matrix.withUnsafeBufferPointer { m in
            stencil.withUnsafeBufferPointer { o in
                penalty.withUnsafeBufferPointer { c in
                    reach.withUnsafeBufferPointer { e in
                        hasData.withUnsafeBufferPointer { d in
                            body(Kernel(matrix: m.baseAddress.unsafelyUnwrapped, offsets: o.baseAddress.unsafelyUnwrapped,
                                        penalty: c.baseAddress.unsafelyUnwrapped, reach: e.baseAddress.unsafelyUnwrapped,
                                        hasData: d.baseAddress.unsafelyUnwrapped,
                                        greenStride: grid.greenStride, blueStride: grid.blueStride,
                                        smooth: lambda > 0))
                        }
                    }
                }
            }
        }
    }

    /// Raw pointers to an operator's constants, valid inside `withKernel`.
    /// Sendable: the threads of `multiply` only read it. (Held as `DisjointRegions` the row sum
    /// took 0.1 s longer on a 24 Mpx learn, so the pointers stay bare.)
    struct Kernel: @unchecked Sendable {
        let matrix: UnsafePointer<Double>
        let offsets: UnsafePointer<Int>
        let penalty: UnsafePointer<Double>
        let reach: UnsafePointer<(low: Int, high: Int)>
        let hasData: UnsafePointer<UInt8>
        let greenStride: Int
        let blueStride: Int
        let smooth: Bool

        /// Row `slot` (node r, g, b) of A times x.
        @inline(__always)
        func row(_ x: UnsafePointer<SIMD4<Double>>, slot: Int, _ r: Int, _ g: Int, _ b: Int) -> SIMD4<Double> {
            var sum = LatticeSolver.ridge * x[slot]
            if hasData[slot] != 0 {
                let m = matrix + slot &* 27
                for k in 0..<27 { sum += m[k] * x[slot &+ offsets[k]] }
            }
            if smooth { sum += penaltyRow(x, slot: slot, r, g, b) }
            return sum
        }

        /// Row `slot` (node r, g, b) of lambda K times x: the smoothness term alone.
        @inline(__always)
        func penaltyRow(_ x: UnsafePointer<SIMD4<Double>>, slot: Int, _ r: Int, _ g: Int, _ b: Int) -> SIMD4<Double> {
            axis(x, slot, 1, r) + axis(x, slot, greenStride, g) + axis(x, slot, blueStride, b)
        }

        @inline(__always)
        private func axis(_ x: UnsafePointer<SIMD4<Double>>, _ slot: Int, _ stride: Int, _ p: Int) -> SIMD4<Double> {
            let c = penalty + (5 &* p &+ 2)
            let span = reach[p]
            var sum = SIMD4<Double>.zero
            var d = span.low
            while d <= span.high {
                sum += c[d] * x[slot &+ d &* stride]
                d &+= 1
            }
            return sum
        }
    }

    /// y = A x over all real nodes (ghosts untouched). Planes of constant blue run on all cores;
    /// each row is summed by one thread in a fixed order, so the result does not depend on how
    /// the planes are shared out.
    func multiply(_ x: Vector, into y: Vector) {
        let grid = self.grid
        let n = grid.size
        // x is read by every thread and written by none; the slots of plane b of y by thread b alone.
        let input = DisjointRegions(UnsafePointer(x.base)), output = DisjointRegions(y.base)
        withKernel { kernel in
            ParallelLoop.run(iterations: n) { b in
                let x = input.start(of: 0)
                for g in 0..<n {
                    let first = grid.slot(0, g, b)
                    for r in 0..<n {
                        let slot = first &+ r
                        output.start(of: slot).pointee = kernel.row(x, slot: slot, r, g, b)
                    }
                }
            }
        }
    }

    /// lambda K x alone (the smoothness term, no data and no ridge), node by node on one thread:
    /// what the solver adds to the right-hand side so that the penalty falls on the lattice's
    /// departure from a prior model rather than on the lattice itself.
    func penaltyProduct(_ x: [SIMD4<Double>]) -> [SIMD4<Double>] {
        var y = [SIMD4<Double>](repeating: .zero, count: x.count)
        guard lambda > 0 else { return y }
        let grid = self.grid
        x.withUnsafeBufferPointer { input in
            y.withUnsafeMutableBufferPointer { output in
                guard let x = input.baseAddress, let y = output.baseAddress else { return }
                withKernel { kernel in
                    grid.forEachNode { slot, r, g, b in y[slot] = kernel.penaltyRow(x, slot: slot, r, g, b) }
                }
            }
        }
        return y
    }

    /// One Gauss-Seidel sweep on A x = rhs, in place: the planes of constant blue in three
    /// colours (blue mod 3), each node in storage order within its plane (`forward`), or all of it
    /// reversed. A row reaches at most two planes either way, so the planes of one colour do not
    /// read each other and run on all cores; the order is fixed by the colours, not by the
    /// threads, so the result does not depend on how the planes are shared out. A backward sweep
    /// is the adjoint of a forward one, which keeps the multigrid cycle symmetric.
    ///
    /// (Storage order over the whole lattice, on one thread, was about half of a 24 Mpx learn's
    /// solve: 5.3% of its CPU samples against 3.3% for the matrix products.)
    func sweep(_ x: Vector, rhs: Vector, forward: Bool) {
        let grid = self.grid
        let n = grid.size
        // While one colour runs, plane b of x is written by the thread holding b alone, and the
        // planes it reads (b - 2 ... b + 2, other colours) are written by none.
        let solution = DisjointRegions(x.base), target = DisjointRegions(UnsafePointer(rhs.base))
        inverseDiagonal.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let inverse = DisjointRegions(base)
            withKernel { kernel in
                for colour in forward ? [0, 1, 2] : [2, 1, 0] {
                    let planes = Array(stride(from: colour, to: n, by: 3))
                    let ordered = forward ? planes : planes.reversed()
                    let body: @Sendable (Int) -> Void = { index in
                        let b = ordered[index]
                        let x = solution.start(of: 0), rhs = target.start(of: 0), inverse = inverse.start(of: 0)
                        for row in 0..<n {
                            let g = forward ? row : n - 1 - row
                            let first = grid.slot(0, g, b)
                            for step in 0..<n {
                                let r = forward ? step : n - 1 - step
                                let slot = first &+ r
                                let residual = rhs[slot] - kernel.row(UnsafePointer(x), slot: slot, r, g, b)
                                x[slot] += residual * inverse[slot]
                            }
                        }
                    }
                    if n >= Self.parallelSweepSize {
                        ParallelLoop.run(iterations: ordered.count, body)
                    } else {
                        for index in ordered.indices { body(index) }
                    }
                }
            }
        }
    }

    /// Lattice sizes from which a sweep's planes run on all cores (below, on the calling thread:
    /// the same order, less overhead).
    static let parallelSweepSize = 24
}
