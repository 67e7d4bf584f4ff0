import _CAtomicWords
#if canImport(Glibc)
import Glibc
#endif

/// The engine's 8-bit results, remembered per colour as they are first computed.
///
/// One 32-bit word for each of the 2^24 colours, holding 0x80BBGGRR once that colour's result is
/// known and 0 before. Words are in Morton order (the bits of red, green and blue interleaved), so
/// colours that are close, as neighbouring pixels of a photo are, share cache lines and pages: a
/// 64-byte line holds a 2x2x4 block of colours, a 4 kB page an 8x8x16 one. The words live in a 64 MB anonymous
/// mapping that the system fills with zero pages only where they are touched, so a photo with a
/// few hundred thousand distinct colours costs that many kernel evaluations and a few megabytes,
/// and every further pixel of a known colour costs one read. Threads fill it concurrently with
/// relaxed atomic word access: two threads that race on a colour write the same word.
///
/// Results are identical to the kernel's, because they are the kernel's.
final class ColorMemo8: @unchecked Sendable {
    static let colorCount = 1 << 24
    static let known: UInt32 = 0x8000_0000
    private let words: UnsafeMutablePointer<UInt32>
    /// Bit i of a code moved to bit 3i: one channel's share of a Morton index.
    private let spread: UnsafeMutablePointer<UInt32>
    private let mapping: UnsafeMutableRawPointer
    private static let hugePage = 1 << 21
    private static let byteCount = colorCount * MemoryLayout<UInt32>.stride
    private static let mappedCount = byteCount + hugePage

    /// Maps the table; nil when the address space cannot be had (the engine then interpolates).
    init?() {
        let mapping = mmap(nil, Self.mappedCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let mapping, mapping != MAP_FAILED else { return nil }
        self.mapping = mapping
        // Reads jump around 64 MB: on 2 MB-aligned huge pages they need 32 TLB entries and 32
        // page faults instead of 16,384 of each.
        let aligned = (Int(bitPattern: mapping) + Self.hugePage - 1) & ~(Self.hugePage - 1)
        let start = mapping + (aligned - Int(bitPattern: mapping))
        madvise(start, Self.byteCount, MADV_HUGEPAGE)
        words = start.bindMemory(to: UInt32.self, capacity: Self.colorCount)
        spread = .allocate(capacity: 256)
        for code in 0..<256 {
            var bits: UInt32 = 0
            for bit in 0..<8 where code & (1 << bit) != 0 { bits |= 1 << (3 * bit) }
            spread[code] = bits
        }
    }

    deinit {
        munmap(mapping, Self.mappedCount)
        spread.deallocate()
    }

    /// Applies the look to `count` interleaved 8-bit pixels, asking `kernel` for colours not yet
    /// known; the fourth sample, if any, is copied.
    func apply(_ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>, _ count: Int,
               _ layout: PixelLayout, kernel: LatticeKernel) {
        let stride = layout.stride, ri = layout.red, gi = layout.green, bi = layout.blue
        let copiesExtra = stride == 4 && source != UnsafePointer(destination)
        let extra = 6 - ri - gi - bi
        let words = self.words, spread = UnsafePointer(self.spread)
        var pixel = 0
        for _ in 0..<count {
            let r = source[pixel &+ ri], g = source[pixel &+ gi], b = source[pixel &+ bi]
            let slot = words + Int(spread[Int(r)] | spread[Int(g)] << 1 | spread[Int(b)] << 2)
            var word = cc_atomic_load_word(slot)
            if word == 0 {
                word = Self.compute(r, g, b, kernel: kernel)
                cc_atomic_store_word(slot, word)
            }
            if copiesExtra { destination[pixel &+ extra] = source[pixel &+ extra] }
            destination[pixel &+ ri] = UInt8(truncatingIfNeeded: word)
            destination[pixel &+ gi] = UInt8(truncatingIfNeeded: word >> 8)
            destination[pixel &+ bi] = UInt8(truncatingIfNeeded: word >> 16)
            pixel &+= stride
        }
    }

    /// The kernel's result for one colour, as a known word.
    @inline(never)
    private static func compute(_ r: UInt8, _ g: UInt8, _ b: UInt8, kernel: LatticeKernel) -> UInt32 {
        var pixel = SIMD4<UInt8>(r, g, b, 0)
        withUnsafeMutablePointer(to: &pixel) { vector in
            vector.withMemoryRebound(to: UInt8.self, capacity: 4) { kernel.apply8($0, $0, 1, .rgba) }
        }
        return known | UInt32(pixel.z) << 16 | UInt32(pixel.y) << 8 | UInt32(pixel.x)
    }
}
