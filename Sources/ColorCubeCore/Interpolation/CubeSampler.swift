/// The reference LUT evaluator: plain scalar code that defines what every fast kernel must compute.
///
/// Inputs are clamped to [0, 1] and NaN is read as 0 (Core Image's behaviour without
/// extrapolation); an input of exactly 1.0 lands on the last node, never past it. The per-cube
/// constants are fixed at init.
public struct CubeSampler: Sendable {
    public let cube: ColorCube
    public let interpolation: Interpolation
    private let last: Int
    private let scale: Double

    public init(cube: ColorCube, interpolation: Interpolation = .trilinear) {
        self.cube = cube
        self.interpolation = interpolation
        self.last = cube.size - 1
        self.scale = Double(cube.size - 1)
    }

    /// The look's output for an RGB input, computed in Double.
    public func sample(_ input: SIMD3<Double>) -> SIMD3<Double> {
        // Split each coordinate into a lattice cell (lower node) and a fraction within it.
        var node = SIMD3<Int>(repeating: 0)
        var fraction = SIMD3<Double>(repeating: 0)
        for axis in 0..<3 {
            var value = input[axis]
            if !(value > 0) { value = 0 }  // also NaN
            if value > 1 { value = 1 }
            let position = value * scale
            let lower = min(Int(position), last - 1 < 0 ? 0 : last - 1)
            node[axis] = lower
            fraction[axis] = position - Double(lower)
        }
        switch interpolation {
        case .nearest:
            return value(node &+ SIMD3(fraction.x >= 0.5 ? 1 : 0, fraction.y >= 0.5 ? 1 : 0, fraction.z >= 0.5 ? 1 : 0))
        case .trilinear:
            return trilinear(node, fraction)
        case .tetrahedral:
            return tetrahedral(node, fraction)
        }
    }

    /// Convenience for Float input and output.
    public func sample(_ input: SIMD3<Float>) -> SIMD3<Float> {
        let output = sample(SIMD3<Double>(Double(input.x), Double(input.y), Double(input.z)))
        return SIMD3(Float(output.x), Float(output.y), Float(output.z))
    }

    private func value(_ node: SIMD3<Int>) -> SIMD3<Double> {
        let entry = cube.entry(r: node.x, g: node.y, b: node.z)
        return SIMD3(Double(entry.x), Double(entry.y), Double(entry.z))
    }

    private func trilinear(_ n: SIMD3<Int>, _ f: SIMD3<Double>) -> SIMD3<Double> {
        let c000 = value(n), c100 = value(n &+ SIMD3(1, 0, 0))
        let c010 = value(n &+ SIMD3(0, 1, 0)), c110 = value(n &+ SIMD3(1, 1, 0))
        let c001 = value(n &+ SIMD3(0, 0, 1)), c101 = value(n &+ SIMD3(1, 0, 1))
        let c011 = value(n &+ SIMD3(0, 1, 1)), c111 = value(n &+ SIMD3(1, 1, 1))
        let c00 = c000 + (c100 - c000) * f.x
        let c10 = c010 + (c110 - c010) * f.x
        let c01 = c001 + (c101 - c001) * f.x
        let c11 = c011 + (c111 - c011) * f.x
        let c0 = c00 + (c10 - c00) * f.y
        let c1 = c01 + (c11 - c01) * f.y
        return c0 + (c1 - c0) * f.z
    }

    private func tetrahedral(_ n: SIMD3<Int>, _ f: SIMD3<Double>) -> SIMD3<Double> {
        let c000 = value(n), c111 = value(n &+ SIMD3(1, 1, 1))
        let (x, y, z) = (f.x, f.y, f.z)
        // The cell splits into six tetrahedra by the order of the three fractions; each walks from
        // c000 to c111 along the axes in decreasing order of their fraction.
        if x > y {
            if y > z {
                let c100 = value(n &+ SIMD3(1, 0, 0)), c110 = value(n &+ SIMD3(1, 1, 0))
                return c000 + (c100 - c000) * x + (c110 - c100) * y + (c111 - c110) * z
            } else if x > z {
                let c100 = value(n &+ SIMD3(1, 0, 0)), c101 = value(n &+ SIMD3(1, 0, 1))
                return c000 + (c100 - c000) * x + (c101 - c100) * z + (c111 - c101) * y
            } else {
                let c001 = value(n &+ SIMD3(0, 0, 1)), c101 = value(n &+ SIMD3(1, 0, 1))
                return c000 + (c001 - c000) * z + (c101 - c001) * x + (c111 - c101) * y
            }
        } else {
            if z > y {
                let c001 = value(n &+ SIMD3(0, 0, 1)), c011 = value(n &+ SIMD3(0, 1, 1))
                return c000 + (c001 - c000) * z + (c011 - c001) * y + (c111 - c011) * x
            } else if z > x {
                let c010 = value(n &+ SIMD3(0, 1, 0)), c011 = value(n &+ SIMD3(0, 1, 1))
                return c000 + (c010 - c000) * y + (c011 - c010) * z + (c111 - c011) * x
            } else {
                let c010 = value(n &+ SIMD3(0, 1, 0)), c110 = value(n &+ SIMD3(1, 1, 0))
                return c000 + (c010 - c000) * y + (c110 - c010) * x + (c111 - c110) * z
            }
        }
    }
}
