#include "cctiff.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tiffio.h>

// Where libtiff's messages for one open file go: the first error is kept, warnings are dropped
// (unknown tags, odd but readable values); a failing call is what decides that the file is bad.
typedef struct message_sink {
    char *message;
    int has_error;
} message_sink;

// How each stored sample becomes output samples.
enum role { ROLE_IGNORE, ROLE_RED, ROLE_GREEN, ROLE_BLUE, ROLE_GREY, ROLE_PALETTE, ROLE_ALPHA };

struct cctiff_reader {
    TIFF *tif;
    message_sink sink;
    uint32_t width;
    uint32_t height;
    uint16_t samples_per_pixel;
    uint16_t bits;
    uint16_t planar;
    int channels;
    int out_bits;
    int min_is_white;
    int associated_alpha;
    int is_float;           // IEEE floating-point samples (16 or 32 bits), delivered as 32-bit floats
    uint16_t *palette[3];
    enum role roles[8];     // for the first 8 stored samples; later ones are ignored
};

static void set_message(char *message, const char *text) {
    if (message) {
        snprintf(message, CCTIFF_MESSAGE_SIZE, "%s", text);
    }
}

static int on_error(TIFF *tif, void *user_data, const char *module, const char *format, va_list args) {
    (void)tif;
    message_sink *sink = user_data;
    if (!sink->has_error && sink->message) {
        char text[CCTIFF_MESSAGE_SIZE];
        vsnprintf(text, sizeof text, format, args);
        if (module && *module) {
            snprintf(sink->message, CCTIFF_MESSAGE_SIZE, "%s: %s", module, text);
        } else {
            set_message(sink->message, text);
        }
        sink->has_error = 1;
    }
    return 1;  // handled: libtiff's global handler never prints to stderr
}

static int on_warning(TIFF *tif, void *user_data, const char *module, const char *format, va_list args) {
    (void)tif, (void)user_data, (void)module, (void)format, (void)args;
    return 1;
}

static TIFF *open_tiff(const char *path, const char *mode, message_sink *sink) {
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (!options) {
        set_message(sink->message, "out of memory");
        sink->has_error = 1;
        return NULL;
    }
    TIFFOpenOptionsSetMaxSingleMemAlloc(options, (tmsize_t)CCTIFF_MAX_ALLOCATION);
    TIFFOpenOptionsSetErrorHandlerExtR(options, on_error, sink);
    TIFFOpenOptionsSetWarningHandlerExtR(options, on_warning, sink);
    TIFF *tif = TIFFOpenExt(path, mode, options);
    TIFFOpenOptionsFree(options);
    return tif;
}

static const char *compression_name(int compression) {
    switch (compression) {
    case COMPRESSION_OJPEG: return "old-style JPEG";
    case COMPRESSION_JPEG: return "JPEG";
    case COMPRESSION_JBIG: return "JBIG";
    case COMPRESSION_WEBP: return "WebP";
    case COMPRESSION_LERC: return "LERC";
    case COMPRESSION_JXL: return "JPEG XL";
    case COMPRESSION_ZSTD: return "Zstandard";
    case COMPRESSION_LZMA: return "LZMA";
    case 34712: return "JPEG 2000";
    case COMPRESSION_NEXT: return "NeXT";
    case COMPRESSION_THUNDERSCAN: return "ThunderScan";
    case COMPRESSION_PIXARLOG: return "PixarLog";
    case COMPRESSION_SGILOG: case COMPRESSION_SGILOG24: return "SGI LogLuv";
    default: return NULL;
    }
}

// The lossless schemes read here: the four colorcube writes, the fax codings of bilevel scans,
// and the newer lossless ones when this libtiff has them.
static int is_readable_compression(int compression) {
    switch (compression) {
    case COMPRESSION_NONE:
    case COMPRESSION_LZW:
    case COMPRESSION_ADOBE_DEFLATE:
    case COMPRESSION_DEFLATE:
    case COMPRESSION_PACKBITS:
        return 1;
    case COMPRESSION_CCITTRLE:
    case COMPRESSION_CCITTRLEW:
    case COMPRESSION_CCITTFAX3:
    case COMPRESSION_CCITTFAX4:
    case COMPRESSION_ZSTD:
    case COMPRESSION_LZMA:
        return TIFFIsCODECConfigured((uint16_t)compression);
    default:
        return 0;
    }
}

static const char *photometric_name(int photometric) {
    switch (photometric) {
    case PHOTOMETRIC_SEPARATED: return "CMYK (separated)";
    case PHOTOMETRIC_YCBCR: return "YCbCr";
    case PHOTOMETRIC_CIELAB: case PHOTOMETRIC_ICCLAB: case PHOTOMETRIC_ITULAB: return "CIE L*a*b*";
    case PHOTOMETRIC_LOGL: case PHOTOMETRIC_LOGLUV: return "LogLuv";
    case PHOTOMETRIC_MASK: return "transparency mask";
    case PHOTOMETRIC_CFA: case 34892: return "camera sensor (CFA or linear raw)";
    default: return NULL;
    }
}

// Checks the first directory against what this layer expands and fills the reader's plan.
static int plan_reading(cctiff_reader *reader, cctiff_info *info, char *message) {
    TIFF *tif = reader->tif;
    char text[CCTIFF_MESSAGE_SIZE];
    uint16_t compression = COMPRESSION_NONE, photometric = 0, sample_format = SAMPLEFORMAT_UINT;
    TIFFGetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &compression);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &sample_format);
    TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &reader->bits);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &reader->samples_per_pixel);
    TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &reader->planar);
    if (!TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &photometric)) {
        set_message(message, "the first image has no PhotometricInterpretation tag");
        return CCTIFF_UNSUPPORTED;
    }
    info->compression = compression;

    reader->is_float = sample_format == SAMPLEFORMAT_IEEEFP && (reader->bits == 16 || reader->bits == 32)
        && (photometric == PHOTOMETRIC_RGB || photometric == PHOTOMETRIC_MINISBLACK);
    if (sample_format != SAMPLEFORMAT_UINT && !reader->is_float) {
        snprintf(text, sizeof text, "TIFF with %s samples is not supported (8 or 16-bit unsigned integers, "
                 "16 or 32-bit floats in RGB or grey only)",
                 sample_format == SAMPLEFORMAT_IEEEFP ? "floating-point"
                 : sample_format == SAMPLEFORMAT_INT ? "signed integer" : "complex or unknown");
        set_message(message, text);
        return CCTIFF_UNSUPPORTED;
    }
    if (!is_readable_compression(compression)) {
        const char *name = compression_name(compression);
        if (name) {
            snprintf(text, sizeof text, "%s-compressed TIFF is not supported", name);
        } else {
            snprintf(text, sizeof text, "TIFF compression scheme %u is not supported", compression);
        }
        set_message(message, text);
        return CCTIFF_UNSUPPORTED;
    }
    int color_samples;
    switch (photometric) {
    case PHOTOMETRIC_RGB:
        color_samples = 3;
        if (reader->bits != 8 && reader->bits != 16 && !reader->is_float) {
            snprintf(text, sizeof text, "RGB TIFF with %u bits per sample is not supported (8 or 16 only)", reader->bits);
            set_message(message, text);
            return CCTIFF_UNSUPPORTED;
        }
        break;
    case PHOTOMETRIC_MINISBLACK:
    case PHOTOMETRIC_MINISWHITE:
        color_samples = 1;
        if (reader->bits != 1 && reader->bits != 2 && reader->bits != 4 && reader->bits != 8 && reader->bits != 16
            && !reader->is_float) {
            snprintf(text, sizeof text, "greyscale TIFF with %u bits per sample is not supported", reader->bits);
            set_message(message, text);
            return CCTIFF_UNSUPPORTED;
        }
        reader->min_is_white = photometric == PHOTOMETRIC_MINISWHITE;
        break;
    case PHOTOMETRIC_PALETTE:
        color_samples = 1;
        if (reader->bits > 8 || !TIFFGetField(tif, TIFFTAG_COLORMAP, &reader->palette[0], &reader->palette[1],
                                              &reader->palette[2])) {
            snprintf(text, sizeof text, "palette TIFF with %u bits per sample or no colour map is not supported",
                     reader->bits);
            set_message(message, text);
            return CCTIFF_UNSUPPORTED;
        }
        break;
    default: {
        const char *name = photometric_name(photometric);
        if (name) {
            snprintf(text, sizeof text, "%s TIFF is not supported (RGB, greyscale or palette only)", name);
        } else {
            snprintf(text, sizeof text, "TIFF photometric interpretation %u is not supported", photometric);
        }
        set_message(message, text);
        return CCTIFF_UNSUPPORTED;
    }
    }
    if (reader->samples_per_pixel < color_samples) {
        snprintf(text, sizeof text, "the image declares %u samples per pixel, too few for its colours",
                 reader->samples_per_pixel);
        set_message(message, text);
        return CCTIFF_UNSUPPORTED;
    }
    if (reader->planar != PLANARCONFIG_CONTIG && reader->planar != PLANARCONFIG_SEPARATE) {
        set_message(message, "unknown planar configuration");
        return CCTIFF_UNSUPPORTED;
    }

    // The first extra sample is read as alpha, whatever kind it declares; any others are dropped.
    uint16_t extra_count = 0;
    uint16_t *extra_types = NULL;
    int has_alpha = 0;
    if (reader->samples_per_pixel > color_samples && photometric != PHOTOMETRIC_PALETTE) {
        has_alpha = 1;
        if (TIFFGetField(tif, TIFFTAG_EXTRASAMPLES, &extra_count, &extra_types) && extra_count > 0 && extra_types) {
            reader->associated_alpha = extra_types[0] == EXTRASAMPLE_ASSOCALPHA;
        }
    }
    for (int s = 0; s < 8; s++) {
        enum role role = ROLE_IGNORE;
        if (s < color_samples) {
            role = photometric == PHOTOMETRIC_RGB ? (enum role)(ROLE_RED + s)
                   : photometric == PHOTOMETRIC_PALETTE ? ROLE_PALETTE : ROLE_GREY;
        } else if (s == color_samples && has_alpha) {
            role = ROLE_ALPHA;
        }
        reader->roles[s] = role;
    }
    reader->channels = has_alpha ? 4 : 3;
    if (photometric == PHOTOMETRIC_PALETTE) {
        // 8 bits when every entry is an 8-bit value scaled by 257 (how writers store them).
        reader->out_bits = 8;
        for (uint32_t i = 0; i < (1u << reader->bits); i++) {
            for (int c = 0; c < 3; c++) {
                if (reader->palette[c][i] % 257 != 0) reader->out_bits = 16;
            }
        }
    } else if (reader->is_float) {
        reader->out_bits = 32;
    } else {
        reader->out_bits = reader->bits == 16 ? 16 : 8;
    }

    TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &reader->width);
    TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &reader->height);
    info->width = reader->width;
    info->height = reader->height;
    info->channels = reader->channels;
    info->bit_depth = reader->out_bits;
    info->float_bits = reader->is_float ? reader->bits : 0;
    info->associated_alpha = reader->associated_alpha;

    uint32_t icc_size = 0;
    void *icc = NULL;
    if (TIFFGetField(tif, TIFFTAG_ICCPROFILE, &icc_size, &icc) && icc && icc_size > 0) {
        info->icc = icc;
        info->icc_size = icc_size;
    }
    uint32_t xmp_size = 0;
    void *xmp = NULL;
    if (TIFFGetField(tif, TIFFTAG_XMLPACKET, &xmp_size, &xmp) && xmp && xmp_size > 0) {
        info->xmp = xmp;
        info->xmp_size = xmp_size;
    }
    float x = 0, y = 0;
    uint16_t unit = RESUNIT_INCH;
    if (TIFFGetField(tif, TIFFTAG_XRESOLUTION, &x) && TIFFGetField(tif, TIFFTAG_YRESOLUTION, &y) && x > 0 && y > 0) {
        TIFFGetFieldDefaulted(tif, TIFFTAG_RESOLUTIONUNIT, &unit);
        info->has_resolution = 1;
        info->x_resolution = x;
        info->y_resolution = y;
        info->resolution_unit = unit;
    }
    uint64_t offset = 0;
    if (TIFFGetField(tif, TIFFTAG_EXIFIFD, &offset)) info->exif_offset = offset;
    offset = 0;
    if (TIFFGetField(tif, TIFFTAG_GPSIFD, &offset)) info->gps_offset = offset;
    info->big_endian = TIFFIsBigEndian(tif) ? 1 : 0;
    info->is_bigtiff = TIFFIsBigTIFF(tif) ? 1 : 0;
    return CCTIFF_OK;
}

int cctiff_reader_open(const char *path, cctiff_reader **out, cctiff_info *info, char *message) {
    *out = NULL;
    memset(info, 0, sizeof(*info));
    FILE *file = fopen(path, "rb");
    if (!file) {
        set_message(message, strerror(errno));
        return CCTIFF_CANNOT_OPEN;
    }
    unsigned char head[4] = {0, 0, 0, 0};
    size_t got = fread(head, 1, 4, file);
    fclose(file);
    int little = head[0] == 'I' && head[1] == 'I' && (head[2] == 42 || head[2] == 43) && head[3] == 0;
    int big = head[0] == 'M' && head[1] == 'M' && head[2] == 0 && (head[3] == 42 || head[3] == 43);
    if (got != 4 || !(little || big)) {
        set_message(message, "not a TIFF file (no TIFF header)");
        return CCTIFF_NOT_TIFF;
    }
    cctiff_reader *reader = calloc(1, sizeof(cctiff_reader));
    if (!reader) {
        set_message(message, "out of memory");
        return CCTIFF_ERROR;
    }
    *out = reader;
    reader->sink.message = message;
    reader->tif = open_tiff(path, "r", &reader->sink);
    if (!reader->tif) {
        if (!reader->sink.has_error) set_message(message, "libtiff could not read the first directory");
        return CCTIFF_ERROR;
    }
    int status = plan_reading(reader, info, message);
    if (status != CCTIFF_OK) return status;
    // Counting walks the chain of directory headers only; libtiff stops at loops and at its own
    // bound on the number of directories.
    tdir_t count = TIFFNumberOfDirectories(reader->tif);
    info->image_count = count > 0 ? count : 1;
    reader->sink.has_error = 0;  // a broken chain after the first image only costs the later pages
    return CCTIFF_OK;
}

// Expands `pixels` stored samples of one chunk row (samples `first`... of each pixel, `count` per
// pixel, packed at reader->bits) into the output row at `out` (pixel stride reader->channels).
static void expand_row(const cctiff_reader *reader, const uint8_t *row, uint32_t pixels, int first, int count,
                       void *out) {
    const int bits = reader->bits, channels = reader->channels;
    if (reader->is_float) {
        float *outf = out;
        for (uint32_t x = 0; x < pixels; x++) {
            for (int k = 0; k < count; k++) {
                size_t index = (size_t)x * (size_t)count + (size_t)k;
                float v;
                if (bits == 16) {
                    _Float16 half;
                    memcpy(&half, row + index * 2, 2);
                    v = (float)half;
                } else {
                    memcpy(&v, row + index * 4, 4);
                }
                int sample = first + k;
                enum role role = sample < 8 ? reader->roles[sample] : ROLE_IGNORE;
                size_t base = (size_t)x * (size_t)channels;
                if (role == ROLE_GREY) {
                    outf[base] = outf[base + 1] = outf[base + 2] = v;
                } else if (role != ROLE_IGNORE) {
                    outf[base + (role == ROLE_ALPHA ? 3 : (int)(role - ROLE_RED))] = v;
                }
            }
        }
        return;
    }
    const uint32_t max_stored = bits == 16 ? 65535u : (1u << bits) - 1u;
    uint8_t *out8 = out;
    uint16_t *out16 = out;
    const int wide = reader->out_bits == 16;
    size_t bit_position = 0;
    for (uint32_t x = 0; x < pixels; x++) {
        for (int k = 0; k < count; k++) {
            uint32_t v;
            if (bits == 8) {
                v = row[bit_position >> 3];
            } else if (bits == 16) {
                v = ((const uint16_t *)row)[bit_position >> 4];
            } else {
                size_t byte = bit_position >> 3;
                int shift = 8 - bits - (int)(bit_position & 7);
                v = (row[byte] >> shift) & max_stored;
            }
            bit_position += (size_t)bits;
            int sample = first + k;
            enum role role = sample < 8 ? reader->roles[sample] : ROLE_IGNORE;
            if (role == ROLE_IGNORE) continue;
            size_t base = (size_t)x * (size_t)channels;
            if (role == ROLE_PALETTE) {
                for (int c = 0; c < 3; c++) {
                    uint16_t entry = reader->palette[c][v];
                    if (wide) out16[base + c] = entry; else out8[base + c] = (uint8_t)(entry / 257);
                }
                continue;
            }
            if (role == ROLE_GREY && reader->min_is_white) v = max_stored - v;
            if (bits < 8) v = v * 255u / max_stored;
            if (role == ROLE_GREY) {
                for (int c = 0; c < 3; c++) {
                    if (wide) out16[base + c] = (uint16_t)v; else out8[base + c] = (uint8_t)v;
                }
            } else {
                int c = role == ROLE_ALPHA ? 3 : (int)(role - ROLE_RED);
                if (wide) out16[base + c] = (uint16_t)v; else out8[base + c] = (uint8_t)v;
            }
        }
    }
}

// Divides the colours of premultiplied pixels by their alpha, rounding; opaque and fully
// transparent pixels are left exactly as stored.
static void unpremultiply(const cctiff_reader *reader, void *buffer) {
    size_t pixels = (size_t)reader->width * reader->height;
    if (reader->out_bits == 32) {
        float *p = buffer;
        for (size_t i = 0; i < pixels; i++, p += 4) {
            if (p[3] > 0 && p[3] != 1) {
                for (int c = 0; c < 3; c++) p[c] /= p[3];
            }
        }
    } else if (reader->out_bits == 16) {
        uint16_t *p = buffer;
        for (size_t i = 0; i < pixels; i++, p += 4) {
            uint32_t a = p[3];
            if (a == 0 || a == 65535) continue;
            for (int c = 0; c < 3; c++) {
                uint32_t v = (uint32_t)(((uint64_t)p[c] * 65535u + a / 2) / a);
                p[c] = (uint16_t)(v > 65535u ? 65535u : v);
            }
        }
    } else {
        uint8_t *p = buffer;
        for (size_t i = 0; i < pixels; i++, p += 4) {
            uint32_t a = p[3];
            if (a == 0 || a == 255) continue;
            for (int c = 0; c < 3; c++) {
                uint32_t v = (p[c] * 255u + a / 2) / a;
                p[c] = (uint8_t)(v > 255u ? 255u : v);
            }
        }
    }
}

static int decode_failure(cctiff_reader *reader, char *message, const char *what, uint32_t index) {
    if (!reader->sink.has_error) {
        char text[CCTIFF_MESSAGE_SIZE];
        snprintf(text, sizeof text, "%s %u could not be decoded", what, index);
        set_message(message, text);
    }
    return CCTIFF_ERROR;
}

int cctiff_reader_read(cctiff_reader *reader, void *buffer, char *message) {
    reader->sink.message = message;
    reader->sink.has_error = 0;
    TIFF *tif = reader->tif;
    const int separate = reader->planar == PLANARCONFIG_SEPARATE;
    const int planes = separate ? reader->samples_per_pixel : 1;
    const int per_chunk = separate ? 1 : reader->samples_per_pixel;
    const size_t out_sample = (size_t)reader->out_bits / 8;
    const size_t out_row = (size_t)reader->width * (size_t)reader->channels * out_sample;
    const size_t out_bytes = out_row * reader->height;
    const int tiled = TIFFIsTiled(tif);
    uint32_t chunk_width = reader->width, chunk_height = 0;
    if (tiled) {
        TIFFGetField(tif, TIFFTAG_TILEWIDTH, &chunk_width);
        TIFFGetField(tif, TIFFTAG_TILELENGTH, &chunk_height);
        if (chunk_width == 0 || chunk_height == 0) {
            set_message(message, "the tile size is zero");
            return CCTIFF_ERROR;
        }
    } else {
        TIFFGetFieldDefaulted(tif, TIFFTAG_ROWSPERSTRIP, &chunk_height);
        if (chunk_height == 0 || chunk_height > reader->height) chunk_height = reader->height;
    }
    const uint64_t chunk_row = ((uint64_t)chunk_width * (uint64_t)per_chunk * reader->bits + 7) / 8;
    const uint64_t chunk_bytes = chunk_row * chunk_height;
    const uint64_t bound = out_bytes > CCTIFF_MAX_ALLOCATION ? out_bytes : CCTIFF_MAX_ALLOCATION;
    if (chunk_bytes > bound) {
        char text[CCTIFF_MESSAGE_SIZE];
        snprintf(text, sizeof text, "a %s of %ux%u pixels needs %llu bytes, more than the image itself",
                 tiled ? "tile" : "strip", chunk_width, chunk_height, (unsigned long long)chunk_bytes);
        set_message(message, text);
        return CCTIFF_TOO_LARGE;
    }
    // Contiguous RGB(A) strips at the output depth are decoded straight into the output.
    int direct = !tiled && !separate && reader->roles[0] == ROLE_RED
                 && reader->samples_per_pixel == reader->channels && reader->bits == reader->out_bits;
    uint8_t *chunk = NULL;
    if (!direct) {
        chunk = malloc((size_t)chunk_bytes);
        if (!chunk) {
            set_message(message, "out of memory for a strip or tile");
            return CCTIFF_ERROR;
        }
    }
    int status = CCTIFF_OK;
    for (int plane = 0; plane < planes && status == CCTIFF_OK; plane++) {
        for (uint32_t y = 0; y < reader->height && status == CCTIFF_OK; y += chunk_height) {
            uint32_t rows = reader->height - y < chunk_height ? reader->height - y : chunk_height;
            for (uint32_t x = 0; x < reader->width; x += chunk_width) {
                uint32_t columns = reader->width - x < chunk_width ? reader->width - x : chunk_width;
                uint8_t *target = direct ? (uint8_t *)buffer + (size_t)y * out_row : chunk;
                tmsize_t wanted = (tmsize_t)(tiled ? chunk_bytes : chunk_row * rows);
                tmsize_t got;
                uint32_t index;
                if (tiled) {
                    index = TIFFComputeTile(tif, x, y, 0, (uint16_t)plane);
                    got = TIFFReadEncodedTile(tif, index, target, wanted);
                } else {
                    index = TIFFComputeStrip(tif, y, (uint16_t)plane);
                    got = TIFFReadEncodedStrip(tif, index, target, wanted);
                }
                if (got < wanted || reader->sink.has_error) {
                    status = decode_failure(reader, message, tiled ? "tile" : "strip", index);
                    break;
                }
                if (direct) continue;
                for (uint32_t r = 0; r < rows; r++) {
                    uint8_t *out = (uint8_t *)buffer + (size_t)(y + r) * out_row
                                   + (size_t)x * (size_t)reader->channels * out_sample;
                    expand_row(reader, chunk + (size_t)r * chunk_row, columns, separate ? plane : 0, per_chunk, out);
                }
            }
        }
    }
    free(chunk);
    if (status == CCTIFF_OK && reader->associated_alpha && reader->channels == 4) {
        unpremultiply(reader, buffer);
    }
    return status;
}

void cctiff_reader_close(cctiff_reader *reader) {
    if (!reader) return;
    if (reader->tif) TIFFClose(reader->tif);
    free(reader);
}

int cctiff_can_encode(int compression) {
    return TIFFIsCODECConfigured((uint16_t)compression);
}

int cctiff_write(const char *path, const cctiff_write_options *options, const void *pixels, char *message) {
    message_sink sink = {message, 0};
    FILE *probe = fopen(path, "wb");
    if (!probe) {
        set_message(message, strerror(errno));
        return CCTIFF_CANNOT_OPEN;
    }
    fclose(probe);
    TIFF *tif = open_tiff(path, "w", &sink);
    if (!tif) {
        if (!sink.has_error) set_message(message, "libtiff could not create the file");
        return CCTIFF_ERROR;
    }
    // Floats arrive as 32-bit and are stored at float_bits (16: half); integers as they are.
    const int is_float = options->bit_depth == 32;
    const int stored_bits = is_float ? (options->float_bits == 16 ? 16 : 32) : options->bit_depth;
    const size_t in_sample = (size_t)options->bit_depth / 8, sample = (size_t)stored_bits / 8;
    const size_t in_row = (size_t)options->width * (size_t)options->channels * in_sample;
    const size_t row = (size_t)options->width * (size_t)options->channels * sample;
    uint32_t rows_per_strip = row >= 65536 ? 1 : (uint32_t)(65536 / row);
    if (rows_per_strip > options->height) rows_per_strip = options->height;

    TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, options->width);
    TIFFSetField(tif, TIFFTAG_IMAGELENGTH, options->height);
    TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, (uint16_t)stored_bits);
    TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, (uint16_t)options->channels);
    TIFFSetField(tif, TIFFTAG_SAMPLEFORMAT, is_float ? SAMPLEFORMAT_IEEEFP : SAMPLEFORMAT_UINT);
    TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_RGB);
    TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    TIFFSetField(tif, TIFFTAG_COMPRESSION, (uint16_t)options->compression);
    if (options->predictor == PREDICTOR_HORIZONTAL || options->predictor == PREDICTOR_FLOATINGPOINT) {
        TIFFSetField(tif, TIFFTAG_PREDICTOR, (uint16_t)options->predictor);
    }
    TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, rows_per_strip);
    if (options->channels == 4) {
        uint16_t extra = EXTRASAMPLE_UNASSALPHA;
        TIFFSetField(tif, TIFFTAG_EXTRASAMPLES, 1, &extra);
    }
    TIFFSetField(tif, TIFFTAG_SOFTWARE, "colorcube");
    if (options->icc && options->icc_size > 0) {
        TIFFSetField(tif, TIFFTAG_ICCPROFILE, options->icc_size, options->icc);
    }
    if (options->xmp && options->xmp_size > 0) {
        TIFFSetField(tif, TIFFTAG_XMLPACKET, options->xmp_size, options->xmp);
    }
    if (options->has_resolution) {
        TIFFSetField(tif, TIFFTAG_XRESOLUTION, (float)options->x_resolution);
        TIFFSetField(tif, TIFFTAG_YRESOLUTION, (float)options->y_resolution);
        TIFFSetField(tif, TIFFTAG_RESOLUTIONUNIT, (uint16_t)options->resolution_unit);
    }
    if (options->orientation > 0) {
        TIFFSetField(tif, TIFFTAG_ORIENTATION, (uint16_t)options->orientation);
    }
    for (int i = 0; i < options->text_tag_count; i++) {
        TIFFSetField(tif, options->text_tags[i].tag, options->text_tags[i].value);
    }
    if (options->exif_placeholder) TIFFSetField(tif, TIFFTAG_EXIFIFD, (uint64_t)0xFFFFFFFFu);
    if (options->gps_placeholder) TIFFSetField(tif, TIFFTAG_GPSIFD, (uint64_t)0xFFFFFFFFu);

    // The predictor works in place on what it is given, so each strip is copied first.
    uint8_t *strip = sink.has_error ? NULL : malloc(row * rows_per_strip);
    if (!strip) {
        if (!sink.has_error) set_message(message, "out of memory for a strip");
        TIFFClose(tif);
        return CCTIFF_ERROR;
    }
    int status = CCTIFF_OK;
    for (uint32_t y = 0, index = 0; y < options->height; y += rows_per_strip, index++) {
        uint32_t rows = options->height - y < rows_per_strip ? options->height - y : rows_per_strip;
        const uint8_t *source = (const uint8_t *)pixels + (size_t)y * in_row;
        if (is_float && stored_bits == 16) {
            const float *values = (const float *)source;
            for (size_t i = 0; i < (size_t)options->width * options->channels * rows; i++) {
                _Float16 half = (_Float16)values[i];
                memcpy(strip + i * 2, &half, 2);
            }
        } else {
            memcpy(strip, source, row * rows);
        }
        if (TIFFWriteEncodedStrip(tif, index, strip, (tmsize_t)(row * rows)) < 0 || sink.has_error) {
            status = CCTIFF_ERROR;
            break;
        }
    }
    free(strip);
    if (status == CCTIFF_OK && (!TIFFWriteDirectory(tif) || sink.has_error)) status = CCTIFF_ERROR;
    TIFFClose(tif);
    if (status != CCTIFF_OK && !sink.has_error) set_message(message, "libtiff could not write the image");
    return status;
}
