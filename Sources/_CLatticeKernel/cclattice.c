// See include/cclattice.h. One 8-bit loop body (`run`) serves both interpolations, every
// combination of strength mixing and output curves, and the common layouts; the entry points
// call it with constants, so the compiler makes one flat copy per combination. The fixed-point
// trilinear loop (`run_fixed`) has its own body, for looks at full strength without curves. The
// planar Float loop (`run_planar`) reuses the same per-pixel helpers.
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

/// Trilinear for one pixel, the cell's lower corner at node `base` and the fractions read through
/// `x`, `y`, `z`. Red is the fastest axis, so a node and its red neighbour are 32
/// contiguous bytes: four 256-bit loads fetch the cell's eight corners as (x = 0 | x = 1) pairs.
/// The lerps go green, then blue on both halves at once, then red between the halves: the same
/// weighted mean as CubeSampler's red-green-blue order, rounded differently in the last bits.
/// The fractions are broadcast straight from memory (one load each, no trip through a general
/// register).
AVX2 static INLINE __m128 trilinear(const cclattice_kernel *k, int64_t base, const float *x, const float *y,
                                    const float *z) {
    const float *p = k->lattice + 4 * base;
    const int64_t gs = 4 * k->green_stride, bs = 4 * k->blue_stride;
    __m256 ys = _mm256_broadcast_ss(y), zs = _mm256_broadcast_ss(z);
    __m256 near = lerp8(_mm256_loadu_ps(p), _mm256_loadu_ps(p + gs), ys);
    __m256 far = lerp8(_mm256_loadu_ps(p + bs), _mm256_loadu_ps(p + bs + gs), ys);
    __m256 both = lerp8(near, far, zs);
    return lerp4(_mm256_castps256_ps128(both), _mm256_extractf128_ps(both, 1), _mm_broadcast_ss(x));
}

static INLINE float larger(float a, float b) { return a > b ? a : b; }
static INLINE float smaller(float a, float b) { return a < b ? a : b; }

/// Tetrahedral for one pixel: the order of the fractions picks the tetrahedron (its two inner
/// corners from a table), weighted c000 * (1 - high) + cA * (high - middle) + cB * (middle - low)
/// + c111 * low, as a product and three fused multiply-adds.
AVX2 static INLINE __m128 tetrahedral(const cclattice_kernel *k, int64_t base, const float *x, const float *y,
                                      const float *z) {
    float fx = *x, fy = *y, fz = *z;
    int outcome = (fx > fy ? 4 : 0) | (fy > fz ? 2 : 0) | (fx > fz ? 1 : 0);
    float high = larger(fx, larger(fy, fz)), low = smaller(fx, smaller(fy, fz));
    float middle = larger(smaller(fx, fy), smaller(larger(fx, fy), fz));
    const float *p = k->lattice + 4 * base;
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

/// The loop, one pixel at a time. `stride`, `ri`, `gi` and `bi` are constants in the copies
/// `run_layout` makes for the four common layouts, so the samples are read at fixed offsets and
/// a pixel is written with two stores (RGB, BGR) or one (RGBA, BGRA), not three byte extracts.
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
    // Red, green, blue at 0, 1, 2, or at 2, 1, 0 (then the result's red and blue bytes swap).
    const int in_order = ri == 0 && gi == 1 && bi == 2, reversed = ri == 2 && gi == 1 && bi == 0;
    for (int64_t i = 0; i < count; i++) {
        const uint8_t *s = source + i * stride;
        uint8_t *d = destination + i * stride;
        const uint8_t red = s[ri], green = s[gi], blue = s[bi];
        const cclattice_step *r = steps + red, *g = steps + 256 + green, *b = steps + 512 + blue;
        const int64_t base = (int64_t)r->offset + g->offset + b->offset;
        __m128 look = tetra ? tetrahedral(k, base, &r->fraction, &g->fraction, &b->fraction)
                            : trilinear(k, base, &r->fraction, &g->fraction, &b->fraction);
        if (curved) look = curves(k, look);
        __m128 out = _mm_mul_ps(look, scale);
        if (mixes) out = _mm_fmadd_ps(_mm_cvtepi32_ps(_mm_setr_epi32(red, green, blue, 0)), keep, out);
        // Round half up and clamp: a half added, then truncation (the lanes that matter are
        // >= 0); the upper clamp in float keeps huge values from converting to INT32_MIN, the
        // saturating packs do the rest.
        __m128i ints = _mm_cvttps_epi32(_mm_add_ps(_mm_min_ps(out, top), _mm_set1_ps(0.5f)));
        __m128i shorts = _mm_packs_epi32(ints, ints);
        // 0x??BBGGRR: the top byte is the lattice's fourth lane, whatever it holds.
        uint32_t word = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(shorts, shorts));
        if ((stride == 3 || stride == 4) && (in_order || reversed)) {
            if (reversed) word = __builtin_bswap32(word) >> 8;  // 0x00RRGGBB: the bytes in memory order
            if (stride == 3) {
                uint16_t first = (uint16_t)word;
                __builtin_memcpy(d, &first, 2);
                d[2] = (uint8_t)(word >> 16);
            } else {
                // The fourth byte is the source's (copied, or left as it is in place).
                uint32_t old;
                __builtin_memcpy(&old, s, 4);
                word = (word & 0x00FFFFFFu) | (old & 0xFF000000u);
                __builtin_memcpy(d, &word, 4);
            }
        } else {
            if (copies_extra) d[extra] = s[extra];
            d[ri] = (uint8_t)word;
            d[gi] = (uint8_t)(word >> 8);
            d[bi] = (uint8_t)(word >> 16);
        }
    }
}

/// One copy of the loop per common layout (RGB, BGR, RGBA, BGRA), and a general one.
AVX2 static INLINE void run_layout(const cclattice_kernel *k, const uint8_t *source, uint8_t *destination,
                                   int64_t count, int64_t stride, int64_t r, int64_t g, int64_t b,
                                   int tetra, int mixes, int curved) {
    const int in_order = r == 0 && g == 1 && b == 2, reversed = r == 2 && g == 1 && b == 0;
    if (stride == 3 && in_order) run(k, source, destination, count, 3, 0, 1, 2, tetra, mixes, curved);
    else if (stride == 3 && reversed) run(k, source, destination, count, 3, 2, 1, 0, tetra, mixes, curved);
    else if (stride == 4 && in_order) run(k, source, destination, count, 4, 0, 1, 2, tetra, mixes, curved);
    else if (stride == 4 && reversed) run(k, source, destination, count, 4, 2, 1, 0, tetra, mixes, curved);
    else run(k, source, destination, count, stride, r, g, b, tetra, mixes, curved);
}

AVX2 static INLINE void run_any(const cclattice_kernel *k, const uint8_t *source, uint8_t *destination, int64_t count,
                                int64_t stride, int64_t r, int64_t g, int64_t b, int tetra) {
    if (k->curves) {
        if (k->mixes) run_layout(k, source, destination, count, stride, r, g, b, tetra, 1, 1);
        else run_layout(k, source, destination, count, stride, r, g, b, tetra, 0, 1);
    } else {
        if (k->mixes) run_layout(k, source, destination, count, stride, r, g, b, tetra, 1, 0);
        else run_layout(k, source, destination, count, stride, r, g, b, tetra, 0, 0);
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

// MARK: 8-bit trilinear in fixed point

/// A pixel's cell: the sum of its three steps (see cclattice_fixed_step), offset in lane 0.
AVX2 static INLINE __m128i fixed_split(const cclattice_fixed_step *steps, const uint8_t *s, int64_t ri, int64_t gi,
                                       int64_t bi) {
    __m128i sum = _mm_load_si128((const __m128i *)(steps + s[ri]));
    sum = _mm_add_epi32(sum, _mm_load_si128((const __m128i *)(steps + 256 + s[gi])));
    return _mm_add_epi32(sum, _mm_load_si128((const __m128i *)(steps + 512 + s[bi])));
}

/// a + round((b - a) * t / 32768) in each Int16 lane: within a and b, so it never overflows.
AVX2 static INLINE __m256i lerp_q15(__m256i a, __m256i b, __m256i t) {
    return _mm256_add_epi16(a, _mm256_mulhrs_epi16(_mm256_sub_epi16(b, a), t));
}

/// A node and its red neighbour (16 bytes) for pixel a in the low half, pixel b in the high half.
AVX2 static INLINE __m256i fixed_row(const int16_t *a, const int16_t *b) {
    return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)a)),
                                   _mm_loadu_si128((const __m128i *)b), 1);
}

/// Trilinear for two pixels from their cells (`fixed_split`): each 128-bit half holds one pixel's
/// node and red neighbour, so the four rows of a cell are four loads per pixel. Green, then blue
/// lerp both halves in Int16; red lerps between the halves exactly in Int32 ((255 - j) * low +
/// j * high, 255 times the value), then scales to codes in Float and rounds half up.
/// Returns the codes as bytes: pixel a's red, green, blue, 0 in bytes 0-3, pixel b's in 16-19.
/// `green` and `blue` pick a step's Q15 weight into every Int16 lane (pshufb controls).
AVX2 static INLINE __m256i fixed_pair(const cclattice_kernel *k, __m128i a, __m128i b, __m256i green, __m256i blue) {
    const int16_t *lattice = k->fixed_lattice;
    const int16_t *pa = lattice + 4 * (uint64_t)(uint32_t)_mm_cvtsi128_si32(a);
    const int16_t *pb = lattice + 4 * (uint64_t)(uint32_t)_mm_cvtsi128_si32(b);
    const int64_t gs = 4 * k->green_stride, bs = 4 * k->blue_stride;
    __m256i cells = _mm256_inserti128_si256(_mm256_castsi128_si256(a), b, 1);
    __m256i tg = _mm256_shuffle_epi8(cells, green), tb = _mm256_shuffle_epi8(cells, blue);
    __m256i near = lerp_q15(fixed_row(pa, pb), fixed_row(pa + gs, pb + gs), tg);
    __m256i far = lerp_q15(fixed_row(pa + bs, pb + bs), fixed_row(pa + bs + gs, pb + bs + gs), tg);
    __m256i both = lerp_q15(near, far, tb);
    // Each half's low and high node interleaved per channel, times (255 - j, j).
    __m256i pairs = _mm256_unpacklo_epi16(both, _mm256_bsrli_epi128(both, 8));
    __m256i sums = _mm256_madd_epi16(pairs, _mm256_shuffle_epi32(cells, _MM_SHUFFLE(2, 2, 2, 2)));
    __m256 codes = _mm256_mul_ps(_mm256_cvtepi32_ps(sums), _mm256_set1_ps((float)(1.0 / 32640.0)));
    // |sums| < 2^24: exact in Float, no overflow; a half added and truncated rounds half up.
    __m256i ints = _mm256_cvttps_epi32(_mm256_add_ps(codes, _mm256_set1_ps(0.5f)));
    __m256i shorts = _mm256_packs_epi32(ints, ints);
    return _mm256_packus_epi16(shorts, shorts);
}

/// Writes one pixel's codes (0x00BBGGRR) like `run` does. With stride 3 and the samples in or
/// against order, a pixel that is not `last` is one 4-byte store whose fourth byte lands on the
/// next pixel's first sample: that pixel has been read already and is written after.
AVX2 static INLINE void fixed_store(const uint8_t *s, uint8_t *d, uint32_t word, int64_t stride, int64_t ri,
                                    int64_t gi, int64_t bi, int copies_extra, int last) {
    const int in_order = ri == 0 && gi == 1 && bi == 2, reversed = ri == 2 && gi == 1 && bi == 0;
    if ((stride == 3 || stride == 4) && (in_order || reversed)) {
        if (reversed) word = __builtin_bswap32(word) >> 8;
        if (stride == 4) {
            uint32_t old;
            __builtin_memcpy(&old, s, 4);
            word = (word & 0x00FFFFFFu) | (old & 0xFF000000u);
            __builtin_memcpy(d, &word, 4);
        } else if (!last) {
            __builtin_memcpy(d, &word, 4);
        } else {
            uint16_t first = (uint16_t)word;
            __builtin_memcpy(d, &first, 2);
            d[2] = (uint8_t)(word >> 16);
        }
    } else {
        if (copies_extra) d[6 - ri - gi - bi] = s[6 - ri - gi - bi];
        d[ri] = (uint8_t)word;
        d[gi] = (uint8_t)(word >> 8);
        d[bi] = (uint8_t)(word >> 16);
    }
}

/// The fixed-point loop, two pixels at a time. The next pair is read before this pair is
/// written, so that the 4-byte stores of `fixed_store` never reach a pixel not yet read (in place).
AVX2 static INLINE void run_fixed(const cclattice_kernel *shared, const uint8_t *source, uint8_t *destination,
                                  int64_t count, int64_t stride, int64_t ri, int64_t gi, int64_t bi) {
    const cclattice_kernel local = *shared;  // see `run`
    const cclattice_kernel *k = &local;
    const cclattice_fixed_step *steps = k->fixed_steps;
    // Step bytes 4-5 (green) and 6-7 (blue) into every Int16 lane of each half. Hidden from the
    // optimiser, which would otherwise turn each shuffle into two.
    __m256i green = _mm256_set1_epi16(0x0504), blue = _mm256_set1_epi16(0x0706);
    __asm__("" : "+x"(green), "+x"(blue));
    const int copies_extra = stride == 4 && source != destination;
#define PIXEL(i) (source + (i) * stride)
    if (count <= 0) return;
    __m128i a = fixed_split(steps, PIXEL(0), ri, gi, bi);
    __m128i b = count > 1 ? fixed_split(steps, PIXEL(1), ri, gi, bi) : a;
    int64_t i = 0;
    for (; i + 4 <= count; i += 2) {
        __m256i bytes = fixed_pair(k, a, b, green, blue);
        a = fixed_split(steps, PIXEL(i + 2), ri, gi, bi);
        b = fixed_split(steps, PIXEL(i + 3), ri, gi, bi);
        fixed_store(PIXEL(i), destination + i * stride, (uint32_t)_mm256_cvtsi256_si32(bytes), stride, ri, gi, bi,
                    copies_extra, 0);
        fixed_store(PIXEL(i + 1), destination + (i + 1) * stride,
                    (uint32_t)_mm_cvtsi128_si32(_mm256_extracti128_si256(bytes, 1)), stride, ri, gi, bi, copies_extra, 0);
    }
    // One, two or three pixels left, the first two split.
    __m256i bytes = fixed_pair(k, a, b, green, blue);
    const int64_t left = count - i;
    __m128i c = left == 3 ? fixed_split(steps, PIXEL(i + 2), ri, gi, bi) : a;
    fixed_store(PIXEL(i), destination + i * stride, (uint32_t)_mm256_cvtsi256_si32(bytes), stride, ri, gi, bi,
                copies_extra, left == 1);
    if (left >= 2)
        fixed_store(PIXEL(i + 1), destination + (i + 1) * stride,
                    (uint32_t)_mm_cvtsi128_si32(_mm256_extracti128_si256(bytes, 1)), stride, ri, gi, bi, copies_extra,
                    left == 2);
    if (left == 3) {
        bytes = fixed_pair(k, c, c, green, blue);
        fixed_store(PIXEL(i + 2), destination + (i + 2) * stride, (uint32_t)_mm256_cvtsi256_si32(bytes), stride, ri,
                    gi, bi, copies_extra, 1);
    }
#undef PIXEL
}

AVX2 void cclattice_trilinear8_fixed(const cclattice_kernel *k, const uint8_t *source, uint8_t *destination,
                                     int64_t count, int64_t stride, int64_t r, int64_t g, int64_t b) {
    const int in_order = r == 0 && g == 1 && b == 2, reversed = r == 2 && g == 1 && b == 0;
    if (stride == 3 && in_order) run_fixed(k, source, destination, count, 3, 0, 1, 2);
    else if (stride == 3 && reversed) run_fixed(k, source, destination, count, 3, 2, 1, 0);
    else if (stride == 4 && in_order) run_fixed(k, source, destination, count, 4, 0, 1, 2);
    else if (stride == 4 && reversed) run_fixed(k, source, destination, count, 4, 2, 1, 0);
    else run_fixed(k, source, destination, count, stride, r, g, b);
}

/// A planar Float input's node and fraction on one axis, for eight pixels: clamped to [0, 1]
/// (NaN to 0; max first, which returns its second operand for NaN), position = value * (N-1),
/// node = min(truncated position, N-2), fraction = position - node. The same Float operations,
/// in the same order, as LatticeKernel.splitFloat.
AVX2 static INLINE __m256 clamp_unit8(__m256 v) {
    return _mm256_min_ps(_mm256_max_ps(v, _mm256_setzero_ps()), _mm256_set1_ps(1));
}

/// The input stage's dense table for eight clamped values of one channel: a lerp between the two
/// samples around each (LatticeKernel.shapedFloat, not fused).
AVX2 static INLINE __m256 shaped8(const float *table, int32_t samples, __m256 clamped) {
    __m256 t = _mm256_mul_ps(clamped, _mm256_set1_ps((float)(samples - 1)));
    __m256i node = _mm256_min_epi32(_mm256_cvttps_epi32(t), _mm256_set1_epi32(samples - 2));
    __m256 low = _mm256_i32gather_ps(table, node, 4);
    __m256 high = _mm256_i32gather_ps(table + 1, node, 4);
    return _mm256_add_ps(low, _mm256_mul_ps(_mm256_sub_ps(high, low), _mm256_sub_ps(t, _mm256_cvtepi32_ps(node))));
}

/// Eight pixels of one channel: the lower nodes' lattice offsets (node times the axis's stride)
/// and the fractions (stored to `fractions`).
AVX2 static INLINE __m256i split8(const cclattice_kernel *k, __m256 clamped, int channel, int32_t stride,
                                  float *fractions) {
    if (k->input_curves) clamped = clamp_unit8(shaped8(k->input_curves + channel * (int64_t)k->input_samples,
                                                       k->input_samples, clamped));
    __m256 position = _mm256_mul_ps(clamped, _mm256_set1_ps((float)(k->size - 1)));
    __m256i node = _mm256_min_epi32(_mm256_cvttps_epi32(position), _mm256_set1_epi32(k->size - 2));
    _mm256_storeu_ps(fractions, _mm256_sub_ps(position, _mm256_cvtepi32_ps(node)));
    return _mm256_mullo_epi32(node, _mm256_set1_epi32(stride));
}

/// The planar loop: eight pixels split at a time (a short tail through a padded copy), each then
/// interpolated by the 8-bit loops' helpers; the output stage and the strength mix as
/// LatticeKernel.loopPlanar does them (out * strength + clamped input * (1 - strength), not fused).
AVX2 static INLINE void run_planar(const cclattice_kernel *k, float *red, float *green, float *blue, int64_t count,
                                   int tetra) {
    const __m128 strength = _mm_set1_ps(k->strength), keep = _mm_set1_ps(1 - k->strength);
    const int full = k->strength == 1, curved = k->curves != NULL;
    float *planes[3] = {red, green, blue};
    for (int64_t start = 0; start < count; start += 8) {
        const int64_t n = count - start < 8 ? count - start : 8;
        float clamped[3][8], fractions[3][8];
        int32_t bases[8];
        __m256i base = _mm256_setzero_si256();
        for (int c = 0; c < 3; c++) {
            __m256 v;
            if (n == 8) {
                v = _mm256_loadu_ps(planes[c] + start);
            } else {
                float padded[8] = {0};
                for (int64_t j = 0; j < n; j++) padded[j] = planes[c][start + j];
                v = _mm256_loadu_ps(padded);
            }
            __m256 unit = clamp_unit8(v);
            _mm256_storeu_ps(clamped[c], unit);
            int32_t stride = c == 0 ? 1 : (int32_t)(c == 1 ? k->green_stride : k->blue_stride);
            base = _mm256_add_epi32(base, split8(k, unit, c, stride, fractions[c]));
        }
        _mm256_storeu_si256((__m256i *)bases, base);
        for (int64_t j = 0; j < n; j++) {
            __m128 out = tetra ? tetrahedral(k, bases[j], &fractions[0][j], &fractions[1][j], &fractions[2][j])
                               : trilinear(k, bases[j], &fractions[0][j], &fractions[1][j], &fractions[2][j]);
            if (curved) out = curves(k, out);
            if (!full) {
                __m128 in = _mm_setr_ps(clamped[0][j], clamped[1][j], clamped[2][j], 0);
                out = _mm_add_ps(_mm_mul_ps(out, strength), _mm_mul_ps(in, keep));
            }
            _mm_store_ss(red + start + j, out);
            _mm_store_ss(green + start + j, _mm_movehdup_ps(out));
            _mm_store_ss(blue + start + j, _mm_movehl_ps(out, out));
        }
    }
}

AVX2 void cclattice_trilinear_planar(const cclattice_kernel *k, float *red, float *green, float *blue, int64_t count) {
    run_planar(k, red, green, blue, count, 0);
}

AVX2 void cclattice_tetrahedral_planar(const cclattice_kernel *k, float *red, float *green, float *blue, int64_t count) {
    run_planar(k, red, green, blue, count, 1);
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
void cclattice_trilinear8_fixed(const cclattice_kernel *k, const uint8_t *s, uint8_t *d, int64_t n,
                                int64_t stride, int64_t r, int64_t g, int64_t b) {
    (void)k; (void)s; (void)d; (void)n; (void)stride; (void)r; (void)g; (void)b;
}
void cclattice_trilinear_planar(const cclattice_kernel *k, float *r, float *g, float *b, int64_t n) {
    (void)k; (void)r; (void)g; (void)b; (void)n;
}
void cclattice_tetrahedral_planar(const cclattice_kernel *k, float *r, float *g, float *b, int64_t n) {
    (void)k; (void)r; (void)g; (void)b; (void)n;
}
#endif
