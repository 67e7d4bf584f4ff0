import ColorCubeCore
import ColorCubeLooks
import ColorCubeImaging

/// Reading and writing image LUTs in every layout of `ImageLUTLayout` (Hald, tile, strip): the one
/// place an image LUT is decoded or encoded. `HaldFormat` and `ImageLUTFormat` hand over to it.
///
/// Reading decodes any image format of `ImageCodecs` (by content), finds the layouts the image's
/// size allows, checks it against the expected size, brings an embedded ICC profile to sRGB,
/// handles transparency, picks the layout (as asked, else by content: see
/// `ImageLUTLayoutDetector`) and measures roughness. The table stays a view on the decoded pixels
/// (`ReferenceTable`). Writing produces RGB without alpha, 8 or 16 bits, tagged sRGB so that
/// editors keep its values, handed to libpng a band of rows at a time.
public enum ImageLUT {
    /// Bits per value an image LUT can have.
    public static let supportedBitDepths = [8, 16]

    /// The format a look read in `kind` reports: `HaldFormat` or `ImageLUTFormat`.
    public static func format(for kind: ImageLUTLayout.Kind) -> any LUTFileFormat {
        kind == .hald ? HaldFormat() : ImageLUTFormat(kind)
    }

    // MARK: Reading

    /// A decoded image LUT and what was noticed on the way.
    struct Result: Sendable {
        public var table: ReferenceTable
        /// Set when colours were converted from an embedded profile: that profile's description.
        public var convertedFromProfile: String?
        public var roughness: Roughness
        /// The image format's name when the image was lossily compressed ("JPEG"), else nil.
        public var lossySource: String?
        /// Set when the layout was chosen by content: how, in words for the user.
        public var layoutNote: String?
        /// The layouts the image could also be read in (empty when the choice was clear or asked for).
        public var otherLayouts: [ImageLUTLayout.Kind] = []
    }

    /// Reads the image LUT at `path` as a look: `kinds` are the layouts it may be in, in order of
    /// preference (`options.imageLayout`, when set, overrides them).
    /// - Throws: as `decode`.
    static func read(path: String, options: LUTReadOptions, kinds: [ImageLUTLayout.Kind]) throws -> Look {
        let result = try decode(path: path, options: options, kinds: kinds)
        var look = Look(cube: result.table, format: format(for: result.table.layout.kind))
        look.convertedFromProfile = result.convertedFromProfile
        look.roughness = result.roughness
        look.lossySource = result.lossySource
        if let note = result.layoutNote { look.notes.append(note) }
        look.otherLayouts = result.otherLayouts
        return look
    }

    /// Decodes the image LUT at `path`. The layout is `options.imageLayout` when set; otherwise
    /// the one of `kinds` the image's size allows, and when two do (Hald and tile for a square
    /// image, the two strip orientations), the one its content shows.
    /// - Throws: `ImageError` for unreadable files, `ImageLUTError.wrongDimensions` when no
    ///   layout has the image's size, `.sizeMismatch` when it is not `options.expectedSize`,
    ///   `.transparentPixels`.
    static func decode(path: String, options: LUTReadOptions = LUTReadOptions(),
                       kinds: [ImageLUTLayout.Kind] = ImageLUTLayout.Kind.allCases) throws -> Result {
        let kinds = options.imageLayout.map { [$0] } ?? kinds
        // The one place an image LUT is decoded, through the codec table: any format, by content.
        let decoded = try ImageCodecs.read(path: path, options: ImageReadOptions(limit: options.pixelLimit))
        var image = decoded.image
        let lossySource = image.metadata.isLossy ? ImageCodecs.codec(for: decoded.format)?.displayName : nil
        let candidates = try validatedLayouts(of: image, path: path, kinds: kinds, expectedSize: options.expectedSize)

        if image.hasAlpha, options.alpha == .reject {
            let count = transparentPixelCount(image)
            if count > 0 { throw ImageLUTError.transparentPixels(path: path, count: count) }
        }
        var convertedFrom: String?
        if !options.ignoreProfile, case .icc(let profile) = image.colorSpace, !ColorConversion.isSRGB(profile) {
            try ColorConversion.convertToSRGB(&image, path: path, promoteTo16Bit: true)
            convertedFrom = ColorConversion.describe(profile)
        }
        let premultiplied = options.alpha == .premultiply
        let choice = ImageLUTLayoutDetector.choose(among: candidates, image: image, premultiplied: premultiplied)
        // A layout chosen by content must make a look of the picture; one the caller chose is taken as asked.
        let incoherence = options.imageLayout == nil ? gridIncoherence(choice.table) : 0
        if incoherence > maximumIncoherence {
            throw ImageLUTError.notALUTImage(path: path, size: choice.table.size, incoherence: incoherence)
        }
        return Result(table: choice.table, convertedFromProfile: convertedFrom, roughness: choice.roughness,
                      lossySource: lossySource, layoutNote: choice.note, otherLayouts: choice.alternatives)
    }

    /// The layouts of `kinds` an image of this size can be in (one or two, all of one cube size),
    /// checked against the caller's expected size.
    static func validatedLayouts(of image: RasterImage, path: String, kinds: [ImageLUTLayout.Kind],
                                 expectedSize: Int?) throws -> [ImageLUTLayout] {
        let candidates = ImageLUTLayout.candidates(width: image.width, height: image.height, kinds: kinds)
        // The kinds of the image's shape first (a strip is at least twice as wide as high), so
        // that an expected size names the likely layout.
        let looksLikeStrip = image.width >= 2 * image.height
        let shaped = kinds.filter { $0.isSquare != looksLikeStrip } + kinds
        func expectedLayout(_ size: Int) -> ImageLUTLayout? {
            shaped.lazy.compactMap { try? ImageLUTLayout(kind: $0, cubeSize: size) }.first
        }
        guard let found = candidates.first else {
            throw ImageLUTError.wrongDimensions(path: path, width: image.width, height: image.height,
                                                  layout: kinds.count == 1 ? kinds.first : nil,
                                                  expected: expectedSize.flatMap(expectedLayout))
        }
        if let expectedSize, expectedSize != found.cubeSize {
            throw ImageLUTError.sizeMismatch(path: path, width: image.width, height: image.height,
                                               foundSize: found.cubeSize, expectedSize: expectedSize,
                                               expected: expectedLayout(expectedSize))
        }
        return candidates
    }

    /// Above this `gridIncoherence`, an image is refused as a look. Edited references measure
    /// 0.0000 to 0.0016 (the sample looks, hard-stepped ones among them); photos laid out as a
    /// 64-cube measure 0.57 to 1.0 on their worst axis, as the grid's neighbours are far apart in
    /// the picture.
    public static let maximumIncoherence = 0.3

    /// How far a cube is from a function of its grid: along each axis, the mean squared difference
    /// between neighbouring nodes over twice the nodes' variance (0 for a constant step, about 1
    /// for values with no relation to their neighbours); the largest of the three axes. Measured on
    /// at most 32 positions per axis. Cubes under 8 nodes a side are too coarse to tell: 0.
    public static func gridIncoherence(_ table: some CubeTable) -> Double {
        let n = table.size
        guard n >= 8 else { return 0 }
        let step = max(1, n / 32)
        var sum = SIMD3<Double>.zero, squares = SIMD3<Double>.zero, count = 0.0
        var differences = SIMD3<Double>.zero
        func rgb(_ index: Int) -> SIMD3<Double> {
            let entry = table.entry(at: index)
            return SIMD3(Double(entry.x), Double(entry.y), Double(entry.z))
        }
        for b in stride(from: 0, to: n - 1, by: step) {
            for g in stride(from: 0, to: n - 1, by: step) {
                for r in stride(from: 0, to: n - 1, by: step) {
                    let index = r + n * (g + n * b)
                    let here = rgb(index)
                    sum += here
                    squares += here * here
                    count += 1
                    for (axis, offset) in [1, n, n * n].enumerated() {
                        let delta = rgb(index + offset) - here
                        differences[axis] += (delta * delta).sum()
                    }
                }
            }
        }
        let mean = sum / count
        let variance = (squares / count - mean * mean).sum()
        guard variance > 1e-9 else { return 0 }
        return (differences / count).max() / (2 * variance)
    }

    private static func transparentPixelCount(_ image: RasterImage) -> Int {
        let opaque = image.pixels.maxCode
        var count = 0
        for pixel in 0..<image.pixelCount where image.pixels[4 * pixel + 3] != opaque {
            count += 1
        }
        return count
    }

    // MARK: Writing

    /// Writes any cube `kind` can hold as an image LUT of that layout to `path` (created or
    /// truncated; `displayPath` names it in errors). Values are clamped to 0...1 and rounded to
    /// the nearest code.
    /// - Throws: `ConversionError` for a size or bit depth the layout cannot hold, or the file's
    ///   errors.
    public static func write(_ table: some CubeTable, kind: ImageLUTLayout.Kind, bitDepth: Int = 8, to path: String,
                             displayPath: String? = nil) throws {
        try format(for: kind).validate(size: table.size, bitDepth: bitDepth, path: displayPath ?? path)
        let layout = try ImageLUTLayout(kind: kind, cubeSize: table.size)
        let scale = SIMD4<Float>(repeating: bitDepth == 8 ? 255 : 65535)
        var entries = [SIMD4<Float>](repeating: .zero, count: layout.width)
        try writeImage(layout: layout, bitDepth: bitDepth, to: path, displayPath: displayPath) { first, count, codes in
            entries.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                table.copyEntries(first..<(first + count), into: base)
                for i in 0..<count {
                    let clamped = pointwiseMin(pointwiseMax(base[i], .zero), .one)
                    let code = (clamped * scale).rounded(.toNearestOrAwayFromZero)
                    codes[3 * i] = Int(code.x)
                    codes[3 * i + 1] = Int(code.y)
                    codes[3 * i + 2] = Int(code.z)
                }
            }
        }
    }

    /// Streams an image of `layout` to `path` (created or truncated): RGB, 8 or 16 bits, tagged
    /// sRGB. `fill(first, count, codes)` writes the RGB code values of entries first..<first+count
    /// into `codes` (3 per entry); it is called for runs of consecutive entries that sit in
    /// consecutive pixels (at most one image row), in raster order. The identity generator uses
    /// this directly, to write codes computed exactly in integers.
    /// - Throws: `ConversionError.bitDepth` for a bit depth other than 8 or 16, or the
    ///   file's errors.
    public static func writeImage(layout: ImageLUTLayout, bitDepth: Int, to path: String, displayPath: String? = nil,
                                  fill: (Int, Int, UnsafeMutablePointer<Int>) -> Void) throws {
        try format(for: layout.kind).validate(size: layout.cubeSize, bitDepth: bitDepth, path: displayPath ?? path)
        let width = layout.width, height = layout.height
        let bandRows = max(1, min(height, (1 << 18) / width))
        // Sub filtering turns the lattice's steady ramps into runs of equal bytes, which zlib
        // packs tightly: the 64 reference is a few kB.
        let writer = try PNGRowWriter(path: path, displayPath: displayPath, width: width, height: height,
                                      channels: 3, bitDepth: bitDepth, colorSpace: .sRGB,
                                      compressionLevel: 9, filter: .sub)
        let codes = UnsafeMutablePointer<Int>.allocate(capacity: bandRows * width * 3)
        defer { codes.deallocate() }
        if bitDepth == 8 {
            var band = [UInt8](repeating: 0, count: bandRows * width * 3)
            try stream(layout: layout, bandRows: bandRows, codes: codes, band: &band, fill: fill, writer: writer)
        } else {
            var band = [UInt16](repeating: 0, count: bandRows * width * 3)
            try stream(layout: layout, bandRows: bandRows, codes: codes, band: &band, fill: fill, writer: writer)
        }
        try writer.finish()
    }

    private static func stream<Sample: FixedWidthInteger>(
        layout: ImageLUTLayout, bandRows: Int, codes: UnsafeMutablePointer<Int>, band: inout [Sample],
        fill: (Int, Int, UnsafeMutablePointer<Int>) -> Void, writer: PNGRowWriter
    ) throws {
        let width = layout.width, height = layout.height
        var row = 0
        while row < height {
            let rows = min(bandRows, height - row)
            for y in row..<(row + rows) {
                let rowCodes = codes + (y - row) * width * 3
                forEachRun(inRow: y, of: layout) { x, entry, count in
                    fill(entry, count, rowCodes + 3 * x)
                }
            }
            band.withUnsafeMutableBufferPointer { samples in
                for i in 0..<(3 * rows * width) { samples[i] = Sample(truncatingIfNeeded: codes[i]) }
            }
            try band.withUnsafeBytes { try writer.write(rows: rows, from: $0) }
            row += rows
        }
    }

    /// Calls `body(x, entry, count)` for each run of `count` consecutive entries from `entry` on
    /// that sit in row `y` from pixel x on, left to right: one run of the whole row for Hald, one
    /// red line per tile otherwise.
    static func forEachRun(inRow y: Int, of layout: ImageLUTLayout, _ body: (Int, Int, Int) -> Void) {
        let n = layout.cubeSize
        switch layout.kind {
        case .hald:
            body(0, y * layout.width, layout.width)
        case .tile:
            let tiles = layout.width / n
            let g = y % n, tileRow = y / n
            for column in 0..<tiles {
                let b = tileRow * tiles + column
                body(column * n, n * g + n * n * b, n)
            }
        case .strip, .unityStrip:
            let g = layout.kind == .strip ? y : n - 1 - y
            for b in 0..<n {
                body(b * n, n * g + n * n * b, n)
            }
        }
    }
}
