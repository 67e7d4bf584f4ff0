/// A dense symmetric positive definite system factored once as L L^T, then solved for any number
/// of right-hand sides (three channels at once, in SIMD4 lanes): the exact solve at the bottom of
/// the multigrid cycle (a small lattice operator, at most 5^3 nodes, written out) and the global
/// model's curves (`GlobalModelForm`).
///
/// The matrix is symmetric positive definite in exact arithmetic (a ridge sees to it in both
/// uses); a pivot that rounding leaves at zero or below drops its unknown (solved as zero) rather
/// than dividing by it.
struct DenseCholesky {
    private let count: Int
    /// Lower triangle, row-major, count x count.
    private let factor: [Double]
    /// Storage slot of each unknown in a lattice vector, in `forEachNode` order (empty when the
    /// system was given as a matrix).
    private let slots: [Int]

    /// Factors `matrix` (count x count, row-major; only its lower triangle is read).
    init(matrix: [Double], count: Int) {
        self.count = count
        slots = []
        factor = Self.factored(matrix, count: count)
    }

    /// Writes out the lattice operator `op` as a dense matrix and factors it.
    init(_ op: LatticeOperator) {
        let grid = op.grid
        var slots: [Int] = []
        var positions: [(Int, Int, Int)] = []
        grid.forEachNode { slot, r, g, b in
            slots.append(slot)
            positions.append((r, g, b))
        }
        let count = slots.count
        var a = [Double](repeating: 0, count: count * count)
        let unit = Vector(grid.slotCount)
        defer { unit.deallocate() }
        op.withKernel { kernel in
            for column in 0..<count {
                unit[slots[column]] = SIMD4(1, 0, 0, 0)
                for row in 0..<count {
                    let (r, g, b) = positions[row]
                    a[row * count + column] = kernel.row(unit.base, slot: slots[row], r, g, b).x
                }
                unit[slots[column]] = .zero
            }
        }
        self.count = count
        self.slots = slots
        factor = Self.factored(a, count: count)
    }

    private static func factored(_ matrix: [Double], count: Int) -> [Double] {
        var a = matrix
        for j in 0..<count {
            var pivot = a[j * count + j]
            for k in 0..<j { pivot -= a[j * count + k] * a[j * count + k] }
            let root = pivot > 0 ? pivot.squareRoot() : 0
            a[j * count + j] = root
            for i in (j + 1)..<max(count, j + 1) {
                var sum = a[i * count + j]
                for k in 0..<j { sum -= a[i * count + k] * a[j * count + k] }
                a[i * count + j] = root > 0 ? sum / root : 0
            }
        }
        return a
    }

    /// A^-1 b for the right-hand sides in the lanes of `b` (one entry per unknown).
    func solve(_ b: [SIMD4<Double>]) -> [SIMD4<Double>] {
        var y = [SIMD4<Double>](repeating: .zero, count: count)
        for i in 0..<count {
            var sum = b[i]
            for k in 0..<i { sum -= factor[i * count + k] * y[k] }
            let d = factor[i * count + i]
            y[i] = d > 0 ? sum / d : .zero
        }
        for i in stride(from: count - 1, through: 0, by: -1) {
            var sum = y[i]
            for k in (i + 1)..<max(count, i + 1) { sum -= factor[k * count + i] * y[k] }
            let d = factor[i * count + i]
            y[i] = d > 0 ? sum / d : .zero
        }
        return y
    }

    /// x = A^-1 b on the three channels of a lattice vector (ghost slots of x untouched); for a
    /// system made from a `LatticeOperator`.
    func solve(_ b: Vector, into x: Vector) {
        let solution = solve(slots.map { b[$0] })
        for i in 0..<count { x[slots[i]] = solution[i] }
    }
}
