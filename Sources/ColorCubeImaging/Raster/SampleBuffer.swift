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
    static func make<Sample: FixedWidthInteger>(count: Int, path: String) throws(ImageError) -> [Sample] {
        let (bytes, overflow) = count.multipliedReportingOverflow(by: MemoryLayout<Sample>.stride)
        guard !overflow else { throw .outOfMemory(path: path, bytes: Int.max) }
        // Ask the C allocator first: it answers nil where Swift's allocator would trap.
        guard let probe = malloc(max(bytes, 1)) else { throw .outOfMemory(path: path, bytes: bytes) }
        free(probe)
        return [Sample](repeating: 0, count: count)
    }
}
