import ColorCubeCore
import ColorCubeGenerator

/// Writes a cube in any output format, atomically (temporary file, then rename).
public enum LUTWriter {
    /// Format-specific choices; each applies only to the formats named.
    public struct Options: Sendable, Equatable {
        /// Bits per value: 8 or 16 for a Hald PNG (default 8), 10, 12 or 16 for a .3dl (default
        /// 12); nil takes the default. Other formats ignore it.
        public var bitDepth: Int?

        public init(bitDepth: Int? = nil) {
            self.bitDepth = bitDepth
        }
    }

    /// The largest cube Core Image is reported to accept in `CIColorCube` (sizes 2...64).
    public static let coreImageMaximumSize = 64

    /// True when `format` stores values as integers in 0...1, so that values outside clamp:
    /// Hald PNG, .3dl and ICC device links.
    public static func clampsValues(_ format: LUTFormat) -> Bool {
        switch format {
        case .hald, .threeDL, .icc: true
        case .raw, .cube: false
        }
    }

    /// Writes `table` to `path` as `format`. `title` goes where the format has a title (.cube's
    /// TITLE, the ICC profile description).
    ///
    /// Raw and .cube keep every Float value; Hald PNGs round to 8 or 16 bits, .3dl to 10, 12 or 16
    /// bits and device links to 16 bits, all clamping to 0...1. A Hald PNG needs a cube size that
    /// is a square of 2...16 (4, 9, 16, ..., 256); an ICC table at most 255 points per axis.
    /// - Throws: `ConversionError.unsupportedOutput` when the format cannot hold this cube or bit
    ///   depth, `GeneratorError` for Hald sizes, or the writer's file errors. Nothing is left at
    ///   `path` on failure.
    public static func write(_ table: some CubeTable, format: LUTFormat, to path: String, title: String,
                             options: Options = Options()) throws {
        try validate(size: table.size, format: format, options: options, path: path)
        try AtomicFile.write(to: path) { temporary in
            switch format {
            case .raw:
                try RawCubeFormat.write(table, to: temporary, displayPath: path)
            case .cube:
                try CubeTextFormat.write(table, title: title, to: temporary, displayPath: path)
            case .threeDL:
                try ThreeDLFormat.write(table, bitDepth: options.bitDepth ?? 12, to: temporary, displayPath: path)
            case .hald:
                try ReferenceGenerator.writeHald(table, bitDepth: options.bitDepth ?? 8, to: temporary)
            case .icc:
                try DeviceLinkFormat.write(table, title: title, to: temporary, displayPath: path)
            }
        }
    }

    /// Checks, before any file is created, that `format` can hold a cube of `size` at the
    /// requested bit depth.
    /// - Throws: `ConversionError.unsupportedOutput` naming `path` and what to do.
    public static func validate(size: Int, format: LUTFormat, options: Options, path: String) throws(ConversionError) {
        switch format {
        case .hald:
            if let depth = options.bitDepth, !ReferenceGenerator.bitDepths.contains(depth) {
                throw .unsupportedOutput(path: path, reason: "a Hald PNG holds 8 or 16 bits per value, not \(depth)")
            }
            if (try? HaldLayout(cubeSize: size)) == nil {
                throw .unsupportedOutput(path: path, reason: "a \(size)-cube cannot be stored as a Hald image "
                    + "(sizes 4, 9, 16, ..., 256: a square of 2...16); pass --resample, e.g. --resample 64")
            }
        case .threeDL:
            if let depth = options.bitDepth, !ThreeDLFormat.outputBitDepths.contains(depth) {
                throw .unsupportedOutput(path: path, reason: "a .3dl holds 10, 12 or 16 bits per value, not \(depth)")
            }
        case .icc:
            if !DeviceLinkFormat.sizeRange.contains(size) {
                throw .unsupportedOutput(path: path, reason: "an ICC colour table holds at most 255 points per axis "
                    + "and this cube has \(size); pass --resample 255 or smaller (65 or 33 are usual)")
            }
        case .raw, .cube:
            break
        }
    }
}
