/// How much a pixel of a noisy pair counts in the fit, by how busy the before image is around it.
///
/// Lossy compression errs most where the picture changes: at edges and in fine texture (JPEG's
/// halved chroma smears colour across edges, and its blocks ring), and least in flat areas, where
/// it keeps colour well. So in a pair whose after is noisy, a pixel whose four neighbours differ
/// from it by d codes (the largest difference over channels, 8-bit scale) weighs
/// `full / (1 + (d / tau)^2)`, at least 1, with tau shrinking as the noise grows; in a pair
/// without noise every pixel weighs `full`. Integer weights keep the tally's sums exact.
struct FlatnessWeights: Sendable {
    /// The weight of a pixel in a flat area, or in a noiseless pair.
    static let full: UInt64 = 64
    /// tau, in 8-bit codes, for a pair whose noise is one code (see `PairNoise.deviation`).
    static let referenceTau = 8.0

    /// Weight by the largest neighbour difference 0...255; nil when every pixel weighs `full`.
    let table: [UInt64]
    var isUniform: Bool { table.isEmpty }

    /// The weights for a pair with after noise `noise` (8-bit codes): uniform when it is 0.
    init(noise: Double) {
        guard noise > 0 else {
            self.init(table: [])
            return
        }
        let tau = Self.referenceTau / noise
        self.init(table: (0..<256).map { d in
            let ratio = Double(d) / tau
            return max(1, UInt64((Double(Self.full) / (1 + ratio * ratio)).rounded()))
        })
    }

    /// The largest difference (8-bit codes, over channels) between pixel `pixel` of the before
    /// image `b` (`channels` samples per pixel, `width` per row, `pixels` in all), whose 8-bit
    /// code is `code`, and its four neighbours: the index into `table`.
    @inline(__always)
    static func spread<B: LearnSample>(_ b: UnsafePointer<B>, channels: Int, pixel: Int, width: Int, pixels: Int,
                                       code: (Int, Int, Int)) -> Int {
        var spread = 0
        @inline(__always) func compare(_ neighbour: Int) {
            let ni = neighbour &* channels
            spread = max(spread, abs(B.code8(b[ni]) &- code.0), abs(B.code8(b[ni &+ 1]) &- code.1),
                         abs(B.code8(b[ni &+ 2]) &- code.2))
        }
        let x = pixel % width
        if x > 0 { compare(pixel &- 1) }
        if x &+ 1 < width { compare(pixel &+ 1) }
        if pixel >= width { compare(pixel &- width) }
        if pixel &+ width < pixels { compare(pixel &+ width) }
        return spread
    }

    /// The tally entry of pixel `pixel`'s before colour (image `b` as for `spread`) and the
    /// pixel's weight; nil when the tally does not hold the colour. For the fits that keep each
    /// pixel's entry after the tally has summed it (`ChromaBlocks`, `JPEGAfters`).
    @inline(__always)
    func entryAndWeight<B: LearnSample>(_ b: UnsafePointer<B>, channels: Int, pixel: Int, width: Int, pixels: Int,
                                        tally: ColorTally) -> (entry: Int, weight: UInt64)? {
        let bi = pixel &* channels
        let code = (B.code8(b[bi]), B.code8(b[bi &+ 1]), B.code8(b[bi &+ 2]))
        guard let entry = tally.entryIndex(key: code.0 | code.1 << 8 | code.2 << 16) else { return nil }
        let weight = isUniform ? Self.full
            : table[Self.spread(b, channels: channels, pixel: pixel, width: width, pixels: pixels, code: code)]
        return (entry, weight)
    }

    private init(table: [UInt64]) {
        self.table = table
    }
}
