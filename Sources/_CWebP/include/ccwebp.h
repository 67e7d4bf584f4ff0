// A small C layer over libwebp (decode, encode, mux, demux) for colorcube. It has no stable API:
// only colorcube's Swift modules call it. Every function returns CCWEBP_OK or one of the CCWEBP_*
// failures below; on failure `message` holds the reason.
//
// Pixels cross this boundary as 8-bit interleaved RGB or RGBA. Metadata chunks (ICCP, EXIF, XMP)
// are passed through as raw payloads; deciding what to keep is the caller's.
#ifndef COLORCUBE_CCWEBP_H
#define COLORCUBE_CCWEBP_H

#include <stddef.h>
#include <stdint.h>

#define CCWEBP_OK 0
/// The data is damaged or truncated, or the encoder or file system failed.
#define CCWEBP_ERROR 1
/// The file could not be opened or read (message: the system's reason).
#define CCWEBP_CANNOT_OPEN 2
/// The file is not a RIFF WebP file.
#define CCWEBP_NOT_WEBP 3
/// A valid WebP that colorcube does not decode.
#define CCWEBP_UNSUPPORTED 4
/// Memory for the file or its pixels could not be had.
#define CCWEBP_NO_MEMORY 5

/// Room for any message; the same size as the other shims' buffers.
#define CCWEBP_MESSAGE_SIZE 256

/// One metadata chunk's payload, owned by the reader.
typedef struct ccwebp_chunk {
    const uint8_t *data;
    size_t size;
} ccwebp_chunk;

/// What a WebP file says about itself.
typedef struct ccwebp_info {
    uint32_t width;          // the canvas size (an animation's frames are composed onto it)
    uint32_t height;
    int has_alpha;
    int is_lossless;         // 1 when the (first) image is VP8L, lossless
    int frame_count;         // 1 for a still image
    int is_lossy_still;      // 1 for a still image coded with VP8 (lossy, 4:2:0), not an animation
    ccwebp_chunk icc;        // empty (NULL, 0) when the file has none
    ccwebp_chunk exif;
    ccwebp_chunk xmp;
} ccwebp_info;

typedef struct ccwebp_reader ccwebp_reader;

/// Reads the file at `path` into memory and fills `info` from its headers and chunks; no pixel is
/// decoded yet.
int ccwebp_reader_open(const char *path, ccwebp_reader **reader, ccwebp_info *info, char *message);

/// Decodes the first image (the first frame of an animation, composed onto the canvas) into
/// `buffer`: height rows of width * channels bytes, `channels` 3 (RGB) or 4 (RGBA). When
/// `replicate_chroma` is non-zero a lossy still image is decoded without libwebp's fancy
/// upsampling: each 2x2 block's chroma sample is repeated over its pixels.
int ccwebp_reader_decode(ccwebp_reader *reader, uint8_t *buffer, int channels, int replicate_chroma,
                         char *message);

/// Releases the reader and the chunks `info` points to.
void ccwebp_reader_close(ccwebp_reader *reader);

/// How to write a WebP file.
typedef struct ccwebp_write_options {
    uint32_t width;
    uint32_t height;
    int channels;            // 3 or 4
    const uint8_t *pixels;   // height rows of width * channels bytes
    int lossless;            // 1: VP8L with every RGB value kept, even under transparent pixels
    int quality;             // 1...100, for lossy files
    ccwebp_chunk icc;        // chunks to store; empty ones are left out
    ccwebp_chunk exif;
    ccwebp_chunk xmp;
} ccwebp_write_options;

/// Encodes `options->pixels` single-threaded (so the same input always gives the same bytes) and
/// writes the file to `path`.
int ccwebp_write(const char *path, const ccwebp_write_options *options, char *message);

#endif
