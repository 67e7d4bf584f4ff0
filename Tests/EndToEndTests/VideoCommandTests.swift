import Foundation
import Testing

/// Clips made with FFmpeg's test source, graded by `colorcube apply`, decoded again and compared
/// with the source decoded the same way (the source's own matrix and range). Skipped without
/// ffmpeg and ffprobe.
@Suite(.enabled(if: ExternalTool.path("ffmpeg") != nil && ExternalTool.path("ffprobe") != nil,
                "ffmpeg and ffprobe are not installed"))
struct VideoCommandTests {
    static let identityLook = Resources.packageRoot.appendingPathComponent("LUTs/identity-4.png").path
    static let realLook = Resources.packageRoot.appendingPathComponent("LUTs/bleach-bypass.cube").path

    /// Makes a test clip: `testsrc2` of `size`, `frames` frames at 25 fps, encoded by `codec`
    /// in `pixelFormat`, tagged with `matrix` (primaries and transfer to match) and `range`;
    /// with a sine tone when `audio`; x264's fastest preset when `fast`.
    static func makeClip(_ path: String, size: String, frames: Int = 8, pixelFormat: String = "yuv420p",
                         matrix: String, range: String = "tv", codec: String = "libx264", audio: Bool = false,
                         fast: Bool = false) throws {
        var arguments = ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=25"]
        if audio { arguments += ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000"] }
        let primaries = matrix == "bt709" ? "bt709" : "smpte170m"
        arguments += ["-frames:v", String(frames), "-pix_fmt", pixelFormat, "-c:v", codec, "-crf", "12",
                      "-colorspace", matrix, "-color_primaries", primaries, "-color_trc", primaries == "bt709" ? "bt709" : "smpte170m",
                      "-color_range", range]
        if fast { arguments += ["-preset", "ultrafast"] }
        if audio { arguments += ["-c:a", "aac", "-t", String(Double(frames) / 25)] }
        arguments.append(path)
        let result = try ExternalTool.run("ffmpeg", arguments)
        try #require(result.status == 0, "ffmpeg could not make \(path): \(result.stderr)")
    }

    /// All frames of `path`'s video, decoded to `pixelFormat` (rgb24 or rgb48le) with `matrix` and
    /// limited range by FFmpeg's default scaler: what a player shows.
    static func decode(_ path: String, matrix: String, pixelFormat: String = "rgb24") throws -> Data {
        try decode(path, filter: "scale=in_color_matrix=\(matrix):in_range=tv,format=\(pixelFormat)")
    }

    /// All frames of `path`'s video through the filter graph `filter`, as raw video.
    static func decode(_ path: String, filter: String) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(ExternalTool.path("ffmpeg")))
        process.arguments = ["-v", "error", "-i", path, "-map", "0:v:0", "-fps_mode", "passthrough",
                             "-vf", filter,
                             "-f", "rawvideo", "-"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "ffmpeg could not decode \(path)")
        return data
    }

    /// All frames of `path`'s video in its own YCbCr codes (`pixelFormat`), unconverted.
    static func decodeYCbCr(_ path: String, pixelFormat: String) throws -> Data {
        try decode(path, filter: "format=\(pixelFormat)")
    }

    /// ffprobe's `stream=KEYS` for every stream, one dictionary a stream.
    static func streams(_ path: String) throws -> [[String: String]] {
        let text = try ffprobe(["-v", "error", "-show_entries",
                                "stream=codec_type,codec_name,pix_fmt,color_space,color_range,color_primaries,color_transfer,nb_frames",
                                "-of", "compact=p=0:nk=0", path])
        return text.split(separator: "\n").map { line in
            var fields: [String: String] = [:]
            for pair in line.split(separator: "|") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                if parts.count == 2 { fields[parts[0]] = parts[1] }
            }
            return fields
        }
    }

    /// The video packets' timestamps as ffprobe prints them, in file order.
    static func videoPacketTimes(_ path: String) throws -> [String] {
        try ffprobe(["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,dts_time",
                     "-of", "csv=p=0", path]).split(separator: "\n").map(String.init)
    }

    /// What ffprobe prints on standard output with `arguments`.
    static func ffprobe(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(ExternalTool.path("ffprobe")))
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }

    /// PSNR in dB of two equally long sample arrays whose largest value is `peak`.
    static func psnr(_ a: [Double], _ b: [Double], peak: Double) throws -> Double {
        try #require(a.count == b.count && !a.isEmpty, "\(a.count) samples against \(b.count)")
        var sum = 0.0
        for index in a.indices {
            let d = a[index] - b[index]
            sum += d * d
        }
        let mse = sum / Double(a.count)
        return mse == 0 ? .infinity : 10 * log10(peak * peak / mse)
    }

    static func samples8(_ data: Data) -> [Double] { data.map(Double.init) }

    static func samples16(_ data: Data) -> [Double] {
        stride(from: 0, to: data.count - 1, by: 2).map { Double(UInt16(data[$0]) | UInt16(data[$0 + 1]) << 8) }
    }

    /// The means of each 8x8 block of each channel of rgb24 frames `width` wide.
    static func blockMeans(_ data: Data, width: Int, height: Int) -> [Double] {
        blockMeans(samples8(data), width: width, height: height)
    }

    /// The means of each 8x8 block of each channel of RGB frames `width` wide, given as samples.
    static func blockMeans(_ data: [Double], width: Int, height: Int) -> [Double] {
        let frameSamples = width * height * 3
        var means: [Double] = []
        for frame in stride(from: 0, to: data.count - frameSamples + 1, by: frameSamples) {
            for by in stride(from: 0, to: height - 7, by: 8) {
                for bx in stride(from: 0, to: width - 7, by: 8) {
                    for channel in 0..<3 {
                        var sum = 0.0
                        for y in by..<(by + 8) {
                            for x in bx..<(bx + 8) { sum += data[frame + (y * width + x) * 3 + channel] }
                        }
                        means.append(sum / 64)
                    }
                }
            }
        }
        return means
    }

    @Test func identityLookKeepsABT709ClipWithItsAudioAndTags() throws {
        let scratch = try Scratch()
        let source = scratch.file("hd.mp4"), graded = scratch.file("graded.mkv")
        try Self.makeClip(source, size: "1280x720", frames: 6, matrix: "bt709", audio: true)
        let result = try CommandRunner.run(["apply", Self.identityLook, source, "-o", graded, "--video-codec", "ffv1"])
        #expect(result.status == 0, "\(result.stderr)")
        let before = try Self.decode(source, matrix: "bt709"), after = try Self.decode(graded, matrix: "bt709")
        let db = try Self.psnr(Self.samples8(before), Self.samples8(after), peak: 255)
        // Saturated 8-bit 4:2:0 goes through FFmpeg's scaler, which clips colours outside the cube.
        #expect(db >= 45, "PSNR \(db) dB")
        let sourceStreams = try Self.streams(source), gradedStreams = try Self.streams(graded)
        try #require(sourceStreams.count == 2 && gradedStreams.count == 2, "\(gradedStreams)")
        #expect(gradedStreams[1]["codec_type"] == "audio" && gradedStreams[1]["codec_name"] == sourceStreams[1]["codec_name"])
        for key in ["color_space", "color_range", "color_primaries", "color_transfer", "pix_fmt"] {
            #expect(gradedStreams[0][key] == sourceStreams[0][key], "\(key)")
        }
        #expect(gradedStreams[0]["codec_name"] == "ffv1")
        #expect(scratch.listing() == ["graded.mkv", "hd.mp4"])
    }

    /// `--dither` shapes pictures' codes; a clip's grade is rounded, and the run says so rather
    /// than letting the option pass as if it had been used.
    /// `--dither` on 8-bit clips: a slow grey ramp darkened to 70% keeps its fractions of a code in
    /// its 8x8 block means (at least twice as close to the exact luma as rounding gives), reruns
    /// give the same frames, and an identity look still returns every code, through the in-process
    /// YCbCr grader (4:2:0) and the RGB frames of the pipes (rgb24).
    @Test(arguments: ["ordered", "blue-noise"])
    func anEightBitClipIsDitheredWhenAsked(method: String) throws {
        let scratch = try Scratch()
        let (width, height) = (256, 64)
        let ramp = scratch.file("ramp.mkv")
        let made = try ExternalTool.run("ffmpeg", [
            "-v", "error", "-y", "-f", "lavfi", "-i", "color=black:size=\(width)x\(height):rate=25,format=yuv444p",
            "-frames:v", "2", "-vf", "geq=lum='16+X/4':cb=128:cr=128", "-c:v", "ffv1", "-colorspace", "bt709",
            "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv", ramp])
        try #require(made.status == 0, "ffmpeg could not make the ramp: \(made.stderr)")
        let darker = scratch.file("darker.cube")
        var text = "LUT_3D_SIZE 2\n"
        for b in 0...1 { for g in 0...1 { for r in 0...1 { text += "\(0.7 * Double(r)) \(0.7 * Double(g)) \(0.7 * Double(b))\n" } } }
        try text.write(toFile: darker, atomically: true, encoding: .utf8)

        func graded(_ look: String, _ source: String, _ name: String, _ arguments: [String], as pixelFormat: String) throws -> Data {
            let output = scratch.file(name)
            let result = try CommandRunner.run(["apply", look, source, "-o", output, "--video-codec", "ffv1"] + arguments)
            #expect(result.status == 0, "\(result.stderr)")
            return try Self.decode(output, filter: "format=\(pixelFormat)")
        }
        /// The RMS over every 8x8 block of every frame of its mean luma's distance from 16 + 0.7 (Y - 16).
        func blockError(_ frames: Data) -> Double {
            let frameBytes = width * height * 3
            var squares = 0.0, blocks = 0
            for frame in stride(from: 0, to: frames.count - frameBytes + 1, by: frameBytes) {
                for by in stride(from: 0, to: height, by: 8) {
                    for bx in stride(from: 0, to: width, by: 8) {
                        var error = 0.0
                        for y in by..<(by + 8) {
                            for x in bx..<(bx + 8) {
                                error += Double(frames[frames.startIndex + frame + y * width + x]) - (16 + 0.7 * Double(x / 4))
                            }
                        }
                        squares += (error / 64) * (error / 64)
                        blocks += 1
                    }
                }
            }
            return (squares / Double(blocks)).squareRoot()
        }
        let rounded = try graded(darker, ramp, "rounded.mkv", [], as: "yuv444p")
        let dithered = try graded(darker, ramp, "dithered.mkv", ["--dither", method], as: "yuv444p")
        #expect(blockError(dithered) * 2 <= blockError(rounded), "dithered \(blockError(dithered)), rounded \(blockError(rounded))")
        #expect(try graded(darker, ramp, "again.mkv", ["--dither", method], as: "yuv444p") == dithered)

        let clip = scratch.file("clip.mp4"), rgb = scratch.file("rgb.mkv")
        try Self.makeClip(clip, size: "64x48", frames: 2, matrix: "bt709", fast: true)
        try Self.makeClip(rgb, size: "64x48", frames: 2, pixelFormat: "rgb24", matrix: "bt709", codec: "ffv1")
        #expect(try graded(Self.identityLook, clip, "identity.mkv", ["--dither", method], as: "yuv420p")
                == Self.decode(clip, filter: "format=yuv420p"))
        #expect(try graded(Self.identityLook, rgb, "identity-rgb.mkv", ["--dither", method], as: "rgb24")
                == Self.decode(rgb, filter: "format=rgb24"))
    }

    @Test func identityLookKeepsABT601Clip() throws {
        let scratch = try Scratch()
        let source = scratch.file("sd.mp4"), graded = scratch.file("graded.mkv")
        try Self.makeClip(source, size: "320x240", matrix: "smpte170m")
        let result = try CommandRunner.run(["apply", Self.identityLook, source, "-o", graded, "--video-codec", "ffv1"])
        #expect(result.status == 0, "\(result.stderr)")
        let db = try Self.psnr(Self.samples8(try Self.decode(source, matrix: "bt601")),
                               Self.samples8(try Self.decode(graded, matrix: "bt601")), peak: 255)
        #expect(db >= 45, "PSNR \(db) dB")
        #expect(try Self.streams(graded)[0]["color_space"] == "smpte170m")
    }

    /// 8-bit clips cross the pipes in their own YCbCr too (no scaler): an identity look returns
    /// every code, limited-range 4:2:2 and full-range 4:2:0 (which FFmpeg decodes as yuvj420p)
    /// alike, and the range tag stays.
    @Test(arguments: [("yuv422p", "tv"), ("yuv420p", "pc")])
    func eightBitClipComesBackCodeForCode(pixelFormat: String, range: String) throws {
        let scratch = try Scratch()
        let source = scratch.file("eight.mp4"), graded = scratch.file("graded.mkv")
        try Self.makeClip(source, size: "320x240", frames: 4, pixelFormat: pixelFormat, matrix: "bt709", range: range)
        let result = try CommandRunner.run(["apply", Self.identityLook, source, "-o", graded, "--video-codec", "ffv1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.streams(graded)[0]["color_range"] == range)
        // Codes as stored, whichever name FFmpeg gives the full-range format.
        let codes = "scale=in_range=\(range):out_range=\(range),format=\(pixelFormat)"
        #expect(try Self.decode(source, filter: codes) == Self.decode(graded, filter: codes),
                "the identity look changed some YCbCr codes")
    }

    /// 10-bit at 16 bits, the plain (saturated) test source, 4:2:0 and 4:4:4: 4:2:0 edges share
    /// chroma between pixels of different brightness and decode to colours outside the RGB cube,
    /// which colorcube keeps, so the frames come back exactly (FFmpeg's scaler clipped them: 45 dB).
    @Test(arguments: ["yuv420p10le", "yuv444p10le"])
    func tenBitClipIsGradedAtSixteenBitsAndStaysTenBit(pixelFormat: String) throws {
        let scratch = try Scratch()
        let source = scratch.file("ten.mkv"), graded = scratch.file("graded.mkv")
        try Self.makeClip(source, size: "320x240", frames: 4, pixelFormat: pixelFormat, matrix: "bt709")
        let result = try CommandRunner.run(["apply", Self.identityLook, source, "-o", graded, "--video-codec", "ffv1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.streams(graded)[0]["pix_fmt"] == pixelFormat)
        let db = try Self.psnr(Self.samples16(try Self.decode(source, matrix: "bt709", pixelFormat: "rgb48le")),
                               Self.samples16(try Self.decode(graded, matrix: "bt709", pixelFormat: "rgb48le")), peak: 65535)
        #expect(db >= 55, "PSNR \(db) dB at 16 bits")
        #expect(try Self.decodeYCbCr(source, pixelFormat: pixelFormat) == Self.decodeYCbCr(graded, pixelFormat: pixelFormat),
                "the identity look changed some YCbCr codes")
    }

    /// The graded clip against the look applied (by `apply --raw`) to the source's correctly
    /// decoded frames, compared as 8x8 block means: for both matrices, so a clip decoded with the
    /// wrong one would fail.
    @Test(arguments: [("bt709", "1280x720", "bt709"), ("smpte170m", "320x240", "bt601")])
    func realLookMatchesTheLookAppliedToCorrectlyDecodedFrames(matrix: String, size: String, scaler: String) throws {
        let scratch = try Scratch()
        let source = scratch.file("clip.mp4"), graded = scratch.file("graded.mp4")
        try Self.makeClip(source, size: size, frames: 4, matrix: matrix)
        let result = try CommandRunner.run(["apply", Self.realLook, source, "-o", graded, "--crf", "10"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.streams(graded)[0]["codec_name"] == "h264")
        let frames = try Self.decode(source, matrix: scaler)
        try frames.write(to: URL(fileURLWithPath: scratch.file("frames.rgb")))
        let reference = try CommandRunner.run(["apply", Self.realLook, "--raw", size, "--pixel-format", "rgb24",
                                               "-i", scratch.file("frames.rgb")])
        #expect(reference.status == 0, "\(reference.stderr)")
        let dimensions = size.split(separator: "x").compactMap { Int($0) }
        let ours = Self.blockMeans(try Self.decode(graded, matrix: scaler), width: dimensions[0], height: dimensions[1])
        let expected = Self.blockMeans(reference.stdout, width: dimensions[0], height: dimensions[1])
        let db = try Self.psnr(ours, expected, peak: 255)
        #expect(db >= 40, "block-mean PSNR \(db) dB")
    }

    /// The same for a 10-bit clip, which colorcube converts itself (`YCbCrFrameGrader`), at 16 bits:
    /// colours outside the cube must not show through where the look moves the cube's faces.
    @Test func realLookOnATenBitClipMatchesTheLookAppliedToCorrectlyDecodedFrames() throws {
        let scratch = try Scratch()
        let source = scratch.file("ten.mkv"), graded = scratch.file("graded.mkv")
        try Self.makeClip(source, size: "320x240", frames: 3, pixelFormat: "yuv420p10le", matrix: "bt709")
        let result = try CommandRunner.run(["apply", Self.realLook, source, "-o", graded, "--video-codec", "ffv1"])
        #expect(result.status == 0, "\(result.stderr)")
        let frames = try Self.decode(source, matrix: "bt709", pixelFormat: "rgb48le")
        try frames.write(to: URL(fileURLWithPath: scratch.file("frames.rgb")))
        let reference = try CommandRunner.run(["apply", Self.realLook, "--raw", "320x240", "--pixel-format", "rgb48le",
                                               "-i", scratch.file("frames.rgb")])
        #expect(reference.status == 0, "\(reference.stderr)")
        let ours = Self.blockMeans(Self.samples16(try Self.decode(graded, matrix: "bt709", pixelFormat: "rgb48le")), width: 320, height: 240)
        let expected = Self.blockMeans(Self.samples16(reference.stdout), width: 320, height: 240)
        let db = try Self.psnr(ours, expected, peak: 65535)
        #expect(db >= 40, "block-mean PSNR \(db) dB at 16 bits")
    }

    /// Layouts the grader does not read directly are converted in process by FFmpeg's scaler:
    /// semi-planar and packed YCbCr repacked exactly to planar, RGB graded as RGB; an identity
    /// look through a lossless encoder returns every code.
    @Test(arguments: [("nv12", "yuv420p"), ("yuyv422", "yuv422p"), ("gbrp", "gbrp"), ("bgr0", "rgb24")])
    func otherLayoutsComeBackCodeForCode(pixelFormat: String, compared: String) throws {
        let scratch = try Scratch()
        let source = scratch.file("clip.nut"), graded = scratch.file("graded.mkv")
        let made = try ExternalTool.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=64x48:rate=25",
                                                   "-frames:v", "3", "-pix_fmt", pixelFormat, "-c:v", "rawvideo", source])
        try #require(made.status == 0, "\(made.stderr)")
        let result = try CommandRunner.run(["apply", Self.identityLook, source, "-o", graded, "--video-codec", "ffv1"])
        #expect(result.status == 0, "\(result.stderr)")
        let frames = try Self.decodeYCbCr(graded, pixelFormat: compared)
        #expect(!frames.isEmpty)
        #expect(frames == (try Self.decodeYCbCr(source, pixelFormat: compared)), "\(pixelFormat) came back changed")
    }

    /// An encoder with B-frames (x264, the default for H.264) hands out its first packets with
    /// decoding times before the first frame's: the graded frames keep the source's presentation
    /// times (in step with the copied audio).
    @Test func framesKeepTheSourcesTimesBesideTheAudio() throws {
        let scratch = try Scratch()
        let source = scratch.file("clip.mp4"), graded = scratch.file("graded.mp4")
        try Self.makeClip(source, size: "320x240", frames: 12, matrix: "bt709", audio: true)
        let result = try CommandRunner.run(["apply", Self.realLook, source, "-o", graded])
        #expect(result.status == 0, "\(result.stderr)")
        let presentationTimes = { (path: String) throws -> [Double] in
            try Self.videoPacketTimes(path).compactMap { Double($0.split(separator: ",").first ?? "") }.sorted()
        }
        let expected = try presentationTimes(source)
        #expect(expected.count == 12)
        #expect(try presentationTimes(graded) == expected)
    }

    @Test func badClipsFailOneLineEachAndTheRestOfTheFolderIsGraded() throws {
        let scratch = try Scratch()
        try FileManager.default.createDirectory(atPath: scratch.file("in"), withIntermediateDirectories: true)
        try Self.makeClip(scratch.file("in/good.mkv"), size: "320x240", frames: 4, matrix: "bt709")
        let good = try Data(contentsOf: URL(fileURLWithPath: scratch.file("in/good.mkv")))
        try good.prefix(good.count / 2).write(to: URL(fileURLWithPath: scratch.file("in/truncated.mkv")))
        let tone = try ExternalTool.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=duration=0.2",
                                                   "-c:a", "aac", "-f", "matroska", scratch.file("in/tone.mkv")])
        try #require(tone.status == 0)
        let result = try CommandRunner.run(["apply", Self.realLook, scratch.file("in"), "-o", scratch.file("out")])
        #expect(result.status == 1)
        let errors = result.stderr.split(separator: "\n").filter { $0.contains("error:") }
        #expect(errors.count == 2, "\(result.stderr)")
        #expect(errors.contains { $0.contains("truncated.mkv") })
        #expect(errors.contains { $0.contains("tone.mkv") && $0.contains("no video stream") })
        #expect(result.stderr.contains("1 done, 0 skipped, 2 failed"), "\(result.stderr)")
        #expect(scratch.listing("out") == ["good.mkv"])
    }

    @Test func unknownEncoderAndAContainerThatCannotHoldTheStreamWriteNothing() throws {
        let scratch = try Scratch()
        let source = scratch.file("clip.mp4")
        try Self.makeClip(source, size: "320x240", frames: 2, matrix: "bt709")
        let unknown = try CommandRunner.run(["apply", Self.realLook, source, "-o", scratch.file("a.mp4"), "--video-codec", "nosuch"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no encoder named nosuch"), "\(unknown.stderr)")
        let container = try CommandRunner.run(["apply", Self.realLook, source, "-o", scratch.file("b.mp4"), "--video-codec", "ffv1"])
        #expect(container.status == 1)
        #expect(container.stderr.contains("cannot hold"), "\(container.stderr)")
        #expect(scratch.listing() == ["clip.mp4"])
    }

    /// Streams the output's container cannot hold are re-encoded to its usual codec or dropped
    /// with a note, never a failure; languages and chapters stay.
    @Test func streamsThatDoNotFitTheContainerAreReencodedOrDropped() throws {
        let scratch = try Scratch()
        try Data(";FFMETADATA1\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=200\ntitle=One\n".utf8)
            .write(to: URL(fileURLWithPath: scratch.file("chapters.txt")))
        try Data("1\n00:00:00,000 --> 00:00:00,200\nHello\n".utf8).write(to: URL(fileURLWithPath: scratch.file("s.srt")))
        let prores = scratch.file("prores.mov"), chaptered = scratch.file("chapters.mov")
        let made = try ExternalTool.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=160x120:r=25:d=0.4",
                                                   "-f", "lavfi", "-i", "sine=d=0.4", "-c:v", "prores_ks", "-c:a", "pcm_s16le",
                                                   "-metadata:s:a:0", "language=eng", prores])
        try #require(made.status == 0, "\(made.stderr)")
        let madeChapters = try ExternalTool.run("ffmpeg", [
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=160x120:r=25:d=0.4", "-f", "lavfi", "-i", "sine=d=0.4",
            "-i", scratch.file("s.srt"), "-i", scratch.file("chapters.txt"), "-map", "0", "-map", "1", "-map", "2", "-map_chapters", "3",
            "-c:v", "libx264", "-c:a", "aac", "-c:s", "mov_text", "-metadata:s:a:0", "language=eng",
            "-metadata:s:s:0", "language=fra", chaptered])
        try #require(madeChapters.status == 0, "\(madeChapters.stderr)")
        for (source, output) in [(prores, "a.mp4"), (chaptered, "b.mkv"), (chaptered, "c.mp4"), (scratch.file("chapters.mov"), "d.webm")] {
            let result = try CommandRunner.run(["apply", Self.realLook, source, "-o", scratch.file(output)])
            #expect(result.status == 0, "\(output): \(result.stderr)")
            let probe = Process(), pipe = Pipe()
            probe.executableURL = URL(fileURLWithPath: try #require(ExternalTool.path("ffprobe")))
            probe.arguments = ["-v", "error", "-show_entries", "stream=codec_type,codec_name:stream_tags=language,title",
                               "-show_chapters", "-of", "compact", scratch.file(output)]
            probe.standardOutput = pipe
            try probe.run()
            let streams = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            probe.waitUntilExit()
            #expect(streams.contains("codec_type=audio|tag:language=eng"), "\(output): \(streams)")
            if source == chaptered {
                #expect(streams.contains("tag:title=One"), "\(output) lost its chapter: \(streams)")
                #expect(output.hasSuffix(".webm") || streams.contains("language=fra"), "\(output): \(streams)")
            }
        }
    }

    /// Clips are read, graded and written by FFmpeg's libraries in colorcube's own process: no
    /// ffmpeg or ffprobe program is needed, and none is started.
    @Test func aClipIsGradedWithNoFFmpegProgramOnThePath() throws {
        let scratch = try Scratch()
        let source = scratch.file("clip.mp4")
        try Self.makeClip(source, size: "320x240", frames: 2, matrix: "bt709")
        let photo = Resources.fixture("grey-16.png")
        let noFFmpeg = ["PATH": "/nonexistent"]
        let image = try CommandRunner.run(["apply", Self.realLook, photo, "-o", scratch.file("photo.png")], environment: noFFmpeg)
        #expect(image.status == 0, "\(image.stderr)")
        let clip = try CommandRunner.run(["apply", Self.realLook, source, "-o", scratch.file("graded.mp4")], environment: noFFmpeg)
        #expect(clip.status == 0, "\(clip.stderr)")
        #expect(try Self.streams(scratch.file("graded.mp4"))[0]["nb_frames"] == "2")
    }

    /// `--benchmark` on a clip says where its time went: decoding, grading and encoding.
    @Test func benchmarkTimesAClipsStages() throws {
        let scratch = try Scratch()
        let source = scratch.file("clip.mp4")
        try Self.makeClip(source, size: "320x240", frames: 10, matrix: "bt709", fast: true)
        let result = try CommandRunner.run(["apply", Self.realLook, source, "-o", scratch.file("graded.mp4"), "--benchmark"])
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(result.stderr.split(separator: "\n").first { $0.contains("benchmark: 1 file,") })
        // The in-process path times each stage; grading and encoding ten frames take some time.
        for stage in ["LUT", "encode"] {
            let seconds = line.components(separatedBy: "\(stage) ").dropFirst().first.flatMap { Double($0.prefix { $0 != " " }) }
            #expect((seconds ?? 0) > 0, "\(stage) in \(line)")
        }
    }
}
