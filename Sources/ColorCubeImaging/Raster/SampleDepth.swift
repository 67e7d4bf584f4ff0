/// 16-bit samples brought to fewer bits, rounded to the nearest code as `(v * top + 32767) / 65535`
/// (top = 2^bits - 1): the one rescaling used by every writer that stores fewer bits (JPEG and WebP
/// 8, HEIC 10, AVIF 12) and by the learner's 8-bit colour keys. 0 and 65535 map to 0 and top, and
/// every 8-bit code widened by 257 comes back unchanged. No stable API.
@usableFromInline package enum SampleDepth {
    /// `value` on the scale 0...`top`.
    @inlinable @inline(__always)
    package static func reduce(_ value: UInt16, toMaximum top: UInt32) -> UInt32 {
        (UInt32(value) &* top &+ 32767) / 65535
    }

    /// `value` as the nearest 8-bit code.
    @inlinable @inline(__always)
    package static func eightBit(_ value: UInt16) -> UInt8 {
        UInt8(truncatingIfNeeded: reduce(value, toMaximum: 255))
    }

    /// A float sample (1.0 = full scale) as the nearest 16-bit code: clamped to 0...1, NaN to 0,
    /// rounded half up.
    @inlinable @inline(__always) @usableFromInline
    package static func sixteenBit(_ value: Float) -> UInt16 {
        let scaled = value * 65535 + 0.5
        guard scaled >= 1 else { return 0 }  // also NaN
        return scaled >= 65535 ? 65535 : UInt16(scaled)
    }
}
