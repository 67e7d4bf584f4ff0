// See include/cclattice.h. One loop body (`run`) serves both interpolations and every
// combination of strength mixing and output curves; the entry points call it with constants, so
// the compiler makes one flat copy per combination.
#include "cclattice.h"

// Never fuse a multiply and an add: the results must be the Swift kernel's, bit for bit.
#pragma STDC FP_CONTRACT OFF

#if defined(__x86_64__)
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2,fma")))
#define INLINE inline __attribute__((always_inline))

int cclattice_available(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

/// Node `a`'s four floats in the low half, node `b`'s in the high half.
AVX2 static INLINE __m256 pair(const float *a, const float *b) {
    return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_load_ps(a)), _mm_load_ps(b), 1);
}

AVX2 static INLINE __m256 splat_pair(float a, float b) {
    return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_set1_ps(a)), _mm_set1_ps(b), 1);
}

/// a + (b - a) * t, in that order (Swift's Lanes.lerp and CubeSampler's).
AVX2 static INLINE __m256 lerp(__m256 a, __m256 b, __m256 t) {
    return _mm256_add_ps(a, _mm256_mul_ps(_mm256_sub_ps(b, a), t));
}

/// Trilinear for two pixels: seven lerps, red, then green, then blue.
AVX2 static INLINE __m256 trilinear(const cclattice_kernel *k, const cclattice_step *a, const cclattice_step *b) {
    const float *p = k->lattice + 4 * ((int64_t)a[0].offset + a[1].offset + a[2].offset);
    const float *q = k->lattice + 4 * ((int64_t)b[0].offset + b[1].offset + b[2].offset);
    const int64_t g = 4 * k->green_stride, bl = 4 * k->blue_stride;
    __m256 x = splat_pair(a[0].fraction, b[0].fraction);
    __m256 y = splat_pair(a[1].fraction, b[1].fraction);
    __m256 z = splat_pair(a[2].fraction, b[2].fraction);
    __m256 c00 = lerp(pair(p, q), pair(p + 4, q + 4), x);
    __m256 c10 = lerp(pair(p + g, q + g), pair(p + g + 4, q + g + 4), x);
    __m256 c01 = lerp(pair(p + bl, q + bl), pair(p + bl + 4, q + bl + 4), x);
    __m256 c11 = lerp(pair(p + bl + g, q + bl + g), pair(p + bl + g + 4, q + bl + g + 4), x);
    __m256 c0 = lerp(c00, c10, y);
    __m256 c1 = lerp(c01, c11, y);
    return lerp(c0, c1, z);
}

static INLINE float larger(float a, float b) { return a > b ? a : b; }
static INLINE float smaller(float a, float b) { return a < b ? a : b; }

/// One pixel's tetrahedron: its two inner corners (node offsets from the lower corner) and the
/// weights of c000, the inner corners and c111.
typedef struct tetrahedron {
    int64_t base, first, second;
    float w0, w1, w2, w3;
} tetrahedron;

static INLINE tetrahedron tetrahedron_of(const cclattice_kernel *k, const cclattice_step *s) {
    float x = s[0].fraction, y = s[1].fraction, z = s[2].fraction;
    int outcome = (x > y ? 4 : 0) | (y > z ? 2 : 0) | (x > z ? 1 : 0);
    float high = larger(x, larger(y, z)), low = smaller(x, smaller(y, z));
    float middle = larger(smaller(x, y), smaller(larger(x, y), z));
    tetrahedron t = {
        (int64_t)s[0].offset + s[1].offset + s[2].offset,
        k->tetrahedra[2 * outcome], k->tetrahedra[2 * outcome + 1],
        1 - high, high - middle, middle - low, low,
    };
    return t;
}

/// Tetrahedral for two pixels: c000 * (1 - high) + cA * (high - middle), plus
/// cB * (middle - low) + c111 * low (the Swift kernel's order).
AVX2 static INLINE __m256 tetrahedral(const cclattice_kernel *k, const cclattice_step *a, const cclattice_step *b) {
    tetrahedron ta = tetrahedron_of(k, a), tb = tetrahedron_of(k, b);
    const float *p = k->lattice + 4 * ta.base, *q = k->lattice + 4 * tb.base;
    const int64_t far = 4 * (k->blue_stride + k->green_stride + 1);
    __m256 near = _mm256_add_ps(_mm256_mul_ps(pair(p, q), splat_pair(ta.w0, tb.w0)),
                                _mm256_mul_ps(pair(p + 4 * ta.first, q + 4 * tb.first), splat_pair(ta.w1, tb.w1)));
    __m256 distant = _mm256_add_ps(_mm256_mul_ps(pair(p + 4 * ta.second, q + 4 * tb.second), splat_pair(ta.w2, tb.w2)),
                                   _mm256_mul_ps(pair(p + far, q + far), splat_pair(ta.w3, tb.w3)));
    return _mm256_add_ps(near, distant);
}

/// The output curves on two pixels: each channel's position in its table, clamped to the table,
/// and a lerp between the two samples around it (gathered).
AVX2 static INLINE __m256 curves(const cclattice_kernel *k, __m256 value) {
    __m128 min4 = _mm_loadu_ps(k->curve_min), inverse4 = _mm_loadu_ps(k->curve_inverse_step);
    __m256 min = _mm256_insertf128_ps(_mm256_castps128_ps256(min4), min4, 1);
    __m256 inverse = _mm256_insertf128_ps(_mm256_castps128_ps256(inverse4), inverse4, 1);
    const int32_t samples = k->curve_samples;
    // max first: it turns NaN into 0.
    __m256 t = _mm256_max_ps(_mm256_mul_ps(_mm256_sub_ps(value, min), inverse), _mm256_setzero_ps());
    t = _mm256_min_ps(t, _mm256_set1_ps((float)(samples - 1)));
    __m256i node = _mm256_min_epi32(_mm256_cvttps_epi32(t), _mm256_set1_epi32(samples - 2));
    __m256 fraction = _mm256_sub_ps(t, _mm256_cvtepi32_ps(node));
    __m256i index = _mm256_add_epi32(node, _mm256_setr_epi32(0, samples, 2 * samples, 0, 0, samples, 2 * samples, 0));
    __m256 low = _mm256_i32gather_ps(k->curves, index, 4);
    __m256 high = _mm256_i32gather_ps(k->curves + 1, index, 4);
    return lerp(low, high, fraction);
}

/// The loop: pairs of pixels, then a last odd one (paired with itself).
AVX2 static INLINE void run(const cclattice_kernel *k, const uint8_t *source, uint8_t *destination, int64_t count,
                            int64_t stride, int64_t ri, int64_t gi, int64_t bi,
                            int tetra, int mixes, int curved) {
    const cclattice_step *steps = k->steps;
    const __m256 scale = _mm256_set1_ps(k->scale), keep = _mm256_set1_ps(k->keep);
    const __m256 top = _mm256_set1_ps(255);
    const int copies_extra = stride == 4 && source != destination;
    const int64_t extra = 6 - ri - gi - bi;
    for (int64_t i = 0; i < count; i += 2) {
        const uint8_t *s = source + i * stride;
        uint8_t *d = destination + i * stride;
        // The last pixel of an odd count is paired with itself and stored once.
        const int64_t next = i + 1 < count ? stride : 0;
        const uint8_t *t = s + next;
        cclattice_step a[3] = { steps[s[ri]], steps[256 + s[gi]], steps[512 + s[bi]] };
        cclattice_step b[3] = { steps[t[ri]], steps[256 + t[gi]], steps[512 + t[bi]] };
        __m256 look = tetra ? tetrahedral(k, a, b) : trilinear(k, a, b);
        if (curved) look = curves(k, look);
        __m256 out = _mm256_mul_ps(look, scale);
        if (mixes) {
            __m128i codes = _mm_setr_epi32(s[ri], s[gi], s[bi], 0);
            __m128i codes2 = _mm_setr_epi32(t[ri], t[gi], t[bi], 0);
            __m256 in = _mm256_cvtepi32_ps(_mm256_insertf128_si256(_mm256_castsi128_si256(codes), codes2, 1));
            out = _mm256_add_ps(out, _mm256_mul_ps(in, keep));
        }
        // Round to nearest even and clamp: the upper clamp in float keeps huge values from
        // converting to INT32_MIN, the saturating packs do the rest.
        __m256i ints = _mm256_cvtps_epi32(_mm256_min_ps(out, top));
        __m256i shorts = _mm256_packs_epi32(ints, ints);
        __m256i bytes = _mm256_packus_epi16(shorts, shorts);
        uint32_t wa = (uint32_t)_mm256_extract_epi32(bytes, 0), wb = (uint32_t)_mm256_extract_epi32(bytes, 4);
        // Both pixels are read above, before either is written (in place, d == s).
        if (copies_extra) d[extra] = s[extra];
        d[ri] = (uint8_t)wa;
        d[gi] = (uint8_t)(wa >> 8);
        d[bi] = (uint8_t)(wa >> 16);
        if (next) {
            uint8_t *e = d + stride;
            if (copies_extra) e[extra] = t[extra];
            e[ri] = (uint8_t)wb;
            e[gi] = (uint8_t)(wb >> 8);
            e[bi] = (uint8_t)(wb >> 16);
        }
    }
}

AVX2 static INLINE void run_any(const cclattice_kernel *k, const uint8_t *source, uint8_t *destination, int64_t count,
                         int64_t stride, int64_t r, int64_t g, int64_t b, int tetra) {
    if (k->curves) {
        if (k->mixes) run(k, source, destination, count, stride, r, g, b, tetra, 1, 1);
        else run(k, source, destination, count, stride, r, g, b, tetra, 0, 1);
    } else {
        if (k->mixes) run(k, source, destination, count, stride, r, g, b, tetra, 1, 0);
        else run(k, source, destination, count, stride, r, g, b, tetra, 0, 0);
    }
}

AVX2 void cclattice_trilinear8(const cclattice_kernel *k, const uint8_t *source, uint8_t *destination, int64_t count,
                          int64_t stride, int64_t r, int64_t g, int64_t b) {
    run_any(k, source, destination, count, stride, r, g, b, 0);
}

AVX2 void cclattice_tetrahedral8(const cclattice_kernel *k, const uint8_t *source, uint8_t *destination, int64_t count,
                            int64_t stride, int64_t r, int64_t g, int64_t b) {
    run_any(k, source, destination, count, stride, r, g, b, 1);
}

#else
// Other architectures have no fast loops: cclattice_available() says so and Swift's loops run.
int cclattice_available(void) { return 0; }
void cclattice_trilinear8(const cclattice_kernel *k, const uint8_t *s, uint8_t *d, int64_t n,
                          int64_t stride, int64_t r, int64_t g, int64_t b) {
    (void)k; (void)s; (void)d; (void)n; (void)stride; (void)r; (void)g; (void)b;
}
void cclattice_tetrahedral8(const cclattice_kernel *k, const uint8_t *s, uint8_t *d, int64_t n,
                            int64_t stride, int64_t r, int64_t g, int64_t b) {
    (void)k; (void)s; (void)d; (void)n; (void)stride; (void)r; (void)g; (void)b;
}
#endif
