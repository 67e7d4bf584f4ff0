/// The after images whose chroma is stored per block (`ChromaSubsampling`), and the fit of their
/// chroma as block means: lossy WebP, HEIC and AVIF afters, and JPEG afters whose coefficients
/// were not given (`learn` reads them, and fits a JPEG after to them: `JPEGAfters`).
///
/// A JPEG encoder turns each pixel's coded RGB into luma and chroma (JFIF's BT.601 matrix, linear
/// in the coded values), keeps luma at every pixel and stores the mean chroma of each 2x2 (4:2:0)
/// or 2x1 (4:2:2) block; lossy WebP (VP8) does the same with BT.601 in limited range, HEIC and
/// AVIF with the matrix of their nclx box (`ChromaMatrix`).
/// So for a look F, the after's luma at pixel i is Y(F(x_i)), but its chroma
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
/// Encoders differ in how they reduce a block, and the file does not say: libjpeg averages it,
/// libwebp too (with a 0.8 power of the RGB first), libheif 1.15 keeps its top-left pixel's
/// chroma (64x64 random colours at quality 90: decoded block chroma 0.7 codes from the top-left
/// pixel's and 33 from the mean for HEIC, 34 and 9.5 for WebP). The mean is the model for all:
/// a top-left model, chosen per pair when the first fit's top-left prediction was nearer the
/// observed chroma, was tried and dropped. On sample photos with libheif's own HEIC q90 afters
/// the test preferred the mean (presumably HEVC's coding blurs chroma), and forcing the top-left model gave
/// 0.55 CIEDE2000 on held-out photos against 0.40 with the mean and 0.53 per pixel.
///
/// Per pixel it keeps the tally entry of its before colour and its weight (5 bytes); per block
/// the weighted mean chroma of the after; per matrix and entry the weight and chroma of the
/// pixels it holds from such pairs (the pairs' chroma is only summed within one matrix).
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
        /// Index of the pair's matrix in `groups`.
        var group: Int
        var blocksPerRow: Int { (width + subsampling.horizontal - 1) / subsampling.horizontal }
    }

    /// The pairs of one matrix, summed per tally entry.
    private struct Group {
        var matrix: ChromaMatrix
        /// Per tally entry: weight of the pixels from these pairs, and their weighted after chroma.
        var entryWeight: [Double] = []
        var entryChroma: [SIMD2<Double>] = []
    }

    private var pairs: [Pair] = []
    private var groups: [Group] = []

    /// Rounds of the per-colour fit `LookLearner.fit` runs when there are such pairs. On
    /// Tools/bench-learn-looks (JPEG q90 4:2:0 afters) the held-out ratio's geometric mean is 8.19
    /// after one round (chroma as decoded, block by block), 7.32 after 4 and 7.31 after 8.
    static let rounds = 4

    var isEmpty: Bool { pairs.isEmpty }

    /// Records a pair already summed into `tally` with `weights`.
    mutating func add(before: PixelBuffer, after: PixelBuffer, subsampling: ChromaSubsampling,
                      tally: ColorTally, weights: FlatnessWeights) {
        let group = groups.firstIndex { $0.matrix == subsampling.matrix } ?? groups.count
        if group == groups.count { groups.append(Group(matrix: subsampling.matrix)) }
        let grown = tally.count - groups[group].entryWeight.count
        if grown > 0 {
            groups[group].entryWeight += [Double](repeating: 0, count: grown)
            groups[group].entryChroma += [SIMD2<Double>](repeating: .zero, count: grown)
        }
        var pair = Pair(width: before.width, height: before.height, subsampling: subsampling,
                        entries: [Int32](repeating: -1, count: before.width * before.height),
                        weights: [UInt8](repeating: 0, count: before.width * before.height),
                        observed: [], blockWeights: [], group: group)
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
        let matrix = pair.subsampling.matrix, group = pair.group
        // The group's sums are moved out for the loop and back after it: summed through
        // `groups[group]` they paid the nested arrays' checks at every pixel.
        var entryWeight: [Double] = [], entryChroma: [SIMD2<Double>] = []
        swap(&entryWeight, &groups[group].entryWeight)
        swap(&entryChroma, &groups[group].entryChroma)
        defer {
            swap(&entryWeight, &groups[group].entryWeight)
            swap(&entryChroma, &groups[group].entryChroma)
        }
        before.withUnsafeBufferPointer { bp in
            guard let b = bp.baseAddress else { return }
            for pixel in 0..<pixels {
                let bi = pixel * bc, ai = pixel * ac
                if bc == 4, before[bi + 3] == 0 { continue }
                if ac == 4, after[ai + 3] == 0 { continue }
                guard let (entry, w) = weights.entryAndWeight(b, channels: bc, pixel: pixel, width: width, pixels: pixels,
                                                              tally: tally) else { continue }
                let c = matrix.chroma(SIMD3(Double(after[ai]), Double(after[ai + 1]), Double(after[ai + 2])) * afterScale)
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

    /// Adds to `change` each colour's weighted move of its after for the next round (RGB, 0...1
    /// scale): its chroma from these pairs becomes its predicted chroma under the last round's look
    /// plus the mean residual of the blocks its pixels lie in; its luma stays as the pixels have it.
    func addChange(predicted: [SIMD3<Double>], into change: inout [SIMD3<Double>]) {
        for index in groups.indices {
            retarget(group: index, predicted: predicted, into: &change)
        }
    }

    /// Adds one matrix's pairs' change of each colour's after (weighted RGB, luma unchanged) to
    /// `change`.
    private func retarget(group: Int, predicted: [SIMD3<Double>], into change: inout [SIMD3<Double>]) {
        let matrix = groups[group].matrix, entryWeight = groups[group].entryWeight
        let entryChroma = groups[group].entryChroma
        let predictedChroma = predicted.map(matrix.chroma)
        var residual = [SIMD2<Double>](repeating: .zero, count: predicted.count)
        for pair in pairs where pair.group == group {
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
        for index in predicted.indices where index < entryWeight.count && entryWeight[index] > 0 {
            let chroma = entryWeight[index] * predictedChroma[index] + residual[index] - entryChroma[index]
            change[index] += matrix.rgb(chromaChange: chroma)
        }
    }
}
