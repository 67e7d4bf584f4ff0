// A small C layer over the OpenEXR Core library (openexr.h, OpenEXR 3.1) for colorcube. It has no
// stable API: only colorcube's Swift modules call it. Functions return CCEXR_OK or one of the
// CCEXR_* failures below; on failure `message` (CCEXR_MESSAGE_SIZE bytes) holds the reason, the
// library's own text where it gave one.
//
// Pictures cross this layer as interleaved 32-bit floats, RGB or RGBA, rows top to bottom over the
// data window: the library converts half, float and uint channels to float when reading, and this
// layer converts back to the file's channel type (half rounded to nearest even) when writing.
// Flat images with full-resolution R, G, B (and A) channels are read: in a multi-part file, the
// first such part (deep parts and parts without them are passed over). Files with no such part
// (deep, luminance/chroma, subsampled) are refused with a message that says so.
#ifndef COLORCUBE_CCEXR_H
#define COLORCUBE_CCEXR_H

#include <stddef.h>
#include <stdint.h>

#define CCEXR_OK 0
/// The library rejected the data: corrupt or truncated file, or the encoder or file system failed.
#define CCEXR_ERROR 1
/// The file could not be opened (message: the system's reason).
#define CCEXR_CANNOT_OPEN 2
/// The file does not start with OpenEXR's magic number.
#define CCEXR_NOT_EXR 3
/// A valid OpenEXR file that colorcube does not read (message: what it holds).
#define CCEXR_UNSUPPORTED 4
/// Memory for the pixels or a chunk could not be had.
#define CCEXR_NO_MEMORY 5

#define CCEXR_MESSAGE_SIZE 512

/// What a file holds, and the required attributes an output keeps.
typedef struct {
    int32_t width, height;                 // the data window's size
    int32_t data_min_x, data_min_y;        // the data window's origin
    int32_t display_min_x, display_min_y, display_max_x, display_max_y;
    int32_t channels;                      // 3 (RGB) or 4 (RGBA)
    int32_t pixel_type;                    // the widest colour channel: 0 uint, 1 half, 2 float
    int32_t compression;                   // exr_compression_t
    int32_t line_order;                    // exr_lineorder_t
    int32_t tiled;                         // 1 for a tiled file (only its first level is read)
    uint32_t tile_width, tile_height;
    float pixel_aspect_ratio;
    float screen_window_center_x, screen_window_center_y, screen_window_width;
    int32_t has_chromaticities;
    float chromaticities[8];               // red x y, green x y, blue x y, white x y
    char color_interop_id[128];            // OpenEXR 3.4's colorInteropID attribute, or ""
    int32_t part;                          // the part read: 0 in a single-part file
    int32_t part_count;                    // the file's parts
    char part_name[64];                    // that part's name attribute, or ""
} ccexr_info;

typedef struct ccexr_reader ccexr_reader;

/// Opens `path` and reads its header into `info`. On success `*reader` must be closed with
/// ccexr_close; the header's bytes stay available (ccexr_header) for an output to copy from.
int ccexr_open(const char *path, ccexr_reader **reader, ccexr_info *info, char *message);

/// Decodes the data window into `pixels`: width x height x channels floats, interleaved.
int ccexr_read_pixels(ccexr_reader *reader, float *pixels, char *message);

/// The file's header bytes (every attribute), for ccexr_write_options.source_header.
const uint8_t *ccexr_header(const ccexr_reader *reader, size_t *size);

void ccexr_close(ccexr_reader *reader);

/// How to write: the geometry and required attributes of `info`, plus the header of a source file
/// whose other attributes (chromaticities, colorInteropID, owner, custom ones) are copied from its
/// part `info.part`. The output is always a single-part file.
typedef struct {
    ccexr_info info;
    const uint8_t *source_header;          // may be NULL
    size_t source_header_size;
} ccexr_write_options;

/// Writes `pixels` (width x height x channels floats, interleaved) to `path` as one part.
int ccexr_write(const char *path, const ccexr_write_options *options, const float *pixels, char *message);

#endif
