import ColorCubeCore
import _CPNG

/// PNG reading and writing through libpng, with code values preserved exactly: palette, grey,
/// low-bit and interlaced images are expanded to RGB(A) at 8 or 16 bits, and no gAMA, cHRM or
/// iCCP chunk ever changes a value.
public enum PNGFile {
    /// Decodes the PNG at `path`.
    /// - Throws: `ImageError.cannotOpen`, `.notAnImage` or `.corrupt`, naming `path`.
    /// - Parameter options: the pixel limit, checked against the header before any allocation.
    public static func read(path: String, options: ImageReadOptions = ImageReadOptions()) throws(ImageError) -> RasterImage {
        var info = ccpng_info()
        var message = MessageBuffer()
        var reader: OpaquePointer?
        defer { ccpng_reader_close(reader) }
        let opened = message.withPointer { ccpng_reader_open(path, &reader, &info, $0) }
        guard opened == CCPNG_OK, let reader else {
            throw openError(opened, path: path, message: message.text)
        }
        let width = Int(info.width), height = Int(info.height)
        try options.check(width: width, height: height, path: path)
        guard message.withPointer({ ccpng_reader_prepare(reader, &info, $0) }) == CCPNG_OK else {
            throw .corrupt(path: path, reason: message.text)
        }
        let channels = Int(info.channels)
        let bands = RowBands(width: width, height: height, channels: channels, interlaced: info.interlaced != 0,
                             fileBytes: FileProbe.size(path: path))
        func readRows(_ base: UnsafeMutableRawPointer?, _ rows: Int) -> String? {
            let status = message.withPointer { ccpng_reader_read_rows(reader, base, UInt32(rows), $0) }
            return status == CCPNG_OK ? nil : message.text
        }
        let pixels: PixelStorage = info.bit_depth == 16
            ? .sixteen(try bands.read(path: path, readRows)) : .eight(try bands.read(path: path, readRows))
        // Chunks after the image data are optional extras: a damaged tail loses only those.
        _ = message.withPointer { ccpng_reader_finish(reader, &info, $0) }
        var found = metadata(of: info)
        found.exif = found.pngChunks.first { $0.name == "eXIf" }?.data
        found.xmp = found.pngChunks.lazy.compactMap(\.xmpPacket).first
        return RasterImage(width: width, height: height, channels: channels, pixels: pixels,
                           colorSpace: colorSpace(of: info), metadata: found)
    }

    /// Encodes `image` to `path` (created or truncated).
    ///
    /// The colour tag follows `image.colorSpace`: an sRGB chunk for `.sRGB`, the profile for
    /// `.icc`, nothing for `.unspecified`; `image.metadata`'s chunks and gAMA/cHRM are written too
    /// (gAMA/cHRM only when the image is not tagged sRGB).
    /// - Parameter displayPath: the name errors give (the final name when `path` is temporary).
    public static func write(_ image: RasterImage, to path: String, displayPath: String? = nil,
                             compressionLevel: Int = 6) throws(ImageError) {
        var metadata = image.metadata
        if let exif = metadata.exif, !metadata.pngChunks.contains(where: { $0.name == "eXIf" }) {
            // Before the image data, where a PNG's eXIf chunk belongs.
            metadata.pngChunks.append(PNGChunk(name: "eXIf", location: 0x02, data: exif))
        }
        if let xmp = metadata.xmp, !metadata.pngChunks.contains(where: { $0.xmpPacket != nil }) {
            metadata.pngChunks.append(PNGChunk(xmp: xmp))
        }
        let samples = image.integerSamples
        let writer = try PNGRowWriter(path: path, displayPath: displayPath, width: image.width,
                                      height: image.height, channels: image.channels,
                                      bitDepth: samples.bitDepth, colorSpace: image.colorSpace,
                                      metadata: metadata, compressionLevel: compressionLevel,
                                      filter: .adaptive)
        // withUnsafeBytes only rethrows `any Error`; a Result keeps the error's type across it.
        switch samples {
        case .eight(let samples):
            try samples.withUnsafeBytes { bytes in
                Result { () throws(ImageError) in try writer.write(rows: image.height, from: bytes) }
            }.get()
        case .sixteen(let samples):
            try samples.withUnsafeBytes { bytes in
                Result { () throws(ImageError) in try writer.write(rows: image.height, from: bytes) }
            }.get()
        }
        try writer.finish()
    }

    /// The error for a failed `ccpng_reader_open`, by its status code.
    private static func openError(_ status: Int32, path: String, message: String) -> ImageError {
        switch status {
        case CCPNG_NOT_PNG:
            return .notAnImage(path: path)
        case CCPNG_CANNOT_OPEN:
            // The shim's message is strerror(info.system_error).
            return .cannotOpen(path: path, reason: message)
        default:
            return .corrupt(path: path, reason: message)
        }
    }

    private static func colorSpace(of info: ccpng_info) -> ColorSpaceTag {
        if info.has_srgb != 0 { return .sRGB }
        if let icc = info.icc, info.icc_size > 0 {
            let bytes = Array(UnsafeBufferPointer(start: icc, count: Int(info.icc_size)))
            let name = withUnsafeBytes(of: info.icc_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            return .icc(ICCProfileData(bytes: bytes, name: name))
        }
        return .unspecified
    }

    private static func metadata(of info: ccpng_info) -> ImageMetadata {
        var metadata = ImageMetadata()
        if info.has_gama != 0 { metadata.pngGamma = info.gama }
        if info.has_chrm != 0 {
            metadata.pngChromaticities = withUnsafeBytes(of: info.chrm) { Array($0.bindMemory(to: Int32.self)) }
        }
        if let chunks = info.chunks {
            for chunk in UnsafeBufferPointer(start: chunks, count: Int(info.chunk_count)) {
                let name = withUnsafeBytes(of: chunk.name) { raw in
                    String(decoding: raw.prefix(4), as: UTF8.self)
                }
                let data = chunk.data.map { Array(UnsafeBufferPointer(start: $0, count: chunk.size)) } ?? []
                metadata.pngChunks.append(PNGChunk(name: name, location: chunk.location, data: data))
            }
        }
        return metadata
    }
}
