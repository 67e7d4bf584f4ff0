// See include/cclattice.h. One loop body (`run`) serves both interpolations and every
// combination of strength mixing and output curves; the entry points call it with constants, so
// the compiler makes one flat copy per combination.
#include "cclattice.h"

// Only the fused multiply-adds written out below: no other contraction.
#pragma STDC FP_CONTRACT OFF

#if defined(__x86_64__)
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2,fma")))
#define INLINE inline __attribute__((always_inline))

int cclattice_available(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

/// a + (b - a) * t as one subtraction and one fused multiply-add.
AVX2 static INLINE __m256 lerp8(__m256 a, __m256 b, __m256 t) {
    return _mm256_fmadd_ps(_mm256_sub_ps(b, a), t, a);
}

AVX2 static INLINE __m128 lerp4(__m128 a, __m128 b, __m128 t) {
    return _mm_fmadd_ps(_mm_sub_ps(b, a), t, a);
}

/// Trilinear for one pixel. Red is the fastest axis, so a node and its red neighbour are 32
/// contiguous bytes: four 256-bit loads fetch the cell's eight corners as (x = 0 | x = 1) pairs.
/// The lerps go green, then blue on both halves at once, then red between the halves: the same
/// weighted mean as CubeSampler's red-green-blue order, rounded differently in the last bits.
AVX2 static INLINE __m128 trilinear(const cclattice_kernel *k, cclattice_step r, cclattice_step g, cclattice_step b) {
    const float *p = k->lattice + 4 * ((int64_t)r.offset + g.offset + b.offset);
    const int64_t gs = 4 * k->green_stride, bs = 4 * k->blue_stride;
    __m256 y = _mm256_set1_ps(g.fraction), z = _mm256_set1_ps(b.fraction);
    __m256 near = lerp8(_mm256_loadu_ps(p), _mm256_loadu_ps(p + gs), y);
    __m256 far = lerp8(_mm256_loadu_ps(p + bs), _mm256_loadu_ps(p + bs + gs), y);
    __m256 both = lerp8(near, far, z);
    return lerp4(_mm256_castps256_ps128(both), _mm256_extractf128_ps(both, 1), _mm_set1_ps(r.fraction));
}

static INLINE float larger(float a, float b) { return a > b ? a : b; }
static INLINE float smaller(float a, float b) { return a < b ? a : b; }

/// Tetrahedral for one pixel: the order of the fractions picks the tetrahedron (its two inner
/// corners from a table), weighted c000 * (1 - high) + cA * (high - middle) + cB * (middle - low)
/// + c111 * low, as a product and three fused multiply-adds.
AVX2 static INLINE __m128 tetrahedral(const cclattice_kernel *k, cclattice_step r, cclattice_step g, cclattice_step b) {
    float x = r.fraction, y = g.fraction, z = b.fraction;
    int outcome = (x > y ? 4 : 0) | (y > z ? 2 : 0) | (x > z ? 1 : 0);
    float high = larger(x, larger(y, z)), low = smaller(x, smaller(y, z));
    float middle = larger(smaller(x, y), smaller(larger(x, y), z));
    const float *p = k->lattice + 4 * ((int64_t)r.offset + g.offset + b.offset);
    const float *a = p + 4 * (int64_t)k->tetrahedra[2 * outcome], *c = p + 4 * (int64_t)k->tetrahedra[2 * outcome + 1];
    const float *far = p + 4 * (k->blue_stride + k->green_stride + 1);
    __m128 out = _mm_mul_ps(_mm_load_ps(p), _mm_set1_ps(1 - high));
    out = _mm_fmadd_ps(_mm_load_ps(a), _mm_set1_ps(high - middle), out);
    out = _mm_fmadd_ps(_mm_load_ps(c), _mm_set1_ps(middle - low), out);
    return _mm_fmadd_ps(_mm_load_ps(far), _mm_set1_ps(low), out);
}

/// The output curves: each channel's position in its table, clamped to the table, and a lerp
/// between the two samples around it. A channel's two samples are adjacent, so each channel is
/// one 8-byte load (three loads and two shuffles, several times cheaper than two gathers here).
AVX2 static INLINE __m128 curves(const cclattice_kernel *k, __m128 value) {
    const int32_t samples = k->curve_samples;
    // max first: it turns NaN into 0.
    __m128 t = _mm_mul_ps(_mm_sub_ps(value, _mm_loadu_ps(k->curve_min)), _mm_loadu_ps(k->curve_inverse_step));
    t = _mm_min_ps(_mm_max_ps(t, _mm_setzero_ps()), _mm_set1_ps((float)(samples - 1)));
    __m128i node = _mm_min_epi32(_mm_cvttps_epi32(t), _mm_set1_epi32(samples - 2));
    __m128 fraction = _mm_sub_ps(t, _mm_cvtepi32_ps(node));
    const float *table = k->curves;
    __m128 red = _mm_castpd_ps(_mm_load_sd((const double *)(table + _mm_cvtsi128_si32(node))));
    __m128 green = _mm_castpd_ps(_mm_load_sd((const double *)(table + samples + _mm_extract_epi32(node, 1))));
    __m128 blue = _mm_castpd_ps(_mm_load_sd((const double *)(table + 2 * samples + _mm_extract_epi32(node, 2))));
    __m128 redGreen = _mm_unpacklo_ps(red, green);  // low r, low g, high r, high g
    __m128 low = _mm_shuffle_ps(redGreen, blue, _MM_SHUFFLE(1, 0, 1, 0));   // r, g, b, (b's high)
    __m128 high = _mm_shuffle_ps(redGreen, blue, _MM_SHUFFLE(1, 1, 3, 2));  // r, g, b, (b's high)
    return lerp4(low, high, fraction);
}

/// The loop, one pixel at a time.
AVX2 static INLINE void run(const cclattice_kernel *shared, const uint8_t *source, uint8_t *destination,
                            int64_t count, int64_t stride, int64_t ri, int64_t gi, int64_t bi,
                            int tetra, int mixes, int curved) {
    // A local copy: byte stores may alias anything, so fields read through `shared` would be
    // read again after every pixel's stores; the copy's address never escapes, so it lives in
    // registers.
    const cclattice_kernel local = *shared;
    const cclattice_kernel *k = &local;
    const cclattice_step *steps = k->steps;
    const __m128 scale = _mm_set1_ps(k->scale), keep = _mm_set1_ps(k->keep);
    const __m128 top = _mm_set1_ps(255);
    const int copies_extra = stride == 4 && source != destination;
    const int64_t extra = 6 - ri - gi - bi;
    for (int64_t i = 0; i < count; i++) {
        const uint8_t *s = source + i * stride;
        uint8_t *d = destination + i * stride;
        const uint8_t red = s[ri], green = s[gi], blue = s[bi];
        cclattice_step r = steps[red], g = steps[256 + green], b = steps[512 + blue];
        __m128 look = tetra ? tetrahedral(k, r, g, b) : trilinear(k, r, g, b);
        if (curved) look = curves(k, look);
        __m128 out = _mm_mul_ps(look, scale);
        if (mixes) out = _mm_fmadd_ps(_mm_cvtepi32_ps(_mm_setr_epi32(red, green, blue, 0)), keep, out);
        // Round to nearest even and clamp: the upper clamp in float keeps huge values from
        // converting to INT32_MIN, the saturating packs do the rest.
        __m128i ints = _mm_cvtps_epi32(_mm_min_ps(out, top));
        __m128i shorts = _mm_packs_epi32(ints, ints);
        uint32_t word = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(shorts, shorts));
        if (copies_extra) d[extra] = s[extra];
        d[ri] = (uint8_t)word;
        d[gi] = (uint8_t)(word >> 8);
        d[bi] = (uint8_t)(word >> 16);
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
