/// Metadata carried from an input image to its output where the format allows.
public struct ImageMetadata: Sendable, Equatable {
    /// PNG ancillary chunks that are safe to copy (tEXt, zTXt, iTXt, eXIf, pHYs and unknown
    /// safe-to-copy chunks), in file order.
    public var pngChunks: [PNGChunk] = []
    /// PNG gAMA value scaled by 100000, kept only when the output keeps the input's colour tag.
    public var pngGamma: UInt32?
    /// PNG cHRM values scaled by 100000 (white, red, green, blue x and y).
    public var pngChromaticities: [Int32]?
    /// JPEG APPn and COM markers other than JFIF (APP0) and ICC (APP2), in file order: EXIF
    /// (APP1), XMP, IPTC (APP13), comments.
    public var jpegMarkers: [JPEGMarker] = []
    /// The JPEG's chroma subsampling, as horizontal and vertical factors of the luma component
    /// relative to chroma (2x2 for 4:2:0, 2x1 for 4:2:2, 1x1 for 4:4:4).
    public var jpegSubsampling: (horizontal: Int, vertical: Int)?

    public init() {}

    public static func == (lhs: ImageMetadata, rhs: ImageMetadata) -> Bool {
        lhs.pngChunks == rhs.pngChunks && lhs.pngGamma == rhs.pngGamma
            && lhs.pngChromaticities == rhs.pngChromaticities && lhs.jpegMarkers == rhs.jpegMarkers
            && lhs.jpegSubsampling?.horizontal == rhs.jpegSubsampling?.horizontal
            && lhs.jpegSubsampling?.vertical == rhs.jpegSubsampling?.vertical
    }
}

/// One PNG chunk: its four-letter type, where it stood (libpng's location flags) and its data.
public struct PNGChunk: Sendable, Equatable {
    public var name: String
    public var location: UInt8
    public var data: [UInt8]

    public init(name: String, location: UInt8, data: [UInt8]) {
        self.name = name
        self.location = location
        self.data = data
    }
}

/// One JPEG marker segment: its marker code (0xE0...0xEF for APPn, 0xFE for COM) and payload.
public struct JPEGMarker: Sendable, Equatable {
    public var code: UInt8
    public var data: [UInt8]

    public init(code: UInt8, data: [UInt8]) {
        self.code = code
        self.data = data
    }
}
