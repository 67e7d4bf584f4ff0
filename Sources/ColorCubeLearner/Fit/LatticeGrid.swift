/// Index arithmetic for lattice vectors stored with one ghost node on every side: a size-N
/// lattice becomes (N+2)^3 slots, red fastest, and the ghosts stay zero, so a node's 26
/// neighbours can be read without bounds checks.
struct LatticeGrid {
    let size: Int
    let padded: Int
    let greenStride: Int
    let blueStride: Int

    init(size: Int) {
        self.size = size
        padded = size + 2
        greenStride = padded
        blueStride = padded * padded
    }

    /// Slots in a padded vector.
    var slotCount: Int { padded * padded * padded }

    /// The slot of lattice node (r, g, b), each 0..<size.
    @inline(__always)
    func slot(_ r: Int, _ g: Int, _ b: Int) -> Int {
        (r + 1) + greenStride * (g + 1) + blueStride * (b + 1)
    }

    /// Slot offset of the neighbour (dr, dg, db), each -1...1.
    @inline(__always)
    func offset(_ dr: Int, _ dg: Int, _ db: Int) -> Int {
        dr + greenStride * dg + blueStride * db
    }

    /// Calls `body(slot, r, g, b)` for every real node, red fastest.
    @inline(__always)
    func forEachNode(_ body: (Int, Int, Int, Int) -> Void) {
        for b in 0..<size {
            for g in 0..<size {
                var slot = self.slot(0, g, b)
                for r in 0..<size {
                    body(slot, r, g, b)
                    slot += 1
                }
            }
        }
    }

    /// The slots of the real nodes as runs along red (one per green and blue), in storage order.
    var runs: [Range<Int>] {
        var result: [Range<Int>] = []
        result.reserveCapacity(size * size)
        for b in 0..<size {
            for g in 0..<size {
                let first = slot(0, g, b)
                result.append(first..<(first + size))
            }
        }
        return result
    }
}
