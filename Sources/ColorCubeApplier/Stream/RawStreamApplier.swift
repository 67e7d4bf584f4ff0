#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ColorCubeCore
import ColorCubeEngine
import ColorCubeImaging

/// Applies a look to a stream of raw video frames, as piped from and to ffmpeg
/// (`-f rawvideo -pix_fmt FMT`): frames of exactly `width * height * format.bytesPerPixel`
/// bytes are read, processed and written in order.
///
/// Frames travel in pieces of at most `pieceBytes` (whole pixels, never two frames in one), so a
/// piece stays in the processor's cache from read to write. Only whole frames are written (a
/// frame's pieces wait for its last one), so memory is one frame and two pieces, or
/// `bufferCount` pieces for frames of fewer, whatever the stream's length. Reading the next piece
/// overlaps with processing the current one (a reader thread) and with writing the previous one (a
/// writer thread); each piece is split across all cores. Short reads and stalls are waited out.
/// The planar format is processed a whole frame at a time, as its planes are apart.
public struct RawStreamApplier: Sendable {
    /// Pieces held in memory at once: one being read, one processed, the rest being written.
    public static let bufferCount = 4
    /// The largest piece of an interleaved frame, in bytes (rounded down to whole pixels).
    public static let pieceBytes = 4 << 20

    /// The look, interpolation and strength applied to every frame.
    public let engine: LUTEngine
    /// Frame width in pixels.
    public let width: Int
    /// Frame height in pixels.
    public let height: Int
    /// The frames' layout.
    public let format: RawPixelFormat
    /// The largest frame `run` accepts, checked before any buffer is allocated.
    public let pixelLimit: PixelLimit
    /// What the stream is called in a pixel-limit refusal (the input file, or "standard input").
    public let name: String
    /// How `apply(toFrame:)` rounds the look's result on 8-bit frames; `run` always rounds to
    /// nearest (it grades pieces of frames, not whole ones).
    public var dither: Dither = .none
    /// The look's own precision in output units (`Transform.nodePrecision()`): when dithering, a
    /// colour the look moves by less than this keeps its code.
    public var lookPrecision: Double = 0

    /// - Parameters:
    ///   - engine: the look, interpolation and strength to apply.
    ///   - width, height: the frame size in pixels; checked by `run` (see `frameBytes`).
    ///   - format: the frame layout, as ffmpeg names it.
    ///   - pixelLimit: the largest frame accepted.
    ///   - name: names the stream in a pixel-limit refusal.
    public init(engine: LUTEngine, width: Int, height: Int, format: RawPixelFormat,
                pixelLimit: PixelLimit = .default, name: String = "raw frames") {
        self.engine = engine
        self.width = width
        self.height = height
        self.format = format
        self.pixelLimit = pixelLimit
        self.name = name
    }

    /// Bytes in one frame; nil when width or height is not positive or the frame is too large to
    /// address (more than 2^40 bytes).
    public var frameBytes: Int? {
        guard width > 0, height > 0 else { return nil }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= (1 << 40) / format.bytesPerPixel else { return nil }
        return pixels * format.bytesPerPixel
    }

    /// Opens `inputPath` and `outputPath` ("-" for standard input and output) and runs the
    /// stream between them (`run(input:output:)`). A named regular file is written atomically
    /// (`AtomicFile`: nothing is left of a run that fails, a truncated input among the causes); a
    /// FIFO or a device is opened as it is. Check first that it is not an input (`OutputSafety`).
    /// - Returns: the complete frames written.
    /// - Throws: `FileError.cannotOpen` when the input is a folder or cannot be opened,
    ///   `FileError.cannotCreate` when the output cannot be, `AtomicFile`'s errors for the
    ///   rename; else as `run(input:output:)`.
    public func run(inputPath: String, outputPath: String) throws -> Int {
        if inputPath != "-", Folders.exists(inputPath) {
            throw FileError.cannotOpen(path: inputPath, reason: "it is a folder; give a file of raw frames")
        }
        let input = inputPath == "-" ? STDIN_FILENO : open(inputPath, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw FileError.cannotOpen(path: inputPath, reason: Self.systemMessage()) }
        defer { if input != STDIN_FILENO { close(input) } }
        if outputPath == "-" { return try run(input: input, output: STDOUT_FILENO) }
        // A pipe or a device (a FIFO, /dev/null) takes the frames as they come; a file is written
        // under a temporary name and renamed only when every frame is in, so a failed run leaves
        // nothing half written.
        var status = stat()
        if stat(outputPath, &status) == 0, (status.st_mode & S_IFMT) != S_IFREG, (status.st_mode & S_IFMT) != S_IFDIR {
            return try write(to: outputPath, displayPath: outputPath, input: input)
        }
        return try AtomicFile.write(to: outputPath) { temporary in
            try write(to: temporary, displayPath: outputPath, input: input)
        }
    }

    /// Runs the stream from `input` into the file at `path`, opened for writing (created or truncated).
    private func write(to path: String, displayPath: String, input: Int32) throws -> Int {
        let output = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard output >= 0 else { throw FileError.cannotCreate(path: displayPath, reason: Self.systemMessage()) }
        defer { close(output) }
        return try run(input: input, output: output)
    }

    private static func systemMessage() -> String { String(cString: strerror(errno)) }

    /// Reads frames from `input` until it ends, applies the look and writes them to `output`.
    ///
    /// A reader that closes `output` early (`head -c`, ffmpeg stopping) ends the run quietly:
    /// `run` returns the frames completely written before, without waiting for more input. SIGPIPE
    /// is ignored from the first call on, so that such a close shows as EPIPE instead of killing
    /// the process. The descriptors are neither closed nor made blocking.
    /// - Returns: the number of frames written.
    /// - Throws: `StreamError.invalidFrameSize`, `.pixelLimit` (over `pixelLimit`) or `.outOfMemory`
    ///   (the frame buffers cannot be allocated) before reading anything;
    ///   `.partialFrame(strayBytes:framesWritten:)` when the input ends inside a frame (every
    ///   complete frame has been written by then, and nothing of the incomplete one: only whole
    ///   frames are written, as ffmpeg does); `.readFailed`, `.writeFailed`,
    ///   `.threadUnavailable`.
    public func run(input: Int32, output: Int32) throws(StreamError) -> Int {
        guard width > 0, height > 0 else { throw .invalidFrameSize(width: width, height: height) }
        do {
            try pixelLimit.check(width: width, height: height, path: name)
        } catch {
            throw .pixelLimit(error)
        }
        guard let frameBytes else { throw .invalidFrameSize(width: width, height: height) }
        signal(SIGPIPE, SIG_IGN)

        let pieceBytes = format.layout == nil ? frameBytes
            : min(frameBytes, Self.pieceBytes / format.bytesPerPixel * format.bytesPerPixel)
        // Only whole frames are written, so a frame's pieces wait until its last one is read: the
        // buffers must hold a whole frame and the next one's first piece.
        let piecesPerFrame = (frameBytes + pieceBytes - 1) / pieceBytes
        let pipeline = try StreamPipeline(frameBytes: frameBytes, pieceBytes: pieceBytes,
                                          bufferCount: max(Self.bufferCount, piecesPerFrame + 2))
        defer { pipeline.shutDown() }
        var status = WorkerThread.start { pipeline.readPieces(from: input) }
        guard status == 0 else { throw .threadUnavailable(errno: status) }
        status = WorkerThread.start { pipeline.writePieces(to: output) }
        guard status == 0 else { throw .threadUnavailable(errno: status) }

        // Set when the input has ended or failed; reported once the writer has drained.
        var strayBytes = 0
        var readError: Int32 = 0
        // The processed pieces of the frame being read, held back until it is complete.
        var held: [StreamPipeline.Piece] = []
        // Hands the held pieces of an incomplete frame back without writing them.
        func dropHeld() {
            for piece in held { pipeline.toWriter.push(.write(piece, bytes: 0)) }
            held.removeAll()
        }
        while let event = pipeline.inbox.pop() {
            switch event {
            case .read(let piece):
                let start = pipeline.buffers.start(of: piece.buffer)
                if format.layout != nil {
                    apply(toPixels: start, count: piece.bytes / format.bytesPerPixel)
                } else if piece.endsFrame {
                    apply(toFrame: start)
                }
                held.append(piece)
                if piece.endsFrame {
                    for whole in held { pipeline.toWriter.push(.write(whole, bytes: whole.bytes)) }
                    held.removeAll()
                }
            case .inputEnded(let stray):
                strayBytes = stray
                dropHeld()
                pipeline.toWriter.push(.finish)
            case .readFailed(let code):
                readError = code
                dropHeld()
                pipeline.toWriter.push(.finish)
            case .drained(let written):
                if readError != 0 { throw .readFailed(errno: readError, framesWritten: written) }
                if strayBytes > 0 { throw .partialFrame(strayBytes: strayBytes, framesWritten: written) }
                return written
            case .outputClosed(let written):
                return written
            case .writeFailed(let code, let written):
                throw .writeFailed(errno: code, framesWritten: written)
            }
        }
        return 0  // not reached: only shutDown() closes the inbox
    }

    /// Applies the look in place to one frame in `format`'s layout.
    /// - Parameter frame: `frameBytes` bytes, aligned for the format's samples (2 bytes for the
    ///   16-bit formats, 4 for `gbrpf32le`; every Swift and malloc allocation is).
    public func apply(toFrame frame: UnsafeMutableRawPointer) {
        let pixels = width * height
        if let layout = format.layout, let tile = dither.tile(lookPrecision: lookPrecision, top: 255), format != .rgb48le,
           format != .rgba64le {
            applyDithered(frame.bindMemory(to: UInt8.self, capacity: pixels * layout.stride), layout: layout, tile: tile)
            return
        }
        if format.layout != nil {
            apply(toPixels: frame, count: pixels)
            return
        }
        let planes = frame.bindMemory(to: Float.self, capacity: 3 * pixels)
        #if _endian(big)
        Self.swapBytes(frame.bindMemory(to: UInt32.self, capacity: 3 * pixels), count: 3 * pixels)
        _ = frame.bindMemory(to: Float.self, capacity: 3 * pixels)
        #endif
        engine.apply(red: planes + 2 * pixels, green: planes, blue: planes + pixels, pixelCount: pixels)
        #if _endian(big)
        Self.swapBytes(frame.bindMemory(to: UInt32.self, capacity: 3 * pixels), count: 3 * pixels)
        #endif
    }

    /// Applies the look in place to `count` pixels of an interleaved format, anywhere in a frame.
    private func apply(toPixels start: UnsafeMutableRawPointer, count pixels: Int) {
        guard let layout = format.layout else { return }
        switch format {
        case .rgb48le, .rgba64le:
            let samples = start.bindMemory(to: UInt16.self, capacity: pixels * layout.stride)
            #if _endian(big)
            Self.swapBytes(samples, count: pixels * layout.stride)
            #endif
            engine.apply(samples, to: samples, pixelCount: pixels, layout: layout)
            #if _endian(big)
            Self.swapBytes(samples, count: pixels * layout.stride)
            #endif
        default:
            let bytes = start.bindMemory(to: UInt8.self, capacity: pixels * layout.stride)
            engine.apply(bytes, to: bytes, pixelCount: pixels, layout: layout)
        }
    }

    /// Applies the look to an 8-bit frame at 16 bits and rounds each colour sample back to 8 bits
    /// with the threshold at its position (`DitherTile`); alpha is left as it is.
    private func applyDithered(_ frame: UnsafeMutablePointer<UInt8>, layout: PixelLayout, tile: DitherTile) {
        let stride = layout.stride, rowSamples = width * layout.stride
        let rows = DisjointRegions(frame, itemStride: rowSamples)
        ParallelLoop.forEachChunk(of: height, chunkSize: max(1, (1 << 16) / width)) { chunk in
            let bytes = rows.start(of: chunk), count = chunk.count * rowSamples
            let wide = UnsafeMutablePointer<UInt16>.allocate(capacity: count)
            defer { wide.deallocate() }
            for i in 0..<count { wide[i] = UInt16(bytes[i]) &* 257 }
            engine.apply(wide, to: wide, pixelCount: chunk.count * width, layout: layout, parallel: false)
            for row in 0..<chunk.count {
                for x in 0..<width {
                    let pixel = row * rowSamples + x * stride
                    @inline(__always)
                    func round(_ index: Int) {
                        let value = tile.dithered(Float(wide[index]) / 257, original: Float(bytes[index]), x: x,
                                                  y: chunk.lowerBound + row)
                        bytes[index] = UInt8(min(max(value + 0.5, 0), 255))
                    }
                    round(pixel + layout.red)
                    round(pixel + layout.green)
                    round(pixel + layout.blue)
                }
            }
        }
    }

    #if _endian(big)
    /// The formats are little-endian; a big-endian host swaps each sample before and after.
    private static func swapBytes<T: FixedWidthInteger>(_ samples: UnsafeMutablePointer<T>, count: Int) {
        for i in 0..<count { samples[i] = samples[i].byteSwapped }
    }
    #endif
}
