#include "ccjpeg.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// jpeglib.h uses FILE and size_t without including their headers: it must follow stdio.h.
#include <jpeglib.h>
#include <jerror.h>

// Rows handed to jpeg_read_scanlines per call; more than libjpeg ever returns at once.
#define ROW_BATCH 16

// libjpeg's error manager, extended with the place to jump to and the caller's message buffer.
typedef struct error_manager {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    char *message;
} error_manager;

struct ccjpeg_reader {
    struct jpeg_decompress_struct cinfo;
    error_manager error;
    FILE *file;
    ccjpeg_marker *markers;  // what ccjpeg_info.markers points to
    int marker_count;
};

struct ccjpeg_writer {
    struct jpeg_compress_struct cinfo;
    error_manager error;
    FILE *file;
};

static void set_message(char *message, const char *text) {
    if (message) {
        snprintf(message, CCJPEG_MESSAGE_SIZE, "%s", text);
    }
}

static void on_error_exit(j_common_ptr cinfo) {
    error_manager *error = (error_manager *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    set_message(error->message, text);
    longjmp(error->jump, 1);
}

// libjpeg only warns about data it cannot decode and fills the rest of the image with grey. These
// warnings mean pixels are missing, so they fail the read; the others (extra bytes between markers,
// an unknown JFIF revision, a bad ICC marker) leave every pixel intact.
static int is_damage_warning(int code) {
    switch (code) {
    case JWRN_JPEG_EOF:
    case JWRN_HIT_MARKER:
    case JWRN_HUFF_BAD_CODE:
    case JWRN_ARITH_BAD_CODE:
    case JWRN_MUST_RESYNC:
        return 1;
    default:
        return 0;
    }
}

static void on_emit_message(j_common_ptr cinfo, int level) {
    if (level >= 0) {
        return;  // trace output
    }
    if (is_damage_warning(cinfo->err->msg_code)) {
        (*cinfo->err->error_exit)(cinfo);
    }
    cinfo->err->num_warnings++;
}

static void on_output_message(j_common_ptr cinfo) {
    (void)cinfo;  // never print to stderr: failures reach Swift through `message`
}

static void install_error_manager(error_manager *error, char *message) {
    jpeg_std_error(&error->pub);
    error->pub.error_exit = on_error_exit;
    error->pub.emit_message = on_emit_message;
    error->pub.output_message = on_output_message;
    error->message = message;
}

// Errors that mean "a JPEG colorcube cannot decode" rather than "a damaged JPEG".
static int is_unsupported_error(int code) {
    return code == JERR_BAD_PRECISION || code == JERR_NOT_COMPILED || code == JERR_CONVERSION_NOTIMPL;
}

static int copy_markers(ccjpeg_reader *reader) {
    int count = 0;
    for (jpeg_saved_marker_ptr marker = reader->cinfo.marker_list; marker; marker = marker->next) {
        count++;
    }
    if (count == 0) {
        return 1;
    }
    reader->markers = calloc((size_t)count, sizeof(ccjpeg_marker));
    if (!reader->markers) {
        return 0;
    }
    for (jpeg_saved_marker_ptr marker = reader->cinfo.marker_list; marker; marker = marker->next) {
        // Markers are saved whole (length limit 0xFFFF), so data_length is the full payload.
        uint8_t *data = malloc(marker->data_length > 0 ? marker->data_length : 1);
        if (!data) {
            return 0;
        }
        memcpy(data, marker->data, marker->data_length);
        ccjpeg_marker *copy = &reader->markers[reader->marker_count++];
        copy->code = (uint8_t)marker->marker;
        copy->size = marker->data_length;
        copy->data = data;
    }
    return 1;
}

int ccjpeg_reader_open(const char *path, ccjpeg_reader **out, ccjpeg_info *info, int replicate_chroma,
                       char *message) {
    *out = NULL;
    memset(info, 0, sizeof(*info));
    ccjpeg_reader *reader = calloc(1, sizeof(ccjpeg_reader));
    if (!reader) {
        set_message(message, "out of memory");
        return CCJPEG_ERROR;
    }
    reader->file = fopen(path, "rb");
    if (!reader->file) {
        set_message(message, strerror(errno));
        free(reader);
        return CCJPEG_CANNOT_OPEN;
    }
    *out = reader;
    // libjpeg's own complaint ("Not a JPEG file: starts with 0x.. 0x..") would read as damage.
    unsigned char soi[2] = {0, 0};
    if (fread(soi, 1, 2, reader->file) != 2 || soi[0] != 0xFF || soi[1] != 0xD8) {
        set_message(message, "not a JPEG file (no SOI marker)");
        return CCJPEG_NOT_JPEG;
    }
    rewind(reader->file);

    // reader was zeroed by calloc, so jpeg_destroy_decompress is safe even if creation fails.
    reader->cinfo.err = &reader->error.pub;
    install_error_manager(&reader->error, message);
    if (setjmp(reader->error.jump)) {
        return is_unsupported_error(reader->error.pub.msg_code) ? CCJPEG_UNSUPPORTED : CCJPEG_ERROR;
    }
    jpeg_create_decompress(&reader->cinfo);
    jpeg_stdio_src(&reader->cinfo, reader->file);
    jpeg_save_markers(&reader->cinfo, JPEG_COM, 0xFFFF);
    for (int n = 0; n < 16; n++) {
        jpeg_save_markers(&reader->cinfo, JPEG_APP0 + n, 0xFFFF);
    }
    jpeg_read_header(&reader->cinfo, TRUE);
    if (reader->cinfo.jpeg_color_space == JCS_CMYK || reader->cinfo.jpeg_color_space == JCS_YCCK) {
        set_message(message, "CMYK JPEG is not supported; convert it to RGB first");
        return CCJPEG_UNSUPPORTED;
    }
    reader->cinfo.out_color_space = JCS_RGB;
    reader->cinfo.dct_method = JDCT_ISLOW;
    if (replicate_chroma) {
        reader->cinfo.do_fancy_upsampling = FALSE;
    }
    jpeg_start_decompress(&reader->cinfo);

    info->width = reader->cinfo.output_width;
    info->height = reader->cinfo.output_height;
    info->source_components = reader->cinfo.num_components;
    info->progressive = reader->cinfo.progressive_mode ? 1 : 0;
    if (reader->cinfo.num_components >= 3) {
        const jpeg_component_info *luma = &reader->cinfo.comp_info[0];
        const jpeg_component_info *chroma = &reader->cinfo.comp_info[1];
        // Factors are 1...4, so a ratio below 1 (chroma sampled finer than luma) reads as 1.
        int h = chroma->h_samp_factor > 0 ? luma->h_samp_factor / chroma->h_samp_factor : 1;
        int v = chroma->v_samp_factor > 0 ? luma->v_samp_factor / chroma->v_samp_factor : 1;
        info->h_subsampling = h > 0 ? h : 1;
        info->v_subsampling = v > 0 ? v : 1;
    }
    // The saved markers live in libjpeg's image pool, which jpeg_finish_decompress frees; a
    // progressive file has been read to its end by jpeg_start_decompress, so the list is complete.
    if (!copy_markers(reader)) {
        set_message(message, "out of memory");
        return CCJPEG_ERROR;
    }
    info->markers = reader->markers;
    info->marker_count = reader->marker_count;
    return CCJPEG_OK;
}

int ccjpeg_reader_read_rows(ccjpeg_reader *reader, uint8_t *buffer, uint32_t rows, char *message) {
    reader->error.message = message;
    struct jpeg_decompress_struct *cinfo = &reader->cinfo;
    if (rows > cinfo->output_height - cinfo->output_scanline) {
        set_message(message, "more rows requested than the image has left");
        return CCJPEG_ERROR;
    }
    size_t stride = (size_t)cinfo->output_width * (size_t)cinfo->output_components;
    if (setjmp(reader->error.jump)) {
        return CCJPEG_ERROR;
    }
    uint32_t done = 0;
    while (done < rows) {
        JSAMPROW pointers[ROW_BATCH];
        uint32_t batch = rows - done < ROW_BATCH ? rows - done : ROW_BATCH;
        for (uint32_t i = 0; i < batch; i++) {
            pointers[i] = buffer + (size_t)(done + i) * stride;
        }
        JDIMENSION read = jpeg_read_scanlines(cinfo, pointers, batch);
        if (read == 0) {
            // Only a suspending data source returns no rows; stdio input never does.
            set_message(message, "the decoder returned no rows");
            return CCJPEG_ERROR;
        }
        done += read;
    }
    return CCJPEG_OK;
}

int ccjpeg_reader_finish(ccjpeg_reader *reader, char *message) {
    reader->error.message = message;
    if (setjmp(reader->error.jump)) {
        return CCJPEG_ERROR;
    }
    jpeg_finish_decompress(&reader->cinfo);
    return CCJPEG_OK;
}

void ccjpeg_reader_close(ccjpeg_reader *reader) {
    if (!reader) {
        return;
    }
    for (int i = 0; i < reader->marker_count; i++) {
        free((void *)reader->markers[i].data);
    }
    free(reader->markers);
    jpeg_destroy_decompress(&reader->cinfo);
    if (reader->file) {
        fclose(reader->file);
    }
    free(reader);
}

void ccjpeg_coefficients_free(ccjpeg_coefficients *coefficients) {
    if (!coefficients) {
        return;
    }
    for (int c = 0; c < 3; c++) {
        free(coefficients->components[c].coefficients);
        coefficients->components[c].coefficients = NULL;
    }
}

// The body of ccjpeg_read_coefficients once `cinfo` is created on `file`; longjmps on libjpeg errors.
static int read_coefficients(struct jpeg_decompress_struct *cinfo, uint64_t max_pixels, ccjpeg_coefficients *out,
                             char *message) {
    jpeg_read_header(cinfo, TRUE);
    int colour = cinfo->num_components == 3 && cinfo->jpeg_color_space == JCS_YCbCr;
    int grey = cinfo->num_components == 1 && cinfo->jpeg_color_space == JCS_GRAYSCALE;
    if (!(colour || grey) || cinfo->data_precision != 8) {
        set_message(message, "not an 8-bit YCbCr or greyscale JPEG");
        return CCJPEG_UNSUPPORTED;
    }
    out->component_count = (uint32_t)cinfo->num_components;
    out->width = cinfo->image_width;
    out->height = cinfo->image_height;
    if ((uint64_t)cinfo->image_width * (uint64_t)cinfo->image_height > max_pixels) {
        set_message(message, "more pixels than the limit");
        return CCJPEG_TOO_LARGE;
    }
    jvirt_barray_ptr *arrays = jpeg_read_coefficients(cinfo);
    for (int c = 0; c < cinfo->num_components; c++) {
        jpeg_component_info *component = &cinfo->comp_info[c];
        ccjpeg_component *target = &out->components[c];
        if (!component->quant_table) {
            set_message(message, "a component without a quantisation table");
            return CCJPEG_ERROR;
        }
        target->width_in_blocks = component->width_in_blocks;
        target->height_in_blocks = component->height_in_blocks;
        target->h_samp_factor = component->h_samp_factor;
        target->v_samp_factor = component->v_samp_factor;
        for (int i = 0; i < 64; i++) {
            target->quantization[i] = component->quant_table->quantval[i];
        }
        size_t blocks = (size_t)component->width_in_blocks * (size_t)component->height_in_blocks;
        target->coefficients = malloc(blocks * 64 * sizeof(int16_t) + 1);
        if (!target->coefficients) {
            set_message(message, "out of memory");
            return CCJPEG_ERROR;
        }
        for (JDIMENSION row = 0; row < component->height_in_blocks; row++) {
            JBLOCKARRAY rows = (*cinfo->mem->access_virt_barray)((j_common_ptr)cinfo, arrays[c], row, 1, FALSE);
            int16_t *destination = target->coefficients + (size_t)row * component->width_in_blocks * 64;
            for (JDIMENSION column = 0; column < component->width_in_blocks; column++) {
                for (int i = 0; i < 64; i++) {
                    destination[(size_t)column * 64 + (size_t)i] = rows[0][column][i];
                }
            }
        }
    }
    jpeg_finish_decompress(cinfo);
    return CCJPEG_OK;
}

int ccjpeg_read_coefficients(const char *path, uint64_t max_pixels, ccjpeg_coefficients *out, char *message) {
    memset(out, 0, sizeof(*out));
    FILE *file = fopen(path, "rb");
    if (!file) {
        set_message(message, strerror(errno));
        return CCJPEG_CANNOT_OPEN;
    }
    // Static storage is not needed: the struct lives on this frame until the function returns,
    // and setjmp's frame is this one.
    struct jpeg_decompress_struct cinfo;
    error_manager error;
    memset(&cinfo, 0, sizeof(cinfo));
    cinfo.err = &error.pub;
    install_error_manager(&error, message);
    volatile int status = CCJPEG_ERROR;
    if (setjmp(error.jump)) {
        status = is_unsupported_error(error.pub.msg_code) ? CCJPEG_UNSUPPORTED : CCJPEG_ERROR;
    } else {
        jpeg_create_decompress(&cinfo);
        jpeg_stdio_src(&cinfo, file);
        status = read_coefficients(&cinfo, max_pixels, out, message);
    }
    jpeg_destroy_decompress(&cinfo);
    fclose(file);
    if (status != CCJPEG_OK) {
        ccjpeg_coefficients_free(out);
    }
    return status;
}

int ccjpeg_writer_open(const char *path, const ccjpeg_write_options *options, ccjpeg_writer **out,
                       char *message) {
    *out = NULL;
    ccjpeg_writer *writer = calloc(1, sizeof(ccjpeg_writer));
    if (!writer) {
        set_message(message, "out of memory");
        return CCJPEG_ERROR;
    }
    writer->file = fopen(path, "wb");
    if (!writer->file) {
        set_message(message, strerror(errno));
        free(writer);
        return CCJPEG_CANNOT_OPEN;
    }
    *out = writer;
    writer->cinfo.err = &writer->error.pub;
    install_error_manager(&writer->error, message);
    if (setjmp(writer->error.jump)) {
        return CCJPEG_ERROR;
    }
    jpeg_create_compress(&writer->cinfo);
    jpeg_stdio_dest(&writer->cinfo, writer->file);
    writer->cinfo.image_width = options->width;
    writer->cinfo.image_height = options->height;
    writer->cinfo.input_components = 3;
    writer->cinfo.in_color_space = JCS_RGB;
    jpeg_set_defaults(&writer->cinfo);
    if (options->greyscale) {
        jpeg_set_colorspace(&writer->cinfo, JCS_GRAYSCALE);
    }
    jpeg_set_quality(&writer->cinfo, options->quality, TRUE);
    writer->cinfo.optimize_coding = TRUE;
    writer->cinfo.dct_method = JDCT_ISLOW;
    writer->cinfo.comp_info[0].h_samp_factor = options->greyscale ? 1 : options->h_subsampling;
    writer->cinfo.comp_info[0].v_samp_factor = options->greyscale ? 1 : options->v_subsampling;
    for (int c = 1; c < writer->cinfo.num_components; c++) {
        writer->cinfo.comp_info[c].h_samp_factor = 1;
        writer->cinfo.comp_info[c].v_samp_factor = 1;
    }
    jpeg_start_compress(&writer->cinfo, TRUE);
    for (int i = 0; i < options->marker_count; i++) {
        const ccjpeg_marker *marker = &options->markers[i];
        if (marker->size > 65533) {
            set_message(message, "a marker holds at most 65533 bytes");
            return CCJPEG_ERROR;
        }
        jpeg_write_marker(&writer->cinfo, marker->code, marker->data, (unsigned int)marker->size);
    }
    return CCJPEG_OK;
}

int ccjpeg_writer_write_rows(ccjpeg_writer *writer, const uint8_t *buffer, uint32_t rows, char *message) {
    writer->error.message = message;
    struct jpeg_compress_struct *cinfo = &writer->cinfo;
    if (rows > cinfo->image_height - cinfo->next_scanline) {
        set_message(message, "more rows written than the image height");
        return CCJPEG_ERROR;
    }
    size_t stride = (size_t)cinfo->image_width * 3;
    if (setjmp(writer->error.jump)) {
        return CCJPEG_ERROR;
    }
    for (uint32_t y = 0; y < rows; y++) {
        // libjpeg takes non-const rows but only reads them.
        JSAMPROW row = (JSAMPROW)(buffer + (size_t)y * stride);
        jpeg_write_scanlines(cinfo, &row, 1);
    }
    return CCJPEG_OK;
}

int ccjpeg_writer_finish(ccjpeg_writer *writer, char *message) {
    writer->error.message = message;
    if (setjmp(writer->error.jump)) {
        return CCJPEG_ERROR;
    }
    jpeg_finish_compress(&writer->cinfo);
    FILE *file = writer->file;
    writer->file = NULL;
    if (fclose(file) != 0) {
        set_message(message, strerror(errno));
        return CCJPEG_ERROR;
    }
    return CCJPEG_OK;
}

void ccjpeg_writer_close(ccjpeg_writer *writer) {
    if (!writer) {
        return;
    }
    jpeg_destroy_compress(&writer->cinfo);
    if (writer->file) {
        fclose(writer->file);
    }
    free(writer);
}
