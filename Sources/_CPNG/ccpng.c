#include "ccpng.h"
#include "ccpng_deflater.h"

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The chunks libpng knows that a copy of the image may carry unchanged. libpng would otherwise parse
// and keep them itself; listing them as "always keep as unknown" hands their bytes over unparsed.
static const png_byte copied_known_chunks[] = {
    't', 'E', 'X', 't', '\0',
    'z', 'T', 'X', 't', '\0',
    'i', 'T', 'X', 't', '\0',
    'e', 'X', 'I', 'f', '\0',
    'p', 'H', 'Y', 's', '\0',
};

struct ccpng_reader {
    png_structp png;
    png_infop info;
    png_infop end_info;
    FILE *file;
    jmp_buf jump;
    char *message;
    int chunks_taken;
    ccpng_info *owner;
};

// IDAT chunks carry at most this many bytes of the zlib stream.
#define IDAT_CHUNK_SIZE (256u * 1024u)

struct ccpng_writer {
    png_structp png;
    png_infop info;
    FILE *file;
    jmp_buf jump;
    char *message;
    int finished;
    ccpng_deflater *deflater;
    uint8_t *idat;              // the IDAT chunk being filled
    size_t idat_size;
};

static int host_is_little_endian(void) {
    const uint16_t probe = 1;
    return *(const uint8_t *)&probe == 1;
}

static void set_message(char *message, const char *text) {
    if (message) {
        snprintf(message, CCPNG_MESSAGE_SIZE, "%s", text);
    }
}

static void on_read_error(png_structp png, png_const_charp text) {
    ccpng_reader *reader = png_get_error_ptr(png);
    set_message(reader->message, text);
    longjmp(reader->jump, 1);
}

static void on_write_error(png_structp png, png_const_charp text) {
    ccpng_writer *writer = png_get_error_ptr(png);
    set_message(writer->message, text);
    longjmp(writer->jump, 1);
}

static void on_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

// fread-based input that names a short file for what it is.
static void read_data(png_structp png, png_bytep data, size_t length) {
    FILE *file = png_get_io_ptr(png);
    if (fread(data, 1, length, file) != length) {
        png_error(png, ferror(file) ? "read error" : "unexpected end of file (the PNG is truncated)");
    }
}

static void write_data(png_structp png, png_bytep data, size_t length) {
    FILE *file = png_get_io_ptr(png);
    if (fwrite(data, 1, length, file) != length) {
        png_error(png, strerror(errno));
    }
}

static void flush_data(png_structp png) {
    FILE *file = png_get_io_ptr(png);
    fflush(file);
}

static void take_chunks(ccpng_reader *reader, png_infop source, ccpng_info *info) {
    png_unknown_chunkp unknowns = NULL;
    int count = png_get_unknown_chunks(reader->png, source, &unknowns);
    if (count <= 0) {
        return;
    }
    ccpng_chunk *grown = realloc(info->chunks, sizeof(ccpng_chunk) * (size_t)(info->chunk_count + count));
    if (!grown) {
        return;
    }
    info->chunks = grown;
    for (int i = 0; i < count; i++) {
        // Only ancillary, safe-to-copy chunks (lower-case first and fourth letters) may be carried.
        if (!(unknowns[i].name[0] & 0x20) || !(unknowns[i].name[3] & 0x20)) {
            continue;
        }
        ccpng_chunk *chunk = &info->chunks[info->chunk_count];
        memcpy(chunk->name, unknowns[i].name, 4);
        chunk->name[4] = '\0';
        chunk->location = unknowns[i].location;
        chunk->size = unknowns[i].size;
        chunk->data = malloc(unknowns[i].size > 0 ? unknowns[i].size : 1);
        if (!chunk->data) {
            continue;
        }
        memcpy(chunk->data, unknowns[i].data, unknowns[i].size);
        info->chunk_count++;
    }
}

int ccpng_reader_open(const char *path, ccpng_reader **out, ccpng_info *info, char *message) {
    *out = NULL;
    memset(info, 0, sizeof(*info));
    ccpng_reader *reader = calloc(1, sizeof(ccpng_reader));
    if (!reader) {
        set_message(message, "out of memory");
        return CCPNG_ERROR;
    }
    reader->message = message;
    reader->owner = info;
    reader->file = fopen(path, "rb");
    if (!reader->file) {
        info->system_error = errno;
        set_message(message, strerror(errno));
        free(reader);
        return CCPNG_CANNOT_OPEN;
    }
    png_byte signature[8];
    size_t signature_bytes = fread(signature, 1, 8, reader->file);
    if (signature_bytes != 8 && ferror(reader->file)) {
        // A folder opens on Linux and fails here (EISDIR).
        info->system_error = errno;
        set_message(message, strerror(errno));
        fclose(reader->file);
        free(reader);
        return CCPNG_CANNOT_OPEN;
    }
    if (signature_bytes != 8 || png_sig_cmp(signature, 0, 8) != 0) {
        set_message(message, "not a PNG file (no PNG signature)");
        fclose(reader->file);
        free(reader);
        return CCPNG_NOT_PNG;
    }
    reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, reader, on_read_error, on_warning);
    if (!reader->png) {
        set_message(message, "out of memory");
        fclose(reader->file);
        free(reader);
        return CCPNG_ERROR;
    }
    reader->info = png_create_info_struct(reader->png);
    reader->end_info = png_create_info_struct(reader->png);
    *out = reader;
    if (!reader->info || !reader->end_info) {
        set_message(message, "out of memory");
        return CCPNG_ERROR;
    }
    if (setjmp(reader->jump)) {
        return CCPNG_CORRUPT;
    }
    png_set_read_fn(reader->png, reader->file, read_data);
    png_set_sig_bytes(reader->png, 8);
    png_set_benign_errors(reader->png, 1);
#ifdef PNG_SKIP_sRGB_CHECK_PROFILE
    png_set_option(reader->png, PNG_SKIP_sRGB_CHECK_PROFILE, PNG_OPTION_ON);
#endif
    // Large references are legitimate: lift the default limits on image size.
    png_set_user_limits(reader->png, 0x7fffffff, 0x7fffffff);
    // libpng allocates a chunk's declared length before reading it: without a cap, a few bytes
    // claiming a 2 GB chunk allocate 2 GB. 64 MiB is far above any real profile, EXIF or XMP; a
    // larger ancillary chunk is skipped with a warning, a larger critical chunk is an error.
    png_set_chunk_malloc_max(reader->png, CCPNG_CHUNK_MALLOC_MAX);
    png_set_keep_unknown_chunks(reader->png, PNG_HANDLE_CHUNK_IF_SAFE, NULL, 0);
    png_set_keep_unknown_chunks(reader->png, PNG_HANDLE_CHUNK_ALWAYS, copied_known_chunks,
                                (int)(sizeof(copied_known_chunks) / 5));
    png_read_info(reader->png, reader->info);

    png_uint_32 width = 0, height = 0;
    int depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(reader->png, reader->info, &width, &height, &depth, &color_type, &interlace, NULL, NULL);
    info->width = width;
    info->height = height;
    info->source_bit_depth = depth;
    info->source_color_type = color_type;
    info->interlaced = interlace != PNG_INTERLACE_NONE;

    int intent = 0;
    if (png_get_sRGB(reader->png, reader->info, &intent)) {
        info->has_srgb = 1;
        info->srgb_intent = intent;
    }
    png_fixed_point gama = 0;
    if (png_get_gAMA_fixed(reader->png, reader->info, &gama)) {
        info->has_gama = 1;
        info->gama = (uint32_t)gama;
    }
    png_fixed_point c[8];
    if (png_get_cHRM_fixed(reader->png, reader->info, &c[0], &c[1], &c[2], &c[3], &c[4], &c[5], &c[6], &c[7])) {
        info->has_chrm = 1;
        for (int i = 0; i < 8; i++) {
            info->chrm[i] = c[i];
        }
    }
    png_charp icc_name = NULL;
    png_bytep icc = NULL;
    png_uint_32 icc_size = 0;
    int compression = 0;
    if (png_get_iCCP(reader->png, reader->info, &icc_name, &compression, &icc, &icc_size) && icc && icc_size > 0) {
        info->icc = malloc(icc_size);
        if (info->icc) {
            memcpy(info->icc, icc, icc_size);
            info->icc_size = icc_size;
            snprintf(info->icc_name, sizeof(info->icc_name), "%s", icc_name ? icc_name : "");
        }
    }
    take_chunks(reader, reader->info, info);
    return CCPNG_OK;
}

int ccpng_reader_prepare(ccpng_reader *reader, ccpng_info *info, char *message) {
    reader->message = message;
    if (setjmp(reader->jump)) {
        return CCPNG_CORRUPT;
    }
    int color_type = info->source_color_type;
    int depth = info->source_bit_depth;
    // Expand everything to 8 or 16-bit RGB(A) without touching the values' meaning.
    png_set_expand(reader->png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) {
        png_set_gray_to_rgb(reader->png);
    }
    if (depth == 16) {
        png_set_swap(reader->png);
    }
    png_set_interlace_handling(reader->png);
    png_read_update_info(reader->png, reader->info);
    info->bit_depth = png_get_bit_depth(reader->png, reader->info);
    info->channels = png_get_channels(reader->png, reader->info);
    return CCPNG_OK;
}

int ccpng_reader_read_rows(ccpng_reader *reader, void *buffer, uint32_t rows, char *message) {
    reader->message = message;
    size_t stride = png_get_rowbytes(reader->png, reader->info);
    png_bytep *pointers = malloc(sizeof(png_bytep) * (rows > 0 ? rows : 1));
    if (!pointers) {
        set_message(message, "out of memory");
        return CCPNG_ERROR;
    }
    for (uint32_t y = 0; y < rows; y++) {
        pointers[y] = (png_bytep)buffer + (size_t)y * stride;
    }
    if (setjmp(reader->jump)) {
        free(pointers);
        return CCPNG_CORRUPT;
    }
    if (reader->owner->interlaced) {
        png_read_image(reader->png, pointers);
    } else {
        png_read_rows(reader->png, pointers, NULL, rows);
    }
    free(pointers);
    return CCPNG_OK;
}

int ccpng_reader_finish(ccpng_reader *reader, ccpng_info *info, char *message) {
    reader->message = message;
    if (setjmp(reader->jump)) {
        return CCPNG_CORRUPT;
    }
    png_read_end(reader->png, reader->end_info);
    take_chunks(reader, reader->end_info, info);
    return CCPNG_OK;
}

void ccpng_reader_close(ccpng_reader *reader) {
    if (!reader) {
        return;
    }
    ccpng_info *info = reader->owner;
    if (info) {
        free(info->icc);
        info->icc = NULL;
        for (int i = 0; i < info->chunk_count; i++) {
            free(info->chunks[i].data);
        }
        free(info->chunks);
        info->chunks = NULL;
        info->chunk_count = 0;
    }
    if (reader->png) {
        png_destroy_read_struct(&reader->png, &reader->info, &reader->end_info);
    }
    if (reader->file) {
        fclose(reader->file);
    }
    free(reader);
}

int ccpng_writer_open(const char *path, const ccpng_write_options *options, ccpng_writer **out, char *message) {
    *out = NULL;
    ccpng_writer *writer = calloc(1, sizeof(ccpng_writer));
    if (!writer) {
        set_message(message, "out of memory");
        return CCPNG_ERROR;
    }
    writer->message = message;
    writer->file = fopen(path, "wb");
    if (!writer->file) {
        set_message(message, strerror(errno));
        free(writer);
        return CCPNG_ERROR;
    }
    writer->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, writer, on_write_error, on_warning);
    *out = writer;
    if (!writer->png) {
        set_message(message, "out of memory");
        return CCPNG_ERROR;
    }
    writer->info = png_create_info_struct(writer->png);
    writer->idat = malloc(IDAT_CHUNK_SIZE);
    if (!writer->info || !writer->idat) {
        set_message(message, "out of memory");
        return CCPNG_ERROR;
    }
    if (setjmp(writer->jump)) {
        return CCPNG_ERROR;
    }
    png_set_write_fn(writer->png, writer->file, write_data, flush_data);
    int color_type = options->channels == 4 ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB;
    png_set_IHDR(writer->png, writer->info, options->width, options->height, options->bit_depth, color_type,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    if (options->srgb) {
        png_set_sRGB(writer->png, writer->info, options->srgb_intent);
    } else if (options->icc && options->icc_size > 0) {
        png_set_iCCP(writer->png, writer->info, options->icc_name ? options->icc_name : "ICC profile",
                     PNG_COMPRESSION_TYPE_BASE, options->icc, options->icc_size);
    }
    if (!options->srgb && options->has_gama) {
        png_set_gAMA_fixed(writer->png, writer->info, (png_fixed_point)options->gama);
    }
    if (!options->srgb && options->has_chrm) {
        const int32_t *c = options->chrm;
        png_set_cHRM_fixed(writer->png, writer->info, c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]);
    }
    if (options->chunk_count > 0) {
        png_set_keep_unknown_chunks(writer->png, PNG_HANDLE_CHUNK_ALWAYS, NULL, 0);
        png_set_keep_unknown_chunks(writer->png, PNG_HANDLE_CHUNK_ALWAYS, copied_known_chunks,
                                    (int)(sizeof(copied_known_chunks) / 5));
        png_unknown_chunk *unknowns = calloc((size_t)options->chunk_count, sizeof(png_unknown_chunk));
        if (!unknowns) {
            png_error(writer->png, "out of memory");
        }
        for (int i = 0; i < options->chunk_count; i++) {
            memcpy(unknowns[i].name, options->chunks[i].name, 5);
            unknowns[i].data = options->chunks[i].data;
            unknowns[i].size = options->chunks[i].size;
            unknowns[i].location = options->chunks[i].location ? options->chunks[i].location : PNG_HAVE_IHDR;
        }
        png_set_unknown_chunks(writer->png, writer->info, unknowns, options->chunk_count);
        // libpng copied the chunks; the array itself is ours to free.
        free(unknowns);
    }
    // libpng writes the signature, IHDR, the colour chunks and the chunks placed before the image
    // data; the image data (IDAT) and what follows it are written below, through png_write_chunk.
    png_write_info(writer->png, writer->info);

    ccpng_deflater_options deflate = {
        .height = options->height,
        .row_bytes = (size_t)options->width * (size_t)options->channels * (size_t)(options->bit_depth / 8),
        .bytes_per_pixel = options->channels * (options->bit_depth / 8),
        .swap_sixteen = options->bit_depth == 16 && host_is_little_endian(),
        .filter = options->filter >= 0 && options->filter <= 5 ? options->filter : 5,
        .level = options->compression_level,
        .workers = options->workers,
    };
    const char *error = NULL;
    writer->deflater = ccpng_deflater_create(&deflate, &error);
    if (!writer->deflater) {
        set_message(message, error);
        return CCPNG_ERROR;
    }
    return CCPNG_OK;
}

// Writes the IDAT chunk collected so far.
static void flush_idat(ccpng_writer *writer) {
    if (writer->idat_size > 0) {
        png_write_chunk(writer->png, (png_const_bytep)"IDAT", writer->idat, writer->idat_size);
        writer->idat_size = 0;
    }
}

// The deflater's sink: packs the zlib stream into IDAT chunks of IDAT_CHUNK_SIZE bytes (the last
// shorter), so chunk boundaries depend on the stream alone. A write error longjmps to the caller's
// setjmp, past the deflater, which is then unusable; the writer is failed anyway.
static int append_idat(void *context, const uint8_t *bytes, size_t size) {
    ccpng_writer *writer = context;
    while (size > 0) {
        size_t room = IDAT_CHUNK_SIZE - writer->idat_size;
        size_t take = size < room ? size : room;
        memcpy(writer->idat + writer->idat_size, bytes, take);
        writer->idat_size += take;
        bytes += take;
        size -= take;
        if (writer->idat_size == IDAT_CHUNK_SIZE) {
            flush_idat(writer);
        }
    }
    return 0;
}

int ccpng_writer_write_rows(ccpng_writer *writer, const void *buffer, uint32_t rows, char *message) {
    writer->message = message;
    if (setjmp(writer->jump)) {
        return CCPNG_ERROR;
    }
    const char *error = ccpng_deflater_write(writer->deflater, buffer, rows, append_idat, writer);
    if (error) {
        set_message(message, error);
        return CCPNG_ERROR;
    }
    return CCPNG_OK;
}

int ccpng_writer_finish(ccpng_writer *writer, char *message) {
    writer->message = message;
    if (setjmp(writer->jump)) {
        return CCPNG_ERROR;
    }
    const char *error = ccpng_deflater_finish(writer->deflater, append_idat, writer);
    if (error) {
        set_message(message, error);
        return CCPNG_ERROR;
    }
    flush_idat(writer);
    // What png_write_end would write here: the chunks placed after the image data, in the order they
    // were given (libpng keeps each chunk's location reduced to one of IHDR, PLTE or AFTER_IDAT), then IEND.
    png_unknown_chunkp unknowns = NULL;
    int count = png_get_unknown_chunks(writer->png, writer->info, &unknowns);
    for (int i = 0; i < count; i++) {
        if (unknowns[i].location & PNG_AFTER_IDAT) {
            png_write_chunk(writer->png, unknowns[i].name, unknowns[i].data, unknowns[i].size);
        }
    }
    png_write_chunk(writer->png, (png_const_bytep)"IEND", NULL, 0);
    writer->finished = 1;
    FILE *file = writer->file;
    writer->file = NULL;
    if (fclose(file) != 0) {
        set_message(message, strerror(errno));
        return CCPNG_ERROR;
    }
    return CCPNG_OK;
}

void ccpng_writer_close(ccpng_writer *writer) {
    if (!writer) {
        return;
    }
    ccpng_deflater_destroy(writer->deflater);
    free(writer->idat);
    if (writer->png) {
        png_destroy_write_struct(&writer->png, &writer->info);
    }
    if (writer->file) {
        fclose(writer->file);
    }
    free(writer);
}
