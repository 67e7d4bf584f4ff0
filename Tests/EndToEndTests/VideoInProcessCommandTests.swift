import Foundation
import Testing

/// What grading a clip in one process keeps: every frame's time and duration, the file's tags,
/// the rotation and the timecode track; and that no other program is started. Clips are made with
/// ffmpeg and read back with ffprobe (skipped without them).
@Suite(.enabled(if: ExternalTool.path("ffmpeg") != nil && ExternalTool.path("ffprobe") != nil,
                "ffmpeg and ffprobe are not installed"))
struct VideoInProcessCommandTests {
    /// `arguments` for ffprobe's compact output of `path`, one line each.
    static func probe(_ path: String, _ arguments: [String]) throws -> [String] {
        try VideoCommandTests.ffprobe(["-v", "error"] + arguments + ["-of", "csv=p=0", path])
            .split(separator: "\n").map(String.init)
    }

    /// The video's frame times in seconds, in presentation order, and its stream's duration.
    static func timing(_ path: String) throws -> (times: [Double], duration: Double) {
        let times = try probe(path, ["-select_streams", "v:0", "-show_entries", "packet=pts_time"]).compactMap(Double.init).sorted()
        let duration = try #require(try probe(path, ["-select_streams", "v:0", "-show_entries", "stream=duration"]).first.flatMap(Double.init))
        return (times, duration)
    }

    @Test func aVariableFrameRateClipKeepsEveryFramesTimeAndTheLastOnesDuration() throws {
        let scratch = try Scratch()
        let source = scratch.file("vfr.mp4"), graded = scratch.file("graded.mp4")
        // 36 frames, each 1/30 s apart plus a jitter and a slow drift: no two gaps alike.
        let made = try ExternalTool.run("ffmpeg", [
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x240:r=30,setpts='(N/30+0.015*mod(N\\,3)+0.002*N*N/36)/TB'",
            "-frames:v", "36", "-fps_mode", "passthrough", "-enc_time_base", "1/90000", "-c:v", "libx264",
            "-pix_fmt", "yuv420p", source])
        try #require(made.status == 0, "\(made.stderr)")
        let result = try CommandRunner.run(["apply", VideoCommandTests.identityLook, source, "-o", graded])
        #expect(result.status == 0, "\(result.stderr)")
        let before = try Self.timing(source), after = try Self.timing(graded)
        #expect(before.times.count == 36 && after.times.count == 36)
        let worst = zip(before.times, after.times).map { abs($0 - $1) }.max() ?? .infinity
        #expect(worst < 0.001, "a frame moved by \(worst) s")
        #expect(abs(before.duration - after.duration) < 0.001, "stream lasts \(after.duration) s against \(before.duration) s")
    }

    @Test(.enabled(if: ExternalTool.path("strace") != nil, "strace is not installed"))
    func gradingAClipStartsNoOtherProgram() throws {
        let scratch = try Scratch()
        let source = scratch.file("clip.mp4"), trace = scratch.file("trace.txt")
        try VideoCommandTests.makeClip(source, size: "320x240", frames: 4, matrix: "bt709", audio: true)
        // LeakSanitizer cannot run under ptrace: a sanitized build is traced with its leak check off.
        let traced = try ExternalTool.run("strace", ["-f", "-e", "trace=execve", "-E", "ASAN_OPTIONS=detect_leaks=0", "-o", trace,
                                                     CommandRunner.binary, "apply",
                                                     VideoCommandTests.realLook, source, "-o", scratch.file("graded.mp4")])
        #expect(traced.status == 0, "\(traced.stderr)")
        let calls = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").filter { $0.contains("execve(") }
        #expect(calls.count == 1, "\(calls)")
    }

    /// A phone-style MOV: Apple's make, model and location tags, a timecode track, French audio,
    /// and a display matrix for a clip shot upright (its tkhd matrix rewritten here, as ffmpeg 5
    /// cannot set one).
    static func makePhoneClip(_ path: String) throws {
        let made = try ExternalTool.run("ffmpeg", [
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=0.4", "-f", "lavfi", "-i", "sine=d=0.4",
            "-map", "0", "-map", "1", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac",
            "-metadata", "com.apple.quicktime.make=Apple", "-metadata", "com.apple.quicktime.model=iPhone 15",
            "-metadata", "com.apple.quicktime.location.ISO6709=+48.8584+002.2945+035.000/", "-movflags", "use_metadata_tags",
            "-timecode", "01:02:03:04", "-metadata:s:a:0", "language=fra", path])
        try #require(made.status == 0, "\(made.stderr)")
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let tkhd = try #require(HostileClipCommandTests.find(Array("tkhd".utf8), in: bytes))
        let matrix = tkhd + 4 + 4 + (bytes[tkhd + 4] == 1 ? 32 : 20) + 16
        for (index, value) in [0, 1 << 16, 0, UInt32(bitPattern: -1 << 16), 0, 0, 0, 0, 1 << 30].enumerated() {
            HostileClipCommandTests.put(UInt32(value), into: &bytes, at: matrix + 4 * index)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    @Test(arguments: ["mov", "mp4", "mkv"])
    func aPhoneClipKeepsItsTagsRotationAndTimecode(container: String) throws {
        let scratch = try Scratch()
        let source = scratch.file("phone.mov"), graded = scratch.file("graded." + container)
        try Self.makePhoneClip(source)
        let result = try CommandRunner.run(["apply", VideoCommandTests.identityLook, source, "-o", graded])
        #expect(result.status == 0, "\(result.stderr)")
        let tags = try Self.probe(graded, ["-show_entries", "format_tags"]).joined(separator: ",").lowercased()
        for tag in ["apple", "iphone 15", "+48.8584+002.2945+035.000/", "01:02:03:04"] {
            #expect(tags.contains(tag), "\(container) lost \(tag): \(tags)")
        }
        let streams = try Self.probe(graded, ["-show_entries", "stream=codec_type,codec_tag_string:stream_tags=language"])
        #expect(streams.contains("audio,mp4a,fra") || streams.contains("audio,[0][0][0][0],fra"), "\(streams)")
        let rotation = try Self.probe(graded, ["-select_streams", "v:0", "-show_entries", "stream_side_data=rotation"])
        if container == "mkv" {
            #expect(result.stderr.contains("rotation (-90°) was not kept"), "\(result.stderr)")
            #expect(result.stderr.contains("dropped stream 2: a timecode track"), "\(result.stderr)")
        } else {
            #expect(rotation.contains("-90"), "\(container): \(rotation)")
            #expect(streams.contains { $0.hasPrefix("data,tmcd") }, "\(container): \(streams)")
        }
    }
}
