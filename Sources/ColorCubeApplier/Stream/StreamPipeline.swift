#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ColorCubeCore

/// The three stages of a raw stream and the frame buffers they pass around: a reader thread fills
/// free buffers, the caller's thread applies the look (on all cores), a writer thread writes and
/// frees them. Buffers move by index through queues, so each is touched by one stage at a time:
/// the frames are `DisjointRegions` items, held by whichever stage last received their index.
///
/// Reader and writer hold a reference to the pipeline, so its buffers outlive a caller that has
/// stopped early while a thread is still parked in `read` or `write`; `shutDown()` makes both
/// threads leave at their next hand-over.
final class StreamPipeline: Sendable {
    /// What the processing stage hears from the other two.
    enum Event: Sendable {
        /// Buffer `index` holds a complete frame.
        case read(index: Int)
        /// The input ended cleanly after `strayBytes` bytes of an incomplete frame (0 when it
        /// ended on a frame boundary).
        case inputEnded(strayBytes: Int)
        case readFailed(errno: Int32)
        /// Every frame handed to the writer has been written.
        case drained(framesWritten: Int)
        /// The output's reader went away (EPIPE).
        case outputClosed(framesWritten: Int)
        case writeFailed(errno: Int32, framesWritten: Int)
    }

    let frameBytes: Int
    /// The frame buffers in one allocation, `frameBytes` rounded up to whole cache lines apart;
    /// item `index` is buffer `index`.
    let frames: DisjointRegions<UnsafeMutableRawPointer>
    /// Indices of buffers ready to be filled.
    let free: BlockingQueue<Int>
    /// Indices of processed buffers, in frame order; a negative index asks the writer to finish.
    let toWriter = BlockingQueue<Int>()
    /// Events for the processing stage, from both other stages.
    let inbox = BlockingQueue<Event>()

    /// Allocates `bufferCount` frames of `frameBytes` bytes.
    /// - Throws: `StreamError.outOfMemory` when the system refuses the memory (the frame size is
    ///   declared by the user, so this is an error to report, not a reason to crash).
    init(frameBytes: Int, bufferCount: Int) throws(StreamError) {
        self.frameBytes = frameBytes
        // One allocation, each frame starting on a cache line: 64-byte alignment is whole cache
        // lines, and aligned for every sample type.
        let frameStride = (frameBytes + 63) & ~63
        var allocation: UnsafeMutableRawPointer?
        guard posix_memalign(&allocation, 64, frameStride * bufferCount) == 0, let allocation else {
            throw .outOfMemory(frameBytes: frameBytes, frames: bufferCount)
        }
        frames = DisjointRegions(allocation, itemStride: frameStride)
        free = BlockingQueue(Array(0..<bufferCount))
    }

    deinit {
        // No thread holds a frame any more: the pipeline is freed once the last stage has let go.
        releaseFrameBuffer(frames.start(of: 0))
    }

    /// The reader stage: fills free buffers with whole frames until the input ends.
    func readFrames(from input: Int32) {
        while let index = free.pop() {
            let (count, code) = FileDescriptorIO.read(input, into: frames.start(of: index), count: frameBytes)
            if count == frameBytes {
                inbox.push(.read(index: index))
            } else if code != 0 {
                inbox.push(.readFailed(errno: code))
                return
            } else {
                inbox.push(.inputEnded(strayBytes: count))
                return
            }
        }
    }

    /// The writer stage: writes processed buffers in order and hands them back to the reader.
    func writeFrames(to output: Int32) {
        var written = 0
        while let index = toWriter.pop() {
            guard index >= 0 else {
                inbox.push(.drained(framesWritten: written))
                return
            }
            let code = FileDescriptorIO.write(output, from: frames.start(of: index), count: frameBytes)
            if code == EPIPE {
                inbox.push(.outputClosed(framesWritten: written))
                return
            } else if code != 0 {
                inbox.push(.writeFailed(errno: code, framesWritten: written))
                return
            }
            written += 1
            free.push(index)
        }
    }

    /// Makes the reader and writer stop at their next hand-over.
    func shutDown() {
        free.close()
        toWriter.close()
        inbox.close()
    }
}

/// Returns the frame buffers' allocation from `posix_memalign` (outside the pipeline, whose `free` queue would
/// shadow the C function).
private func releaseFrameBuffer(_ allocation: UnsafeMutableRawPointer) {
    free(allocation)
}
