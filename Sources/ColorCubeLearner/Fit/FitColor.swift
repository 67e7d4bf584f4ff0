/// One distinct before colour as the fit sees it: its weight (the tally weight of its pixels) and
/// the weighted means of their before and after values, 0...1.
///
/// The fit reads these rather than the tally's integer sums so that a pair whose after holds
/// chroma per block (`ChromaBlocks`) can have its colours' after means replaced by the targets of
/// each round of that fit.
struct FitColor {
    var weight: Double
    var before: SIMD3<Double>
    var after: SIMD3<Double>

    /// The colours of `tally`, in its order.
    static func colors(of tally: UnsafeBufferPointer<ColorTally.Entry>) -> [FitColor] {
        let scale = 1 / 65535.0
        return tally.map { entry in
            let n = Double(entry.count)
            return FitColor(
                weight: n,
                before: SIMD3(Double(entry.before.0), Double(entry.before.1), Double(entry.before.2)) * (scale / n),
                after: SIMD3(Double(entry.after.0), Double(entry.after.1), Double(entry.after.2)) * (scale / n))
        }
    }
}
