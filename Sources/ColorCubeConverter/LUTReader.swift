import ColorCubeCore
import ColorCubeImaging

/// Reads a look from any LUT file colorcube knows: a reference or Hald PNG (levels 2...16, 8 or 16
/// bits), `.cube`, `.3dl`, raw Core Image data (`.bin`, `.raw`) or an ICC device link (`.icc`,
/// `.icm`). The format comes from the caller, else the extension, else the first bytes.
public enum LUTReader {
    /// A look read from a file without a Float32 copy where the format allows it: a reference PNG
    /// stays a view on its decoded pixels (`ReferenceTable`), so a 256-cube costs the 50 MB image
    /// rather than 268 MB of Float32 entries.
    public struct Contents: Sendable {
        /// The look over the input domain 0...1 (shapers and domains already baked in).
        public var table: any CubeTable & Sendable
        public var format: LUTFormat
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

        /// The table in Float32 storage (no copy when it already is a `ColorCube`).
        public var cube: ColorCube { ColorCube(table) }
    }

    /// Reads `path`, keeping a reference PNG as a view on its pixels (see `Contents`).
    /// - Throws: `LUTFileError.unknownFormat` when neither `format`, the extension nor the content
    ///   tells the format; otherwise the format reader's errors, each naming the file.
    public static func read(path: String, format: LUTFormat? = nil,
                            referenceOptions: ReferenceDecoder.Options = .init()) throws -> Contents {
        if Folders.exists(path) {
            throw LUTFileError.unreadable(path: path, reason: "it is a folder, not a LUT file")
        }
        guard let format = format ?? LUTFormat(path: path) ?? sniff(path) else {
            throw LUTFileError.unknownFormat(path: path)
        }
        switch format {
        case .hald:
            let result = try ReferenceDecoder.decode(path: path, options: referenceOptions)
            return Contents(table: result.table, format: format,
                            convertedFromProfile: result.convertedFromProfile, roughness: result.roughness)
        case .cube:
            let contents = try CubeTextFormat.readContents(path: path)
            return Contents(table: contents.baked(), format: format, domainMin: contents.domainMin,
                            domainMax: contents.domainMax, hasShaper: contents.shaper != nil && !contents.isOneDimensional)
        case .threeDL:
            let contents = try ThreeDLFormat.readContents(path: path)
            return Contents(table: contents.baked(), format: format, hasShaper: contents.needsBaking)
        case .raw:
            return Contents(table: try RawCubeFormat.read(path: path), format: format)
        case .icc:
            return Contents(table: try DeviceLinkFormat.read(path: path), format: format)
        }
    }

    /// The format told by content: an image colorcube decodes (a Hald reference), an ICC header, or text with LUT_3D_SIZE.
    static func sniff(_ path: String) -> LUTFormat? {
        guard let head = BinaryFile.readPrefix(path: path, count: 4096) else { return nil }
        if ImageCodecs.sniff(probe: FileProbe(head: head))?.isReadable == true { return .hald }
        if head.count >= 40, head[36..<40].elementsEqual(Array("acsp".utf8)) { return .icc }
        let text = String(decoding: head, as: UTF8.self)
        if text.contains("LUT_3D_SIZE") || text.contains("LUT_1D_SIZE") { return .cube }
        return nil
    }
}
