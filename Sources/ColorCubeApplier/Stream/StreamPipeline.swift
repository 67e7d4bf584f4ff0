#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ColorCubeCore

/// The three stages of a raw stream and the buffers they pass around: a reader thread fills free
/// buffers, the caller's thread applies the look (on all cores), a writer thread writes and frees
/// them. Buffers move by index through queues, so each is touched by one stage at a time: the
/// buffers are `DisjointRegions` items, held by whichever stage last received their index.
///
/// A buffer holds a *piece*: a run of whole pixels of one frame, at most `pieceBytes` long, never
/// spanning two frames. Pieces rather than frames keep the buffers small enough to stay in the
/// processor's cache from read to write, and make memory a few megabytes whatever the frame size.
///
/// Reader and writer hold a reference to the pipeline, so its buffers outlive a caller that has
/// stopped early while a thread is still parked in `read` or `write`; `shutDown()` makes both
/// threads leave at their next hand-over.
final class StreamPipeline: Sendable {
    /// Bytes of one frame in buffer `buffer`.
    struct Piece: Sendable {
        let buffer: Int
        /// Bytes held: `pieceBytes` or the rest of the frame, less only for the input's last,
        /// incomplete piece.
        let bytes: Int
        /// True when this piece completes its frame.
        let endsFrame: Bool
    }

    /// What the processing stage hears from the other two.
    enum Event: Sendable {
        /// A piece was read. An incomplete last piece comes before `inputEnded` or `readFailed`.
        case read(Piece)
        /// The input ended cleanly, `strayBytes` bytes into an incomplete frame (0 when it ended on
        /// a frame boundary).
        case inputEnded(strayBytes: Int)
        case readFailed(errno: Int32)
        /// Every piece handed to the writer has been written.
        case drained(framesWritten: Int)
        /// The output's reader went away (EPIPE).
        case outputClosed(framesWritten: Int)
        case writeFailed(errno: Int32, framesWritten: Int)
    }

    /// What the writer is handed.
    enum Output: Sendable {
        /// Write the first `bytes` bytes of `piece`'s buffer (all of it, or the whole pixels of an
        /// incomplete last piece), then free the buffer.
        case write(Piece, bytes: Int)
        /// Nothing more comes: report `drained`.
        case finish
    }

    let frameBytes: Int
    let pieceBytes: Int
    /// The buffers in one allocation, `pieceBytes` rounded up to whole cache lines apart; item
    /// `index` is buffer `index`.
    let buffers: DisjointRegions<UnsafeMutableRawPointer>
    /// Indices of buffers ready to be filled.
    let free: BlockingQueue<Int>
    /// Processed pieces, in stream order.
    let toWriter = BlockingQueue<Output>()
    /// Events for the processing stage, from both other stages.
    let inbox = BlockingQueue<Event>()

    /// Allocates `bufferCount` buffers of `pieceBytes` bytes for frames of `frameBytes` bytes.
    /// - Throws: `StreamError.outOfMemory` when the system refuses the memory (the sizes come from
    ///   the user, so this is an error to report, not a reason to crash).
    init(frameBytes: Int, pieceBytes: Int, bufferCount: Int) throws(StreamError) {
        self.frameBytes = frameBytes
        self.pieceBytes = pieceBytes
        // Each buffer starts on a cache line: whole cache lines, and aligned for every sample type.
        let stride = (pieceBytes + 63) & ~63
        let (total, overflow) = stride.multipliedReportingOverflow(by: bufferCount)
        var allocation: UnsafeMutableRawPointer?
        guard !overflow, posix_memalign(&allocation, 64, total) == 0, let allocation else {
            throw .outOfMemory(bufferBytes: pieceBytes, buffers: bufferCount)
        }
        buffers = DisjointRegions(allocation, itemStride: stride)
        free = BlockingQueue(Array(0..<bufferCount))
    }

    deinit {
        // No thread holds a buffer any more: the pipeline is freed once the last stage has let go.
        releaseBuffers(buffers.start(of: 0))
    }

    /// The reader stage: fills free buffers with the frames' pieces until the input ends.
    func readPieces(from input: Int32) {
        var frameOffset = 0
        while let index = free.pop() {
            let wanted = min(pieceBytes, frameBytes - frameOffset)
            let (count, code) = FileDescriptorIO.read(input, into: buffers.start(of: index), count: wanted)
            if count == wanted {
                frameOffset += count
                let endsFrame = frameOffset == frameBytes
                if endsFrame { frameOffset = 0 }
                inbox.push(.read(Piece(buffer: index, bytes: count, endsFrame: endsFrame)))
                continue
            }
            if count > 0 {
                inbox.push(.read(Piece(buffer: index, bytes: count, endsFrame: false)))
            }
            inbox.push(code != 0 ? .readFailed(errno: code) : .inputEnded(strayBytes: frameOffset + count))
            return
        }
    }

    /// The writer stage: writes processed pieces in order and hands their buffers back.
    func writePieces(to output: Int32) {
        var framesWritten = 0
        while let item = toWriter.pop() {
            guard case .write(let piece, let bytes) = item else {
                inbox.push(.drained(framesWritten: framesWritten))
                return
            }
            let code = FileDescriptorIO.write(output, from: buffers.start(of: piece.buffer), count: bytes)
            if code == EPIPE {
                inbox.push(.outputClosed(framesWritten: framesWritten))
                return
            } else if code != 0 {
                inbox.push(.writeFailed(errno: code, framesWritten: framesWritten))
                return
            }
            if piece.endsFrame { framesWritten += 1 }
            free.push(piece.buffer)
        }
    }

    /// Makes the reader and writer stop at their next hand-over.
    func shutDown() {
        free.close()
        toWriter.close()
        inbox.close()
    }
}

/// Returns the buffers' allocation from `posix_memalign` (outside the pipeline, whose `free` queue
/// would shadow the C function).
private func releaseBuffers(_ allocation: UnsafeMutableRawPointer) {
    free(allocation)
}
