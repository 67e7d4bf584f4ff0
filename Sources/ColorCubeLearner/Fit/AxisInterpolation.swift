/// Trilinear interpolation from a coarse lattice to a finer one, split by axis: fine index i
/// along any axis falls in coarse cell `lower[i]` at `fraction[i]` (as `CellPosition` splits
/// i / (fine - 1)), and the weight of a coarse corner is the product of the three axis weights.
struct AxisInterpolation {
    let lower: [Int]
    let fraction: [Double]

    init(from coarse: Int, to fine: Int) {
        let last = Double(fine - 1)
        var lower: [Int] = [], fraction: [Double] = []
        for i in 0..<fine {
            let position = CellPosition(SIMD3(repeating: Double(i) / last), size: coarse)
            lower.append(position.node.x)
            fraction.append(position.fraction.x)
        }
        self.lower = lower
        self.fraction = fraction
    }

    /// Calls `body(fineSlot, coarseSlot, weight)` for each fine node and each of its 8 coarse
    /// corners, fine nodes in storage order.
    @inline(__always)
    private func forEachWeight(fine: LatticeGrid, coarse: LatticeGrid, _ body: (Int, Int, Double) -> Void) {
        let corners = (0..<8).map { coarse.offset($0 & 1, $0 >> 1 & 1, $0 >> 2 & 1) }
        fine.forEachNode { slot, r, g, b in
            let base = coarse.slot(lower[r], lower[g], lower[b])
            let f = SIMD3(fraction[r], fraction[g], fraction[b]), low = 1 - f
            for corner in 0..<8 {
                let w = (corner & 1 != 0 ? f.x : low.x) * (corner & 2 != 0 ? f.y : low.y) * (corner & 4 != 0 ? f.z : low.z)
                body(slot, base + corners[corner], w)
            }
        }
    }

    /// fine += P coarse.
    func prolongAdding(_ source: Vector, coarse: LatticeGrid, into target: Vector, fine: LatticeGrid) {
        forEachWeight(fine: fine, coarse: coarse) { fineSlot, coarseSlot, w in
            target[fineSlot] += w * source[coarseSlot]
        }
    }

    /// coarse += P^T fine.
    func restrict(_ source: Vector, fine: LatticeGrid, into target: Vector, coarse: LatticeGrid) {
        forEachWeight(fine: fine, coarse: coarse) { fineSlot, coarseSlot, w in
            target[coarseSlot] += w * source[fineSlot]
        }
    }
}
