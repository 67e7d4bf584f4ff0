import ColorCubeCore
import _CVideoCodec

/// What FFmpeg's libraries report of a clip: its first video stream and the container, as far as
/// grading needs them.
public struct VideoProbe: Sendable, Equatable {
    /// The video stream's index among all the file's streams.
    public var streamIndex: Int
    /// FFmpeg's codec name: h264, hevc, prores, ffv1, ...
    public var codec: String
    /// The codec profile as FFmpeg names it ("High", "Main 10", "HQ"), if any.
    public var profile: String?
    public var width: Int
    public var height: Int
    public var pixelFormat: VideoPixelFormat
    public var color: VideoColor
    /// The number of frames, from the container or estimated from duration and frame rate; nil
    /// when neither says.
    public var frameCount: Int?
    /// True when `frameCount` is the container's own count (MP4, MOV), not an estimate.
    public var frameCountIsExact = false
    /// The container's format names ("mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm").
    public var container: String
    /// The display matrix's rotation in degrees as FFmpeg reports it (-90 for a phone held
    /// upright), or nil.
    public var rotation: Int?
    /// The other streams' kinds (audio, subtitle, data, attachment), in file order.
    public var otherStreams: [String]
    /// The other streams, in file order: what the output keeps of them (`StreamPlan`).
    public var streams: [Stream] = []

    /// A stream beside the graded video.
    public struct Stream: Sendable, Equatable {
        /// Its index among all the file's streams.
        public var index: Int
        /// audio, subtitle, data, attachment, or video (a second video stream, a cover picture).
        public var kind: String
        /// FFmpeg's codec name (aac, pcm_s16le, mov_text, bin_data, ...).
        public var codec: String

        public init(index: Int, kind: String, codec: String) {
            self.index = index
            self.kind = kind
            self.codec = codec
        }
    }

    public init(streamIndex: Int, codec: String, profile: String?, width: Int, height: Int,
                pixelFormat: VideoPixelFormat, color: VideoColor, frameCount: Int?, container: String,
                otherStreams: [String]) {
        self.streamIndex = streamIndex
        self.codec = codec
        self.profile = profile
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.color = color
        self.frameCount = frameCount
        self.container = container
        self.otherStreams = otherStreams
    }

    /// Opens and describes the clip at `path` with FFmpeg's libraries.
    /// - Throws: `VideoError.librariesMissing`, `.unreadable` (FFmpeg's reason),
    ///   `.indexTooLarge` (its headers ask for more memory than there is), `.frameTooLarge` or
    ///   `.noVideoStream`.
    public static func probe(path: String) throws -> VideoProbe {
        try probe(input: open(path: path))
    }

    /// Opens the clip at `path` and reads its headers, checking the size they declare against
    /// `pixelLimit` before FFmpeg decodes anything to describe the streams.
    static func open(path: String, pixelLimit: PixelLimit? = nil) throws -> ClipInput {
        guard FFmpegLibraries.available else { throw VideoError.librariesMissing(path: path, reason: FFmpegLibraries.unavailableReason) }
        let input: ClipInput
        do {
            input = try ClipInput(path: path)
        } catch {
            throw error.outOfMemory ? VideoError.indexTooLarge(path: path)
                : VideoError.unreadable(path: path, reason: withoutPath(error.message, path: path))
        }
        try checkSize(input, pixelLimit: pixelLimit)
        do {
            try input.findStreams()
        } catch {
            throw error.outOfMemory ? VideoError.indexTooLarge(path: path)
                : VideoError.unreadable(path: path, reason: withoutPath(error.message, path: path))
        }
        try checkSize(input, pixelLimit: pixelLimit)
        return input
    }

    /// A declared size over the pixel limit names the limit and its option; a size FFmpeg does
    /// not decode says so.
    private static func checkSize(_ input: ClipInput, pixelLimit: PixelLimit?) throws {
        guard let size = input.declaredSize else { return }
        try pixelLimit?.check(width: size.width, height: size.height, path: input.path)
        if !size.decodable { throw VideoError.frameTooLarge(path: input.path, width: size.width, height: size.height) }
    }

    /// Describes the opened clip: its first video stream that is not a cover picture, and the
    /// streams beside it.
    static func probe(input: ClipInput) throws(VideoError) -> VideoProbe {
        let path = input.path
        let streams = input.streams
        guard let index = streams.firstIndex(where: { $0.kind == CCVIDEO_KIND_VIDEO && $0.attached_picture == 0 }),
              streams[index].width > 0, streams[index].height > 0 else {
            throw .noVideoStream(path: path)
        }
        let video = streams[index]
        func name<T>(_ field: T) -> String? {
            let text = FFmpegLibraries.string(field)
            return text.isEmpty ? nil : text
        }
        let pixelFormat = VideoPixelFormat(name(video.pixel_format).flatMap { $0 == "none" ? nil : $0 } ?? "yuv420p")
        var color = VideoColor(matrix: .init(rawValue: video.color_matrix), range: .init(rawValue: video.color_range),
                               primaries: .init(rawValue: video.color_primaries), transfer: .init(rawValue: video.color_transfer),
                               chromaLocation: .init(rawValue: video.chroma_location))
        if color.matrix == .rgb { color.matrix = nil }
        var frameCount = video.frame_count > 0 ? Int(video.frame_count) : nil
        let exact = frameCount != nil
        let duration = video.duration >= 0 ? video.duration : input.duration
        if frameCount == nil, let duration, video.rate_num > 0, video.rate_den > 0 {
            // A damaged container can state a duration no clip has; Int() would trap on it.
            let frames = (duration * Double(video.rate_num) / Double(video.rate_den)).rounded()
            frameCount = frames > 0 && frames < 1e12 ? Int(frames) : nil
        }
        let kinds = [CCVIDEO_KIND_VIDEO: "video", CCVIDEO_KIND_AUDIO: "audio", CCVIDEO_KIND_DATA: "data",
                     CCVIDEO_KIND_SUBTITLE: "subtitle", CCVIDEO_KIND_ATTACHMENT: "attachment"]
        let others = streams.indices.filter { $0 != index }.map { Stream(index: $0, kind: kinds[streams[$0].kind] ?? "data",
                                                                         codec: FFmpegLibraries.string(streams[$0].codec)) }
        var probe = VideoProbe(streamIndex: index, codec: FFmpegLibraries.string(video.codec), profile: name(video.profile),
                               width: Int(video.width), height: Int(video.height), pixelFormat: pixelFormat, color: color,
                               frameCount: frameCount, container: input.formatName, otherStreams: others.map(\.kind))
        let rotation = video.has_rotation != 0 ? Int(video.rotation.rounded()) : 0
        probe.rotation = rotation == 0 ? nil : rotation
        probe.frameCountIsExact = exact
        probe.streams = others
        return probe
    }

    /// FFmpeg starts its messages with the file name; the caller's message names it already.
    static func withoutPath(_ line: String, path: String) -> String {
        let prefix = path + ": "
        return line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)) : line
    }
}
