#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One in-memory file reused for every input, for readers that take a path: a file in /dev/shm,
/// unlinked as soon as it is open, that the reader opens again as /proc/self/fd/N. No disk is
/// touched and nothing is left behind, however the process ends. (Swift's Glibc module does not
/// declare memfd_create.)
enum ScratchFile {
    /// The memfd, created on first use.
    nonisolated(unsafe) private static var descriptor: Int32 = -1

    /// Calls `body` with a path whose file holds exactly `bytes`.
    static func withPath<R>(holding bytes: UnsafeBufferPointer<UInt8>, _ body: (String) -> R) -> R {
        if descriptor < 0 {
            let name = "/dev/shm/colorcube-fuzz-\(getpid())"
            descriptor = open(name, O_RDWR | O_CREAT | O_EXCL, 0o600)
            guard descriptor >= 0 else { fatalError("cannot create \(name): errno \(errno)") }
            unlink(name)
        }
        guard ftruncate(descriptor, 0) == 0 else { fatalError("ftruncate failed: errno \(errno)") }
        var done = 0
        while let base = bytes.baseAddress, done < bytes.count {
            let written = pwrite(descriptor, base + done, bytes.count - done, off_t(done))
            guard written > 0 else { fatalError("pwrite failed: errno \(errno)") }
            done += written
        }
        return body("/proc/self/fd/\(descriptor)")
    }
}
