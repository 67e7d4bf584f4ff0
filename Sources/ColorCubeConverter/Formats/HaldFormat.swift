import ColorCubeCore
import ColorCubeTransform
import ColorCubeImaging

/// Reference and Hald CLUT PNGs (.png): the image a user edits, read as a cube and written from one.
///
/// Any image format of `ImageCodecs` is read as a reference too (a Photoshop user may save it as
/// a 16-bit TIFF), recognised by content; only PNG is written. A lossily compressed reference
/// (JPEG, lossy WebP, HEIC) is read, and `Look.lossySource` says so, since its compression
/// noise becomes part of the look.
///
/// Layout: see `HaldLayout`; entry p = r + N*g + N^2*b sits at x = p mod W, y = p div W. Reading
/// checks the image's size, brings an embedded ICC profile to sRGB, handles transparency and looks
/// for signs of spatial edits; the table stays a view on the decoded pixels (`ReferenceTable`).
/// Writing produces RGB without alpha, tagged sRGB so that editors keep its values, handed to
/// libpng a band of rows at a time, so a 4096 x 4096 image needs a few hundred kB, not 50 MB.
public struct HaldFormat: LUTFileFormat {
    /// Bits per value a Hald PNG can have.
    public static let supportedBitDepths = [8, 16]

    public init() {}

    public var name: String { "png" }
    /// 64: the 64 reference, 512x512 pixels.
    public var preferredSize: Int { 64 }
    public var displayName: String { "Hald CLUT PNG" }
    public var noun: String { "a Hald PNG" }
    public var extensions: [String] { ["png"] }
    public var bitDepths: [Int] { Self.supportedBitDepths }
    public var defaultBitDepth: Int? { 8 }
    public var clampsValues: Bool { true }
    public var sizeDescription: String { "4, 9, 16, ..., 256: a square of 2...16" }
    public var largestSize: Int? { nil }
    public var readsImages: Bool { true }

    public func canHold(size: Int) -> Bool {
        (try? HaldLayout(cubeSize: size)) != nil
    }

    /// Any image colorcube decodes, by its signature.
    public func sniff(_ head: [UInt8]) -> Bool {
        ImageCodecs.sniff(probe: FileProbe(head: head))?.isReadable == true
    }

    public func read(path: String, options: LUTReadOptions) throws -> Look {
        let result = try Self.decode(path: path, options: options)
        var look = Look(cube: result.table, format: self)
        look.convertedFromProfile = result.convertedFromProfile
        look.roughness = result.roughness
        look.lossySource = result.lossySource
        return look
    }

    public func write(_ table: some CubeTable, to path: String, displayPath: String, title: String, bitDepth: Int?) throws {
        try Self.write(table, bitDepth: bitDepth ?? 8, to: path, displayPath: displayPath)
    }

    /// "Hald CLUT PNG, level 8, 16-bit".
    public func describe(_ look: Look) -> String {
        let table = look.plainTable
        let depth = (table as? ReferenceTable)?.image.bitDepth ?? 8
        let level = table.flatMap { try? HaldLayout(cubeSize: $0.size) }?.level ?? 0
        return "\(displayName), level \(level), \(depth)-bit"
    }

    // MARK: Reading

    /// A decoded reference and what was noticed on the way.
    public struct Result: Sendable {
        public var table: ReferenceTable
        /// Set when colours were converted from an embedded profile: that profile's description.
        public var convertedFromProfile: String?
        public var roughness: Roughness
        /// The image format's name when the reference was lossily compressed ("JPEG"), else nil.
        public var lossySource: String?
    }

    /// Decodes the reference PNG at `path`.
    /// - Throws: `ImageError` for unreadable files, `ConversionError.wrongDimensions`,
    ///   `.sizeMismatch` and `.transparentPixels`.
    public static func decode(path: String, options: LUTReadOptions = LUTReadOptions()) throws -> Result {
        // The one place a Hald image is decoded, through the codec table: any format, by content.
        let decoded = try ImageCodecs.read(path: path, options: ImageReadOptions(limit: options.pixelLimit))
        var image = decoded.image
        let lossySource = image.metadata.isLossy ? ImageCodecs.codec(for: decoded.format)?.displayName : nil
        let layout = try validatedLayout(of: image, path: path, expectedSize: options.expectedSize)

        if image.hasAlpha, options.alpha == .reject {
            let count = transparentPixelCount(image)
            if count > 0 { throw ConversionError.transparentPixels(path: path, count: count) }
        }
        var convertedFrom: String?
        if !options.ignoreProfile, case .icc(let profile) = image.colorSpace, !ColorConversion.isSRGB(profile) {
            try ColorConversion.convertToSRGB(&image, path: path, promoteTo16Bit: true)
            convertedFrom = ColorConversion.describe(profile)
        }
        let table = ReferenceTable(image: image, size: layout.cubeSize,
                                   premultiplied: options.alpha == .premultiply)
        return Result(table: table, convertedFromProfile: convertedFrom, roughness: Roughness(measuring: table),
                      lossySource: lossySource)
    }

    /// The Hald layout of a W x W image, checked against the caller's expected size.
    static func validatedLayout(of image: RasterImage, path: String, expectedSize: Int?) throws -> HaldLayout {
        guard image.width == image.height, let layout = HaldLayout(side: image.width) else {
            let expected = expectedSize.flatMap { try? HaldLayout(cubeSize: $0) }
            throw ConversionError.wrongDimensions(path: path, width: image.width, height: image.height,
                                                  expectedSide: expected?.side)
        }
        if let expectedSize, expectedSize != layout.cubeSize {
            let expectedSide = (try? HaldLayout(cubeSize: expectedSize))?.side
            throw ConversionError.sizeMismatch(path: path, width: image.width, height: image.height,
                                               foundSize: layout.cubeSize, expectedSize: expectedSize,
                                               expectedSide: expectedSide)
        }
        return layout
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

    /// Writes any cube whose size is a Hald level squared (4, 9, 16, ..., 256) as a Hald image to
    /// `path` (created or truncated; `displayPath` names it in errors). Values are clamped to 0...1
    /// and rounded to the nearest code.
    /// - Throws: `ConversionError` for a size or bit depth a Hald PNG cannot hold (see
    ///   `validate`), or the file's errors.
    public static func write(_ table: some CubeTable, bitDepth: Int = 8, to path: String,
                             displayPath: String? = nil) throws {
        try HaldFormat().validate(size: table.size, bitDepth: bitDepth, path: displayPath ?? path)
        let layout = try HaldLayout(cubeSize: table.size)
        let scale = SIMD4<Float>(repeating: bitDepth == 8 ? 255 : 65535)
        var entries = [SIMD4<Float>](repeating: .zero, count: bandPixels(side: layout.side))
        try writeImage(layout: layout, bitDepth: bitDepth, to: path, displayPath: displayPath) { first, count, band in
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

    /// Streams a Hald image of `layout` to `path` (created or truncated): RGB, 8 or 16 bits,
    /// tagged sRGB. `fill(first, count, codes)` writes the RGB code values of entries
    /// first..<first+count into `codes` (3 per entry); it is called band by band, in order.
    /// The identity generator uses this directly, to write codes computed exactly in integers.
    /// - Throws: `ConversionError.unsupportedOutput` for a bit depth other than 8 or 16, or the
    ///   file's errors.
    public static func writeImage(layout: HaldLayout, bitDepth: Int, to path: String, displayPath: String? = nil,
                                  fill: (Int, Int, UnsafeMutablePointer<Int>) -> Void) throws {
        try HaldFormat().validate(size: layout.cubeSize, bitDepth: bitDepth, path: displayPath ?? path)
        let side = layout.side
        let bandRows = bandPixels(side: side) / side
        // Sub filtering turns the lattice's steady ramps into runs of equal bytes, which zlib
        // packs tightly: the 64 reference is a few kB.
        let writer = try PNGRowWriter(path: path, displayPath: displayPath, width: side, height: side,
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

    /// Pixels per band of rows handed to libpng at once (about 256 kB of samples).
    private static func bandPixels(side: Int) -> Int {
        max(1, min(side, (1 << 18) / side)) * side
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
