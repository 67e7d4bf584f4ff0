import ColorCubeCore

/// Reads a look from any LUT file colorcube knows (see `LUTFormats.all`). The format comes from
/// the caller, else the extension, else the first bytes.
public enum LUTReader {
    /// A look read from a file without a Float32 copy where the format allows it: a reference PNG
    /// stays a view on its decoded pixels (`ReferenceTable`), so a 256-cube costs the 50 MB image
    /// rather than 268 MB of Float32 entries. Hand `table` to `LUTEngine(table:)` as it is.
    public struct Contents: Sendable {
        /// The look over the input domain 0...1 (shapers and domains already baked in).
        public var table: any CubeTable & Sendable
        /// The format the file was read as.
        public var format: any LUTFileFormat
        /// Set when a reference PNG's colours were converted from its embedded profile.
        public var convertedFromProfile: String?
        /// Set for reference PNGs: how rough the table is (see `Roughness`).
        public var roughness: Roughness?
        /// Per channel, the input at the file's first lattice node: a .cube's `DOMAIN_MIN` (or
        /// `LUT_3D_INPUT_RANGE`), 0 for every other format.
        public var domainMin = SIMD3<Double>(repeating: 0)
        /// Per channel, the input at the file's last lattice node: a .cube's `DOMAIN_MAX`, 1 elsewhere.
        public var domainMax = SIMD3<Double>(repeating: 1)
        /// True when the file has a 1D shaper before its cube (Resolve .cube, or a .3dl whose input
        /// line is not the plain ramp); the table already includes it.
        public var hasShaper = false
        /// Set when the look was read from a lossily compressed image (a JPEG reference): that
        /// format's name. Its compression noise is part of the look.
        public var lossySource: String?

        public init(table: any CubeTable & Sendable, format: any LUTFileFormat, convertedFromProfile: String? = nil,
                    roughness: Roughness? = nil, domainMin: SIMD3<Double> = SIMD3(repeating: 0),
                    domainMax: SIMD3<Double> = SIMD3(repeating: 1), hasShaper: Bool = false) {
            self.table = table
            self.format = format
            self.convertedFromProfile = convertedFromProfile
            self.roughness = roughness
            self.domainMin = domainMin
            self.domainMax = domainMax
            self.hasShaper = hasShaper
        }

        /// The table in Float32 storage (no copy when it already is a `ColorCube`). The engine
        /// does not need this: it packs `table` itself.
        public var cube: ColorCube { ColorCube(table) }
    }

    /// Reads `path`, keeping a reference PNG as a view on its pixels (see `Contents`).
    /// - Throws: `FileError.cannotOpen` for a folder or a file that cannot be read,
    ///   `LUTFileError.unknownFormat` when neither `format`, the extension nor the content tells
    ///   the format; otherwise the format reader's errors, each naming the file.
    public static func read(path: String, format: (any LUTFileFormat)? = nil,
                            options: LUTReadOptions = LUTReadOptions()) throws -> Contents {
        if Folders.exists(path) {
            throw FileError.cannotOpen(path: path, reason: "it is a folder, not a LUT file")
        }
        guard let format = format ?? LUTFormats.forPath(path) ?? LUTFormats.sniff(path: path) else {
            throw LUTFileError.unknownFormat(path: path, readable: LUTFormats.extensionGroups)
        }
        return try format.read(path: path, options: options)
    }
}
