#include "ccycbcr.h"

static inline uint32_t load(const uint32_t *table, uint32_t index) {
    return __atomic_load_n(table + index, __ATOMIC_RELAXED);
}

static inline int32_t blue_of(uint32_t word) { return (int32_t)((word >> 8) & 0xFFF) - 1536; }
static inline int32_t red_of(uint32_t word) { return (int32_t)(word >> 20) - 1536; }

/// The code for the mean of 2^shift values summed in quarter codes: nearest, halves up, 0...255.
static inline uint8_t mean_code(int32_t sum, int shift) {
    int32_t rounded = (sum + (2 << shift)) >> (2 + shift);
    return (uint8_t)(rounded < 0 ? 0 : rounded > 255 ? 255 : rounded);
}

/// Block `chroma` (columns x rows pixels from `first_column`); 0 when a colour is unknown.
static inline int block(const ccycbcr_band *b, int64_t chroma, int64_t first_column, int64_t columns,
                        int32_t *misses, int64_t *miss_count) {
    const uint32_t *table = b->table;
    uint8_t *luma = b->luma;
    const uint32_t chroma_index = (uint32_t)b->blue[chroma] << 16 | (uint32_t)b->red[chroma] << 8;
    uint32_t words[4];
    int known = 1, k = 0;
    for (int64_t row = 0; row < b->rows; row++) {
        for (int64_t x = first_column; x < first_column + columns; x++, k++) {
            uint32_t index = chroma_index | luma[row * b->width + x];
            words[k] = load(table, index);
            if (words[k] == 0) {
                known = 0;
                misses[(*miss_count)++] = (int32_t)index;
            }
        }
    }
    if (!known) return 0;
    int32_t blue = 0, red = 0;
    k = 0;
    for (int64_t row = 0; row < b->rows; row++) {
        for (int64_t x = first_column; x < first_column + columns; x++, k++) {
            luma[row * b->width + x] = (uint8_t)words[k];
            blue += blue_of(words[k]);
            red += red_of(words[k]);
        }
    }
    int shift = (int)((b->rows >> 1) + (columns >> 1));
    b->blue[chroma] = mean_code(blue, shift);
    b->red[chroma] = mean_code(red, shift);
    return 1;
}

/// The common 2x2 block (4:2:0, not at the right or bottom edge), unrolled.
static inline int block22(const ccycbcr_band *b, int64_t chroma, int32_t *misses, int64_t *miss_count) {
    const uint32_t *table = b->table;
    uint8_t *top = b->luma + 2 * chroma, *bottom = top + b->width;
    const uint32_t chroma_index = (uint32_t)b->blue[chroma] << 16 | (uint32_t)b->red[chroma] << 8;
    const uint32_t i0 = chroma_index | top[0], i1 = chroma_index | top[1];
    const uint32_t i2 = chroma_index | bottom[0], i3 = chroma_index | bottom[1];
    const uint32_t w0 = load(table, i0), w1 = load(table, i1), w2 = load(table, i2), w3 = load(table, i3);
    if (__builtin_expect(w0 == 0 || w1 == 0 || w2 == 0 || w3 == 0, 0)) {
        if (w0 == 0) misses[(*miss_count)++] = (int32_t)i0;
        if (w1 == 0) misses[(*miss_count)++] = (int32_t)i1;
        if (w2 == 0) misses[(*miss_count)++] = (int32_t)i2;
        if (w3 == 0) misses[(*miss_count)++] = (int32_t)i3;
        return 0;
    }
    top[0] = (uint8_t)w0;
    top[1] = (uint8_t)w1;
    bottom[0] = (uint8_t)w2;
    bottom[1] = (uint8_t)w3;
    b->blue[chroma] = mean_code(blue_of(w0) + blue_of(w1) + blue_of(w2) + blue_of(w3), 2);
    b->red[chroma] = mean_code(red_of(w0) + red_of(w1) + red_of(w2) + red_of(w3), 2);
    return 1;
}

int64_t ccycbcr_grade8(const ccycbcr_band *band, const int32_t *blocks, int64_t count,
                       int32_t *deferred, int32_t *misses, int64_t *miss_count) {
    int64_t deferred_count = 0;
    const int64_t shift_x = band->shift_x, width = band->width;
    const int full22 = shift_x == 1 && band->rows == 2;
    for (int64_t k = 0; k < count; k++) {
        const int64_t chroma = blocks ? blocks[k] : k;
        const int64_t first_column = chroma << shift_x;
        const int64_t end = ((chroma + 1) << shift_x) < width ? ((chroma + 1) << shift_x) : width;
        int done;
        if (full22 && end - first_column == 2) {
            done = block22(band, chroma, misses, miss_count);
        } else {
            done = block(band, chroma, first_column, end - first_column, misses, miss_count);
        }
        if (!done) deferred[deferred_count++] = (int32_t)chroma;
    }
    return deferred_count;
}
