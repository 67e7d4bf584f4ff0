#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import _CVideoCodec

/// FFmpeg's libraries in colorcube's own process (`_CVideoCodec`, opened at run time): a clip's
/// video stream decoded into packed frames, and graded frames encoded and written as NUT to a
/// pipe, so that no raw frame crosses a pipe (see the Video article in ColorCubeApplier.docc).
enum FFmpegLibraries {
    /// True when libavutil, libavcodec and libavformat (the versions colorcube was built with)
    /// could be opened.
    static let available: Bool = ccvideo_available(nil, 0) != 0

    /// The pixel formats the encoder `name` accepts, or nil when there is no such video encoder.
    static func encoderFormats(_ name: String) -> [String]? {
        var text = [CChar](repeating: 0, count: 4096)
        guard ccvideo_encoder_formats(name, &text, text.count) != 0 else { return nil }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .split(separator: " ").map(String.init)
    }

    /// Whether the muxer wants the codec's headers apart (MP4, MOV, Matroska).
    static func wantsGlobalHeader(muxer: String) -> Bool {
        ccvideo_muxer_wants_global_header(muxer) != 0
    }

    static func message(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Why a call into FFmpeg's libraries failed.
struct FFmpegLibraryError: Error {
    /// A CCVIDEO_* status.
    var status: Int32
    var message: String

    /// Writing to the muxing ffmpeg failed (it has stopped).
    var writeFailed: Bool { status == CCVIDEO_WRITE_FAILED }
    /// A frame of another size or format than the stream's first.
    var formatChanged: Bool { status == CCVIDEO_FORMAT_CHANGED }
}

/// A clip's video stream, decoded frame by frame into packed frames.
final class LibraryDecoder {
    private let handle: OpaquePointer
    let info: ccvideo_stream_info

    init(path: String, streamIndex: Int) throws(FFmpegLibraryError) {
        var message = [CChar](repeating: 0, count: Int(CCVIDEO_MESSAGE_SIZE))
        var info = ccvideo_stream_info()
        guard let handle = ccvideo_decoder_open(path, Int32(streamIndex), 0, &info, &message, message.count) else {
            throw FFmpegLibraryError(status: CCVIDEO_DECODE_FAILED, message: FFmpegLibraries.message(message))
        }
        self.handle = handle
        self.info = info
    }

    deinit { ccvideo_decoder_close(handle) }

    var pixelFormat: String {
        withUnsafeBytes(of: info.pixel_format) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// Decodes the next frame into `frame`; returns its timestamp (nil when it has none), or
    /// nil at the end of the stream.
    func next(into frame: UnsafeMutableRawPointer, bytes: Int) throws(FFmpegLibraryError) -> Int64?? {
        var message = [CChar](repeating: 0, count: Int(CCVIDEO_MESSAGE_SIZE))
        var pts: Int64 = 0
        let result = ccvideo_decoder_next(handle, frame.assumingMemoryBound(to: UInt8.self), bytes, &pts, &message, message.count)
        if result < 0 { throw FFmpegLibraryError(status: -result, message: FFmpegLibraries.message(message)) }
        if result == 0 { return nil }
        return .some(pts == Int64.min ? nil : pts)
    }

    /// The warnings FFmpeg logged while reading the clip.
    var warnings: String { String(cString: ccvideo_decoder_warnings(handle)) }
}

/// Graded frames encoded and written to a descriptor as NUT.
final class LibraryEncoder {
    private let handle: OpaquePointer

    /// - Parameter options: FFmpeg option names and values for the encoder.
    init(encoder: String, pixelFormat: String, stream: ccvideo_stream_info, globalHeader: Bool,
         options: [(String, String)], descriptor: Int32) throws(FFmpegLibraryError) {
        var message = [CChar](repeating: 0, count: Int(CCVIDEO_MESSAGE_SIZE))
        var status: Int32 = 0
        let names = options.map { strdup($0.0) }
        let values = options.map { strdup($0.1) }
        defer { (names + values).forEach { free($0) } }
        let opened: OpaquePointer? = encoder.withCString { encoderName in
            pixelFormat.withCString { formatName in
                names.map { UnsafePointer($0) }.withUnsafeBufferPointer { namePointers in
                    values.map { UnsafePointer($0) }.withUnsafeBufferPointer { valuePointers in
                        var settings = ccvideo_encoder_settings(
                            encoder: encoderName, stream: stream, pixel_format: formatName,
                            global_header: globalHeader ? 1 : 0, option_names: namePointers.baseAddress,
                            option_values: valuePointers.baseAddress, option_count: Int32(options.count), threads: 0)
                        return ccvideo_encoder_open(&settings, descriptor, &status, &message, message.count)
                    }
                }
            }
        }
        guard let opened else { throw FFmpegLibraryError(status: status, message: FFmpegLibraries.message(message)) }
        handle = opened
    }

    deinit { ccvideo_encoder_close(handle) }

    /// The packed frame to fill before the next `send` (64-byte aligned; it may change from one
    /// frame to the next: the encoder may still hold the last).
    func buffer() throws(FFmpegLibraryError) -> UnsafeMutableRawPointer {
        guard let buffer = ccvideo_encoder_buffer(handle) else {
            throw FFmpegLibraryError(status: CCVIDEO_NO_MEMORY, message: "out of memory for a frame")
        }
        return UnsafeMutableRawPointer(buffer)
    }

    /// Encodes the frame filled in `buffer()`, at `pts` in the stream's time base.
    func send(pts: Int64) throws(FFmpegLibraryError) {
        var message = [CChar](repeating: 0, count: Int(CCVIDEO_MESSAGE_SIZE))
        let status = ccvideo_encoder_send(handle, pts, &message, message.count)
        guard status == CCVIDEO_OK else { throw FFmpegLibraryError(status: status, message: FFmpegLibraries.message(message)) }
    }

    func finish() throws(FFmpegLibraryError) {
        var message = [CChar](repeating: 0, count: Int(CCVIDEO_MESSAGE_SIZE))
        let status = ccvideo_encoder_finish(handle, &message, message.count)
        guard status == CCVIDEO_OK else { throw FFmpegLibraryError(status: status, message: FFmpegLibraries.message(message)) }
    }
}
