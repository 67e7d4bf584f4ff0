#include "ccheif.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libheif/heif.h>

struct ccheif_reader {
    struct heif_context *context;
    struct heif_image_handle *handle;
    uint8_t *blocks[3];  // copies of the ICC profile, the Exif and the XMP block
};

static void set_message(char *message, const char *text) {
    if (message) {
        snprintf(message, CCHEIF_MESSAGE_SIZE, "%s", text);
    }
}

// One status for a libheif error, with libheif's message.
static int fail(struct heif_error error, char *message) {
    set_message(message, error.message && error.message[0] ? error.message : "libheif failed");
    switch (error.code) {
    case heif_error_Input_does_not_exist: return CCHEIF_CANNOT_OPEN;
    case heif_error_Unsupported_filetype: return CCHEIF_NOT_HEIF;
    case heif_error_Unsupported_feature: return CCHEIF_UNSUPPORTED;
    case heif_error_Memory_allocation_error:
        return error.subcode == heif_suberror_Security_limit_exceeded ? CCHEIF_TOO_BIG : CCHEIF_NO_MEMORY;
    default:
        return error.subcode == heif_suberror_Security_limit_exceeded ? CCHEIF_TOO_BIG : CCHEIF_ERROR;
    }
}

// Copies the first metadata block of `type` (and, when given, `content_type`) into `slot`.
static int copy_metadata(struct heif_image_handle *handle, const char *type, const char *content_type,
                         uint8_t **slot, ccheif_bytes *block, char *message) {
    int count = heif_image_handle_get_number_of_metadata_blocks(handle, type);
    if (count <= 0) {
        return CCHEIF_OK;
    }
    heif_item_id *ids = calloc((size_t)count, sizeof(heif_item_id));
    if (!ids) {
        set_message(message, "out of memory");
        return CCHEIF_NO_MEMORY;
    }
    count = heif_image_handle_get_list_of_metadata_block_IDs(handle, type, ids, count);
    int status = CCHEIF_OK;
    for (int i = 0; i < count; i++) {
        const char *content = heif_image_handle_get_metadata_content_type(handle, ids[i]);
        if (content_type && (!content || strcmp(content, content_type) != 0)) {
            continue;
        }
        size_t size = heif_image_handle_get_metadata_size(handle, ids[i]);
        *slot = malloc(size > 0 ? size : 1);
        if (!*slot) {
            set_message(message, "out of memory");
            status = CCHEIF_NO_MEMORY;
            break;
        }
        struct heif_error error = heif_image_handle_get_metadata(handle, ids[i], *slot);
        if (error.code != heif_error_Ok) {
            status = fail(error, message);
            break;
        }
        block->data = *slot;
        block->size = size;
        break;
    }
    free(ids);
    return status;
}

// MARK: AV1 sequence headers
//
// libheif hands an AVIF's AV1 data to dav1d, which sizes its frame buffers from the sequence
// header's largest frame, not from the container's `ispe`: a hostile file declaring 65536x65536
// there made it allocate gigabytes. The OBUs of every `mdat` are walked here first and the largest
// frame any sequence header declares is checked against the pixel limit.

typedef struct {
    const uint8_t *bytes;
    size_t count, bit;
    int overrun;
} bit_reader;

/// The next `n` bits (at most 32), most significant first; past the end they read as 0.
static uint32_t read_bits(bit_reader *reader, int n) {
    uint32_t value = 0;
    for (int i = 0; i < n; i++) {
        if (reader->bit >= reader->count * 8) {
            reader->overrun = 1;
            return value;
        }
        value = value << 1 | ((reader->bytes[reader->bit >> 3] >> (7 - (reader->bit & 7))) & 1u);
        reader->bit++;
    }
    return value;
}

/// AV1's uvlc(): leading zeros, then that many bits.
static void skip_uvlc(bit_reader *reader) {
    int zeros = 0;
    while (!read_bits(reader, 1) && !reader->overrun && zeros < 32) zeros++;
    if (zeros < 32) read_bits(reader, zeros);
}

/// The largest frame an AV1 sequence header OBU's payload declares (`max_frame_width_minus_1` + 1
/// by `max_frame_height_minus_1` + 1); false when it ends before saying.
static int av1_sequence_size(const uint8_t *payload, size_t size, uint64_t *width, uint64_t *height) {
    bit_reader r = {payload, size, 0, 0};
    read_bits(&r, 3);  // seq_profile
    read_bits(&r, 1);  // still_picture
    if (read_bits(&r, 1)) {  // reduced_still_picture_header
        read_bits(&r, 5);
    } else {
        int decoder_model = 0, delay_bits = 0;
        if (read_bits(&r, 1)) {  // timing_info_present_flag
            read_bits(&r, 32);
            read_bits(&r, 32);
            if (read_bits(&r, 1)) skip_uvlc(&r);
            decoder_model = (int)read_bits(&r, 1);
            if (decoder_model) {
                delay_bits = (int)read_bits(&r, 5) + 1;
                read_bits(&r, 32);
                read_bits(&r, 10);
            }
        }
        int initial_display_delay = (int)read_bits(&r, 1);
        int points = (int)read_bits(&r, 5) + 1;
        for (int i = 0; i < points && !r.overrun; i++) {
            read_bits(&r, 12);
            if (read_bits(&r, 5) > 7) read_bits(&r, 1);
            if (decoder_model && read_bits(&r, 1)) {
                read_bits(&r, delay_bits);
                read_bits(&r, delay_bits);
                read_bits(&r, 1);
            }
            if (initial_display_delay && read_bits(&r, 1)) read_bits(&r, 4);
        }
    }
    int width_bits = (int)read_bits(&r, 4) + 1, height_bits = (int)read_bits(&r, 4) + 1;
    *width = (uint64_t)read_bits(&r, width_bits) + 1;
    *height = (uint64_t)read_bits(&r, height_bits) + 1;
    return !r.overrun;
}

/// The largest frame any sequence header declares among the OBUs of an `mdat` payload, walked
/// from its start while they are well formed, as `*width` by `*height`; false when none does.
static int av1_largest_declared(const uint8_t *data, size_t size, uint64_t *width, uint64_t *height) {
    int found = 0;
    size_t at = 0;
    while (at < size) {
        uint8_t header = data[at];
        if (header & 0x80 || !(header & 0x02)) break;  // forbidden bit, or no size field
        int type = (header >> 3) & 15;
        at += 1 + ((header >> 2) & 1);
        uint64_t length = 0;
        int shift = 0;
        while (at < size && shift < 56) {
            uint8_t byte = data[at++];
            length |= (uint64_t)(byte & 0x7f) << shift;
            shift += 7;
            if (!(byte & 0x80)) break;
        }
        if (at > size || length > size - at) break;
        uint64_t w = 0, h = 0;
        if (type == 1 && av1_sequence_size(data + at, (size_t)length, &w, &h) && (!found || w * h > *width * *height)) {
            *width = w;
            *height = h;
            found = 1;
        }
        at += (size_t)length;
    }
    return found;
}

/// True when the file's brands name AVIF and an AV1 sequence header in it declares frames of more
/// than `max_pixels`; `message` then says how large.
static int av1_frames_too_big(const char *path, int64_t max_pixels, char *message) {
    FILE *file = fopen(path, "rb");
    if (!file) return 0;
    int avif = 0, too_big = 0;
    uint8_t head[16];
    long long at = 0;
    while (fseek(file, (long)at, SEEK_SET) == 0 && fread(head, 1, 8, file) == 8) {
        uint64_t box = (uint64_t)head[0] << 24 | (uint64_t)head[1] << 16 | (uint64_t)head[2] << 8 | head[3];
        size_t header = 8;
        if (box == 1) {
            if (fread(head + 8, 1, 8, file) != 8) break;
            box = 0;
            for (int i = 8; i < 16; i++) box = box << 8 | head[i];
            header = 16;
        }
        if (box != 0 && box < header) break;
        if (memcmp(head + 4, "ftyp", 4) == 0 && box >= 16 && box <= 4096) {
            uint8_t brands[4096];
            size_t n = fread(brands, 1, (size_t)box - header, file);
            for (size_t i = 0; i + 4 <= n; i += 4) {
                if (memcmp(brands + i, "avif", 4) == 0 || memcmp(brands + i, "avis", 4) == 0) avif = 1;
            }
        } else if (memcmp(head + 4, "mdat", 4) == 0 && avif) {
            // Its first megabyte: the sequence header comes first in an item's data.
            long long rest = box == 0 ? (long long)1 << 20 : (long long)box - (long long)header;
            size_t wanted = rest > ((long long)1 << 20) ? ((size_t)1 << 20) : (size_t)rest;
            uint8_t *data = malloc(wanted > 0 ? wanted : 1);
            if (!data) break;
            size_t n = fread(data, 1, wanted, file);
            uint64_t width = 0, height = 0;
            int found = av1_largest_declared(data, n, &width, &height);
            free(data);
            if (found && width * height > (uint64_t)max_pixels) {
                snprintf(message, CCHEIF_MESSAGE_SIZE, "its AV1 stream declares frames of %llux%llu",
                         (unsigned long long)width, (unsigned long long)height);
                too_big = 1;
                break;
            }
        }
        if (box == 0) break;
        at += (long long)box;
    }
    fclose(file);
    return too_big;
}

int ccheif_reader_open(const char *path, int max_side, int64_t max_pixels, ccheif_reader **out, ccheif_info *info, char *message) {
    *out = NULL;
    memset(info, 0, sizeof(*info));
    // libheif reports a missing file as damage: tell the two apart first.
    FILE *probe = fopen(path, "rb");
    if (!probe) {
        set_message(message, strerror(errno));
        return CCHEIF_CANNOT_OPEN;
    }
    fclose(probe);
    ccheif_reader *reader = calloc(1, sizeof(ccheif_reader));
    if (!reader) {
        set_message(message, "out of memory");
        return CCHEIF_NO_MEMORY;
    }
    *out = reader;
    reader->context = heif_context_alloc();
    if (!reader->context) {
        set_message(message, "out of memory");
        return CCHEIF_NO_MEMORY;
    }
    if (max_pixels > 0 && av1_frames_too_big(path, max_pixels, message)) return CCHEIF_TOO_BIG;
    heif_context_set_maximum_image_size_limit(reader->context, max_side > 0 ? max_side : 1);
    struct heif_error error = heif_context_read_from_file(reader->context, path, NULL);
    if (error.code != heif_error_Ok) {
        return fail(error, message);
    }
    error = heif_context_get_primary_image_handle(reader->context, &reader->handle);
    if (error.code != heif_error_Ok) {
        return fail(error, message);
    }
    struct heif_image_handle *handle = reader->handle;
    int width = heif_image_handle_get_width(handle);
    int height = heif_image_handle_get_height(handle);
    info->width = width > 0 ? (uint32_t)width : 0;
    info->height = height > 0 ? (uint32_t)height : 0;
    info->has_alpha = heif_image_handle_has_alpha_channel(handle) ? 1 : 0;
    info->luma_bits = heif_image_handle_get_luma_bits_per_pixel(handle);
    info->image_count = heif_context_get_number_of_top_level_images(reader->context);

    size_t profile_size = heif_image_handle_get_raw_color_profile_size(handle);
    if (profile_size > 0) {
        reader->blocks[0] = malloc(profile_size);
        if (!reader->blocks[0]) {
            set_message(message, "out of memory");
            return CCHEIF_NO_MEMORY;
        }
        error = heif_image_handle_get_raw_color_profile(handle, reader->blocks[0]);
        if (error.code != heif_error_Ok) {
            return fail(error, message);
        }
        info->icc.data = reader->blocks[0];
        info->icc.size = profile_size;
    }
    struct heif_color_profile_nclx *nclx = NULL;
    if (heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok && nclx) {
        info->nclx.present = 1;
        info->nclx.primaries = (int)nclx->color_primaries;
        info->nclx.transfer = (int)nclx->transfer_characteristics;
        info->nclx.matrix = (int)nclx->matrix_coefficients;
        info->nclx.full_range = nclx->full_range_flag;
        info->nclx.red_x = nclx->color_primary_red_x;
        info->nclx.red_y = nclx->color_primary_red_y;
        info->nclx.green_x = nclx->color_primary_green_x;
        info->nclx.green_y = nclx->color_primary_green_y;
        info->nclx.blue_x = nclx->color_primary_blue_x;
        info->nclx.blue_y = nclx->color_primary_blue_y;
        info->nclx.white_x = nclx->color_primary_white_x;
        info->nclx.white_y = nclx->color_primary_white_y;
        heif_nclx_color_profile_free(nclx);
    }
    int status = copy_metadata(handle, "Exif", NULL, &reader->blocks[1], &info->exif, message);
    if (status == CCHEIF_OK) {
        status = copy_metadata(handle, "mime", "application/rdf+xml", &reader->blocks[2], &info->xmp, message);
    }
    return status;
}

int ccheif_reader_decode(ccheif_reader *reader, void *buffer, int channels, int sixteen, int replicate_chroma,
                         int *bits, char *message) {
    if (channels != 3 && channels != 4) {
        set_message(message, "pixels are delivered as RGB or RGBA only");
        return CCHEIF_ERROR;
    }
    enum heif_chroma chroma = sixteen
        ? (channels == 4 ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RRGGBB_LE)
        : (channels == 4 ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB);
    struct heif_decoding_options *options = NULL;
#if LIBHEIF_HAVE_VERSION(1, 16, 0)
    // From 1.16 libheif upsamples chroma bilinearly unless told otherwise.
    if (replicate_chroma) {
        options = heif_decoding_options_alloc();
        if (!options) {
            set_message(message, "out of memory");
            return CCHEIF_NO_MEMORY;
        }
        options->color_conversion_options.preferred_chroma_upsampling_algorithm =
            heif_chroma_upsampling_nearest_neighbor;
        options->color_conversion_options.only_use_preferred_chroma_algorithm = 1;
    }
#else
    (void)replicate_chroma;  // libheif before 1.16 only has nearest-neighbour upsampling
#endif
    struct heif_image *image = NULL;
    struct heif_error error = heif_decode_image(reader->handle, &image, heif_colorspace_RGB, chroma, options);
    if (options) {
        heif_decoding_options_free(options);
    }
    if (error.code != heif_error_Ok) {
        if (image) {
            heif_image_release(image);  // some libheif versions hand back a partial image with the error
        }
        return fail(error, message);
    }
    int status = CCHEIF_OK;
    int stride = 0;
    const uint8_t *plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride);
    int width = heif_image_get_width(image, heif_channel_interleaved);
    int height = heif_image_get_height(image, heif_channel_interleaved);
    if (!plane || width != heif_image_handle_get_width(reader->handle)
        || height != heif_image_handle_get_height(reader->handle)) {
        set_message(message, "the decoded image does not have the size the file declares");
        status = CCHEIF_ERROR;
    } else {
        *bits = sixteen ? heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved) : 8;
        size_t samples = (size_t)width * (size_t)channels;
        for (int y = 0; y < height; y++) {
            const uint8_t *row = plane + (size_t)y * (size_t)stride;
            if (sixteen) {
                uint16_t *target = (uint16_t *)buffer + (size_t)y * samples;
                for (size_t i = 0; i < samples; i++) {
                    target[i] = (uint16_t)(row[2 * i] | (row[2 * i + 1] << 8));
                }
            } else {
                memcpy((uint8_t *)buffer + (size_t)y * samples, row, samples);
            }
        }
    }
    heif_image_release(image);
    return status;
}

void ccheif_reader_close(ccheif_reader *reader) {
    if (!reader) {
        return;
    }
    for (int i = 0; i < 3; i++) {
        free(reader->blocks[i]);
    }
    if (reader->handle) {
        heif_image_handle_release(reader->handle);
    }
    if (reader->context) {
        heif_context_free(reader->context);
    }
    free(reader);
}

// Fills the image's one interleaved plane from the caller's rows.
static int fill_image(struct heif_image *image, const ccheif_write_options *options, char *message) {
    struct heif_error error = heif_image_add_plane(image, heif_channel_interleaved, (int)options->width,
                                                   (int)options->height, options->bits);
    if (error.code != heif_error_Ok) {
        return fail(error, message);
    }
    int stride = 0;
    uint8_t *plane = heif_image_get_plane(image, heif_channel_interleaved, &stride);
    if (!plane) {
        set_message(message, "libheif gave no plane to fill");
        return CCHEIF_ERROR;
    }
    size_t samples = (size_t)options->width * (size_t)options->channels;
    for (uint32_t y = 0; y < options->height; y++) {
        uint8_t *row = plane + (size_t)y * (size_t)stride;
        if (options->bits > 8) {
            const uint16_t *source = (const uint16_t *)options->pixels + (size_t)y * samples;
            for (size_t i = 0; i < samples; i++) {
                row[2 * i] = (uint8_t)(source[i] & 0xFF);
                row[2 * i + 1] = (uint8_t)(source[i] >> 8);
            }
        } else {
            memcpy(row, (const uint8_t *)options->pixels + (size_t)y * samples, samples);
        }
    }
    return CCHEIF_OK;
}

static int set_colour(struct heif_image *image, const ccheif_write_options *options, char *message) {
    if (options->icc.data && options->icc.size > 0) {
        struct heif_error error = heif_image_set_raw_color_profile(image, "prof", options->icc.data,
                                                                   options->icc.size);
        return error.code == heif_error_Ok ? CCHEIF_OK : fail(error, message);
    }
    if (!options->srgb_nclx) {
        return CCHEIF_OK;
    }
    struct heif_color_profile_nclx *nclx = heif_nclx_color_profile_alloc();
    if (!nclx) {
        set_message(message, "out of memory");
        return CCHEIF_NO_MEMORY;
    }
    nclx->color_primaries = heif_color_primaries_ITU_R_BT_709_5;
    nclx->transfer_characteristics = heif_transfer_characteristic_IEC_61966_2_1;
    nclx->matrix_coefficients = heif_matrix_coefficients_ITU_R_BT_601_6;
    nclx->full_range_flag = 1;
    struct heif_error error = heif_image_set_nclx_color_profile(image, nclx);
    heif_nclx_color_profile_free(nclx);
    return error.code == heif_error_Ok ? CCHEIF_OK : fail(error, message);
}

static int configure_encoder(struct heif_encoder *encoder, const ccheif_write_options *options, char *message) {
    int quality = options->quality < 1 ? 1 : options->quality > 100 ? 100 : options->quality;
    struct heif_error error = heif_encoder_set_lossy_quality(encoder, quality);
    if (error.code == heif_error_Ok) {
        error = heif_encoder_set_logging_level(encoder, 0);
    }
    if (error.code == heif_error_Ok && options->compression == CCHEIF_HEVC) {
        // libheif asks x265 for its "slow" preset; "medium", x265's own default, is 2.4 times as
        // fast on photos for files about 1% larger at the same quality setting.
        error = heif_encoder_set_parameter_string(encoder, "preset", "medium");
    }
    if (error.code == heif_error_Ok && options->threads > 0) {
        if (options->compression == CCHEIF_AV1) {
            error = heif_encoder_set_parameter_integer(encoder, "threads", options->threads);
        } else {
            char pools[16];
            snprintf(pools, sizeof(pools), "%d", options->threads);
            error = heif_encoder_set_parameter_string(encoder, "x265:pools", pools);
            if (error.code == heif_error_Ok) {
                error = heif_encoder_set_parameter_string(encoder, "x265:frame-threads", "1");
            }
        }
    }
    return error.code == heif_error_Ok ? CCHEIF_OK : fail(error, message);
}

// libheif's own heif_context_write_to_file does not report failures of the file system.
static struct heif_error write_to_stream(struct heif_context *context, const void *data, size_t size, void *file) {
    (void)context;
    struct heif_error error = {heif_error_Ok, heif_suberror_Unspecified, "Success"};
    if (fwrite(data, 1, size, (FILE *)file) != size) {
        error.code = heif_error_Encoding_error;
        error.subcode = heif_suberror_Cannot_write_output_data;
        error.message = "the file could not be written";
    }
    return error;
}

static int write_file(struct heif_context *context, const char *path, char *message) {
    FILE *file = fopen(path, "wb");
    if (!file) {
        set_message(message, strerror(errno));
        return CCHEIF_ERROR;
    }
    struct heif_writer writer = {1, write_to_stream};
    errno = 0;
    struct heif_error error = heif_context_write(context, &writer, file);
    int status = error.code == heif_error_Ok ? CCHEIF_OK : fail(error, message);
    int saved = errno;
    if (fclose(file) != 0 && status == CCHEIF_OK) {
        set_message(message, strerror(errno));
        status = CCHEIF_ERROR;
    } else if (status != CCHEIF_OK && saved != 0) {
        set_message(message, strerror(saved));
    }
    return status;
}

int ccheif_write(const char *path, const ccheif_write_options *options, char *message) {
    if ((options->channels != 3 && options->channels != 4) || (options->bits != 8 && options->bits != 10 && options->bits != 12)) {
        set_message(message, "pixels must be 8, 10 or 12-bit RGB or RGBA");
        return CCHEIF_ERROR;
    }
    struct heif_context *context = heif_context_alloc();
    if (!context) {
        set_message(message, "out of memory");
        return CCHEIF_NO_MEMORY;
    }
    struct heif_encoder *encoder = NULL;
    struct heif_image *image = NULL;
    struct heif_image_handle *handle = NULL;
    struct heif_encoding_options *encoding = NULL;
    enum heif_compression_format format = options->compression == CCHEIF_AV1 ? heif_compression_AV1
                                                                             : heif_compression_HEVC;
    int status = CCHEIF_OK;
    struct heif_error error = heif_context_get_encoder_for_format(context, format, &encoder);
    if (error.code != heif_error_Ok) {
        status = fail(error, message);
        goto done;
    }
    if ((status = configure_encoder(encoder, options, message)) != CCHEIF_OK) {
        goto done;
    }
    enum heif_chroma chroma = options->bits > 8
        ? (options->channels == 4 ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RRGGBB_LE)
        : (options->channels == 4 ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB);
    error = heif_image_create((int)options->width, (int)options->height, heif_colorspace_RGB, chroma, &image);
    if (error.code != heif_error_Ok) {
        status = fail(error, message);
        goto done;
    }
    if ((status = fill_image(image, options, message)) != CCHEIF_OK
        || (status = set_colour(image, options, message)) != CCHEIF_OK) {
        goto done;
    }
    encoding = heif_encoding_options_alloc();
    if (!encoding) {
        set_message(message, "out of memory");
        status = CCHEIF_NO_MEMORY;
        goto done;
    }
    if (options->srgb_nclx && encoding->version >= 4) {
        // libheif leaves nclx boxes out of HEIC files by default (older macOS misread them); one
        // asked for is written.
        encoding->macOS_compatibility_workaround_no_nclx_profile = 0;
    }
    error = heif_context_encode_image(context, image, encoder, encoding, &handle);
    if (error.code != heif_error_Ok) {
        status = fail(error, message);
        goto done;
    }
    if (options->exif.data && options->exif.size > 0) {
        error = heif_context_add_exif_metadata(context, handle, options->exif.data, (int)options->exif.size);
        if (error.code != heif_error_Ok) {
            status = fail(error, message);
            goto done;
        }
    }
    if (options->xmp.data && options->xmp.size > 0) {
        error = heif_context_add_XMP_metadata(context, handle, options->xmp.data, (int)options->xmp.size);
        if (error.code != heif_error_Ok) {
            status = fail(error, message);
            goto done;
        }
    }
    status = write_file(context, path, message);
done:
    if (status == CCHEIF_NOT_HEIF || status == CCHEIF_CANNOT_OPEN || status == CCHEIF_TOO_BIG) {
        status = CCHEIF_ERROR;  // on writing, every failure is a failure to write
    }
    heif_encoding_options_free(encoding);
    if (handle) {
        heif_image_handle_release(handle);
    }
    if (image) {
        heif_image_release(image);
    }
    if (encoder) {
        heif_encoder_release(encoder);
    }
    heif_context_free(context);
    return status;
}
