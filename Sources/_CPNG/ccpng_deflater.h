// The PNG image-data encoder behind ccpng_writer: filters rows and compresses them into one zlib
// stream, a band of rows per core. Private to this target; libpng is not involved, so nothing here
// longjmps.
//
// The stream is made the way pigz makes one: every band of rows is filtered and deflated on its own
// (with libdeflate, whole-buffer), every band but the last is then turned into a non-final,
// byte-aligned piece (its final-block bit cleared, an empty stored block appended, as zlib's
// Z_SYNC_FLUSH would end it), and the pieces are joined behind one zlib header, with the Adler-32 of
// all filtered bytes combined from the bands' own. Band boundaries depend only on the image's
// geometry, so the bytes are the same whatever the number of workers or the way rows are handed in.
#ifndef COLORCUBE_CCPNG_DEFLATER_H
#define COLORCUBE_CCPNG_DEFLATER_H

#include <stddef.h>
#include <stdint.h>

typedef struct ccpng_deflater ccpng_deflater;

/// Receives the zlib stream's bytes in order; returns 0, or nonzero to stop with an error.
typedef int (*ccpng_deflater_sink)(void *context, const uint8_t *bytes, size_t size);

/// The settings of one image's data.
typedef struct ccpng_deflater_options {
    uint32_t height;
    size_t row_bytes;        // unfiltered bytes per row
    int bytes_per_pixel;     // the filter's left-neighbour distance
    int swap_sixteen;        // rows hold 16-bit samples in little-endian order, PNG wants big-endian
    int filter;              // 0 none, 1 sub, 2 up, 3 average, 4 Paeth, 5 adaptive
    int level;               // 0...12 (libdeflate's scale; 1...9 as zlib's)
    int workers;             // threads that filter and compress bands (1 = the caller's only)
} ccpng_deflater_options;

/// Creates an encoder, or returns NULL and sets `*error` (static text).
ccpng_deflater *ccpng_deflater_create(const ccpng_deflater_options *options, const char **error);

/// Encodes the next `count` rows; returns NULL, or the reason it failed (static text).
/// A sink that fails makes the call return "the image data could not be written".
const char *ccpng_deflater_write(ccpng_deflater *deflater, const uint8_t *rows, uint32_t count,
                                 ccpng_deflater_sink sink, void *context);

/// Encodes the rows still held and ends the stream; every row of the image must have been given.
const char *ccpng_deflater_finish(ccpng_deflater *deflater, ccpng_deflater_sink sink, void *context);

/// The number of rows given so far.
uint32_t ccpng_deflater_rows_given(const ccpng_deflater *deflater);

/// Rows per band for an image whose rows have `row_bytes` bytes (about 1 MiB of filtered data).
uint32_t ccpng_deflater_band_rows(size_t row_bytes);

void ccpng_deflater_destroy(ccpng_deflater *deflater);

#endif
