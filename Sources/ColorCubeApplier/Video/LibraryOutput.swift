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
        /// The graded frames' format, converted to `pixelFormat` when it is another, with the
        /// clip's matrix (SWS_CS_*) and range between YCbCr and RGB.
        var sourceFormat: String
        var scalerMatrix: Int32
        var fullRange: Bool
    }

    /// What becomes of one of the input's streams beside the video.
    enum StreamAction {
        case copy
        /// Re-encoded with an FFmpeg encoder, at a bitrate in bits a second when given.
        case encode(encoder: String, bitRate: Int64?)
    }

    /// Opens the encoder and the file at `path` (FFmpeg's muxer `muxer`); of the input's other
    /// streams, `streams` says which are kept and how (by index; absent: dropped).
    init(decoder: LibraryDecoder, path: String, muxer: String, streams: [Int: StreamAction], encoder: Encoder,
         hdrMetadata: Bool) throws(FFmpegLibraryError) {
        var message = [CChar](repeating: 0, count: Int(CCVIDEO_MESSAGE_SIZE))
        var status: Int32 = 0
        let count = Int(ccvideo_input_stream_count(decoder.input.handle))
        var actions = [Int32](repeating: CCVIDEO_STREAM_DROP, count: count)
        var streamEncoders = [UnsafeMutablePointer<CChar>?](repeating: nil, count: count)
        var bitRates = [Int64](repeating: 0, count: count)
        for (index, action) in streams where index < count {
            switch action {
            case .copy:
                actions[index] = CCVIDEO_STREAM_COPY
            case .encode(let name, let bitRate):
                actions[index] = CCVIDEO_STREAM_ENCODE
                streamEncoders[index] = strdup(name)
                bitRates[index] = bitRate ?? 0
            }
        }
        let strings = [encoder.name, encoder.pixelFormat, encoder.sourceFormat] + encoder.options.flatMap { [$0.0, $0.1] }
        let copies = strings.map { strdup($0) }
        let codecTag = encoder.codecTag.map { strdup($0) } ?? nil
        defer { (copies + [codecTag] + streamEncoders).forEach { free($0) } }
        // FFmpeg's (and H.273's) codes; 2, 0, 2, 2: unspecified.
        let color = encoder.color
        let names = stride(from: 3, to: copies.count, by: 2).map { UnsafePointer(copies[$0]) }
        let values = stride(from: 4, to: copies.count, by: 2).map { UnsafePointer(copies[$0]) }
        let encoderNames = streamEncoders.map { $0.map { UnsafePointer($0) } }
        let opened: OpaquePointer? = names.withUnsafeBufferPointer { namePointers in
            values.withUnsafeBufferPointer { valuePointers in
                var settings = ccvideo_encoder_settings(
                    encoder: copies[0], stream: decoder.info, pixel_format: copies[1], source_format: copies[2],
                    matrix: encoder.scalerMatrix, full_range: encoder.fullRange ? 1 : 0,
                    option_names: namePointers.baseAddress, option_values: valuePointers.baseAddress,
                    option_count: Int32(encoder.options.count), color_matrix: color.matrix?.rawValue ?? 2,
                    color_range: color.range?.rawValue ?? 0, color_primaries: color.primaries?.rawValue ?? 2,
                    color_transfer: color.transfer?.rawValue ?? 2, codec_tag: codecTag, threads: 0)
                return ccvideo_output_open(decoder.pointer, path, muxer, actions, encoderNames, bitRates, Int32(count),
                                           &settings, hdrMetadata ? CCVIDEO_HDR_METADATA_KEEP : CCVIDEO_HDR_METADATA_DROP,
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
