import ColorCubeTransform

/// The least-squares fit of a lattice read by tetrahedral interpolation (as Camera Raw reads its
/// tables) to colours scattered over part of its cube, with a smoothness penalty.
///
/// For samples x_s (lattice coordinates, 0...1) with targets y_s, and a prior value G at every
/// node, the lattice L minimises
///
///     (1/S) sum_s |T_L(x_s) - y_s|^2  +  lambda sum_axes sum |second difference of (L - G)|^2
///                                     +  eps |L - G|^2
///
/// where T_L is tetrahedral interpolation (four nodes per sample) and lambda = smoothness · (N-1).
/// The penalty sees only what departs from G in curvature, so nodes no sample reaches follow G
/// shifted smoothly by what the samples ask of their neighbours; eps settles anything left. One
/// system per channel, solved together (three lanes) by conjugate gradients preconditioned with
/// the diagonal, started from G. Every sum runs in one fixed order on one thread, so the same
/// samples give the same lattice bit for bit.
struct TetrahedralLeastSquares {
    let size: Int
    /// The normal matrix's data part as a 27-point stencil per node (index (dr+1) + 3 (dg+1) +
    /// 9 (db+1)); a tetrahedron's corners differ by steps of one sign, so 12 entries stay zero.
    private var matrix: [Double]
    /// (1/S) sum_s w_a(x_s) y_s per node.
    private var rhs: [SIMD3<Double>]
    private var sampleCount = 0

    /// Nodes are numbered red slowest, blue fastest: (r · N + g) · N + b.
    init(size: Int) {
        self.size = size
        matrix = [Double](repeating: 0, count: 27 * size * size * size)
        rhs = [SIMD3<Double>](repeating: .zero, count: size * size * size)
    }

    /// Adds a sample: lattice coordinates `point` (clamped to 0...1) and its `target`.
    mutating func add(_ point: SIMD3<Double>, target: SIMD3<Double>) {
        // Camera Raw's tetrahedra, on nodes numbered as here.
        let clamped = SIMD3((0..<3).map { point[$0] > 0 ? min(point[$0], 1) : 0 })
        let (nodes, weights) = RGBTableOp.tetrahedron(clamped, divisions: size, strides: SIMD3(size * size, size, 1))
        for a in 0..<4 {
            rhs[nodes[a]] += weights[a] * target
            for b in 0..<4 {
                matrix[27 * nodes[a] + stencil(from: nodes[a], to: nodes[b])] += weights[a] * weights[b]
            }
        }
        sampleCount += 1
    }

    /// The stencil index of node `other` seen from `node` (neighbours within one step).
    private func stencil(from node: Int, to other: Int) -> Int {
        let n = size
        let dr = other / (n * n) - node / (n * n), dg = other / n % n - node / n % n, db = other % n - node % n
        return (dr + 1) + 3 * (dg + 1) + 9 * (db + 1)
    }

    /// The lattice minimising the energy above, nodes numbered as in `init`.
    /// - Parameters:
    ///   - prior: G, one value per node.
    ///   - smoothness: the penalty's weight per unit of the cube (lambda / (N-1)).
    ///   - tolerance: the residual, relative to the right-hand side's, at which a channel is solved.
    func solve(prior: [SIMD3<Double>], smoothness: Double, ridge: Double = 1e-9, tolerance: Double = 1e-7,
               maximumIterations: Int = 2000) -> [SIMD3<Double>] {
        let count = size * size * size
        let scale = sampleCount > 0 ? 1 / Double(sampleCount) : 0
        let lambda = size >= 3 ? smoothness * Double(size - 1) : 0
        let offsets = (0..<27).map { ($0 % 3 - 1) * size * size + ($0 / 3 % 3 - 1) * size + ($0 / 9 - 1) }
        let hasData = (0..<count).map { matrix[27 * $0 + 13] != 0 }
        // A v = scale M v + lambda K v + eps v; K (L - G) moves lambda K G to the right-hand side.
        func multiply(_ v: [SIMD3<Double>]) -> [SIMD3<Double>] {
            var out = penalty(v, weight: lambda)
            for node in 0..<count {
                var sum = ridge * v[node]
                if hasData[node] {
                    var data = SIMD3<Double>.zero
                    for k in 0..<27 where matrix[27 * node + k] != 0 { data += matrix[27 * node + k] * v[node + offsets[k]] }
                    sum += scale * data
                }
                out[node] += sum
            }
            return out
        }
        let pulled = penalty(prior, weight: lambda)
        let b = (0..<count).map { scale * rhs[$0] + pulled[$0] + ridge * prior[$0] }
        let inverseDiagonal = (0..<count).map { node in
            1 / (scale * matrix[27 * node + 13] + lambda * penaltyDiagonal(node) + ridge)
        }
        var x = prior
        let product = multiply(x)
        var r = (0..<count).map { b[$0] - product[$0] }
        var z = (0..<count).map { inverseDiagonal[$0] * r[$0] }
        var p = z
        var rz = Self.dot(r, z)
        let limit = tolerance * tolerance * Self.dot(b, b)
        for _ in 0..<maximumIterations {
            if all(Self.dot(r, r) .<= limit) { break }
            let q = multiply(p)
            let pq = Self.dot(p, q)
            let alpha = (rz / pq).replacing(with: 0, where: pq .== 0)
            for node in 0..<count {
                x[node] += alpha * p[node]
                r[node] -= alpha * q[node]
                z[node] = inverseDiagonal[node] * r[node]
            }
            let next = Self.dot(r, z)
            let beta = (next / rz).replacing(with: 0, where: rz .== 0)
            rz = next
            for node in 0..<count { p[node] = z[node] + beta * p[node] }
        }
        return x
    }

    /// weight · K v, K the sum over the three axes of D2^T D2 (second differences along the axis
    /// at every node with a neighbour either side).
    private func penalty(_ v: [SIMD3<Double>], weight: Double) -> [SIMD3<Double>] {
        let n = size
        var out = [SIMD3<Double>](repeating: .zero, count: n * n * n)
        guard n >= 3, weight != 0 else { return out }
        for stride in [n * n, n, 1] {
            for node in 0..<(n * n * n) {
                let position = node / stride % n
                guard position >= 1, position <= n - 2 else { continue }
                let second = weight * (v[node - stride] - 2 * v[node] + v[node + stride])
                out[node - stride] += second
                out[node] -= 2 * second
                out[node + stride] += second
            }
        }
        return out
    }

    /// K's diagonal at `node`: per axis 1, 5 or 6 (ends, next to the ends, inside), as many
    /// second differences as hold the node with weights 1, 4, 1.
    private func penaltyDiagonal(_ node: Int) -> Double {
        let n = size
        guard n >= 3 else { return 0 }
        return [node / (n * n), node / n % n, node % n].reduce(0.0) { sum, position in
            var diagonal = 0.0
            for centre in (position - 1)...(position + 1) where centre >= 1 && centre <= n - 2 {
                diagonal += centre == position ? 4 : 1
            }
            return sum + diagonal
        }
    }

    private static func dot(_ a: [SIMD3<Double>], _ b: [SIMD3<Double>]) -> SIMD3<Double> {
        var sum = SIMD3<Double>.zero
        for index in a.indices { sum += a[index] * b[index] }
        return sum
    }
}
