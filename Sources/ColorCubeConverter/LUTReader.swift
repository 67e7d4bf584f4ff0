import ColorCubeCore
import ColorCubeImaging

/// Reads a look from any LUT file colorcube knows, as a Float32 cube.
public enum LUTReader {
    /// A look read from a file, with what was noticed on the way.
    public struct Look: Sendable {
        public var cube: ColorCube
        public var format: LUTFormat
        /// Set when a reference PNG's colours were converted from its embedded profile.
        public var convertedFromProfile: String?
        /// Set for reference PNGs: how rough the table is (see `Roughness`).
        public var roughness: Roughness?
    }

    /// Reads `path`: a reference or Hald PNG, `.cube`, `.3dl` or raw Core Image data (`.bin`,
    /// `.raw`). The format comes from `format`, else the extension, else the first bytes.
    /// - Parameter referenceOptions: how to read a PNG (expected size, profile, alpha).
    /// - Throws: `LUTFileError`, `ImageError` or `ConversionError`, each naming the file.
    public static func read(path: String, format: LUTFormat? = nil,
                            referenceOptions: ReferenceDecoder.Options = .init()) throws -> Look {
        guard let format = format ?? LUTFormat(path: path) ?? sniff(path) else {
            throw LUTFileError.unknownFormat(path: path)
        }
        switch format {
        case .hald:
            let result = try ReferenceDecoder.decode(path: path, options: referenceOptions)
            return Look(cube: ColorCube(result.table), format: format,
                        convertedFromProfile: result.convertedFromProfile, roughness: result.roughness)
        case .cube:
            return Look(cube: try CubeTextFormat.read(path: path), format: format)
        case .threeDL:
            return Look(cube: try ThreeDLFormat.read(path: path), format: format)
        case .raw:
            return Look(cube: try RawCubeFormat.read(path: path), format: format)
        case .icc:
            throw LUTFileError.unsupported(path: path, reason: "reading ICC device links is not available yet")
        }
    }

    /// The format told by content: PNG signature, an ICC header, or text with LUT_3D_SIZE.
    static func sniff(_ path: String) -> LUTFormat? {
        guard let head = BinaryFile.readPrefix(path: path, count: 4096) else { return nil }
        if ImageFormat(signature: head) == .png { return .hald }
        if head.count >= 40, head[36..<40].elementsEqual(Array("acsp".utf8)) { return .icc }
        let text = String(decoding: head, as: UTF8.self)
        if text.contains("LUT_3D_SIZE") || text.contains("LUT_1D_SIZE") { return .cube }
        return nil
    }
}
