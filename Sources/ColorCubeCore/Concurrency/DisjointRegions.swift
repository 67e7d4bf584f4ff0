/// Memory that several threads share on one condition, stated here once for every user:
///
/// **At any moment each item (a run of `itemStride` elements) is read or written by at most one
/// thread: the thread that holds the item's index.** A thread holds the indices of the range
/// `ParallelLoop.forEachChunk` gave it (the ranges are disjoint), or of the index `ParallelLoop.run`
/// gave it, or an index it received through a queue, until it passes that index on (the hand-over
/// through the queue's lock orders the writes before the next holder's reads). The memory must
/// outlive every holder, and its owner touches it only while no other thread holds an index.
/// Memory that no thread writes (a source buffer) may be read by any holder, in any range.
///
/// This is the only place where raw buffers cross threads, so the rule has one home: the type is
/// `Sendable` by promise (`@unchecked`), and pointers are only handed out per range of items.
/// No stable API.
package struct DisjointRegions<Pointer: Strideable>: @unchecked Sendable where Pointer.Stride == Int {
    @usableFromInline let base: Pointer
    /// Elements (bytes, for raw pointers) per item.
    @usableFromInline let itemStride: Int

    /// Shares `base`, whose items are `itemStride` elements long.
    @inlinable
    package init(_ base: Pointer, itemStride: Int = 1) {
        self.base = base
        self.itemStride = itemStride
    }

    /// The start of the items `items`, for the thread that holds them.
    @inlinable
    package func start(of items: Range<Int>) -> Pointer {
        base.advanced(by: items.lowerBound &* itemStride)
    }

    /// The start of item `item`, for the thread that holds it.
    @inlinable
    package func start(of item: Int) -> Pointer {
        base.advanced(by: item &* itemStride)
    }
}
