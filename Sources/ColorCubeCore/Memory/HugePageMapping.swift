#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Zero-filled anonymous memory that the system may back with 2 MB pages: tables indexed by an
/// 8-bit colour and read at random (the engine's colour memo, the video grader's memo).
///
/// On 4 kB pages a read anywhere in a 64 MB table is a TLB miss and its first fill costs 16,384
/// page faults; on huge pages it needs 32 TLB entries and 32 faults (measured on the stream
/// benchmark: a third less time per run). The mapping starts on a 2 MB boundary and the system is
/// asked for huge pages (`MADV_HUGEPAGE`, which Linux honours when transparent huge pages are set to
/// `madvise` or `always`); where it declines, the memory is ordinary pages and only slower. Pages
/// are zero until first written, and only the touched ones take memory. Memory filled once from end
/// to end (frame buffers) gains nothing from huge pages and, in a virtual machine that hands freed
/// memory back to its host, was measured to lose: it uses ordinary allocations.
///
/// The owner unmaps it with `release()`; the type does not copy or count references. Sendable by
/// promise (`@unchecked`): it holds only addresses that never change; who touches which bytes when
/// is the owner's business (the memo's words are atomics).
public struct HugePageMapping: @unchecked Sendable {
    private static let hugePage = 1 << 21

    /// The first byte, 2 MB aligned.
    public let start: UnsafeMutableRawPointer
    /// Bytes usable from `start`.
    public let byteCount: Int
    private let mapping: UnsafeMutableRawPointer
    private let mappedCount: Int

    /// Maps `byteCount` bytes; nil when the system refuses the address space (or the size
    /// overflows), which callers report or work around, never crash on.
    public init?(byteCount: Int) {
        let (padded, overflow) = byteCount.addingReportingOverflow(Self.hugePage)
        guard byteCount > 0, !overflow else { return nil }
        let mapping = mmap(nil, padded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let mapping, mapping != MAP_FAILED else { return nil }
        let aligned = (Int(bitPattern: mapping) + Self.hugePage - 1) & ~(Self.hugePage - 1)
        let start = mapping + (aligned - Int(bitPattern: mapping))
        #if os(Linux)
        madvise(start, byteCount, MADV_HUGEPAGE)
        #endif
        self.start = start
        self.byteCount = byteCount
        self.mapping = mapping
        self.mappedCount = padded
    }

    /// Returns the memory to the system; `start` must not be used afterwards.
    public func release() {
        munmap(mapping, mappedCount)
    }
}
