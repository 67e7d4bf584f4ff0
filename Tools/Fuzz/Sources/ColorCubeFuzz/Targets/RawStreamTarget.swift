#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ColorCubeApplier
import ColorCubeEngine
import ColorCubeCore

extension FuzzTarget {
    /// Raw video framing: the first three bytes choose the pixel format and interpolation, the
    /// frame width (1...16) and height (1...16); the rest is the stream, read from an in-memory
    /// file and written to /dev/null. A partial last frame must be an error, never a short write.
    /// The stream's reader and writer are detached threads that let go of its buffers just after
    /// `run` returns, so leaks are checked at exit rather than after each input (where the check
    /// raced with them: 4 reports in 240,000 inputs that replaying never repeated).
    static let rawStream = FuzzTarget(name: "stream", checksLeaksPerInput: false) { bytes in
        guard bytes.count >= 3 else { return }
        let formats = RawPixelFormat.allCases
        let format = formats[Int(bytes[0]) % formats.count]
        let engine = RawStreamEngines.all[Int(bytes[0]) / formats.count % RawStreamEngines.all.count]
        let applier = RawStreamApplier(engine: engine, width: Int(bytes[1] % 16) + 1,
                                       height: Int(bytes[2] % 16) + 1, format: format)
        let stream = UnsafeBufferPointer(rebasing: bytes[3...])
        ScratchFile.withPath(holding: stream) { path in
            let input = open(path, O_RDONLY)
            guard input >= 0 else { fatalError("cannot open the scratch file: errno \(errno)") }
            defer { close(input) }
            let result = Result { () throws(StreamError) -> Int in
                try applier.run(input: input, output: RawStreamEngines.sink)
            }
            guard let frameBytes = applier.frameBytes else { fatalError("frame size refused") }
            // The framing promise: every whole frame written, a partial one reported.
            let frames = stream.count / frameBytes, stray = stream.count % frameBytes
            switch result {
            case .success(let written):
                guard stray == 0, written == frames else {
                    fatalError("\(stream.count) bytes in \(frameBytes)-byte frames: \(written) frames written, no error")
                }
            case .failure(.partialFrame(let strayBytes, let written)):
                guard strayBytes == stray, written == frames else {
                    fatalError("\(stream.count) bytes in \(frameBytes)-byte frames: partial \(strayBytes) after \(written)")
                }
            case .failure(let error):
                fatalError("unexpected stream error: \(error)")
            }
        }
    }
}

/// What every stream input shares: one engine per interpolation over a small look, and /dev/null.
enum RawStreamEngines {
    static let all: [LUTEngine] = Interpolation.allCases.map { interpolation in
        let cube = (try? ColorCube(size: 5) { SIMD3($0.y * $0.z, 1 - $0.x, $0.x * $0.x) }) ?? fallback
        return LUTEngine(cube: cube, interpolation: interpolation, strength: 0.75)
    }

    static let sink: Int32 = {
        let descriptor = open("/dev/null", O_WRONLY)
        guard descriptor >= 0 else { fatalError("cannot open /dev/null: errno \(errno)") }
        return descriptor
    }()

    private static var fallback: ColorCube {
        guard let cube = try? ColorCube.identity(size: 2) else { fatalError("no identity cube") }
        return cube
    }
}
