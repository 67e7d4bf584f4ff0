import ColorCubeCore
import ColorCubeTransform

/// Writes a look in any `LUTFileFormat`, atomically (temporary file, then rename).
public enum LUTWriter {
    /// Format-specific choices; each applies only to the formats that have them.
    public struct Options: Sendable, Equatable {
        /// Bits per value, one of the format's `bitDepths` (8 or 16 for a Hald PNG, 10, 12 or 16
        /// for a .3dl); nil takes the format's default.
        public var bitDepth: Int?

        public init(bitDepth: Int? = nil) {
            self.bitDepth = bitDepth
        }
    }

    /// What writing a look did to it, for the caller to tell the user.
    public struct Report: Sendable {
        /// The lattice size written, or nil when the chain was written as it is.
        public var size: Int?
        /// How far the baked cube is from the look, when the look had to be baked.
        public var bakingError: BakingError?
        /// The lowest and highest value written when the format clamps values to 0...1 and some
        /// were outside; nil when nothing was clamped.
        public var clamped: (min: Float, max: Float)?
        /// True when raw Core Image data of a size Core Image is reported to reject was written.
        public var exceedsCoreImage: Bool
    }

    /// How far outside 0...1 a value may be and still be reported as within it: the arithmetic's
    /// rounding (a chain that returns 1 as 1.0000001), not the look's range.
    public static let clampNoise: Float = 1e-4

    /// The largest cube Core Image is reported to accept in `CIColorCube` (sizes 2...64).
    public static let coreImageMaximumSize = 64

    /// Writes `look` to `path` as `format`. A format that holds this look's chain
    /// (`holdsExactly`) gets the look's operations as they are unless `size` asks for a cube; in a
    /// format of 1D tables (.spi1d) a look of per-channel operations becomes a table of
    /// `TransformBaker.curveLength` entries over 0...1; every other format gets the
    /// look baked into a cube of `size` (default: the look's natural size), the baking error measured.
    /// `interpolation` is how the look's 3D LUTs are read while baking (a plain cube of the asked
    /// size is written as it is).
    /// - Throws: `ConversionError` when the format cannot hold this cube or bit depth (checked
    ///   before anything is baked or created), `TransformError`, or the writer's file errors.
    ///   Nothing is left at `path` on failure.
    @discardableResult
    public static func write(_ look: Look, format: any LUTFileFormat, to path: String, title: String,
                             size: Int? = nil, interpolation: Interpolation? = nil, options: Options = Options()) throws -> Report {
        if size == nil, format.holdsExactly(look.transform) {
            try AtomicFile.write(to: path) { temporary in
                try format.writeChain(look.transform, to: temporary, displayPath: path, title: title)
            }
            return Report(size: nil, bakingError: nil, clamped: nil, exceedsCoreImage: false)
        }
        // A per-channel look (a log, a transfer function) becomes a 1D table in a format of 1D tables.
        if size == nil, format.writesLooksWithoutCube, let curves = try TransformBaker.curves(of: look.transform), format.holdsExactly(Transform([curves])) {
            try AtomicFile.write(to: path) { temporary in
                try format.writeChain(Transform([curves]), to: temporary, displayPath: path, title: title)
            }
            return Report(size: nil, bakingError: nil, clamped: nil, exceedsCoreImage: false)
        }
        let cubeSize = size ?? TransformBaker.naturalSize(of: look.transform)
        try format.validate(size: cubeSize, bitDepth: options.bitDepth, path: path)
        var transform = look.transform
        if let interpolation { transform = transform.interpolating(with: interpolation) }
        let bakingLook = Look(transform: transform, format: look.format)
        let (table, error) = try bakingLook.baked(size: cubeSize)
        var clamped: (min: Float, max: Float)?
        // Image LUTs only hold 0...1, so only other sources can have values to clamp.
        if format.clampsValues, !look.format.readsImages {
            let range = table.outputRange()
            if range.min.min() < -clampNoise || range.max.max() > 1 + clampNoise { clamped = (range.min.min(), range.max.max()) }
        }
        try write(table, format: format, to: path, title: title, options: options)
        return Report(size: cubeSize, bakingError: error, clamped: clamped,
                      exceedsCoreImage: format.isSame(as: RawCubeFormat()) && cubeSize > coreImageMaximumSize)
    }

    /// Writes the plain cube `table` to `path` as `format`. `title` goes where the format has a
    /// title (.cube's TITLE, the ICC profile description).
    ///
    /// Raw and .cube keep every Float value; formats whose `clampsValues` is true round to their
    /// bit depth and clamp to 0...1.
    /// - Throws: `ConversionError` when the format cannot hold this cube or bit depth (checked
    ///   first, see `LUTFileFormat.validate`), or the writer's file errors. Nothing is left at
    ///   `path` on failure.
    public static func write(_ table: some CubeTable, format: any LUTFileFormat, to path: String, title: String,
                             options: Options = Options()) throws {
        try format.validate(size: table.size, bitDepth: options.bitDepth, path: path)
        try AtomicFile.write(to: path) { temporary in
            try format.write(table, to: temporary, displayPath: path, title: title, bitDepth: options.bitDepth)
        }
    }
}
