#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads of look files, guarded: only a regular file is read (a FIFO, a device or a
/// socket would block or never end), and no more than a stated number of bytes, checked from
/// `stat` before reading and enforced while reading.
public enum BinaryFile {
    /// The default limit on a look file's size: 64 MB, room for a 129-cube `.cube` (about 58 MB)
    /// and a `.ccc` of a few hundred thousand corrections. `COLORCUBE_MAX_LOOK_BYTES` overrides it.
    public static let defaultMaxBytes = 64_000_000

    /// The environment variable that sets `maxBytes`.
    public static let environmentVariable = "COLORCUBE_MAX_LOOK_BYTES"

    /// The limit in force: `COLORCUBE_MAX_LOOK_BYTES` when it is a positive whole number, else
    /// `defaultMaxBytes`.
    public static var maxBytes: Int {
        guard let text = getenv(environmentVariable).map({ String(cString: $0) }),
              let value = Int(text), value > 0 else { return defaultMaxBytes }
        return value
    }

    /// The bytes of the file at `path`, which must be a regular file of at most `limit` bytes.
    /// - Throws: `FileError.cannotOpen` naming the file and the system's reason,
    ///   `FileError.notAFile` for a folder, FIFO, device or socket, `FileError.tooLarge` past `limit`.
    public static func readAll(path: String, limit: Int = maxBytes) throws(FileError) -> [UInt8] {
        let descriptor = try openRegular(path: path, limit: limit)
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { return bytes }
            // The file grew after stat, or stat did not tell its size.
            guard bytes.count + count <= limit else { throw .tooLarge(path: path, bytes: nil, limit: limit) }
            bytes.append(contentsOf: buffer[0..<count])
        }
    }

    /// The first `count` bytes of the file (fewer if it is shorter), or nil if it cannot be opened
    /// or is not a regular file.
    public static func readPrefix(path: String, count: Int) -> [UInt8]? {
        guard let descriptor = try? openRegular(path: path, limit: Int.max) else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = buffer.withUnsafeMutableBytes { bytes -> Int in
                guard let base = bytes.baseAddress else { return 0 }
                return read(descriptor, base + filled, count - filled)
            }
            if got < 0, errno == EINTR { continue }
            if got <= 0 { break }
            filled += got
        }
        return Array(buffer[0..<filled])
    }

    /// What `path` is when it is not a regular file ("a folder", "a FIFO (named pipe)", ...),
    /// nil for a regular file or a path that does not exist. Follows symbolic links.
    public static func specialKind(path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return kind(of: status.st_mode)
    }

    /// Opens `path` for reading without blocking on a FIFO, and checks that it is a regular file
    /// of at most `limit` bytes.
    private static func openRegular(path: String, limit: Int) throws(FileError) -> Int32 {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw .cannotOpen(path: path, reason: reason)
        }
        if let kind = kind(of: status.st_mode) {
            close(descriptor)
            throw .notAFile(path: path, kind: kind)
        }
        guard Int(status.st_size) <= limit else {
            close(descriptor)
            throw .tooLarge(path: path, bytes: Int(status.st_size), limit: limit)
        }
        return descriptor
    }

    private static func kind(of mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }
}
