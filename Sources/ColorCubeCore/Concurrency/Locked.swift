#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// State that threads share, reachable only inside `withLock`, which holds a POSIX mutex: what
/// colorcube uses wherever threads share a value (batch progress, the pending temporaries, the
/// stream's queues, caches).
///
/// Why not the standard library's `Synchronization.Mutex`: on Linux its lock is a futex word
/// handled inside the standard library, which ThreadSanitizer does not see, so every access made
/// under it is reported, now and then, as a race. ThreadSanitizer intercepts `pthread_mutex_lock`,
/// so under this lock the sanitizer checks the shared state instead of being told to ignore it.
///
/// Sendable because the state is touched only between `pthread_mutex_lock` and
/// `pthread_mutex_unlock`, and values move in and out through `sending` closures, as with `Mutex`.
/// No stable API.
package final class Locked<State: ~Copyable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var state: State

    package init(_ initial: consuming sending State) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        state = initial
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` on the state while holding the lock; not reentrant.
    package func withLock<Result: ~Copyable, Failure: Error>(
        _ body: (inout sending State) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
