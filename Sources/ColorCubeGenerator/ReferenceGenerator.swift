import ColorCubeCore
import ColorCubeImaging

/// Writes cubes as reference (Hald CLUT) PNGs: the identity reference a user edits, or any cube.
///
/// Layout: see `HaldLayout`; entry p = r + N*g + N^2*b sits at x = p mod W, y = p div W. The image
/// is RGB without alpha, tagged sRGB so that editors keep its values. Rows are produced and handed
/// to libpng a band at a time, so a 4096 x 4096 reference needs a few hundred kB, not 50 MB.
public enum ReferenceGenerator {
    /// Bit depths a reference can have.
    public static let bitDepths = [8, 16]

    /// Writes the identity reference for a cube of `size` (4, 16, 64 or 256).
    ///
    /// Node i on an axis gets code round(255 * i / (N - 1)), or round(65535 * i / (N - 1)) at 16 bits,
    /// computed in integers so every value is exact.
    /// - Throws: `GeneratorError.invalidSize` / `.invalidBitDepth`, or the file's errors.
    public static func writeIdentity(size: Int, bitDepth: Int = 8, to path: String) throws {
        guard HaldLayout.referenceSizes.contains(size) else { throw GeneratorError.invalidSize(size) }
        let maxCode = try validatedMaxCode(bitDepth)
        let codes = (0..<size).map { (2 * $0 * maxCode + (size - 1)) / (2 * (size - 1)) }
        try write(layout: HaldLayout(cubeSize: size), bitDepth: bitDepth, to: path) { index in
            let r = index % size, g = (index / size) % size, b = index / (size * size)
            return SIMD3(codes[r], codes[g], codes[b])
        }
    }

    /// Writes any cube whose size is a Hald level squared (4, 9, 16, ..., 256) as a Hald image.
    /// Values are clamped to 0...1 and rounded to the nearest code.
    public static func writeHald(_ table: some CubeTable, bitDepth: Int = 8, to path: String) throws {
        let maxCode = try validatedMaxCode(bitDepth)
        let layout: HaldLayout
        do {
            layout = try HaldLayout(cubeSize: table.size)
        } catch {
            throw GeneratorError.notAHaldSize(table.size)
        }
        let scale = Float(maxCode)
        try write(layout: layout, bitDepth: bitDepth, to: path) { index in
            let e = table.entry(at: index)
            let rgb = (pointwiseMin(pointwiseMax(SIMD3(e.x, e.y, e.z), .zero), .one) * scale).rounded(.toNearestOrAwayFromZero)
            return SIMD3(Int(rgb.x), Int(rgb.y), Int(rgb.z))
        }
    }

    private static func validatedMaxCode(_ bitDepth: Int) throws -> Int {
        guard bitDepths.contains(bitDepth) else { throw GeneratorError.invalidBitDepth(bitDepth) }
        return bitDepth == 8 ? 255 : 65535
    }

    /// Streams the image through `AtomicFile`; `code` gives entry `index`'s RGB code values.
    private static func write(layout: HaldLayout, bitDepth: Int, to path: String,
                              code: (Int) -> SIMD3<Int>) throws {
        let side = layout.side
        let bandRows = max(1, min(side, (1 << 18) / side))
        try AtomicFile.write(to: path) { temporary in
            // Sub filtering turns the lattice's steady ramps into runs of equal bytes, which zlib
            // packs tightly: the 64 reference is a few kB.
            let writer = try PNGRowWriter(path: temporary, displayPath: path, width: side, height: side,
                                          channels: 3, bitDepth: bitDepth, colorSpace: .sRGB,
                                          compressionLevel: 9, filter: .sub)
            if bitDepth == 8 {
                var band = [UInt8](repeating: 0, count: bandRows * side * 3)
                try stream(side: side, bandRows: bandRows, band: &band, code: code, writer: writer) { UInt8(truncatingIfNeeded: $0) }
            } else {
                var band = [UInt16](repeating: 0, count: bandRows * side * 3)
                try stream(side: side, bandRows: bandRows, band: &band, code: code, writer: writer) { UInt16(truncatingIfNeeded: $0) }
            }
            try writer.finish()
        }
    }

    private static func stream<Sample>(side: Int, bandRows: Int, band: inout [Sample],
                                       code: (Int) -> SIMD3<Int>, writer: PNGRowWriter,
                                       convert: (Int) -> Sample) throws {
        var row = 0
        while row < side {
            let rows = min(bandRows, side - row)
            let first = row * side
            for i in 0..<(rows * side) {
                let value = code(first + i)
                band[3 * i] = convert(value.x)
                band[3 * i + 1] = convert(value.y)
                band[3 * i + 2] = convert(value.z)
            }
            try band.withUnsafeBytes { try writer.write(rows: rows, from: $0) }
            row += rows
        }
    }
}
