import _CVideoCodec

/// A clip opened with FFmpeg's libraries: its headers read, then its streams described
/// (`VideoProbe`). The decoder and the output read it through the same demuxer.
final class ClipInput {
    let handle: OpaquePointer
    let path: String

    /// Opens the clip and reads its headers.
    init(path: String) throws(FFmpegLibraryError) {
        var message = [CChar](repeating: 0, count: Int(CCVIDEO_MESSAGE_SIZE))
        var status: Int32 = 0
        guard let handle = ccvideo_input_open(path, &status, &message, message.count) else {
            throw FFmpegLibraryError(status: status, message: FFmpegLibraries.message(message))
        }
        self.handle = handle
        self.path = path
    }

    deinit { ccvideo_input_close(handle) }

    /// Reads the start of the streams to describe them.
    func findStreams() throws(FFmpegLibraryError) {
        var message = [CChar](repeating: 0, count: Int(CCVIDEO_MESSAGE_SIZE))
        let status = ccvideo_input_find_streams(handle, &message, message.count)
        guard status == CCVIDEO_OK else { throw FFmpegLibraryError(status: status, message: FFmpegLibraries.message(message)) }
    }

    /// The first video stream's size as the headers declare it (as probed, after
    /// `findStreams`), and whether FFmpeg decodes frames of that size; nil without a size.
    var declaredSize: (width: Int, height: Int, decodable: Bool)? {
        var width: Int32 = 0, height: Int32 = 0
        let decodable = ccvideo_input_declared_size(handle, &width, &height) != 0
        guard width > 0, height > 0 else { return nil }
        return (Int(width), Int(height), decodable)
    }

    var formatName: String { String(cString: ccvideo_input_format_name(handle)) }

    /// The container's duration in seconds, or nil.
    var duration: Double? {
        let seconds = ccvideo_input_duration(handle)
        return seconds >= 0 ? seconds : nil
    }

    /// Every stream's description, in file order.
    var streams: [ccvideo_stream_probe] {
        (0..<ccvideo_input_stream_count(handle)).compactMap { index in
            var probe = ccvideo_stream_probe()
            return ccvideo_input_stream(handle, index, &probe) != 0 ? probe : nil
        }
    }
}
