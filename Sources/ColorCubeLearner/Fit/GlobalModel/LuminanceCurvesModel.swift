/// The global model as a map of each colour by its luminance alone, one curve per output channel:
///
///     G_k(x) = l_k(t(x)),  t = the sRGB transfer of the colour's relative luminance Y
///
/// with l_k piecewise linear on `GlobalModelTuning.toneKnots` knots over t. That is black and
/// white by luminance, sepia and any other toning of a grey image (G'MIC's sepia, darktable's
/// monochrome): no sum of curves of r, g and b holds a curve of their weighted linear sum. Y is
/// weighted as sRGB's D65 luminance or as the D50 luminance of ICC workflows (`LuminanceWeights`);
/// `GlobalModelChooser` tries both and keeps the closer.
///
/// The fit has the energy of `ChannelCurvesModel`'s (curvature `GlobalModelTuning.toneCurvature`,
/// and a ridge towards grey, l_k(t) = t) over one curve per channel.
struct LuminanceCurvesModel: GlobalModelForm {
    /// Curve values, [output channel][knot].
    private let values: [[Double]]
    /// The weights of Y.
    let weights: LuminanceWeights

    var summary: GlobalModelSummary {
        GlobalModelSummary(curveSpace: .sRGB, changesSaturation: false, followsLuminance: true, keepsHue: false,
                           saturationFactor: 1)
    }

    func refitted(to colors: [FitColor], totalWeight: UInt64) -> LuminanceCurvesModel {
        LuminanceCurvesModel(colors: colors, totalWeight: totalWeight, weights: weights)
    }

    /// The model fitted to `colors` with Y weighted by `weights`.
    init(colors: [FitColor], totalWeight: UInt64, weights: LuminanceWeights) {
        typealias Tuning = GlobalModelTuning
        let k = Tuning.toneKnots
        var matrix = [Double](repeating: 0, count: k * k)
        var rhs = [SIMD4<Double>](repeating: .zero, count: k)
        for color in colors {
            let (knot, fraction) = Self.knot(color.before, weights: weights)
            let n = color.weight, hat = SIMD2(1 - fraction, fraction)
            let after = SIMD4(color.after, 0)
            for i in 0..<2 {
                rhs[knot + i] += n * hat[i] * after
                for j in 0..<2 { matrix[(knot + i) * k + knot + j] += n * hat[i] * hat[j] }
            }
        }
        let perPixel = 1 / Double(max(totalWeight, 1))
        for i in matrix.indices { matrix[i] *= perPixel }
        KnotCurve.addSecondDifferences(to: &matrix, stride: k, curves: 1, knots: k, offset: 0,
                                       weight: Tuning.toneCurvature)
        for i in 0..<k {
            matrix[i * k + i] += Tuning.ridge
            rhs[i] = rhs[i] * perPixel + SIMD4(repeating: Tuning.ridge * Double(i) / Double(k - 1))
        }
        let solution = DenseCholesky(matrix: matrix, count: k).solve(rhs)
        values = (0..<3).map { channel in solution.map { $0[channel] } }
        self.weights = weights
    }

    func callAsFunction(_ color: SIMD3<Double>) -> SIMD4<Double> {
        let (knot, fraction) = Self.knot(color, weights: weights)
        let lower = SIMD4(values[0][knot], values[1][knot], values[2][knot], 0)
        let upper = SIMD4(values[0][knot + 1], values[1][knot + 1], values[2][knot + 1], 0)
        return (1 - fraction) * lower + fraction * upper
    }

    /// The curves' knot below a colour's t (see the type's documentation) and the fraction of the
    /// way to the next.
    @inline(__always)
    private static func knot(_ color: SIMD3<Double>, weights: LuminanceWeights) -> (Int, Double) {
        let linear = SIMD3(CurveSpace.srgbToLinear(color.x), CurveSpace.srgbToLinear(color.y),
                           CurveSpace.srgbToLinear(color.z))
        let t = CurveSpace.linearToSRGB((weights.weights * linear).sum())
        return KnotCurve.hat(t, knots: GlobalModelTuning.toneKnots)
    }
}
