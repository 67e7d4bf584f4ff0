/// The colour tally summed per cell of a lattice: for each cell, the 27 moments
/// sum_c n_c fx^i fy^j fz^l (i, j, l in 0...2) of its colours' weights n_c and fractions f
/// within the cell (`CellPosition`).
///
/// A data term's normal matrix on this lattice, or on any coarser one whose nodes are every
/// 2^k-th of these (33 -> 17 -> 9 -> 5), is a sum over colours of products of two trilinear
/// weights, and on such a lattice each weight is linear in the colour's fraction within the fine
/// cell along each axis: so the products are quadratic, and these moments give every such matrix
/// without another pass over the colours (`NormalEquations.init(moments:size:totalWeight:data:)`).
/// The finest level's matrix comes from them too (27 sums a colour here against 64 products), so
/// the colours are read twice in all, on two cores at once: here, and for the finest level's
/// right-hand side (`NormalEquations.DataSide`). On the 24 Mpx pair that took building the
/// equations from 0.18 s to 0.10 s.
struct CellMoments {
    /// Lattice points per axis of the lattice the cells belong to.
    let size: Int
    /// 27 moments per cell, index i + 3 j + 9 l; cells red fastest.
    let moments: [Double]

    init(colors: [FitColor], size: Int) {
        self.size = size
        let cells = size - 1
        var moments = [Double](repeating: 0, count: cells * cells * cells * 27)
        moments.withUnsafeMutableBufferPointer { sums in
            for color in colors {
                let position = CellPosition(color.before, size: size)
                let node = position.node, f = position.fraction
                let cell = (node.x + cells * (node.y + cells * node.z)) * 27
                let x = SIMD3(1, f.x, f.x * f.x), y = SIMD3(1, f.y, f.y * f.y), z = SIMD3(1, f.z, f.z * f.z)
                var index = cell
                for l in 0..<3 {
                    for j in 0..<3 {
                        let nyz = color.weight * y[j] * z[l]
                        sums[index] += nyz
                        sums[index + 1] += nyz * x[1]
                        sums[index + 2] += nyz * x[2]
                        index += 3
                    }
                }
            }
        }
        self.moments = moments
    }

    /// True when every size in `sizes` after the first has every 2^k-th node of the first
    /// (sizes 2^n + 1 halving down, as `MultigridCycle.sizes` gives for 17, 33 or 65).
    static func nests(_ sizes: [Int]) -> Bool {
        zip(sizes, sizes.dropFirst()).allSatisfy { fine, coarse in fine - 1 == 2 * (coarse - 1) }
    }

    /// The per-axis quadratics, in the fine fraction f, of a coarse cell's two weights multiplied:
    /// low * low, low * high, high * high, each as coefficients of 1, f, f^2. The fine cell is
    /// `offset` cells into a coarse cell `scale` fine cells wide, where low = (scale - offset - f)
    /// / scale and high = (offset + f) / scale.
    static func products(offset: Int, scale: Int) -> [SIMD3<Double>] {
        let d = Double(scale)
        let low0 = Double(scale - offset) / d, low1 = -1 / d
        let high0 = Double(offset) / d, high1 = 1 / d
        return [
            SIMD3(low0 * low0, 2 * low0 * low1, low1 * low1),
            SIMD3(low0 * high0, low0 * high1 + low1 * high0, low1 * high1),
            SIMD3(high0 * high0, 2 * high0 * high1, high1 * high1),
        ]
    }

    /// For the cell at `cell` (its index times 27 in `moments`), the 27 weight products summed
    /// over its colours, into `result`: entry ux + 3 uy + 9 uz for the per-axis products `x[ux]`,
    /// `y[uy]`, `z[uz]` (0 low * low, 1 low * high, 2 high * high), contracted one axis at a time
    /// through `scratch` (54 values).
    static func contract(_ m: UnsafePointer<Double>, x: UnsafePointer<SIMD3<Double>>, y: UnsafePointer<SIMD3<Double>>,
                         z: UnsafePointer<SIMD3<Double>>, scratch: UnsafeMutablePointer<Double>,
                         into result: UnsafeMutablePointer<Double>) {
        // Red: t1[ux + 3 (j + 3 l)].
        let t1 = scratch, t2 = scratch + 27
        for jl in 0..<9 {
            let m0 = m[3 * jl], m1 = m[3 * jl + 1], m2 = m[3 * jl + 2]
            for ux in 0..<3 { t1[ux + 3 * jl] = x[ux][0] * m0 + x[ux][1] * m1 + x[ux][2] * m2 }
        }
        // Green: t2[ux + 3 uy + 9 l].
        for l in 0..<3 {
            for uy in 0..<3 {
                for ux in 0..<3 {
                    t2[ux + 3 * uy + 9 * l] = y[uy][0] * t1[ux + 9 * l] + y[uy][1] * t1[ux + 3 + 9 * l]
                        + y[uy][2] * t1[ux + 6 + 9 * l]
                }
            }
        }
        // Blue.
        for uz in 0..<3 {
            for uxy in 0..<9 {
                result[uxy + 9 * uz] = z[uz][0] * t2[uxy] + z[uz][1] * t2[uxy + 9] + z[uz][2] * t2[uxy + 18]
            }
        }
    }
}
