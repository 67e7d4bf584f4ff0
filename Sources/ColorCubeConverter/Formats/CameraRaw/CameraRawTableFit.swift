import ColorCubeCore
import ColorCubeTransform

/// The table of a profile in a space wider than the photo's, fitted to the look over the colours
/// photos reach rather than sampled at its nodes.
///
/// In a wide space most of the table's nodes lie outside the photo's (sRGB) gamut, and the cells
/// that photos' colours fall in straddle its edge: a node sampled there holds the look continued
/// past the edge, which bends the table inside the cell, where the photo's colours are. The fit
/// asks instead what the table must hold for Camera Raw's tetrahedral reading of it, at a dense
/// lattice of the photo's colours, to give the look (`TetrahedralLeastSquares`); nodes no photo
/// colour reaches follow the sampled table, bent smoothly to meet the fitted ones.
enum CameraRawTableFit {
    /// Photo colours per side of the sRGB cube the fit samples (65³, about 275,000): twice the
    /// table's 32 points, so that every cell a photo's colours reach holds several.
    static let samplesPerSide = 65
    /// The smoothness penalty's weight; ten times it (the learner's default) costs ProPhoto a
    /// code (see the CameraRawProfiles article).
    static let smoothness = 3e-9

    /// The fitted table for `look` (on photos' sRGB-encoded values) in `space`, `size` points a
    /// side, over the table's encoded values; `sampled` is the look as the table must hold it,
    /// read at the nodes where nothing else decides them. Nil for a size outside 2...256.
    static func table(look: Transform, sampled: Transform, space: CameraRawProfileSpace, size: Int) -> ColorCube? {
        let toTable = Transform(CameraRawProfileSpace.photoToProPhoto + space.fromProPhoto)
        guard let fromPhoto = CameraRawProfileSpace.srgb.primaries.fromTable.flatMap({ try? MatrixOp(rows: $0) }) else { return nil }
        // The look's output beyond 0...1 keeps its excess through the curve, for the writer to clamp.
        let target = Transform([ExtendedSRGBCurveOp(encodes: false), fromPhoto] + space.fromProPhoto)
        var fit = TetrahedralLeastSquares(size: size)
        let last = Double(samplesPerSide - 1)
        for r in 0..<samplesPerSide {
            for g in 0..<samplesPerSide {
                for b in 0..<samplesPerSide {
                    let photo = SIMD3(Double(r), Double(g), Double(b)) / last
                    fit.add(toTable.apply(photo), target: target.apply(look.apply(photo)))
                }
            }
        }
        let step = 1 / Double(size - 1)
        var prior: [SIMD3<Double>] = []
        prior.reserveCapacity(size * size * size)
        for r in 0..<size {
            for g in 0..<size {
                for b in 0..<size { prior.append(sampled.apply(SIMD3(Double(r), Double(g), Double(b)) * step)) }
            }
        }
        let nodes = fit.solve(prior: prior, smoothness: smoothness)
        var values = [Float](repeating: 1, count: 4 * nodes.count)
        for r in 0..<size {
            for g in 0..<size {
                for b in 0..<size {
                    let value = nodes[(r * size + g) * size + b]
                    let index = 4 * ColorCube.redFastestIndex(r: r, g: g, b: b, size: size)
                    for channel in 0..<3 { values[index + channel] = Float(value[channel]) }
                }
            }
        }
        return try? ColorCube(size: size, values: values)
    }
}
