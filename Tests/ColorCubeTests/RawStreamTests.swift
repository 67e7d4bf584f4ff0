import ColorCubeApplier
import ColorCubeEngine
import ColorCubeCore
import Dispatch
import Foundation
import Testing

/// Frames through `RawStreamApplier` on real file descriptors: files, pipes that dribble, a
/// reader that goes away, and ffmpeg's lut3d when it is installed.
@Suite struct RawStreamTests {
    static let width = 37, height = 23

    static func engine(_ interpolation: Interpolation = .trilinear) throws -> LUTEngine {
        LUTEngine(cube: try ColorCube(size: 17, sampling: lutTestLook), interpolation: interpolation)
    }

    /// Random frames in `format`; Float samples spread over -0.2...1.2 (with a NaN) unless
    /// `unitRange`, to exercise the clamp.
    static func frames(_ format: RawPixelFormat, count: Int, seed: UInt64, unitRange: Bool = false) -> [UInt8] {
        var generator = TestRandom(seed: seed)
        let bytes = width * height * format.bytesPerPixel * count
        guard format == .gbrpf32le else {
            return (0..<bytes).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        }
        var values = (0..<(bytes / 4)).map { _ in
            unitRange ? Float(generator.unit()) : Float(generator.unit() * 1.4 - 0.2)
        }
        if !unitRange { values[5] = .nan }
        return values.flatMap { value -> [UInt8] in
            let bits = value.bitPattern.littleEndian
            return [UInt8(truncatingIfNeeded: bits), UInt8(truncatingIfNeeded: bits >> 8),
                    UInt8(truncatingIfNeeded: bits >> 16), UInt8(truncatingIfNeeded: bits >> 24)]
        }
    }

    /// Runs the stream from a file holding `input` to a file; returns the result and the output.
    static func run(_ applier: RawStreamApplier, input: [UInt8]) throws -> (Result<Int, StreamError>, [UInt8]) {
        let folder = try TemporaryDirectory()
        let inputPath = folder.file("in.raw"), outputPath = folder.file("out.raw")
        try Data(input).write(to: URL(fileURLWithPath: inputPath))
        let inputDescriptor = open(inputPath, O_RDONLY)
        let outputDescriptor = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer { close(inputDescriptor); close(outputDescriptor) }
        let result = Result { () throws(StreamError) -> Int in
            try applier.run(input: inputDescriptor, output: outputDescriptor)
        }
        return (result, [UInt8](try Data(contentsOf: URL(fileURLWithPath: outputPath))))
    }

    // MARK: Formats

    /// Each pixel of each format against the scalar reference: within one code value for
    /// integers, Float32 error for floats; alpha untouched.
    @Test(arguments: RawPixelFormat.allCases)
    func everyFormatMatchesTheReference(format: RawPixelFormat) throws {
        let applier = RawStreamApplier(engine: try Self.engine(), width: Self.width, height: Self.height, format: format)
        let input = Self.frames(format, count: 2, seed: 42)
        let (result, output) = try Self.run(applier, input: input)
        #expect(try result.get() == 2)
        #expect(output.count == input.count)
        let reference = LUTScalarReference(cube: try ColorCube(size: 17, sampling: lutTestLook), interpolation: .trilinear)
        let pixels = Self.width * Self.height
        for frame in 0..<2 {
            let base = frame * pixels * format.bytesPerPixel
            for pixel in 0..<pixels {
                let inRGB = Self.pixel(input, base: base, index: pixel, pixels: pixels, format: format)
                let outRGB = Self.pixel(output, base: base, index: pixel, pixels: pixels, format: format)
                let look = reference.sample(inRGB.0, inRGB.1, inRGB.2)
                switch format {
                case .gbrpf32le:
                    #expect(abs(outRGB.0 - look.0) < 1e-5 && abs(outRGB.1 - look.1) < 1e-5 && abs(outRGB.2 - look.2) < 1e-5)
                case .rgb48le, .rgba64le:
                    let expected = [code16(look.0), code16(look.1), code16(look.2)]
                    let actual = [outRGB.0, outRGB.1, outRGB.2].map { Int(($0 * 65535).rounded()) }
                    #expect(zip(expected, actual).allSatisfy { abs($0 - $1) <= 1 })
                default:
                    let expected = [code8(look.0), code8(look.1), code8(look.2)]
                    let actual = [outRGB.0, outRGB.1, outRGB.2].map { Int(($0 * 255).rounded()) }
                    #expect(zip(expected, actual).allSatisfy { abs($0 - $1) <= 1 })
                }
            }
            if format == .rgba || format == .bgra {
                #expect((0..<pixels).allSatisfy { output[base + 4 * $0 + 3] == input[base + 4 * $0 + 3] })
            } else if format == .rgba64le {
                #expect((0..<pixels).allSatisfy {
                    output[base + 8 * $0 + 6] == input[base + 8 * $0 + 6] && output[base + 8 * $0 + 7] == input[base + 8 * $0 + 7]
                })
            }
        }
    }

    /// Red, green and blue of one pixel in 0...1 (Float samples as they are), read by the test's
    /// own understanding of ffmpeg's layouts.
    static func pixel(_ bytes: [UInt8], base: Int, index: Int, pixels: Int, format: RawPixelFormat) -> (Double, Double, Double) {
        func u16(_ offset: Int) -> Double { Double(Int(bytes[offset]) | Int(bytes[offset + 1]) << 8) / 65535 }
        func f32(_ offset: Int) -> Double {
            let bits = UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
                | UInt32(bytes[offset + 3]) << 24
            return Double(Float(bitPattern: bits))
        }
        let p = base + index * format.bytesPerPixel
        switch format {
        case .rgb24, .rgba: return (Double(bytes[p]) / 255, Double(bytes[p + 1]) / 255, Double(bytes[p + 2]) / 255)
        case .bgr24, .bgra: return (Double(bytes[p + 2]) / 255, Double(bytes[p + 1]) / 255, Double(bytes[p]) / 255)
        case .rgb48le, .rgba64le: return (u16(p), u16(p + 2), u16(p + 4))
        case .gbrpf32le:
            let g = base + 4 * index, b = g + 4 * pixels, r = b + 4 * pixels
            return (f32(r), f32(g), f32(b))
        }
    }

    static let ffmpeg: String? = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg", "/opt/homebrew/bin/ffmpeg"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The same frames through ffmpeg's lut3d with the same cube: within one code value (ffmpeg
    /// truncates where we round), Float within 1e-4.
    @Test(.enabled(if: ffmpeg != nil, "ffmpeg is not installed"), arguments: RawPixelFormat.allCases)
    func everyFormatMatchesFFmpeg(format: RawPixelFormat) throws {
        let ffmpeg = try #require(Self.ffmpeg)
        let cube = try ColorCube(size: 17, sampling: lutTestLook)
        let applier = RawStreamApplier(engine: LUTEngine(cube: cube), width: Self.width, height: Self.height, format: format)
        let input = Self.frames(format, count: 2, seed: 99, unitRange: true)
        let (result, ours) = try Self.run(applier, input: input)
        #expect(try result.get() == 2)

        let folder = try TemporaryDirectory()
        var text = "LUT_3D_SIZE 17\n"
        for index in 0..<(17 * 17 * 17) {
            let entry = cube.entry(at: index)
            text += String(format: "%.9f %.9f %.9f\n", entry.x, entry.y, entry.z)
        }
        try text.write(toFile: folder.file("look.cube"), atomically: true, encoding: .utf8)
        try Data(input).write(to: URL(fileURLWithPath: folder.file("in.raw")))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = ["-v", "error", "-f", "rawvideo", "-pix_fmt", format.rawValue, "-s", "\(Self.width)x\(Self.height)",
                             "-i", folder.file("in.raw"), "-vf", "lut3d=file=\(folder.file("look.cube")):interp=trilinear",
                             "-f", "rawvideo", "-pix_fmt", format.rawValue, "-y", folder.file("out.raw")]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let theirs = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder.file("out.raw"))))
        try #require(theirs.count == ours.count)
        let pixels = Self.width * Self.height
        var worst = 0.0
        for frame in 0..<2 {
            let base = frame * pixels * format.bytesPerPixel
            for pixel in 0..<pixels {
                let a = Self.pixel(ours, base: base, index: pixel, pixels: pixels, format: format)
                let b = Self.pixel(theirs, base: base, index: pixel, pixels: pixels, format: format)
                let scale: Double = switch format {
                case .gbrpf32le: 1
                case .rgb48le, .rgba64le: 65535
                default: 255
                }
                worst = max(worst, abs(a.0 - b.0) * scale, abs(a.1 - b.1) * scale, abs(a.2 - b.2) * scale)
            }
        }
        #expect(worst <= (format == .gbrpf32le ? 1e-4 : 1.0 + 1e-9), "largest difference \(worst)")
    }

    // MARK: Pipes

    /// A writer that delivers a few bytes at a time, with pauses: frames still come out whole
    /// and identical to those read from a file.
    /// Named files: the frames go from one to the other; a folder or a missing input, and an
    /// output in a missing folder, are `FileError`s naming the file, with nothing read.
    @Test func namedFilesAreOpenedOrRefusedByName() throws {
        let folder = try TemporaryDirectory()
        let applier = RawStreamApplier(engine: try Self.engine(), width: Self.width, height: Self.height, format: .rgb24)
        let frames = Self.frames(.rgb24, count: 2, seed: 7)
        let input = folder.file("in.raw"), output = folder.file("out.raw")
        try Data(frames).write(to: URL(fileURLWithPath: input))
        #expect(try applier.run(inputPath: input, outputPath: output) == 2)
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)).count == frames.count)
        #expect(throws: FileError.cannotOpen(path: folder.path, reason: "it is a folder; give a file of raw frames")) {
            try applier.run(inputPath: folder.path, outputPath: output)
        }
        #expect(throws: FileError.cannotOpen(path: folder.file("missing.raw"), reason: "No such file or directory")) {
            try applier.run(inputPath: folder.file("missing.raw"), outputPath: output)
        }
        #expect(throws: FileError.cannotCreate(path: folder.file("no/out.raw"), reason: "No such file or directory")) {
            try applier.run(inputPath: input, outputPath: folder.file("no/out.raw"))
        }
    }

    @Test func shortReadsAreWaitedOut() throws {
        let applier = RawStreamApplier(engine: try Self.engine(), width: Self.width, height: Self.height, format: .rgb24)
        let input = Self.frames(.rgb24, count: 3, seed: 7)
        let (expected, expectedOutput) = try Self.run(applier, input: input)
        #expect(try expected.get() == 3)

        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        let (readEnd, writeEnd) = (fds[0], fds[1])
        let folder = try TemporaryDirectory()
        let outputDescriptor = open(folder.file("out.raw"), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let writer = Thread {
            var generator = TestRandom(seed: 1)
            var offset = 0
            input.withUnsafeBytes { bytes in
                while offset < bytes.count {
                    let chunk = min(Int(generator.next() % 700) + 1, bytes.count - offset)
                    offset += max(0, write(writeEnd, bytes.baseAddress! + offset, chunk))
                    if generator.next() % 8 == 0 { usleep(300) }
                }
            }
            close(writeEnd)
        }
        writer.start()
        let frames = try applier.run(input: readEnd, output: outputDescriptor)
        close(readEnd)
        close(outputDescriptor)
        #expect(frames == 3)
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: folder.file("out.raw")))) == expectedOutput)
    }

    /// Input that ends inside a frame: the complete frames are written and nothing of the
    /// incomplete one, then the error gives the stray byte count.
    @Test func partialFrameIsReportedAfterTheCompleteOnes() throws {
        let applier = RawStreamApplier(engine: try Self.engine(), width: Self.width, height: Self.height, format: .rgba)
        let frameBytes = Self.width * Self.height * 4
        let input = Self.frames(.rgba, count: 2, seed: 3) + [1, 2, 3, 4, 5]
        let (result, output) = try Self.run(applier, input: input)
        #expect(throws: StreamError.partialFrame(strayBytes: 5, framesWritten: 2)) { try result.get() }
        #expect(output.count == 2 * frameBytes)
        let (whole, _) = try Self.run(applier, input: Array(input[0..<(2 * frameBytes + 4)]))
        #expect(throws: StreamError.partialFrame(strayBytes: 4, framesWritten: 2)) { try whole.get() }

        let planar = RawStreamApplier(engine: try Self.engine(), width: Self.width, height: Self.height, format: .gbrpf32le)
        let planarBytes = Self.width * Self.height * 12
        let (planarResult, planarOutput) = try Self.run(planar, input: Self.frames(.gbrpf32le, count: 1, seed: 3) + [0, 0, 0, 0])
        #expect(throws: StreamError.partialFrame(strayBytes: 4, framesWritten: 1)) { try planarResult.get() }
        #expect(planarOutput.count == planarBytes)
        #expect(StreamError.partialFrame(strayBytes: 5, framesWritten: 2).description.contains("5 stray bytes"))
    }

    /// Frames larger than a piece travel in several pieces (the last one shorter): the output is
    /// the frames processed whole, and of an input that ends in a frame's second piece only the
    /// frame before it is written.
    @Test(arguments: [RawPixelFormat.rgb24, .rgb48le])
    func framesLargerThanAPieceArePiecedTogether(format: RawPixelFormat) throws {
        let width = 1600, height = 1000
        let frameBytes = width * height * format.bytesPerPixel
        #expect(frameBytes > RawStreamApplier.pieceBytes)
        let applier = RawStreamApplier(engine: try Self.engine(), width: width, height: height, format: format)
        var generator = TestRandom(seed: 11)
        let input = (0..<(2 * frameBytes)).map { _ in UInt8(truncatingIfNeeded: generator.next() >> 7) }
        var expected = input
        expected.withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            applier.apply(toFrame: base)
            applier.apply(toFrame: base + frameBytes)
        }
        let (result, output) = try Self.run(applier, input: input)
        #expect(try result.get() == 2)
        #expect(output.count == expected.count)
        #expect(output.indices.first { output[$0] != expected[$0] } == nil)

        let piece = RawStreamApplier.pieceBytes / format.bytesPerPixel * format.bytesPerPixel
        let cut = frameBytes + piece + 2 * format.bytesPerPixel + 1
        let (partial, partialOutput) = try Self.run(applier, input: Array(input[0..<cut]))
        #expect(throws: StreamError.partialFrame(strayBytes: cut - frameBytes, framesWritten: 1)) { try partial.get() }
        #expect(partialOutput.count == frameBytes)
        #expect(partialOutput.indices.first { partialOutput[$0] != expected[$0] } == nil)
    }

    @Test func emptyInputWritesNothing() throws {
        let applier = RawStreamApplier(engine: try Self.engine(), width: Self.width, height: Self.height, format: .rgb24)
        let (result, output) = try Self.run(applier, input: [])
        #expect(try result.get() == 0)
        #expect(output.isEmpty)
    }

    /// The output's reader closes while the input stalls (a producer that keeps the pipe open
    /// and sends nothing more): `run` returns promptly and quietly, without SIGPIPE.
    @Test func earlyClosedReaderEndsTheRunQuietly() throws {
        let applier = RawStreamApplier(engine: try Self.engine(), width: 300, height: 300, format: .rgb24)
        var inputPipe: [Int32] = [0, 0], outputPipe: [Int32] = [0, 0]
        try #require(pipe(&inputPipe) == 0 && pipe(&outputPipe) == 0)
        let input = inputPipe, output = outputPipe
        // One frame plus a little, then silence with the write end held open.
        let frameBytes = 300 * 300 * 3
        let feeder = Thread {
            let bytes = [UInt8](repeating: 128, count: frameBytes + 10)
            bytes.withUnsafeBytes { _ = write(input[1], $0.baseAddress!, $0.count) }
        }
        feeder.start()
        // A reader that takes 1000 bytes (as `head -c 1000` would) and goes away.
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 1000)
            var taken = 0
            while taken < 1000 {
                let count = buffer.withUnsafeMutableBytes { read(output[0], $0.baseAddress! + taken, 1000 - taken) }
                if count <= 0 { break }
                taken += count
            }
            close(output[0])
        }
        reader.start()
        let finished = DispatchSemaphore(value: 0)
        let box = ResultBox()
        Thread {
            box.result = Result { () throws(StreamError) -> Int in try applier.run(input: input[0], output: output[1]) }
            finished.signal()
        }.start()
        let timedOut = finished.wait(timeout: .now() + 20) == .timedOut
        #expect(!timedOut, "run did not return after the reader closed")
        if !timedOut { #expect(try box.result?.get() == 0) }
        close(input[1])
        close(output[1])
        close(input[0])
    }

    // MARK: Errors

    @Test func invalidFrameSizesAreRejected() throws {
        let engine = try Self.engine()
        #expect(throws: StreamError.invalidFrameSize(width: 0, height: 5)) {
            try RawStreamApplier(engine: engine, width: 0, height: 5, format: .rgb24).run(input: 0, output: 1)
        }
        // Without a limit in the way, a frame too large to address is invalid...
        #expect(throws: StreamError.invalidFrameSize(width: 1 << 20, height: 1 << 20)) {
            try RawStreamApplier(engine: engine, width: 1 << 20, height: 1 << 20, format: .rgb24,
                                 pixelLimit: PixelLimit(maxPixels: .max)).run(input: 0, output: 1)
        }
        // ...and with the default limit it is refused as too many pixels.
        #expect(throws: StreamError.pixelLimit(.tooManyPixels(path: "raw frames", width: 1 << 40, height: 1 << 40,
                                                               limit: 500_000_000))) {
            try RawStreamApplier(engine: engine, width: 1 << 40, height: 1 << 40, format: .rgb24).run(input: 0, output: 1)
        }
    }

    @Test func framesOverThePixelLimitAreRefusedBeforeReading() throws {
        let engine = try Self.engine()
        let applier = RawStreamApplier(engine: engine, width: 100_000, height: 100_000, format: .rgb24, name: "clip.raw")
        let expected = StreamError.pixelLimit(.tooManyPixels(path: "clip.raw", width: 100_000, height: 100_000,
                                                             limit: PixelLimit.defaultMaxPixels))
        // Descriptor -1: a run that got as far as reading would fail with a read error instead.
        #expect(throws: expected) { try applier.run(input: -1, output: -1) }
        #expect(expected.remedy == .raisePixelLimit)
        #expect(expected.path == "clip.raw")
        #expect(expected.description
            == "clip.raw: 100000x100000 is 10,000,000,000 pixels, over the limit of 500,000,000 pixels")
        // A frame exactly at the limit passes the check.
        let atLimit = RawStreamApplier(engine: engine, width: 2, height: 2, format: .rgb24, pixelLimit: PixelLimit(maxPixels: 4))
        #expect(try Self.run(atLimit, input: []).0.get() == 0)
    }

    /// Memory the system refuses (more than this machine has, with the kernel's default overcommit
    /// heuristic) is reported as an error, not a crash: a planar frame is held whole.
    @Test(.enabled(if: (try? String(contentsOfFile: "/proc/sys/vm/overcommit_memory", encoding: .utf8))?.hasPrefix("1") == false,
                   "the kernel grants any allocation (overcommit_memory = 1)"))
    func refusedFrameMemoryIsAnError() throws {
        // 2^18 x 2^18 gbrpf32le frames are 768 GiB each.
        let applier = RawStreamApplier(engine: try Self.engine(), width: 1 << 18, height: 1 << 18, format: .gbrpf32le,
                                       pixelLimit: PixelLimit(maxPixels: .max))
        #expect(throws: StreamError.outOfMemory(bufferBytes: 12 << 36, buffers: RawStreamApplier.bufferCount)) {
            try applier.run(input: -1, output: -1)
        }
    }

    @Test func readErrorsAreReported() throws {
        let folder = try TemporaryDirectory()
        let directory = open(folder.path, O_RDONLY)
        defer { close(directory) }
        let output = open(folder.file("out.raw"), O_WRONLY | O_CREAT, 0o644)
        defer { close(output) }
        let applier = RawStreamApplier(engine: try Self.engine(), width: 4, height: 4, format: .rgb24)
        #expect(throws: StreamError.readFailed(errno: EISDIR, framesWritten: 0)) {
            try applier.run(input: directory, output: output)
        }
    }

    @Test func writeErrorsAreReported() throws {
        let folder = try TemporaryDirectory()
        try Data(count: 48).write(to: URL(fileURLWithPath: folder.file("in.raw")))
        let input = open(folder.file("in.raw"), O_RDONLY)
        let readOnly = open(folder.file("in.raw"), O_RDONLY)
        defer { close(input); close(readOnly) }
        let applier = RawStreamApplier(engine: try Self.engine(), width: 4, height: 4, format: .rgb24)
        #expect(throws: StreamError.writeFailed(errno: EBADF, framesWritten: 0)) {
            try applier.run(input: input, output: readOnly)
        }
    }

    @Test func formatsHaveFFmpegSizes() {
        #expect(RawPixelFormat.allCases.map(\.bytesPerPixel) == [3, 3, 4, 4, 6, 8, 12])
        #expect(RawPixelFormat(rawValue: "gbrpf32le") == .gbrpf32le)
    }
}

/// Carries a result out of a thread.
private final class ResultBox: @unchecked Sendable {
    var result: Result<Int, StreamError>?
}
