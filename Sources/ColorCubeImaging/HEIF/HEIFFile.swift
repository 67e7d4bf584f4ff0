import _CHEIF

/// HEIC and AVIF reading and writing through libheif (libde265 or dav1d/aom to decode, x265 or aom
/// to encode).
///
/// Reading decodes the primary image, with the file's rotation, mirroring and cropping applied, to
/// RGB or RGBA: 8-bit for 8-bit files, 16-bit for 10 and 12-bit files (values scaled exactly to the
/// full 16-bit range). libheif converts YCbCr to RGB itself, honouring the file's matrix and range.
public enum HEIFFile {
    /// How new files are coded.
    public enum Coding: Sendable {
        /// HEVC with x265: a HEIC file.
        case hevc
        /// AV1 with aom: an AVIF file.
        case av1
    }

    /// The largest width or height libheif is asked to accept while parsing: never more than its
    /// own default, so colorcube's pixel limit only ever tightens libheif's security limits.
    static let libheifSideLimit = 32768

    /// Decodes the primary image of the HEIF file at `path`.
    ///
    /// `colorSpace` is `.icc` for an embedded ICC profile; else an nclx colour box is turned into a
    /// tag as `NCLXColor` describes (`.sRGB` for sRGB, an ICC profile built with Little CMS for other
    /// primaries or curves, such as the Display P3 of phone photos); else `.unspecified`.
    /// `metadata.exif` holds the TIFF structure of the first Exif block with its orientation set to
    /// 1, since the pixels are delivered already turned the way the file says (HEIF readers follow
    /// the file's `irot`/`imir` boxes, not EXIF); `metadata.isLossy` is true and `imageCount` counts
    /// the file's top-level images. `metadata.ycbcrLayout` gives the coded chroma blocks (see
    /// `HEIFChromaLayout`) with the nclx box's matrix and range; with `options.replicatesChroma`
    /// each chroma sample is repeated over its block rather than interpolated.
    /// - Throws: `ImageError.cannotOpen` when the file cannot be read; `.notAnImage` when libheif
    ///   does not recognise it; `.pixelLimit` before decoding; `.corrupt` for damaged or
    ///   truncated data; `.unsupported` for codecs or features libheif lacks and HDR transfer
    ///   curves. Each names `path`.
    public static func read(path: String, options: ImageReadOptions = ImageReadOptions()) throws(ImageError) -> RasterImage {
        var info = ccheif_info()
        var message = MessageBuffer()
        var reader: OpaquePointer?
        defer { ccheif_reader_close(reader) }
        let side = Int32(min(options.pixelLimit, libheifSideLimit))
        let opened = message.withPointer { ccheif_reader_open(path, side, Int64(options.pixelLimit), &reader, &info, $0) }
        guard opened == CCHEIF_OK, let reader else {
            throw error(status: opened, path: path, message: message.text, limit: options.pixelLimit)
        }
        let width = Int(info.width), height = Int(info.height)
        try options.check(width: width, height: height, path: path)
        let colorSpace = try colorSpace(of: info, path: path)
        let channels = info.has_alpha != 0 ? 4 : 3
        let count = width * height * channels
        let replicate: Int32 = options.replicatesChroma ? 1 : 0
        let pixels: PixelStorage
        var bits: Int32 = 8
        if info.luma_bits > 8 {
            var samples: [UInt16] = try SampleBuffer.make(count: count, path: path)
            let status = samples.withUnsafeMutableBytes { buffer in
                message.withPointer { ccheif_reader_decode(reader, buffer.baseAddress, Int32(channels), 1, replicate, &bits, $0) }
            }
            guard status == CCHEIF_OK else {
                throw error(status: status, path: path, message: message.text, limit: options.pixelLimit)
            }
            guard (9...16).contains(bits) else {
                throw .unsupported(path: path, reason: "libheif decoded \(bits)-bit samples")
            }
            let top = UInt32(1) << UInt32(bits) - 1
            if top != 65535 {
                for index in samples.indices {
                    samples[index] = UInt16((UInt32(min(UInt32(samples[index]), top)) * 65535 + top / 2) / top)
                }
            }
            pixels = .sixteen(samples)
        } else {
            var samples: [UInt8] = try SampleBuffer.make(count: count, path: path)
            let status = samples.withUnsafeMutableBytes { buffer in
                message.withPointer { ccheif_reader_decode(reader, buffer.baseAddress, Int32(channels), 0, replicate, &bits, $0) }
            }
            guard status == CCHEIF_OK else {
                throw error(status: status, path: path, message: message.text, limit: options.pixelLimit)
            }
            pixels = .eight(samples)
        }

        var metadata = ImageMetadata()
        metadata.isLossy = true
        metadata.imageCount = max(1, Int(info.image_count))
        metadata.exif = bytes(of: info.exif).flatMap(tiffStructure).map(EXIFOrientation.upright)
        metadata.xmp = bytes(of: info.xmp)
        metadata.ycbcrLayout = HEIFChromaLayout.read(path: path).map { blocks in
            // Without an nclx box, and for an unspecified matrix, BT.601 in full range, taken to
            // be what libheif decodes with.
            let declared = info.nclx.present != 0 && info.nclx.matrix != 2
            return YCbCrLayout(horizontal: blocks.horizontal, vertical: blocks.vertical,
                               matrix: declared ? Int(info.nclx.matrix) : 6,
                               fullRange: info.nclx.present == 0 || info.nclx.full_range != 0)
        }
        return RasterImage(width: width, height: height, channels: channels, pixels: pixels,
                           colorSpace: colorSpace, metadata: metadata)
    }

    /// Encodes `image` to `path` (created or truncated), lossy.
    ///
    /// 8-bit images are coded at 8 bits; 16-bit images at 10 bits for HEVC (x265's Main 10) and 12
    /// bits for AV1, as `(v * top + 32767) / 65535` with top 1023 or 4095. (AV1 at 10 bits is not
    /// offered: libheif 1.15 asks aom for the professional profile there, which aom 3.6 accepts only
    /// with 4:2:2 chroma and otherwise aborts on.)
    /// Alpha is kept. The colour tag becomes a 'prof' box for `.icc`, nothing for `.unspecified`, and
    /// for `.sRGB` either an nclx box (BT.709 primaries, sRGB curve, full range) or Little CMS's sRGB
    /// profile, as `sRGBAsNCLX` says; `metadata.exif` (a
    /// TIFF structure) and `metadata.xmp` become Exif and XMP items. The encoders are set so the same
    /// image always gives the same bytes: aom runs on one thread (its output depends on the thread
    /// count), x265 on its own pool (its output does not), with x265's "medium" preset.
    /// - Parameters:
    ///   - displayPath: the name errors give (the final name when `path` is temporary).
    ///   - quality: the encoder's quality, 1...100 (clamped).
    ///   - sRGBAsNCLX: how an sRGB tag is stored; nil chooses nclx for AVIF and the ICC profile for
    ///     HEIC, whose nclx boxes older macOS versions misread (libheif's own default too).
    /// - Throws: `ImageError.cannotWrite` naming `displayPath ?? path`.
    public static func write(_ image: RasterImage, to path: String, displayPath: String? = nil,
                             quality: Int = ImageWriteOptions.defaultQuality, coding: Coding,
                             sRGBAsNCLX: Bool? = nil) throws(ImageError) {
        let shownPath = displayPath ?? path
        try image.checkWritable(holds: "HEIF holds RGB or RGBA", path: shownPath)
        let nclx = image.colorSpace == .sRGB && (sRGBAsNCLX ?? (coding == .av1))
        let profile: [UInt8] = switch image.colorSpace {
        case .icc(let data): data.bytes
        case .sRGB: nclx ? [] : ICCProfiles.sRGB
        case .unspecified: []
        }
        // libheif looks for the TIFF header itself and refuses a block without one.
        let exif = (image.metadata.exif ?? []).starts(with: EXIFOrientation.bigEndianMark)
            || (image.metadata.exif ?? []).starts(with: EXIFOrientation.littleEndianMark) ? image.metadata.exif ?? [] : []
        let xmp = image.metadata.xmp ?? []
        var options = ccheif_write_options()
        options.width = UInt32(image.width)
        options.height = UInt32(image.height)
        options.channels = Int32(image.channels)
        options.compression = coding == .hevc ? CCHEIF_HEVC : CCHEIF_AV1
        options.quality = Int32(quality)
        options.threads = coding == .av1 ? 1 : 0
        options.srgb_nclx = nclx ? 1 : 0
        var message = MessageBuffer()
        let status: Int32
        switch image.integerSamples {
        case .eight(let samples):
            options.bits = 8
            status = encode(samples, profile: profile, exif: exif, xmp: xmp, options: &options, path: path, message: &message)
        case .sixteen(let samples):
            options.bits = coding == .hevc ? 10 : 12
            let top = UInt32(1) << UInt32(options.bits) - 1
            let reduced = samples.map { UInt16(SampleDepth.reduce($0, toMaximum: top)) }
            status = encode(reduced, profile: profile, exif: exif, xmp: xmp, options: &options, path: path, message: &message)
        }
        guard status == CCHEIF_OK else { throw .cannotWrite(path: shownPath, reason: message.text) }
    }

    private static func encode<Sample>(_ samples: [Sample], profile: [UInt8], exif: [UInt8], xmp: [UInt8],
                                       options: inout ccheif_write_options, path: String,
                                       message: inout MessageBuffer) -> Int32 {
        samples.withUnsafeBytes { pixels in
            profile.withUnsafeBufferPointer { icc in
                exif.withUnsafeBufferPointer { exifBytes in
                    xmp.withUnsafeBufferPointer { xmpBytes in
                        options.pixels = pixels.baseAddress
                        options.icc = ccheif_bytes(data: icc.baseAddress, size: icc.count)
                        options.exif = ccheif_bytes(data: exifBytes.baseAddress, size: exifBytes.count)
                        options.xmp = ccheif_bytes(data: xmpBytes.baseAddress, size: xmpBytes.count)
                        return message.withPointer { ccheif_write(path, &options, $0) }
                    }
                }
            }
        }
    }

    private static func colorSpace(of info: ccheif_info, path: String) throws(ImageError) -> ColorSpaceTag {
        if let profile = bytes(of: info.icc) {
            return .icc(ICCProfileData(bytes: profile))
        }
        guard info.nclx.present != 0 else { return .unspecified }
        return try NCLXColor(info.nclx).colorSpace(path: path)
    }

    private static func bytes(of block: ccheif_bytes) -> [UInt8]? {
        guard let data = block.data, block.size > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: block.size))
    }

    /// The TIFF structure of a HEIF Exif block: a 4-byte big-endian offset from the end of that field
    /// to the TIFF header, then the data. Nil when the offset points outside the block.
    static func tiffStructure(ofExifBlock block: [UInt8]) -> [UInt8]? {
        guard block.count > 4 else { return nil }
        let offset = block.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        guard offset <= block.count - 4 - 8 else { return nil }
        return Array(block[(4 + offset)...])
    }

    private static func error(status: Int32, path: String, message: String, limit: Int) -> ImageError {
        switch status {
        case CCHEIF_NOT_HEIF: .notAnImage(path: path)
        case CCHEIF_CANNOT_OPEN: .cannotOpen(path: path, reason: message)
        case CCHEIF_UNSUPPORTED: .unsupported(path: path, reason: message)
        case CCHEIF_NO_MEMORY: .outOfMemory(path: path, bytes: 0)
        case CCHEIF_TOO_BIG: tooBig(path: path, message: message, limit: limit)
        default: .corrupt(path: path, reason: message)
        }
    }

    /// libheif's security limit names the declared size ("... 40000x30000 exceeds ..."): the first
    /// WxH in its message becomes the evidence of `.pixelLimit`.
    private static func tooBig(path: String, message: String, limit: Int) -> ImageError {
        let words = message.split(whereSeparator: { !$0.isNumber && $0 != "x" })
        for word in words {
            let parts = word.split(separator: "x")
            if parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) {
                return .pixelLimit(.tooManyPixels(path: path, width: width, height: height, limit: limit))
            }
        }
        return .unsupported(path: path, reason: message)
    }
}
