/// The data term of a `ChannelCurvesModel` fit summed over some colours, unscaled: the normal
/// matrix of one channel's curves (unknowns^2) and the three channels' right-hand sides
/// (interleaved, [3 * unknown + channel]); with the saturation curve also each channel's curves
/// against h ([channel][unknown][knot]), h against itself and h's right-hand side.
struct ChannelCurveSums {
    var matrix: [Double]
    var sums: [Double]
    var cross: [Double] = []
    var saturationMatrix: [Double] = []
    var saturationSums: [Double] = []

    init(_ colors: ArraySlice<FitColor>, space: CurveSpace, saturation: Bool) {
        let unknowns = 3 * GlobalModelTuning.knots, sk = GlobalModelTuning.saturationKnots
        matrix = [Double](repeating: 0, count: unknowns * unknowns)
        sums = [Double](repeating: 0, count: 3 * unknowns)
        if saturation {
            cross = [Double](repeating: 0, count: 3 * unknowns * sk)
            saturationMatrix = [Double](repeating: 0, count: sk * sk)
            saturationSums = [Double](repeating: 0, count: sk)
        }
        matrix.withUnsafeMutableBufferPointer { m in
            sums.withUnsafeMutableBufferPointer { r in
                cross.withUnsafeMutableBufferPointer { x in
                    saturationMatrix.withUnsafeMutableBufferPointer { hm in
                        saturationSums.withUnsafeMutableBufferPointer { hr in
                            // Raw buffers and fixed-size locals: this loop runs once per tally
                            // colour, millions on a large pair.
                            var index: (Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0)
                            var weight: SIMD8<Double> = .zero
                            for color in colors {
                                let n = color.weight, after = space.encode(color.after)
                                let before = space.encode(color.before)
                                ChannelCurvesModel.basis(before, index: &index, weight: &weight)
                                withUnsafeBytes(of: index) { raw in
                                    let at = raw.bindMemory(to: Int.self)
                                    for a in 0..<6 {
                                        let wa = n * weight[a]
                                        guard wa != 0 else { continue }
                                        let row = at[a] * unknowns
                                        for b in 0..<6 { m[row + at[b]] += wa * weight[b] }
                                        r[3 * at[a]] += wa * after.x
                                        r[3 * at[a] + 1] += wa * after.y
                                        r[3 * at[a] + 2] += wa * after.z
                                    }
                                    guard saturation else { return }
                                    let (knot, fraction, away) = ChannelCurvesModel.saturationTerm(before)
                                    let hw = SIMD2(1 - fraction, fraction)
                                    for a in 0..<6 {
                                        let wa = n * weight[a]
                                        guard wa != 0 else { continue }
                                        for channel in 0..<3 {
                                            let slot = (channel * unknowns + at[a]) * sk + knot
                                            x[slot] += wa * away[channel] * hw[0]
                                            x[slot + 1] += wa * away[channel] * hw[1]
                                        }
                                    }
                                    let squared = (away * away).sum(), projected = (away * after).sum()
                                    for i in 0..<2 {
                                        hr[knot + i] += n * hw[i] * projected
                                        for j in 0..<2 { hm[(knot + i) * sk + knot + j] += n * hw[i] * hw[j] * squared }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Adds another part's sums (the parts summed in order give the same sums whatever the cores).
    mutating func add(_ other: ChannelCurveSums) {
        for i in matrix.indices { matrix[i] += other.matrix[i] }
        for i in sums.indices { sums[i] += other.sums[i] }
        for i in cross.indices { cross[i] += other.cross[i] }
        for i in saturationMatrix.indices { saturationMatrix[i] += other.saturationMatrix[i] }
        for i in saturationSums.indices { saturationSums[i] += other.saturationSums[i] }
    }
}
