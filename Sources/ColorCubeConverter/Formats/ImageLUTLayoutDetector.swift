import ColorCubeCore
import ColorCubeImaging

/// Chooses, by content, between the layouts an image LUT's size allows.
///
/// - Hald or tile (a square image: both hold a cube of L^2 in L^3 x L^3 pixels). Read in the wrong
///   layout, neighbouring lattice nodes come from pixels that hold distant colours: at one node in
///   L along green and blue the reading jumps across a tile, and the table's second differences
///   there are a large part of the code range. Read in the right layout, a colour adjustment is
///   smooth. So each reading's `Roughness` is measured and the smoother one wins (the sum of the
///   99th-percentile curvatures of the three axes; the jumps reach more than 1% of the runs at
///   every level). When neither is clearly smoother (both smooth, or both rough, within a factor
///   of `clearRatio`), the image is read as a Hald CLUT, colorcube's own layout, and a note says so.
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
        let smoother = scores[1] < scores[0] ? 1 : 0, other = 1 - smoother
        // Floor of one code per axis: below that both readings are smooth and the ratio says nothing.
        let clear = max(scores[other], 3) >= clearRatio * max(scores[smoother], 3)
        let chosen = clear ? smoother : tables.firstIndex { $0.layout.kind == .hald } ?? 0
        let table = tables[chosen]
        let words = "as the \(table.layout): its 99th-percentile curvature is \(codes(scores[chosen])) codes "
            + "against \(codes(scores[1 - chosen])) read as the \(tables[1 - chosen].layout.kind)"
        var note: String?
        if !clear {
            note = "a square image LUT could be a Hald CLUT or a square of tiles, and neither reading is "
                + "clearly smoother: read it \(words); pass --layout hald or --layout tile to choose"
        } else if table.layout.kind != .hald {
            note = "read \(words); pass --layout to choose"
        }
        return Choice(table: table, roughness: roughness[chosen], note: note)
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
            ? "read as the \(table.layout): the colours grow upwards along green; pass --layout strip to read it "
                + "with green growing downwards (Unreal's)"
            : nil
        return Choice(table: table, roughness: Roughness(measuring: table), note: note)
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
