import Foundation
import Testing

/// HLG and PQ clips made here from an SDR picture by BT.2408's mapping (SDR 1.0 at 203 cd/m²,
/// gamma 2.4, BT.709 to BT.2020 in linear light), with the BT.2100 formulas written out again in
/// this file; graded by `colorcube apply` and mapped back to SDR the same way. Skipped without
/// ffmpeg and ffprobe.
@Suite(.enabled(if: ExternalTool.path("ffmpeg") != nil && ExternalTool.path("ffprobe") != nil,
                "ffmpeg and ffprobe are not installed"))
struct HDRVideoCommandTests {
    static let width = 96, height = 64

    // MARK: BT.2100 and BT.2408, from the Recommendations' formulas

    static let toRec2020: [SIMD3<Double>] = [SIMD3(0.6274, 0.3293, 0.0433), SIMD3(0.0691, 0.9195, 0.0114),
                                             SIMD3(0.0164, 0.0880, 0.8956)]
    static let toRec709: [SIMD3<Double>] = [SIMD3(1.6605, -0.5876, -0.0728), SIMD3(-0.1246, 1.1329, -0.0083),
                                            SIMD3(-0.0182, -0.1006, 1.1187)]

    static func multiply(_ m: [SIMD3<Double>], _ v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3((m[0] * v).sum(), (m[1] * v).sum(), (m[2] * v).sum())
    }

    static let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128, c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32

    /// PQ's inverse EOTF: cd/m² to signal.
    static func pqSignal(_ nits: Double) -> Double {
        let y = pow(max(nits, 0) / 10000, m1)
        return pow((c1 + c2 * y) / (1 + c3 * y), m2)
    }

    static func pqNits(_ signal: Double) -> Double {
        let p = pow(max(signal, 0), 1 / m2)
        return 10000 * pow(max(p - c1, 0) / (c2 - c3 * p), 1 / m1)
    }

    static let a = 0.17883277, b = 1 - 4 * 0.17883277, c = 0.5 - 0.17883277 * log(4 * 0.17883277)
    static let hlgWeights = SIMD3<Double>(0.2627, 0.6780, 0.0593)

    /// HLG for display light in cd/m² (BT.2020) on a 1000 cd/m² display: inverse OOTF, then OETF.
    static func hlgSignal(_ display: SIMD3<Double>) -> SIMD3<Double> {
        let y = max((hlgWeights * display).sum() / 1000, 1e-9)
        let scene = display / 1000 * pow(y, (1 - 1.2) / 1.2)
        func oetf(_ e: Double) -> Double { e <= 1.0 / 12 ? (3 * max(e, 0)).squareRoot() : a * log(12 * e - b) + c }
        return SIMD3(oetf(scene.x), oetf(scene.y), oetf(scene.z))
    }

    static func hlgDisplay(_ signal: SIMD3<Double>) -> SIMD3<Double> {
        func inverse(_ v: Double) -> Double { v <= 0.5 ? v * v / 3 : (exp((v - c) / a) + b) / 12 }
        let scene = SIMD3(inverse(signal.x), inverse(signal.y), inverse(signal.z))
        return scene * (1000 * pow(max((hlgWeights * scene).sum(), 1e-9), 0.2))
    }

    /// An SDR code triple (0...1) as the signal of `kind` (pq or hlg).
    static func hdr(_ sdr: SIMD3<Double>, kind: String) -> SIMD3<Double> {
        let linear = SIMD3(pow(sdr.x, 2.4), pow(sdr.y, 2.4), pow(sdr.z, 2.4)) * 203
        let display = multiply(toRec2020, linear)
        if kind == "hlg" { return hlgSignal(display) }
        return SIMD3(pqSignal(display.x), pqSignal(display.y), pqSignal(display.z))
    }

    /// A signal triple of `kind` back to SDR codes (unclamped).
    static func sdr(_ signal: SIMD3<Double>, kind: String) -> SIMD3<Double> {
        let display = kind == "hlg" ? hlgDisplay(signal) : SIMD3(pqNits(signal.x), pqNits(signal.y), pqNits(signal.z))
        let linear = multiply(toRec709, display) / 203
        func code(_ v: Double) -> Double { v < 0 ? -pow(-v, 1 / 2.4) : pow(v, 1 / 2.4) }
        return SIMD3(code(linear.x), code(linear.y), code(linear.z))
    }

    // MARK: Clips

    /// The SDR picture: a grey ramp, hue sweeps at three levels and soft patches, as rgb48le.
    static func sdrPicture() -> [SIMD3<Double>] {
        (0..<height).flatMap { y in
            (0..<width).map { x -> SIMD3<Double> in
                let u = Double(x) / Double(width - 1)
                switch y / 16 {
                case 0: return SIMD3(repeating: u)
                case 1, 2:
                    let level = y / 16 == 1 ? 0.9 : 0.55
                    let hue = u * 6
                    let r = max(0, min(1, abs(hue - 3) - 1)), g = max(0, min(1, 2 - abs(hue - 2))), b = max(0, min(1, 2 - abs(hue - 4)))
                    return SIMD3(0.15 + 0.75 * r, 0.15 + 0.75 * g, 0.15 + 0.75 * b) * level
                default:
                    return SIMD3(0.2 + 0.6 * u, 0.5 - 0.3 * u, 0.3 + 0.2 * Double(y % 16) / 15)
                }
            }
        }
    }

    static func rgb48(_ pixels: [SIMD3<Double>]) -> Data {
        var data = Data(capacity: pixels.count * 6)
        for pixel in pixels {
            for value in [pixel.x, pixel.y, pixel.z] {
                let code = UInt16((min(max(value, 0), 1) * 65535).rounded())
                data.append(UInt8(code & 0xff))
                data.append(UInt8(code >> 8))
            }
        }
        return data
    }

    static func pixels(_ data: Data) -> [SIMD3<Double>] {
        let samples = VideoCommandTests.samples16(data).map { $0 / 65535 }
        return stride(from: 0, to: samples.count - 2, by: 3).map { SIMD3(samples[$0], samples[$0 + 1], samples[$0 + 2]) }
    }

    /// Encodes one frame of rgb48le `frame` (three times) as `path`, YCbCr with the BT.2020 matrix.
    static func encode(_ frame: Data, to path: String, transfer: String, pixelFormat: String = "yuv444p12le",
                       codec: [String] = ["-c:v", "ffv1"], scratch: Scratch) throws {
        let raw = scratch.file("frame-\(transfer).rgb")
        try frame.write(to: URL(fileURLWithPath: raw))
        let result = try ExternalTool.run("ffmpeg", ["-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb48le",
            "-s", "\(width)x\(height)", "-r", "10", "-stream_loop", "2", "-i", raw,
            "-vf", "scale=out_color_matrix=bt2020:out_range=tv:flags=accurate_rnd+full_chroma_int,format=\(pixelFormat)"]
            + codec + ["-color_primaries", "bt2020", "-color_trc", transfer, "-colorspace", "bt2020nc", "-color_range", "tv", path])
        try #require(result.status == 0, "ffmpeg could not make \(path): \(result.stderr)")
    }

    /// An HDR clip of `kind` (pq or hlg) made from `sdrPicture`.
    static func makeClip(kind: String, scratch: Scratch) throws -> String {
        let path = scratch.file("\(kind).mkv")
        let frame = rgb48(sdrPicture().map { hdr($0, kind: kind) })
        try encode(frame, to: path, transfer: kind == "pq" ? "smpte2084" : "arib-std-b67", scratch: scratch)
        return path
    }

    /// The first frame of `path`, decoded with `matrix`, as 0...1 triples.
    static func firstFrame(_ path: String, matrix: String) throws -> [SIMD3<Double>] {
        let data = try VideoCommandTests.decode(path, filter:
            "scale=in_color_matrix=\(matrix):in_range=tv:flags=accurate_rnd+full_chroma_int,format=rgb48le")
        return Array(pixels(data).prefix(width * height))
    }

    /// Makes a clip of `kind` and an exact identity `.cube`, and grades the one by the other with
    /// `arguments` added: the clip, the graded clip and what colorcube said.
    static func gradeWithIdentity(kind: String, scratch: Scratch, _ arguments: [String] = []) throws
        -> (clip: String, graded: String, result: CommandRunner.Result) {
        let clip = try makeClip(kind: kind, scratch: scratch), graded = scratch.file("graded.mkv")
        let look = scratch.file("identity.cube")
        var text = "LUT_3D_SIZE 2\n"
        for b in 0...1 { for g in 0...1 { for r in 0...1 { text += "\(r) \(g) \(b)\n" } } }
        try text.write(toFile: look, atomically: true, encoding: .utf8)
        return (clip, graded, try CommandRunner.run(["apply", look, clip, "-o", graded] + arguments))
    }

    /// True when ffmpeg lists the encoder `name`.
    static func hasEncoder(_ name: String) -> Bool {
        guard let ffmpeg = ExternalTool.path("ffmpeg") else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = ["-hide_banner", "-encoders"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.contains(" \(name) ")
    }

    // MARK: Tests

    /// `--hdr keep` (the default): mapped back to SDR, the output is the look applied to the SDR
    /// source (8x8 block means), the tags and depth are the source's, and a note says what happened.
    @Test(arguments: ["pq", "hlg"])
    func anSDRLookOnAnHDRClipActsAsOnItsSDRRendition(kind: String) throws {
        let scratch = try Scratch()
        let clip = try Self.makeClip(kind: kind, scratch: scratch), graded = scratch.file("graded.mkv")
        let result = try CommandRunner.run(["apply", VideoCommandTests.realLook, clip, "-o", graded])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("SDR rendition") && result.stderr.contains("stays \(kind.uppercased())"), "\(result.stderr)")
        let stream = try #require(try VideoCommandTests.streams(graded).first)
        #expect(stream["color_transfer"] == (kind == "pq" ? "smpte2084" : "arib-std-b67"))
        #expect(stream["color_primaries"] == "bt2020" && stream["pix_fmt"] == "yuv444p12le")

        let sdrFrame = scratch.file("sdr.rgb")
        try Self.rgb48(Self.sdrPicture()).write(to: URL(fileURLWithPath: sdrFrame))
        let reference = try CommandRunner.run(["apply", VideoCommandTests.realLook, "--raw", "\(Self.width)x\(Self.height)",
                                               "--pixel-format", "rgb48le", "-i", sdrFrame])
        #expect(reference.status == 0, "\(reference.stderr)")
        let back = try Self.firstFrame(graded, matrix: "bt2020").map { Self.sdr($0, kind: kind) }
        let expected = Self.pixels(reference.stdout)
        let flat = { (pixels: [SIMD3<Double>]) in pixels.flatMap { [min(max($0.x, 0), 1), min(max($0.y, 0), 1), min(max($0.z, 0), 1)] } }
        let db = try VideoCommandTests.psnr(VideoCommandTests.blockMeans(flat(back), width: Self.width, height: Self.height),
                                            VideoCommandTests.blockMeans(flat(expected), width: Self.width, height: Self.height), peak: 1)
        #expect(db >= 38, "\(kind): block-mean PSNR \(db) dB")
    }

    /// An identity look keeps an HDR clip: the SDR rendition and back changes no code.
    @Test(arguments: ["pq", "hlg"])
    func anIdentityLookKeepsAnHDRClip(kind: String) throws {
        let scratch = try Scratch()
        let (clip, graded, result) = try Self.gradeWithIdentity(kind: kind, scratch: scratch)
        #expect(result.status == 0, "\(result.stderr)")
        let source = VideoCommandTests.samples16(try VideoCommandTests.decodeYCbCr(clip, pixelFormat: "yuv444p12le"))
        let ours = VideoCommandTests.samples16(try VideoCommandTests.decodeYCbCr(graded, pixelFormat: "yuv444p12le"))
        try #require(source.count == ours.count)
        let off = zip(source, ours).filter { $0 != $1 }.count
        #expect(off == 0, "\(kind): \(off) of \(source.count) codes changed")
    }

    /// `--hdr to-sdr` with an identity look gives the SDR source back below the roll-off's knee,
    /// tagged BT.709 at the source's depth; highlights are compressed, never clipped to a flat top.
    @Test(arguments: ["pq", "hlg"])
    func toSDRGivesTheSDRSourceBackBelowTheKnee(kind: String) throws {
        let scratch = try Scratch()
        let (_, graded, result) = try Self.gradeWithIdentity(kind: kind, scratch: scratch, ["--hdr", "to-sdr"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("made SDR (BT.709)"), "\(result.stderr)")
        let stream = try #require(try VideoCommandTests.streams(graded).first)
        #expect(stream["color_transfer"] == "bt709" && stream["color_primaries"] == "bt709" && stream["color_space"] == "bt709")
        #expect(stream["pix_fmt"] == "yuv444p12le")
        let ours = try Self.firstFrame(graded, matrix: "bt709")
        var worst = 0.0
        var ramp: [Double] = []
        for (index, pixel) in Self.sdrPicture().enumerated() {
            let out = ours[index]
            if pixel.max() <= 0.78 { worst = max(worst, largestMagnitude(out - pixel)) }
            if index < Self.width { ramp.append(out.x) }
        }
        #expect(worst <= 3.0 / 255, "\(kind): \(worst * 255) codes off below the knee")
        // The grey ramp rises all the way: the top is rolled off, not flattened.
        #expect(zip(ramp, ramp.dropFirst()).allSatisfy { $1 >= $0 - 1e-4 }, "\(ramp)")
        #expect(ramp[Self.width - 1] > ramp[Self.width - 8] + 0.005, "\(ramp.suffix(8))")
    }

    /// HDR10's static metadata survives `--hdr keep` with libx265, and is dropped (said) by `--hdr to-sdr`.
    @Test(.enabled(if: hasEncoder("libx265"), "ffmpeg lacks libx265"))
    func hdr10MetadataIsKeptWhenTheOutputStaysHDR() throws {
        let scratch = try Scratch()
        let clip = scratch.file("hdr10.mp4")
        let frame = Self.rgb48(Self.sdrPicture().map { Self.hdr($0, kind: "pq") })
        try Self.encode(frame, to: clip, transfer: "smpte2084", pixelFormat: "yuv420p10le", codec: ["-c:v", "libx265", "-x265-params",
            "log-level=error:hdr10=1:master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,1):max-cll=1000,400",
            "-tag:v", "hvc1"], scratch: scratch)
        func sideData(_ path: String) throws -> String {
            try VideoCommandTests.ffprobe(["-v", "error", "-select_streams", "v:0", "-read_intervals", "%+#1", "-show_frames",
                                           "-show_entries", "frame=side_data_list", "-of", "compact", path])
        }
        let kept = scratch.file("kept.mp4"), sdr = scratch.file("sdr.mp4")
        let result = try CommandRunner.run(["apply", VideoCommandTests.realLook, clip, "-o", kept])
        #expect(result.status == 0 && result.stderr.contains("HDR10 metadata kept"), "\(result.stderr)")
        let side = try sideData(kept)
        #expect(side.contains("max_luminance=10000000/10000") && side.contains("red_x=34000/50000"), "\(side)")
        #expect(side.contains("max_content=1000") && side.contains("max_average=400"), "\(side)")
        let toSDR = try CommandRunner.run(["apply", VideoCommandTests.realLook, clip, "-o", sdr, "--hdr", "to-sdr"])
        #expect(toSDR.status == 0 && toSDR.stderr.contains("HDR10 metadata dropped"), "\(toSDR.stderr)")
        #expect(!(try sideData(sdr)).contains("Mastering display"))
    }

    /// A look made for HDR video (`--look-space` an HDR display space) sees the clip's values: an
    /// identity look returns them; photos and SDR clips are refused with one line, nothing written.
    @Test func aLookMadeForHDRSeesTheClipsValuesAndNothingElse() throws {
        let scratch = try Scratch()
        let (clip, graded, result) = try Self.gradeWithIdentity(kind: "pq", scratch: scratch, ["--look-space", "pq_rec2020_display"])
        let look = scratch.file("identity.cube")
        #expect(result.status == 0 && result.stderr.contains("made for HDR"), "\(result.stderr)")
        #expect(try VideoCommandTests.decodeYCbCr(graded, pixelFormat: "yuv444p12le")
            == VideoCommandTests.decodeYCbCr(clip, pixelFormat: "yuv444p12le"))

        let sdrClip = scratch.file("sdr.mkv"), photo = scratch.file("photo.png")
        try VideoCommandTests.makeClip(sdrClip, size: "64x48", frames: 2, matrix: "bt709")
        try #require(try ExternalTool.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=32x32", "-frames:v", "1", photo]).status == 0)
        for input in [sdrClip, photo] {
            let output = scratch.file("out-" + URL(fileURLWithPath: input).lastPathComponent)
            let refused = try CommandRunner.run(["apply", look, input, "-o", output, "--look-space", "pq_rec2020_display"])
            #expect(refused.status == 1 && refused.stderr.contains("expects HDR video"), "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output))
        }
    }
}

/// The largest absolute value of a colour's channels.
private func largestMagnitude(_ value: SIMD3<Double>) -> Double {
    max(abs(value.x), abs(value.y), abs(value.z))
}
