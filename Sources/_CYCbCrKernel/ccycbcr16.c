#include "ccycbcr.h"

#include <math.h>
#include <string.h>

typedef float v4 __attribute__((ext_vector_type(4)));

/// A value in codes rounded to nearest (halves up) and clamped to 0...code_max (NaN to 0).
static inline uint16_t code16(float value, float code_max) {
    float clamped = value >= 0 ? (value < code_max ? value : code_max) : 0;
    return (uint16_t)(clamped + 0.5f);
}

static inline v4 clamp_unit(v4 v) {
    v4 low = v > 0 ? v : 0;  // NaN to 0
    return low < 1 ? low : 1;
}


/// The lattice's value at `colour` (0...1 on every axis): tetrahedral interpolation, which
/// reproduces a function linear in the colour (an identity look) exactly.
static inline v4 interpolate(const ccycbcr_lattice *l, v4 colour) {
    const int64_t cells = l->nodes_per_side - 1;
    const v4 position = colour * (float)cells;
    int64_t r = (int64_t)position.x, g = (int64_t)position.y, b = (int64_t)position.z;
    r = r < cells ? r : cells - 1;
    g = g < cells ? g : cells - 1;
    b = b < cells ? b : cells - 1;
    const float fr = position.x - (float)r, fg = position.y - (float)g, fb = position.z - (float)b;
    const int64_t dr = 1, dg = l->nodes_per_side, db = l->nodes_per_side * l->nodes_per_side;
    const v4 *corner = (const v4 *)l->nodes + b * db + g * dg + r;
    const v4 c000 = corner[0], c111 = corner[dr + dg + db];
    if (fr >= fg) {
        if (fg >= fb) {
            const v4 c1 = corner[dr], c2 = corner[dr + dg];
            return c000 + fr * (c1 - c000) + fg * (c2 - c1) + fb * (c111 - c2);
        }
        if (fr >= fb) {
            const v4 c1 = corner[dr], c2 = corner[dr + db];
            return c000 + fr * (c1 - c000) + fb * (c2 - c1) + fg * (c111 - c2);
        }
        const v4 c1 = corner[db], c2 = corner[db + dr];
        return c000 + fb * (c1 - c000) + fr * (c2 - c1) + fg * (c111 - c2);
    }
    if (fr >= fb) {
        const v4 c1 = corner[dg], c2 = corner[dg + dr];
        return c000 + fg * (c1 - c000) + fr * (c2 - c1) + fb * (c111 - c2);
    }
    if (fg >= fb) {
        const v4 c1 = corner[dg], c2 = corner[dg + db];
        return c000 + fg * (c1 - c000) + fb * (c2 - c1) + fr * (c111 - c2);
    }
    const v4 c1 = corner[db], c2 = corner[db + dg];
    return c000 + fb * (c1 - c000) + fg * (c2 - c1) + fr * (c111 - c2);
}

/// log2 of `x` (positive and normal): the exponent, and the mantissa's logarithm taken in
/// [sqrt(1/2), sqrt(2)) from the series of atanh((m - 1) / (m + 1)) to its fifth power (within
/// 2e-6). Bit operations and arithmetic only, so that a vector loop has no table to gather from.
static inline __attribute__((always_inline)) float log2_lane(float x) {
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    const int32_t exponent = (int32_t)(bits >> 23) - 127;
    const uint32_t mantissa_bits = (bits & 0x7fffff) | 0x3f800000;
    float m;
    memcpy(&m, &mantissa_bits, sizeof m);
    const int high = m > 1.41421356f;
    m = high ? m * 0.5f : m;
    const float s = (m - 1) / (m + 1), s2 = s * s;
    const float series = 1 + s2 * (1.0f / 3 + s2 * (1.0f / 5));
    return (float)(exponent + high) + s * series * 2.88539008f;  // 2 / ln 2
}

/// 2^t for t in -126...127 (clamped): 2 to the nearest integer, made in the exponent's bits,
/// times e^(f ln 2) for the rest f (|f| <= 1/2) from its series to the fifth power (within 3e-6
/// of it).
static inline __attribute__((always_inline)) float exp2_lane(float t) {
    const float clamped = fminf(fmaxf(t, -126), 127);
    const float whole = floorf(clamped + 0.5f);
    const float z = (clamped - whole) * 0.693147181f;
    const float series = 1 + z * (1 + z * (1.0f / 2 + z * (1.0f / 6 + z * (1.0f / 24 + z * (1.0f / 120)))));
    const uint32_t bits = (uint32_t)((int32_t)whole + 127) << 23;
    float scale;
    memcpy(&scale, &bits, sizeof scale);
    return series * scale;
}

/// x^y for x >= 0 (0 below 1e-30).
static inline __attribute__((always_inline)) float power_lane(float x, float y) {
    return x > 1e-30f ? exp2_lane(y * log2_lane(x)) : 0;
}

/// A signal code (0...1) to its light: HLG's scene light (0...1) or PQ's display light
/// (1.0 = 100 cd/m²), by BT.2100's formulas.
static inline __attribute__((always_inline)) float decode_lane(float x, int hlg) {
    if (hlg) {
        const float a = 0.17883277f, b = 0.28466892f, c = 0.55991073f;
        return x <= 0.5f ? x * x * (1.0f / 3) : (exp2_lane((x - c) * (1.44269504f / a)) + b) * (1.0f / 12);
    }
    const float m1 = 2610.0f / 16384, m2 = 2523.0f / 4096 * 128;
    const float c1 = 3424.0f / 4096, c2 = 2413.0f / 4096 * 32, c3 = 2392.0f / 4096 * 32;
    const float n = power_lane(x, 1 / m2);
    return 100 * power_lane(fmaxf(n - c1, 0) / (c2 - c3 * n), 1 / m1);
}

/// The SDR rendition (code values) of a pixel's signal (r, g, b), clamped to 0...1, in place, with
/// selects for its cases (one lane of the vectorised loop, where `hlg` is known when compiled).
static inline __attribute__((always_inline)) void rendition_lane(const ccycbcr_rendition *q, float *r, float *g, float *b,
                                                                 int hlg) {
    float lr = decode_lane(fminf(fmaxf(*r, 0), 1), hlg), lg = decode_lane(fminf(fmaxf(*g, 0), 1), hlg);
    float lb = decode_lane(fminf(fmaxf(*b, 0), 1), hlg);
    if (hlg) {
        const float sr = q->hlg_scene_scale * lr, sg = q->hlg_scene_scale * lg, sb = q->hlg_scene_scale * lb;
        const float luminance = fabsf(q->hlg_weights[0] * sr + q->hlg_weights[1] * sg + q->hlg_weights[2] * sb);
        const float held = fminf(fmaxf(luminance, q->hlg_gain_floor), q->hlg_scene_scale);
        const float gain = power_lane(held, q->hlg_gain_exponent) * q->hlg_gain_scale;
        lr = sr * gain;
        lg = sg * gain;
        lb = sb * gain;
    }
    const float *m = q->to_rendition;
    float xr = m[0] * lr + m[1] * lg + m[2] * lb, xg = m[3] * lr + m[4] * lg + m[5] * lb, xb = m[6] * lr + m[7] * lg + m[8] * lb;
    // Brought inside BT.709 toward the colour's luminance.
    const float low = fminf(xr, fminf(xg, xb));
    const float y = q->luminance[0] * xr + q->luminance[1] * xg + q->luminance[2] * xb;
    const float toward = y > 0 ? y / (y - low) : 0;
    xr = low < 0 ? y + (xr - y) * toward : xr;
    xg = low < 0 ? y + (xg - y) * toward : xg;
    xb = low < 0 ? y + (xb - y) * toward : xb;
    xr = low < 0 && !(y > 0) ? 0 : xr;
    xg = low < 0 && !(y > 0) ? 0 : xg;
    xb = low < 0 && !(y > 0) ? 0 : xb;
    // Highlights rolled off.
    const float high = fmaxf(xr, fmaxf(xg, xb)), k = q->knee;
    const float t = (high - k) / (1 - k), limit = (q->peak - k) / (1 - k);
    const float reinhard = fminf(1, k + (1 - k) * t * (1 + t / (limit * limit)) / (1 + t));
    const float rolled = q->peak > 1 ? reinhard : fminf(high, 1);
    const float factor = high > k ? rolled / high : 1;
    // Encoded for SDR, clamped to 0...1 as the lattice is read.
    *r = power_lane(fminf(fmaxf(xr * factor, 0), 1), q->sdr_exponent);
    *g = power_lane(fminf(fmaxf(xg * factor, 0), 1), q->sdr_exponent);
    *b = power_lane(fminf(fmaxf(xb * factor, 0), 1), q->sdr_exponent);
}

/// A pixel's graded colour from its RGB (not clamped): the lattice's result at the clamped
/// colour, and where the excursion is kept, the excursion beyond the cube faded as the result
/// moves the face it crossed.
static inline v4 graded(const ccycbcr_lattice *l, v4 rgb) {
    const v4 clamped = clamp_unit(rgb);
    if (l->rendition) {
        float r = clamped.x, g = clamped.y, b = clamped.z;
        rendition_lane(l->rendition, &r, &g, &b, l->rendition->hlg);
        return interpolate(l, clamp_unit((v4){r, g, b, 0}));
    }
    const v4 result = interpolate(l, clamped);
    if (!l->keeps_excursion) return result;
    const v4 change = result - clamped;
    const v4 magnitude = change >= 0 ? change : -change;
    const v4 fade = 1 - l->face_ramp * magnitude;
    return result + (rgb - clamped) * (fade > 0 ? fade : 0);
}

static void grade_pixels(const ccycbcr_lattice *lattice, const ccycbcr_band16 *band);

/// Pixels a pass of the lane loop takes from a row: even, so no chroma block is split.
enum { chunk = 256 };

/// The chroma's part of each pixel's RGB for `count` pixels of a row from column `start` (R = Y +
/// red, G = Y - green, B = Y + blue), computed once for the rows that share the chroma, so that
/// the pixel loop reads them in order rather than gathering codes.
static inline __attribute__((always_inline)) void chroma_terms(const ccycbcr_matrix *in, const uint16_t *restrict blue,
                                                               const uint16_t *restrict red, int64_t start, int32_t count,
                                                               int64_t shift_x, float *restrict red_term,
                                                               float *restrict green_term, float *restrict blue_term) {
    const int32_t width = 1 << shift_x, blocks = (count + width - 1) >> shift_x;
    const uint16_t *first_blue = blue + (start >> shift_x), *first_red = red + (start >> shift_x);
    for (int32_t block = 0; block < blocks; block++) {
        const float cb = ((float)first_blue[block] - in->chroma_offset) * in->inverse_chroma_unit;
        const float cr = ((float)first_red[block] - in->chroma_offset) * in->inverse_chroma_unit;
        const float r = in->red_to_red * cr, g = in->red_to_green * cr + in->blue_to_green * cb, b = in->blue_to_blue * cb;
        for (int32_t k = 0; k < width; k++) {
            red_term[block * width + k] = r;
            green_term[block * width + k] = g;
            blue_term[block * width + k] = b;
        }
    }
}

/// `count` pixels of a row's chunk, for `grade_lanes`: luma written, each pixel's graded Cb and
/// Cr differences (before the block's mean) into `blues` and `reds`. The same arithmetic as
/// `graded`, in passes over the chunk: the vector passes have no branch (the tetrahedron picked
/// with selects), so that with AVX2 eight pixels go through at once (a rendition 32 at once), and
/// the corners are read a node (16 bytes) at a time in a pass of their own, which a vector loop
/// could only do a channel at a time, each lane loaded and inserted on its own. (Its pointers are
/// parameters so that the compiler may take them as not overlapping.)
static inline __attribute__((always_inline)) void grade_row(const ccycbcr_lattice *l, const float *restrict nodes,
                                                            const float *restrict red_term,
                                                            const float *restrict green_term, const float *restrict blue_term,
                                                            uint16_t *restrict line, float *restrict blues,
                                                            float *restrict reds, int32_t count,
                                                            const ccycbcr_rendition *rendition, int hlg) {
    const ccycbcr_matrix in = l->input, out = l->output;
    const int32_t side = (int32_t)l->nodes_per_side, cells = side - 1;
    const int32_t dg = side, db = side * side, all = 1 + dg + db;
    const float scale = (float)cells, keep = l->keeps_excursion ? 1.0f : 0.0f, ramp = l->face_ramp, code_max = l->code_max;
    // Each pixel's colour clamped to the cube, where the lattice is read. With a rendition, that is
    // its SDR rendition, from a loop of its own 32 pixels at a time (four vectors of eight in
    // flight: its arithmetic is long chains of dependent steps), 17 ns a pixel where eight at a
    // time in one loop with the lattice took 23 (and 99 scalar).
    float clamped[3][chunk];
    if (rendition != NULL) {
#pragma clang loop vectorize(enable) vectorize_width(32)
        for (int32_t i = 0; i < count; i++) {
            const float y = ((float)line[i] - in.luma_offset) * in.inverse_luma_unit;
            float r = y + red_term[i], g = y - green_term[i], b = y + blue_term[i];
            rendition_lane(rendition, &r, &g, &b, hlg);
            clamped[0][i] = r;
            clamped[1][i] = g;
            clamped[2][i] = b;
        }
    }
    // The cells and weights eight pixels at a time; each pixel's four corners read as nodes and
    // interpolated four channels at once (one core, a 1080p frame: 6.9 ns a pixel against 8.5
    // with the corners read in the vector loop); the excursion and the way back eight at a time.
    int32_t corner[4][chunk];
    float weight[3][chunk];
#pragma clang loop vectorize(enable) vectorize_width(8)
    for (int32_t i = 0; i < count; i++) {
        const float y = ((float)line[i] - in.luma_offset) * in.inverse_luma_unit;
        const float r = y + red_term[i], g = y - green_term[i], b = y + blue_term[i];
        float kr = fminf(fmaxf(r, 0), 1), kg = fminf(fmaxf(g, 0), 1), kb = fminf(fmaxf(b, 0), 1);
        if (rendition != NULL) {
            kr = clamped[0][i];
            kg = clamped[1][i];
            kb = clamped[2][i];
        }
        const float pr = kr * scale, pg = kg * scale, pb = kb * scale;
        int32_t ir = (int32_t)pr, ig = (int32_t)pg, ib = (int32_t)pb;
        ir = ir < cells ? ir : cells - 1;
        ig = ig < cells ? ig : cells - 1;
        ib = ib < cells ? ib : cells - 1;
        const float fr = pr - (float)ir, fg = pg - (float)ig, fb = pb - (float)ib;
        // The tetrahedron: the axes in order of their fractions, largest first.
        const int rg = fr >= fg, gb = fg >= fb, rb = fr >= fb;
        const int32_t largest = rg ? (rb ? 1 : db) : (gb ? dg : db);
        const int32_t smallest = rg ? (gb ? db : dg) : (rb ? db : 1);
        const float f1 = fmaxf(fr, fmaxf(fg, fb)), f3 = fminf(fr, fminf(fg, fb)), f2 = fr + fg + fb - f1 - f3;
        const int32_t base = (ib * side + ig) * side + ir;
        corner[0][i] = base;
        corner[1][i] = base + largest;
        corner[2][i] = base + all - smallest;
        corner[3][i] = base + all;
        weight[0][i] = f1;
        weight[1][i] = f2;
        weight[2][i] = f3;
        clamped[0][i] = kr;
        clamped[1][i] = kg;
        clamped[2][i] = kb;
    }
    v4 interpolated[chunk];
    const v4 *node = (const v4 *)nodes;
#pragma clang loop vectorize(disable)
    for (int32_t i = 0; i < count; i++) {
        const v4 c0 = node[corner[0][i]], c1 = node[corner[1][i]], c2 = node[corner[2][i]], c3 = node[corner[3][i]];
        interpolated[i] = c0 + weight[0][i] * (c1 - c0) + weight[1][i] * (c2 - c1) + weight[2][i] * (c3 - c2);
    }
#pragma clang loop vectorize(enable) vectorize_width(8)
    for (int32_t i = 0; i < count; i++) {
        const float y = ((float)line[i] - in.luma_offset) * in.inverse_luma_unit;
        const float r = y + red_term[i], g = y - green_term[i], b = y + blue_term[i];
        const float kr = clamped[0][i], kg = clamped[1][i], kb = clamped[2][i];
        const float *result = (const float *)&interpolated[i];
        const float graded_red = result[0] + (r - kr) * keep * fmaxf(0, 1 - ramp * fabsf(result[0] - kr));
        const float graded_green = result[1] + (g - kg) * keep * fmaxf(0, 1 - ramp * fabsf(result[1] - kg));
        const float graded_blue = result[2] + (b - kb) * keep * fmaxf(0, 1 - ramp * fabsf(result[2] - kb));
        const float graded_luma = out.kr * graded_red + out.kg * graded_green + out.kb * graded_blue;
        const float value = fminf(fmaxf(out.luma_offset + out.luma_unit * graded_luma, 0), code_max);
        line[i] = (uint16_t)(value + 0.5f);
        blues[i] = graded_blue - graded_luma;
        reds[i] = graded_red - graded_luma;
    }
}

/// The vectorised kernel, a chunk of each row at a time (`grade_row`), then the chunk's chroma
/// blocks; `rendition` (NULL or the lattice's) and `hlg` known when compiled.
static inline __attribute__((always_inline)) void grade_lanes(const ccycbcr_lattice *lattice, const ccycbcr_band16 *band,
                                                              const ccycbcr_rendition *rendition, int hlg) {
    const ccycbcr_matrix in = lattice->input, out = lattice->output;
    const int64_t width = band->width, rows = band->rows, shift_x = band->shift_x;
    uint16_t *luma = band->luma, *blue = band->blue, *red = band->red;
    float blue_difference[2][chunk], red_difference[2][chunk];
    float red_term[chunk], green_term[chunk], blue_term[chunk];
    for (int64_t start = 0; start < width; start += chunk) {
        const int32_t count = (int32_t)(width - start < chunk ? width - start : chunk);
        chroma_terms(&in, blue, red, start, count, shift_x, red_term, green_term, blue_term);
        for (int64_t row = 0; row < rows; row++) {
            grade_row(lattice, lattice->nodes, red_term, green_term, blue_term, luma + row * width + start,
                      blue_difference[row], red_difference[row], count, rendition, hlg);
        }
        const int64_t first_block = start >> shift_x, end_block = (start + count + (1 << shift_x) - 1) >> shift_x;
        for (int64_t c = first_block; c < end_block; c++) {
            const int32_t first = (int32_t)((c << shift_x) - start);
            const int32_t end = first + (1 << shift_x) < count ? first + (1 << shift_x) : count;
            float blue_sum = 0, red_sum = 0;
            for (int64_t row = 0; row < rows; row++) {
                for (int32_t i = first; i < end; i++) {
                    blue_sum += blue_difference[row][i];
                    red_sum += red_difference[row][i];
                }
            }
            const float inverse = 1.0f / (float)(rows * (end - first));
            blue[c] = code16(out.chroma_offset + out.chroma_unit * out.inverse_blue_to_blue * blue_sum * inverse, lattice->code_max);
            red[c] = code16(out.chroma_offset + out.chroma_unit * out.inverse_red_to_red * red_sum * inverse, lattice->code_max);
        }
    }
}

__attribute__((target("avx2,fma"))) static void grade_lanes_avx2(const ccycbcr_lattice *lattice, const ccycbcr_band16 *band) {
    grade_lanes(lattice, band, NULL, 0);
}

__attribute__((target("avx2,fma"))) static void grade_lanes_pq_avx2(const ccycbcr_lattice *lattice, const ccycbcr_band16 *band) {
    grade_lanes(lattice, band, lattice->rendition, 0);
}

__attribute__((target("avx2,fma"))) static void grade_lanes_hlg_avx2(const ccycbcr_lattice *lattice, const ccycbcr_band16 *band) {
    grade_lanes(lattice, band, lattice->rendition, 1);
}

void ccycbcr_grade16(const ccycbcr_lattice *lattice, const ccycbcr_band16 *band) {
    const ccycbcr_rendition *rendition = lattice->rendition;
    const int vector = !lattice->one_pixel_at_a_time && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    if (!vector) {
        grade_pixels(lattice, band);
    } else if (rendition == NULL) {
        grade_lanes_avx2(lattice, band);
    } else if (rendition->hlg) {
        grade_lanes_hlg_avx2(lattice, band);
    } else {
        grade_lanes_pq_avx2(lattice, band);
    }
}

/// One pixel at a time, with branches: on processors without AVX2, and the reference.
static void grade_pixels(const ccycbcr_lattice *lattice, const ccycbcr_band16 *band) {
    const ccycbcr_lattice l = *lattice;
    const ccycbcr_matrix in = l.input, out = l.output;
    const int64_t width = band->width, rows = band->rows, shift_x = band->shift_x;
    const int64_t chroma_width = (width + (1 << shift_x) - 1) >> shift_x;
    const v4 to_luma = {out.kr, out.kg, out.kb, 0};
    uint16_t *luma = band->luma, *blue = band->blue, *red = band->red;
    for (int64_t chroma = 0; chroma < chroma_width; chroma++) {
        const float cb = ((float)blue[chroma] - in.chroma_offset) * in.inverse_chroma_unit;
        const float cr = ((float)red[chroma] - in.chroma_offset) * in.inverse_chroma_unit;
        const v4 from_chroma = {in.red_to_red * cr, -in.red_to_green * cr - in.blue_to_green * cb, in.blue_to_blue * cb, 0};
        const int64_t first = chroma << shift_x;
        const int64_t end = first + (1 << shift_x) < width ? first + (1 << shift_x) : width;
        float blue_sum = 0, red_sum = 0;
        for (int64_t row = 0; row < rows; row++) {
            uint16_t *line = luma + row * width;
            for (int64_t x = first; x < end; x++) {
                const float y = ((float)line[x] - in.luma_offset) * in.inverse_luma_unit;
                const v4 rgb = graded(&l, from_chroma + y);
                const v4 weighted = rgb * to_luma;
                const float graded_luma = weighted.x + weighted.y + weighted.z;
                line[x] = code16(out.luma_offset + out.luma_unit * graded_luma, l.code_max);
                blue_sum += rgb.z - graded_luma;
                red_sum += rgb.x - graded_luma;
            }
        }
        const float inverse = 1.0f / (float)(rows * (end - first));
        blue[chroma] = code16(out.chroma_offset + out.chroma_unit * out.inverse_blue_to_blue * blue_sum * inverse, l.code_max);
        red[chroma] = code16(out.chroma_offset + out.chroma_unit * out.inverse_red_to_red * red_sum * inverse, l.code_max);
    }
}
