import ColorCubeCore
import ColorCubeImaging
import Foundation

/// The after images saved as JPEG, fitted to what the file stores rather than to its decoded
/// pixels: the quantised DCT coefficients of each 8x8 block of luma and of chroma (`JPEGCoefficients`).
///
/// A JPEG encoder turns the after's coded RGB into YCbCr (JFIF's BT.601 matrix, linear), averages
/// chroma over each 2x2 (4:2:0) or 2x1 (4:2:2) block (or keeps luma alone, for a greyscale file,
/// which decodes to grey: its chroma is known exactly, 0), takes each component's 8x8 DCT and keeps
/// coefficient k of a block as round(c_k / q_k). So for a look F the encoder's coefficient
/// c_k(F) lay within half a step of the stored value s_k q_k: that interval is everything the file
/// says. Decoded pixels lose it: quantisation zeroes the small fine-detail coefficients, so a
/// decoded pixel is pulled towards its neighbours, and a colour that appears mostly next to
/// duller ones (a saturated detail) reads duller than the edit made it. Fitted as data, that pull
/// flattens the look's slopes, and colours the photos never show, which are extrapolated from
/// those slopes, come out wrong by several codes (measured on the bench's looks).
///
/// The fit instead runs rounds (majorise-minimise, as `ChromaBlocks` does for chroma alone):
/// given the last round's look F', each block's predicted coefficients are moved to the nearest
/// point of the stored intervals, and the difference, taken back through the inverse DCT, is added
/// to the predicted luma and chroma of the block's pixels (chroma per chroma sample, so per 2x2 or
/// 2x1 block). Those targets are what the next round fits. Where F' already lies within every
/// interval the targets are F' itself: the file cannot tell the two apart, and the smoothness
/// prior decides, instead of the decoder's guess. The DC coefficient's interval is narrowed
/// around the stored value (`dcInterval`): within the whole interval the prior pulled every block's
/// mean to one edge.
///
/// The intervals are the noise model, so the fit this converges to needs no more smoothness than a
/// lossless pair's: among the looks the file allows, the smoothest. But rounds started from the
/// decoded pixels at that smoothness hardly move (the decoded after already lies within every
/// interval, noise and all). So the first round takes the smoothness raised for the measured noise
/// (`LookLearner.effectiveSmoothness`), which starts from a smooth look, and each later round
/// lowers it, as (asked / raised)^(t^2) of the raised one at t = round / (rounds - 1), to the one
/// asked for in the last (`LookLearner.fit`).
///
/// That last round also counts every pixel fully (`Change.full`). Until then the tally's flatness
/// weights (`FlatnessWeights`) count busy areas less, as the first rounds, fitted near the decoded
/// pixels, need: weaker weights there let the decoder's noise choose the model's space (rt-warm's
/// curves in sRGB instead of ProPhoto RGB). By the last round the targets follow the file, and the
/// saturated edges and fine colour the weights discount are what colours the photos do not show
/// are extrapolated from. The global model of that round is still fitted to the weighted targets;
/// only the lattice sees every pixel. Measured on Tools/bench-learn-looks (see the Lossy Afters
/// article in ColorCubeLearner.docc).
///
/// Per pixel it keeps the tally entry of the before colour, its weight and the decoded after
/// (8 bytes); per pair the coefficients (2 bytes a sample).
struct JPEGAfters {
    private struct Pair {
        var width: Int
        var height: Int
        /// Tally entry per pixel, -1 for a pixel left out (alpha 0 in the before).
        var entries: [Int32]
        var weights: [UInt8]
        /// The after as decoded (RGB, 8 bits), whose colours the tally holds.
        var decoded: [UInt8]
        var coefficients: JPEGCoefficients
    }

    private var pairs: [Pair] = []

    var isEmpty: Bool { pairs.isEmpty }

    /// Rounds of the per-colour fit `LookLearner.fit` runs when there are such pairs. Chosen on the
    /// five tuned looks of Tools/bench-learn-looks (JPEG q90 4:2:0 and 4:2:2 afters; geometric mean
    /// of the held-out ratio, a scoring script beside the bench): with the smoothness held at the
    /// raised value 6 rounds gave 8.93; falling as above, 8 rounds 7.19, 10 rounds 6.82, 12 rounds
    /// 6.68, 16 rounds 6.57 (falling linearly in t instead of t^2: 10 rounds 6.98, 12 6.77, 16
    /// 6.59). Each round costs about 0.8 s on a 24 Mpx pair, so 12.
    static let rounds = 12

    /// The share of its quantisation interval, centred on the stored value, that a block's DC
    /// coefficient (its mean) is moved into; every AC coefficient keeps its whole interval. Within
    /// the whole interval the file is silent and the smoothness prior pulled the means to one edge:
    /// the lattice learned from JPEG q90 afters differed from the one learned from the PNG afters by
    /// a bias of up to 0.3 codes of Cb or Cr even at nodes with a hundred training pixels around them
    /// (rt-warm, im-film), the size of the chroma DC's slack (step 3, 0.19 codes of the mean). A
    /// block mean is not peaked at zero as fine detail is, so its stored value is where the true one
    /// most likely lies. The share was chosen on the five tuned looks of Tools/bench-learn-looks
    /// (their kept files, a scoring script beside the bench: geometric mean of the held-out ratio
    /// 3.49 at 1, the whole interval; 3.37 at 0.5; 3.50 at 0, the stored value alone); over all 18
    /// looks 0.75 and 0.25 scored 2.10 and 2.17 against 2.09 at 0.5. The bench itself, all 18
    /// looks: 4:2:0 2.15 -> 2.07, 4:2:2 2.08 -> 1.97. (Halving every stored non-zero coefficient's
    /// interval instead was worse: 3.45 -> 4.26 on the five tuned looks.)
    static let dcInterval = 0.5

    /// Records a pair already summed into `tally` with `weights`; false (nothing recorded) when
    /// the after is not 8-bit RGB or the coefficients do not cover its pixels.
    mutating func add(before: PixelBuffer, after: PixelBuffer, coefficients: JPEGCoefficients,
                      tally: ColorTally, weights: FlatnessWeights) -> Bool {
        guard case .eight(let afterSamples) = after.samples, coefficients.width == after.width,
              coefficients.height == after.height, [1, 3].contains(coefficients.components.count),
              coefficients.components.allSatisfy({ Self.covers($0, width: after.width, height: after.height) })
        else { return false }
        // Bands of MCU rows hold whole block rows of every component.
        let tallest = coefficients.components.map(\.verticalStep).max() ?? 1
        guard coefficients.components.allSatisfy({ tallest % $0.verticalStep == 0 }) else { return false }
        let pixels = before.width * before.height
        var pair = Pair(width: before.width, height: before.height,
                        entries: [Int32](repeating: -1, count: pixels), weights: [UInt8](repeating: 0, count: pixels),
                        decoded: [UInt8](repeating: 0, count: pixels * 3), coefficients: coefficients)
        let ac = after.channels
        for pixel in 0..<pixels {
            for channel in 0..<3 { pair.decoded[pixel * 3 + channel] = afterSamples[pixel * ac + channel] }
        }
        switch before.samples {
        case .eight(let b): record(b, before.channels, &pair, tally, weights)
        case .sixteen(let b): record(b, before.channels, &pair, tally, weights)
        }
        pairs.append(pair)
        return true
    }

    /// Whether a component's blocks cover the image at its sampling.
    private static func covers(_ component: JPEGCoefficients.Component, width: Int, height: Int) -> Bool {
        component.horizontalStep > 0 && component.verticalStep > 0
            && component.widthInBlocks * 8 * component.horizontalStep >= width
            && component.heightInBlocks * 8 * component.verticalStep >= height
            && component.quantization.count == 64
            && component.coefficients.count == component.widthInBlocks * component.heightInBlocks * 64
    }

    private func record<B: LearnSample>(_ before: [B], _ bc: Int, _ pair: inout Pair, _ tally: ColorTally,
                                        _ weights: FlatnessWeights) {
        let width = pair.width, pixels = pair.width * pair.height
        before.withUnsafeBufferPointer { bp in
            guard let b = bp.baseAddress else { return }
            for pixel in 0..<pixels {
                if bc == 4, before[pixel * bc + 3] == 0 { continue }
                guard let (entry, w) = weights.entryAndWeight(b, channels: bc, pixel: pixel, width: width, pixels: pixels,
                                                              tally: tally) else { continue }
                pair.entries[pixel] = Int32(entry)
                pair.weights[pixel] = UInt8(w)
            }
        }
    }

    /// What a round's targets change in each colour's sums (RGB, 0...1 scale).
    struct Change {
        /// Each colour's move, weighted as the tally weighed its pixels (`FlatnessWeights`), from
        /// its decoded afters to this round's targets.
        var weighted: [SIMD3<Double>]
        /// With every pixel of these afters at full weight instead: the change of the colour's
        /// weighted after sum (as the tally holds it) to that sum of its targets, and of its weight.
        /// Empty unless asked for.
        var full: [SIMD3<Double>]
        var fullWeight: [Int]

        /// No change yet for `count` colours; `everyPixel` asks for `full` and `fullWeight` too.
        init(count: Int, everyPixel: Bool) {
            weighted = Array(repeating: .zero, count: count)
            full = everyPixel ? Array(repeating: .zero, count: count) : []
            fullWeight = everyPixel ? Array(repeating: 0, count: count) : []
        }

        var countsEveryPixel: Bool { !fullWeight.isEmpty }
    }

    /// Adds to `change` each colour's moves from its decoded after to this round's target, given
    /// the last round's look at each colour's before.
    func addChange(predicted: [SIMD3<Double>], into change: inout Change) {
        for pair in pairs {
            addChange(pair, predicted: predicted, into: &change)
        }
    }

    /// Bands computed at once (on all cores) before they are summed.
    private static let bandsAtOnce = 8

    /// One pair, a band of blocks at a time (an MCU row: 8 pixel rows times the largest vertical
    /// step), so memory stays a few rows of samples whatever the image's size. Each band's work
    /// (the encoder's samples, the DCTs, every pixel's move) runs on all cores, `bandsAtOnce` bands
    /// at a time; only the sums into `change` run on this thread, in band order, so the result does
    /// not depend on the cores.
    private func addChange(_ pair: Pair, predicted: [SIMD3<Double>], into change: inout Change) {
        let width = pair.width, height = pair.height
        let components = pair.coefficients.components
        let bandRows = 8 * (components.map(\.verticalStep).max() ?? 1)
        let bands = (height + bandRows - 1) / bandRows
        // Predicted YCbCr of each colour (8-bit scale, chroma without its offset), clamped as the
        // encoder's 8-bit input was.
        let predictedYCC = predicted.map { Self.ycc(($0 * 255).clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 255))) }
        // Each component's sample column for every pixel column.
        let sampleColumns = components.map { component in (0..<width).map { $0 / component.horizontalStep } }
        let entries = pair.entries, decoded = pair.decoded, weights = pair.weights
        let everyPixel = change.countsEveryPixel
        let full = Double(FlatnessWeights.full)
        for first in stride(from: 0, to: bands, by: Self.bandsAtOnce) {
            let count = min(Self.bandsAtOnce, bands - first)
            let results = Locked([(weighted: [SIMD3<Double>], full: [SIMD3<Double>])](repeating: ([], []), count: count))
            ParallelLoop.run(iterations: count) { index in
                let top = (first + index) * bandRows
                let rows = min(bandRows, height - top)
                let pixels = rows * width
                // The band's predicted YCbCr per pixel; a pixel without a colour in the tally keeps
                // its decoded after.
                let ycc = [SIMD3<Double>](unsafeUninitializedCapacity: pixels) { buffer, initialized in
                    for i in 0..<pixels {
                        let pixel = top * width + i
                        let entry = Int(entries[pixel])
                        buffer[i] = entry >= 0 ? predictedYCC[entry]
                            : Self.ycc(SIMD3(Double(decoded[pixel * 3]), Double(decoded[pixel * 3 + 1]),
                                             Double(decoded[pixel * 3 + 2])))
                    }
                    initialized = pixels
                }
                // Each pixel's target: its predicted YCbCr moved as the stored coefficients ask.
                // A greyscale file holds luma alone and decodes to grey: its chroma is exactly 0.
                var targets = ycc
                if components.count == 1 {
                    for i in 0..<pixels { targets[i].y = 0; targets[i].z = 0 }
                }
                for channel in components.indices {
                    let correction = Self.correction(components[channel], channel: channel, bandTop: top,
                                                     bandRows: bandRows, rows: rows, width: width, ycc: ycc)
                    Self.add(correction, of: components[channel], columns: sampleColumns[channel], channel: channel,
                             rows: rows, width: width, to: &targets)
                }
                // Each pixel's weighted move from its decoded after to its target, RGB 0...1; and
                // at full weight, its target less its weighted decoded after (0 for a pixel left out).
                var moves = [SIMD3<Double>](repeating: .zero, count: pixels)
                var fullMoves = [SIMD3<Double>](repeating: .zero, count: everyPixel ? pixels : 0)
                for i in 0..<pixels {
                    let pixel = top * width + i
                    guard entries[pixel] >= 0 else { continue }
                    let target = Self.rgb(targets[i])
                    let after = SIMD3(Double(decoded[pixel * 3]), Double(decoded[pixel * 3 + 1]),
                                      Double(decoded[pixel * 3 + 2]))
                    let weight = Double(weights[pixel])
                    moves[i] = weight / 255 * (target - after)
                    if everyPixel { fullMoves[i] = (full * target - weight * after) / 255 }
                }
                results.withLock { $0[index] = (moves, fullMoves) }
            }
            Self.sum(results.withLock { $0 }, firstPixel: first * bandRows * width, entries: entries, weights: weights,
                     into: &change)
        }
    }

    /// Adds bands' moves (pixel by pixel from `firstPixel`, as `addChange` computes them) into
    /// `change`, in pixel order. (Split among the cores by ranges of colours, each core reading
    /// every move, this took longer: the moves are read from memory once per core.)
    private static func sum(_ bands: [(weighted: [SIMD3<Double>], full: [SIMD3<Double>])], firstPixel: Int,
                            entries: [Int32], weights: [UInt8], into change: inout Change) {
        let everyPixel = change.countsEveryPixel, full = Int(FlatnessWeights.full)
        var start = firstPixel
        entries.withUnsafeBufferPointer { entries in
            change.weighted.withUnsafeMutableBufferPointer { weighted in
                change.full.withUnsafeMutableBufferPointer { fullSums in
                    change.fullWeight.withUnsafeMutableBufferPointer { fullWeights in
                        for band in bands {
                            for (i, move) in band.weighted.enumerated() {
                                let entry = Int(entries[start + i])
                                guard entry >= 0 else { continue }
                                weighted[entry] += move
                                if everyPixel {
                                    fullSums[entry] += band.full[i]
                                    fullWeights[entry] += full - Int(weights[start + i])
                                }
                            }
                            start += band.weighted.count
                        }
                    }
                }
            }
        }
    }

    /// One component's move, over the band of pixel rows from `bandTop` (`rows` of them in the
    /// image, whose predicted YCbCr is `ycc`), from the predicted samples to the nearest ones the
    /// stored coefficients allow: widthInBlocks*8 samples a row, for the band's rows of this
    /// component's samples.
    static func correction(_ component: JPEGCoefficients.Component, channel: Int, bandTop: Int, bandRows: Int,
                           rows: Int, width: Int, ycc: [SIMD3<Double>]) -> [Double] {
        let sh = component.horizontalStep, sv = component.verticalStep
        let planeWidth = component.widthInBlocks * 8, planeRows = bandRows / sv
        let firstBlockRow = bandTop / sv / 8
        let blockRows = min(planeRows / 8, component.heightInBlocks - firstBlockRow)
        var correction = [Double](repeating: 0, count: planeWidth * planeRows)
        guard blockRows > 0 else { return correction }
        // The encoder's samples: the image's edge pixels repeated out to the blocks, then averaged
        // over each sample's pixels.
        var plane = [Double](repeating: 0, count: planeWidth * planeRows)
        let share = 1 / Double(sh * sv)
        let columns = (0..<(planeWidth * sh)).map { min($0, width - 1) }
        ycc.withUnsafeBytes { yccBytes in
            plane.withUnsafeMutableBufferPointer { plane in
                columns.withUnsafeBufferPointer { columns in
                    let laneOffset = channel * MemoryLayout<Double>.stride, pixelBytes = MemoryLayout<SIMD3<Double>>.stride
                    for row in 0..<(blockRows * 8) {
                        for sx in 0..<planeWidth {
                            var sum = 0.0
                            for dy in 0..<sv {
                                let rowStart = min(row * sv + dy, rows - 1) * width
                                for dx in 0..<sh {
                                    sum += yccBytes.load(fromByteOffset: (rowStart + columns[sx * sh + dx]) * pixelBytes + laneOffset,
                                                         as: Double.self)
                                }
                            }
                            plane[row * planeWidth + sx] = sum * share
                        }
                    }
                }
            }
        }
        let levelShift = DCT8.Row(repeating: channel == 0 ? 128 : 0)
        // Each row of frequencies' steps, and the half width of the interval each coefficient is
        // moved into: half a step, the DC's narrowed to `dcInterval` of its step.
        let steps = (0..<8).map { u in DCT8.Row((0..<8).map { Double(component.quantization[u * 8 + $0]) }) }
        var halves = steps.map { $0 / 2 }
        halves[0][0] = steps[0][0] * Self.dcInterval / 2
        let dct = DCT8()
        let block = dct.block
        plane.withUnsafeBytes { samples in
            correction.withUnsafeMutableBytes { moves in
                component.coefficients.withUnsafeBufferPointer { stored in
                    let rowBytes = planeWidth * MemoryLayout<Double>.stride
                    for blockRow in 0..<blockRows {
                        for bx in 0..<component.widthInBlocks {
                            let origin = (blockRow * 8 * planeWidth + bx * 8) * MemoryLayout<Double>.stride
                            for r in 0..<8 {
                                block[r] = samples.loadUnaligned(fromByteOffset: origin + r * rowBytes, as: DCT8.Row.self)
                                    - levelShift
                            }
                            dct.forward()
                            let base = ((firstBlockRow + blockRow) * component.widthInBlocks + bx) * 64
                            var anyMoved = false
                            for u in 0..<8 {
                                let value = block[u], step = steps[u], half = halves[u]
                                var moved = DCT8.Row()
                                for v in 0..<8 {
                                    let centre = Double(stored[base + u * 8 + v]) * step[v]
                                    let nearest = min(max(value[v], centre - half[v]), centre + half[v])
                                    moved[v] = nearest - value[v]
                                    anyMoved = anyMoved || nearest != value[v]
                                }
                                block[u] = moved
                            }
                            guard anyMoved else { continue }
                            dct.inverse()
                            for r in 0..<8 {
                                moves.storeBytes(of: block[r], toByteOffset: origin + r * rowBytes, as: DCT8.Row.self)
                            }
                        }
                    }
                }
            }
        }
        return correction
    }

    /// Adds one component's `correction` (its samples' moves, as `correction` returns them) to
    /// lane `channel` of every pixel of the band in `targets`; `columns` holds each pixel
    /// column's sample column.
    private static func add(_ correction: [Double], of component: JPEGCoefficients.Component, columns: [Int],
                            channel: Int, rows: Int, width: Int, to targets: inout [SIMD3<Double>]) {
        let perRow = component.widthInBlocks * 8, sv = component.verticalStep
        correction.withUnsafeBufferPointer { correction in
            columns.withUnsafeBufferPointer { columns in
                targets.withUnsafeMutableBytes { targets in
                    let laneOffset = channel * MemoryLayout<Double>.stride, pixelBytes = MemoryLayout<SIMD3<Double>>.stride
                    for y in 0..<rows {
                        let samples = (y / sv) * perRow
                        for x in 0..<width {
                            let offset = (y * width + x) * pixelBytes + laneOffset
                            let value = targets.load(fromByteOffset: offset, as: Double.self) + correction[samples + columns[x]]
                            targets.storeBytes(of: value, toByteOffset: offset, as: Double.self)
                        }
                    }
                }
            }
        }
    }

    /// JFIF's YCbCr of an RGB colour, 8-bit scale, chroma without its offset of 128.
    @inline(__always)
    private static func ycc(_ c: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(0.299 * c.x + 0.587 * c.y + 0.114 * c.z,
              -0.168735892 * c.x - 0.331264108 * c.y + 0.5 * c.z,
              0.5 * c.x - 0.418687589 * c.y - 0.081312411 * c.z)
    }

    /// The RGB colour of JFIF YCbCr (the inverse of `ycc`).
    @inline(__always)
    private static func rgb(_ c: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(c.x + 1.402 * c.z, c.x - 0.344136286 * c.y - 0.714136286 * c.z, c.x + 1.772 * c.y)
    }
}
