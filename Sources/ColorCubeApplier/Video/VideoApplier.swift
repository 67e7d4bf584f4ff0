#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ColorCubeCore
import ColorCubeEngine
import ColorCubeImaging
import ColorCubeTransform
import Dispatch

/// Grades video clips with FFmpeg's libraries in colorcube's process: the clip described from its
/// demuxer (`VideoProbe`), its video stream decoded, graded in its own YCbCr (`YCbCrFrameGrader`)
/// or converted in process first, encoded and written beside the source's other streams, copied
/// as packets (`LibraryOutput`), under a temporary name renamed when complete (`AtomicFile`).
/// The design, and what was tried and not kept: the *Video* article of this module.
public struct VideoApplier: Sendable {
    /// What the user asked of the encoder.
    public struct Options: Sendable {
        /// An FFmpeg encoder name, or nil for the source codec's default (`VideoEncoding`).
        public var videoCodec: String?
        /// Constant-quality factor, or nil for the default (16 for x264/x265).
        public var crf: Int?
        /// An FFmpeg encoder for every audio stream, `copy`, or nil to copy where the container
        /// holds the codec and pick its usual one otherwise (`StreamPlan`).
        public var audioCodec: String?
        /// Clips graded at once: each one's decoder and encoder use every core themselves.
        public var concurrentClips: Int
        /// The largest frame accepted, checked against the probed size before anything runs.
        public var pixelLimit: PixelLimit
        /// What an HDR clip becomes when the look is made for SDR.
        public var hdr: HDRHandling = .keep
        /// How 8-bit frames are rounded after the look; clips deeper than 8 bits are rounded to
        /// nearest.
        public var dither: Dither = .none
        /// The look's own precision in output units (`Transform.nodePrecision()`): when dithering,
        /// a colour the look moves by less than this keeps its codes.
        public var lookPrecision: Double = 0
        /// The engine for a clip given its colour description when the look is made for a space
        /// of the clip's own (an HDR display space for an HDR clip: the look then sees the clip's
        /// values, no rendition); nil for the run's engine. May throw to refuse the clip.
        public var engineForClip: (@Sendable (VideoColor) throws -> LUTEngine?)?

        public init(videoCodec: String? = nil, crf: Int? = nil, audioCodec: String? = nil, concurrentClips: Int = 1,
                    pixelLimit: PixelLimit = .default, hdr: HDRHandling = .keep) {
            self.videoCodec = videoCodec
            self.crf = crf
            self.audioCodec = audioCodec
            self.concurrentClips = max(1, concurrentClips)
            self.pixelLimit = pixelLimit
            self.hdr = hdr
        }
    }

    /// What grading one clip did.
    public struct Report: Sendable {
        public var probe: VideoProbe
        public var encoding: VideoEncoding
        public var frames: Int
        /// What was done to the streams beside the video (re-encoded or dropped), one line each.
        public var streamNotes: [String] = []
        /// For an HDR clip, how its light was handled (`HDRHandling`); nil for SDR.
        public var hdrNote: String?
        /// Where the time went: decoding, grading (`lut`) and encoding, each on its own when frames
        /// are graded in process; through two ffmpeg programs, only grading (they decode and
        /// encode at the same time, out of sight).
        public var times = StageTimes()
    }

    public let engine: LUTEngine
    public let options: Options
    private let slots: DispatchSemaphore

    public init(engine: LUTEngine, options: Options = Options()) {
        self.engine = engine
        self.options = options
        slots = DispatchSemaphore(value: 0)
        for _ in 0..<options.concurrentClips { slots.signal() }
    }

    /// Grades the clip at `input` into `output` (a new file; its extension picks the container, or
    /// the input's container when the extension names none).
    /// - Parameter progress: called after each frame with the frames done and the expected total.
    /// - Throws: `VideoError` naming the clip or the output; nothing is left at `output` (or
    ///   beside it) on failure.
    @discardableResult
    public func apply(input: String, output: String,
                      progress: (@Sendable (_ done: Int, _ total: Int?) -> Void)? = nil) throws -> Report {
        slots.wait()
        defer { slots.signal() }
        let clip = try VideoProbe.open(path: input, pixelLimit: options.pixelLimit)
        let probe = try VideoProbe.probe(input: clip)
        try options.pixelLimit.check(width: probe.width, height: probe.height, path: input)
        guard probe.pixelFormat.isGradable else {
            throw VideoError.unsupportedPixelFormat(path: input, pixelFormat: probe.pixelFormat.name)
        }
        guard !probe.pixelFormat.hasAlpha else {
            throw VideoError.unsupportedPixelFormat(path: input, pixelFormat: probe.pixelFormat.name + " (with an alpha channel)")
        }
        let muxer = try Self.muxer(for: output, probe: probe)
        if let requested = options.videoCodec, FFmpegLibraries.encoderFormats(requested) == nil {
            throw VideoError.unknownEncoder(name: requested)
        }
        let fitting = options.videoCodec == nil
            ? VideoEncoding.containerEncoder(for: probe.codec, muxer: muxer, bitDepth: probe.pixelFormat.bitDepth) : nil
        guard let encoderName = options.videoCodec ?? fitting ?? VideoEncoding.defaultEncoder(for: probe.codec) else {
            throw VideoError.noDefaultEncoder(path: input, codec: probe.codec)
        }
        guard let encoderFormats = FFmpegLibraries.encoderFormats(encoderName) else {
            throw VideoError.unknownEncoder(name: encoderName)
        }
        var encoding = try VideoEncoding.choose(for: probe, path: input, videoCodec: encoderName, crf: options.crf,
                                                muxer: muxer, supportedFormats: encoderFormats)
        let decoder: LibraryDecoder
        do {
            decoder = try LibraryDecoder(input: clip, streamIndex: probe.streamIndex)
        } catch {
            // The first frame's size is the evidence: over the limit, the limit says so; within
            // it, the frame is damaged.
            let size = error.frameSize ?? (probe.width, probe.height)
            try options.pixelLimit.check(width: size.width, height: size.height, path: input)
            let differs = size != (probe.width, probe.height)
            throw VideoError.firstFrameUndecodable(path: input, width: size.width, height: size.height,
                                                   limit: options.pixelLimit.maxPixels,
                                                   reason: VideoProbe.withoutPath(error.message, path: input),
                                                   containerWidth: differs ? probe.width : nil,
                                                   containerHeight: differs ? probe.height : nil)
        }
        let hdr = try hdrPlan(for: probe, input: input, encoder: encoding.encoder, metadata: decoder.hdrMetadata)
        if let parameters = hdr.encoderParameters { encoding.addParameters(parameters) }
        let plan = try VideoPlan(probe: probe, input: input, encoding: encoding, muxer: muxer,
                                 audioEncoder: options.audioCodec, outputColor: hdr.outputColor)
        var times = StageTimes()
        let frames = try AtomicFile.write(to: output) { temporary in
            try grade(plan, hdr: hdr, decoder: decoder, output: output, temporary: temporary, times: &times, progress: progress)
        }
        var report = Report(probe: probe, encoding: encoding, frames: frames)
        report.times = times
        report.hdrNote = hdr.note
        report.streamNotes = (fitting.map { ["video (\(probe.codec)) encoded with \($0): the output's container cannot hold \(probe.codec)"] } ?? [])
            + plan.streams.notes
        if let rotation = probe.rotation, !["mov", "mp4"].contains(muxer) {
            report.streamNotes.append("the video's rotation (\(rotation)°) was not kept: only .mov and .mp4 hold a display matrix here")
        }
        return report
    }

    /// How the clip's light is handled: an SDR clip as it is; an HDR one through its SDR rendition,
    /// made SDR, or as it is for a look made for its HDR space.
    private func hdrPlan(for probe: VideoProbe, input: String, encoder: String, metadata: HDRMetadata) throws -> HDRPlan {
        let own = try options.engineForClip?(probe.color)
        guard probe.color.hdrSignal != nil else { return HDRPlan(sdr: own ?? engine) }
        let hdrEngine = own
        if hdrEngine == nil, probe.pixelFormat.isRGB {
            throw VideoError.unsupportedPixelFormat(path: input, pixelFormat: probe.pixelFormat.name
                + " (an HDR clip in RGB: colorcube makes the SDR rendition of YCbCr clips only; convert it to yuv444p12le first)")
        }
        return HDRPlan(color: probe.color, metadata: metadata, handling: options.hdr, engine: engine,
                       hdrEngine: hdrEngine, encoder: encoder)
    }

    /// The muxer for `output`: by its extension, else the input's container.
    static func muxer(for output: String, probe: VideoProbe) throws(VideoError) -> String {
        let pathExtension = FilePath.pathExtension(output)
        if let muxer = VideoContainer.muxer(forExtension: pathExtension) { return muxer }
        // A clip found by content under another name keeps its container.
        let first = probe.container.split(separator: ",").first.map(String.init) ?? ""
        switch first {
        case "mov": return "mov"
        case "matroska": return "matroska"
        case "avi", "mxf", "mpegts", "flv", "nut": return first
        default: throw .unknownContainer(path: output)
        }
    }
}
