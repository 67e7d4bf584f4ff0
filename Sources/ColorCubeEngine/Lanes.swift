#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// Four-lane Float arithmetic for the kernels: one SSE instruction each on x86-64, the standard
/// library's SIMD4 operators elsewhere.
///
/// Optimised builds compile both to the same instructions; debug builds turn the SIMD4 operators
/// into lane-by-lane loops some fifty times slower, too slow for tests that push all 2^24 8-bit
/// colours through the engine. `@_transparent` inlines these even in debug builds.
enum Lanes {
    @_transparent
    static func splat(_ value: Float) -> SIMD4<Float> {
        #if arch(x86_64)
        _mm_set1_ps(value)
        #else
        SIMD4(repeating: value)
        #endif
    }

    @_transparent
    static func add(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> {
        #if arch(x86_64)
        _mm_add_ps(a, b)
        #else
        a + b
        #endif
    }

    @_transparent
    static func subtract(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> {
        #if arch(x86_64)
        _mm_sub_ps(a, b)
        #else
        a - b
        #endif
    }

    @_transparent
    static func multiply(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> {
        #if arch(x86_64)
        _mm_mul_ps(a, b)
        #else
        a * b
        #endif
    }

    /// a + (b - a) * t: the lerp in the same operation order as `CubeSampler`.
    @_transparent
    static func lerp(_ a: SIMD4<Float>, _ b: SIMD4<Float>, _ t: SIMD4<Float>) -> SIMD4<Float> {
        add(a, multiply(subtract(b, a), t))
    }
}
