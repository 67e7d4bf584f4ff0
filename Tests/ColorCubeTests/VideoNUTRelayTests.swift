#if canImport(Glibc)
import Glibc
#endif
import ColorCubeApplier
import Foundation
import Testing

/// The NUT relay on the fuzz seeds (Tests/FuzzCorpus/nut: two bytes of frame size, little-endian,
/// then a stream ffmpeg wrote with `-c:v rawvideo -f nut`): no FFmpeg needed.
@Suite struct VideoNUTRelayTests {
    /// Relays the seed `name` from one file to another, inverting every pixel byte.
    /// - Returns: the input stream, what was written, and the relay's result.
    static func relay(_ name: String) throws -> (stream: [UInt8], written: [UInt8], result: Result<Int, NUTFrameRelay.RelayError>) {
        let seed = [UInt8](try Data(contentsOf: URL(fileURLWithPath: FuzzCorpus.path("nut", name))))
        try #require(seed.count > 2)
        let folder = try TemporaryDirectory()
        let stream = Array(seed[2...])
        try Data(stream).write(to: URL(fileURLWithPath: folder.file("in.nut")))
        let input = open(folder.file("in.nut"), O_RDONLY), output = open(folder.file("out.nut"), O_WRONLY | O_CREAT, 0o600)
        defer { close(input); close(output) }
        let relay = NUTFrameRelay(input: input, output: output, frameBytes: Int(seed[0]) | Int(seed[1]) << 8)
        let result = Result { () throws(NUTFrameRelay.RelayError) -> Int in
            try relay.run { frame, _ in
                let bytes = frame.assumingMemoryBound(to: UInt8.self)
                for index in 0..<relay.frameBytes { bytes[index] = ~bytes[index] }
            }
        }
        let written = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder.file("out.nut"))))
        return (stream, written, result)
    }

    @Test(arguments: [("rgb24-4x4-3frames", 3), ("yuv420p10le-6x4-2frames", 2), ("yuv420p-2x2-vfr", 4),
                      ("rgb48le-2x2-copyts", 2)])
    func ffmpegsStreamsAreRelayedWithOnlyThePixelsChanged(name: String, frames: Int) throws {
        let (stream, written, result) = try Self.relay(name)
        #expect(try result.get() == frames)
        try #require(written.count == stream.count)
        let changed = zip(stream, written).filter { $0 != $1 }.count
        // Every pixel byte inverted, so changed; nothing else.
        let frameBytes = try Data(contentsOf: URL(fileURLWithPath: FuzzCorpus.path("nut", name))).prefix(2)
        let pixelBytes = (Int(frameBytes[0]) | Int(frameBytes[1]) << 8) * frames
        #expect(changed == pixelBytes)
    }

    /// Found by fuzzing: a frame code table whose count, or a frame whose size, overflowed Int
    /// and trapped. Now refused as malformed, with what was relayed before a prefix of the stream.
    @Test(arguments: ["crash-code-table-count", "crash-frame-size-1", "crash-frame-size-2"])
    func overflowingCountsAndSizesAreMalformed(name: String) throws {
        let (stream, written, result) = try Self.relay(name)
        #expect(throws: NUTFrameRelay.RelayError.self) { try result.get() }
        if case .failure(let error) = result, case .malformed = error {} else {
            Issue.record("expected .malformed, got \(result)")
        }
        #expect(written.count <= stream.count && written.elementsEqual(stream.prefix(written.count)))
    }
}
