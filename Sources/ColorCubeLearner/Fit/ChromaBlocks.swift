/// The after images whose chroma is stored per block (`ChromaSubsampling`), and the fit of their
/// chroma as block means.
///
/// A JPEG encoder turns each pixel's coded RGB into luma and chroma (JFIF's BT.601 matrix, linear
/// in the coded values), keeps luma at every pixel and stores the mean chroma of each 2x2 (4:2:0)
/// or 2x1 (4:2:2) block. So for a look F, the after's luma at pixel i is Y(F(x_i)), but its chroma
/// is the block mean of C(F(x_j)) over the block's pixels j: a pixel's own chroma is not known
/// where a block straddles an edge. The energy with chroma per block,
///
///     sum_i w_i |Y(F(x_i)) - Y(a_i)|^2 + sum_blocks W_b |mean_b C(F(x_j)) - C_b|^2,
///
/// couples colours that share a block, so it is minimised by rounds of the per-colour fit
/// (majorise-minimise): given the last round's look F', each pixel's chroma target becomes
/// C(F'(x_i)) + r_b, its own predicted chroma plus its block's residual r_b = C_b - mean_b
/// C(F'(x_j)), and its luma target stays Y(a_i). Since sum_i w_i |p_i - t_i|^2 >= W_b |mean p - C_b|^2
/// with equality at F', each round lowers the energy; where F is constant over a block (flat
/// areas) one round is exact, and only blocks across edges need more.
///
/// Per pixel it keeps the tally entry of its before colour and its weight (5 bytes); per block
/// the weighted mean chroma of the after; per entry the weight and chroma of the pixels it holds
/// from such pairs.
struct ChromaBlocks {
    /// One pair's pixels and blocks.
    private struct Pair {
        var width: Int
        var height: Int
        var subsampling: ChromaSubsampling
        /// Tally entry per pixel, -1 for a pixel left out (alpha 0).
        var entries: [Int32]
        var weights: [UInt8]
        /// Weighted mean chroma of the after per block, and the block's weight.
        var observed: [SIMD2<Double>]
        var blockWeights: [Double]
        var blocksPerRow: Int { (width + subsampling.horizontal - 1) / subsampling.horizontal }
    }

    private var pairs: [Pair] = []
    /// Per tally entry: weight of the pixels from these pairs, and their weighted after chroma.
    private var entryWeight: [Double] = []
    private var entryChroma: [SIMD2<Double>] = []

    /// Rounds of the per-colour fit `LookLearner.fit` runs when there are such pairs. On
    /// Tools/bench-learn-looks (JPEG q90 4:2:0 afters) the held-out ratio's geometric mean is 8.19
    /// after one round (chroma as decoded, block by block), 7.32 after 4 and 7.31 after 8.
    static let rounds = 4

    var isEmpty: Bool { pairs.isEmpty }

    /// JFIF's chroma (Cb, Cr) of an RGB colour, 0...1 scale, without the 0.5 offset.
    @inline(__always)
    static func chroma(_ c: SIMD3<Double>) -> SIMD2<Double> {
        SIMD2(-0.168736 * c.x - 0.331264 * c.y + 0.5 * c.z, 0.5 * c.x - 0.418688 * c.y - 0.081312 * c.z)
    }

    /// The RGB change that moves chroma by `d` and leaves luma as it is.
    @inline(__always)
    static func rgb(chromaChange d: SIMD2<Double>) -> SIMD3<Double> {
        SIMD3(1.402 * d.y, -0.344136 * d.x - 0.714136 * d.y, 1.772 * d.x)
    }

    /// Records a pair already summed into `tally` with `weights`.
    mutating func add(before: PixelBuffer, after: PixelBuffer, subsampling: ChromaSubsampling,
                      tally: ColorTally, weights: FlatnessWeights) {
        if entryWeight.count < tally.count {
            entryWeight += [Double](repeating: 0, count: tally.count - entryWeight.count)
            entryChroma += [SIMD2<Double>](repeating: .zero, count: tally.count - entryChroma.count)
        }
        var pair = Pair(width: before.width, height: before.height, subsampling: subsampling,
                        entries: [Int32](repeating: -1, count: before.width * before.height),
                        weights: [UInt8](repeating: 0, count: before.width * before.height),
                        observed: [], blockWeights: [])
        let blockRows = (before.height + subsampling.vertical - 1) / subsampling.vertical
        pair.observed = [SIMD2<Double>](repeating: .zero, count: pair.blocksPerRow * blockRows)
        pair.blockWeights = [Double](repeating: 0, count: pair.blocksPerRow * blockRows)
        switch (before.samples, after.samples) {
        case (.eight(let b), .eight(let a)): record(b, before.channels, a, after.channels, &pair, tally, weights)
        case (.eight(let b), .sixteen(let a)): record(b, before.channels, a, after.channels, &pair, tally, weights)
        case (.sixteen(let b), .eight(let a)): record(b, before.channels, a, after.channels, &pair, tally, weights)
        case (.sixteen(let b), .sixteen(let a)): record(b, before.channels, a, after.channels, &pair, tally, weights)
        }
        for block in pair.observed.indices where pair.blockWeights[block] > 0 {
            pair.observed[block] /= pair.blockWeights[block]
        }
        pairs.append(pair)
    }

    private mutating func record<B: LearnSample, A: LearnSample>(_ before: [B], _ bc: Int, _ after: [A], _ ac: Int,
                                                                 _ pair: inout Pair, _ tally: ColorTally,
                                                                 _ weights: FlatnessWeights) {
        let width = pair.width, pixels = pair.width * pair.height
        let bw = pair.subsampling.horizontal, bh = pair.subsampling.vertical, perRow = pair.blocksPerRow
        let afterScale = 1 / Double(A.max)
        before.withUnsafeBufferPointer { bp in
            guard let b = bp.baseAddress else { return }
            for pixel in 0..<pixels {
                let bi = pixel * bc, ai = pixel * ac
                if bc == 4, before[bi + 3] == 0 { continue }
                if ac == 4, after[ai + 3] == 0 { continue }
                let code = (B.code8(before[bi]), B.code8(before[bi + 1]), B.code8(before[bi + 2]))
                guard let entry = tally.entryIndex(key: code.0 | code.1 << 8 | code.2 << 16) else { continue }
                let w = weights.isUniform ? FlatnessWeights.full
                    : weights.table[FlatnessWeights.spread(b, channels: bc, pixel: pixel, width: width, pixels: pixels,
                                                           code: code)]
                let c = Self.chroma(SIMD3(Double(after[ai]), Double(after[ai + 1]), Double(after[ai + 2])) * afterScale)
                let block = (pixel / width / bh) * perRow + (pixel % width) / bw
                let weight = Double(w)
                pair.entries[pixel] = Int32(entry)
                pair.weights[pixel] = UInt8(w)
                pair.observed[block] += weight * c
                pair.blockWeights[block] += weight
                entryWeight[entry] += weight
                entryChroma[entry] += weight * c
            }
        }
    }

    /// The colours' after means for the next round: each colour's luma as the pixels have it,
    /// its chroma (from these pairs) its predicted chroma under the last round's look plus the
    /// mean residual of the blocks its pixels lie in.
    /// - Parameters:
    ///   - colors: the tally's colours with their measured after means (updated in place).
    ///   - measured: the measured after means, as `FitColor.colors` gives them.
    ///   - predicted: the last round's look at each colour's before.
    func retarget(_ colors: inout [FitColor], measured: [FitColor], predicted: [SIMD3<Double>]) {
        let predictedChroma = predicted.map(Self.chroma)
        var residual = [SIMD2<Double>](repeating: .zero, count: colors.count)
        for pair in pairs {
            var blockPrediction = [SIMD2<Double>](repeating: .zero, count: pair.observed.count)
            let width = pair.width, bw = pair.subsampling.horizontal, bh = pair.subsampling.vertical
            let perRow = pair.blocksPerRow
            for pixel in pair.entries.indices where pair.entries[pixel] >= 0 {
                let block = (pixel / width / bh) * perRow + (pixel % width) / bw
                blockPrediction[block] += Double(pair.weights[pixel]) * predictedChroma[Int(pair.entries[pixel])]
            }
            for block in blockPrediction.indices where pair.blockWeights[block] > 0 {
                blockPrediction[block] = pair.observed[block] - blockPrediction[block] / pair.blockWeights[block]
            }
            for pixel in pair.entries.indices where pair.entries[pixel] >= 0 {
                let block = (pixel / width / bh) * perRow + (pixel % width) / bw
                residual[Int(pair.entries[pixel])] += Double(pair.weights[pixel]) * blockPrediction[block]
            }
        }
        for index in colors.indices where index < entryWeight.count && entryWeight[index] > 0 {
            let change = entryWeight[index] * predictedChroma[index] + residual[index] - entryChroma[index]
            colors[index].after = measured[index].after + Self.rgb(chromaChange: change / measured[index].weight)
        }
    }
}
