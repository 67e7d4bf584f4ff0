import _CEXR

/// What an OpenEXR input was, kept for an output of the same format: its sample type,
/// compression, tiling, windows and every attribute of its header.
public struct EXRHeader: Sendable, Equatable {
    /// The widest colour channel's type.
    public enum SampleType: Int32, Sendable {
        case uint = 0, half = 1, float = 2
    }

    public var sampleType: SampleType
    /// OpenEXR's compression number (0 none, 1 RLE, 2 ZIPS, 3 ZIP, 4 PIZ, 5 PXR24, 6 B44,
    /// 7 B44A, 8 DWAA, 9 DWAB).
    public var compression: Int32
    /// The tile size for a tiled file, nil for scanlines.
    public var tileSize: (width: UInt32, height: UInt32)?
    /// The data window's origin (its size is the picture's).
    public var dataOrigin: (x: Int32, y: Int32)
    /// The display window, min and max corners.
    public var displayWindow: (minX: Int32, minY: Int32, maxX: Int32, maxY: Int32)
    /// The header's bytes, from which an output copies the attributes it does not set itself
    /// (chromaticities, colorInteropID, owner, capture date, custom ones).
    public internal(set) var bytes: [UInt8]
    /// The other required attributes: line order, pixel aspect ratio, screen window; which part
    /// was read.
    var info: ccexr_info

    /// The part read, counting from 0, and how many parts the file holds (1: a single-part file).
    public var part: (index: Int, count: Int) { (Int(info.part), max(1, Int(info.part_count))) }

    /// The `name` attribute of the part read ("" when it has none, as a single-part file may not).
    public var partName: String {
        withUnsafeBytes(of: info.part_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
    }

    public static func == (lhs: EXRHeader, rhs: EXRHeader) -> Bool {
        lhs.sampleType == rhs.sampleType && lhs.compression == rhs.compression
            && lhs.tileSize?.width == rhs.tileSize?.width && lhs.tileSize?.height == rhs.tileSize?.height
            && lhs.dataOrigin == rhs.dataOrigin && lhs.displayWindow == rhs.displayWindow && lhs.bytes == rhs.bytes
    }
}

/// OpenEXR files through the OpenEXR Core library's C API (`_CEXR`).
///
/// A flat image with R, G, B (and A) channels is read as `.float` samples over its data window,
/// values as stored (half values exactly: every half is a float; uint values exactly up to 2^24,
/// above that the nearest float). A multi-part file is read as its first part that is not deep
/// and has full-resolution R, G and B; `metadata.readNotes` says which, and an OpenEXR output of
/// it is a single-part file of that part. Its space: the part's `colorInteropID` attribute
/// (OpenEXR 3.4) when present, else its `chromaticities` attribute (`metadata.chromaticities`),
/// else linear Rec.709, the format's default. Writing keeps an EXR input's sample type,
/// compression, tiling, windows and attributes; a picture from another format is written as half
/// RGB(A), ZIP-compressed scanlines, tagged with nothing (linear Rec.709 is OpenEXR's default) —
/// its values as they are, so an sRGB-encoded picture stays encoded.
public enum EXRFile {
    /// ZIP, OpenEXR's usual lossless compression, for pictures that did not come from an EXR.
    public static let defaultCompression: Int32 = 3

    /// Decodes the file at `path`.
    /// - Throws: `ImageError` naming `path`: `.unsupported` for a file with no flat, full-resolution
    ///   RGB part (deep, luminance, subsampled), `.pixelLimit` when the part read declares more
    ///   pixels than allowed (before any pixel buffer is allocated), `.corrupt` for a damaged file.
    public static func read(path: String, options: ImageReadOptions) throws(ImageError) -> RasterImage {
        var message = MessageBuffer()
        var info = ccexr_info()
        var handle: OpaquePointer?
        let status = message.withPointer { ccexr_open(path, &handle, &info, $0) }
        guard status == CCEXR_OK, let reader = handle else {
            throw error(status: status, path: path, message: message.text)
        }
        defer { ccexr_close(reader) }
        let width = Int(info.width), height = Int(info.height), channels = Int(info.channels)
        try options.check(width: width, height: height, path: path)
        var samples: [Float] = try SampleBuffer.make(count: width * height * channels, path: path)
        let decoded = samples.withUnsafeMutableBufferPointer { buffer in
            message.withPointer { ccexr_read_pixels(reader, buffer.baseAddress, $0) }
        }
        guard decoded == CCEXR_OK else { throw error(status: decoded, path: path, message: message.text) }

        var headerSize = 0
        let headerBytes = ccexr_header(reader, &headerSize)
        var metadata = ImageMetadata()
        metadata.exr = EXRHeader(
            sampleType: EXRHeader.SampleType(rawValue: info.pixel_type) ?? .float, compression: info.compression,
            tileSize: info.tiled != 0 ? (info.tile_width, info.tile_height) : nil,
            dataOrigin: (info.data_min_x, info.data_min_y),
            displayWindow: (info.display_min_x, info.display_min_y, info.display_max_x, info.display_max_y),
            bytes: headerBytes.map { Array(UnsafeBufferPointer(start: $0, count: headerSize)) } ?? [], info: info)
        metadata.isLossy = [5, 6, 7, 8, 9].contains(info.compression)  // PXR24, B44(A), DWAA/B
        if let header = metadata.exr, header.part.count > 1 {
            let name = header.partName.isEmpty ? "" : " \"\(header.partName)\""
            metadata.readNotes.append("a multi-part OpenEXR file: read part \(header.part.index)\(name) of its \(header.part.count) "
                + "(counting from 0), the first flat RGB one; an OpenEXR output holds that part alone, as a single-part file")
        }
        let interop = withUnsafeBytes(of: info.color_interop_id) { bytes in
            String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        if !interop.isEmpty {
            metadata.colorSpaceID = interop
        } else if info.has_chromaticities != 0 {
            metadata.chromaticities = withUnsafeBytes(of: info.chromaticities) { Array($0.bindMemory(to: Float.self)).map(Double.init) }
        } else {
            metadata.colorSpaceID = "lin_rec709_scene"
        }
        return RasterImage(width: width, height: height, channels: channels, pixels: .float(samples),
                           colorSpace: .unspecified, metadata: metadata)
    }

    /// Encodes `image` to `path` as a single-part file (see the type's notes for what is kept).
    ///
    /// A picture read from uint channels is written back as uint when every sample is a whole
    /// number in 0...2^32 (2^32 being the float 4294967295 reads as, written back as 4294967295),
    /// which an identity look (or one that maps codes to codes) leaves it; otherwise as float,
    /// since rounding graded values to whole numbers would lose them. A uint value above 2^24 was
    /// read as the nearest float and is written back as that.
    /// - Throws: `ImageError.cannotWrite` naming `displayPath ?? path`.
    public static func write(_ image: RasterImage, to path: String, displayPath: String? = nil) throws(ImageError) {
        let shownPath = displayPath ?? path
        try image.checkWritable(holds: "OpenEXR output holds RGB or RGBA", path: shownPath)
        guard image.width <= Int(Int32.max), image.height <= Int(Int32.max) else {
            throw .cannotWrite(path: shownPath, reason: "OpenEXR holds at most \(Int32.max) pixels a side")
        }
        var options = ccexr_write_options()
        let header = image.metadata.exr
        if let header {
            options.info = header.info
            options.info.pixel_type = header.sampleType.rawValue
            options.info.compression = header.compression
        } else {
            options.info.pixel_type = EXRHeader.SampleType.half.rawValue
            options.info.compression = defaultCompression
            options.info.pixel_aspect_ratio = 1
            options.info.screen_window_width = 1
        }
        options.info.width = Int32(image.width)
        options.info.height = Int32(image.height)
        options.info.channels = Int32(image.channels)
        if header == nil || header?.info.width != options.info.width || header?.info.height != options.info.height {
            // A new picture, or one of another size (a preview): the windows are its own.
            options.info.data_min_x = 0
            options.info.data_min_y = 0
            options.info.display_min_x = 0
            options.info.display_min_y = 0
            options.info.display_max_x = Int32(image.width - 1)
            options.info.display_max_y = Int32(image.height - 1)
        }
        let floats: [Float] = switch image.pixels {
        case .float(let samples): samples
        case .eight(let samples): samples.map { Float($0) / 255 }
        case .sixteen(let samples): samples.map { Float($0) / 65535 }
        }
        if options.info.pixel_type == EXRHeader.SampleType.uint.rawValue, !Self.holdsUIntCodes(floats) {
            options.info.pixel_type = EXRHeader.SampleType.float.rawValue
        }
        var message = MessageBuffer()
        let headerBytes = header?.bytes ?? []
        let status = headerBytes.withUnsafeBufferPointer { bytes in
            options.source_header = bytes.baseAddress
            options.source_header_size = bytes.count
            return floats.withUnsafeBufferPointer { pixels in
                message.withPointer { ccexr_write(path, &options, pixels.baseAddress, $0) }
            }
        }
        guard status == CCEXR_OK else { throw .cannotWrite(path: shownPath, reason: message.text) }
    }

    /// True when every sample is a whole number a uint channel holds (2^32 as its largest code).
    private static func holdsUIntCodes(_ samples: [Float]) -> Bool {
        samples.allSatisfy { $0 >= 0 && $0 <= 4_294_967_296 && $0.rounded(.towardZero) == $0 }
    }

    private static func error(status: Int32, path: String, message: String) -> ImageError {
        switch status {
        case CCEXR_NOT_EXR: .notAnImage(path: path)
        case CCEXR_CANNOT_OPEN: .cannotOpen(path: path, reason: message)
        case CCEXR_UNSUPPORTED: .unsupported(path: path, reason: message)
        case CCEXR_NO_MEMORY: .outOfMemory(path: path, bytes: 0)
        default: .corrupt(path: path, reason: message)
        }
    }
}
