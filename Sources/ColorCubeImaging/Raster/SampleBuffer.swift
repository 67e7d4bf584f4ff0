#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Pixel buffers whose size comes from a file: an allocation the system refuses becomes an error,
/// never a crash (Swift's own allocation traps when memory runs out).
enum SampleBuffer {
    /// `count` zeroed samples.
    /// - Throws: `ImageError.outOfMemory` naming `path` when the memory cannot be had.
    static func make<Sample: Numeric>(count: Int, path: String) throws(ImageError) -> [Sample] {
        try checkAvailable(count: count, of: Sample.self, path: path)
        return [Sample](repeating: 0, count: count)
    }

    /// Checks that `count` samples can be allocated, by asking the C allocator, which answers nil
    /// where Swift's allocator would trap.
    /// - Throws: `ImageError.outOfMemory` naming `path`.
    static func checkAvailable<Sample>(count: Int, of _: Sample.Type, path: String) throws(ImageError) {
        let (bytes, overflow) = count.multipliedReportingOverflow(by: MemoryLayout<Sample>.stride)
        guard !overflow else { throw .outOfMemory(path: path, bytes: Int.max) }
        guard let probe = malloc(max(bytes, 1)) else { throw .outOfMemory(path: path, bytes: bytes) }
        free(probe)
    }
}
