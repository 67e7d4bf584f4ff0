/// How much a pair's after image varies where its before image does not: the noise a lossy export
/// (JPEG, lossy WebP, HEIC) adds, measured on the pair itself.
///
/// Two side-by-side pixels with exactly the same before colour must have the same after colour
/// under any colour map, so half the mean squared difference of their after values estimates the
/// after's noise variance. Compression noise is correlated between neighbours, so this reads low
/// in absolute terms; it is used only as a relative measure, calibrated on JPEG exports (see
/// `LookLearner`). A pair without such neighbours (random colours) measures as noiseless, and so
/// does, mostly, a 16-bit before with grain of its own (a camera TIFF), whose neighbours are rarely
/// exactly equal. Comparing neighbours within a quarter code instead was tried on such a pair
/// with a JPEG after: it measured 2.63 codes, smoothed too much, and a photo the look never saw
/// came out at 37.4 dB PSNR against 41.8 dB without any noise handling, so it is not done.
struct PairNoise: Equatable {
    /// Neighbour pairs compared.
    var comparisons = 0
    /// Sum over them of the squared after differences, all three channels, in 8-bit codes squared.
    var squaredDifferences = 0.0

    /// Rows looked at: every `rowStep`-th, at most about this many.
    static let sampledRows = 512

    /// The noise's standard deviation in 8-bit codes; 0 when nothing was compared.
    var deviation: Double {
        comparisons > 0 ? (squaredDifferences / Double(2 * 3 * comparisons)).squareRoot() : 0
    }

    static func + (a: PairNoise, b: PairNoise) -> PairNoise {
        PairNoise(comparisons: a.comparisons + b.comparisons, squaredDifferences: a.squaredDifferences + b.squaredDifferences)
    }

    /// Measures one pair; alpha-0 pixels in either image are left out.
    static func measure(before: PixelBuffer, after: PixelBuffer) -> PairNoise {
        switch (before.samples, after.samples) {
        case (.eight(let b), .eight(let a)): measure(b, before.channels, a, after.channels, before.width, before.height)
        case (.eight(let b), .sixteen(let a)): measure(b, before.channels, a, after.channels, before.width, before.height)
        case (.sixteen(let b), .eight(let a)): measure(b, before.channels, a, after.channels, before.width, before.height)
        case (.sixteen(let b), .sixteen(let a)): measure(b, before.channels, a, after.channels, before.width, before.height)
        }
    }

    private static func measure<B: LearnSample, A: LearnSample>(_ before: [B], _ bc: Int, _ after: [A], _ ac: Int,
                                                                _ width: Int, _ height: Int) -> PairNoise {
        guard width > 1 else { return PairNoise() }
        return before.withUnsafeBufferPointer { b in
            after.withUnsafeBufferPointer { a in measure(b, bc, a, ac, width, height) }
        }
    }

    private static func measure<B: LearnSample, A: LearnSample>(_ before: UnsafeBufferPointer<B>, _ bc: Int,
                                                                _ after: UnsafeBufferPointer<A>, _ ac: Int,
                                                                _ width: Int, _ height: Int) -> PairNoise {
        var noise = PairNoise()
        let rowStep = max(1, height / sampledRows)
        let scale = 1 / 257.0
        for y in stride(from: 0, to: height, by: rowStep) {
            var comparisons = 0
            var sum: UInt64 = 0
            for x in 0..<(width - 1) {
                let p = y &* width &+ x
                let bp = p &* bc, bq = bp &+ bc
                guard before[bp] == before[bq], before[bp &+ 1] == before[bq &+ 1], before[bp &+ 2] == before[bq &+ 2]
                else { continue }
                if bc == 4, before[bp &+ 3] == 0 || before[bq &+ 3] == 0 { continue }
                let ap = p &* ac, aq = ap &+ ac
                if ac == 4, after[ap &+ 3] == 0 || after[aq &+ 3] == 0 { continue }
                for channel in 0..<3 {
                    let d = Int64(bitPattern: A.code16(after[ap &+ channel]) &- A.code16(after[aq &+ channel]))
                    sum &+= UInt64(d &* d)
                }
                comparisons &+= 1
            }
            noise.comparisons += comparisons
            noise.squaredDifferences += Double(sum) * scale * scale
        }
        return noise
    }
}
