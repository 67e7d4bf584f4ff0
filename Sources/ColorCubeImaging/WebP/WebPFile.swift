import _CWebP

/// WebP reading and writing through libwebp, with libwebpdemux and libwebpmux for the ICCP, EXIF
/// and XMP chunks.
///
/// Reading decodes the still image, or the first frame of an animation composed onto its canvas, to
/// 8-bit RGB, or RGBA when the file has alpha. Writing is single-threaded, so the same image always
/// gives the same bytes.
public enum WebPFile {
    /// Decodes the WebP at `path`.
    ///
    /// `colorSpace` is `.icc` when the file has an ICCP chunk, else `.unspecified`. The EXIF chunk
    /// becomes `metadata.exif` (an "Exif\0\0" prefix that some writers add is removed), the XMP
    /// chunk `metadata.xmp`; `metadata.webpLossless` is true for a lossless (VP8L) still image,
    /// `metadata.isLossy` its opposite, and `metadata.imageCount` the number of animation frames.
    /// A lossy still image has `metadata.ycbcrLayout` `.vp8` (4:2:0, BT.601, limited range); with
    /// `options.replicatesChroma` it is decoded with each chroma sample repeated over its 2x2 block.
    /// - Throws: `ImageError.cannotOpen` when the file cannot be read; `.notAnImage` when it is not
    ///   a RIFF WebP; `.pixelLimit` before any pixel buffer is allocated; `.corrupt` for damaged
    ///   or truncated data; `.unsupported` for features libwebp lacks. Each names `path`.
    public static func read(path: String, options: ImageReadOptions = ImageReadOptions()) throws(ImageError) -> RasterImage {
        var info = ccwebp_info()
        var message = MessageBuffer()
        var reader: OpaquePointer?
        defer { ccwebp_reader_close(reader) }
        let opened = message.withPointer { ccwebp_reader_open(path, &reader, &info, $0) }
        guard opened == CCWEBP_OK, let reader else {
            throw error(status: opened, path: path, message: message.text)
        }
        let width = Int(info.width), height = Int(info.height)
        try options.check(width: width, height: height, path: path)
        let channels = info.has_alpha != 0 ? 4 : 3
        var samples: [UInt8] = try SampleBuffer.make(count: width * height * channels, path: path)
        let status = samples.withUnsafeMutableBufferPointer { buffer in
            message.withPointer {
                ccwebp_reader_decode(reader, buffer.baseAddress, Int32(channels), options.replicatesChroma ? 1 : 0, $0)
            }
        }
        guard status == CCWEBP_OK else { throw error(status: status, path: path, message: message.text) }

        var metadata = ImageMetadata()
        let lossless = info.is_lossless != 0 && info.frame_count <= 1
        metadata.webpLossless = lossless
        metadata.isLossy = !lossless
        metadata.imageCount = max(1, Int(info.frame_count))
        // A lossy still image is VP8, whose layout is fixed; an animation's frames are composed
        // onto the canvas, so its blocks are not known.
        metadata.ycbcrLayout = info.is_lossy_still != 0 ? .vp8 : nil
        metadata.exif = bytes(of: info.exif).map(withoutExifPrefix)
        metadata.xmp = bytes(of: info.xmp)
        let colorSpace: ColorSpaceTag = bytes(of: info.icc).map { .icc(ICCProfileData(bytes: $0)) } ?? .unspecified
        return RasterImage(width: width, height: height, channels: channels, pixels: .eight(samples),
                           colorSpace: colorSpace, metadata: metadata)
    }

    /// Encodes `image` to `path` (created or truncated) as a still WebP.
    ///
    /// 16-bit samples are rounded to 8 bits as `(v * 255 + 32767) / 65535`; alpha is kept. The colour
    /// tag is stored as an ICCP chunk (`.sRGB` as Little CMS's sRGB profile, `.unspecified` as none),
    /// with `metadata.exif` and `metadata.xmp` as EXIF and XMP chunks.
    /// - Parameters:
    ///   - displayPath: the name errors give (the final name when `path` is temporary).
    ///   - quality: the lossy encoder's quality, 1...100 (clamped); unused when `lossless`.
    ///   - lossless: VP8L with `exact`, so that even fully transparent pixels keep their RGB values.
    /// - Throws: `ImageError.cannotWrite` naming `displayPath ?? path` (also for images over WebP's
    ///   16383 pixels a side).
    public static func write(_ image: RasterImage, to path: String, displayPath: String? = nil,
                             quality: Int = ImageWriteOptions.defaultQuality, lossless: Bool = false) throws(ImageError) {
        let shownPath = displayPath ?? path
        try image.checkWritable(holds: "WebP holds RGB or RGBA", path: shownPath)
        let samples: [UInt8]
        switch image.integerSamples {
        case .eight(let eight): samples = eight
        case .sixteen(let sixteen): samples = sixteen.map(SampleDepth.eightBit)
        }
        let profile: [UInt8] = switch image.colorSpace {
        case .unspecified: []
        case .sRGB: ICCProfiles.sRGB
        case .icc(let data): data.bytes
        }
        let exif = image.metadata.exif ?? [], xmp = image.metadata.xmp ?? []
        var message = MessageBuffer()
        let status = samples.withUnsafeBufferPointer { pixels in
            profile.withUnsafeBufferPointer { icc in
                exif.withUnsafeBufferPointer { exifBytes in
                    xmp.withUnsafeBufferPointer { xmpBytes in
                        var options = ccwebp_write_options(
                            width: UInt32(image.width), height: UInt32(image.height), channels: Int32(image.channels),
                            pixels: pixels.baseAddress, lossless: lossless ? 1 : 0, quality: Int32(quality),
                            icc: chunk(icc), exif: chunk(exifBytes), xmp: chunk(xmpBytes))
                        return message.withPointer { ccwebp_write(path, &options, $0) }
                    }
                }
            }
        }
        guard status == CCWEBP_OK else { throw .cannotWrite(path: shownPath, reason: message.text) }
    }

    private static func chunk(_ bytes: UnsafeBufferPointer<UInt8>) -> ccwebp_chunk {
        ccwebp_chunk(data: bytes.baseAddress, size: bytes.count)
    }

    private static func bytes(of chunk: ccwebp_chunk) -> [UInt8]? {
        guard let data = chunk.data, chunk.size > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: chunk.size))
    }

    /// The TIFF structure of an EXIF chunk, without the JPEG-style "Exif\0\0" prefix when present.
    private static func withoutExifPrefix(_ exif: [UInt8]) -> [UInt8] {
        let prefix: [UInt8] = Array("Exif".utf8) + [0, 0]
        return exif.starts(with: prefix) ? Array(exif.dropFirst(prefix.count)) : exif
    }

    private static func error(status: Int32, path: String, message: String) -> ImageError {
        switch status {
        case CCWEBP_NOT_WEBP: .notAnImage(path: path)
        case CCWEBP_CANNOT_OPEN: .cannotOpen(path: path, reason: message)
        case CCWEBP_UNSUPPORTED: .unsupported(path: path, reason: message)
        case CCWEBP_NO_MEMORY: .outOfMemory(path: path, bytes: 0)
        default: .corrupt(path: path, reason: message)
        }
    }
}
