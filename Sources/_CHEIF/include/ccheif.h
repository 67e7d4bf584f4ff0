// A small C layer over libheif (HEIC with HEVC, AVIF with AV1) for colorcube. It has no stable API:
// only colorcube's Swift modules call it. Every function returns CCHEIF_OK or one of the CCHEIF_*
// failures below; on failure `message` holds the reason (libheif's own text where it gave one).
//
// Pixels cross this boundary interleaved: 8-bit RGB(A), or 16-bit words in host order that hold the
// file's own code values (0...1023 for 10 bits); scaling to other ranges is the caller's.
#ifndef COLORCUBE_CCHEIF_H
#define COLORCUBE_CCHEIF_H

#include <stddef.h>
#include <stdint.h>

#define CCHEIF_OK 0
/// The data is damaged or truncated, or the encoder or file system failed.
#define CCHEIF_ERROR 1
/// The file could not be opened (message: the reason).
#define CCHEIF_CANNOT_OPEN 2
/// The file is not a HEIF file libheif knows.
#define CCHEIF_NOT_HEIF 3
/// A valid file using a feature (or a codec) libheif does not have.
#define CCHEIF_UNSUPPORTED 4
/// Memory could not be had.
#define CCHEIF_NO_MEMORY 5
/// The file declares a size beyond the limit given to ccheif_reader_open.
#define CCHEIF_TOO_BIG 6

#define CCHEIF_MESSAGE_SIZE 256

/// A byte payload (a profile or a metadata block); owned by the reader when read.
typedef struct ccheif_bytes {
    const uint8_t *data;
    size_t size;
} ccheif_bytes;

/// An nclx colour description (ITU-T H.273 code points) with libheif's xy chromaticities.
typedef struct ccheif_nclx {
    int present;
    int primaries;
    int transfer;
    int matrix;
    int full_range;
    float red_x, red_y, green_x, green_y, blue_x, blue_y, white_x, white_y;
} ccheif_nclx;

/// What the primary image of a HEIF file says about itself.
typedef struct ccheif_info {
    uint32_t width;           // after the file's rotation and cropping, as decoded
    uint32_t height;
    int has_alpha;
    int luma_bits;            // 8, 10 or 12
    int image_count;          // top-level images in the file
    ccheif_bytes icc;         // an ICC profile ('prof' or 'rICC'), empty when none
    ccheif_nclx nclx;         // present = 0 when the file has no nclx colour box
    ccheif_bytes exif;        // the first Exif block as stored: a 4-byte offset, then the TIFF data
    ccheif_bytes xmp;         // the first XMP block
} ccheif_info;

typedef struct ccheif_reader ccheif_reader;

/// Opens `path`, refusing images wider or taller than `max_side` (libheif's own security limit,
/// checked while the boxes are parsed) and AVIFs whose AV1 sequence header declares frames of more
/// than `max_pixels` (0: not checked), and fills `info` from the primary image's headers.
int ccheif_reader_open(const char *path, int max_side, int64_t max_pixels, ccheif_reader **reader,
                       ccheif_info *info, char *message);

/// Decodes the primary image (libheif converts YCbCr to RGB) into `buffer`: height rows of
/// width * channels samples, bytes when `sixteen` is 0, else 16-bit words holding `*bits`-bit values.
/// When `replicate_chroma` is non-zero subsampled chroma is upsampled by repeating each sample over
/// the pixels it covers (nearest neighbour): libheif before 1.16 always upsamples so; 1.16 and
/// later are asked for it through their colour conversion options.
int ccheif_reader_decode(ccheif_reader *reader, void *buffer, int channels, int sixteen, int replicate_chroma,
                         int *bits, char *message);

/// Releases the reader and everything `info` points to.
void ccheif_reader_close(ccheif_reader *reader);

#define CCHEIF_HEVC 1
#define CCHEIF_AV1 4

/// How to write a HEIF file.
typedef struct ccheif_write_options {
    uint32_t width;
    uint32_t height;
    int channels;             // 3 or 4
    int bits;                 // 8, or 10 or 12 with 16-bit words holding 0...1023 or 0...4095
    const void *pixels;       // height rows of width * channels samples
    int compression;          // CCHEIF_HEVC (x265) or CCHEIF_AV1 (aom)
    int quality;              // 1...100
    int threads;              // encoder threads; 0 leaves the encoder's default
    ccheif_bytes icc;         // written as a 'prof' colour box when not empty
    int srgb_nclx;            // 1: an nclx box for sRGB (BT.709 primaries, sRGB curve, full range),
                              // written in HEIC files too (libheif leaves it out of them by default)
    ccheif_bytes exif;        // the TIFF structure; libheif prefixes the offset itself
    ccheif_bytes xmp;
} ccheif_write_options;

/// Encodes the image (lossy) and writes the file to `path`.
int ccheif_write(const char *path, const ccheif_write_options *options, char *message);

#endif
