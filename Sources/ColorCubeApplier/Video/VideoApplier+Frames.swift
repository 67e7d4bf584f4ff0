import ColorCubeCore

extension VideoApplier {
    /// Grades the clip: decoded here (converted to `plan.frames` where the decoder's layout is
    /// another), graded in place, converted to the encoder's format where it is another, encoded
    /// and written here beside the source's other streams (copied as packets, or re-encoded), its
    /// chapters, metadata and side data.
    func grade(_ plan: VideoPlan, hdr: HDRPlan, decoder: LibraryDecoder, output: String, temporary: String,
               times: inout StageTimes, progress: (@Sendable (Int, Int?) -> Void)?) throws -> Int {
        let input = plan.input
        let fullRange = plan.fullRange
        let grade: (UnsafeMutableRawPointer) -> Void
        switch plan.frames {
        case .ycbcr(let format):
            guard let grader = YCbCrFrameGrader(engine: hdr.engine, format: format, width: plan.probe.width,
                                                height: plan.probe.height, matrix: plan.matrix ?? .bt709, fullRange: fullRange,
                                                hdr: hdr.mapping, outputMatrix: hdr.outputColor?.matrix,
                                                dither: options.dither, lookPrecision: options.lookPrecision) else {
                throw VideoError.unsupportedMatrix(path: input, matrix: plan.matrix?.name ?? "none")
            }
            grade = { grader.grade($0) }
        case .rgb(let format):
            var stream = RawStreamApplier(engine: hdr.engine, width: plan.probe.width, height: plan.probe.height,
                                          format: format, pixelLimit: options.pixelLimit, name: input)
            stream.dither = options.dither
            stream.lookPrecision = options.lookPrecision
            let applier = stream
            grade = { applier.apply(toFrame: $0) }
        }
        let decoded = VideoPixelFormat(decoder.pixelFormat)
        if decoded.name != plan.frames.name, YCbCrFrameFormat(source: decoded).map({ VideoPlan.FrameFormat.ycbcr($0) }) != plan.frames {
            do {
                try decoder.deliver(plan.frames.name, matrix: plan.scalerMatrixConstant, fullRange: fullRange)
            } catch {
                throw VideoError.unsupportedPixelFormat(path: input, pixelFormat: "\(decoded.name) (\(error.message))")
            }
        }
        let library = plan.libraryEncoding
        let writer: LibraryOutput
        do {
            writer = try LibraryOutput(decoder: decoder, path: temporary, muxer: plan.muxer, streams: plan.streamActions,
                                       encoder: .init(name: plan.encoding.encoder, pixelFormat: plan.encoding.pixelFormat,
                                                      options: library.options, color: plan.outputColor,
                                                      codecTag: library.codecTag, sourceFormat: plan.frames.name,
                                                      scalerMatrix: plan.scalerMatrixConstant, fullRange: fullRange),
                                       hdrMetadata: hdr.keepsStaticMetadata)
        } catch {
            throw Self.outputFailure(error, output: output, muxer: plan.muxer)
        }
        let total = plan.probe.frameCount
        var frames = 0
        var last: Int64?
        while true {
            // Decoded into the encoder's own frame, graded there in place.
            var clock = ContinuousClock.now
            let frame: UnsafeMutableRawPointer
            let next: LibraryDecoder.Timing?
            do {
                frame = try writer.buffer()
            } catch {
                throw VideoError.encodeFailed(path: output, reason: error.message)
            }
            do {
                next = try decoder.next(into: frame, bytes: plan.frameBytes, output: writer)
            } catch {
                let reason = VideoProbe.withoutPath(error.message, path: input)
                if error.formatChanged { throw VideoError.malformedFrames(path: input, reason: reason) }
                // A copied or re-encoded stream's packet that could not be written.
                if error.isOutputFailure { throw Self.outputFailure(error, output: output, muxer: plan.muxer) }
                throw VideoError.decodeFailed(path: input, reason: reason)
            }
            times.lap(\.decode, since: &clock)
            guard let next else { break }
            // Timestamps and durations pass through; a frame whose time does not move on is
            // dropped, as no encoder takes two frames at one time.
            let time = next.pts ?? last.map { $0 + 1 } ?? 0
            if let last, time <= last { continue }
            last = time
            grade(frame)
            times.lap(\.lut, since: &clock)
            do {
                try writer.send(pts: time, duration: next.duration)
            } catch {
                throw Self.outputFailure(error, output: output, muxer: plan.muxer)
            }
            times.lap(\.encode, since: &clock)
            frames += 1
            progress?(frames, total)
        }
        let finishing = ContinuousClock.now
        do {
            try writer.finish()
        } catch {
            throw Self.outputFailure(error, output: output, muxer: plan.muxer)
        }
        times.encode += ContinuousClock.now - finishing
        try Self.checkComplete(plan, frames: frames, decoder: decoder, input: input)
        return frames
    }

    /// The error for a failure of the output: a stream its container cannot hold, or FFmpeg's reason.
    static func outputFailure(_ error: FFmpegLibraryError, output: String, muxer: String) -> VideoError {
        error.containerCannotHold ? .containerCannotHold(path: output, container: muxer, reason: error.message)
            : .encodeFailed(path: output, reason: error.message)
    }

    /// After a clip was graded without a failure: a clip cut short decodes without an error up to
    /// where it ends (a packet cut short is a failure as it is read). Through the API: fewer
    /// frames than the container's index lists; where it lists none (Matroska), packets that end
    /// more than two frames and half a second before the duration its header declares (a margin
    /// no intact clip's rounding comes near). The demuxer's log ("File ended prematurely") is the
    /// last evidence looked for, for a clip cut closer to its end.
    static func checkComplete(_ plan: VideoPlan, frames: Int, decoder: LibraryDecoder, input: String) throws(VideoError) {
        if plan.probe.frameCountIsExact, let total = plan.probe.frameCount, frames < total {
            throw .decodeFailed(path: input, reason: "the clip ends after \(frames) of its \(total) frames (truncated?)")
        }
        if !plan.probe.frameCountIsExact, let reach = decoder.reach, reach.reached < reach.declared - max(2 * decoder.frameDuration, 0.5) {
            let seconds = { (value: Double) in String(format: "%.2f s", value) }
            throw .decodeFailed(path: input, reason: "its packets end at \(seconds(reach.reached)) of the "
                                + "\(seconds(reach.declared)) its container declares (truncated?)")
        }
        if let warning = decoder.warnings.split(whereSeparator: \.isNewline).first(where: { line in
            truncationWarnings.contains { line.lowercased().contains($0) }
        }) {
            throw .decodeFailed(path: input, reason: withoutBrackets(String(warning)) + " (truncated?)")
        }
    }

    /// What FFmpeg's demuxers log, as a warning only, about a clip that ends early.
    static let truncationWarnings = ["ended prematurely", "partial file", "truncat"]

    /// "[mp4 @ 0x55d0] Could not find tag" -> "Could not find tag".
    static func withoutBrackets(_ line: String) -> String {
        guard line.hasPrefix("["), let close = line.firstIndex(of: "]") else { return line }
        return String(line[line.index(after: close)...].drop { $0 == " " })
    }
}
