import Foundation

/// What ffprobe reports of a clip: its first video stream and the container, as far as grading
/// needs them.
public struct VideoProbe: Sendable, Equatable {
    /// The video stream's index among all the file's streams.
    public var streamIndex: Int
    /// FFmpeg's codec name: h264, hevc, prores, ffv1, ...
    public var codec: String
    /// The codec profile as ffprobe names it ("High", "Main 10", "HQ"), if any.
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
    /// The display matrix's rotation in degrees as ffprobe reports it (-90 for a phone held
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

    /// Probes the clip at `path` with ffprobe.
    /// - Throws: `VideoError.ffmpegMissing`, `.unreadable` (ffprobe's reason), `.indexTooLarge`
    ///   (ffprobe ran out of memory reading the headers), `.frameTooLarge` (a video stream whose
    ///   frames FFmpeg refuses to decode, their size taken from its message) or `.noVideoStream`.
    public static func probe(path: String) throws(VideoError) -> VideoProbe {
        let programs = try FFmpegTools.programs(for: path)
        return try probe(path: path, ffprobe: programs.ffprobe)
    }

    static func probe(path: String, ffprobe: String) throws(VideoError) -> VideoProbe {
        let result = try ChildProcess.capture(executable: ffprobe, arguments: [
            "-v", "error", "-print_format", "json", "-show_streams", "-show_format", "-i", path,
        ])
        guard result.status == 0 else {
            let reason = Self.withoutPath(result.errors.split(whereSeparator: \.isNewline).last.map(String.init) ?? "ffprobe failed",
                                          path: path)
            // FFmpeg's words for ENOMEM: reading headers, that is an index asking for gigabytes.
            if reason == "Cannot allocate memory" { throw .indexTooLarge(path: path) }
            throw .unreadable(path: path, reason: reason)
        }
        do throws(VideoError) {
            return try parse(json: result.output, path: path)
        } catch {
            // A stream whose frames FFmpeg's decoder refuses reports a size of 0: its message has the size.
            if case .noVideoStream = error, let (width, height) = Self.refusedPictureSize(in: result.errors) {
                throw .frameTooLarge(path: path, width: width, height: height)
            }
            throw error
        }
    }

    /// The size in FFmpeg's "Picture size 32768x32768 is invalid", its check of a frame's size
    /// before it allocates one, or nil.
    static func refusedPictureSize(in errors: String) -> (width: Int, height: Int)? {
        for line in errors.split(whereSeparator: \.isNewline) {
            guard let start = line.range(of: "Picture size "), let end = line.range(of: " is invalid") else { continue }
            let size = line[start.upperBound..<end.lowerBound].split(separator: "x")
            if size.count == 2, let width = Int(size[0]), let height = Int(size[1]) { return (width, height) }
        }
        return nil
    }

    /// Reads ffprobe's JSON (`-show_streams -show_format`).
    static func parse(json: [UInt8], path: String) throws(VideoError) -> VideoProbe {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any],
              let streams = object["streams"] as? [[String: Any]] else {
            throw .unreadable(path: path, reason: "ffprobe's report cannot be read")
        }
        let format = object["format"] as? [String: Any] ?? [:]
        // The first real video stream: cover art (attached_pic) is a picture, not the clip.
        let video = streams.first { stream in
            guard stream["codec_type"] as? String == "video" else { return false }
            let disposition = stream["disposition"] as? [String: Any]
            return (disposition?["attached_pic"] as? Int ?? 0) == 0
        }
        guard let video, let width = video["width"] as? Int, let height = video["height"] as? Int,
              width > 0, height > 0 else {
            throw .noVideoStream(path: path)
        }
        func tag(_ key: String) -> String? {
            guard let value = video[key] as? String, !value.isEmpty, value != "unknown", value != "reserved" else { return nil }
            return value
        }
        let pixelFormat = VideoPixelFormat(tag("pix_fmt") ?? "yuv420p")
        var color = VideoColor(matrix: tag("color_space"), range: tag("color_range"),
                               primaries: tag("color_primaries"), transfer: tag("color_transfer"))
        if color.matrix == "gbr" { color.matrix = nil }
        var frameCount = (video["nb_frames"] as? String).flatMap { Int($0) }
        let exact = (frameCount ?? 0) > 0
        if frameCount == nil || frameCount == 0,
           let duration = (video["duration"] as? String ?? format["duration"] as? String).flatMap(Double.init),
           let rate = (video["avg_frame_rate"] as? String).flatMap(Self.rational), rate > 0 {
            // A damaged container can state a duration no clip has; Int() would trap on it.
            let frames = (duration * rate).rounded()
            frameCount = frames >= 0 && frames < 1e12 ? Int(frames) : nil
        }
        let index = video["index"] as? Int ?? 0
        let others = streams.filter { ($0["index"] as? Int) != index }.compactMap { $0["codec_type"] as? String }
        var rotation: Int?
        for entry in video["side_data_list"] as? [[String: Any]] ?? [] {
            if let value = entry["rotation"] as? Int { rotation = value }
            else if let value = entry["rotation"] as? Double { rotation = Int(value.rounded()) }
        }
        var probe = VideoProbe(streamIndex: index, codec: video["codec_name"] as? String ?? "unknown",
                          profile: tag("profile"), width: width, height: height, pixelFormat: pixelFormat,
                          color: color, frameCount: frameCount.flatMap { $0 > 0 ? $0 : nil },
                          container: format["format_name"] as? String ?? "", otherStreams: others)
        probe.rotation = rotation == 0 ? nil : rotation
        probe.frameCountIsExact = exact
        probe.streams = streams.compactMap { stream in
            guard let streamIndex = stream["index"] as? Int, streamIndex != index else { return nil }
            return Stream(index: streamIndex, kind: stream["codec_type"] as? String ?? "data",
                          codec: stream["codec_name"] as? String ?? "none")
        }
        return probe
    }

    /// "30000/1001" as a number; nil for "0/0".
    static func rational(_ text: String) -> Double? {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let numerator = Double(parts[0]), let denominator = Double(parts[1]), denominator != 0 else {
            return Double(text).flatMap { $0.isFinite ? $0 : nil }
        }
        let value = numerator / denominator
        return value.isFinite ? value : nil
    }

    /// FFmpeg starts its messages with the file name; the caller's message names it already.
    static func withoutPath(_ line: String, path: String) -> String {
        let prefix = path + ": "
        return line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)) : line
    }
}
