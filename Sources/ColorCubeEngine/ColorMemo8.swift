import ColorCubeCore
import Synchronization

/// How many of its 8-bit results the engine remembers (see `ColorMemo8`).
public enum ColorMemory: Sendable {
    /// None: every pixel is interpolated (a thumbnail, a preview).
    case none
    /// The colours met lately, in a 2 MB cache: photos, whose colours rarely repeat far apart, and
    /// batches of them, where a large table's first fill would cost more than it saves. Kept only
    /// where a miss costs more than a lookup (the portable loops, or a look with an output stage):
    /// a lookup is a random read in 2 MB, and on distinct photos the AVX2 loops alone interpolate
    /// about 16% faster (274 against 237 Mpx/s a thread; see the Engine article in
    /// ColorCubeEngine.docc), so there
    /// the engine interpolates every pixel.
    case recent
    /// Every colour met, in a 64 MB table (touched only where colours fall): long runs of frames,
    /// which pay for the table once and then miss only colours never seen before.
    case every
}

/// The engine's 8-bit results, remembered as they are computed.
///
/// Colour c is blue << 16 | green << 8 | red (the bytes of an RGB pixel read as a little-endian
/// word) and its result 0x00BBGGRR. Two layouts, chosen by `ColorMemory`, behind one block loop:
/// - `EveryColor`: a 32-bit word per colour (64 MB), 0x80BBGGRR once known and 0 before; nothing is
///   ever evicted, and only the pages where colours fall are touched.
/// - `RecentColors`: 2^18 64-bit slots (2 MB), colour c in slot hash(c) (Fibonacci hashing, so that
///   colours a step apart on any channel land far apart) as 1 << 63 | c << 32 | result; a slot holds
///   whichever colour was stored there last. Neighbouring pixels mostly share colours, so a photo's
///   hits come from a table that stays in the processor's cache.
/// Both sit on huge pages (`HugePageMapping`). Measured (see the Engine article in
/// ColorCubeEngine.docc): a JPEG batch of distinct
/// photos, alternating with ImageMagick, spent 0.13-0.19 s in the look with the 64 MB table and
/// 0.033-0.037 s with the cache; the stream of four 24 Mpx frames ran 0.22 s with the table and
/// 0.31 s with the cache.
///
/// Results are identical to the kernel's, because they are the kernel's.
///
/// Sendable by promise (`@unchecked`, as the compiler cannot see through the pointer): every access
/// to the words is a relaxed atomic load or store of a whole word; an `EveryColor` word only ever
/// changes from 0 to the one value its colour has, and a `RecentColors` word carries its own colour
/// (used only if it matches), so two threads that race on a word each leave a valid entry and no
/// ordering between threads is needed. Zero pages are words that hold 0, and the atomics have their
/// integers' layouts.
final class ColorMemo8: @unchecked Sendable {
    /// Where results are kept and found.
    private protocol Slots {
        /// The result for colour `index`, or nil when it is not held.
        func result(_ index: Int) -> UInt32?
        func remember(_ index: Int, _ result: UInt32)
    }

    private struct EveryColor: Slots {
        static let count = 1 << 24
        let words: UnsafeMutablePointer<Atomic<UInt32>>

        @inline(__always)
        func result(_ index: Int) -> UInt32? {
            let word = words[index].load(ordering: .relaxed)
            return word != 0 ? word & 0x00FF_FFFF : nil
        }

        @inline(__always)
        func remember(_ index: Int, _ result: UInt32) {
            words[index].store(0x8000_0000 | result, ordering: .relaxed)
        }
    }

    private struct RecentColors: Slots {
        static let bits = 18
        let words: UnsafeMutablePointer<Atomic<UInt64>>

        @inline(__always)
        static func slot(_ index: Int) -> Int {
            Int(truncatingIfNeeded: (UInt32(truncatingIfNeeded: index) &* 0x9E37_79B1) >> UInt32(32 - bits))
        }

        @inline(__always)
        func result(_ index: Int) -> UInt32? {
            let word = words[Self.slot(index)].load(ordering: .relaxed)
            return word >> 32 == 0x8000_0000 | UInt64(index) ? UInt32(truncatingIfNeeded: word) : nil
        }

        @inline(__always)
        func remember(_ index: Int, _ result: UInt32) {
            words[Self.slot(index)].store(1 << 63 | UInt64(index) << 32 | UInt64(result), ordering: .relaxed)
        }
    }

    private let memory: HugePageMapping
    private let every: EveryColor?
    private let recent: RecentColors?

    /// Maps the table; nil for `.none`, or when the address space cannot be had (the engine then
    /// interpolates every pixel).
    init?(_ extent: ColorMemory) {
        switch extent {
        case .none:
            return nil
        case .recent:
            let count = 1 << RecentColors.bits
            guard let memory = HugePageMapping(byteCount: count * MemoryLayout<UInt64>.stride) else { return nil }
            self.memory = memory
            recent = RecentColors(words: memory.start.bindMemory(to: Atomic<UInt64>.self, capacity: count))
            every = nil
        case .every:
            let count = EveryColor.count
            guard let memory = HugePageMapping(byteCount: count * MemoryLayout<UInt32>.stride) else { return nil }
            self.memory = memory
            every = EveryColor(words: memory.start.bindMemory(to: Atomic<UInt32>.self, capacity: count))
            recent = nil
        }
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
               _ layout: PixelLayout, kernel: some Kernel8) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: Self.block) { colours in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: Self.block) { places in
                guard let misses = colours.baseAddress, let missPlaces = places.baseAddress else { return }
                var start = 0
                while start < count {
                    let n = min(Self.block, count - start)
                    let from = source + start * layout.stride, to = destination + start * layout.stride
                    if let every {
                        block(every, from, to, n, layout, misses, missPlaces, kernel: kernel)
                    } else if let recent {
                        block(recent, from, to, n, layout, misses, missPlaces, kernel: kernel)
                    }
                    start += n
                }
            }
        }
    }

    /// One block of `count` pixels; `misses` and `places` hold room for `block` entries.
    @inline(__always)
    private func block(_ slots: some Slots, _ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>, _ count: Int,
                       _ layout: PixelLayout, _ misses: UnsafeMutablePointer<UInt32>,
                       _ places: UnsafeMutablePointer<Int32>, kernel: some Kernel8) {
        let stride = layout.stride, ri = layout.red, gi = layout.green, bi = layout.blue
        var missCount = 0
        var pixel = 0
        for _ in 0..<count {
            let index = Int(source[pixel &+ bi]) << 16 | Int(source[pixel &+ gi]) << 8 | Int(source[pixel &+ ri])
            if let result = slots.result(index) {
                write(result, source, destination, pixel, layout)
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
            let result = UInt32(littleEndian: misses[k]) & 0x00FF_FFFF
            slots.remember(colour, result)
            write(result, source, destination, at, layout)
        }
    }

    /// Writes one pixel's result (a 0x00BBGGRR word) at sample offset `pixel`, copying a fourth
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
