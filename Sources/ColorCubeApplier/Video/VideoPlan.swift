/// How one clip is graded: the format its frames are graded in, the conversions on either side,
/// the encoder's settings and what becomes of the other streams.
struct VideoPlan: Sendable {
    let probe: VideoProbe
    let input: String
    let encoding: VideoEncoding
    let muxer: String
    /// What the output keeps of the original's other streams.
    let streams: StreamPlan
    /// The frames as they are graded: planar YCbCr (`YCbCrFrameGrader`, colours outside the RGB
    /// cube kept), or RGB for RGB clips (`RawStreamApplier`).
    let frames: FrameFormat
    let frameBytes: Int
    /// The matrix the frames are converted with (nil for RGB sources), and their range.
    let matrix: VideoColor.Matrix?
    let range: VideoColor.Range
    /// The output's colour description when it is not the source's (an HDR clip made SDR).
    let colorOverride: VideoColor?

    enum FrameFormat: Sendable, Equatable {
        case ycbcr(YCbCrFrameFormat)
        case rgb(RawPixelFormat)

        /// FFmpeg's name of the format.
        var name: String {
            switch self {
            case .ycbcr(let format): format.name
            case .rgb(let format): format.rawValue
            }
        }
    }

    init(probe: VideoProbe, input: String, encoding: VideoEncoding, muxer: String,
         audioEncoder: String? = nil, outputColor: VideoColor? = nil) throws(VideoError) {
        self.probe = probe
        colorOverride = outputColor
        self.input = input
        self.encoding = encoding
        self.muxer = muxer
        streams = StreamPlan(streams: probe.streams, muxer: muxer, audioEncoder: audioEncoder)
        range = probe.pixelFormat.impliesFullRange ? .full : probe.color.effectiveRange
        if probe.pixelFormat.isRGB {
            matrix = nil
            let format: RawPixelFormat = probe.pixelFormat.bitDepth > 8 ? .rgb48le : .rgb24
            frames = .rgb(format)
            frameBytes = probe.width * probe.height * format.bytesPerPixel
            return
        }
        let effective = probe.color.effectiveMatrix(height: probe.height)
        guard effective.lumaCoefficients != nil else { throw .unsupportedMatrix(path: input, matrix: effective.name) }
        matrix = effective
        // Planar YCbCr is graded as the decoder made it; semi-planar and packed layouts (nv12,
        // p010, yuyv422) are repacked to their planar twin, exactly, and 4:1:1 or 4:4:0 to 4:4:4.
        guard let format = YCbCrFrameFormat(source: probe.pixelFormat) ?? YCbCrFrameFormat(source: Self.planarTwin(of: probe.pixelFormat)) else {
            throw .unsupportedPixelFormat(path: input, pixelFormat: probe.pixelFormat.name)
        }
        frames = .ycbcr(format)
        frameBytes = format.frameBytes(width: probe.width, height: probe.height)
    }

    /// The planar YCbCr format that holds `format`'s samples: same subsampling (4:4:4 for
    /// others) and depth.
    static func planarTwin(of format: VideoPixelFormat) -> VideoPixelFormat {
        let subsampling = ["420", "422", "444"].contains(format.subsampling ?? "") ? format.subsampling ?? "444" : "444"
        let depth = format.bitDepth
        return VideoPixelFormat("yuv\(subsampling)p" + (depth > 8 ? "\(depth)le" : ""))
    }

    /// True for full-range codes.
    var fullRange: Bool { range == .full }

    /// FFmpeg's scaler's constant (SWS_CS_*) for the matrix the frames are converted with
    /// between YCbCr and RGB: the output's when it has its own, else the clip's, else BT.601
    /// (the scaler's own default, for RGB clips).
    var scalerMatrixConstant: Int32 {
        (colorOverride?.matrix ?? matrix)?.scalerConstant ?? 5
    }

    /// The output's colour description: the source's, and full range said whenever it is.
    var outputColor: VideoColor {
        if let colorOverride { return colorOverride }
        var color = probe.color
        if color.range == nil, range == .full { color.range = .full }
        return color
    }

    /// The encoder's options as FFmpeg's libraries take them, and the stream's codec tag.
    struct LibraryEncoding {
        var options: [(String, String)]
        var codecTag: String?
    }

    /// The encoding as FFmpeg's libraries take it: the encoder's options by their names (`-crf 16`
    /// as `crf` `16`, `-profile:v 3` as `profile` `3`), a fixed quantiser (`-q:v 2`) as FFmpeg's
    /// command line sets it (the `qscale` flag and a global quality in lambda units), and the
    /// codec tag (`-tag:v hvc1`).
    var libraryEncoding: LibraryEncoding {
        var library = LibraryEncoding(options: [], codecTag: nil)
        let pairs = encoding.options
        for index in stride(from: 0, to: pairs.count - 1, by: 2) {
            let name = pairs[index], value = pairs[index + 1]
            switch name {
            case "-tag:v": library.codecTag = value
            case "-q:v", "-qscale", "-qscale:v":
                let lambda = Int((Double(value) ?? 2) * 118)  // FF_QP2LAMBDA
                library.options += [("flags", "+qscale"), ("global_quality", String(lambda))]
            default:
                var key = name.dropFirst()
                if key.hasSuffix(":v") { key = key.dropLast(2) }
                library.options.append((String(key), value))
            }
        }
        return library
    }

    /// The other streams as the output takes them (by index; dropped ones absent).
    var streamActions: [Int: LibraryOutput.StreamAction] {
        var actions: [Int: LibraryOutput.StreamAction] = [:]
        for entry in streams.entries {
            switch entry.action {
            case .copy: actions[entry.stream.index] = .copy
            case .encode(let encoder, let bitrate, _): actions[entry.stream.index] = .encode(encoder: encoder, bitRate: bitrate.flatMap(Self.bitRate))
            case .drop: break
            }
        }
        return actions
    }

    /// "256k" as 256000 bits a second; nil when it is no such number.
    static func bitRate(_ text: String) -> Int64? {
        let scale: Int64 = text.hasSuffix("k") ? 1000 : text.hasSuffix("M") ? 1_000_000 : 1
        return Int64(scale == 1 ? text : String(text.dropLast())).map { $0 * scale }
    }
}
