import ColorCubeCore
import ColorCubeLooks
import ColorCubeImaging

/// Chooses, by content, between the layouts an image LUT's size allows.
///
/// - Hald or tile (a square image: both hold a cube of L^2 in L^3 x L^3 pixels). Read in the wrong
///   layout, neighbouring lattice nodes come from pixels that hold distant colours: at one node in
///   L along green and blue the reading jumps across a tile, and the table's second differences
///   there are a large part of the code range. Read in the right layout, a colour adjustment is
///   smooth. So each reading's `Roughness` is measured and the smoother one wins (the sum of the
///   99th-percentile curvatures of the three axes; the jumps reach more than 1% of the runs at
///   every level). When neither is clearly smoother (within a factor of `clearRatio`): if both
///   readings are smooth, the look depends on red alone, which both layouts put in the same
///   pixels, and the readings agree; if both are rough (the steps of a posterized look, a blur),
///   the reading nearer its own identity wins when it is clearly nearer (`identityRatio`), with a
///   note; otherwise the image is read as a Hald CLUT, colorcube's own layout, and a note says so. Measured on 7 sample looks at sizes 4, 16 and 64 in both layouts and
///   on edited identities (negative, posterized, grey, sepia, levels, hue, noise, JPEG): every one
///   was read in its own layout; blurred Hald images were the unclear cases (see the Image LUT
///   Layouts article in ColorCubeConverter.docc).
/// - Unreal or Unity strip (green downwards or upwards). Both readings are equally smooth, so the
///   direction decides: colour adjustments rarely turn one channel's ramp round and not the
///   others', so green should move the output the way red and blue do. The mean change of the
///   output (R + G + B) from one end of each lattice line to the other is measured along each
///   axis; when green's has the opposite sign of red's and blue's together, the strip is Unity's.
///   A look that ignores green reads the same either way, and is read as Unreal's.
///
/// A note is made whenever the choice is not the default (Hald, Unreal) or was not clear.
enum ImageLUTLayoutDetector {
    /// How much smoother one square reading must be to be chosen without a note.
    static let clearRatio = 2.0

    /// The reading chosen, its roughness, and the note for the user (nil when nothing is worth saying).
    struct Choice {
        var table: ReferenceTable
        var roughness: Roughness
        var note: String?
        /// The layouts the image could also be read in, when the choice was made by content.
        var alternatives: [ImageLUTLayout.Kind] = []
    }

    /// Picks one of `candidates` (one, or two of the same cube size) for `image`.
    static func choose(among candidates: [ImageLUTLayout], image: RasterImage, premultiplied: Bool) -> Choice {
        let tables = candidates.map { ReferenceTable(image: image, layout: $0, premultiplied: premultiplied) }
        guard tables.count == 2 else {
            let table = tables[0]
            return Choice(table: table, roughness: Roughness(measuring: table), note: nil)
        }
        if candidates.allSatisfy(\.kind.isSquare) {
            return chooseSquare(tables)
        }
        return chooseStrip(tables)
    }

    /// One number for how rough a reading is: the sum over the axes of the 99th-percentile
    /// curvature, in 8-bit codes.
    static func score(_ roughness: Roughness) -> Double {
        roughness.curvature.sum()
    }

    private static func chooseSquare(_ tables: [ReferenceTable]) -> Choice {
        let roughness = tables.map { Roughness(measuring: $0) }
        let scores = roughness.map(score)
        // Below a floor of one code per axis the ratio of two smooth readings says nothing.
        let floor = 3.0
        if let smoother = clearlyLower(scores, floor: floor) {
            let table = tables[smoother]
            let note = table.layout.kind == .hald ? nil
                : "read as the \(table.layout) (99th-percentile curvature \(codes(scores[smoother])) codes, against "
                    + "\(codes(scores[1 - smoother])) read as a \(tables[1 - smoother].layout.kind))"
            return Choice(table: table, roughness: roughness[smoother], note: note,
                          alternatives: note == nil ? [] : [tables[1 - smoother].layout.kind])
        }
        // Both smooth: the look depends on red alone (or nothing), which both layouts put in the
        // same pixels, so the two readings agree and there is nothing to tell.
        if scores.max() ?? 0 < 2 * floor {
            let hald = tables.firstIndex { $0.layout.kind == .hald } ?? 0
            return Choice(table: tables[hald], roughness: roughness[hald], note: nil)
        }
        // Both rough alike (steps of a posterized look, a blur): the reading nearer its identity.
        let distances = tables.map(identityDistance)
        if let nearer = clearlyLower(distances, floor: 1, ratio: identityRatio) {
            let table = tables[nearer]
            let note = "read as the \(table.layout), whose identity it is nearer (mean \(codes(distances[nearer])) "
                + "codes against \(codes(distances[1 - nearer])) as a \(tables[1 - nearer].layout.kind)); both readings "
                + "are rough (99th-percentile curvature \(codes(scores[nearer])) and \(codes(scores[1 - nearer])) codes)"
            return Choice(table: table, roughness: roughness[nearer], note: note, alternatives: [tables[1 - nearer].layout.kind])
        }
        let hald = tables.firstIndex { $0.layout.kind == .hald } ?? 0
        let note = "could be a Hald CLUT or a square of tiles, and neither reading is clearly smoother or nearer "
            + "its identity: read it as the \(tables[hald].layout) (99th-percentile curvature "
            + "\(codes(scores[hald])) codes, against \(codes(scores[1 - hald])) as a \(tables[1 - hald].layout.kind))"
        return Choice(table: tables[hald], roughness: roughness[hald], note: note, alternatives: [tables[1 - hald].layout.kind])
    }

    /// How much nearer its identity one square reading must be to be chosen when both are rough.
    static let identityRatio = 1.5

    /// The index of the clearly lower of two values (by `ratio`, each raised to `floor` first), or nil.
    private static func clearlyLower(_ values: [Double], floor: Double, ratio: Double = clearRatio) -> Int? {
        let lower = values[1] < values[0] ? 1 : 0
        return max(values[1 - lower], floor) >= ratio * max(values[lower], floor) ? lower : nil
    }

    /// The mean distance of a reading's entries from their own input colours, in 8-bit codes
    /// summed over R, G and B. Every entry up to a 64-cube, a sample of about 2^18 above.
    static func identityDistance(_ table: some CubeTable) -> Double {
        let n = table.size, count = table.entryCount
        let step = max(1, count >> 18) | 1
        let scale = 255 / Float(n - 1)
        var total = 0.0, measured = 0
        for index in stride(from: 0, to: count, by: step) {
            let node = SIMD3<Float>(Float(index % n), Float((index / n) % n), Float(index / (n * n))) * scale
            let entry = table.entry(at: index)
            let d = SIMD3<Float>(entry.x, entry.y, entry.z) * 255 - node
            total += Double(abs(d.x) + abs(d.y) + abs(d.z))
            measured += 1
        }
        return total / Double(max(measured, 1))
    }

    private static func chooseStrip(_ tables: [ReferenceTable]) -> Choice {
        guard let unrealIndex = tables.firstIndex(where: { $0.layout.kind == .strip }) else {
            return Choice(table: tables[0], roughness: Roughness(measuring: tables[0]), note: nil)
        }
        let span = meanSpans(tables[unrealIndex])
        let others = span.x + span.z
        // Green's span small (under 2.5 codes of R + G + B) or small against the others': both
        // readings nearly agree.
        let decisive = abs(span.y) > 0.01 && abs(span.y) > 0.02 * abs(others)
        let greenAgrees = others == 0 ? span.y > 0 : (span.y > 0) == (others > 0)
        let unity = decisive && !greenAgrees
        let table = unity ? tables[1 - unrealIndex] : tables[unrealIndex]
        let note = unity
            ? "read as the \(table.layout): its colours grow upwards along green (Unity's), not downwards (Unreal's)"
            : nil
        return Choice(table: table, roughness: Roughness(measuring: table), note: note,
                      alternatives: unity ? [tables[unrealIndex].layout.kind] : [])
    }

    /// The mean change of R + G + B from the first to the last node of the lattice lines along red,
    /// green and blue, in 0...1 units (3 for the identity): the sum of a line's steps, so only the
    /// two end nodes of each line are read.
    static func meanSpans(_ table: some CubeTable) -> SIMD3<Double> {
        let n = table.size
        func sum(_ index: Int) -> Double {
            let entry = table.entry(at: index)
            return Double(entry.x + entry.y + entry.z)
        }
        var total = SIMD3<Double>.zero
        for a in 0..<n {
            for c in 0..<n {
                total.x += sum((n - 1) + n * a + n * n * c) - sum(n * a + n * n * c)
                total.y += sum(a + n * (n - 1) + n * n * c) - sum(a + n * n * c)
                total.z += sum(a + n * c + n * n * (n - 1)) - sum(a + n * c)
            }
        }
        return total / Double(n * n)
    }

    private static func codes(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
