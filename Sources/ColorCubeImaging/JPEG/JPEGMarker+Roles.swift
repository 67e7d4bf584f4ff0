extension JPEGMarker {
    /// The COM marker code.
    static let commentCode: UInt8 = 0xFE
    /// The prefix of an EXIF APP1 payload, before the TIFF structure.
    public static let exifHeader: [UInt8] = Array("Exif".utf8) + [0, 0]

    /// True for the APP1 marker that holds EXIF.
    var isExif: Bool {
        code == 0xE1 && data.starts(with: Self.exifHeader)
    }

    /// The prefix of an XMP APP1 payload, before the packet: Adobe's namespace name and a zero.
    public static let xmpHeader: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
    /// The largest packet one APP1 marker holds (a segment's 65,535 bytes less its length field
    /// and the header). Larger ones need XMP's extended parts, which are not written.
    static let largestXMP = 65_533 - xmpHeader.count

    /// True for the APP1 marker that holds the (main) XMP packet.
    var isXMP: Bool {
        code == 0xE1 && data.starts(with: Self.xmpHeader)
    }

    /// True for an APPn (0xE0...0xEF) or COM (0xFE) marker, the only kinds colorcube carries.
    var isCarriable: Bool {
        (0xE0...0xEF).contains(code) || code == Self.commentCode
    }

    /// True for the markers that describe how a file was encoded rather than what it shows, which
    /// the encoder writes itself and a copy must not repeat: the JFIF header (APP0), ICC profile
    /// chunks (APP2, written from the colour tag) and the Adobe marker (APP14), whose colour
    /// transform flag would make decoders read the new file's YCbCr data as RGB.
    var isWrittenByEncoder: Bool {
        switch code {
        case 0xE0: data.starts(with: Array("JFIF".utf8) + [0])
        case 0xE2: JPEGICCProfile.isChunk(self)
        case 0xEE: data.starts(with: Array("Adobe".utf8))
        default: false
        }
    }
}
