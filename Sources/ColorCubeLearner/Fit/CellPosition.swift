/// Where a colour falls on a lattice: the lower corner of its cell and the fractions towards the
/// next node, exactly as `CubeSampler` (and so the engine) splits an input: clamped to [0, 1],
/// NaN read as 0, and 1.0 at the far end of the last cell, never past it.
///
/// The trilinear weight of corner (i, j, k) (each 0 or 1) is the product over the axes of the
/// fraction where the corner is 1 and one minus it where it is 0; the look's output is the
/// weighted sum of the 8 corners, which is why a least-squares fit with these weights is what
/// `apply` reproduces.
struct CellPosition {
    var node: SIMD3<Int>
    var fraction: SIMD3<Double>

    init(_ color: SIMD3<Double>, size: Int) {
        let scale = Double(size - 1)
        node = .zero
        fraction = .zero
        for axis in 0..<3 {
            var value = color[axis]
            if !(value > 0) { value = 0 }
            if value > 1 { value = 1 }
            let position = value * scale
            let lower = min(Int(position), size - 2)
            node[axis] = lower
            fraction[axis] = position - Double(lower)
        }
    }

    /// The 8 corner weights, corner c at bits (red 1, green 2, blue 4).
    var weights: [Double] {
        var result = [Double](repeating: 0, count: 8)
        let low = 1 - fraction
        for corner in 0..<8 {
            let wr = corner & 1 != 0 ? fraction.x : low.x
            let wg = corner & 2 != 0 ? fraction.y : low.y
            let wb = corner & 4 != 0 ? fraction.z : low.z
            result[corner] = wr * wg * wb
        }
        return result
    }
}
