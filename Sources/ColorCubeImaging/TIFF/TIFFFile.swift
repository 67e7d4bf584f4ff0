import _CTIFF
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// TIFF reading and writing through libtiff, with code values preserved exactly.
///
/// Reading decodes the first image of the file strip by strip or tile by tile: 8 and 16-bit RGB
/// and RGBA, greyscale (1, 2, 4, 8, 16 bits; with alpha too) and palette images, contiguous or
/// separate planes, uncompressed, LZW, Deflate (both tag values), PackBits (and CCITT, Zstandard or
/// LZMA where libtiff has them). Grey and palette expand to RGB; low-bit grey scales to 8 bits;
/// premultiplied (associated) alpha is divided out, so colours arrive unassociated as in every
/// other format here (opaque and fully transparent pixels keep their stored values exactly).
/// 16-bit (half) and 32-bit floating-point RGB and grey arrive as floats, values beyond 0...1
/// kept, and are written back as floats of the same size (floating-point predictor with LZW and
/// Deflate). CMYK, YCbCr, Lab, 32-bit integer and JPEG-compressed files are refused by name.
public enum TIFFFile {
    /// The compression schemes written back unchanged when the input had them (libtiff's values):
    /// none, LZW, Deflate (8 and the older 32946), PackBits.
    public static let keptCompressions: Set<Int> = [1, 5, 8, 32946, 32773]
    /// Deflate (Adobe's tag value 8), for images that were not TIFFs.
    public static let defaultCompression = 8

    /// Decodes the first image of the TIFF at `path`.
    ///
    /// `metadata.tiffCompression` is the stored scheme, `metadata.imageCount` the number of
    /// directories in the file's main chain (pages), `metadata.resolution` the X/YResolution tags,
    /// `metadata.exif` the EXIF and GPS directories as a standalone EXIF block (see
    /// `TIFFExifBlock`; classic TIFF only), `metadata.xmp` the XMP packet (tag 700), and the colour
    /// tag `.icc` when an ICC profile is embedded.
    /// - Throws: `ImageError.cannotOpen`, `.notAnImage`, `.unsupported` (naming what the file is),
    ///   `.pixelLimit` or `.corrupt`, each naming `path`.
    public static func read(path: String, options: ImageReadOptions = ImageReadOptions()) throws(ImageError) -> RasterImage {
        var info = cctiff_info()
        var message = MessageBuffer()
        var reader: OpaquePointer?
        defer { cctiff_reader_close(reader) }
        let opened = message.withPointer { cctiff_reader_open(path, &reader, &info, $0) }
        guard opened == CCTIFF_OK, let reader else {
            throw error(status: opened, path: path, message: message.text)
        }
        let width = Int(info.width), height = Int(info.height), channels = Int(info.channels)
        try options.check(width: width, height: height, path: path)
        let count = width * height * channels
        let pixels: PixelStorage
        let status: Int32
        if info.bit_depth == 32 {
            var samples: [Float] = try SampleBuffer.make(count: count, path: path)
            status = samples.withUnsafeMutableBytes { bytes in
                message.withPointer { cctiff_reader_read(reader, bytes.baseAddress, $0) }
            }
            pixels = .float(samples)
        } else if info.bit_depth == 16 {
            var samples: [UInt16] = try SampleBuffer.make(count: count, path: path)
            status = samples.withUnsafeMutableBytes { bytes in
                message.withPointer { cctiff_reader_read(reader, bytes.baseAddress, $0) }
            }
            pixels = .sixteen(samples)
        } else {
            var samples: [UInt8] = try SampleBuffer.make(count: count, path: path)
            status = samples.withUnsafeMutableBytes { bytes in
                message.withPointer { cctiff_reader_read(reader, bytes.baseAddress, $0) }
            }
            pixels = .eight(samples)
        }
        guard status == CCTIFF_OK else { throw error(status: status, path: path, message: message.text) }

        var metadata = ImageMetadata()
        metadata.tiffCompression = Int(info.compression)
        metadata.tiffFloatBits = info.float_bits != 0 ? Int(info.float_bits) : nil
        metadata.imageCount = Int(info.image_count)
        if info.has_resolution != 0 {
            let unit: ImageResolution.Unit = switch info.resolution_unit {
            case 3: .centimetre
            case 1: .none
            default: .inch
            }
            metadata.resolution = ImageResolution(horizontal: info.x_resolution, vertical: info.y_resolution, unit: unit)
        }
        if info.is_bigtiff == 0, info.exif_offset != 0 || info.gps_offset != 0 {
            metadata.exif = TIFFExifBlock.read(path: path, bigEndian: info.big_endian != 0)
        }
        if let xmp = info.xmp, info.xmp_size > 0 {
            metadata.xmp = Array(UnsafeBufferPointer(start: xmp, count: Int(info.xmp_size)))
        }
        var colorSpace = ColorSpaceTag.unspecified
        if let icc = info.icc, info.icc_size > 0 {
            colorSpace = .icc(ICCProfileData(bytes: Array(UnsafeBufferPointer(start: icc, count: Int(info.icc_size)))))
        }
        return RasterImage(width: width, height: height, channels: channels, pixels: pixels,
                           colorSpace: colorSpace, metadata: metadata)
    }

    /// Encodes `image` to `path` (created or truncated) as a one-image TIFF: interleaved RGB or RGBA
    /// (unassociated alpha) at the image's bit depth, in strips of about 64 KB.
    ///
    /// The compression is `compression`, else the image's `metadata.tiffCompression` when it is one
    /// of `keptCompressions`, else Deflate; LZW and Deflate use the horizontal predictor, which
    /// makes photographs 20-40% smaller at no cost in exactness. The colour tag gives the ICC
    /// profile (`.sRGB` writes `ICCProfiles.sRGB`, `.unspecified` none); `metadata.resolution`
    /// gives X/YResolution and ResolutionUnit; `metadata.exif` gives the main tags it holds (Make,
    /// Model, Orientation, ...) and the EXIF and GPS directories; `metadata.xmp` the XMP packet. Software is "colorcube" and no
    /// date is stamped, so the same image always gives the same bytes.
    /// - Throws: `ImageError.cannotWrite` naming `displayPath ?? path`.
    public static func write(_ image: RasterImage, to path: String, displayPath: String? = nil,
                             compression: Int? = nil) throws(ImageError) {
        let shownPath = displayPath ?? path
        guard image.channels == 3 || image.channels == 4 else {
            throw .cannotWrite(path: shownPath, reason: "TIFF output holds RGB or RGBA, and the image has \(image.channels) channels")
        }
        guard image.width > 0, image.height > 0, image.width <= Int(UInt32.max), image.height <= Int(UInt32.max),
              image.pixels.count == image.width * image.height * image.channels else {
            throw .cannotWrite(path: shownPath, reason: "the image has \(image.pixels.count) samples, not "
                               + "\(image.width)x\(image.height)x\(image.channels)")
        }
        let scheme = compression ?? image.metadata.tiffCompression.flatMap { keptCompressions.contains($0) ? $0 : nil }
            ?? defaultCompression
        guard keptCompressions.contains(scheme), cctiff_can_encode(Int32(scheme)) != 0 else {
            throw .cannotWrite(path: shownPath, reason: "TIFF compression scheme \(scheme) cannot be written")
        }
        let profile: [UInt8]? = switch image.colorSpace {
        case .unspecified: nil
        case .sRGB: ICCProfiles.sRGB
        case .icc(let data): data.bytes
        }
        let exif = image.metadata.exif.flatMap(TIFFExifBlock.contents(of:)) ?? TIFFExifBlock.Contents()
        var options = cctiff_write_options()
        options.width = UInt32(image.width)
        options.height = UInt32(image.height)
        options.channels = Int32(image.channels)
        // Floats stay floats: 32-bit, or half where the input TIFF stored half.
        let floats: [Float]? = if case .float(let values) = image.pixels { values } else { nil }
        let samples = floats == nil ? image.integerSamples : nil
        options.bit_depth = Int32(samples?.bitDepth ?? 32)
        options.float_bits = floats == nil ? 0 : Int32(image.metadata.tiffFloatBits == 16 ? 16 : 32)
        options.compression = Int32(scheme)
        let predicts = scheme == 5 || scheme == 8 || scheme == 32946
        options.predictor = predicts ? (floats == nil ? 2 : 3) : 1
        if let resolution = image.metadata.resolution, resolution.horizontal > 0, resolution.vertical > 0 {
            options.has_resolution = 1
            options.x_resolution = resolution.horizontal
            options.y_resolution = resolution.vertical
            options.resolution_unit = switch resolution.unit {
            case .none: 1
            case .inch: 2
            case .centimetre: 3
            }
        }
        options.orientation = Int32(exif.orientation.map { (1...8).contains($0) ? $0 : 0 } ?? 0)
        options.exif_placeholder = exif.directories.contains { $0.tag == TIFFDirectoryCopier.exifTag } ? 1 : 0
        options.gps_placeholder = exif.directories.contains { $0.tag == TIFFDirectoryCopier.gpsTag } ? 1 : 0

        var message = MessageBuffer()
        let status = withTextTags(exif.textTags) { tags, count in
            options.text_tags = tags
            options.text_tag_count = count
            return withOptionalBytes(profile) { icc, size in
                options.icc = icc
                options.icc_size = size
                return withOptionalBytes(image.metadata.xmp) { xmp, xmpSize in
                    options.xmp = xmp
                    options.xmp_size = xmpSize
                    return message.withPointer { text in
                        if let floats {
                            return floats.withUnsafeBytes { cctiff_write(path, &options, $0.baseAddress, text) }
                        }
                        switch samples {
                        case .eight(let samples): return samples.withUnsafeBytes { cctiff_write(path, &options, $0.baseAddress, text) }
                        case .sixteen(let samples): return samples.withUnsafeBytes { cctiff_write(path, &options, $0.baseAddress, text) }
                        case nil: return CCTIFF_ERROR
                        }
                    }
                }
            }
        }
        guard status == CCTIFF_OK else { throw .cannotWrite(path: shownPath, reason: message.text) }
        try TIFFExifBlock.append(exif.directories, toFileAt: path, displayPath: shownPath)
    }

    private static func error(status: Int32, path: String, message: String) -> ImageError {
        switch status {
        case CCTIFF_NOT_TIFF: .notAnImage(path: path)
        case CCTIFF_CANNOT_OPEN: .cannotOpen(path: path, reason: message)
        case CCTIFF_UNSUPPORTED: .unsupported(path: path, reason: message)
        default: .corrupt(path: path, reason: message)
        }
    }

    /// Calls `body` with the tags as C strings that live for the call.
    private static func withTextTags<R>(_ tags: [(tag: UInt16, value: String)],
                                        _ body: (UnsafePointer<cctiff_text_tag>?, Int32) -> R) -> R {
        let strings = tags.compactMap { tag in strdup(tag.value).map { (tag: tag.tag, copy: $0) } }
        defer { strings.forEach { free($0.copy) } }
        let entries = strings.map { cctiff_text_tag(tag: UInt32($0.tag), value: UnsafePointer($0.copy)) }
        return entries.withUnsafeBufferPointer { body($0.baseAddress, Int32($0.count)) }
    }

    private static func withOptionalBytes<R>(_ bytes: [UInt8]?, _ body: (UnsafePointer<UInt8>?, UInt32) -> R) -> R {
        guard let bytes, !bytes.isEmpty else { return body(nil, 0) }
        return bytes.withUnsafeBufferPointer { body($0.baseAddress, UInt32($0.count)) }
    }
}
