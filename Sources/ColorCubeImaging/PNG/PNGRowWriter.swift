import Foundation
import _CPNG

/// Writes a PNG a band of rows at a time, so that a large image never has to exist in memory whole.
///
/// The image data is filtered and compressed on several cores: rows are cut into bands of about
/// 1 MiB (the cut depends only on the row length), each band is deflated on its own with
/// libdeflate, and the bands are joined into the one zlib stream PNG requires, as pigz joins its
/// blocks (each band but the last ends on a byte boundary with an empty stored block, and the
/// Adler-32 is combined from the bands'). The file is therefore the same bytes whatever the number
/// of workers and however rows are split between `write` calls. Memory held besides the caller's
/// rows is a few bands per worker.
public final class PNGRowWriter {
    /// The PNG row filter applied before compression.
    public enum Filter: Int32, Sendable {
        case none = 0, sub, up, average, paeth
        /// Per row, the filter whose residuals (as signed bytes) have the smallest sum of
        /// magnitudes: the classic heuristic, best for photographs.
        case adaptive
    }

    private var writer: OpaquePointer?
    private let displayPath: String
    private let rowBytes: Int
    private var message = MessageBuffer()

    /// Creates `path` and writes the header.
    /// - Parameters:
    ///   - displayPath: the name errors give (the final name when `path` is temporary).
    ///   - channels: 3 or 4; bitDepth: 8 or 16 (16-bit rows in host byte order).
    ///   - compressionLevel: 0...12 on libdeflate's scale: 0 stores, 1...9 trade speed for size as
    ///     zlib's levels do (6 is within 1% of zlib's size at level 6, several times faster),
    ///     10...12 are much slower and a few per cent smaller.
    ///   - workers: threads that filter and compress, clamped to 1...active processors (all of them
    ///     when nil). It changes the speed only, never the bytes.
    /// - Throws: `ImageError.cannotWrite` when the file cannot be created, the size or level is
    ///   invalid, or memory runs out.
    public init(path: String, displayPath: String? = nil, width: Int, height: Int, channels: Int,
                bitDepth: Int, colorSpace: ColorSpaceTag, metadata: ImageMetadata = ImageMetadata(),
                compressionLevel: Int = 6, filter: Filter = .adaptive, workers: Int? = nil) throws(ImageError) {
        self.displayPath = displayPath ?? path
        self.rowBytes = width * channels * bitDepth / 8
        var options = ccpng_write_options()
        options.width = UInt32(width)
        options.height = UInt32(height)
        options.bit_depth = Int32(bitDepth)
        options.channels = Int32(channels)
        options.compression_level = Int32(clamping: compressionLevel)
        options.filter = filter.rawValue
        let processors = ProcessInfo.processInfo.activeProcessorCount
        options.workers = Int32(min(max(workers ?? processors, 1), max(processors, 1)))
        if let gamma = metadata.pngGamma {
            options.has_gama = 1
            options.gama = gamma
        }
        if let chromaticities = metadata.pngChromaticities, chromaticities.count == 8 {
            options.has_chrm = 1
            withUnsafeMutableBytes(of: &options.chrm) { raw in
                for (i, value) in chromaticities.enumerated() { raw.storeBytes(of: value, toByteOffset: 4 * i, as: Int32.self) }
            }
        }
        // The C side copies everything it is given before ccpng_writer_open returns.
        let chunkData = metadata.pngChunks.map { $0.data.isEmpty ? [0] : $0.data }
        var icc: [UInt8] = []
        var iccName = "ICC profile"
        switch colorSpace {
        case .sRGB:
            options.srgb = 1
            options.srgb_intent = 0
        case .icc(let profile):
            icc = profile.bytes
            iccName = profile.name.isEmpty ? "ICC profile" : profile.name
        case .unspecified:
            break
        }
        var opened: Int32 = CCPNG_ERROR
        var created: OpaquePointer?
        withPinnedChunks(metadata.pngChunks, data: chunkData) { chunks in
            icc.withUnsafeBufferPointer { iccBytes in
                iccName.withCString { name in
                    options.icc = iccBytes.baseAddress
                    options.icc_size = UInt32(iccBytes.count)
                    options.icc_name = name
                    options.chunks = chunks.baseAddress
                    options.chunk_count = Int32(chunks.count)
                    opened = message.withPointer { ccpng_writer_open(path, &options, &created, $0) }
                }
            }
        }
        writer = created
        guard opened == CCPNG_OK else {
            ccpng_writer_close(writer)
            writer = nil
            throw .cannotWrite(path: self.displayPath, reason: message.text)
        }
    }

    deinit {
        ccpng_writer_close(writer)
    }

    /// Writes `rows` full rows from `bytes` (rows * width * channels samples).
    /// - Throws: `ImageError.cannotWrite` when the rows would pass the image's height or the file
    ///   cannot be written.
    public func write(rows: Int, from bytes: UnsafeRawBufferPointer) throws(ImageError) {
        precondition(bytes.count >= rows * rowBytes, "row buffer too small")
        let status = message.withPointer { ccpng_writer_write_rows(writer, bytes.baseAddress, UInt32(rows), $0) }
        guard status == CCPNG_OK else { throw .cannotWrite(path: displayPath, reason: message.text) }
    }

    /// Writes the end of the file and closes it.
    /// - Throws: `ImageError.cannotWrite` when fewer rows than the height were written or the file
    ///   cannot be written.
    public func finish() throws(ImageError) {
        let status = message.withPointer { ccpng_writer_finish(writer, $0) }
        guard status == CCPNG_OK else { throw .cannotWrite(path: displayPath, reason: message.text) }
    }

    private func withPinnedChunks(_ chunks: [PNGChunk], data: [[UInt8]],
                                  _ body: (UnsafeBufferPointer<ccpng_chunk>) -> Void) {
        // Copy the chunk bytes into one C allocation per chunk that lives for the call.
        var pointers: [UnsafeMutablePointer<UInt8>] = []
        var converted: [ccpng_chunk] = []
        for (chunk, bytes) in zip(chunks, data) {
            let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
            pointer.initialize(from: bytes, count: bytes.count)
            pointers.append(pointer)
            var c = ccpng_chunk()
            withUnsafeMutableBytes(of: &c.name) { raw in
                for (i, byte) in chunk.name.utf8.prefix(4).enumerated() { raw[i] = byte }
            }
            c.location = chunk.location
            c.size = chunk.data.count
            c.data = pointer
            converted.append(c)
        }
        converted.withUnsafeBufferPointer(body)
        for pointer in pointers { pointer.deallocate() }
    }
}
