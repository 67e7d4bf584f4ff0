import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// The engine's own 8-bit results for all 2^24 colours, packed as 0x00BBGGRR words (64 MB).
///
/// Built by running the 8-bit kernel over every colour once (about 0.1 s on two cores), it turns
/// the per-pixel interpolation into one table read. That pays when a look is applied to many
/// more pixels than the table holds: a folder of photos, a video stream. Because the table holds
/// exactly what the kernel computes, results are identical with and without it.
final class DenseTable8: @unchecked Sendable {
    static let colorCount = 1 << 24
    let words: UnsafeMutablePointer<UInt32>

    /// Builds the table; nil when 64 MB cannot be had (the engine then keeps interpolating).
    init?(kernel: LatticeKernel) {
        // Reads jump around 64 MB: aligned to 2 MB and marked for transparent huge pages, the table
        // needs 32 TLB entries instead of 16,384.
        let bytes = Self.colorCount * MemoryLayout<UInt32>.stride
        var memory: UnsafeMutableRawPointer?
        if posix_memalign(&memory, 1 << 21, bytes) == 0, let memory {
            madvise(memory, bytes, MADV_HUGEPAGE)
            words = memory.bindMemory(to: UInt32.self, capacity: Self.colorCount)
        } else if let memory = malloc(bytes) {
            words = memory.bindMemory(to: UInt32.self, capacity: Self.colorCount)
        } else {
            return nil
        }
        let words = self.words
        // One blue value per task: 65,536 colours, red fastest, then green.
        DispatchQueue.concurrentPerform(iterations: 256) { blue in
            let input = UnsafeMutablePointer<UInt8>.allocate(capacity: 65536 * 4)
            defer { input.deallocate() }
            for green in 0..<256 {
                for red in 0..<256 {
                    let pixel = (green << 8 | red) * 4
                    input[pixel] = UInt8(red)
                    input[pixel + 1] = UInt8(green)
                    input[pixel + 2] = UInt8(blue)
                    input[pixel + 3] = 0
                }
            }
            kernel.apply8(input, input, 65536, .rgba)
            input.withMemoryRebound(to: UInt32.self, capacity: 65536) { packed in
                (words + blue << 16).update(from: packed, count: 65536)
            }
        }
    }

    deinit {
        free(words)
    }

    /// Applies the table to `count` interleaved pixels; the fourth sample, if any, is copied.
    func apply(_ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>, _ count: Int,
               _ layout: PixelLayout) {
        let stride = layout.stride, ri = layout.red, gi = layout.green, bi = layout.blue
        let copiesExtra = stride == 4 && source != UnsafePointer(destination)
        let extra = 6 - ri - gi - bi
        let words = UnsafePointer(self.words)
        var pixel = 0
        for _ in 0..<count {
            let index = Int(source[pixel &+ bi]) << 16 | Int(source[pixel &+ gi]) << 8 | Int(source[pixel &+ ri])
            let word = words[index]
            if copiesExtra { destination[pixel &+ extra] = source[pixel &+ extra] }
            destination[pixel &+ ri] = UInt8(truncatingIfNeeded: word)
            destination[pixel &+ gi] = UInt8(truncatingIfNeeded: word >> 8)
            destination[pixel &+ bi] = UInt8(truncatingIfNeeded: word >> 16)
            pixel &+= stride
        }
    }
}
