// A small C layer over libjpeg(-turbo) for colorcube. It has no stable API: only colorcube's Swift
// modules call it. Every function returns CCJPEG_OK or one of the CCJPEG_* failures below; on failure
// `message` holds the reason (libjpeg's own text where libjpeg gave one).
//
// Pixel data crosses this boundary as rows of 8-bit interleaved RGB. Greyscale files are expanded to
// RGB on reading; CMYK and YCCK files are refused. Markers are passed through as raw payloads: ICC
// profile chunking and the choice of what to keep are the caller's.
#ifndef COLORCUBE_CCJPEG_H
#define COLORCUBE_CCJPEG_H

#include <stddef.h>
#include <stdint.h>

#define CCJPEG_OK 0
/// libjpeg rejected the data: corrupt, truncated, or the encoder or file system failed.
#define CCJPEG_ERROR 1
/// The file could not be opened (message: the system's reason).
#define CCJPEG_CANNOT_OPEN 2
/// The file does not start with a JPEG SOI marker.
#define CCJPEG_NOT_JPEG 3
/// A valid JPEG that colorcube does not decode (CMYK, 12-bit, ...).
#define CCJPEG_UNSUPPORTED 4

/// The header declares more pixels than the caller's limit (nothing was allocated for them).
#define CCJPEG_TOO_LARGE 5

/// Room for any libjpeg message (JMSG_LENGTH_MAX is 200); the same size as CCPNG_MESSAGE_SIZE, so
/// the Swift side can use one buffer type for both shims.
#define CCJPEG_MESSAGE_SIZE 256

/// One APPn (0xE0...0xEF) or COM (0xFE) marker segment: its code and payload (without the length).
typedef struct ccjpeg_marker {
    uint8_t code;
    size_t size;
    const uint8_t *data;
} ccjpeg_marker;

/// What a JPEG says about itself.
typedef struct ccjpeg_info {
    uint32_t width;
    uint32_t height;
    int source_components;  // 1 (grey) or 3, as stored; rows are always delivered as 3-channel RGB
    int h_subsampling;      // luma sampling factors relative to chroma (2x2 for 4:2:0, 2x1 for 4:2:2,
    int v_subsampling;      // 1x1 for 4:4:4); 0 for greyscale files, which have no chroma
    int progressive;
    ccjpeg_marker *markers; // every APPn and COM marker in file order, owned by the reader until close
    int marker_count;
} ccjpeg_info;

typedef struct ccjpeg_reader ccjpeg_reader;

/// Opens `path`, reads the markers and the frame header, and fills `info`. A progressive file is
/// decoded into libjpeg's coefficient buffer here, so its damage is reported by this call.
/// When `replicate_chroma` is non-zero each stored chroma sample is repeated over the pixels it
/// covers (libjpeg's plain upsampling) instead of interpolated between neighbouring samples, so
/// every pixel of a 2x2 (4:2:0) or 2x1 (4:2:2) block decodes with that block's chroma as stored.
int ccjpeg_reader_open(const char *path, ccjpeg_reader **reader, ccjpeg_info *info, int replicate_chroma,
                       char *message);

/// Decodes the next `rows` rows into `buffer` (rows * width * 3 bytes).
/// A premature end of the file or damaged entropy-coded data is a CCJPEG_ERROR, never a grey fill.
int ccjpeg_reader_read_rows(ccjpeg_reader *reader, uint8_t *buffer, uint32_t rows, char *message);

/// Reads up to the EOI marker once every row has been read.
int ccjpeg_reader_finish(ccjpeg_reader *reader, char *message);

/// Releases the reader and the markers `info` points to.
void ccjpeg_reader_close(ccjpeg_reader *reader);

/// One colour component's quantised DCT coefficients, as stored in the file.
typedef struct ccjpeg_component {
    uint32_t width_in_blocks;   // the component's 8x8 blocks per row and per column that cover the
    uint32_t height_in_blocks;  // image (the MCU's padding blocks are left out)
    int h_samp_factor;
    int v_samp_factor;
    uint16_t quantization[64];  // the quantisation table, natural (row-major) order
    int16_t *coefficients;      // height_in_blocks * width_in_blocks blocks of 64, row-major blocks,
                                // each block's coefficients in natural order; owned, freed by
                                // ccjpeg_coefficients_free
} ccjpeg_component;

/// The components of a YCbCr JPEG (three) or a greyscale one (one, its luma).
typedef struct ccjpeg_coefficients {
    uint32_t width;
    uint32_t height;
    uint32_t component_count;
    ccjpeg_component components[3];
} ccjpeg_coefficients;

/// Reads the quantised DCT coefficients of a baseline or progressive 8-bit YCbCr or greyscale JPEG
/// without decoding its pixels. Files of another colour space (RGB, CMYK) are CCJPEG_UNSUPPORTED.
/// `max_pixels` is checked against the header before anything is allocated: over it, the call
/// returns CCJPEG_TOO_LARGE with `width` and `height` filled in.
int ccjpeg_read_coefficients(const char *path, uint64_t max_pixels, ccjpeg_coefficients *out, char *message);

/// Frees what ccjpeg_read_coefficients allocated (safe on a zeroed or partly filled struct).
void ccjpeg_coefficients_free(ccjpeg_coefficients *coefficients);

/// How to write a JPEG.
typedef struct ccjpeg_write_options {
    uint32_t width;
    uint32_t height;
    int quality;            // 1...100 (libjpeg clamps other values)
    int h_subsampling;      // luma sampling factors; chroma is always 1x1
    int v_subsampling;
    int greyscale;          // nonzero: the luma alone, one component (the subsampling unused)
    const ccjpeg_marker *markers;  // written in order right after the JFIF header
    int marker_count;
} ccjpeg_write_options;

typedef struct ccjpeg_writer ccjpeg_writer;

/// Creates `path` and writes the headers and `options->markers` (copied before this returns).
/// The encoder uses optimised Huffman tables and the accurate integer DCT.
int ccjpeg_writer_open(const char *path, const ccjpeg_write_options *options, ccjpeg_writer **writer,
                       char *message);

/// Encodes the next `rows` rows from `buffer` (rows * width * 3 bytes of RGB).
int ccjpeg_writer_write_rows(ccjpeg_writer *writer, const uint8_t *buffer, uint32_t rows, char *message);

/// Writes the end of the file and closes it; the writer must still be released.
int ccjpeg_writer_finish(ccjpeg_writer *writer, char *message);

/// Releases the writer (closing the file if finish was not reached).
void ccjpeg_writer_close(ccjpeg_writer *writer);

#endif
