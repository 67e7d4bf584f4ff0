import Foundation
import Testing

/// Clips whose headers promise more than can be had: one line each, naming the clip and what to
/// do, and nothing allocated for the promise. The clips are small ones FFmpeg makes, with their
/// headers rewritten here. Skipped without ffmpeg and ffprobe.
@Suite(.enabled(if: ExternalTool.path("ffmpeg") != nil && ExternalTool.path("ffprobe") != nil,
                "ffmpeg and ffprobe are not installed"))
struct HostileClipCommandTests {
    /// Two 16x16 Motion JPEG frames in the container `path`'s extension names.
    static func makeMotionJPEG(_ path: String) throws -> [UInt8] {
        let made = try ExternalTool.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=16x16:rate=1",
                                                   "-frames:v", "2", "-c:v", "mjpeg", path])
        try #require(made.status == 0, "ffmpeg could not make \(path): \(made.stderr)")
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Where `pattern` first occurs in `bytes` at or after `start`.
    static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int = 0) -> Int? {
        guard bytes.count >= pattern.count, start <= bytes.count - pattern.count else { return nil }
        return (start...(bytes.count - pattern.count)).first { Array(bytes[$0..<($0 + pattern.count)]) == pattern }
    }

    /// Writes `value` as `width` big-endian bytes at `offset`.
    static func put(_ value: UInt32, width: Int = 4, into bytes: inout [UInt8], at offset: Int) {
        for index in 0..<width { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * (width - 1 - index))) }
    }

    /// Writes `bytes` as the clip `name` and grades it with the identity look into a clip of the
    /// same extension, with `options` added; nothing may be written.
    static func grade(_ bytes: [UInt8], as name: String, in scratch: Scratch,
                      options: [String] = []) throws -> (clip: String, result: CommandRunner.Result) {
        let clip = scratch.file(name), output = scratch.file("graded-" + name)
        try Data(bytes).write(to: URL(fileURLWithPath: clip))
        let result = try CommandRunner.run(["apply", VideoCommandTests.identityLook, clip, "-o", output] + options)
        #expect(result.status == 1)
        #expect(!FileManager.default.fileExists(atPath: output))
        return (clip, result)
    }

    @Test func aClipOfHugeFramesNamesThePixelLimit() throws {
        let scratch = try Scratch()
        var bytes = try Self.makeMotionJPEG(scratch.file("small.mov"))
        // Each frame's start of frame (FF C0: length, precision, height, width) after its FF D8.
        var position = 0
        while let start = Self.find([0xFF, 0xD8, 0xFF], in: bytes, from: position),
              let frame = Self.find([0xFF, 0xC0], in: bytes, from: start) {
            Self.put(32768, width: 2, into: &bytes, at: frame + 5)
            Self.put(32768, width: 2, into: &bytes, at: frame + 7)
            position = frame + 9
        }
        // The track header's width and height (16.16 fixed point, its last 8 bytes) and the sample entry's.
        let track = try #require(Self.find(Array("tkhd".utf8), in: bytes))
        let trackEnd = track - 4 + bytes[(track - 4)..<track].reduce(0) { $0 << 8 | Int($1) }
        Self.put(32768 << 16, into: &bytes, at: trackEnd - 8)
        Self.put(32768 << 16, into: &bytes, at: trackEnd - 4)
        let sampleDescriptions = try #require(Self.find(Array("stsd".utf8), in: bytes))
        let entry = try #require(Self.find(Array("jpeg".utf8), in: bytes, from: sampleDescriptions))
        Self.put(32768, width: 2, into: &bytes, at: entry + 28)
        Self.put(32768, width: 2, into: &bytes, at: entry + 30)

        var (clip, result) = try Self.grade(bytes, as: "huge.mov", in: scratch)
        #expect(result.stderr == "colorcube: error: \(clip): 32768x32768 is 1,073,741,824 pixels, over the limit of 500,000,000 "
            + "pixels; raise the limit with --max-pixels N (or COLORCUBE_MAX_PIXELS=N)\n")
        (clip, result) = try Self.grade(bytes, as: "huge.mov", in: scratch, options: ["--max-pixels", "2000000000"])
        #expect(result.stderr == "colorcube: error: \(clip): its frames are 32768x32768, more than FFmpeg decodes; "
            + "the clip cannot be graded at that size\n")
    }

    /// Frames that declare 16000x16000 (within the pixel limit and FFmpeg's) over 16x16 of data:
    /// the frame's size, the limit, and FFmpeg's reason, in one line.
    @Test func aDamagedFrameWithinTheLimitIsNamedWithItsSize() throws {
        let scratch = try Scratch()
        var bytes = try Self.makeMotionJPEG(scratch.file("small.mov"))
        var position = 0
        while let start = Self.find([0xFF, 0xD8, 0xFF], in: bytes, from: position),
              let frame = Self.find([0xFF, 0xC0], in: bytes, from: start) {
            Self.put(16000, width: 2, into: &bytes, at: frame + 5)
            Self.put(16000, width: 2, into: &bytes, at: frame + 7)
            position = frame + 9
        }
        let track = try #require(Self.find(Array("tkhd".utf8), in: bytes))
        let trackEnd = track - 4 + bytes[(track - 4)..<track].reduce(0) { $0 << 8 | Int($1) }
        Self.put(16000 << 16, into: &bytes, at: trackEnd - 8)
        Self.put(16000 << 16, into: &bytes, at: trackEnd - 4)
        let sampleDescriptions = try #require(Self.find(Array("stsd".utf8), in: bytes))
        let entry = try #require(Self.find(Array("jpeg".utf8), in: bytes, from: sampleDescriptions))
        Self.put(16000, width: 2, into: &bytes, at: entry + 28)
        Self.put(16000, width: 2, into: &bytes, at: entry + 30)
        let (clip, result) = try Self.grade(bytes, as: "damaged.mov", in: scratch)
        #expect(result.stderr == "colorcube: error: \(clip): its first frame, 16000x16000 (256,000,000 pixels, within the limit of "
            + "500,000,000), does not decode (Invalid data found when processing input): the clip is damaged; use an intact copy\n")
    }

    @Test func randomBytesNamedAsAClipAreOneLine() throws {
        let scratch = try Scratch()
        var generator = SystemRandomNumberGenerator()
        var bytes = Array("....ftypisom".utf8)
        bytes += (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let (clip, result) = try Self.grade(bytes, as: "noise.mp4", in: scratch)
        #expect(result.stderr.hasPrefix("colorcube: error: \(clip): cannot read the clip: "), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func anIndexOfTwoBillionEntriesIsOneLine() throws {
        let scratch = try Scratch()
        var bytes = try Self.makeMotionJPEG(scratch.file("small.mp4"))
        // The time-to-sample table's entry count (after its size, type, version and flags): 2^31.
        let table = try #require(Self.find(Array("stts".utf8), in: bytes))
        Self.put(1 << 31, into: &bytes, at: table + 8)
        let (clip, result) = try Self.grade(bytes, as: "index.mp4", in: scratch)
        #expect(result.stderr == "colorcube: error: \(clip): cannot read the clip: its index (the table of its frames) is damaged "
            + "or too large to load (FFmpeg ran out of memory reading it); use an intact copy of the clip\n")
    }

    /// An AVI cut inside its second frame: the demuxer hands over the part it could read, marked as
    /// cut short, and the clip fails in one line naming the stream and the byte.
    @Test func aClipCutInsideAFrameIsOneLine() throws {
        let scratch = try Scratch()
        let bytes = try Self.makeMotionJPEG(scratch.file("small.avi"))
        let data = try #require(Self.find(Array("movi".utf8), in: bytes))
        let first = try #require(Self.find(Array("00dc".utf8), in: bytes, from: data))
        let second = try #require(Self.find(Array("00dc".utf8), in: bytes, from: first + 8))
        let (clip, result) = try Self.grade(Array(bytes.prefix(second + 64)), as: "cut.avi", in: scratch)
        #expect(result.stderr.hasPrefix("colorcube: error: \(clip): decoding failed: stream 0's packet at byte "), "\(result.stderr)")
        #expect(result.stderr.hasSuffix(" ends before its declared size (truncated?)\n"), "\(result.stderr)")
    }

    /// A Matroska clip cut between packets: the demuxer reports no error and the container lists no
    /// frames, so the duration its header declares is the evidence.
    @Test func aMatroskaClipCutBetweenPacketsNamesWhereItsPacketsEnd() throws {
        let scratch = try Scratch()
        let made = try ExternalTool.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=25:duration=4",
                                                   "-c:v", "mjpeg", scratch.file("whole.mkv")])
        try #require(made.status == 0, "\(made.stderr)")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: scratch.file("whole.mkv"))))
        // Cut just before the first cluster after the middle (Matroska's cluster ID, 1F 43 B6 75).
        let cluster = try #require(Self.find([0x1F, 0x43, 0xB6, 0x75], in: bytes, from: bytes.count / 2))
        let (clip, result) = try Self.grade(Array(bytes.prefix(cluster)), as: "cut.mkv", in: scratch)
        #expect(result.stderr.hasPrefix("colorcube: error: \(clip): decoding failed: its packets end at "), "\(result.stderr)")
        #expect(result.stderr.hasSuffix(" of the 4.00 s its container declares (truncated?)\n"), "\(result.stderr)")
    }
}
