#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ColorCubeCore
import ColorCubeEngine

/// The way through two ffmpeg programs, for what the libraries in process do not take yet:
///
///     ffmpeg -i clip -map 0:V -vf format=yuv420p10le (or scale=...,format=rgb24) -c:v rawvideo -f nut -
///       | colorcube (NUTFrameRelay: each frame through YCbCrFrameGrader)
///       | ffmpeg -f nut -i - -i clip -map 0:v -map 1 -map -1:V ... -c copy -c:v ENCODER -f MUXER temporary
extension VideoApplier {
    /// Set (to anything) in the environment, `COLORCUBE_VIDEO_PIPES` grades every clip through
    /// two ffmpeg children even where FFmpeg's libraries could do it in process: for comparing
    /// the two, and as a way round a library problem.
    static let pipesForced = getenv("COLORCUBE_VIDEO_PIPES") != nil

    func run(_ plan: VideoCommands, hdr: HDRPlan, ffmpeg: String, input: String, output: String,
             temporary: String, times: inout StageTimes, progress: (@Sendable (Int, Int?) -> Void)?) throws -> Int {
        // A closed pipe must show as EPIPE, not end colorcube.
        signal(SIGPIPE, SIG_IGN)
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
            decoder = try ChildProcess(executable: ffmpeg, arguments: plan.decoderArguments, output: decoded.write)
        } catch {
            for descriptor in [decoded.read, decoded.write, encoded.read, encoded.write] { close(descriptor) }
            throw error
        }
        close(decoded.write)
        let encoder: ChildProcess
        do {
            encoder = try ChildProcess(executable: ffmpeg,
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
        let grader = plan.ycbcrFormat.flatMap { format in
            YCbCrFrameGrader(engine: hdr.engine, format: format, width: plan.probe.width, height: plan.probe.height,
                             matrix: plan.matrix ?? "", fullRange: plan.range == "pc", hdr: hdr.mapping,
                             outputMatrix: hdr.outputColor?.matrix.flatMap(VideoColor.scalerMatrix), dither: options.dither)
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
        try Self.checkComplete(plan, frames: frames, decoderWarnings: decoder.errorOutput(), input: input)
        if plan.probe.rotation != nil, plan.muxer == "mp4" || plan.muxer == "mov" {
            TrackMatrix.copy(from: input, to: temporary)
        }
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

    /// A pipe 1 MB deep where the system allows, so that a frame crosses in few system calls.
    private static func makePipe() throws(VideoError) -> (read: Int32, write: Int32) {
        let descriptors = try ChildProcess.makePipe()
        let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ (Linux), not exported to Swift
        _ = fcntl(descriptors[1], setPipeSize, Int32(1 << 20))
        return (descriptors[0], descriptors[1])
    }
}
