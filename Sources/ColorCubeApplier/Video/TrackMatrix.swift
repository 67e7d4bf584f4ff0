#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The display matrix of an MP4 or QuickTime file's first video track (the 36 bytes in its
/// `moov/trak/tkhd` box that say how the picture is rotated on screen).
///
/// ffmpeg 5 has no option to set an encoded stream's rotation, so a graded phone clip would lose
/// its "shown upright" matrix. Both files are ISO BMFF, so the source's matrix is copied into the
/// finished output byte for byte, in place (same size, nothing moves).
enum TrackMatrix {
    /// Where the matrix of the first video track sits in the file, or nil when the file is not
    /// ISO BMFF or has no video track.
    static func offset(in descriptor: Int32) -> Int? {
        let fileSize = Int(lseek(descriptor, 0, SEEK_END))
        guard let moov = child("moov", in: descriptor, from: 0, to: fileSize) else { return nil }
        var cursor = moov.start
        while let trak = nextBox(in: descriptor, at: cursor, end: moov.end) {
            defer { cursor = trak.end }
            guard trak.type == "trak",
                  let mdia = child("mdia", in: descriptor, from: trak.start, to: trak.end),
                  let hdlr = child("hdlr", in: descriptor, from: mdia.start, to: mdia.end),
                  read(descriptor, at: hdlr.start + 8, count: 4) == Array("vide".utf8),
                  let tkhd = child("tkhd", in: descriptor, from: trak.start, to: trak.end),
                  let version = read(descriptor, at: tkhd.start, count: 1).first else { continue }
            // Version 0: 4-byte times and duration (20 bytes after version/flags); version 1: 8-byte
            // (32 bytes). Then reserved (8), layer, alternate group, volume, reserved (2 each).
            let matrix = tkhd.start + 4 + (version == 1 ? 32 : 20) + 16
            return matrix + 36 <= tkhd.end ? matrix : nil
        }
        return nil
    }

    /// Copies the first video track's matrix of `source` into `destination`.
    /// - Returns: false when either file has no such matrix (nothing is written then).
    @discardableResult
    static func copy(from source: String, to destination: String) -> Bool {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { return false }
        defer { close(input) }
        let output = open(destination, O_RDWR | O_CLOEXEC)
        guard output >= 0 else { return false }
        defer { close(output) }
        guard let from = offset(in: input), let to = offset(in: output) else { return false }
        let matrix = read(input, at: from, count: 36)
        guard matrix.count == 36 else { return false }
        return matrix.withUnsafeBytes { pwrite(output, $0.baseAddress, 36, off_t(to)) } == 36
    }

    private struct Box {
        var type: String
        /// The first byte of the box's content and the first byte after the box.
        var start: Int
        var end: Int
    }

    private static func child(_ type: String, in descriptor: Int32, from start: Int, to end: Int) -> Box? {
        var cursor = start
        while let box = nextBox(in: descriptor, at: cursor, end: end) {
            if box.type == type { return box }
            cursor = box.end
        }
        return nil
    }

    private static func nextBox(in descriptor: Int32, at offset: Int, end: Int) -> Box? {
        guard offset + 8 <= end else { return nil }
        let header = read(descriptor, at: offset, count: 16)
        guard header.count >= 8 else { return nil }
        var size = header.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        var headerSize = 8
        if size == 1 {
            guard header.count == 16 else { return nil }
            size = header[8..<16].reduce(0) { $0 << 8 | Int($1) }
            headerSize = 16
        } else if size == 0 {
            size = end - offset
        }
        guard size >= headerSize, offset + size <= end else { return nil }
        let type = String(decoding: header[4..<8], as: UTF8.self)
        return Box(type: type, start: offset + headerSize, end: offset + size)
    }

    private static func read(_ descriptor: Int32, at offset: Int, count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
        return got > 0 ? Array(bytes.prefix(got)) : []
    }
}
