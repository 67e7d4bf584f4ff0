// A small C layer over libpng for colorcube. It has no stable API: only colorcube's Swift modules
// call it. Every function returns CCPNG_OK or one of the CCPNG_* failures below; on failure `message`
// holds the reason (libpng's own text where libpng gave one).
//
// Pixel data crosses this boundary as RGB or RGBA rows of 8-bit samples or 16-bit samples in host
// byte order. Palette, grey and low-bit images are expanded; no gamma or colour transform is ever
// applied, so code values arrive exactly as stored.
#ifndef COLORCUBE_CCPNG_H
#define COLORCUBE_CCPNG_H

#include <stddef.h>
#include <stdint.h>

#define CCPNG_OK 0
/// Anything else: out of memory, or the encoder or file system failed while writing.
#define CCPNG_ERROR 1
/// The file could not be opened or read; `ccpng_info.system_error` holds errno.
#define CCPNG_CANNOT_OPEN 2
/// The file does not start with the PNG signature.
#define CCPNG_NOT_PNG 3
/// libpng rejected the data: corrupt or truncated.
#define CCPNG_CORRUPT 4
#define CCPNG_MESSAGE_SIZE 256
/// The largest PNG chunk the reader allocates (64 MiB); larger ancillary chunks are skipped.
#define CCPNG_CHUNK_MALLOC_MAX (64u << 20)

/// An ancillary chunk carried from an input to an output untouched (text, EXIF, pHYs, ...).
typedef struct ccpng_chunk {
    char name[5];
    uint8_t location;
    size_t size;
    uint8_t *data;
} ccpng_chunk;

/// What a PNG says about itself, after expansion to RGB or RGBA.
typedef struct ccpng_info {
    uint32_t width;
    uint32_t height;
    int bit_depth;          // 8 or 16
    int channels;           // 3 (RGB) or 4 (RGBA)
    int source_color_type;  // PNG_COLOR_TYPE_* as stored
    int source_bit_depth;   // 1, 2, 4, 8 or 16 as stored
    int interlaced;
    int has_srgb;
    int srgb_intent;
    int has_gama;
    uint32_t gama;          // gAMA, scaled by 100000
    int has_chrm;
    int32_t chrm[8];        // white x,y, red x,y, green x,y, blue x,y, scaled by 100000
    uint8_t *icc;           // iCCP profile bytes, owned by the reader, or NULL
    uint32_t icc_size;
    char icc_name[80];
    ccpng_chunk *chunks;    // safe-to-copy ancillary chunks, owned by the reader
    int chunk_count;
    int system_error;       // errno of a CCPNG_CANNOT_OPEN failure, else 0
} ccpng_info;

typedef struct ccpng_reader ccpng_reader;

/// Opens `path`, reads the header chunks and fills `info` with what the file stores (size, source
/// depth and colour type, colour chunks, metadata); allocates nothing in proportion to the size.
/// Fails with CCPNG_CANNOT_OPEN (errno in `info->system_error`), CCPNG_NOT_PNG, CCPNG_CORRUPT or
/// CCPNG_ERROR (out of memory).
int ccpng_reader_open(const char *path, ccpng_reader **reader, ccpng_info *info, char *message);

/// Sets up expansion to 8 or 16-bit RGB(A) and fills `info->bit_depth` and `info->channels`. This
/// is where libpng allocates its row buffers, so callers check the declared size first.
int ccpng_reader_prepare(ccpng_reader *reader, ccpng_info *info, char *message);

/// Reads the next `rows` rows into `buffer` (rows * width * channels samples); CCPNG_CORRUPT when
/// libpng rejects the data.
/// An interlaced image must be read in one call with rows == height.
int ccpng_reader_read_rows(ccpng_reader *reader, void *buffer, uint32_t rows, char *message);

/// Reads the chunks after the image data (text written after IDAT) into `info`.
int ccpng_reader_finish(ccpng_reader *reader, ccpng_info *info, char *message);

/// Releases the reader and everything `info` points to.
void ccpng_reader_close(ccpng_reader *reader);

/// How to write a PNG.
typedef struct ccpng_write_options {
    uint32_t width;
    uint32_t height;
    int bit_depth;          // 8 or 16
    int channels;           // 3 or 4
    int srgb;               // write an sRGB chunk with `srgb_intent`
    int srgb_intent;
    const uint8_t *icc;     // write this iCCP profile (ignored when srgb is set)
    uint32_t icc_size;
    const char *icc_name;
    int has_gama;
    uint32_t gama;
    int has_chrm;
    int32_t chrm[8];
    const ccpng_chunk *chunks;
    int chunk_count;
    int compression_level;  // 0...12, libdeflate's scale (0 stores; 1...9 as zlib's; 10...12 slower, smaller)
    int filter;             // 0 none, 1 sub, 2 up, 3 average, 4 Paeth, 5 adaptive (per row, least sum of residuals)
    int workers;            // threads that filter and compress bands of rows; the output does not depend on it
} ccpng_write_options;

typedef struct ccpng_writer ccpng_writer;

/// Creates `path` and writes the header chunks. The image data is compressed a band of rows per
/// worker and joined into one zlib stream (see ccpng_deflater.h): the bytes depend on the image and
/// options only, not on `workers` or on how rows are split between calls.
int ccpng_writer_open(const char *path, const ccpng_write_options *options, ccpng_writer **writer, char *message);

/// Writes the next `rows` rows from `buffer`; more rows in total than the image's height is an error.
int ccpng_writer_write_rows(ccpng_writer *writer, const void *buffer, uint32_t rows, char *message);

/// Writes the end of the file and closes it; the writer must still be released. Every row must
/// have been written.
int ccpng_writer_finish(ccpng_writer *writer, char *message);

/// Releases the writer (closing the file if finish was not reached).
void ccpng_writer_close(ccpng_writer *writer);

#endif
