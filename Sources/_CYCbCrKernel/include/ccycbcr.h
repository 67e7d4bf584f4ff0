// The hot loop of ColorCubeApplier's YCbCrFrameGrader for 8-bit planar YCbCr: each pixel's
// graded result read from the grader's colour memo (YCbCrMemo8), luma written, chroma averaged
// over its block. It has no stable API: only ColorCubeApplier calls it, with a table it owns.
// Plain C (the loop is table reads, which vector gathers do not speed up); the Swift loop in
// YCbCrFrameGrader stays beside it as the reference it is tested against.
#ifndef COLORCUBE_CCYCBCR_H
#define COLORCUBE_CCYCBCR_H

#include <stddef.h>
#include <stdint.h>

/// One band of an 8-bit planar frame: one row of chroma blocks and the luma rows it covers.
typedef struct ccycbcr_band {
    /// 2^24 words indexed cb << 16 | cr << 8 | luma: bits 0-7 graded luma, 8-19 and 20-31 Cb and
    /// Cr in quarter codes plus 1536; 0 where the colour is not yet known. Read with relaxed
    /// atomic loads (other threads may be filling it).
    const uint32_t *table;
    /// The band's first luma row; `rows` (1 or 2) rows of `width` samples, `width` apart.
    uint8_t *luma;
    /// The band's chroma row in each chroma plane.
    uint8_t *blue;
    uint8_t *red;
    int64_t width;
    int64_t rows;
    /// log2 of the horizontal subsampling (0 or 1).
    int64_t shift_x;
} ccycbcr_band;

/// Grades the blocks `blocks[0..<count]` of `band` (all of them, in order, when `blocks` is
/// NULL and `count` is the chroma width) whose colours are all known, in place. For each other
/// block: its index is appended to `deferred` (room for `count`), its unknown colours
/// (`cb << 16 | cr << 8 | luma`, possibly repeated) to `misses` (room for one a pixel), and
/// nothing of it is written.
/// Returns the number of deferred blocks; `*miss_count` is advanced by the colours listed.
int64_t ccycbcr_grade8(const ccycbcr_band *band, const int32_t *blocks, int64_t count,
                       int32_t *deferred, int32_t *misses, int64_t *miss_count);

#endif
