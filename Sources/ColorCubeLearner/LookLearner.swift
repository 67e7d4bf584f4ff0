import ColorCubeCore
import ColorCubeImaging
import Foundation

/// Learns a look from before/after pairs of the same photos: the colour cube whose trilinear
/// interpolation (the engine's, so `apply` reproduces it) maps the before pixels closest to the
/// after pixels, smoothed where the photos are silent.
///
/// Feed pairs with `add(before:after:name:)`, then call `fit(size:smoothness:)` for the cube and
/// how the fit reached it (`LearnedLook`; `cube(size:smoothness:)` for the cube alone) and
/// `report(for:)` for how well it fits. Pixels are summed by colour as they arrive, so memory does
/// not grow with the number of pairs beyond a bounded grid of pixels kept for the report: a 64 MB
/// slot table, 56 bytes per distinct 8-bit colour (at most 2^24) and at most 2^21 kept pixels.
///
/// Not thread-safe: add pairs from one thread at a time. The same pairs in the same order give
/// the same cube, bit for bit.
///
/// ```swift
/// let learner = LookLearner()
/// try learner.add(before: PixelBuffer(width: w, height: h, channels: 4, samples: .eight(original)),
///                 after: PixelBuffer(width: w, height: h, channels: 4, samples: .eight(edited)))
/// let learned = try learner.fit(size: 33)       // learned.cube, learned.model...
/// let report = learner.report(for: learned)      // report.meanDeltaE, report.warnings...
/// ```
public final class LookLearner {
    /// The smoothness `fit` uses unless told otherwise. First chosen on held-out photos with the
    /// straight-line prior (looks learned from four of the five full-size sample photos with
    /// lossless afters and applied to the fifth, averaged over the seven sample looks: 0.096,
    /// 0.088, 0.085, 0.091, 0.100, 0.121 and 0.162 at 1e-8, 3e-8, 1e-7, 3e-7, 1e-6, 3e-6 and
    /// 1e-5), then lowered from 1e-7 to 3e-8 with the global-model prior on the real editors'
    /// looks of Tools/bench-learn-looks (learned from two photos, judged on three others): the
    /// geometric mean of the held-out ratio over the five tuned looks is 2.64, 2.62, 2.91 and
    /// 3.42 at 1e-8, 3e-8, 1e-7 and 3e-7 (2.41 -> 2.22 over all 14 looks). A larger weight pulls
    /// the lattice towards the global model, which fits the editors' edits less well than the
    /// photos' own colours continued smoothly; a smaller one lets unseen colours follow the few
    /// nearby pixels too closely.
    public static let defaultSmoothness = 3e-8
    /// The `noiseSmoothness` a learner has unless told otherwise, chosen as `defaultSmoothness`
    /// was but with the afters saved as JPEG quality 90 (4:2:0): held-out means 0.515, 0.499 and
    /// 0.518 at 3e-5, 6e-5 and 1.2e-4 per squared code (the afters measure 0.45 to 2.4 codes).
    public static let defaultNoiseSmoothness = 6e-5
    /// Smoothness added per squared code of after noise (`PairNoise`): the balance between data
    /// and prior moves with the noise's variance, as in any least-squares fit.
    public let noiseSmoothness: Double
    /// Pixels kept for the report across all pairs; past it every pair keeps half as many.
    static let sampleBudget = 1 << 21

    private let tally = ColorTally()
    /// Pairs whose after stores chroma per block.
    private var chromaBlocks = ChromaBlocks()
    /// Pairs whose after is a JPEG fitted to its stored coefficients.
    private var jpegAfters = JPEGAfters()
    /// Each pair's noise variance times its pixels, summed.
    private var noiseVariancePixels = 0.0
    private var samples: [PairSamples] = []
    private var keptSamples = 0
    /// Pairs added.
    public private(set) var pairCount = 0

    public init(noiseSmoothness: Double = LookLearner.defaultNoiseSmoothness) {
        self.noiseSmoothness = noiseSmoothness
    }

    /// Pixels added so far (alpha-0 pixels left out).
    public var pixelCount: Int { tally.pixels }

    /// Adds one pair: the photo before the edit and after it, of the same pixel size, each 8 or
    /// 16 bits, RGB or RGBA (the two may differ in depth and channels).
    /// - Parameter name: names the pair in the report and in errors.
    /// - Parameter afterChroma: the after's chroma blocks, when it was decoded with each block's
    ///   chroma repeated over its pixels (see `ChromaSubsampling`); its chroma is then fitted per
    ///   block. nil fits every pixel's colour as it is.
    /// - Parameter afterCoefficients: the after's quantised DCT coefficients, when it is a JPEG
    ///   (see `JPEGCoefficients`); its colours are then fitted to them (`JPEGAfters`) and
    ///   `afterChroma` is not used.
    /// - Throws: `LearnError.sizeMismatch` when the pixel sizes differ.
    public func add(before: PixelBuffer, after: PixelBuffer, name: String? = nil,
                    afterChroma: ChromaSubsampling? = nil, afterCoefficients: JPEGCoefficients? = nil) throws(LearnError) {
        let name = name ?? "pair \(pairCount + 1)"
        guard before.width == after.width, before.height == after.height else {
            throw .sizeMismatch(before: name + " (before)", beforeWidth: before.width, beforeHeight: before.height,
                                after: name + " (after)", afterWidth: after.width, afterHeight: after.height)
        }
        let noise = PairNoise.measure(before: before, after: after).deviation
        let pixelsBefore = tally.pixels
        let weights = FlatnessWeights(noise: noise)
        // The samples the report measures, kept while the tally merges its halves.
        let measured = Locked<PairSamples?>(nil)
        tally.add(before: before, after: after, weights: weights) {
            let samples = PairSamples(name: name, before: before, after: after)
            measured.withLock { $0 = samples }
        }
        let fittedToCoefficients = afterCoefficients.map {
            jpegAfters.add(before: before, after: after, coefficients: $0, tally: tally, weights: weights)
        } ?? false
        if !fittedToCoefficients, let afterChroma {
            chromaBlocks.add(before: before, after: after, subsampling: afterChroma, tally: tally, weights: weights)
        }
        noiseVariancePixels += noise * noise * Double(tally.pixels - pixelsBefore)
        let kept = measured.withLock { $0 } ?? PairSamples(name: name, before: before, after: after)
        keptSamples += kept.samples.count
        samples.append(kept)
        while keptSamples > Self.sampleBudget {
            keptSamples = 0
            for index in samples.indices {
                samples[index].thin()
                keptSamples += samples[index].samples.count
            }
        }
        pairCount += 1
    }

    /// The cube that fits the pairs best, with second differences along each axis of its departure
    /// from a global model of the edit penalised by `smoothness` (see `LatticeSolver` for the energy
    /// and `GlobalModelChooser` for the model), and how the fit reached it. Values may fall outside
    /// 0...1 where the edit pushes colours there. Noisy afters raise the smoothness
    /// (`effectiveSmoothness`); afters whose chroma is stored per block, or JPEG afters fitted to
    /// their coefficients, take several rounds, over which a JPEG fit's smoothness falls back to
    /// `smoothness` and whose last counts every pixel of the JPEG afters fully (see `JPEGAfters`).
    ///
    /// When every after is grey (`LearnedLook.grey`), each node takes its channels' mean. The three
    /// channels then fit the same data and differ only where the global model's three channels do
    /// (its curves settle towards the identity, which differs per channel), in colours the pairs do
    /// not show; the mean is the lattice the mean of the model's channels would give as the prior
    /// (the solve is linear in the prior, and the same for each channel). Without it a learned
    /// black and white look tinted unseen colours by up to half a code, which CIEDE2000 weighs
    /// heavily near grey.
    /// - Parameter size: lattice points per axis, 2...65.
    /// - Throws: `LearnError.invalidSize`, `.invalidSmoothness`, or `.noPixels` before any pixel.
    public func fit(size: Int, smoothness: Double = LookLearner.defaultSmoothness) throws(LearnError) -> LearnedLook {
        guard LearnError.sizeRange.contains(size) else { throw .invalidSize(size) }
        guard smoothness.isFinite, smoothness >= 0 else { throw .invalidSmoothness(smoothness) }
        guard tally.pixels > 0 else { throw .noPixels }
        let used = effectiveSmoothness(smoothness)
        let grey = tally.aftersAreGrey
        let measured = FitColor.colors(of: tally.entries)
        var colors = measured
        let rounds = max(chromaBlocks.isEmpty ? 1 : ChromaBlocks.rounds, jpegAfters.isEmpty ? 1 : JPEGAfters.rounds)
        var iterations: [Int] = []
        /// One solve of the lattice on `size`, its iterations counted; made grey when the afters are.
        func solve(_ colors: [FitColor], smoothness: Double, prior: any GlobalModelForm,
                   start: [SIMD4<Double>]? = nil, totalWeight: UInt64? = nil) -> LatticeSolver.Solution {
            var solution = LatticeSolver.solve(colors: colors, totalWeight: totalWeight ?? tally.totalWeight,
                                               size: size, smoothness: smoothness, prior: prior, start: start)
            iterations.append(solution.iterations)
            if grey {
                for index in solution.values.indices {
                    let value = solution.values[index]
                    let mean = (value.x + value.y + value.z) / 3
                    solution.values[index] = SIMD4(mean, mean, mean, value.w)
                }
            }
            return solution
        }
        // The model's form is chosen before the first solve and again above what that solve leaves
        // on the pairs, then kept over the rounds (`GlobalModelChooser`).
        var chooser = GlobalModelChooser(colors: colors, totalWeight: tally.totalWeight)
        var solution = solve(colors, smoothness: used, prior: chooser.model)
        let changed = chooser.reconsider(latticeValue: { solution.value(at: $0) }, pairs: pairColors(),
                                         colors: colors, totalWeight: tally.totalWeight)
        if changed, rounds == 1 {
            solution = solve(colors, smoothness: used, prior: chooser.model, start: solution.values)
        }
        var finalSmoothness = used
        // JPEG afters alone: their coefficient intervals are the noise model, so the smoothness
        // falls round by round from the noisy value to the asked one (see `JPEGAfters`).
        let falls = !jpegAfters.isEmpty && chromaBlocks.isEmpty && used > smoothness
        for round in 1..<rounds {
            let progress = Double(round) / Double(rounds - 1)
            let roundSmoothness = !falls ? used
                : round == rounds - 1 ? smoothness : used * pow(smoothness / used, progress * progress)
            let predicted = colors.map { solution.value(at: $0.before) }
            // The last round of a falling fit counts every pixel of the JPEG afters fully.
            var change = JPEGAfters.Change(count: colors.count, everyPixel: falls && round == rounds - 1)
            chromaBlocks.addChange(predicted: predicted, into: &change.weighted)
            jpegAfters.addChange(predicted: predicted, into: &change)
            for index in colors.indices where measured[index].weight > 0 {
                colors[index].after = measured[index].after + change.weighted[index] / measured[index].weight
            }
            chooser.refit(to: colors, totalWeight: tally.totalWeight)
            let (fitted, totalWeight) = change.countsEveryPixel ? countingEveryPixel(measured, change)
                : (colors, tally.totalWeight)
            solution = solve(fitted, smoothness: roundSmoothness, prior: chooser.model, start: solution.values,
                             totalWeight: totalWeight)
            finalSmoothness = roundSmoothness
        }
        var values = [Float](repeating: 1, count: size * size * size * 4)
        var offset = 0
        solution.grid.forEachNode { slot, _, _, _ in
            let value = solution.values[slot]
            values[offset] = Float(value.x)
            values[offset + 1] = Float(value.y)
            values[offset + 2] = Float(value.z)
            offset += 4
        }
        let cube: ColorCube
        do {
            cube = try ColorCube(size: size, values: values)
        } catch {
            throw .invalidSize(size)  // unreachable: the size was checked above
        }
        return LearnedLook(cube: cube, iterations: iterations, smoothness: used, finalSmoothness: finalSmoothness,
                           model: chooser.model.summary, grey: grey)
    }

    /// The learned cube alone: `fit(size:smoothness:)`'s `LearnedLook.cube`.
    /// - Throws: what `fit(size:smoothness:)` throws.
    public func cube(size: Int, smoothness: Double = LookLearner.defaultSmoothness) throws(LearnError) -> ColorCube {
        try fit(size: size, smoothness: smoothness).cube
    }

    /// The colours of a round whose JPEG afters' pixels all count fully (`JPEGAfters.Change`), and
    /// their weight summed: each colour's measured sums with those pixels' flatness weights replaced.
    private func countingEveryPixel(_ measured: [FitColor], _ change: JPEGAfters.Change) -> ([FitColor], UInt64) {
        var colors = measured
        var added = 0
        for index in colors.indices {
            added += change.fullWeight[index]
            let weight = measured[index].weight + Double(change.fullWeight[index])
            guard weight > 0 else { continue }
            colors[index].after = (measured[index].weight * measured[index].after + change.full[index]) / weight
            colors[index].weight = weight
        }
        return (colors, UInt64(Int(tally.totalWeight) + added))
    }

    /// Each pair's kept pixels as colours of weight 1 (`PairSamples`; with JPEG afters their
    /// decoded pixels, whose noise every model meets alike), for `GlobalModelChooser` to predict
    /// each pair from the others; empty with fewer than two pairs, where there is nothing to predict
    /// from.
    private func pairColors() -> [[FitColor]] {
        guard samples.count >= 2 else { return [] }
        return samples.map { pair in
            pair.samples.map { FitColor(weight: 1, before: SIMD3<Double>($0.before), after: SIMD3<Double>($0.after)) }
        }
    }

    /// The after images' noise in 8-bit codes, as `PairNoise` measures it: the root mean square over
    /// the pairs' pixels; 0 for exports without loss.
    public var afterNoise: Double {
        tally.pixels > 0 ? (noiseVariancePixels / Double(tally.pixels)).squareRoot() : 0
    }

    /// The smoothness a fit asked for `smoothness` uses: raised for noisy afters by
    /// `noiseSmoothness` times the noise squared, so that a JPEG export's noise is smoothed away
    /// rather than learned, while a lossless pair keeps every detail of its look.
    public func effectiveSmoothness(_ smoothness: Double) -> Double {
        smoothness + noiseSmoothness * afterNoise * afterNoise
    }

    /// How well a learned look's cube maps the pairs' before pixels to their after pixels, and
    /// whether the edit looks like more than a colour map.
    public func report(for learned: LearnedLook) -> LearnReport {
        let cube = learned.cube
        let diagnosis = EditDiagnosis.measure(cube, pairs: samples)
        var report = LearnReport(
            pairs: pairCount, pixels: tally.pixels, distinctColors: tally.count, size: cube.size,
            coverage: coverage(size: cube.size), measuredPixels: diagnosis.measured,
            meanDeltaE: diagnosis.mean, percentile99DeltaE: diagnosis.percentile99,
            regionVariation: diagnosis.regionVariation, regionVariationPair: diagnosis.regionVariationPair,
            fineDetail: diagnosis.fine, broadDetail: diagnosis.broad, warnings: diagnosis.warnings)
        report.afterNoise = afterNoise
        report.pairDisagreement = diagnosis.pairDisagreement
        report.smoothness = learned.smoothness
        report.finalSmoothness = learned.finalSmoothness
        report.curveSpace = learned.model.curveSpace
        report.changesSaturation = learned.model.changesSaturation
        report.followsLuminance = learned.model.followsLuminance
        report.keepsHue = learned.model.keepsHue
        report.saturationFactor = learned.model.saturationFactor
        report.grey = learned.grey
        return report
    }

    /// Share of the (size-1)^3 cells holding at least one before colour.
    private func coverage(size: Int) -> Double {
        let occupied = occupiedCells(perAxis: size - 1)
        return Double(occupied.reduce(0) { $0 + ($1 ? 1 : 0) }) / Double(occupied.count)
    }

    /// Whether each of `cellsPerAxis`^3 cells of the unit cube (red fastest) holds a before colour.
    func occupiedCells(perAxis cellsPerAxis: Int) -> [Bool] {
        let size = cellsPerAxis + 1
        var occupied = [Bool](repeating: false, count: cellsPerAxis * cellsPerAxis * cellsPerAxis)
        for entry in tally.entries {
            let n = Double(entry.count) * 65535
            let color = SIMD3(Double(entry.before.0) / n, Double(entry.before.1) / n, Double(entry.before.2) / n)
            let node = CellPosition(color, size: size).node
            occupied[node.x + cellsPerAxis * (node.y + cellsPerAxis * node.z)] = true
        }
        return occupied
    }
}
