import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore

/// Writes the identity references a user edits: image LUTs (Hald CLUTs by default, or squares of
/// tiles and strips, see `ImageLUTLayout`; `ImageLUT` writes them and any other cube) whose every
/// entry is its own input colour.
public enum ReferenceGenerator {
    /// The sizes `generate --all` writes in `layout`: 4, 16, 64 and 256 for Hald and tile images
    /// (the even Hald levels), 16, 32 and 64 for strips (the engines' 256x16 and 1024x32, and 4096x64).
    public static func standardSizes(for layout: ImageLUTLayout.Kind) -> [Int] {
        layout.isSquare ? HaldLayout.referenceSizes : [16, 32, 64]
    }

    /// True when an identity reference of `size` can be generated in `layout`: the standard sizes
    /// for Hald and tile images, 2...256 for strips.
    public static func canGenerate(size: Int, layout: ImageLUTLayout.Kind) -> Bool {
        layout.isSquare ? standardSizes(for: layout).contains(size) : layout.canHold(size: size)
    }

    /// The file name `generate` gives a reference: "identity-64.png" for a Hald image,
    /// "identity-64-tile.png", "identity-32-strip.png" or "identity-32-unity-strip.png" otherwise.
    public static func fileName(size: Int, layout: ImageLUTLayout.Kind) -> String {
        layout == .hald ? "identity-\(size).png" : "identity-\(size)-\(layout.rawValue).png"
    }

    /// Writes the identity reference for a cube of `size` in `layout`, atomically.
    ///
    /// Node i on an axis gets code round(255 * i / (N - 1)), or round(65535 * i / (N - 1)) at 16 bits,
    /// computed in integers so every value is exact.
    /// - Throws: `GeneratorError.invalidSize` (see `canGenerate`), `ConversionError.bitDepth` for a
    ///   bit depth other than 8 or 16 (both before any file is created), or the file's errors.
    public static func writeIdentity(size: Int, bitDepth: Int = 8, layout kind: ImageLUTLayout.Kind = .hald,
                                     to path: String) throws {
        guard canGenerate(size: size, layout: kind) else { throw GeneratorError.invalidSize(size, layout: kind) }
        try ImageLUT.format(for: kind).validate(size: size, bitDepth: bitDepth, path: path)
        let maxCode = bitDepth == 8 ? 255 : 65535
        let codes = (0..<size).map { (2 * $0 * maxCode + (size - 1)) / (2 * (size - 1)) }
        let layout = try ImageLUTLayout(kind: kind, cubeSize: size)
        try AtomicFile.write(to: path) { temporary in
            try ImageLUT.writeImage(layout: layout, bitDepth: bitDepth, to: temporary, displayPath: path) { first, count, band in
                // Walk the run of entries with counters rather than dividing every index.
                var r = first % size, g = (first / size) % size, b = first / (size * size)
                for i in 0..<count {
                    band[3 * i] = codes[r]
                    band[3 * i + 1] = codes[g]
                    band[3 * i + 2] = codes[b]
                    r += 1
                    if r == size {
                        r = 0
                        g += 1
                        if g == size {
                            g = 0
                            b += 1
                        }
                    }
                }
            }
        }
    }
}
