#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import _CVideoCodec

/// The graded clip being written with FFmpeg's libraries: the graded video encoded into it, the
/// source's other streams copied as packets (`StreamPlan`), its chapters, metadata and side data.
final class LibraryOutput {
    private let handle: OpaquePointer

    /// What the graded stream's encoder is given.
    struct Encoder {
        var name: String
        var pixelFormat: String
        /// FFmpeg's option names and values.
        var options: [(String, String)]
        var color: VideoColor
        /// A codec tag ("hvc1"), or nil for the muxer's choice.
        var codecTag: String?
    }

    /// Opens the encoder and the file at `path` (FFmpeg's muxer `muxer`), keeping of the input's
    /// streams those `keep` lists (by index).
    init(decoder: LibraryDecoder, path: String, muxer: String, keep: Set<Int>, encoder: Encoder,
         hdrMetadata: Bool) throws(FFmpegLibraryError) {
        var message = [CChar](repeating: 0, count: Int(CCVIDEO_MESSAGE_SIZE))
        var status: Int32 = 0
        let count = Int(ccvideo_input_stream_count(decoder.input.handle))
        let actions = (0..<count).map { keep.contains($0) ? CCVIDEO_STREAM_COPY : CCVIDEO_STREAM_DROP }
        let strings = [encoder.name, encoder.pixelFormat] + encoder.options.flatMap { [$0.0, $0.1] }
        let color = [encoder.color.matrix, encoder.color.range, encoder.color.primaries, encoder.color.transfer, encoder.codecTag]
        let copies = strings.map { strdup($0) }
        let optional = color.map { $0.map { strdup($0) } ?? nil }
        defer { (copies + optional).forEach { free($0) } }
        let names = stride(from: 2, to: copies.count, by: 2).map { UnsafePointer(copies[$0]) }
        let values = stride(from: 3, to: copies.count, by: 2).map { UnsafePointer(copies[$0]) }
        let opened: OpaquePointer? = names.withUnsafeBufferPointer { namePointers in
            values.withUnsafeBufferPointer { valuePointers in
                var settings = ccvideo_encoder_settings(
                    encoder: copies[0], stream: decoder.info, pixel_format: copies[1],
                    option_names: namePointers.baseAddress, option_values: valuePointers.baseAddress,
                    option_count: Int32(encoder.options.count), color_matrix: optional[0], color_range: optional[1],
                    color_primaries: optional[2], color_transfer: optional[3], codec_tag: optional[4], threads: 0)
                return ccvideo_output_open(decoder.pointer, path, muxer, actions, Int32(actions.count), &settings,
                                           hdrMetadata ? CCVIDEO_HDR_METADATA_KEEP : CCVIDEO_HDR_METADATA_DROP,
                                           &status, &message, message.count)
            }
        }
        guard let opened else { throw FFmpegLibraryError(status: status, message: FFmpegLibraries.message(message)) }
        handle = opened
    }

    deinit { ccvideo_output_close(handle) }

    var pointer: OpaquePointer { handle }

    /// The packed frame to fill before the next `send` (64-byte aligned; it may change from one
    /// frame to the next: the encoder may still hold the last).
    func buffer() throws(FFmpegLibraryError) -> UnsafeMutableRawPointer {
        guard let buffer = ccvideo_output_buffer(handle) else {
            throw FFmpegLibraryError(status: CCVIDEO_NO_MEMORY, message: "out of memory for a frame")
        }
        return UnsafeMutableRawPointer(buffer)
    }

    /// Encodes the frame filled in `buffer()`, at `pts` for `duration` in the stream's time base.
    func send(pts: Int64, duration: Int64) throws(FFmpegLibraryError) {
        var message = [CChar](repeating: 0, count: Int(CCVIDEO_MESSAGE_SIZE))
        let status = ccvideo_output_send(handle, pts, duration, &message, message.count)
        guard status == CCVIDEO_OK else { throw FFmpegLibraryError(status: status, message: FFmpegLibraries.message(message)) }
    }

    /// Drains the encoder and writes the file's end.
    func finish() throws(FFmpegLibraryError) {
        var message = [CChar](repeating: 0, count: Int(CCVIDEO_MESSAGE_SIZE))
        let status = ccvideo_output_finish(handle, &message, message.count)
        guard status == CCVIDEO_OK else { throw FFmpegLibraryError(status: status, message: FFmpegLibraries.message(message)) }
    }
}
