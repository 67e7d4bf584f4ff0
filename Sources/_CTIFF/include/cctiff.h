// A small C layer over libtiff for colorcube. It has no stable API: only colorcube's Swift modules
// call it. Every function returns CCTIFF_OK or one of the CCTIFF_* failures below; on failure
// `message` holds the reason (libtiff's own text where libtiff gave one).
//
// libtiff reports errors through handlers, not return values alone. This layer installs a handler
// per open file (TIFFOpenOptions), never a global one, so several files can be read and written on
// different threads at once; the first error libtiff reports becomes the message.
//
// libtiff has no transform that expands samples at full depth (TIFFReadRGBAImage drops to 8 bits),
// so this layer does what libpng's transforms do for PNG: strips or tiles, contiguous or separate
// planes, grey, palette and low-bit samples arrive as interleaved RGB or RGBA rows of 8-bit samples
// or 16-bit samples in host byte order, with every code value as stored.
#ifndef COLORCUBE_CCTIFF_H
#define COLORCUBE_CCTIFF_H

#include <stddef.h>
#include <stdint.h>

#define CCTIFF_OK 0
/// libtiff rejected the data: corrupt, truncated, or the encoder or file system failed.
#define CCTIFF_ERROR 1
/// The file could not be opened (message: the system's reason).
#define CCTIFF_CANNOT_OPEN 2
/// The file does not start with a TIFF header.
#define CCTIFF_NOT_TIFF 3
/// A valid TIFF that colorcube does not decode (message names what it is: CMYK, float, ...).
#define CCTIFF_UNSUPPORTED 4
/// A strip or tile larger than the memory bound.
#define CCTIFF_TOO_LARGE 5

/// The same size as CCPNG_MESSAGE_SIZE, so the Swift side uses one buffer type for every shim.
#define CCTIFF_MESSAGE_SIZE 256

/// The largest single allocation libtiff may make for one file, and the largest strip or tile
/// buffer this layer allocates (unless the decoded image itself is larger): 256 MiB.
#define CCTIFF_MAX_ALLOCATION ((uint64_t)256 << 20)

/// What the first image of a TIFF says about itself, after expansion to RGB or RGBA.
typedef struct cctiff_info {
    uint32_t width;
    uint32_t height;
    int channels;             // 3 (RGB) or 4 (RGBA)
    int bit_depth;            // 8, 16 or 32 (32: 32-bit floats), as delivered
    int float_bits;           // for floating-point files, the stored size: 16 (half) or 32; else 0
    int compression;          // libtiff's COMPRESSION_* value as stored
    int associated_alpha;     // 1 when the alpha was premultiplied in the file (undone on reading)
    uint32_t image_count;     // directories in the main chain (pages)
    const uint8_t *icc;       // the ICC profile, owned by the reader; NULL when there is none
    uint32_t icc_size;
    const uint8_t *xmp;       // the XMP packet (tag 700), owned by the reader; NULL when there is none
    uint32_t xmp_size;
    int has_resolution;
    double x_resolution;
    double y_resolution;
    int resolution_unit;      // 1 none, 2 inch, 3 centimetre
    uint64_t exif_offset;     // file offset of the EXIF IFD, 0 when there is none
    uint64_t gps_offset;      // file offset of the GPS IFD, 0 when there is none
    int big_endian;           // the file's byte order
    int is_bigtiff;
} cctiff_info;

typedef struct cctiff_reader cctiff_reader;

/// Opens `path`, reads its first directory and fills `info`; refuses what it cannot expand.
int cctiff_reader_open(const char *path, cctiff_reader **reader, cctiff_info *info, char *message);

/// Decodes the whole first image strip by strip (or tile by tile) into `buffer`, which holds
/// width * height * channels samples of `info.bit_depth` bits.
int cctiff_reader_read(cctiff_reader *reader, void *buffer, char *message);

/// Releases the reader and what `info` points to.
void cctiff_reader_close(cctiff_reader *reader);

/// One ASCII tag of the main directory (Make, Model, Artist ...).
typedef struct cctiff_text_tag {
    uint32_t tag;
    const char *value;
} cctiff_text_tag;

/// How to write a TIFF: one image, interleaved RGB or RGBA (unassociated alpha), in strips.
typedef struct cctiff_write_options {
    uint32_t width;
    uint32_t height;
    int channels;             // 3 or 4
    int bit_depth;            // 8, 16 (samples in host byte order) or 32 (32-bit floats)
    int float_bits;           // with bit_depth 32: store 16-bit half or 32-bit float samples
    int compression;          // COMPRESSION_NONE, _LZW, _ADOBE_DEFLATE, _DEFLATE or _PACKBITS
    int predictor;            // 1 none, 2 horizontal, 3 floating point (LZW and Deflate only)
    const uint8_t *icc;       // written as the ICC profile tag when not NULL
    uint32_t icc_size;
    const uint8_t *xmp;       // written as the XMP packet tag (700) when not NULL
    uint32_t xmp_size;
    int has_resolution;
    double x_resolution;
    double y_resolution;
    int resolution_unit;
    int orientation;          // 0: no Orientation tag
    const cctiff_text_tag *text_tags;
    int text_tag_count;
    // When set, the EXIF and GPS IFD tags are written with the placeholder offset 0xFFFFFFFF,
    // for the caller to point at directories it appends after the file is closed.
    int exif_placeholder;
    int gps_placeholder;
} cctiff_write_options;

/// Creates `path` and writes `pixels` (width * height * channels samples) in strips of about 64 KB.
/// No date is written; Software is "colorcube".
int cctiff_write(const char *path, const cctiff_write_options *options, const void *pixels,
                 char *message);

/// True when this libtiff can encode `compression`.
int cctiff_can_encode(int compression);

#endif
