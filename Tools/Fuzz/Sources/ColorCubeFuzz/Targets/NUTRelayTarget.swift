#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ColorCubeApplier

extension FuzzTarget {
    /// The NUT relay between the two ffmpeg processes of `apply` on a video clip: the first two
    /// bytes (little-endian, modulo 8192) are the frame size the relay expects, the rest is the
    /// NUT stream, read from an in-memory file and relayed to another. Frames are passed through
    /// untouched, so the relay's promise can be checked whole: the output is always a prefix of
    /// the stream, and all of it when the relay succeeds.
    static let nutRelay = FuzzTarget(name: "nut") { bytes in
        guard bytes.count >= 2 else { return }
        let frameBytes = (Int(bytes[0]) | Int(bytes[1]) << 8) % 8192
        let stream = UnsafeBufferPointer(rebasing: bytes[2...])
        ScratchFile.withPath(holding: stream) { path in
            let input = open(path, O_RDONLY)
            guard input >= 0 else { fatalError("cannot open the scratch file: errno \(errno)") }
            defer { close(input) }
            let output = RelayOutput.descriptor
            guard ftruncate(output, 0) == 0, lseek(output, 0, SEEK_SET) == 0 else { fatalError("cannot reset the output") }
            let relay = NUTFrameRelay(input: input, output: output, frameBytes: frameBytes)
            var frames = 0
            let result = Result { () throws(NUTFrameRelay.RelayError) -> Int in
                try relay.run { _, index in
                    guard index == frames else { fatalError("frame \(index) handed over after \(frames)") }
                    frames += 1
                }
            }
            let written = Int(lseek(output, 0, SEEK_END))
            var relayed = [UInt8](repeating: 0, count: max(written, 0))
            guard written >= 0, relayed.withUnsafeMutableBytes({ pread(output, $0.baseAddress, written, 0) }) == written else {
                fatalError("cannot read the output back")
            }
            guard written <= stream.count, relayed.elementsEqual(stream.prefix(written)) else {
                fatalError("the relay wrote \(written) bytes that are not a prefix of the \(stream.count)-byte stream")
            }
            switch result {
            case .success(let count):
                guard count == frames, written == stream.count else {
                    fatalError("success after \(written) of \(stream.count) bytes, \(count) frames counted, \(frames) handed over")
                }
            case .failure(.readFailed(let code)), .failure(.writeFailed(let code)):
                fatalError("input/output error \(code) on in-memory files")
            case .failure:
                break  // malformed or truncated: the expected answer to a hostile stream
            }
        }
    }
}

/// A second in-memory file, for what the relay writes.
private enum RelayOutput {
    static let descriptor: Int32 = {
        let name = "/dev/shm/colorcube-fuzz-nut-\(getpid())"
        let descriptor = open(name, O_RDWR | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { fatalError("cannot create \(name): errno \(errno)") }
        unlink(name)
        return descriptor
    }()
}
