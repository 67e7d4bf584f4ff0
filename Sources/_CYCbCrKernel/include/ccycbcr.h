// The hot loops of ColorCubeApplier's YCbCrFrameGrader. For 8-bit planar YCbCr each pixel's
// graded result is read from the grader's colour memo (YCbCrMemo8); deeper clips interpolate the
// look from a lattice over their RGB (YCbCrLattice). Luma is written, chroma averaged over its
// block. It has no stable API: only ColorCubeApplier calls it, with a table it owns.
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

/// One clip's matrix and range (ColorCubeApplier's YCbCrConversion): code = offset + unit *
/// value; R = Y + red_to_red Cr, G = Y - red_to_green Cr - blue_to_green Cb, B = Y + blue_to_blue Cb.
typedef struct ccycbcr_matrix {
    float kr, kg, kb;
    float red_to_red, blue_to_blue, red_to_green, blue_to_green;
    float inverse_red_to_red, inverse_blue_to_blue;
    float luma_offset, luma_unit, chroma_offset, chroma_unit;
    float inverse_luma_unit, inverse_chroma_unit;
} ccycbcr_matrix;

/// An HDR clip's signal to the SDR rendition a look is given, for SDR output (ColorCubeApplier's
/// HDRFrameMapping): the signal decoded to light, HLG's OOTF, a matrix to BT.709, brought inside
/// BT.709 toward the colour's luminance, highlights rolled off, encoded for SDR. The curves are
/// computed from their formulas (BT.2100's for the signal), not read from tables: in the vector
/// loop a table read is a gather, which costs more than the arithmetic.
typedef struct ccycbcr_rendition {
    /// Nonzero for HLG (the signal decoded to scene light, then the OOTF), zero for PQ (decoded
    /// to display light, 1.0 = 100 cd/m^2).
    int32_t hlg;
    /// HLG's OOTF: with s = scene_scale * scene and Y = |weights . s| held at floor...scene_scale,
    /// display light = s * Y^gain_exponent * gain_scale.
    float hlg_scene_scale;
    float hlg_weights[3];
    float hlg_gain_exponent, hlg_gain_scale, hlg_gain_floor;
    /// The matrix to BT.709's linear light, by rows.
    float to_rendition[9];
    /// BT.709's luminance weights, toward which colours outside it are desaturated.
    float luminance[3];
    /// The roll-off: a brightest channel above `knee` follows Reinhard's extended operator so
    /// that `peak` lands on 1 (clipped at 1 when peak <= 1).
    float knee;
    float peak;
    /// SDR's code for linear light held at 0...1 (mirrored below 0): light^sdr_exponent.
    float sdr_exponent;
} ccycbcr_rendition;

/// A deeper clip's look (with its HDR mapping, if any) sampled on a lattice over the clip's
/// RGB, clamped to 0...1 (see ColorCubeApplier's YCbCrLattice).
typedef struct ccycbcr_lattice {
    /// nodes_per_side^3 nodes of 4 floats (R, G, B and one unused), 16-byte aligned, red
    /// fastest: the graded colour of the node's colour, in the output's RGB.
    const float *nodes;
    int64_t nodes_per_side;
    /// The clip's matrix and range, and the output's (the same, or BT.709's for HDR made SDR).
    ccycbcr_matrix input;
    ccycbcr_matrix output;
    /// Nonzero: a colour beyond the cube keeps its excursion, faded by `face_ramp` times the
    /// change the look makes at the clamped colour; zero: the result at the clamped colour.
    int32_t keeps_excursion;
    float face_ramp;
    /// The largest code, 2^depth - 1.
    float code_max;
    /// NULL, or for an HDR clip made SDR: how a pixel's RGB becomes the SDR rendition the
    /// lattice (then the look alone, over SDR code values) is read at.
    const ccycbcr_rendition *rendition;
    /// Nonzero: the scalar loop, a pixel at a time, even where the processor has AVX2 and FMA
    /// (which otherwise run eight pixels at once): the reference the vector loop is tested against.
    int32_t one_pixel_at_a_time;
} ccycbcr_lattice;

/// One band of a 9- to 16-bit planar frame (native-endian samples): one row of chroma blocks
/// and the luma rows it covers.
typedef struct ccycbcr_band16 {
    uint16_t *luma;
    uint16_t *blue;
    uint16_t *red;
    int64_t width;
    /// 1 or 2 rows of `width` samples, `width` apart.
    int64_t rows;
    /// log2 of the horizontal subsampling (0 or 1).
    int64_t shift_x;
} ccycbcr_band16;

/// Grades `band` in place from `lattice`: each pixel to RGB, its graded colour interpolated
/// (tetrahedrally) at the clamped colour, the excursion rule, back to YCbCr; luma rounded, each
/// block's chroma the mean of its pixels', rounded.
void ccycbcr_grade16(const ccycbcr_lattice *lattice, const ccycbcr_band16 *band);

#endif
