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
        try write(layout: HaldLayout(cubeSize: size), bitDepth: bitDepth, to: path) { first, count, band in
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
        let scale = SIMD4<Float>(repeating: Float(maxCode))
        var entries = [SIMD4<Float>](repeating: .zero, count: bandPixels(side: layout.side))
        try write(layout: layout, bitDepth: bitDepth, to: path) { first, count, band in
            entries.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                table.copyEntries(first..<(first + count), into: base)
                for i in 0..<count {
                    let clamped = pointwiseMin(pointwiseMax(base[i], .zero), .one)
                    let code = (clamped * scale).rounded(.toNearestOrAwayFromZero)
                    band[3 * i] = Int(code.x)
                    band[3 * i + 1] = Int(code.y)
                    band[3 * i + 2] = Int(code.z)
                }
            }
        }
    }

    /// Pixels per band of rows handed to libpng at once (about 256 kB of samples).
    private static func bandPixels(side: Int) -> Int {
        max(1, min(side, (1 << 18) / side)) * side
    }

    private static func validatedMaxCode(_ bitDepth: Int) throws -> Int {
        guard bitDepths.contains(bitDepth) else { throw GeneratorError.invalidBitDepth(bitDepth) }
        return bitDepth == 8 ? 255 : 65535
    }

    /// Streams the image through `AtomicFile`; `fill(first, count, codes)` writes the RGB code values
    /// of entries first..<first+count into `codes` (3 per entry).
    private static func write(layout: HaldLayout, bitDepth: Int, to path: String,
                              fill: (Int, Int, UnsafeMutablePointer<Int>) -> Void) throws {
        let side = layout.side
        let bandRows = bandPixels(side: side) / side
        try AtomicFile.write(to: path) { temporary in
            // Sub filtering turns the lattice's steady ramps into runs of equal bytes, which zlib
            // packs tightly: the 64 reference is a few kB.
            let writer = try PNGRowWriter(path: temporary, displayPath: path, width: side, height: side,
                                          channels: 3, bitDepth: bitDepth, colorSpace: .sRGB,
                                          compressionLevel: 9, filter: .sub)
            let codes = UnsafeMutablePointer<Int>.allocate(capacity: bandRows * side * 3)
            defer { codes.deallocate() }
            if bitDepth == 8 {
                var band = [UInt8](repeating: 0, count: bandRows * side * 3)
                try stream(side: side, bandRows: bandRows, codes: codes, band: &band, fill: fill, writer: writer)
            } else {
                var band = [UInt16](repeating: 0, count: bandRows * side * 3)
                try stream(side: side, bandRows: bandRows, codes: codes, band: &band, fill: fill, writer: writer)
            }
            try writer.finish()
        }
    }

    private static func stream<Sample: FixedWidthInteger>(
        side: Int, bandRows: Int, codes: UnsafeMutablePointer<Int>, band: inout [Sample],
        fill: (Int, Int, UnsafeMutablePointer<Int>) -> Void, writer: PNGRowWriter
    ) throws {
        var row = 0
        while row < side {
            let rows = min(bandRows, side - row)
            let count = rows * side
            fill(row * side, count, codes)
            band.withUnsafeMutableBufferPointer { samples in
                for i in 0..<(3 * count) { samples[i] = Sample(truncatingIfNeeded: codes[i]) }
            }
            try band.withUnsafeBytes { try writer.write(rows: rows, from: $0) }
            row += rows
        }
    }
}
