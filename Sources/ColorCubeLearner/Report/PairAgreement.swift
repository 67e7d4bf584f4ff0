import ColorCubeCore

/// Whether two or more pairs map the same colours the same way: the sign of an edit that adapts
/// to each photo (contrast pivoted on the photo's own mean, auto tone, auto white balance), which
/// no single look reproduces.
///
/// Each pair's kept samples are binned by before colour (`levels` bins per channel) and, per
/// bin, the mean residual of the fitted look's lightness (after minus look(before), CIE L*) is
/// taken. Lightness only: JPEG afters keep luma at full resolution but chroma at half, and how
/// much colour the subsampling smears away depends on each photo's detail, so chroma residuals
/// of one clean look differ between photos by 4 units on the 320-pixel samples at quality 90.
/// The look is fitted to all pairs at once, so where two pairs disagree their residuals in the
/// colours both show point in opposite directions; where they agree both are near zero. For
/// each two pairs, over the bins both fill with at least `minimumSamples` samples, the
/// disagreement is the 90th percentile (weighted by the smaller count) of the distance between
/// their mean residuals; a bin's mean over 24 or more samples leaves JPEG noise well under 0.5.
/// Edits that adapt to each photo mostly set tone (auto levels, contrast around the photo's
/// mean, auto exposure), which this sees; an automatic white balance alone would be missed.
enum PairAgreement {
    static let levels = 12
    static let minimumSamples = 24
    /// Above this (L* units), the pairs disagree. Chosen on the learner's tests (one look on three
    /// sample photos, PNG and JPEG q90 afters, against contrast raised 1.4x around each photo's
    /// mean); Tools/bench-learn-looks prints the figure for the looks of four editors.
    static let limit = 1.5

    struct Result {
        /// The largest disagreement over every two pairs (0 with one pair or no shared colours).
        var disagreement = 0.0
        /// The two pairs with it.
        var pairs: (String, String)?
    }

    static func measure(_ sampler: CubeSampler, pairs: [PairSamples]) -> Result {
        guard pairs.count >= 2 else { return Result() }
        let bins = levels * levels * levels
        var sums: [[SIMD3<Double>]] = []
        var counts: [[Int]] = []
        for pair in pairs {
            var sum = [SIMD3<Double>](repeating: .zero, count: bins)
            var count = [Int](repeating: 0, count: bins)
            for sample in pair.samples {
                let before = SIMD3<Double>(Double(sample.before.x), Double(sample.before.y), Double(sample.before.z))
                let after = SIMD3<Double>(Double(sample.after.x), Double(sample.after.y), Double(sample.after.z))
                let residual = CIEDE2000.lab(sRGB: after) - CIEDE2000.lab(sRGB: sampler.sample(before))
                let bin = SIMD3<Int>((before * Double(levels)).rounded(.down)).clamped(
                    lowerBound: .zero, upperBound: SIMD3(repeating: levels - 1))
                let index = bin.x + levels * (bin.y + levels * bin.z)
                sum[index] += residual
                count[index] += 1
            }
            sums.append(sum)
            counts.append(count)
        }
        var result = Result()
        for p in pairs.indices {
            for q in pairs.indices where q > p {
                var distances: [(distance: Double, weight: Int)] = []
                for bin in 0..<bins where counts[p][bin] >= minimumSamples && counts[q][bin] >= minimumSamples {
                    let difference = sums[p][bin] / Double(counts[p][bin]) - sums[q][bin] / Double(counts[q][bin])
                    distances.append((abs(difference.x), min(counts[p][bin], counts[q][bin])))
                }
                let value = percentile(distances, 0.9)
                if value > result.disagreement {
                    result = Result(disagreement: value, pairs: (pairs[p].name, pairs[q].name))
                }
            }
        }
        return result
    }

    /// The weighted `fraction` quantile of `values` (0 when empty).
    static func percentile(_ values: [(distance: Double, weight: Int)], _ fraction: Double) -> Double {
        let sorted = values.sorted { $0.distance < $1.distance }
        let total = sorted.reduce(0) { $0 + $1.weight }
        guard total > 0 else { return 0 }
        var running = 0
        for value in sorted {
            running += value.weight
            if Double(running) >= fraction * Double(total) { return value.distance }
        }
        return sorted.last?.distance ?? 0
    }
}
