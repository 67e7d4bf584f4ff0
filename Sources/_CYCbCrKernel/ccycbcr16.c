#include "ccycbcr.h"

#include <math.h>

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

/// A curve (`ccycbcr_curve`) at `x`, its index (0 linear, 2 fourth root) known when compiled; in
/// the vectorised loop, one lane, with no branch and roots that are vector instructions.
static inline __attribute__((always_inline)) float curve_lane(const ccycbcr_curve *c, float x, int index) {
    const float magnitude = fminf(fabsf(x) * c->inverse_domain, 1);
    const float u = index == 0 ? magnitude : __builtin_elementwise_sqrt(__builtin_elementwise_sqrt(magnitude));
    const float position = u * (float)c->segments;
    int32_t step = (int32_t)position;
    step = step < c->segments - 1 ? step : c->segments - 1;
    const float low = c->values[step], y = low + (position - (float)step) * (c->values[step + 1] - low);
    return copysignf(y, x);
}

/// The SDR rendition (code values) of a pixel's signal (r, g, b), 0...1, in place, with selects for
/// its cases (one lane of the vectorised loop, where `hlg` is known when compiled).
static inline __attribute__((always_inline)) void rendition_lane(const ccycbcr_rendition *q, float *r, float *g, float *b,
                                                                 int hlg) {
    float lr = curve_lane(&q->decode, *r, 0), lg = curve_lane(&q->decode, *g, 0), lb = curve_lane(&q->decode, *b, 0);
    if (hlg) {
        const float sr = 3 * lr, sg = 3 * lg, sb = 3 * lb;
        const float luminance = fabsf(q->hlg_weights[0] * sr + q->hlg_weights[1] * sg + q->hlg_weights[2] * sb);
        const float gain = curve_lane(&q->hlg_gain, luminance, 2);
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
    *r = curve_lane(&q->encode, xr * factor, 2);
    *g = curve_lane(&q->encode, xg * factor, 2);
    *b = curve_lane(&q->encode, xb * factor, 2);
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

/// `count` pixels of one row, from column `start`, for `grade_lanes`: luma written, each pixel's
/// graded Cb and Cr differences (before the block's mean) into `blues` and `reds`. No branch: the
/// tetrahedron is picked with selects and its corners read with gathers, so that with AVX2 eight
/// pixels go through at once. The same arithmetic as `graded`. (Its pointers are parameters so
/// that the compiler may take them as not overlapping.)
static inline __attribute__((always_inline)) void grade_row(const ccycbcr_lattice *l, const float *restrict nodes,
                                                            const uint16_t *restrict blue, const uint16_t *restrict red,
                                                            uint16_t *restrict line, float *restrict blues,
                                                            float *restrict reds, int64_t start, int32_t count,
                                                            int64_t shift_x, const ccycbcr_rendition *rendition, int hlg) {
    const ccycbcr_matrix in = l->input, out = l->output;
    const int32_t side = (int32_t)l->nodes_per_side, cells = side - 1;
    const int32_t dg = side, db = side * side, all = 1 + dg + db;
    const float scale = (float)cells, keep = l->keeps_excursion ? 1.0f : 0.0f, ramp = l->face_ramp, code_max = l->code_max;
    // Eight lanes even where the cost model doubts it: with a rendition, 25 ns a pixel against 99 scalar.
#pragma clang loop vectorize(enable) vectorize_width(8)
    for (int32_t i = 0; i < count; i++) {
        const int64_t c = (start + i) >> shift_x;
        const float y = ((float)line[i] - in.luma_offset) * in.inverse_luma_unit;
        const float cb = ((float)blue[c] - in.chroma_offset) * in.inverse_chroma_unit;
        const float cr = ((float)red[c] - in.chroma_offset) * in.inverse_chroma_unit;
        const float r = y + in.red_to_red * cr, g = y - in.red_to_green * cr - in.blue_to_green * cb;
        const float b = y + in.blue_to_blue * cb;
        float kr = fminf(fmaxf(r, 0), 1), kg = fminf(fmaxf(g, 0), 1), kb = fminf(fmaxf(b, 0), 1);
        if (rendition != NULL) rendition_lane(rendition, &kr, &kg, &kb, hlg);
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
        const int32_t i0 = base * 4, i1 = (base + largest) * 4, i2 = (base + all - smallest) * 4, i3 = (base + all) * 4;
        float result[3];
        for (int k = 0; k < 3; k++) {
            const float c0 = nodes[i0 + k], c1 = nodes[i1 + k], c2 = nodes[i2 + k], c3 = nodes[i3 + k];
            result[k] = c0 + f1 * (c1 - c0) + f2 * (c2 - c1) + f3 * (c3 - c2);
        }
        // The excursion beyond the cube, faded by the change at the clamped colour.
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
    const ccycbcr_matrix out = lattice->output;
    const int64_t width = band->width, rows = band->rows, shift_x = band->shift_x;
    uint16_t *luma = band->luma, *blue = band->blue, *red = band->red;
    float blue_difference[2][chunk], red_difference[2][chunk];
    for (int64_t start = 0; start < width; start += chunk) {
        const int32_t count = (int32_t)(width - start < chunk ? width - start : chunk);
        for (int64_t row = 0; row < rows; row++) {
            grade_row(lattice, lattice->nodes, blue, red, luma + row * width + start, blue_difference[row],
                      red_difference[row], start, count, shift_x, rendition, hlg);
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
