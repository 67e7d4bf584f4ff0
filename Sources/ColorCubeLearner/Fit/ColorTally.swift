#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Photo pixels summed by colour: for each distinct 8-bit before colour, how many pixels had it,
/// and the sums of their before and after values (16-bit scale, so 8-bit codes count 257 times
/// their value).
///
/// Memory is bounded whatever the number of pairs: a 64 MB slot table (one 32-bit entry index per
/// 8-bit colour, zero pages until touched) and one 56-byte entry per distinct colour, at most
/// 2^24. The sums are integers, so they do not depend on the order pixels arrive in. 16-bit before
/// colours share the entry of their nearest 8-bit colour; the entry's mean before colour (not the
/// 8-bit key) is where the fit places it, which keeps 16-bit precision up to how the trilinear
/// weights vary within 1/255.
final class ColorTally {
    struct Entry {
        var count: UInt64 = 0
        var before: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var after: (UInt64, UInt64, UInt64) = (0, 0, 0)
    }

    /// Slot table: entry index + 1 for each 8-bit colour red | green << 8 | blue << 16, 0 if unseen.
    private let slots: UnsafeMutablePointer<UInt32>
    private(set) var entries: [Entry] = []
    /// Pixels tallied so far.
    private(set) var pixels = 0

    init() {
        // calloc of 64 MB maps fresh zero pages: only the colours met are ever touched.
        let raw = calloc(1 << 24, MemoryLayout<UInt32>.stride)
        slots = raw?.bindMemory(to: UInt32.self, capacity: 1 << 24)
            ?? UnsafeMutablePointer<UInt32>.allocate(capacity: 1 << 24).initializedZero(count: 1 << 24)
    }

    deinit {
        free(slots)
    }

    /// Tallies every pixel of a pair; pixels with alpha 0 in either image are left out.
    func add(before: PixelBuffer, after: PixelBuffer) {
        switch (before.samples, after.samples) {
        case (.eight(let b), .eight(let a)): tally(b, before.channels, a, after.channels)
        case (.eight(let b), .sixteen(let a)): tally(b, before.channels, a, after.channels)
        case (.sixteen(let b), .eight(let a)): tally(b, before.channels, a, after.channels)
        case (.sixteen(let b), .sixteen(let a)): tally(b, before.channels, a, after.channels)
        }
    }

    private func tally<B: LearnSample, A: LearnSample>(_ before: [B], _ beforeChannels: Int,
                                                       _ after: [A], _ afterChannels: Int) {
        let count = before.count / beforeChannels
        let bs = beforeChannels, ac = afterChannels
        var used = 0
        before.withUnsafeBufferPointer { bp in
            after.withUnsafeBufferPointer { ap in
                guard let b = bp.baseAddress, let a = ap.baseAddress else { return }
                for pixel in 0..<count {
                    let bi = pixel &* bs, ai = pixel &* ac
                    if bs == 4, b[bi &+ 3] == 0 { continue }
                    if ac == 4, a[ai &+ 3] == 0 { continue }
                    let r = b[bi], g = b[bi &+ 1], bl = b[bi &+ 2]
                    let key = B.code8(r) | B.code8(g) << 8 | B.code8(bl) << 16
                    var slot = Int(slots[key])
                    if slot == 0 {
                        entries.append(Entry())
                        slot = entries.count
                        slots[key] = UInt32(slot)
                    }
                    entries.withUnsafeMutableBufferPointer { list in
                        let e = list.baseAddress.unsafelyUnwrapped + (slot &- 1)
                        e.pointee.count &+= 1
                        e.pointee.before.0 &+= B.code16(r)
                        e.pointee.before.1 &+= B.code16(g)
                        e.pointee.before.2 &+= B.code16(bl)
                        e.pointee.after.0 &+= A.code16(a[ai])
                        e.pointee.after.1 &+= A.code16(a[ai &+ 1])
                        e.pointee.after.2 &+= A.code16(a[ai &+ 2])
                    }
                    used &+= 1
                }
            }
        }
        pixels += used
    }
}

/// A sample type the tally reads: its 8-bit key code and its value on the 16-bit scale.
protocol LearnSample: FixedWidthInteger & UnsignedInteger {
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
    @inline(__always) static func code8(_ value: UInt16) -> Int { (Int(value) &* 255 &+ 32767) / 65535 }
    @inline(__always) static func code16(_ value: UInt16) -> UInt64 { UInt64(value) }
}

extension UnsafeMutablePointer where Pointee == UInt32 {
    fileprivate func initializedZero(count: Int) -> Self {
        initialize(repeating: 0, count: count)
        return self
    }
}
