/// The exact inverse of a 3D LUT interpolated tetrahedrally, over its lattice padded beyond its
/// faces (`PaddedLattice`), in the way of OpenColorIO's exact inverse (`InvLut3DRenderer`).
///
/// Tetrahedral interpolation is linear inside each of the six tetrahedra of a cell, so a colour
/// is inverted exactly by solving one 3x3 system per tetrahedron and keeping the solution whose
/// barycentric weights are all non-negative. Cells are tried in Morton order (`CellBoundsTree`)
/// and the first that holds the colour wins. A colour the look produces is found in an original
/// cell; one it never produces (outside its gamut) in a padded cell, whose solution lies beyond
/// the forward domain and is clamped back onto it: `latticeCoordinate(of:)`.
struct TetrahedralInverse: Sendable {
    /// Slack on the barycentric weights, so a colour on a shared face or edge is found.
    static let weightTolerance = 1e-9
    /// Systems with a smaller determinant are flat tetrahedra, holding no colour of their own.
    static let singularDeterminant = 1e-18

    /// Where a colour was found.
    struct Solution: Equatable {
        /// The forward lattice coordinate, 0...1 per channel, clamped into the domain.
        var coordinate: SIMD3<Double>
        /// True when the colour lies in an original cell: the look produces it.
        var isReachable: Bool
    }

    let lattice: PaddedLattice
    let tree: CellBoundsTree

    init(_ forward: LUT3DOp) {
        lattice = PaddedLattice(forward)
        tree = CellBoundsTree(lattice)
    }

    /// The forward lattice coordinate whose tetrahedral interpolation gives `colour`, or nil when
    /// no cell of the padded lattice holds it (a look that flattens a channel, for colours off
    /// its plane).
    func latticeCoordinate(of colour: SIMD3<Double>) -> Solution? {
        guard let padded = tree.firstCell(containing: colour, where: { solve(colour, inCell: $0) }) else { return nil }
        // Padded index p stands for forward node p - 1.
        let last = Double(lattice.size - 3)
        var coordinate = padded - 1
        var reachable = true
        for axis in 0..<3 {
            if coordinate[axis] < -Self.weightTolerance || coordinate[axis] > last + Self.weightTolerance { reachable = false }
            coordinate[axis] = min(max(coordinate[axis], 0), last) / last
        }
        return Solution(coordinate: coordinate, isReachable: reachable)
    }

    /// The padded lattice position of `colour` in the cell whose lowest node is `cell`, or nil.
    ///
    /// The tetrahedron for axes taken in the order a, b, c runs from the cell's lowest corner
    /// along a, then b, then c to its highest; a point with fractions fa >= fb >= fc in it is
    /// v0 + fa (v1 - v0) + fb (v2 - v1) + fc (v3 - v2).
    func solve(_ colour: SIMD3<Double>, inCell cell: SIMD3<Int>) -> SIMD3<Double>? {
        let origin = lattice.value(cell.x, cell.y, cell.z)
        let top = lattice.value(cell.x + 1, cell.y + 1, cell.z + 1)
        let offset = colour - origin
        for order in Self.axisOrders {
            var step = SIMD3<Int>()
            step[order.0] = 1
            let first = lattice.value(cell.x + step.x, cell.y + step.y, cell.z + step.z)
            step[order.1] = 1
            let second = lattice.value(cell.x + step.x, cell.y + step.y, cell.z + step.z)
            guard let f = Self.solveLinear(first - origin, second - first, top - second, offset) else { continue }
            let tolerance = Self.weightTolerance
            guard f.x <= 1 + tolerance, f.x - f.y >= -tolerance, f.y - f.z >= -tolerance, f.z >= -tolerance else { continue }
            var position = SIMD3(Double(cell.x), Double(cell.y), Double(cell.z))
            position[order.0] += f.x
            position[order.1] += f.y
            position[order.2] += f.z
            return position
        }
        return nil
    }

    /// The six orders of the three axes: one tetrahedron each.
    static let axisOrders = [(0, 1, 2), (0, 2, 1), (2, 0, 1), (2, 1, 0), (1, 2, 0), (1, 0, 2)]

    /// Solves u a + v b + w c = rhs for (a, b, c) by Cramer's rule; nil when u, v, w are coplanar.
    static func solveLinear(_ u: SIMD3<Double>, _ v: SIMD3<Double>, _ w: SIMD3<Double>, _ rhs: SIMD3<Double>) -> SIMD3<Double>? {
        func determinant(_ a: SIMD3<Double>, _ b: SIMD3<Double>, _ c: SIMD3<Double>) -> Double {
            a.x * (b.y * c.z - b.z * c.y) - b.x * (a.y * c.z - a.z * c.y) + c.x * (a.y * b.z - a.z * b.y)
        }
        let d = determinant(u, v, w)
        guard abs(d) > singularDeterminant else { return nil }
        return SIMD3(determinant(rhs, v, w), determinant(u, rhs, w), determinant(u, v, rhs)) / d
    }
}
