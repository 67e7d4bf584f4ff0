import Dispatch
import ColorCubeCore

/// A first-in first-out queue whose `pop` waits for an element: the hand-over between the
/// stream's reader, processing and writer threads.
///
/// Thread safety, checked by the compiler: the elements sit behind a `Locked` lock, and a counting
/// semaphore holds one signal per element pushed plus one for the close, so a `pop` that has taken
/// a signal finds an element or the close. A `pop` that finds the queue closed passes its signal on,
/// which wakes every present and future `pop` in turn.
final class BlockingQueue<Element: Sendable>: Sendable {
    private struct State: ~Copyable {
        var elements: [Element]
        var head = 0
        var closed = false
    }

    private let state: Locked<State>
    private let available: DispatchSemaphore

    init(_ initial: [Element] = []) {
        state = Locked(State(elements: initial))
        // Created at 0 and signalled up: libdispatch stops a process that frees a semaphore whose
        // count is below the one it was created with.
        available = DispatchSemaphore(value: 0)
        for _ in initial { available.signal() }
    }

    /// Appends `element` and wakes one waiting `pop`. Ignored once the queue is closed.
    func push(_ element: Element) {
        let added = state.withLock { state in
            guard !state.closed else { return false }
            state.elements.append(element)
            return true
        }
        if added { available.signal() }
    }

    /// The oldest element, waiting for one; nil once the queue is closed (even if elements remain).
    func pop() -> Element? {
        available.wait()
        let element: Element? = state.withLock { state in
            guard !state.closed else { return nil }
            let element = state.elements[state.head]
            state.head += 1
            if state.head == state.elements.count {
                state.elements.removeAll(keepingCapacity: true)
                state.head = 0
            }
            return element
        }
        if element == nil { available.signal() }
        return element
    }

    /// Makes every present and future `pop` return nil.
    func close() {
        let closing = state.withLock { state in
            defer { state.closed = true }
            return !state.closed
        }
        if closing { available.signal() }
    }
}
