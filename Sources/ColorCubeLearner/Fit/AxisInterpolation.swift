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

    /// Calls `body(fineSlot, coarseSlot, weight)` for each fine node and each of its coarse
    /// corners of non-zero weight, fine nodes in storage order and corners red fastest. (A fine
    /// node on a coarse node's plane along an axis has only the lower corner there: on lattices
    /// that halve, more than half the corners weigh zero, and leaving them out does not change a
    /// sum.)
    @inline(__always)
    private func forEachWeight(fine: LatticeGrid, coarse: LatticeGrid, _ body: (Int, Int, Double) -> Void) {
        let greenStride = coarse.greenStride, blueStride = coarse.blueStride
        lower.withUnsafeBufferPointer { lower in
            fraction.withUnsafeBufferPointer { fraction in
                fine.forEachNode { slot, r, g, b in
                    let base = coarse.slot(lower[r], lower[g], lower[b])
                    let fr = fraction[r], fg = fraction[g], fb = fraction[b]
                    for db in 0..<(fb != 0 ? 2 : 1) {
                        let wb = db == 0 ? 1 - fb : fb
                        for dg in 0..<(fg != 0 ? 2 : 1) {
                            let wg = dg == 0 ? 1 - fg : fg
                            let row = base &+ dg &* greenStride &+ db &* blueStride
                            for dr in 0..<(fr != 0 ? 2 : 1) {
                                let wr = dr == 0 ? 1 - fr : fr
                                body(slot, row &+ dr, wr * wg * wb)
                            }
                        }
                    }
                }
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
