import ColorCubeCore
import ColorCubeImaging
import Foundation
import _CPrefetch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Photo pixels summed by colour: for each distinct 8-bit before colour, the weight of the
/// pixels that had it (`FlatnessWeights.full` each in a pair without noise, less where a noisy
/// pair's before image is busy), and the weighted sums of their before and after values (16-bit
/// scale, so 8-bit codes count 257 times their value).
///
/// Memory is bounded whatever the number of pairs: a 64 MB slot table (one 32-bit entry index per
/// 8-bit colour, zero pages until touched) and one 60-byte entry (with its key) per distinct
/// colour, at most 2^24; a large pair is summed on two threads in bands of rows taken in turn,
/// the odd bands into a partner tally of the same kind, then merged. The sums are integers and
/// entries are kept in the order their colours first appear (this tally's bands, then the
/// partner's), so the result does not depend on which thread finishes first. 16-bit before colours share
/// the entry of their nearest 8-bit colour; the entry's mean before colour (not the 8-bit key) is
/// where the fit places it, which keeps 16-bit precision up to how the trilinear weights vary
/// within 1/255.
/// Sendable because each instance is used by one thread at a time: `add` splits a large pair
/// between this tally and its `partner`, one thread each, and merges after both are done.
final class ColorTally: @unchecked Sendable {
    struct Entry {
        var count: UInt64 = 0
        var before: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var after: (UInt64, UInt64, UInt64) = (0, 0, 0)
    }

    /// Pixels below which a pair is summed on one thread.
    static let splitThreshold = 1 << 18
    /// Rows in each band of a pair summed on two threads, the bands taken in turn.
    static let bandRows = 16
    /// Pixels ahead of the one being summed whose slot is fetched into the cache; half as far
    /// ahead, the slot is read and its entry fetched. (The loop's time otherwise goes into those
    /// two loads' cache misses: a 24 Mpx pair meets half a million colours, 28 MB of entries.)
    static let lookahead = 8

    /// Slot table: entry index + 1 for each 8-bit colour (at `slotIndex`), 0 if unseen.
    private let slots: UnsafeMutablePointer<UInt32>
    private var storage: UnsafeMutablePointer<Entry>
    private var keys: UnsafeMutablePointer<UInt32>
    private var capacity = 0
    /// Distinct colours so far.
    private(set) var count = 0
    /// Pixels tallied so far.
    private(set) var pixels = 0
    /// Their weights summed (`pixels` times `FlatnessWeights.full` where every pixel had full weight).
    private(set) var totalWeight: UInt64 = 0
    /// Sums the second half of large pairs; empty between pairs.
    private var partner: ColorTally?

    init() {
        // calloc of 64 MB maps fresh zero pages: only the colours met are ever touched.
        let raw = calloc(1 << 24, MemoryLayout<UInt32>.stride)
        slots = raw?.bindMemory(to: UInt32.self, capacity: 1 << 24)
            ?? UnsafeMutablePointer<UInt32>.allocate(capacity: 1 << 24).initializedZero(count: 1 << 24)
        capacity = 4096
        storage = Self.resized(nil, to: capacity)
        keys = Self.resized(nil, to: capacity)
    }

    deinit {
        free(slots)
        free(storage)
        free(keys)
    }

    /// The slot of the 8-bit colour `key` (red | green << 8 | blue << 16): the three codes' bits
    /// interleaved (blue, green, red from the top), so that colours a few codes apart, as
    /// neighbouring pixels are, share a page of the table instead of being 64 KB apart.
    @inline(__always)
    static func slotIndex(_ key: Int) -> Int {
        spread(key & 0xFF) | spread((key >> 8) & 0xFF) << 1 | spread(key >> 16) << 2
    }

    /// An 8-bit value's bits moved to every third bit (bit k to bit 3k).
    @inline(__always)
    private static func spread(_ value: Int) -> Int {
        var x = value
        x = (x | x << 8) & 0xF00F
        x = (x | x << 4) & 0xC30C3
        x = (x | x << 2) & 0x249249
        return x
    }

    /// The index in `entries` of the 8-bit colour `key` (red | green << 8 | blue << 16), nil if
    /// it was never tallied.
    func entryIndex(key: Int) -> Int? {
        let slot = Int(slots[Self.slotIndex(key)])
        return slot > 0 ? slot - 1 : nil
    }

    /// The entries, in the order their colours first appeared: a view of the tally's own
    /// storage (no copy: a photo pair holds millions), valid until the next `add`.
    var entries: UnsafeBufferPointer<Entry> { UnsafeBufferPointer(start: storage, count: count) }

    /// Whether every after pixel tallied so far is grey (its three channels equal), as a black and
    /// white conversion's are: then every colour's after sums are equal too. (A colour whose pixels'
    /// tints cancel exactly in the sums would pass; real afters do not do that.)
    var aftersAreGrey: Bool {
        entries.allSatisfy { $0.after.0 == $0.after.1 && $0.after.1 == $0.after.2 }
    }

    /// Tallies every pixel of a pair, each with the weight `weights` gives it; pixels with alpha 0
    /// in either image are left out.
    /// - Parameter alongside: other work, run on the second thread while the pair's two halves are
    ///   merged on the first (else after the tally), so that no core waits for the merge.
    func add(before: PixelBuffer, after: PixelBuffer, weights: FlatnessWeights,
             alongside: @Sendable () -> Void = {}) {
        switch (before.samples, after.samples) {
        case (.eight(let b), .eight(let a)): add(b, before.channels, a, after.channels, before.width, weights, alongside)
        case (.eight(let b), .sixteen(let a)): add(b, before.channels, a, after.channels, before.width, weights, alongside)
        case (.sixteen(let b), .eight(let a)): add(b, before.channels, a, after.channels, before.width, weights, alongside)
        case (.sixteen(let b), .sixteen(let a)): add(b, before.channels, a, after.channels, before.width, weights, alongside)
        }
    }

    private func add<B: LearnSample, A: LearnSample>(_ before: [B], _ beforeChannels: Int,
                                                     _ after: [A], _ afterChannels: Int,
                                                     _ width: Int, _ weights: FlatnessWeights,
                                                     _ alongside: @Sendable () -> Void) {
        let total = before.count / beforeChannels
        before.withUnsafeBufferPointer { bp in
            after.withUnsafeBufferPointer { ap in
                guard let b = bp.baseAddress, let a = ap.baseAddress else { return }
                let source = Source(before: DisjointRegions(b), beforeChannels: beforeChannels,
                                    after: DisjointRegions(a), afterChannels: afterChannels,
                                    width: width, pixels: total, weights: weights)
                guard total >= Self.splitThreshold else {
                    tally(source, 0..<total)
                    alongside()
                    return
                }
                let partner = self.partner ?? ColorTally()
                self.partner = partner
                // Bands taken in turn, not halves: a photo's halves can hold very different
                // numbers of colours, and one core then waited for the other (0.37 s against
                // 0.55 s on a 24 Mpx pair).
                let band = Self.bandRows * width
                ParallelLoop.run(iterations: 2) { index in
                    let tally = index == 0 ? self : partner
                    for start in stride(from: index * band, to: total, by: 2 * band) {
                        tally.tally(source, start..<min(start + band, total))
                    }
                }
                ParallelLoop.run(iterations: 2) { index in
                    if index == 0 { self.merge(partner) } else { alongside() }
                }
            }
        }
    }

    /// Where a pair's samples are, and how its pixels are weighted.
    /// The tallying threads read the samples and none writes them (`DisjointRegions`' rule for
    /// memory no thread writes).
    private struct Source<B: LearnSample, A: LearnSample>: Sendable {
        let before: DisjointRegions<UnsafePointer<B>>
        let beforeChannels: Int
        let after: DisjointRegions<UnsafePointer<A>>
        let afterChannels: Int
        let width: Int
        let pixels: Int
        let weights: FlatnessWeights
    }

    /// Sums `range` of the pair's pixels. A pixel weighs `FlatnessWeights.full`, or, when the
    /// pair has a weight table, what the table gives the largest difference (8-bit codes, over
    /// channels) between it and its four neighbours in the before image.
    private func tally<B: LearnSample, A: LearnSample>(_ source: Source<B, A>, _ range: Range<Int>) {
        // Two copies of the loop, each compiled for its case: the uniform one stays as tight as
        // a plain count.
        if source.weights.isUniform {
            tally(source, range, weighted: false)
        } else {
            tally(source, range, weighted: true)
        }
    }

    @inline(__always)
    private func tally<B: LearnSample, A: LearnSample>(_ source: Source<B, A>, _ range: Range<Int>, weighted: Bool) {
        let b = source.before.start(of: 0), a = source.after.start(of: 0)
        let bs = source.beforeChannels, ac = source.afterChannels
        let width = source.width, last = source.pixels
        let table = source.weights.table
        let slots = self.slots
        var used = 0
        var weightSum: UInt64 = 0
        // A run of pixels of one colour (flat areas; 39% of a 24 Mpx pair's pixels repeat the one
        // before) is summed here and added to its entry once: its entry stays out of the loop's
        // chain of memory updates.
        var runKey = -1, runIndex = 0
        var run = Entry()
        var entries = storage
        // Each pixel's slot is found `lookahead` pixels early and fetched into the cache, and
        // half as far ahead its entry is fetched (a prefetch of an address gone stale, an entry
        // moved by `append` or an alpha-0 pixel's, only wastes the fetch).
        let far = Self.lookahead, near = far / 2, mask = 2 * far - 1
        let start = range.lowerBound, end = range.upperBound
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * far) { ahead in
            for pixel in start..<min(start &+ far, end) {
                ahead[pixel & mask] = Self.slotIndex(Self.key(b, pixel &* bs))
            }
            for pixel in range {
                let later = pixel &+ far
                if later < end {
                    let index = Self.slotIndex(Self.key(b, later &* bs))
                    ahead[later & mask] = index
                    ccprefetch_read(slots + index)
                }
                if pixel &+ near < end {
                    let slot = Int(slots[ahead[(pixel &+ near) & mask]])
                    if slot > 0 { ccprefetch_write(entries + (slot &- 1)) }
                }
                let bi = pixel &* bs, ai = pixel &* ac
                if bs == 4, b[bi &+ 3] == 0 { continue }
                if ac == 4, a[ai &+ 3] == 0 { continue }
                let r = b[bi], g = b[bi &+ 1], bl = b[bi &+ 2]
                let r8 = B.code8(r), g8 = B.code8(g), b8 = B.code8(bl)
                let key = r8 | g8 << 8 | b8 << 16
                var w = FlatnessWeights.full
                if weighted {
                    w = table[FlatnessWeights.spread(b, channels: bs, pixel: pixel, width: width, pixels: last,
                                                     code: (r8, g8, b8))]
                }
                if key != runKey {
                    if runKey >= 0 { Self.accumulate(run, into: entries + runIndex) }
                    var slot = Int(slots[ahead[pixel & mask]])
                    if slot == 0 {
                        slot = append(key: UInt32(key))
                        entries = storage
                    }
                    runKey = key
                    runIndex = slot &- 1
                    run = Entry()
                }
                run.count &+= w
                run.before.0 &+= w &* B.code16(r)
                run.before.1 &+= w &* B.code16(g)
                run.before.2 &+= w &* B.code16(bl)
                run.after.0 &+= w &* A.code16(a[ai])
                run.after.1 &+= w &* A.code16(a[ai &+ 1])
                run.after.2 &+= w &* A.code16(a[ai &+ 2])
                used &+= 1
                weightSum &+= w
            }
        }
        if runKey >= 0 { Self.accumulate(run, into: entries + runIndex) }
        pixels += used
        totalWeight &+= weightSum
    }

    /// The 8-bit colour key (red | green << 8 | blue << 16) of the before sample at `index`.
    @inline(__always)
    private static func key<B: LearnSample>(_ samples: UnsafePointer<B>, _ index: Int) -> Int {
        B.code8(samples[index]) | B.code8(samples[index &+ 1]) << 8 | B.code8(samples[index &+ 2]) << 16
    }

    /// A new, empty entry for `key`; returns its slot value (index + 1).
    private func append(key: UInt32) -> Int {
        if count == capacity {
            capacity *= 2
            storage = Self.resized(storage, to: capacity)
            keys = Self.resized(keys, to: capacity)
        }
        (storage + count).initialize(to: Entry())
        keys[count] = key
        count += 1
        slots[Self.slotIndex(Int(key))] = UInt32(count)
        return count
    }

    /// Adds `sums` to the entry at `entry`.
    @inline(__always)
    private static func accumulate(_ sums: Entry, into entry: UnsafeMutablePointer<Entry>) {
        entry.pointee.count &+= sums.count
        entry.pointee.before.0 &+= sums.before.0
        entry.pointee.before.1 &+= sums.before.1
        entry.pointee.before.2 &+= sums.before.2
        entry.pointee.after.0 &+= sums.after.0
        entry.pointee.after.1 &+= sums.after.1
        entry.pointee.after.2 &+= sums.after.2
    }

    /// `pointer`'s block (nil for a new one) resized to `count` elements. realloc, not
    /// allocate-and-move: a large block grows by remapping its pages, without copying them or
    /// touching fresh ones (on a 24 Mpx pair that was a seventh of learn's page faults).
    private static func resized<T>(_ pointer: UnsafeMutablePointer<T>?, to count: Int) -> UnsafeMutablePointer<T> {
        guard let raw = realloc(pointer, count * MemoryLayout<T>.stride) else {
            fatalError("ColorTally: no memory for \(count) colours")
        }
        return raw.bindMemory(to: T.self, capacity: count)
    }

    /// Adds the partner's entries in their order (colours new here go last, as they would had
    /// this tally read the partner's pixels itself), then empties the partner.
    private func merge(_ other: ColorTally) {
        for index in 0..<other.count {
            let key = other.keys[index]
            let from = other.storage[index]
            var slot = Int(slots[Self.slotIndex(Int(key))])
            if slot == 0 { slot = append(key: key) }
            Self.accumulate(from, into: storage + (slot - 1))
            other.slots[Self.slotIndex(Int(key))] = 0
        }
        pixels += other.pixels
        totalWeight &+= other.totalWeight
        other.count = 0
        other.pixels = 0
        other.totalWeight = 0
    }
}

/// A sample type the tally reads: its 8-bit key code and its value on the 16-bit scale.
protocol LearnSample: FixedWidthInteger & UnsignedInteger & SendableMetatype {
    /// The nearest 8-bit code.
    static func code8(_ value: Self) -> Int
    /// The value on the 0...65535 scale.
    static func code16(_ value: Self) -> UInt64
}

extension UInt8: LearnSample {
    @inline(__always) static func code8(_ value: UInt8) -> Int { Int(value) }
    @inline(__always) static func code16(_ value: UInt8) -> UInt64 { UInt64(value) &* 257 }
}

extension UInt16: LearnSample {
    @inline(__always) static func code8(_ value: UInt16) -> Int { Int(SampleDepth.eightBit(value)) }
    @inline(__always) static func code16(_ value: UInt16) -> UInt64 { UInt64(value) }
}

extension UnsafeMutablePointer where Pointee == UInt32 {
    fileprivate func initializedZero(count: Int) -> Self {
        initialize(repeating: 0, count: count)
        return self
    }
}
