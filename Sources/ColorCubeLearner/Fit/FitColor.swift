import ColorCubeCore

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

    /// The colours of `tally`, in its order; the two halves on two threads (a photo pair holds
    /// hundreds of thousands, and this runs between the tally and the fit with a core idle).
    static func colors(of tally: UnsafeBufferPointer<ColorTally.Entry>) -> [FitColor] {
        guard let first = tally.baseAddress else { return [] }
        let entries = DisjointRegions(first)
        return ParallelLoop.map(count: tally.count, chunkSize: max((tally.count + 1) / 2, 1 << 15)) { index in
            FitColor(entries.start(of: index).pointee)
        }
    }
}

extension FitColor {
    /// A tally entry's weight and mean colours.
    fileprivate init(_ entry: ColorTally.Entry) {
        let n = Double(entry.count)
        let scale = 1 / 65535.0 / n
        weight = n
        before = SIMD3(Double(entry.before.0), Double(entry.before.1), Double(entry.before.2)) * scale
        after = SIMD3(Double(entry.after.0), Double(entry.after.1), Double(entry.after.2)) * scale
    }
}
