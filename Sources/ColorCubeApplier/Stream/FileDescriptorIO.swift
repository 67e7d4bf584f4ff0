#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-buffer `read` and `write` on file descriptors, for pipes that deliver short reads and
/// stall: both loop until the buffer is done, retry on EINTR, and wait with `poll` when a
/// descriptor is non-blocking and not ready.
enum FileDescriptorIO {
    /// Reads until `count` bytes arrived or the input ended.
    /// - Returns: the bytes read (less than `count` only at end of input or on error) and 0 or the
    ///   errno of the failed read.
    static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> (count: Int, errno: Int32) {
        var done = 0
        while done < count {
            #if canImport(Darwin)
            let result = Darwin.read(descriptor, buffer + done, count - done)
            #elseif canImport(Musl)
            let result = Musl.read(descriptor, buffer + done, count - done)
            #else
            let result = Glibc.read(descriptor, buffer + done, count - done)
            #endif
            if result > 0 {
                done += result
            } else if result == 0 {
                break
            } else {
                let code = errno
                if code == EINTR { continue }
                if code == EAGAIN || code == EWOULDBLOCK {
                    wait(descriptor, for: Int16(POLLIN))
                    continue
                }
                return (done, code)
            }
        }
        return (done, 0)
    }

    /// Writes all `count` bytes.
    /// - Returns: 0, or the errno of the failed write (EPIPE when the reader has gone).
    static func write(_ descriptor: Int32, from buffer: UnsafeRawPointer, count: Int) -> Int32 {
        var done = 0
        while done < count {
            #if canImport(Darwin)
            let result = Darwin.write(descriptor, buffer + done, count - done)
            #elseif canImport(Musl)
            let result = Musl.write(descriptor, buffer + done, count - done)
            #else
            let result = Glibc.write(descriptor, buffer + done, count - done)
            #endif
            if result >= 0 {
                done += result
            } else {
                let code = errno
                if code == EINTR { continue }
                if code == EAGAIN || code == EWOULDBLOCK {
                    wait(descriptor, for: Int16(POLLOUT))
                    continue
                }
                return code
            }
        }
        return 0
    }

    private static func wait(_ descriptor: Int32, for events: Int16) {
        var request = pollfd(fd: descriptor, events: events, revents: 0)
        _ = poll(&request, 1, -1)
    }
}
