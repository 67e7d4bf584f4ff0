#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a codec sees of a file while deciding whether the file is its format: the first bytes,
/// and reads at any offset for formats whose structure has to be followed (TIFF directories).
///
/// Reads past the end return fewer bytes; a probe made from bytes alone reads only those.
public final class FileProbe {
    /// How many bytes `head` holds when the file has them.
    public static let headSize = 64

    /// The file's first bytes (fewer when the file is shorter).
    public let head: [UInt8]
    private let descriptor: Int32?

    /// A probe over the file at `path`.
    /// - Throws: `ImageError.cannotOpen` with the system's reason when it cannot be opened for
    ///   reading.
    public init(path: String) throws(ImageError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw .cannotOpen(path: path, reason: String(cString: strerror(EISDIR)))
        }
        self.descriptor = descriptor
        var buffer = [UInt8](repeating: 0, count: Self.headSize)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, Self.headSize, 0) }
        head = count > 0 ? Array(buffer[0..<count]) : []
    }

    /// A probe over bytes in memory only.
    public init(head: [UInt8]) {
        self.head = head
        descriptor = nil
    }

    deinit {
        if let descriptor { close(descriptor) }
    }

    /// Up to `count` bytes at `offset` (fewer at the end of the file, none when it cannot be read).
    public func read(at offset: Int, count: Int) -> [UInt8] {
        guard offset >= 0, count > 0 else { return [] }
        guard let descriptor else {
            guard offset < head.count else { return [] }
            return Array(head[offset..<min(head.count, offset + count)])
        }
        var buffer = [UInt8](repeating: 0, count: count)
        let read = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
        return read > 0 ? Array(buffer[0..<read]) : []
    }

    /// The length of the file at `path`, or nil when it cannot be told.
    public static func size(path: String) -> Int? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Int(status.st_size)
    }

    /// True when `head` starts with `bytes` at `offset`.
    public func headHas(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
        head.count >= offset + bytes.count && head[offset..<(offset + bytes.count)].elementsEqual(bytes)
    }
}
