#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Relays a NUT stream of raw video, as `ffmpeg -c:v rawvideo -f nut` writes it, from one
/// descriptor to another, handing each frame's pixels to a closure on the way. Every byte other
/// than the pixels passes through unchanged, so timestamps (variable frame rate too), the stream's
/// header and the syncpoints reach the encoding ffmpeg exactly as the decoding one wrote them.
///
/// Why NUT: it is FFmpeg's own container for raw frames with timestamps, and its frame payloads
/// are not covered by any checksum (only headers are), so a frame's pixels can be replaced in
/// place by as many bytes. What is parsed (NUT specification, version 3):
/// - the file id string, then packets that start with a 64-bit startcode whose first byte is 'N'
///   (main header, stream header, syncpoint, info, index): startcode, `forward_ptr` (v), a header
///   checksum when `forward_ptr` > 4096, then `forward_ptr` bytes, copied as they are;
/// - the main header, for its frame code table (256 entries of flags, size multiplier, size lsb,
///   reserved count, header index) and its elision header lengths;
/// - frames: a frame code byte, then per its flags the coded flags, stream id, coded pts, size msb,
///   match time, header index, reserved fields and a checksum; then the payload.
///
/// Frames whose start was elided (a header index other than 0, only ever used by FFmpeg for small
/// frames of a few codecs) are refused, as are frames of another size than `frameBytes`.
///
/// Public for the fuzz harness (Tools/Fuzz); `VideoApplier` is its user.
public struct NUTFrameRelay: Sendable {
    /// Why a relay stopped.
    public enum RelayError: Error, Equatable {
        case malformed(String)
        /// The input ended in the middle of a packet or frame.
        case truncated
        /// Writing to the output failed with this errno (EPIPE: the encoder has gone).
        case writeFailed(Int32)
        case readFailed(Int32)
    }

    private static let fileID = Array("nut/multimedia container".utf8) + [0]
    private static let mainStartcode: UInt64 = 0x4E4D_7A56_1F5F_04AD
    /// The largest header packet relayed (16 MB).
    private static let largestPacket = 1 << 24

    private static let flagStreamID = 16, flagCodedPTS = 8, flagSizeMSB = 32, flagChecksum = 64
    private static let flagReserved = 128, flagSideData = 256, flagHeaderIndex = 1024
    private static let flagMatchTime = 2048, flagCoded = 4096, flagInvalid = 8192

    private struct FrameCode {
        var flags = flagInvalid
        var sizeMultiplier = 1
        var sizeLSB = 0
        var reservedCount = 0
        var headerIndex = 0
    }

    /// The descriptor the NUT stream is read from (blocking), and the one it is written to.
    public let input: Int32
    public let output: Int32
    /// The size of every frame's payload (the raw frame), in bytes.
    public let frameBytes: Int

    public init(input: Int32, output: Int32, frameBytes: Int) {
        self.input = input
        self.output = output
        self.frameBytes = frameBytes
    }

    /// Relays the whole stream, calling `process` on each frame's `frameBytes` bytes (aligned to
    /// 64 bytes) before it is written on.
    /// - Returns: the number of frames relayed.
    /// - Throws: `RelayError`; what was relayed before stays written (nothing that was not read
    ///   is ever written: the output is always a prefix of the input, pixels aside).
    public func run(process: (UnsafeMutableRawPointer, Int) -> Void) throws(RelayError) -> Int {
        var reader = BufferedReader(descriptor: input)
        var writer = BufferedWriter(descriptor: output)
        let frame = UnsafeMutableRawPointer.allocate(byteCount: max(frameBytes, 1), alignment: 64)
        defer { frame.deallocate() }

        var id = [UInt8](repeating: 0, count: Self.fileID.count)
        guard try reader.readExactly(into: &id) else { throw .malformed("no NUT stream (empty output)") }
        guard id == Self.fileID else { throw .malformed("not a NUT stream") }
        try writer.append(id)

        var codes: [FrameCode]?
        var headerLengths: [Int] = [0]
        var frames = 0
        while let lead = try reader.peek() {
            if lead == UInt8(ascii: "N") {
                // A packet: copied whole; the main header is read on the way.
                var startcodeBytes = [UInt8](repeating: 0, count: 8)
                guard try reader.readExactly(into: &startcodeBytes) else { throw .truncated }
                let startcode = startcodeBytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                reader.startRecording()
                let forward = try reader.varlen()
                if forward > 4096 { try reader.skip(4) }
                let header = reader.stopRecording()
                // FFmpeg's headers are a few hundred bytes; the limit keeps a hostile length from
                // allocating before the stream is seen to end.
                guard forward >= 4, forward <= Self.largestPacket else { throw .malformed("packet of \(forward) bytes") }
                var body = [UInt8](repeating: 0, count: forward)
                guard try reader.readExactly(into: &body) else { throw .truncated }
                if startcode == Self.mainStartcode {
                    (codes, headerLengths) = try Self.parseMainHeader(body)
                }
                try writer.append(startcodeBytes)
                try writer.append(header)
                try writer.append(body)
                continue
            }
            guard let codes else { throw .malformed("a frame before the main header") }
            reader.startRecording()
            let code = codes[Int(try reader.byte())]
            var flags = code.flags
            guard flags & Self.flagInvalid == 0 else { throw .malformed("invalid frame code \(lead)") }
            if flags & Self.flagCoded != 0 { flags ^= try reader.varlen() }
            if flags & Self.flagStreamID != 0 {
                guard try reader.varlen() == 0 else { throw .malformed("a second stream") }
            }
            if flags & Self.flagCodedPTS != 0 { _ = try reader.varlen() }
            var size = code.sizeLSB
            if flags & Self.flagSizeMSB != 0 {
                let (high, overflow) = code.sizeMultiplier.multipliedReportingOverflow(by: try reader.varlen())
                guard !overflow, high <= Int.max - size else { throw .malformed("a frame size beyond 2^63") }
                size += high
            }
            if flags & Self.flagMatchTime != 0 { _ = try reader.varlen() }
            var headerIndex = code.headerIndex
            if flags & Self.flagHeaderIndex != 0 { headerIndex = try reader.varlen() }
            var reserved = code.reservedCount
            if flags & Self.flagReserved != 0 { reserved = try reader.varlen() }
            for _ in 0..<reserved { _ = try reader.varlen() }
            if size > 4096 { headerIndex = 0 }
            guard headerIndex < headerLengths.count else { throw .malformed("header index \(headerIndex)") }
            guard headerIndex == 0 else { throw .malformed("a frame with an elided header") }
            if flags & Self.flagChecksum != 0 { try reader.skip(4) }
            guard flags & Self.flagSideData == 0 else { throw .malformed("a frame with side data") }
            try writer.append(reader.stopRecording())
            guard size == frameBytes else {
                throw .malformed("a frame of \(size) bytes where \(frameBytes) were expected (did the size change mid-clip?)")
            }
            guard try reader.readExactly(into: frame, count: size) else { throw .truncated }
            process(frame, frames)
            try writer.write(UnsafeRawPointer(frame), count: size)
            frames += 1
        }
        try writer.flush()
        return frames
    }

    /// The frame code table and elision header lengths of a main header's body.
    private static func parseMainHeader(_ body: [UInt8]) throws(RelayError) -> ([FrameCode], [Int]) {
        var cursor = ByteCursor(bytes: body)
        let version = try cursor.varlen()
        if version > 3 { _ = try cursor.varlen() }  // minor version
        let streamCount = try cursor.varlen()
        guard streamCount == 1 else { throw .malformed("\(streamCount) streams where one was asked for") }
        _ = try cursor.varlen()  // max distance
        let timeBaseCount = try cursor.varlen()
        guard timeBaseCount < 1000 else { throw .malformed("\(timeBaseCount) time bases") }
        for _ in 0..<(2 * timeBaseCount) { _ = try cursor.varlen() }
        var codes = [FrameCode](repeating: FrameCode(), count: 256)
        var multiplier = 1, headerIndex = 0
        var index = 0
        while index < 256 {
            let flags = try cursor.varlen()
            let fields = try cursor.varlen()
            if fields > 0 { _ = try cursor.varlen() }  // pts delta (signed)
            if fields > 1 { multiplier = try cursor.varlen() }
            if fields > 2 { _ = try cursor.varlen() }  // stream id
            let sizeLSB = fields > 3 ? try cursor.varlen() : 0
            let reserved = fields > 4 ? try cursor.varlen() : 0
            let count = fields > 5 ? try cursor.varlen() : multiplier - sizeLSB
            if fields > 6 { _ = try cursor.varlen() }  // match time delta (signed)
            if fields > 7 { headerIndex = try cursor.varlen() }
            if fields > 8 { for _ in 8..<fields { _ = try cursor.varlen() } }
            guard multiplier < 1 << 30, sizeLSB < 1 << 30 else { throw .malformed("frame code table sizes \(multiplier), \(sizeLSB)") }
            guard count > 0, count <= 256 - index else { throw .malformed("frame code table count \(count) at \(index)") }
            var j = 0
            while j < count, index < 256 {
                if index == Int(UInt8(ascii: "N")) {
                    index += 1
                    continue
                }
                codes[index] = FrameCode(flags: flags, sizeMultiplier: multiplier, sizeLSB: sizeLSB + j,
                                         reservedCount: reserved, headerIndex: headerIndex)
                j += 1
                index += 1
            }
        }
        var lengths = [0]
        // Elision headers follow when the packet has room before its checksum.
        if cursor.remaining > 4 {
            let headerCount = try cursor.varlen()
            guard headerCount < 256 else { throw .malformed("\(headerCount) elision headers") }
            for _ in 0..<headerCount {
                let length = try cursor.varlen()
                lengths.append(length)
                try cursor.skip(length)
            }
        }
        return (codes, lengths)
    }
}

/// Reads varlen-coded numbers from bytes in memory.
private struct ByteCursor {
    let bytes: [UInt8]
    var position = 0
    var remaining: Int { bytes.count - position }

    mutating func varlen() throws(NUTFrameRelay.RelayError) -> Int {
        var value = 0
        for _ in 0..<9 {
            guard position < bytes.count else { throw .malformed("a header ends inside a number") }
            let byte = bytes[position]
            position += 1
            value = value << 7 | Int(byte & 0x7F)
            if byte & 0x80 == 0 { return value }
        }
        throw .malformed("a number of more than 63 bits")
    }

    mutating func skip(_ count: Int) throws(NUTFrameRelay.RelayError) {
        guard count >= 0, count <= remaining else { throw .malformed("a header ends early") }
        position += count
    }
}

/// Reads a descriptor through a 1 MB buffer; large reads bypass it. Bytes read between
/// `startRecording()` and `stopRecording()` are kept, for headers that pass through unchanged.
private struct BufferedReader {
    let descriptor: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 20)
    private var start = 0, end = 0
    private var recording: [UInt8]?

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    mutating func startRecording() { recording = [] }

    mutating func stopRecording() -> [UInt8] {
        defer { recording = nil }
        return recording ?? []
    }

    /// Refills the empty buffer; false at the end of the input.
    private mutating func fill() throws(NUTFrameRelay.RelayError) -> Bool {
        start = 0
        end = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                end = count
                return true
            }
            if count == 0 { return false }
            if errno != EINTR { throw .readFailed(errno) }
        }
    }

    mutating func peek() throws(NUTFrameRelay.RelayError) -> UInt8? {
        if start == end, !(try fill()) { return nil }
        return buffer[start]
    }

    mutating func byte() throws(NUTFrameRelay.RelayError) -> UInt8 {
        if start == end, !(try fill()) { throw .truncated }
        let value = buffer[start]
        start += 1
        recording?.append(value)
        return value
    }

    mutating func varlen() throws(NUTFrameRelay.RelayError) -> Int {
        var value = 0
        for _ in 0..<9 {
            let byte = try byte()
            value = value << 7 | Int(byte & 0x7F)
            if byte & 0x80 == 0 { return value }
        }
        throw .malformed("a number of more than 63 bits")
    }

    mutating func skip(_ count: Int) throws(NUTFrameRelay.RelayError) {
        for _ in 0..<count { _ = try byte() }
    }

    /// Fills `bytes`; false when the input was already at its end, `.truncated` when it ends midway.
    mutating func readExactly(into bytes: inout [UInt8]) throws(NUTFrameRelay.RelayError) -> Bool {
        let count = bytes.count
        let outcome: Result<Bool, NUTFrameRelay.RelayError> = bytes.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return .success(true) }
            do throws(NUTFrameRelay.RelayError) {
                return .success(try readExactly(into: base, count: count))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    mutating func readExactly(into destination: UnsafeMutableRawPointer, count: Int) throws(NUTFrameRelay.RelayError) -> Bool {
        var done = 0
        let buffered = min(end - start, count)
        if buffered > 0 {
            let offset = start
            buffer.withUnsafeBytes { raw in
                guard let base = raw.baseAddress else { return }
                destination.copyMemory(from: base + offset, byteCount: buffered)
            }
            start += buffered
            done = buffered
        }
        while done < count {
            let result = read(descriptor, destination + done, count - done)
            if result > 0 {
                done += result
            } else if result == 0 {
                if done == 0 { return false }
                throw .truncated
            } else if errno != EINTR {
                throw .readFailed(errno)
            }
        }
        if let _ = recording {
            recording?.append(contentsOf: UnsafeRawBufferPointer(start: destination, count: count))
        }
        return true
    }
}

/// Writes to a descriptor, gathering small writes; frames go straight through.
private struct BufferedWriter {
    let descriptor: Int32
    private var pending: [UInt8] = []

    init(descriptor: Int32) {
        self.descriptor = descriptor
        pending.reserveCapacity(1 << 16)
    }

    mutating func append(_ bytes: [UInt8]) throws(NUTFrameRelay.RelayError) {
        pending += bytes
        if pending.count >= 1 << 16 { try flush() }
    }

    mutating func write(_ bytes: UnsafeRawPointer, count: Int) throws(NUTFrameRelay.RelayError) {
        try flush()
        try Self.writeAll(descriptor, bytes, count)
    }

    mutating func flush() throws(NUTFrameRelay.RelayError) {
        guard !pending.isEmpty else { return }
        let bytes = pending
        pending.removeAll(keepingCapacity: true)
        let descriptor = descriptor
        let outcome: Result<Void, NUTFrameRelay.RelayError> = bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return .success(()) }
            do throws(NUTFrameRelay.RelayError) {
                try Self.writeAll(descriptor, base, raw.count)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try outcome.get()
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) throws(NUTFrameRelay.RelayError) {
        var done = 0
        while done < count {
            let result = Glibc.write(descriptor, bytes + done, count - done)
            if result >= 0 {
                done += result
            } else if errno != EINTR {
                throw .writeFailed(errno)
            }
        }
    }
}
