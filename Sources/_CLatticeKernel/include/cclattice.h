// The 8-bit and planar Float trilinear and tetrahedral loops of ColorCubeApplier's
// LatticeKernel, written for AVX2 + FMA and chosen at run time. It has no stable API: only ColorCubeApplier calls it, with
// tables it built and owns. Trilinear fetches a cell as four 32-byte rows (a node and its red
// neighbour) and lerps green, blue, then red; both interpolations use fused multiply-adds. So an
// 8-bit result may differ from the Swift loops' by one code where the exact value lies within
// Float32 error of a half code (27 and 130 of the 50,331,648 samples of all 2^24 colours through
// a 64-cube, trilinear and tetrahedral). The Swift loops stay the portable fallback and the
// reference these are tested against. A fixed-point 8-bit trilinear loop (Int16 lattice) serves
// looks at full strength without curves; its error is stated at cclattice_trilinear8_fixed.
#ifndef COLORCUBE_CCLATTICE_H
#define COLORCUBE_CCLATTICE_H

#include <stdint.h>

/// One 8-bit code on one axis: the lower node's offset in the lattice (in nodes) and the
/// fraction towards the next node. Swift's LatticeKernel tables use this type.
typedef struct cclattice_step {
    int32_t offset;
    float fraction;
} cclattice_step;

/// One 8-bit code on one axis for the fixed-point trilinear loop, 16 bytes. A code splits into
/// the lower node and j / 255 towards the next, exactly (code * (N-1) = node * 255 + j); code
/// 255 is node N-1 with j = 0 on green and blue (the zero nodes after the lattice are read and
/// weighted 0), node N-2 with j = 255 on red. Each axis's entry fills its own
/// fields and leaves the others 0, so that a pixel's red, green and blue entries add up, in one
/// 128-bit addition, to the cell's offset and all its weights.
typedef struct cclattice_fixed_step {
    /// The lower node's offset in the lattice, in nodes (node times the axis's stride).
    int32_t offset;
    /// Green's and blue's fraction in Q15: round(j * 32768 / 255).
    int16_t green;
    int16_t blue;
    /// Red's weights of the lower and upper node: 255 - j and j, exact.
    int16_t red_low;
    int16_t red_high;
    int32_t unused;
} cclattice_fixed_step;

/// Everything the loops read, fixed when the engine is made.
typedef struct cclattice_kernel {
    /// Nodes of four floats (red, green, blue, unused), red fastest, 16-byte aligned.
    const float *lattice;
    /// 3 x 256 steps: red codes, then green, then blue.
    const cclattice_step *steps;
    /// 8 pairs of node offsets: the two inner corners of the tetrahedron for each outcome of
    /// (x > y, y > z, x > z) as bits 2, 1, 0.
    const int32_t *tetrahedra;
    int64_t green_stride;
    int64_t blue_stride;
    /// strength * 255 and 1 - strength.
    float scale;
    float keep;
    /// Non-zero when strength < 1 (the input is mixed back in).
    int32_t mixes;
    /// Per-channel output curves, or NULL: 3 tables of `curve_samples` floats (red, green,
    /// blue), sample j of channel c at lattice value curve_min[c] + j / curve_inverse_step[c].
    const float *curves;
    int32_t curve_samples;
    float curve_min[4];
    float curve_inverse_step[4];
    /// Nodes per axis (N), for Float inputs.
    int32_t size;
    /// The strength itself, for Float outputs (mixed as out * strength + in * (1 - strength)).
    float strength;
    /// Per-channel input curves for Float inputs, or NULL: 3 tables of `input_samples` floats
    /// (red, green, blue), sample j at input j / (input_samples - 1).
    const float *input_curves;
    int32_t input_samples;
    /// For the fixed-point trilinear loop, or NULL: nodes of four Int16 (red, green, blue, 0),
    /// value * 32640 (so one 8-bit code is 128 units), red fastest, followed by at least
    /// N^2 + N + 1 zero nodes (a code of 255 on green or blue is node N-1 with weight 0, whose
    /// upper neighbour is read and weighted 0), and 3 x 256 steps (red, green, blue).
    const int16_t *fixed_lattice;
    const cclattice_fixed_step *fixed_steps;
} cclattice_kernel;

/// 1 when this CPU runs the loops below (x86-64 with AVX2 and FMA), else 0: never call them then.
int cclattice_available(void);

/// Applies the look to `count` interleaved 8-bit pixels of `stride` samples (3 or 4), red, green
/// and blue at the given offsets; `source` and `destination` are the same buffer or do not
/// overlap. With stride 4 and distinct buffers the fourth sample is copied.
void cclattice_trilinear8(const cclattice_kernel *kernel, const uint8_t *source, uint8_t *destination,
                          int64_t count, int64_t stride, int64_t red, int64_t green, int64_t blue);
void cclattice_tetrahedral8(const cclattice_kernel *kernel, const uint8_t *source, uint8_t *destination,
                            int64_t count, int64_t stride, int64_t red, int64_t green, int64_t blue);

/// 8-bit trilinear in fixed point, as `cclattice_trilinear8` but for `kernel->fixed_lattice` (which
/// must be set) and only at full strength without output curves: two pixels per 256-bit register,
/// a cell's eight corners in four 16-byte loads per pixel, the green and blue lerps in Int16
/// (a + round((b - a) * t / 32768), t in Q15) and the red lerp exact ((255 - j) * a + j * b in
/// Int32), rounded to the nearest code in Float. Error against the exact trilinear value of the
/// Float lattice, in units of 1/128 code: the lattice's rounding (half a unit; one for the rare
/// value within half a unit of a half code, held on its side so that inputs on nodes give the
/// Float loops' codes) plus the two Int16 lerps' (half a unit each, and |b - a| / 65536 for the Q15
/// weights): at most 2 units (1/64 of a code) where neighbouring nodes differ by little, 3 at
/// worst. An output differs from the exact value rounded only where that lies this close to a
/// half code (`FixedPointKernelTests` checks every 8-bit colour through a 64-cube).
void cclattice_trilinear8_fixed(const cclattice_kernel *kernel, const uint8_t *source, uint8_t *destination,
                                int64_t count, int64_t stride, int64_t red, int64_t green, int64_t blue);

/// Applies the look in place to `count` planar Float pixels (red, green and blue planes): inputs
/// clamped to [0, 1] (NaN to 0), outputs not clamped; the operations of LatticeKernel.applyPlanar,
/// with the 8-bit loops' interpolation (fused multiply-adds), so results agree with the Swift loop's
/// to a few units in the last place.
void cclattice_trilinear_planar(const cclattice_kernel *kernel, float *red, float *green, float *blue, int64_t count);
void cclattice_tetrahedral_planar(const cclattice_kernel *kernel, float *red, float *green, float *blue, int64_t count);

#endif
