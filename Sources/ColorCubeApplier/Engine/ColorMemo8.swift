import Synchronization

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
    private let memory: HugePageMapping

    /// Maps the table; nil when the address space cannot be had (the engine then interpolates).
    /// Reads jump around 64 MB, so the table asks for huge pages (`HugePageMapping`).
    init?() {
        guard let memory = HugePageMapping(byteCount: Self.colorCount * MemoryLayout<UInt32>.stride) else {
            return nil
        }
        self.memory = memory
        words = memory.start.bindMemory(to: Atomic<UInt32>.self, capacity: Self.colorCount)
    }

    deinit {
        memory.release()
    }

    /// Pixels per block: the colours a block misses are computed together, in one call to the
    /// kernel, so that a miss costs about what interpolating that pixel costs.
    static let block = 512

    /// Applies the look to `count` interleaved 8-bit pixels, asking `kernel` for colours not yet
    /// known; the fourth sample, if any, is copied.
    ///
    /// Block by block: pixels of known colours are written at once, unknown colours are listed;
    /// the kernel then runs once over the list (its fast loops), and those results are remembered
    /// and written. A listed pixel is not written before its colour has been read, so `source`
    /// and `destination` may be the same buffer.
    func apply(_ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>, _ count: Int,
               _ layout: PixelLayout, kernel: LatticeKernel) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: Self.block) { colours in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: Self.block) { places in
                guard let misses = colours.baseAddress, let missPlaces = places.baseAddress else { return }
                var start = 0
                while start < count {
                    let n = min(Self.block, count - start)
                    let from = source + start * layout.stride, to = destination + start * layout.stride
                    block(from, to, n, layout, misses, missPlaces, kernel: kernel)
                    start += n
                }
            }
        }
    }

    /// One block of `count` pixels; `misses` and `places` hold room for `block` entries.
    @inline(__always)
    private func block(_ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>, _ count: Int,
                       _ layout: PixelLayout, _ misses: UnsafeMutablePointer<UInt32>,
                       _ places: UnsafeMutablePointer<Int32>, kernel: LatticeKernel) {
        let stride = layout.stride, ri = layout.red, gi = layout.green, bi = layout.blue
        var missCount = 0
        var pixel = 0
        for _ in 0..<count {
            let index = Int(source[pixel &+ bi]) << 16 | Int(source[pixel &+ gi]) << 8 | Int(source[pixel &+ ri])
            let word = words[index].load(ordering: .relaxed)
            if word != 0 {
                write(word, source, destination, pixel, layout)
            } else {
                misses[missCount] = UInt32(truncatingIfNeeded: index).littleEndian
                places[missCount] = Int32(truncatingIfNeeded: pixel)
                missCount &+= 1
            }
            pixel &+= stride
        }
        guard missCount > 0 else { return }
        // The listed colours are RGBA pixels (0x00BBGGRR little-endian): the kernel works in place.
        UnsafeMutableRawPointer(misses).withMemoryRebound(to: UInt8.self, capacity: 4 * missCount) { bytes in
            kernel.apply8(bytes, bytes, missCount, .rgba)
        }
        for k in 0..<missCount {
            let at = Int(places[k])
            let colour = Int(source[at &+ bi]) << 16 | Int(source[at &+ gi]) << 8 | Int(source[at &+ ri])
            let word = Self.known | UInt32(littleEndian: misses[k]) & 0x00FF_FFFF
            words[colour].store(word, ordering: .relaxed)
            write(word, source, destination, at, layout)
        }
    }

    /// Writes one pixel's result (a 0x80BBGGRR word) at sample offset `pixel`, copying a fourth
    /// sample; touches no other pixel.
    @inline(__always)
    private func write(_ word: UInt32, _ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>,
                       _ pixel: Int, _ layout: PixelLayout) {
        let stride = layout.stride, ri = layout.red, gi = layout.green, bi = layout.blue
        if stride == 4 && source != UnsafePointer(destination) {
            let extra = 6 - ri - gi - bi
            destination[pixel &+ extra] = source[pixel &+ extra]
        }
        destination[pixel &+ ri] = UInt8(truncatingIfNeeded: word)
        destination[pixel &+ gi] = UInt8(truncatingIfNeeded: word >> 8)
        destination[pixel &+ bi] = UInt8(truncatingIfNeeded: word >> 16)
    }
}
