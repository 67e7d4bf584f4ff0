import ColorCubeCore
import Synchronization

/// `YCbCrFrameGrader`'s per-pixel results for 8-bit clips, remembered by YCbCr colour.
///
/// In an 8-bit clip a pixel's luma and its (shared) chroma codes are three bytes, and everything
/// the grader does to the pixel before chroma is averaged (to RGB, the look, the excursion rule,
/// back to YCbCr) depends on those three bytes alone. So the result is computed once per colour
/// and kept; later pixels of that colour cost one table read. The table is indexed
/// `cb << 16 | cr << 8 | luma` (the pixels of a chroma block share cb and cr, and their luma
/// codes are mostly close: one or two cache lines a block) and holds a 32-bit word per colour (64 MB of address space on huge
/// pages, `HugePageMapping`; only the pages where a clip's colours fall take memory):
///
///     bits  0...7   the graded pixel's luma code, rounded and clamped as the Float path does
///     bits  8...19  its Cb before averaging, as 4 * code + 1536, clamped to 1...4095
///     bits 20...31  its Cr, the same way
///
/// so chroma is kept in quarter codes from -383.75 to 639.75 (colours far outside the RGB cube
/// have chroma codes beyond 0...255 until the block's mean is taken), and no result is 0, which
/// marks a colour not yet known.
///
/// Sendable by promise (`@unchecked`): every access is a relaxed atomic load or store of a whole
/// word, and a word only changes from 0 to the one value its colour has, so threads racing on a
/// word each leave a valid entry.
final class YCbCrMemo8: @unchecked Sendable {
    static let count = 1 << 24
    /// Quarter codes of chroma offset so that code -383.75 is 1.
    static let chromaBias: Int32 = 1536

    private let memory: HugePageMapping
    private let words: UnsafeMutablePointer<Atomic<UInt32>>

    /// Maps the table; nil when the system refuses the address space (the grader then computes
    /// every pixel).
    init?() {
        guard let memory = HugePageMapping(byteCount: Self.count * MemoryLayout<UInt32>.stride) else { return nil }
        self.memory = memory
        words = memory.start.bindMemory(to: Atomic<UInt32>.self, capacity: Self.count)
    }

    deinit {
        memory.release()
    }

    /// The words, for the C loop (which reads them with relaxed atomic loads).
    var table: UnsafePointer<UInt32> { UnsafePointer(OpaquePointer(memory.start)) }

    /// Stores the word of colour `index` (`cb << 16 | cr << 8 | luma`).
    @inline(__always)
    func remember(_ index: Int, _ word: UInt32) {
        words[index].store(word, ordering: .relaxed)
    }

    /// The word for a pixel graded to `luma` and chroma codes `blue` and `red` (Float, not
    /// rounded or clamped: the block's mean is taken first).
    @inline(__always)
    static func word(luma: UInt8, blue: Float, red: Float) -> UInt32 {
        UInt32(luma) | quarterCode(blue) << 8 | quarterCode(red) << 20
    }

    /// 4 * code + bias, rounded to nearest and clamped to 1...4095 (NaN to 1).
    @inline(__always)
    private static func quarterCode(_ code: Float) -> UInt32 {
        let biased = code * 4 + Float(chromaBias) + 0.5
        return biased >= 1 ? UInt32(min(biased, 4095)) : 1
    }
}
