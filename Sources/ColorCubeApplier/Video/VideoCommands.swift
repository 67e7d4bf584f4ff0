/// The two ffmpeg command lines for one clip: the decoder that writes RGB frames as NUT to its
/// standard output, and the encoder that reads them from its standard input beside the original
/// file and writes the graded clip.
struct VideoCommands: Sendable {
    let probe: VideoProbe
    let input: String
    let encoding: VideoEncoding
    let muxer: String
    /// What the output keeps of the original's other streams.
    let streams: StreamPlan
    /// The frames' layout on the pipes when they are planar YCbCr that colorcube converts itself (`YCbCrFrameGrader`); nil when FFmpeg's scaler converts them to
    /// `frameFormat`.
    let ycbcrFormat: YCbCrFrameFormat?
    /// RGB frames through the scaler, where `ycbcrFormat` is nil: rgb24 for 8-bit sources,
    /// rgb48le for deeper ones.
    let frameFormat: RawPixelFormat
    let frameBytes: Int
    /// The scaler's matrix and range names; nil for RGB sources.
    let matrix: String?
    let range: String

    /// The output's colour description when it is not the source's (an HDR clip made SDR).
    let colorOverride: VideoColor?

    init(probe: VideoProbe, input: String, encoding: VideoEncoding, muxer: String,
         audioEncoder: String? = nil, outputColor: VideoColor? = nil) throws(VideoError) {
        self.probe = probe
        colorOverride = outputColor
        self.input = input
        self.encoding = encoding
        self.muxer = muxer
        streams = StreamPlan(streams: probe.streams, muxer: muxer, audioEncoder: audioEncoder)
        frameFormat = probe.pixelFormat.bitDepth > 8 ? .rgb48le : .rgb24
        range = probe.pixelFormat.impliesFullRange ? "pc" : probe.color.effectiveRange
        if probe.pixelFormat.isRGB {
            matrix = nil
        } else {
            let effective = probe.color.effectiveMatrix(height: probe.height)
            guard let scaler = VideoColor.scalerMatrix(effective) else {
                throw .unsupportedMatrix(path: input, matrix: effective)
            }
            matrix = scaler
        }
        // Planar YCbCr at any depth crosses the pipes as the decoder made it: no scaler on either
        // side (8-bit clips through the scaler as rgb24 spent about 14 ms of CPU a 1080p frame in
        // its two conversions and twice the pipe bytes; YCbCrFrameGrader remembers 8-bit results
        // by colour), and colours outside the RGB cube are kept (see the Video article in
        // ColorCubeApplier.docc).
        ycbcrFormat = matrix == nil ? nil : YCbCrFrameFormat(source: probe.pixelFormat)
        frameBytes = ycbcrFormat?.frameBytes(width: probe.width, height: probe.height)
            ?? probe.width * probe.height * frameFormat.bytesPerPixel
    }

    /// Scaler flags: exact rounding, chroma handled at full resolution; chroma repeated on the way
    /// in (neighbor) and averaged on the way out (area), which undo each other exactly.
    private static let inFlags = "neighbor+accurate_rnd+full_chroma_int+full_chroma_inp"
    private static let outFlags = "area+accurate_rnd+full_chroma_int"

    var decoderArguments: [String] {
        // A yuvj clip is relabelled as its plain twin, codes untouched (the scaler copies them
        // when told that both sides are full range).
        let relabel = probe.pixelFormat.impliesFullRange ? "scale=in_range=pc:out_range=pc," : ""
        let filter = ycbcrFormat.map { "\(relabel)format=\($0.name)" } ?? matrix.map { "scale=in_color_matrix=\($0):in_range=\(range):flags=\(Self.inFlags),format=\(frameFormat.rawValue)" }
            ?? "scale=flags=\(Self.inFlags),format=\(frameFormat.rawValue)"
        // Warnings too: a clip cut short is only warned about ("File ended prematurely").
        return ["-nostdin", "-hide_banner", "-v", "warning", "-xerror", "-noautorotate", "-i", input,
                "-map", "0:\(probe.streamIndex)", "-an", "-sn", "-dn",
                "-fps_mode", "passthrough", "-enc_time_base", "-1", "-copyts",
                "-vf", filter, "-c:v", "rawvideo", "-f", "nut", "-write_index", "0", "pipe:1"]
    }

    /// The graded video from a NUT stream on standard input, the other streams the container
    /// holds (`StreamPlan`), the metadata and the chapters from the original, on one timeline.
    private var outputHead: [String] {
        ["-nostdin", "-hide_banner", "-v", "error", "-y",
         "-f", "nut", "-i", "pipe:0", "-i", input]
            + streams.arguments(videoStreamIndex: probe.streamIndex)
            + ["-map_metadata", "1", "-map_chapters", "1",
               "-copyts", "-fps_mode", "passthrough", "-enc_time_base:v", "-1"]
    }

    /// The output's colour description: the source's, and full range said whenever it is.
    var outputColor: VideoColor {
        if let colorOverride { return colorOverride }
        var color = probe.color
        if color.range == nil, range == "pc" { color.range = "pc" }
        return color
    }

    /// The encoder's options as FFmpeg's libraries take them, and the stream's codec tag.
    struct LibraryEncoding {
        var options: [(String, String)]
        var codecTag: String?
    }

    /// The encoding as FFmpeg's libraries take it: the encoder's options by their names (`-crf 16`
    /// as `crf` `16`, `-profile:v 3` as `profile` `3`) and the codec tag (`-tag:v hvc1`). Nil when
    /// an option has no such form (`-q:v`, which the command line turns into a quantiser
    /// scale); those clips are encoded by an ffmpeg program instead.
    var libraryEncoding: LibraryEncoding? {
        var library = LibraryEncoding(options: [], codecTag: nil)
        let pairs = encoding.options
        guard pairs.count % 2 == 0 else { return nil }
        for index in stride(from: 0, to: pairs.count, by: 2) {
            let name = pairs[index], value = pairs[index + 1]
            switch name {
            case "-tag:v": library.codecTag = value
            case "-q:v", "-qscale", "-qscale:v": return nil
            default:
                guard name.hasPrefix("-") else { return nil }
                var key = name.dropFirst()
                if key.hasSuffix(":v") { key = key.dropLast(2) }
                library.options.append((String(key), value))
            }
        }
        return library
    }

    func encoderArguments(output: String) -> [String] {
        var arguments = outputHead
        let target = VideoPixelFormat(encoding.pixelFormat)
        if let ycbcrFormat {
            // YCbCr in: nothing to convert when the encoder takes the format as it is; else the
            // scaler changes depth or subsampling, or goes to RGB with the clip's matrix.
            if encoding.pixelFormat != ycbcrFormat.name {
                let matrixOptions = target.isRGB ? "in_color_matrix=\(matrix ?? "bt709"):in_range=\(range):" : ""
                arguments += ["-vf", "scale=\(matrixOptions)flags=\(Self.outFlags),format=\(encoding.pixelFormat)"]
            }
        } else if let matrix, !target.isRGB {
            arguments += ["-vf", "scale=out_color_matrix=\(matrix):out_range=\(range):flags=\(Self.outFlags),format=\(encoding.pixelFormat)"]
        } else {
            arguments += ["-vf", "scale=flags=\(Self.outFlags),format=\(encoding.pixelFormat)"]
        }
        arguments += ["-c:v", encoding.encoder] + encoding.options
        arguments += outputColor.taggingArguments
        arguments += ["-f", muxer, output]
        return arguments
    }
}
