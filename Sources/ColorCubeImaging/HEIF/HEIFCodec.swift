extension ImageFormat {
    /// HEIC: HEIF with HEVC-coded images (phone photos), also named .heif.
    public static let heic = ImageFormat(identifier: "heic")
    /// AVIF: HEIF with AV1-coded images.
    public static let avif = ImageFormat(identifier: "avif")
}

/// HEIC or AVIF in the codec table (see `HEIFFile`): one type, two instances, since both are HEIF
/// files that libheif reads alike and that differ in the coding of new files (x265 or aom).
///
/// Files are recognised by the brands of their ISO BMFF `ftyp` box: `avif` or `avis` make an AVIF;
/// otherwise `heic`, `heix`, `hevc`, `heim`, `heis`, `hevx`, `mif1` or `msf1` make a HEIC. Canon CR3
/// files (`crx `) are ISO BMFF too; they belong to `CameraRawCodec`, which comes first.
public struct HEIFCodec: ImageCodec {
    /// Which of the two formats this instance is.
    public enum Kind: Sendable {
        case heic
        case avif
    }

    public let kind: Kind

    public init(_ kind: Kind) {
        self.kind = kind
    }

    public var format: ImageFormat { kind == .heic ? .heic : .avif }
    public var storedSampleBits: Int { kind == .heic ? 10 : 12 }
    public var displayName: String { kind == .heic ? "HEIC" : "AVIF" }
    public var fileExtensions: [String] { kind == .heic ? ["heic", "heif"] : ["avif"] }

    public func matches(_ probe: FileProbe) -> Bool {
        Self.kind(of: probe) == kind
    }

    public func read(path: String, options: ImageReadOptions) throws(ImageError) -> RasterImage {
        try HEIFFile.read(path: path, options: options)
    }

    public func write(_ image: RasterImage, to path: String, options: ImageWriteOptions) throws(ImageError) {
        try HEIFFile.write(image, to: path, displayPath: options.displayPath, quality: options.quality,
                           coding: kind == .heic ? .hevc : .av1)
    }

    static let avifBrands: Set<String> = ["avif", "avis"]
    static let heicBrands: Set<String> = ["heic", "heix", "hevc", "heim", "heis", "hevx", "mif1", "msf1"]

    /// The kind of HEIF file behind `probe` by its `ftyp` brands, or nil for anything else.
    static func kind(of probe: FileProbe) -> Kind? {
        let brands = Self.brands(of: probe)
        guard let major = brands.first, major != "crx " else { return nil }
        if brands.contains(where: avifBrands.contains) { return .avif }
        if brands.contains(where: heicBrands.contains) { return .heic }
        return nil
    }

    /// The major brand, then the compatible brands, of a file that starts with an `ftyp` box; empty
    /// for any other file.
    static func brands(of probe: FileProbe) -> [String] {
        guard probe.headHas(Array("ftyp".utf8), at: 4) else { return [] }
        let size = probe.head.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        // Sizes 0 (to the end of the file) and 1 (64-bit) never occur in a real ftyp box; a box of
        // more than 4 kB would be hundreds of brands.
        guard size >= 16, size <= 4096 else { return [] }
        let box = size <= probe.head.count ? Array(probe.head.prefix(size)) : probe.read(at: 0, count: size)
        guard box.count == size else { return [] }
        let major = [box[8..<12]]
        let compatible = stride(from: 16, to: size - 3, by: 4).map { box[$0..<($0 + 4)] }
        return (major + compatible).map { String(decoding: $0, as: UTF8.self) }
    }
}
