#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ColorCubeCore

/// Why a raw frame stream stopped. Every case that can happen after frames went out says how
/// many complete frames were written first.
///
/// A reader that closes the output early (EPIPE) is not an error: `RawStreamApplier.run` returns
/// normally in that case.
public enum StreamError: ColorCubeError, Equatable {
    /// Width or height not positive, or a frame too large to address.
    case invalidFrameSize(width: Int, height: Int)
    /// The frame size is over the pixel limit; nothing was allocated or read.
    case pixelLimit(PixelLimitError)
    /// The system refused memory for `buffers` buffers of `bufferBytes` bytes; nothing was read.
    case outOfMemory(bufferBytes: Int, buffers: Int)
    /// The input ended `strayBytes` into a frame, after `framesWritten` complete frames. The
    /// incomplete frame's whole pixels were processed and written too in an interleaved format.
    case partialFrame(strayBytes: Int, framesWritten: Int)
    /// `read` failed with `errno`.
    case readFailed(errno: Int32, framesWritten: Int)
    /// `write` failed with `errno` (other than EPIPE).
    case writeFailed(errno: Int32, framesWritten: Int)
    /// The reader or writer thread could not be started (`pthread_create` returned `errno`).
    case threadUnavailable(errno: Int32)

    /// The stream names no file of its own; a pixel-limit refusal names what it checked.
    public var path: String? {
        if case .pixelLimit(let error) = self { return error.path }
        return nil
    }

    public var remedy: ErrorRemedy? {
        switch self {
        case .pixelLimit(let error): error.remedy
        case .partialFrame: .checkFrameFormat
        default: nil
        }
    }

    /// A message for the user: what happened and what to check.
    public var description: String {
        switch self {
        case .invalidFrameSize(let width, let height):
            "invalid frame size \(width)x\(height): width and height must be positive and a frame must fit in memory"
        case .pixelLimit(let error):
            error.description
        case .outOfMemory(let bytes, let buffers):
            "cannot hold \(buffers) buffers of \(bytes) bytes in memory: the system refused the allocation"
        case .partialFrame(let stray, let written):
            "the input ended \(stray) bytes into a frame (\(stray) stray bytes after \(written) complete "
                + (written == 1 ? "frame" : "frames") + "; a file output is not kept, a stream has had the complete ones)"
        case .readFailed(let code, let written):
            "cannot read the input: \(Self.message(code)) (after \(written) frames)"
        case .writeFailed(let code, let written):
            "cannot write the output: \(Self.message(code)) (after \(written) frames)"
        case .threadUnavailable(let code):
            "cannot start a stream thread: \(Self.message(code))"
        }
    }

    private static func message(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
