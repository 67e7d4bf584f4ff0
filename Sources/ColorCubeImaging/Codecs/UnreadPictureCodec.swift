/// Pictures in formats colorcube recognises but does not decode (GIF, BMP, Photoshop, JPEG 2000,
/// JPEG XL), one codec a format in the table: recognised by their signatures so that a folder run
/// says what it passed over and why, and reading one says to convert it, rather than calling it
/// "not an image".
public struct UnreadPictureCodec: ImageCodec {
    /// The formats, by the names users know them by.
    public enum Kind: String, CaseIterable, Sendable {
        case gif = "GIF"
        case bmp = "BMP"
        case photoshop = "Photoshop"
        case jpeg2000 = "JPEG 2000"
        case jpegXL = "JPEG XL"
    }

    public let kind: Kind

    public init(_ kind: Kind) {
        self.kind = kind
    }

    public var format: ImageFormat { ImageFormat(identifier: "unread-" + String(describing: kind)) }
    public var displayName: String { kind.rawValue }
    public var fileExtensions: [String] { [] }
    public var isReadable: Bool { false }
    public var isPictureToConvert: Bool { true }

    /// The format's signature: GIF87a or GIF89a; BMP's "BM" with a known DIB header size at byte
    /// 14 (two letters alone start too many text files); Photoshop's "8BPS" with version 1 (PSD)
    /// or 2 (PSB); the JPEG 2000 and JPEG XL signature boxes, or their bare codestreams' markers.
    public func matches(_ probe: FileProbe) -> Bool {
        switch kind {
        case .gif:
            return probe.headHas(Array("GIF87a".utf8)) || probe.headHas(Array("GIF89a".utf8))
        case .bmp:
            let dibSizes: Set<UInt8> = [12, 16, 40, 52, 56, 64, 108, 124]
            return probe.headHas(Array("BM".utf8)) && probe.head.count >= 18
                && dibSizes.contains(probe.head[14]) && probe.headHas([0, 0, 0], at: 15)
        case .photoshop:
            return probe.headHas(Array("8BPS".utf8)) && (probe.headHas([0, 1], at: 4) || probe.headHas([0, 2], at: 4))
        case .jpeg2000:
            return probe.headHas([0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A])
                || probe.headHas([0xFF, 0x4F, 0xFF, 0x51])
        case .jpegXL:
            return probe.headHas([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A])
                || probe.headHas([0xFF, 0x0A])
        }
    }

    /// Always throws: colorcube has no decoder for the format.
    /// - Throws: `ImageError.unreadFormat` naming the format.
    public func read(path: String, options: ImageReadOptions) throws(ImageError) -> RasterImage {
        throw .unreadFormat(path: path, format: displayName)
    }

    public func write(_ image: RasterImage, to path: String, options: ImageWriteOptions) throws(ImageError) {
        throw .cannotWrite(path: options.displayPath ?? path, reason: "colorcube does not write \(displayName) files")
    }
}
