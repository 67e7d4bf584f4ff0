/// The first image element of a DPX file as colorcube reads it: the header's fields checked, and
/// every kind of element colorcube does not decode refused with what to do instead.
struct DPXImageElement {
    /// 50 RGB, 51 RGBA, 52 ABGR or 6 luma.
    let descriptor: UInt8
    let transfer: UInt8
    let colorimetric: UInt8
    /// 8, 10, 12 or 16.
    let bitDepth: Int
    let packing: DPXMetadata.Packing
    /// Where the element's first line starts in the file.
    let dataOffset: Int
    /// Bytes after each line before the next starts.
    let endOfLinePadding: Int
    /// Samples per pixel in the file: 3, 4 or 1.
    let components: Int
    /// True when the file's lines run right to left (orientations 1 and 3).
    let mirrorsPixels: Bool
    /// True when the file's lines run bottom to top (orientations 2 and 3).
    let flipsLines: Bool

    /// The element described by `header`.
    /// - Throws: `ImageError.unsupported` for an element colorcube does not decode, `.corrupt` for
    ///   fields that hold no valid value; each naming `path`.
    init(header: DPXHeader, path: String) throws(ImageError) {
        typealias Field = DPXHeader.ElementField
        let elements = header.uint16(at: DPXHeader.Offset.elementCount)
        guard elements >= 1, elements <= 8 else {
            throw .corrupt(path: path, reason: "its header declares \(elements) image elements (DPX allows 1 to 8)")
        }
        guard elements == 1 else {
            throw .unsupported(path: path, reason: "the DPX holds \(elements) image elements and colorcube reads files "
                               + "with one; \(DPXFile.conversionAdvice)")
        }
        let orientation = header.uint16(at: DPXHeader.Offset.orientation)
        switch orientation {
        case 0...3, 0xFFFF:
            mirrorsPixels = orientation == 1 || orientation == 3
            flipsLines = orientation == 2 || orientation == 3
        case 4...7:
            throw .unsupported(path: path, reason: "the DPX stores its picture transposed (orientation \(orientation)), "
                               + "which colorcube does not turn; \(DPXFile.conversionAdvice)")
        default:
            throw .corrupt(path: path, reason: "orientation \(orientation) is not a DPX orientation (0 to 7)")
        }

        let sign = header.elementUInt32(Field.dataSign)
        guard sign == 0 || sign == DPXHeader.undefined else {
            throw .unsupported(path: path, reason: "the DPX holds signed samples; \(DPXFile.conversionAdvice)")
        }
        let encoding = header.elementUInt16(Field.encoding)
        guard encoding == 0 || encoding == 0xFFFF else {
            throw .unsupported(path: path, reason: "the DPX is run-length encoded (encoding \(encoding)), which colorcube "
                               + "does not decode; \(DPXFile.conversionAdvice)")
        }
        let bitSize = Int(header.elementUInt8(Field.bitSize))
        switch bitSize {
        case 8, 10, 12, 16:
            bitDepth = bitSize
        case 32, 64:
            throw .unsupported(path: path, reason: "the DPX holds \(bitSize)-bit floating-point samples and colorcube reads "
                               + "8, 10, 12 and 16-bit integers; convert it to an OpenEXR or a 16-bit TIFF first")
        case 1:
            throw .unsupported(path: path, reason: "the DPX holds 1-bit samples; \(DPXFile.conversionAdvice)")
        default:
            throw .corrupt(path: path, reason: "its image element declares \(bitSize) bits per sample")
        }
        descriptor = header.elementUInt8(Field.descriptor)
        switch descriptor {
        case 50: components = 3
        case 51, 52: components = 4
        case 6: components = 1
        case 100...103:
            throw .unsupported(path: path, reason: "the DPX holds colour-difference (YCbCr) samples (descriptor "
                               + "\(descriptor)) and colorcube reads RGB, RGBA and luma; \(DPXFile.conversionAdvice)")
        default:
            throw .unsupported(path: path, reason: "the DPX holds image element descriptor \(descriptor) and colorcube "
                               + "reads RGB (50), RGBA (51), ABGR (52) and luma (6); \(DPXFile.conversionAdvice)")
        }
        let packingCode = header.elementUInt16(Field.packing)
        if let packing = DPXMetadata.Packing(rawValue: Int(packingCode)) {
            self.packing = packing
        } else if bitDepth == 8 || bitDepth == 16 {
            // Whole bytes and words lie the same way whatever the packing says.
            packing = .packed
        } else {
            throw .corrupt(path: path, reason: "its image element declares packing \(packingCode) (DPX has 0, 1 and 2)")
        }
        transfer = header.elementUInt8(Field.transfer)
        colorimetric = header.elementUInt8(Field.colorimetric)

        let elementOffset = header.elementUInt32(Field.dataOffset)
        let offset = elementOffset == 0 || elementOffset == DPXHeader.undefined
            ? header.uint32(at: DPXHeader.Offset.imageDataOffset) : elementOffset
        guard offset != DPXHeader.undefined, Int(offset) >= DPXHeader.minimumSize else {
            throw .corrupt(path: path, reason: "its pixels are said to start at byte \(offset), inside the header")
        }
        dataOffset = Int(offset)
        let padding = header.elementUInt32(Field.endOfLinePadding)
        endOfLinePadding = padding == DPXHeader.undefined ? 0 : Int(padding)
    }
}
