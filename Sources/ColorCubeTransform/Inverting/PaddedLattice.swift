/// A forward 3D LUT's lattice with one more node beyond each face, so that colours the look never
/// produces still fall inside some cell and get an inverse.
///
/// The lattice of `n` nodes per axis becomes one of `n + 2`: padded node (i, j, k) copies the
/// original node (i - 1, j - 1, k - 1) with each index clamped to 0...n-1, and where any index is
/// outside the original lattice the copied colour c is pushed away from mid-grey,
/// `(c - 0.5) * 4 + 0.5`. This is OpenColorIO's rule for its exact inverse of a 3D LUT (its
/// `InvLut3DRenderer`), followed here so that `colorcube invert` and `ociobakelut --invlut` give
/// the same colour where the look has no inverse. A solution found in a padded cell lies outside
/// the forward domain and is clamped back onto its faces by the caller.
struct PaddedLattice: Sendable {
    /// How far a padded node's colour is pushed from the centre, and the centre itself.
    static let extrapolationScale = 4.0
    static let extrapolationCenter = 0.5

    /// Nodes per axis: the forward lattice's size plus two.
    let size: Int
    /// The colours, red fastest.
    let values: [SIMD3<Double>]

    init(_ forward: LUT3DOp) {
        let n = forward.size
        let size = n + 2
        var values = [SIMD3<Double>](repeating: SIMD3(), count: size * size * size)
        for b in 0..<size {
            for g in 0..<size {
                for r in 0..<size {
                    let source = SIMD3(min(max(r - 1, 0), n - 1), min(max(g - 1, 0), n - 1), min(max(b - 1, 0), n - 1))
                    let entry = forward.table.entry(at: source.x + n * (source.y + n * source.z))
                    var colour = SIMD3(Double(entry.x), Double(entry.y), Double(entry.z))
                    let outside = r == 0 || g == 0 || b == 0 || r == size - 1 || g == size - 1 || b == size - 1
                    if outside {
                        colour = (colour - Self.extrapolationCenter) * Self.extrapolationScale + Self.extrapolationCenter
                    }
                    values[r + size * (g + size * b)] = colour
                }
            }
        }
        self.size = size
        self.values = values
    }

    /// The colour at padded node (r, g, b).
    func value(_ r: Int, _ g: Int, _ b: Int) -> SIMD3<Double> {
        values[r + size * (g + size * b)]
    }
}
