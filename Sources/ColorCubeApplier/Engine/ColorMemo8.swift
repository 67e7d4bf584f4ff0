import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The engine's 8-bit results, remembered per colour as they are first computed.
///
/// One 32-bit word for each of the 2^24 colours, index blue << 16 | green << 8 | red (the bytes of
/// an RGB pixel read as a little-endian word), holding 0x80BBGGRR once that colour's result is
/// known and 0 before. The words live in a 64 MB anonymous
/// mapping that the system fills with zero pages only where they are touched, so a photo with a
/// few hundred thousand distinct colours costs that many kernel evaluations and a few megabytes,
/// and every further pixel of a known colour costs one read. Threads fill it concurrently with
/// relaxed atomic word access: two threads that race on a colour write the same word.
///
/// Results are identical to the kernel's, because they are the kernel's.
///
/// Sendable by promise (`@unchecked`, as the compiler cannot see through the pointer): every access
/// to the words is a relaxed `Atomic<UInt32>` load or store, and a word only ever changes from 0 to
/// the one value its colour has, so no ordering between threads is needed. `Atomic<UInt32>` has
/// `UInt32`'s layout, and the mapping's zero pages are words that hold 0.
final class ColorMemo8: @unchecked Sendable {
    static let colorCount = 1 << 24
    static let known: UInt32 = 0x8000_0000
    private let words: UnsafeMutablePointer<Atomic<UInt32>>
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
        words = start.bindMemory(to: Atomic<UInt32>.self, capacity: Self.colorCount)
    }

    deinit {
        munmap(mapping, Self.mappedCount)
    }

    /// Applies the look to `count` interleaved 8-bit pixels, asking `kernel` for colours not yet
    /// known; the fourth sample, if any, is copied.
    func apply(_ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>, _ count: Int,
               _ layout: PixelLayout, kernel: LatticeKernel) {
        #if _endian(little)
        // RGB and RGBA, the layouts decoders produce, read a pixel as one word whose low three
        // bytes are already the table index.
        if layout == .rgba {
            applyRGBA(source, destination, count, kernel: kernel)
            return
        }
        if layout == .rgb, count > 1 {
            applyRGB(source, destination, count - 1, kernel: kernel)
            applyAny(source + 3 * (count - 1), destination + 3 * (count - 1), 1, layout, kernel: kernel)
            return
        }
        #endif
        applyAny(source, destination, count, layout, kernel: kernel)
    }

    /// Any layout, a sample at a time.
    private func applyAny(_ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>, _ count: Int,
                          _ layout: PixelLayout, kernel: LatticeKernel) {
        let stride = layout.stride, ri = layout.red, gi = layout.green, bi = layout.blue
        let copiesExtra = stride == 4 && source != UnsafePointer(destination)
        let extra = 6 - ri - gi - bi
        var pixel = 0
        for _ in 0..<count {
            let r = source[pixel &+ ri], g = source[pixel &+ gi], b = source[pixel &+ bi]
            let word = result(Int(b) << 16 | Int(g) << 8 | Int(r), kernel: kernel)
            if copiesExtra { destination[pixel &+ extra] = source[pixel &+ extra] }
            destination[pixel &+ ri] = UInt8(truncatingIfNeeded: word)
            destination[pixel &+ gi] = UInt8(truncatingIfNeeded: word >> 8)
            destination[pixel &+ bi] = UInt8(truncatingIfNeeded: word >> 16)
            pixel &+= stride
        }
    }

    /// RGBA: one 32-bit load and one 32-bit store per pixel, alpha kept from the load.
    private func applyRGBA(_ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>, _ count: Int,
                           kernel: LatticeKernel) {
        let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(destination)
        for i in 0..<count {
            let pixel = from.loadUnaligned(fromByteOffset: 4 &* i, as: UInt32.self)
            let word = result(Int(pixel & 0x00FF_FFFF), kernel: kernel)
            to.storeBytes(of: (pixel & 0xFF00_0000) | (word & 0x00FF_FFFF), toByteOffset: 4 &* i, as: UInt32.self)
        }
    }

    /// RGB: one 32-bit load and, but for the last pixel, one 32-bit store per pixel. The load's
    /// fourth byte is the next pixel's red (masked off). The store's fourth byte lands on the next
    /// pixel's red too, so each pixel is loaded one step ahead of the store that clobbers its first
    /// byte, and the next store rewrites that byte; the last pixel is stored as 16 + 8 bits, so
    /// nothing after it is touched. The caller keeps the buffer's own last pixel out, so the loads
    /// stay inside the buffer.
    private func applyRGB(_ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>, _ count: Int,
                          kernel: LatticeKernel) {
        guard count > 0 else { return }
        let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(destination)
        var pixel = from.loadUnaligned(as: UInt32.self)
        var offset = 0
        let last = 3 * (count - 1)
        while offset != last {
            let next = from.loadUnaligned(fromByteOffset: offset &+ 3, as: UInt32.self)
            to.storeBytes(of: result(Int(pixel & 0x00FF_FFFF), kernel: kernel), toByteOffset: offset, as: UInt32.self)
            pixel = next
            offset &+= 3
        }
        let word = result(Int(pixel & 0x00FF_FFFF), kernel: kernel)
        to.storeBytes(of: UInt16(truncatingIfNeeded: word), toByteOffset: offset, as: UInt16.self)
        to.storeBytes(of: UInt8(truncatingIfNeeded: word >> 16), toByteOffset: offset &+ 2, as: UInt8.self)
    }

    /// The known word for the colour at `index` (blue << 16 | green << 8 | red), computing it first
    /// when it is not known yet.
    @inline(__always)
    private func result(_ index: Int, kernel: LatticeKernel) -> UInt32 {
        var word = words[index].load(ordering: .relaxed)
        if word == 0 {
            word = Self.compute(UInt8(truncatingIfNeeded: index), UInt8(truncatingIfNeeded: index >> 8),
                                UInt8(truncatingIfNeeded: index >> 16), kernel: kernel)
            words[index].store(word, ordering: .relaxed)
        }
        return word
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
