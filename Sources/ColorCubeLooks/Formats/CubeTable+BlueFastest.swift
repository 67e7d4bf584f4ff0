import ColorCubeCore

extension CubeTable {
    /// Calls `body(r, g, b, entry)` for every node with BLUE varying fastest, then green, then red:
    /// the order of .vf, .spi3d and .m3d files (a `CubeTable` stores red fastest).
    func forEachNodeBlueFastest(_ body: (_ r: Int, _ g: Int, _ b: Int, _ entry: SIMD4<Float>) throws -> Void) rethrows {
        let n = size
        for r in 0..<n {
            for g in 0..<n {
                for b in 0..<n {
                    try body(r, g, b, entry(at: ColorCube.redFastestIndex(r: r, g: g, b: b, size: n)))
                }
            }
        }
    }
}
