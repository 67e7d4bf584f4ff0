#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A first-in first-out queue whose `pop` waits for an element: the hand-over between the
/// stream's reader, processing and writer threads.
///
/// Thread safety: every method may be called from any thread; a pthread mutex guards the state.
final class BlockingQueue<Element>: @unchecked Sendable {
    private var elements: [Element] = []
    private var head = 0
    private var closed = false
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init(_ initial: [Element] = []) {
        elements = initial
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Appends `element` and wakes one waiting `pop`. Ignored once the queue is closed.
    func push(_ element: Element) {
        pthread_mutex_lock(mutex)
        if !closed {
            elements.append(element)
            pthread_cond_signal(condition)
        }
        pthread_mutex_unlock(mutex)
    }

    /// The oldest element, waiting for one; nil once the queue is closed (even if elements remain).
    func pop() -> Element? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !closed && head == elements.count {
            pthread_cond_wait(condition, mutex)
        }
        if closed { return nil }
        let element = elements[head]
        head += 1
        if head == elements.count {
            elements.removeAll(keepingCapacity: true)
            head = 0
        }
        return element
    }

    /// Makes every present and future `pop` return nil.
    func close() {
        pthread_mutex_lock(mutex)
        closed = true
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }
}
