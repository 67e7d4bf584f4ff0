import ColorCubeConverter
import ColorCubeCore

/// Writes the identity references a user edits: Hald CLUT PNGs (see `HaldFormat`, which writes
/// them and any other cube) whose every entry is its own input colour.
public enum ReferenceGenerator {
    /// Writes the identity reference for a cube of `size` (4, 16, 64 or 256), atomically.
    ///
    /// Node i on an axis gets code round(255 * i / (N - 1)), or round(65535 * i / (N - 1)) at 16 bits,
    /// computed in integers so every value is exact.
    /// - Throws: `GeneratorError.invalidSize` / `.invalidBitDepth`, or the file's errors.
    public static func writeIdentity(size: Int, bitDepth: Int = 8, to path: String) throws {
        guard HaldLayout.referenceSizes.contains(size) else { throw GeneratorError.invalidSize(size) }
        guard HaldFormat.supportedBitDepths.contains(bitDepth) else { throw GeneratorError.invalidBitDepth(bitDepth) }
        let maxCode = bitDepth == 8 ? 255 : 65535
        let codes = (0..<size).map { (2 * $0 * maxCode + (size - 1)) / (2 * (size - 1)) }
        let layout = try HaldLayout(cubeSize: size)
        try AtomicFile.write(to: path) { temporary in
            try HaldFormat.writeImage(layout: layout, bitDepth: bitDepth, to: temporary, displayPath: path) { first, count, band in
                // Walk the lattice in raster order with counters rather than dividing every index.
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
