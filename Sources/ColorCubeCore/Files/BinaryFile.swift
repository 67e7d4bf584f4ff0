#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads.
public enum BinaryFile {
    /// The bytes of the file at `path`.
    /// - Throws: `FileError.cannotOpen` naming the file and the system's reason.
    public static func readAll(path: String) throws(FileError) -> [UInt8] {
        guard let file = fopen(path, "rb") else {
            throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count > 0 { bytes.append(contentsOf: buffer[0..<count]) }
            if count < buffer.count {
                if ferror(file) != 0 {
                    throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
                }
                return bytes
            }
        }
    }

    /// The first `count` bytes of the file (fewer if it is shorter), or nil if it cannot be opened.
    public static func readPrefix(path: String, count: Int) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: count)
        let read = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, count, file) }
        return Array(buffer[0..<read])
    }
}
