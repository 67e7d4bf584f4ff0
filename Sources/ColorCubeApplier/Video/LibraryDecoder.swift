import _CVideoCodec

/// A clip's video stream decoded frame by frame into packed frames, in colorcube's process.
final class LibraryDecoder {
    private let handle: OpaquePointer
    /// Kept open as long as the decoder reads through it.
    let input: ClipInput
    let info: ccvideo_stream_info

    /// Opens the decoder of stream `streamIndex` and decodes its first frame.
    init(input: ClipInput, streamIndex: Int) throws(FFmpegLibraryError) {
        var message = [CChar](repeating: 0, count: Int(CCVIDEO_MESSAGE_SIZE))
        var info = ccvideo_stream_info()
        var status: Int32 = 0
        guard let handle = ccvideo_decoder_open(input.handle, Int32(streamIndex), 0, &info, &status, &message,
                                                message.count) else {
            throw FFmpegLibraryError(status: status, message: FFmpegLibraries.message(message),
                                     frameSize: info.width > 0 && info.height > 0 ? (Int(info.width), Int(info.height)) : nil)
        }
        self.handle = handle
        self.input = input
        self.info = info
    }

    deinit { ccvideo_decoder_close(handle) }

    var pointer: OpaquePointer { handle }

    var pixelFormat: String { FFmpegLibraries.string(info.pixel_format) }

    /// Has the decoder deliver frames in `pixelFormat`, converted from its own by FFmpeg's
    /// scaler (`matrix`: SWS_CS_*, between YCbCr and RGB).
    func deliver(_ pixelFormat: String, matrix: Int32, fullRange: Bool) throws(FFmpegLibraryError) {
        var message = [CChar](repeating: 0, count: Int(CCVIDEO_MESSAGE_SIZE))
        let status = ccvideo_decoder_deliver(handle, pixelFormat, matrix, fullRange ? 1 : 0, &message, message.count)
        guard status == CCVIDEO_OK else { throw FFmpegLibraryError(status: status, message: FFmpegLibraries.message(message)) }
    }

    /// HDR10's static metadata and the dynamic kinds, from the stream and its first frame.
    var hdrMetadata: HDRMetadata {
        var hdr = ccvideo_hdr_info()
        ccvideo_decoder_hdr(handle, &hdr)
        return HDRMetadata(hdr)
    }

    /// A decoded frame's timing in the stream's time base.
    struct Timing {
        /// nil when the frame has none.
        var pts: Int64?
        /// 0 when unknown.
        var duration: Int64
    }

    /// Decodes the next frame into `frame`, handing packets of other streams to `output`;
    /// returns its timing, or nil at the end of the stream.
    func next(into frame: UnsafeMutableRawPointer, bytes: Int, output: LibraryOutput) throws(FFmpegLibraryError) -> Timing? {
        var message = [CChar](repeating: 0, count: Int(CCVIDEO_MESSAGE_SIZE))
        var pts: Int64 = 0, duration: Int64 = 0
        let result = ccvideo_decoder_next(handle, output.pointer, frame.assumingMemoryBound(to: UInt8.self), bytes, &pts,
                                          &duration, &message, message.count)
        if result < 0 { throw FFmpegLibraryError(status: -result, message: FFmpegLibraries.message(message)) }
        if result == 0 { return nil }
        return Timing(pts: pts == Int64.min ? nil : pts, duration: duration)
    }

    /// A frame's duration in seconds at the stream's average rate (1/25 s when it has none).
    var frameDuration: Double {
        info.frame_rate_num > 0 && info.frame_rate_den > 0 ? Double(info.frame_rate_den) / Double(info.frame_rate_num) : 1.0 / 25
    }

    /// How far the packets read so far reach and the duration the container's header declares,
    /// in seconds; nil when the header declares none.
    var reach: (reached: Double, declared: Double)? {
        var reached = 0.0, declared = 0.0
        return ccvideo_decoder_reach(handle, &reached, &declared) != 0 ? (reached, declared) : nil
    }

    /// The warnings FFmpeg logged while reading the clip.
    var warnings: String { String(cString: ccvideo_decoder_warnings(handle)) }
}
