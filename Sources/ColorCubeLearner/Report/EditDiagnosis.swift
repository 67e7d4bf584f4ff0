import ColorCubeCore

/// Measures a cube against the kept samples of every pair: CIEDE2000 per pixel, the residual's
/// spread between regions of each picture, and its correlation with local contrast.
enum EditDiagnosis {
    /// A spread of region means above this (L*a*b* units) is a local edit. Over 70 clean global
    /// edits (the seven sample looks on the five sample photos, PNG and JPEG q90 afters) the
    /// largest spread is 1.07; a soft vignette reaches 5 or more, a brush or graduated filter on
    /// a dark photo 1.1 to 2.
    static let regionLimit = 1.5
    /// The residual's L* must follow the high-pass with |r| of at least this much...
    static let correlationLimit = 0.3
    /// ...and the high-pass must explain at least this much L* (RMS): JPEG's smoothing of fine
    /// detail correlates too, but by a fraction of an L*.
    static let amplitudeLimit = 0.75
    /// Regions with fewer kept pixels are not compared.
    static let minimumRegionSamples = 32

    struct Result {
        var measured: Int
        var mean: Double
        var percentile99: Double
        var regionVariation: Double
        var regionVariationPair: String?
        var fine: (correlation: Double, amplitude: Double)
        var broad: (correlation: Double, amplitude: Double)
        var pairDisagreement: Double
        var warnings: [LearnWarning]
    }

    static func measure(_ cube: ColorCube, pairs: [PairSamples]) -> Result {
        let sampler = CubeSampler(cube: cube, interpolation: .trilinear)
        var differences: [Double] = []
        var worstVariation = 0.0
        var worstPair: String?
        var fine = Correlation(), broad = Correlation()
        let regionCount = PairSamples.regions * PairSamples.regions
        for pair in pairs {
            var sums = [SIMD3<Double>](repeating: .zero, count: regionCount)
            var counts = [Int](repeating: 0, count: regionCount)
            var total = SIMD3<Double>.zero
            let compared = compare(pair.samples, sampler)
            for (sample, comparison) in zip(pair.samples, compared) {
                let (predicted, actual, difference) = comparison
                differences.append(difference)
                let residual = actual - predicted
                sums[Int(sample.region)] += residual
                counts[Int(sample.region)] += 1
                total += residual
                fine.add(Double(sample.fineDetail), residual.x)
                broad.add(Double(sample.broadDetail), residual.x)
            }
            guard !pair.samples.isEmpty else { continue }
            let mean = total / Double(pair.samples.count)
            for region in 0..<regionCount where counts[region] >= minimumRegionSamples {
                let offset = sums[region] / Double(counts[region]) - mean
                let spread = (offset * offset).sum().squareRoot()
                if spread > worstVariation {
                    worstVariation = spread
                    worstPair = pair.name
                }
            }
        }
        differences.sort()
        let count = differences.count
        let mean = count > 0 ? differences.reduce(0, +) / Double(count) : 0
        let p99 = count > 0 ? differences[min(count - 1, Int((Double(count) * 0.99).rounded(.up)) - 1)] : 0
        var warnings: [LearnWarning] = []
        if worstVariation > regionLimit, let worstPair {
            warnings.append(.localEdit(pair: worstPair, variation: worstVariation))
        }
        for (radius, c) in [(1, fine), (8, broad)] {
            let r = c.coefficient, amplitude = c.explainedAmplitude
            if abs(r) >= correlationLimit && amplitude >= amplitudeLimit {
                warnings.append(.neighbourhoodEdit(radius: radius, correlation: r, amplitude: amplitude))
            }
        }
        let agreement = PairAgreement.measure(sampler, pairs: pairs)
        if agreement.disagreement > PairAgreement.limit, let names = agreement.pairs {
            warnings.append(.pairsDisagree(first: names.0, second: names.1, difference: agreement.disagreement))
        }
        return Result(measured: count, mean: mean, percentile99: p99, regionVariation: worstVariation,
                      regionVariationPair: worstPair, fine: (fine.coefficient, fine.explainedAmplitude),
                      broad: (broad.coefficient, broad.explainedAmplitude),
                      pairDisagreement: agreement.disagreement, warnings: warnings)
    }
}

extension EditDiagnosis {
    /// Each sample's predicted and actual L*a*b* and their CIEDE2000 difference. Each is a
    /// function of its sample alone: the two halves run on two threads (the report's largest
    /// cost, at the end of learn with a core idle), and the sums over them stay in order.
    fileprivate static func compare(_ samples: [PairSamples.Sample], _ sampler: CubeSampler)
        -> [(SIMD3<Double>, SIMD3<Double>, Double)] {
        ParallelLoop.map(count: samples.count, chunkSize: max((samples.count + 1) / 2, 4096)) { index in
            let sample = samples[index]
            let before = SIMD3<Double>(Double(sample.before.x), Double(sample.before.y), Double(sample.before.z))
            let after = SIMD3<Double>(Double(sample.after.x), Double(sample.after.y), Double(sample.after.z))
            let predicted = CIEDE2000.lab(sRGB: sampler.sample(before))
            let actual = CIEDE2000.lab(sRGB: after)
            return (predicted, actual, CIEDE2000.difference(predicted, actual))
        }
    }
}

/// Running sums for Pearson's r of y on x and the part of y that x explains.
struct Correlation {
    var n = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0, syy = 0.0, sxy = 0.0

    mutating func add(_ x: Double, _ y: Double) {
        n += 1; sx += x; sy += y; sxx += x * x; syy += y * y; sxy += x * y
    }

    private var covariance: Double { n > 0 ? sxy / n - (sx / n) * (sy / n) : 0 }
    private var varianceX: Double { n > 0 ? max(sxx / n - (sx / n) * (sx / n), 0) : 0 }
    private var varianceY: Double { n > 0 ? max(syy / n - (sy / n) * (sy / n), 0) : 0 }

    /// Pearson's r, 0 when either variable is constant.
    var coefficient: Double {
        let denominator = (varianceX * varianceY).squareRoot()
        return denominator > 0 ? covariance / denominator : 0
    }

    /// The RMS of the least-squares line's part of y: |slope| times the standard deviation of x.
    var explainedAmplitude: Double {
        varianceX > 0 ? abs(covariance) / varianceX.squareRoot() : 0
    }
}
