#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts detached POSIX threads for work that waits in system calls for as long as it takes: the
/// raw stream's reader and writer (blocked in `read` and `write` on pipes) and the interrupt
/// handler (blocked in `sigwait`). `ParallelLoop`'s Dispatch pool is kept for computation: a pool
/// thread parked in `read` would take a core's place there. POSIX threads rather than Foundation's
/// `Thread` because the caller learns why a thread could not be started. No stable API.
package enum WorkerThread {
    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Runs `body` on a new detached thread.
    /// - Returns: 0, or pthread_create's error number (then `body` has not run).
    package static func start(_ body: @escaping @Sendable () -> Void) -> Int32 {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let status = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return status
        }
        #if canImport(Darwin)
        if let thread { pthread_detach(thread) }
        #else
        pthread_detach(thread)
        #endif
        return 0
    }
}
