/// Metadata carried from an input image to its output where the format allows.
///
/// Two kinds live here. Format-neutral fields (`exif`, `xmp`, `resolution`) travel to an output of any
/// format that can hold them. Format-specific fields (PNG chunks, JPEG markers, TIFF compression,
/// WebP losslessness) describe one format's file and travel only to an output of that same format:
/// `keepingOnlyNeutralFields()` drops them when the format changes.
public struct ImageMetadata: Sendable, Equatable {
    // MARK: Format-neutral

    /// The EXIF block as a TIFF structure (byte order mark first, no "Exif\0\0" prefix), from
    /// whatever container the input kept it in. A writer stores it unless its format-specific
    /// fields already hold the same block (a JPEG's APP1 marker, a PNG's eXIf chunk).
    public var exif: [UInt8]?
    /// The XMP packet (UTF-8 XML), from whatever container the input kept it in (a JPEG's APP1
    /// marker, a PNG's iTXt chunk, a TIFF's tag 700, a WebP or HEIF item). A writer stores it
    /// unless its format-specific fields already hold one.
    public var xmp: [UInt8]?
    /// Pixel density, where the input declared one.
    public var resolution: ImageResolution?
    /// True when the input was lossily compressed (JPEG, lossy WebP, HEIC, AVIF): its pixels carry
    /// compression noise. Not written anywhere; callers warn with it.
    public var isLossy = false
    /// How many images the file held; only the first is read (multi-page TIFF). 1 for most files.
    public var imageCount = 1
    /// What the reader chose for the user that they should hear of, one sentence each (which part
    /// of a multi-part OpenEXR file it read). Not written anywhere; callers print each once.
    public var readNotes: [String] = []
    /// The colour space the file names for its values, as a Color Interop ID or a name the space
    /// catalogue knows (an OpenEXR `colorInteropID` or chromaticities, a DPX transfer
    /// characteristic), or nil when it names none. Read-side evidence: callers take it as the
    /// picture's space when they are not told one; writers do not store it.
    public var colorSpaceID: String?
    /// The primaries and white the file declares for linear values (red x y, green x y, blue x y,
    /// white x y: an OpenEXR `chromaticities` attribute), where it names no space by ID.
    public var chromaticities: [Double]?

    // MARK: Format-specific
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
    /// How a lossy WebP, HEIC or AVIF stored its colour (chroma blocks, matrix, range), where the
    /// file says; nil for lossless files and when the layout is not known.
    public var ycbcrLayout: YCbCrLayout?

    /// TIFF compression scheme of the input (libtiff's COMPRESSION_* value), which a TIFF output keeps.
    public var tiffCompression: Int?
    /// For a floating-point TIFF input, its sample size (16 for half, 32), which a TIFF output keeps.
    public var tiffFloatBits: Int?
    /// True when the input was a lossless WebP, which a WebP output then is too.
    public var webpLossless: Bool?
    /// An OpenEXR input's header: sample type, compression, tiling, windows and attributes.
    public var exr: EXRHeader?
    /// A DPX input's bit depth, packing, byte order, codes and headers, which a DPX output keeps.
    public var dpx: DPXMetadata?

    public init() {}

    /// The metadata without its format-specific fields, for an output in another format.
    public func keepingOnlyNeutralFields() -> ImageMetadata {
        var neutral = ImageMetadata()
        neutral.exif = exif
        neutral.xmp = xmp
        neutral.resolution = resolution
        neutral.isLossy = isLossy
        neutral.imageCount = imageCount
        neutral.readNotes = readNotes
        neutral.colorSpaceID = colorSpaceID
        neutral.chromaticities = chromaticities
        return neutral
    }

    public static func == (lhs: ImageMetadata, rhs: ImageMetadata) -> Bool {
        lhs.exif == rhs.exif && lhs.xmp == rhs.xmp && lhs.resolution == rhs.resolution
            && lhs.isLossy == rhs.isLossy && lhs.imageCount == rhs.imageCount && lhs.readNotes == rhs.readNotes
            && lhs.colorSpaceID == rhs.colorSpaceID && lhs.chromaticities == rhs.chromaticities && lhs.exr == rhs.exr
            && lhs.tiffCompression == rhs.tiffCompression && lhs.tiffFloatBits == rhs.tiffFloatBits
            && lhs.webpLossless == rhs.webpLossless
            && lhs.pngChunks == rhs.pngChunks && lhs.pngGamma == rhs.pngGamma
            && lhs.pngChromaticities == rhs.pngChromaticities && lhs.jpegMarkers == rhs.jpegMarkers
            && lhs.jpegSubsampling?.horizontal == rhs.jpegSubsampling?.horizontal
            && lhs.jpegSubsampling?.vertical == rhs.jpegSubsampling?.vertical
            && lhs.ycbcrLayout == rhs.ycbcrLayout && lhs.dpx == rhs.dpx
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

/// Pixels per unit along each axis.
public struct ImageResolution: Sendable, Equatable {
    public enum Unit: Sendable, Equatable {
        case inch
        case centimetre
        /// Only the aspect ratio of pixels is known.
        case none
    }

    public var horizontal: Double
    public var vertical: Double
    public var unit: Unit

    public init(horizontal: Double, vertical: Double, unit: Unit) {
        self.horizontal = horizontal
        self.vertical = vertical
        self.unit = unit
    }
}
