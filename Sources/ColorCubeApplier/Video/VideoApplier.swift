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

/// Grades video clips through FFmpeg: the clip's video stream is decoded, colorcube converts each
/// frame to RGB with the stream's own matrix and range, applies the look and converts back with
/// the same matrix, range and subsampling, the frames are encoded and tagged with the source's
/// colour description, and an ffmpeg copies every other stream, the chapters and the metadata
/// from the original file beside them.
///
/// Planar YCbCr clips whose encoder takes their pixel format are decoded and encoded in this
/// process (`FFmpegLibraries`); only the encoded video crosses a pipe:
///
///     colorcube (decode, YCbCrFrameGrader, encode; NUT of encoded video)
///       | ffmpeg -f nut -i - -i clip -map 0:v -map 1 -map -1:V ... -c copy -f MUXER temporary
///
/// Other clips, or all with `COLORCUBE_VIDEO_PIPES` set, go through two ffmpeg children (two
/// pipes, a few frames in memory whatever the clip's length):
///
///     ffmpeg -i clip -map 0:V -vf format=yuv420p10le (or scale=...,format=rgb24) -c:v rawvideo -f nut -
///       | colorcube (NUTFrameRelay: each frame through YCbCrFrameGrader)
///       | ffmpeg -f nut -i - -i clip -map 0:v -map 1 -map -1:V ... -c copy -c:v ENCODER -f MUXER temporary
///
/// - Planar YCbCr clips (4:2:0, 4:2:2, 4:4:4, 8 to 16 bits) cross the pipes in their own
///   format and `YCbCrFrameGrader` converts them: colours outside the RGB cube are kept, so an
///   identity look returns the frames bit for bit; the look runs on 8-bit codes for 8-bit clips
///   (results remembered by YCbCr colour) and 16-bit codes deeper, and the output keeps the
///   source's depth.
/// - Other formats (RGB, the full-range yuvj names, semi-planar, packed, 4:1:1) go through
///   FFmpeg's scaler as rgb24, or rgb48le when deeper than 8 bits; chroma is upsampled by
///   repetition and downsampled by averaging, which undo each other.
/// - Untagged streams are converted as players show them: BT.709 from 720 lines up, BT.601
///   below, limited range; the output stays untagged where the source was (the same guess then
///   gives the same colours), except that a full-range source is always tagged so.
/// - Timestamps cross both pipes inside NUT (FFmpeg's raw-frame container): variable frame rate
///   and the source's time base survive; `-copyts` keeps the other streams on the same timeline.
/// - The output is written to a temporary name beside it and renamed when the encoder has
///   finished (`AtomicFile`); any failure removes it and reports one reason.
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
        /// Clips graded at once: each runs two ffmpeg processes that use every core themselves.
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
        /// are graded in process; through two ffmpeg children, only grading (the children decode
        /// and encode at the same time, out of sight).
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
        let programs = try FFmpegTools.programs(for: input)
        let probed = Result { () throws(VideoError) in try VideoProbe.probe(path: input, ffprobe: programs.ffprobe) }
        if case .failure(.frameTooLarge(_, let width, let height)) = probed {
            // Frames FFmpeg refuses that are also over the limit: the limit is what to name, with its option.
            try options.pixelLimit.check(width: width, height: height, path: input)
        }
        let probe = try probed.get()
        try options.pixelLimit.check(width: probe.width, height: probe.height, path: input)
        guard probe.pixelFormat.isGradable else {
            throw VideoError.unsupportedPixelFormat(path: input, pixelFormat: probe.pixelFormat.name)
        }
        guard !probe.pixelFormat.hasAlpha else {
            throw VideoError.unsupportedPixelFormat(path: input, pixelFormat: probe.pixelFormat.name + " (with an alpha channel)")
        }
        let muxer = try Self.muxer(for: output, probe: probe)
        if let requested = options.videoCodec, try FFmpegTools.encoder(requested, ffmpeg: programs.ffmpeg) == nil {
            throw VideoError.unknownEncoder(name: requested)
        }
        let fitting = options.videoCodec == nil
            ? VideoEncoding.containerEncoder(for: probe.codec, muxer: muxer, bitDepth: probe.pixelFormat.bitDepth) : nil
        guard let encoderName = options.videoCodec ?? fitting ?? VideoEncoding.defaultEncoder(for: probe.codec) else {
            throw VideoError.noDefaultEncoder(path: input, codec: probe.codec)
        }
        guard let encoderInfo = try FFmpegTools.encoder(encoderName, ffmpeg: programs.ffmpeg) else {
            throw VideoError.unknownEncoder(name: encoderName)
        }
        var encoding = try VideoEncoding.choose(for: probe, path: input, videoCodec: encoderName, crf: options.crf,
                                                muxer: muxer, supportedFormats: encoderInfo.pixelFormats)
        let hdr = try hdrPlan(for: probe, input: input, encoder: encoding.encoder, ffprobe: programs.ffprobe)
        if let parameters = hdr.encoderParameters { encoding.addParameters(parameters) }
        let plan = try VideoCommands(probe: probe, input: input, encoding: encoding, muxer: muxer,
                                     audioEncoder: options.audioCodec, outputColor: hdr.outputColor)
        var times = StageTimes()
        let frames = try AtomicFile.write(to: output) { temporary in
            try run(plan, hdr: hdr, programs: programs, input: input, output: output, temporary: temporary, times: &times,
                    progress: progress)
        }
        var report = Report(probe: probe, encoding: encoding, frames: frames)
        report.times = times
        report.hdrNote = hdr.note
        report.streamNotes = (fitting.map { ["video (\(probe.codec)) encoded with \($0): the output's container cannot hold \(probe.codec)"] } ?? [])
            + plan.streams.notes
        return report
    }

    /// How the clip's light is handled: an SDR clip as it is; an HDR one through its SDR rendition,
    /// made SDR, or as it is for a look made for its HDR space.
    private func hdrPlan(for probe: VideoProbe, input: String, encoder: String, ffprobe: String) throws -> HDRPlan {
        let own = try options.engineForClip?(probe.color)
        guard probe.color.hdrSignal != nil else { return HDRPlan(sdr: own ?? engine) }
        let hdrEngine = own
        if hdrEngine == nil, probe.pixelFormat.isRGB {
            throw VideoError.unsupportedPixelFormat(path: input, pixelFormat: probe.pixelFormat.name
                + " (an HDR clip in RGB: colorcube makes the SDR rendition of YCbCr clips only; convert it to yuv444p12le first)")
        }
        let metadata = HDRMetadata.probe(path: input, streamIndex: probe.streamIndex, ffprobe: ffprobe)
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

    /// Set (to anything) in the environment, `COLORCUBE_VIDEO_PIPES` grades every clip through
    /// two ffmpeg children even where FFmpeg's libraries could do it in process: for comparing
    /// the two, and as a way round a library problem.
    static let pipesForced = getenv("COLORCUBE_VIDEO_PIPES") != nil

    private func run(_ plan: VideoCommands, hdr: HDRPlan, programs: (ffmpeg: String, ffprobe: String), input: String, output: String,
                     temporary: String, times: inout StageTimes, progress: (@Sendable (Int, Int?) -> Void)?) throws -> Int {
        // A closed pipe must show as EPIPE, not end colorcube.
        signal(SIGPIPE, SIG_IGN)
        if FFmpegLibraries.available, !Self.pipesForced, let format = plan.ycbcrFormat,
           plan.encoding.pixelFormat == format.name, let library = plan.libraryEncoding,
           let frames = try runInProcess(plan, hdr: hdr, format: format, library: library, ffmpeg: programs.ffmpeg,
                                         input: input, output: output, temporary: temporary, times: &times,
                                         progress: progress) {
            return frames
        }
        let decoded = try Self.makePipe()
        let encoded: (read: Int32, write: Int32)
        do {
            encoded = try Self.makePipe()
        } catch {
            close(decoded.read)
            close(decoded.write)
            throw error
        }
        let decoder: ChildProcess
        do {
            decoder = try ChildProcess(executable: programs.ffmpeg, arguments: plan.decoderArguments, output: decoded.write)
        } catch {
            for descriptor in [decoded.read, decoded.write, encoded.read, encoded.write] { close(descriptor) }
            throw error
        }
        close(decoded.write)
        let encoder: ChildProcess
        do {
            encoder = try ChildProcess(executable: programs.ffmpeg,
                                       arguments: plan.encoderArguments(output: temporary), input: encoded.read)
        } catch {
            close(decoded.read)
            close(encoded.read)
            close(encoded.write)
            decoder.kill()
            _ = decoder.wait()
            throw error
        }
        close(encoded.read)

        var stream = RawStreamApplier(engine: hdr.engine, width: plan.probe.width, height: plan.probe.height,
                                      format: plan.frameFormat, pixelLimit: options.pixelLimit, name: input)
        stream.dither = options.dither
        stream.lookPrecision = options.lookPrecision
        let grader = plan.ycbcrFormat.flatMap { format in
            YCbCrFrameGrader(engine: hdr.engine, format: format, width: plan.probe.width, height: plan.probe.height,
                             matrix: plan.matrix ?? "", fullRange: plan.range == "pc", hdr: hdr.mapping,
                             outputMatrix: hdr.outputColor?.matrix.flatMap(VideoColor.scalerMatrix), dither: options.dither,
                             lookPrecision: options.lookPrecision)
        }
        let relay = NUTFrameRelay(input: decoded.read, output: encoded.write, frameBytes: plan.frameBytes)
        let total = plan.probe.frameCount
        var relayError: NUTFrameRelay.RelayError?
        var frames = 0
        do {
            frames = try relay.run { frame, index in
                let started = ContinuousClock.now
                if let grader { grader.grade(frame) } else { stream.apply(toFrame: frame) }
                times.lut += ContinuousClock.now - started
                progress?(index + 1, total)
            }
        } catch {
            relayError = error
        }
        close(decoded.read)
        close(encoded.write)
        if relayError != nil {
            // Whichever side failed, the other has nothing more to do.
            if case .writeFailed = relayError {} else { encoder.kill() }
            decoder.kill()
        }
        let decoderStatus = decoder.wait()
        let encoderStatus = encoder.wait()
        if relayError != nil || decoderStatus != 0 || encoderStatus != 0 {
            throw Self.failure(relayError: relayError, decoderStatus: decoderStatus, encoderStatus: encoderStatus,
                               decoder: decoder, encoder: encoder, input: input, output: output, muxer: plan.muxer)
        }
        try Self.finish(plan, frames: frames, decoderWarnings: decoder.errorOutput(), input: input, temporary: temporary)
        return frames
    }

    /// After a clip was graded without a failure: a clip cut short decodes without an error up to
    /// where it ends (FFmpeg only warns, "File ended prematurely", "partial file", or the
    /// container's own frame count tells), so either is a failure here; then the rotation.
    private static func finish(_ plan: VideoCommands, frames: Int, decoderWarnings: String, input: String,
                               temporary: String) throws(VideoError) {
        if let warning = decoderWarnings.split(whereSeparator: \.isNewline).first(where: { line in
            truncationWarnings.contains { line.lowercased().contains($0) }
        }) {
            throw .decodeFailed(path: input, reason: withoutBrackets(String(warning)) + " (truncated?)")
        }
        if plan.probe.frameCountIsExact, let total = plan.probe.frameCount, frames < total {
            throw .decodeFailed(path: input, reason: "the clip ends after \(frames) of its \(total) frames (truncated?)")
        }
        if plan.probe.rotation != nil, plan.muxer == "mp4" || plan.muxer == "mov" {
            TrackMatrix.copy(from: input, to: temporary)
        }
    }

    /// Grades a planar YCbCr clip with FFmpeg's libraries in this process: decoded here, graded
    /// in place, encoded here, and only the encoded video crosses a pipe, as NUT, to an ffmpeg
    /// that copies it into the output beside the original's other streams, metadata and chapters
    /// (as the encoding child does on the pipes path). Returns nil, having started nothing, when
    /// the decoder's frames are not the format the plan expects (say, big-endian samples); the
    /// pipes path then converts them.
    private func runInProcess(_ plan: VideoCommands, hdr: HDRPlan, format: YCbCrFrameFormat,
                              library: (encoder: [(String, String)], muxer: [String]), ffmpeg: String,
                              input: String, output: String, temporary: String, times: inout StageTimes,
                              progress: (@Sendable (Int, Int?) -> Void)?) throws -> Int? {
        let decoder: LibraryDecoder
        do {
            decoder = try LibraryDecoder(path: input, streamIndex: plan.probe.streamIndex)
        } catch {
            throw VideoError.decodeFailed(path: input, reason: VideoProbe.withoutPath(error.message, path: input))
        }
        let decoded = VideoPixelFormat(decoder.pixelFormat)
        guard Int(decoder.info.width) == plan.probe.width, Int(decoder.info.height) == plan.probe.height,
              !decoded.name.hasSuffix("be"), YCbCrFrameFormat(source: decoded) == format else { return nil }

        guard let grader = YCbCrFrameGrader(engine: hdr.engine, format: format, width: plan.probe.width,
                                            height: plan.probe.height, matrix: plan.matrix ?? "",
                                            fullRange: plan.range == "pc", hdr: hdr.mapping,
                                            outputMatrix: hdr.outputColor?.matrix.flatMap(VideoColor.scalerMatrix),
                                            dither: options.dither, lookPrecision: options.lookPrecision) else { return nil }
        let pipe = try Self.makePipe()
        let muxing: ChildProcess
        do {
            muxing = try ChildProcess(executable: ffmpeg, arguments: plan.muxerArguments(output: temporary, options: library.muxer),
                                      input: pipe.read)
        } catch {
            close(pipe.read)
            close(pipe.write)
            throw error
        }
        close(pipe.read)
        let total = plan.probe.frameCount
        var frames = 0
        var failure: VideoError?
        var writeFailed = false
        do {
            let encoder: LibraryEncoder
            do {
                encoder = try LibraryEncoder(encoder: plan.encoding.encoder, pixelFormat: format.name, stream: decoder.info,
                                             globalHeader: FFmpegLibraries.wantsGlobalHeader(muxer: plan.muxer),
                                             options: library.encoder, descriptor: pipe.write)
            } catch {
                writeFailed = error.writeFailed
                throw VideoError.encodeFailed(path: output, reason: error.message)
            }
            var last: Int64?
            while true {
                // Decoded into the encoder's own frame, graded there in place.
                let frame: UnsafeMutableRawPointer
                let next: Int64??
                var clock = ContinuousClock.now
                func lap(_ stage: WritableKeyPath<StageTimes, Duration>) {
                    let now = ContinuousClock.now
                    times[keyPath: stage] += now - clock
                    clock = now
                }
                do {
                    frame = try encoder.buffer()
                } catch {
                    throw VideoError.encodeFailed(path: output, reason: error.message)
                }
                do {
                    next = try decoder.next(into: frame, bytes: plan.frameBytes)
                } catch {
                    let reason = VideoProbe.withoutPath(error.message, path: input)
                    throw error.formatChanged ? VideoError.malformedFrames(path: input, reason: reason)
                        : VideoError.decodeFailed(path: input, reason: reason)
                }
                lap(\.decode)
                guard let pts = next else { break }
                // Timestamps pass through; a frame whose time does not move on is dropped, as
                // no encoder takes two frames at one time.
                let time = pts ?? last.map { $0 + 1 } ?? 0
                if let last, time <= last { continue }
                last = time
                lap(\.encode)
                grader.grade(frame)
                lap(\.lut)
                do {
                    try encoder.send(pts: time)
                } catch {
                    writeFailed = error.writeFailed
                    throw VideoError.encodeFailed(path: output, reason: error.message)
                }
                lap(\.encode)
                frames += 1
                progress?(frames, total)
            }
            let finishing = ContinuousClock.now
            defer { times.encode += ContinuousClock.now - finishing }
            do {
                try encoder.finish()
            } catch {
                writeFailed = error.writeFailed
                throw VideoError.encodeFailed(path: output, reason: error.message)
            }
        } catch let error as VideoError {
            failure = error
        }
        close(pipe.write)
        // A write that failed means the muxing ffmpeg stopped first: its reason is the one.
        if failure != nil, !writeFailed { muxing.kill() }
        let status = muxing.wait()
        if writeFailed || (failure == nil && status != 0) {
            throw Self.encoderFailure(muxing, status: status, output: output, muxer: plan.muxer)
        }
        if let failure { throw failure }
        try Self.finish(plan, frames: frames, decoderWarnings: decoder.warnings, input: input, temporary: temporary)
        return frames
    }

    /// The one reason to report when something failed: the decoder's when it failed on its own
    /// (the clip is at fault), else the encoder's, else the relay's.
    private static func failure(relayError: NUTFrameRelay.RelayError?, decoderStatus: Int32, encoderStatus: Int32,
                                decoder: ChildProcess, encoder: ChildProcess, input: String, output: String,
                                muxer: String) -> VideoError {
        let encoderFailedFirst: Bool
        if case .writeFailed = relayError { encoderFailedFirst = true } else { encoderFailedFirst = false }
        if decoderStatus != 0, !encoderFailedFirst, decoderStatus < 128 || relayError == nil {
            let reason = decoder.lastErrorLine().map { VideoProbe.withoutPath($0, path: input) } ?? "ffmpeg exited with status \(decoderStatus)"
            return .decodeFailed(path: input, reason: reason)
        }
        if encoderStatus != 0, encoderFailedFirst || relayError == nil || encoderStatus < 128 {
            return encoderFailure(encoder, status: encoderStatus, output: output, muxer: muxer)
        }
        switch relayError {
        case .malformed(let reason)?: return .malformedFrames(path: input, reason: reason)
        case .truncated?: return .decodeFailed(path: input, reason: "the decoder stopped in the middle of a frame")
        case .readFailed(let code)?: return .decodeFailed(path: input, reason: String(cString: strerror(code)))
        case .writeFailed(let code)?: return .encodeFailed(path: output, reason: String(cString: strerror(code)))
        case nil: return .encodeFailed(path: output, reason: "ffmpeg failed")
        }
    }

    /// The reason the ffmpeg that writes the output gave for failing.
    private static func encoderFailure(_ encoder: ChildProcess, status: Int32, output: String, muxer: String) -> VideoError {
        let text = encoder.errorOutput()
        if text.contains("Could not find tag for codec") || text.contains("not currently supported in container")
            || text.contains("codec not currently supported") || text.contains("Only VP8 or VP9 or AV1")
            || text.contains("Only audio, video, and subtitles are supported") {
            let line = text.split(whereSeparator: \.isNewline).first {
                $0.contains("Could not find tag") || $0.contains("supported")
            }.map(String.init) ?? "unsupported codec"
            return .containerCannotHold(path: output, container: muxer, reason: Self.withoutBrackets(line))
        }
        let reason = encoder.lastErrorLine().map(Self.withoutBrackets) ?? "ffmpeg exited with status \(status)"
        return .encodeFailed(path: output, reason: reason)
    }

    /// What FFmpeg says, as a warning only, about a clip that ends early.
    static let truncationWarnings = ["ended prematurely", "partial file", "truncat"]

    /// "[mp4 @ 0x55d0] Could not find tag" -> "Could not find tag".
    static func withoutBrackets(_ line: String) -> String {
        guard line.hasPrefix("["), let close = line.firstIndex(of: "]") else { return line }
        return String(line[line.index(after: close)...]).trimmingCharacters()
    }

    /// A pipe 1 MB deep where the system allows, so that a frame crosses in few system calls.
    private static func makePipe() throws(VideoError) -> (read: Int32, write: Int32) {
        let descriptors = try ChildProcess.makePipe()
        let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ (Linux), not exported to Swift
        _ = fcntl(descriptors[1], setPipeSize, Int32(1 << 20))
        return (descriptors[0], descriptors[1])
    }
}
