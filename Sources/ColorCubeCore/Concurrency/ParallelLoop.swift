import Dispatch

/// The one way colorcube runs work on all cores: Dispatch's `concurrentPerform`, which runs the
/// iterations on the calling thread and Dispatch's worker pool (one thread per core) and returns
/// when all are done. No stable API.
///
/// The bodies are `@Sendable`, so the compiler checks what they capture: immutable values, `Locked` state,
/// and memory that the threads share under `DisjointRegions`' rule.
package enum ParallelLoop {
    /// Runs `body(i)` for every `i` in `0..<iterations`, spread across all cores.
    @inlinable
    package static func run(iterations: Int, _ body: @Sendable (Int) -> Void) {
        guard iterations > 0 else { return }
        if iterations == 1 {
            body(0)
            return
        }
        DispatchQueue.concurrentPerform(iterations: iterations, execute: body)
    }

    /// Splits `0..<count` into consecutive ranges of `chunkSize` (the last one shorter) and runs
    /// `body` on each: across all cores when `parallel`, else in order on the calling thread as
    /// one range. The ranges are disjoint and cover `0..<count`, which is what makes
    /// `DisjointRegions` safe to share among the bodies.
    @inlinable
    package static func forEachChunk(of count: Int, chunkSize: Int, parallel: Bool = true,
                                     _ body: @Sendable (Range<Int>) -> Void) {
        guard count > 0 else { return }
        let chunkSize = max(chunkSize, 1)
        let chunks = (count + chunkSize - 1) / chunkSize
        if !parallel || chunks <= 1 {
            body(0..<count)
            return
        }
        DispatchQueue.concurrentPerform(iterations: chunks) { i in
            let start = i * chunkSize
            body(start..<min(start + chunkSize, count))
        }
    }

    /// `[transform(0), ..., transform(count - 1)]`, its chunks of `chunkSize` filled across the
    /// cores (on the calling thread when there is one chunk). Each element is `transform` of its
    /// index alone, so the array does not depend on the cores.
    @inlinable
    package static func map<T>(count: Int, chunkSize: Int, _ transform: @Sendable (Int) -> T) -> [T] {
        [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            if let start = buffer.baseAddress {
                let target = DisjointRegions(start)
                forEachChunk(of: count, chunkSize: chunkSize) { range in
                    let elements = target.start(of: range)
                    for index in range { (elements + (index - range.lowerBound)).initialize(to: transform(index)) }
                }
            }
            initialized = count
        }
    }
}
