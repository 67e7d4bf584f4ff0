import ColorCubeApplier
import ColorCubeImaging
import Testing

/// What colorcube reads from ffprobe and pixel format names, and how it chooses an encoding:
/// no FFmpeg needed.
@Suite struct VideoMetadataTests {
    @Test(arguments: [
        ("yuv420p", 8, false, "420"), ("yuv420p10le", 10, false, "420"), ("yuv422p12le", 12, false, "422"),
        ("yuv444p16le", 16, false, "444"), ("nv12", 8, false, "420"), ("p010le", 10, false, "420"),
        ("gbrp", 8, true, nil), ("gbrp10le", 10, true, nil), ("rgb24", 8, true, nil), ("rgb48le", 16, true, nil),
        ("gray", 8, false, nil), ("gray10le", 10, false, nil), ("yuvj420p", 8, false, "420"),
    ] as [(String, Int, Bool, String?)])
    func pixelFormatNamesTellDepthKindAndSubsampling(name: String, depth: Int, rgb: Bool, subsampling: String?) {
        let format = VideoPixelFormat(name)
        #expect(format.bitDepth == depth)
        #expect(format.isRGB == rgb)
        #expect(format.subsampling == subsampling)
    }

    @Test func alphaPaletteAndFullRangeNamesAreRecognised() {
        #expect(VideoPixelFormat("yuva444p10le").hasAlpha)
        #expect(VideoPixelFormat("gbrap").hasAlpha)
        #expect(!VideoPixelFormat("yuv444p10le").hasAlpha)
        #expect(!VideoPixelFormat("pal8").isGradable)
        #expect(VideoPixelFormat("yuvj422p").impliesFullRange)
        #expect(!VideoPixelFormat("yuv422p").impliesFullRange)
    }

    @Test func untaggedStreamsGetWhatPlayersAssume() {
        let untagged = VideoColor()
        #expect(untagged.effectiveMatrix(height: 720) == .bt709)
        #expect(untagged.effectiveMatrix(height: 1080) == .bt709)
        #expect(untagged.effectiveMatrix(height: 576) == .smpte170m)
        #expect(untagged.effectiveMatrix(height: 480) == .smpte170m)
        #expect(untagged.effectiveRange == .limited)
        let tagged = VideoColor(matrix: .bt2020nc, range: .full, primaries: .bt2020, transfer: .smpte2084)
        #expect(tagged.effectiveMatrix(height: 240) == .bt2020nc)
        #expect(tagged.isHDR)
        #expect(VideoColor.Matrix.bt470bg.lumaCoefficients ?? (0, 0) == (0.299, 0.114))
        #expect(VideoColor.Matrix.ycgco.lumaCoefficients == nil)
    }

    /// FFmpeg's integers are H.273's codes: the ones with a meaning map to a case named as FFmpeg
    /// names it; unspecified (2, 0 for the range) and reserved codes map to none.
    @Test func colourCodesMapOnceFromFFmpegsIntegers() {
        #expect(VideoColor.Matrix(rawValue: 1)?.name == "bt709")
        #expect(VideoColor.Matrix(rawValue: 9)?.name == "bt2020nc")
        #expect(VideoColor.Matrix(rawValue: 2) == nil && VideoColor.Matrix(rawValue: 3) == nil)
        #expect(VideoColor.Transfer(rawValue: 16)?.name == "smpte2084")
        #expect(VideoColor.Transfer(rawValue: 18)?.name == "arib-std-b67")
        #expect(VideoColor.Transfer(rawValue: 2) == nil)
        #expect(VideoColor.Primaries(rawValue: 12)?.name == "smpte432")
        #expect(VideoColor.Primaries(rawValue: 22)?.name == "ebu3213")
        #expect(VideoColor.Range(rawValue: 1)?.name == "tv" && VideoColor.Range(rawValue: 2)?.name == "pc")
        #expect(VideoColor.Range(rawValue: 0) == nil)
        #expect(VideoColor.ChromaLocation(rawValue: 3) == .topLeft)
        #expect(Set(VideoColor.Transfer.allCases.map(\.name)).count == VideoColor.Transfer.allCases.count)
    }

    /// Without FFmpeg's libraries a clip says which one is missing and what to install (photos
    /// need none of them); the error is what `VideoProbe` throws when they cannot be opened.
    @Test func aClipWithoutFFmpegsLibrariesSaysWhatToInstall() {
        let error = VideoError.librariesMissing(path: "clip.mp4", reason: "libavformat.so.59 is not installed")
        #expect(error.description == "clip.mp4 is a video clip, and grading clips needs FFmpeg's libraries "
            + "(libavformat.so.59 is not installed): install them (Debian/Ubuntu: apt-get install ffmpeg); photos need nothing more")
        #expect(error.path == "clip.mp4")
    }

    static func probe(codec: String, pixelFormat: String, profile: String? = nil) -> VideoProbe {
        VideoProbe(streamIndex: 0, codec: codec, profile: profile, width: 1920, height: 1080,
                   pixelFormat: VideoPixelFormat(pixelFormat), color: VideoColor(), frameCount: 10,
                   container: "mov,mp4,m4a,3gp,3g2,mj2", otherStreams: ["audio"])
    }

    @Test func defaultsKeepTheCodecAtHighQuality() throws {
        let h264 = try VideoEncoding.choose(for: Self.probe(codec: "h264", pixelFormat: "yuv420p"), path: "a.mp4",
                                            videoCodec: nil, crf: nil, muxer: "mp4", supportedFormats: ["yuv420p", "yuv420p10le"])
        #expect(h264.encoder == "libx264" && h264.options.prefix(2) == ["-crf", "16"] && h264.pixelFormat == "yuv420p")
        let hevc = try VideoEncoding.choose(for: Self.probe(codec: "hevc", pixelFormat: "yuv420p10le"), path: "a.mov",
                                            videoCodec: nil, crf: 20, muxer: "mov", supportedFormats: [])
        #expect(hevc.encoder == "libx265" && hevc.options.contains("20") && hevc.options.contains("hvc1"))
        #expect(hevc.pixelFormat == "yuv420p10le")
        let prores = try VideoEncoding.choose(for: Self.probe(codec: "prores", pixelFormat: "yuv422p10le", profile: "LT"),
                                              path: "a.mov", videoCodec: nil, crf: nil, muxer: "mov",
                                              supportedFormats: ["yuv422p10le", "yuv444p10le", "yuva444p10le"])
        #expect(prores.encoder == "prores_ks" && prores.options.prefix(2) == ["-profile:v", "1"])
        let ffv1 = try VideoEncoding.choose(for: Self.probe(codec: "ffv1", pixelFormat: "yuv444p"), path: "a.mkv",
                                            videoCodec: nil, crf: nil, muxer: "matroska", supportedFormats: [])
        #expect(ffv1.encoder == "ffv1" && ffv1.options.isEmpty)
    }

    @Test func anEncoderThatLacksTheSourceFormatGetsTheClosestOne() {
        // 8-bit 4:2:0 into ProRes: 4:2:2 10-bit, not the alpha format.
        let format = VideoEncoding.closestPixelFormat(for: VideoPixelFormat("yuv420p"),
                                               supported: ["yuva444p10le", "yuv422p10le", "yuv444p10le"])
        #expect(format == "yuv422p10le")
        // A full-range yuvj name becomes the plain one (its range is tagged instead).
        #expect(VideoEncoding.closestPixelFormat(for: VideoPixelFormat("yuvj420p"), supported: ["yuv420p"]) == "yuv420p")
    }

    @Test func unusableChoicesAreRefused() {
        #expect(throws: VideoError.noDefaultEncoder(path: "a.avi", codec: "cinepak")) {
            try VideoEncoding.choose(for: Self.probe(codec: "cinepak", pixelFormat: "rgb24"), path: "a.avi",
                                     videoCodec: nil, crf: nil, muxer: "avi", supportedFormats: [])
        }
        #expect(throws: VideoError.crfNotSupported(encoder: "ffv1")) {
            try VideoEncoding.choose(for: Self.probe(codec: "h264", pixelFormat: "yuv420p"), path: "a.mkv",
                                     videoCodec: "ffv1", crf: 18, muxer: "matroska", supportedFormats: [])
        }
    }

    @Test func containersAreRecognisedByContentAndChosenByExtension() {
        func head(_ bytes: [UInt8]) -> FileProbe { FileProbe(head: bytes + [UInt8](repeating: 0, count: 32)) }
        #expect(VideoContainer.matches(head([0, 0, 0, 0x20] + Array("ftypisom".utf8))))
        #expect(VideoContainer.matches(head([0x1A, 0x45, 0xDF, 0xA3])))
        #expect(VideoContainer.matches(head(Array("RIFF".utf8) + [0, 0, 0, 0] + Array("AVI ".utf8))))
        #expect(!VideoContainer.matches(head([0, 0, 0, 0x20] + Array("ftypM4A ".utf8))))
        #expect(!VideoContainer.matches(head(Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVE".utf8))))
        #expect(!VideoContainer.matches(head([0x89, 0x50, 0x4E, 0x47])))
        #expect(VideoContainer.muxer(forExtension: "MKV") == "matroska")
        #expect(VideoContainer.muxer(forExtension: "mov") == "mov")
        #expect(VideoContainer.muxer(forExtension: "png") == nil)
    }
}
