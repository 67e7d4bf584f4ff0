// Decoders that libheif uses ahead of its own, for one reason: libheif's own AV1 and HEVC plugins
// let the codec size its buffers from the bitstream (an AV1 sequence or frame header, an HEVC
// SPS), which a hostile file sets to gigabytes whatever its container declares. These decoders
// give the codec the caller's pixel limit (dav1d's frame_size_limit) or check every parameter set
// against it before the codec sees one, so such a file is refused before anything is allocated.
#include "limited_decoders.h"

#include <dav1d/dav1d.h>
#include <errno.h>
#include <libde265/de265.h>
#include <libheif/heif.h>
#include <libheif/heif_plugin.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local int64_t pixel_limit;
static _Thread_local const char *last_failure;

void limited_decoders_set_pixel_limit(int64_t max_pixels) {
    pixel_limit = max_pixels > 0 ? max_pixels : 0;
    last_failure = NULL;
}

const char *limited_decoders_failure(void) { return last_failure; }

static struct heif_error ok(void) {
    struct heif_error error = {heif_error_Ok, heif_suberror_Unspecified, "Success"};
    return error;
}

static _Thread_local char limit_message[160];

/// The refusal of a picture of `width` by `height`, beyond the pixel limit.
static struct heif_error too_big(const char *codec, uint64_t width, uint64_t height) {
    snprintf(limit_message, sizeof limit_message, "its %s stream declares frames of %llux%llu, more than the pixel limit",
             codec, (unsigned long long)width, (unsigned long long)height);
    struct heif_error error = {heif_error_Memory_allocation_error, heif_suberror_Security_limit_exceeded, limit_message};
    last_failure = limit_message;
    return error;
}

static struct heif_error failure(enum heif_error_code code, const char *message) {
    struct heif_error error = {code, heif_suberror_Unspecified, message};
    last_failure = message;
    return error;
}

// MARK: The bytes libheif pushes

/// What libheif pushes before decoding: the codec configuration's headers, then the item's data.
typedef struct {
    uint8_t *bytes;
    size_t count, capacity;
} pushed_bytes;

static struct heif_error append(pushed_bytes *pushed, const void *data, size_t size) {
    if (size > pushed->capacity - pushed->count) {
        size_t capacity = pushed->capacity ? pushed->capacity : 4096;
        while (capacity - pushed->count < size) {
            if (capacity > SIZE_MAX / 2) return failure(heif_error_Memory_allocation_error, "out of memory");
            capacity *= 2;
        }
        uint8_t *grown = realloc(pushed->bytes, capacity);
        if (!grown) return failure(heif_error_Memory_allocation_error, "out of memory");
        pushed->bytes = grown;
        pushed->capacity = capacity;
    }
    memcpy(pushed->bytes + pushed->count, data, size);
    pushed->count += size;
    return ok();
}

static struct heif_error push_data(void *decoder, const void *data, size_t size) {
    return append((pushed_bytes *)decoder, data, size);
}

static struct heif_error new_decoder(void **decoder) {
    pushed_bytes *pushed = calloc(1, sizeof(pushed_bytes));
    if (!pushed) return failure(heif_error_Memory_allocation_error, "out of memory");
    *decoder = pushed;
    return ok();
}

static void free_decoder(void *decoder) {
    pushed_bytes *pushed = decoder;
    if (!pushed) return;
    free(pushed->bytes);
    free(pushed);
}

static void set_strict_decoding(void *decoder, int flag) {
    (void)decoder;
    (void)flag;
}

// MARK: Building the picture libheif converts

/// A heif_image of `width` by `height` in `chroma`, with the planes a codec's picture fills.
static struct heif_error new_image(int width, int height, int chroma_width, int chroma_height, int monochrome,
                                   enum heif_chroma chroma, int bits, struct heif_image **out) {
    struct heif_image *image = NULL;
    struct heif_error error =
        heif_image_create(width, height, monochrome ? heif_colorspace_monochrome : heif_colorspace_YCbCr, chroma, &image);
    if (error.code != heif_error_Ok) return error;
    const enum heif_channel channels[3] = {heif_channel_Y, heif_channel_Cb, heif_channel_Cr};
    for (int c = 0; c < (monochrome ? 1 : 3); c++) {
        error = heif_image_add_plane(image, channels[c], c ? chroma_width : width, c ? chroma_height : height, bits);
        if (error.code != heif_error_Ok) {
            heif_image_release(image);
            return error;
        }
    }
    *out = image;
    return ok();
}

/// Copies `rows` rows of `row_bytes` from a codec's plane into the image's plane `channel`.
static void copy_plane(struct heif_image *image, enum heif_channel channel, const uint8_t *from, ptrdiff_t from_stride,
                       int rows, size_t row_bytes) {
    int stride = 0;
    uint8_t *to = heif_image_get_plane(image, channel, &stride);
    for (int y = 0; y < rows; y++) memcpy(to + (size_t)y * (size_t)stride, from + (ptrdiff_t)y * from_stride, row_bytes);
}

static void set_nclx(struct heif_image *image, int primaries, int transfer, int matrix, int full_range) {
    struct heif_color_profile_nclx *nclx = heif_nclx_color_profile_alloc();
    if (!nclx) return;
    nclx->color_primaries = (enum heif_color_primaries)primaries;
    nclx->transfer_characteristics = (enum heif_transfer_characteristics)transfer;
    nclx->matrix_coefficients = (enum heif_matrix_coefficients)matrix;
    nclx->full_range_flag = (uint8_t)(full_range ? 1 : 0);
    heif_image_set_nclx_color_profile(image, nclx);
    heif_nclx_color_profile_free(nclx);
}

// MARK: AV1 through dav1d
//
// dav1d sizes its buffers from the sequence header's largest frame, not from the container's
// `ispe`: a hostile file declaring 65536x65536 there made it allocate gigabytes. Every sequence
// header pushed is checked against the limit first (for a message that says how large), and dav1d
// is given the limit too, for any frame header past them.

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

/// The largest frame any sequence header declares among the OBUs libheif pushed (the `av1C`
/// configuration's, then the item's), walked while they are well formed, as `*width` by `*height`;
/// false when none does.
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

static const char *av1_name(void) { return "colorcube AV1 (dav1d, pixel-limited)"; }

static int av1_supports(enum heif_compression_format format) { return format == heif_compression_AV1 ? 200 : 0; }

static void release_nothing(const uint8_t *data, void *cookie) {
    (void)data;
    (void)cookie;
}

static struct heif_error av1_picture(Dav1dPicture *picture, struct heif_image **out) {
    int width = picture->p.w, height = picture->p.h, bits = picture->p.bpc;
    enum heif_chroma chroma;
    int chroma_width = width, chroma_height = height;
    switch (picture->p.layout) {
    case DAV1D_PIXEL_LAYOUT_I400: chroma = heif_chroma_monochrome; break;
    case DAV1D_PIXEL_LAYOUT_I420:
        chroma = heif_chroma_420;
        chroma_width = (width + 1) / 2;
        chroma_height = (height + 1) / 2;
        break;
    case DAV1D_PIXEL_LAYOUT_I422:
        chroma = heif_chroma_422;
        chroma_width = (width + 1) / 2;
        break;
    case DAV1D_PIXEL_LAYOUT_I444: chroma = heif_chroma_444; break;
    default: return failure(heif_error_Decoder_plugin_error, "the AV1 picture has an unknown pixel layout");
    }
    int monochrome = chroma == heif_chroma_monochrome;
    struct heif_image *image = NULL;
    struct heif_error error = new_image(width, height, chroma_width, chroma_height, monochrome, chroma, bits, &image);
    if (error.code != heif_error_Ok) return error;
    size_t sample = bits > 8 ? 2 : 1;
    copy_plane(image, heif_channel_Y, picture->data[0], picture->stride[0], height, (size_t)width * sample);
    if (!monochrome) {
        copy_plane(image, heif_channel_Cb, picture->data[1], picture->stride[1], chroma_height, (size_t)chroma_width * sample);
        copy_plane(image, heif_channel_Cr, picture->data[2], picture->stride[1], chroma_height, (size_t)chroma_width * sample);
    }
    const Dav1dSequenceHeader *sequence = picture->seq_hdr;
    if (sequence) set_nclx(image, (int)sequence->pri, (int)sequence->trc, (int)sequence->mtrx, sequence->color_range);
    *out = image;
    return ok();
}

static struct heif_error av1_decode(void *decoder, struct heif_image **out) {
    pushed_bytes *pushed = decoder;
    *out = NULL;
    Dav1dSettings settings;
    dav1d_default_settings(&settings);
    // The limit dav1d checks each frame header against before it allocates the frame.
    int64_t limit = pixel_limit;
    uint64_t width = 0, height = 0;
    if (limit > 0 && av1_largest_declared(pushed->bytes, pushed->count, &width, &height)
        && width * height > (uint64_t)limit) {
        return too_big("AV1", width, height);
    }
    settings.frame_size_limit = limit > 0 && limit < UINT32_MAX ? (unsigned)limit : 0;
    settings.max_frame_delay = 1;  // one still picture: nothing to gain from frames in flight
    settings.all_layers = 0;       // the highest spatial layer only, as AVIF shows it
    settings.logger.callback = NULL;  // damage is reported once, by the caller, not on stderr
    Dav1dContext *context = NULL;
    if (dav1d_open(&context, &settings) < 0) return failure(heif_error_Decoder_plugin_error, "dav1d did not start");
    Dav1dData data = {0};
    if (dav1d_data_wrap(&data, pushed->bytes, pushed->count, release_nothing, NULL) < 0) {
        dav1d_close(&context);
        return failure(heif_error_Decoder_plugin_error, "dav1d did not take the AV1 data");
    }
    Dav1dPicture picture = {0};
    int got = 0, idle = 0, status = 0;
    while (!got) {
        if (data.sz > 0) {
            status = dav1d_send_data(context, &data);
            if (status < 0 && status != DAV1D_ERR(EAGAIN)) break;
        }
        status = dav1d_get_picture(context, &picture);
        if (status == 0) {
            got = 1;
        } else if (status != DAV1D_ERR(EAGAIN) || (data.sz == 0 && ++idle > 16)) {
            break;
        }
    }
    struct heif_error error;
    if (got) {
        error = av1_picture(&picture, out);
        dav1d_picture_unref(&picture);
    } else {
        error = failure(heif_error_Decoder_plugin_error, "its AV1 data is damaged (dav1d made no picture of it)");
    }
    if (data.sz > 0) dav1d_data_unref(&data);
    dav1d_close(&context);
    return error;
}

static const struct heif_decoder_plugin av1_plugin = {
    .plugin_api_version = 3,
    .get_plugin_name = av1_name,
    .does_support_format = av1_supports,
    .new_decoder = new_decoder,
    .free_decoder = free_decoder,
    .push_data = push_data,
    .decode_image = av1_decode,
    .set_strict_decoding = set_strict_decoding,
    .id_name = "colorcube-dav1d",
};

// MARK: HEVC through libde265
//
// libde265 sizes its pictures and their per-block tables from each SPS it meets, in the
// `hvcC` configuration or in the item's data. Every SPS pushed is read first and checked
// against the limit; libde265 then gets an allocator that refuses larger planes all the same.

/// An HEVC NAL unit's payload without its emulation-prevention bytes (00 00 03 reads 00 00),
/// at most `capacity` bytes of it into `out`; returns how many.
static size_t hevc_unescape(const uint8_t *nal, size_t size, uint8_t *out, size_t capacity) {
    size_t count = 0, zeros = 0;
    for (size_t i = 0; i < size && count < capacity; i++) {
        if (zeros >= 2 && nal[i] == 3) {
            zeros = 0;
            continue;
        }
        zeros = nal[i] == 0 ? zeros + 1 : 0;
        out[count++] = nal[i];
    }
    return count;
}

/// H.265's ue(v): leading zeros, a one, then that many bits; past 31 zeros it reads as too large.
static uint64_t read_ue(bit_reader *reader) {
    int zeros = 0;
    while (!read_bits(reader, 1)) {
        if (reader->overrun || ++zeros > 31) {
            reader->overrun = 1;
            return UINT32_MAX;
        }
    }
    return ((uint64_t)1 << zeros) - 1 + read_bits(reader, zeros);
}

/// The picture size an SPS NAL unit (its two-byte header included) declares; false when it ends first.
static int hevc_sps_size(const uint8_t *nal, size_t size, uint64_t *width, uint64_t *height) {
    uint8_t payload[256];  // the size comes within the first hundred or so bytes
    size_t count = hevc_unescape(nal, size, payload, sizeof payload);
    bit_reader r = {payload, count, 16, 0};  // past the NAL unit header
    read_bits(&r, 4);  // sps_video_parameter_set_id
    int sub_layers = (int)read_bits(&r, 3);  // sps_max_sub_layers_minus1
    read_bits(&r, 1);  // sps_temporal_id_nesting_flag
    // profile_tier_level(1, sps_max_sub_layers_minus1)
    read_bits(&r, 32);
    read_bits(&r, 32);
    read_bits(&r, 32);  // general profile space to general level, 96 bits
    int profile_present[8] = {0}, level_present[8] = {0};
    for (int i = 0; i < sub_layers; i++) {
        profile_present[i] = (int)read_bits(&r, 1);
        level_present[i] = (int)read_bits(&r, 1);
    }
    if (sub_layers > 0) {
        for (int i = sub_layers; i < 8; i++) read_bits(&r, 2);
    }
    for (int i = 0; i < sub_layers; i++) {
        if (profile_present[i]) {
            read_bits(&r, 32);
            read_bits(&r, 32);
            read_bits(&r, 24);
        }
        if (level_present[i]) read_bits(&r, 8);
    }
    read_ue(&r);  // sps_seq_parameter_set_id
    if (read_ue(&r) == 3) read_bits(&r, 1);  // chroma_format_idc, separate_colour_plane_flag
    *width = read_ue(&r);
    *height = read_ue(&r);
    return !r.overrun;
}

/// The next NAL unit of what libheif pushed (each after a four-byte big-endian length) from
/// `*at`, as `*unit` and `*length`, with `*at` moved past it; false at the end or at a unit the
/// bytes cut short. The SPS check and the decoder walk the same units this way.
static int next_nal(const pushed_bytes *pushed, size_t *at, const uint8_t **unit, size_t *length) {
    if (pushed->count - *at < 4) return 0;
    const uint8_t *data = pushed->bytes + *at;
    size_t declared = (size_t)data[0] << 24 | (size_t)data[1] << 16 | (size_t)data[2] << 8 | data[3];
    if (declared > pushed->count - *at - 4 || declared > INT32_MAX) return 0;
    *unit = data + 4;
    *length = declared;
    *at += 4 + declared;
    return 1;
}

/// The largest picture any SPS among the pushed NAL units declares; false when none does.
static int hevc_largest_declared(const pushed_bytes *pushed, uint64_t *width, uint64_t *height) {
    int found = 0;
    size_t at = 0, length = 0;
    const uint8_t *unit = NULL;
    while (next_nal(pushed, &at, &unit, &length)) {
        uint64_t w = 0, h = 0;
        if (length >= 2 && ((unit[0] >> 1) & 0x3f) == 33 && hevc_sps_size(unit, length, &w, &h)
            && (!found || w * h > *width * *height)) {
            *width = w;
            *height = h;
            found = 1;
        }
    }
    return found;
}

/// What the allocator needs: libde265's own functions and the limit.
typedef struct {
    const struct de265_image_allocation *standard;
    int64_t limit;
} hevc_allocation;

static int hevc_get_buffer(de265_decoder_context *context, struct de265_image_spec *spec, struct de265_image *image,
                           void *user) {
    const hevc_allocation *allocation = user;
    if (spec->width <= 0 || spec->height <= 0
        || (allocation->limit > 0 && (int64_t)spec->width * spec->height > allocation->limit)) {
        return 0;
    }
    return allocation->standard->get_buffer(context, spec, image, NULL);
}

static void hevc_release_buffer(de265_decoder_context *context, struct de265_image *image, void *user) {
    const hevc_allocation *allocation = user;
    allocation->standard->release_buffer(context, image, NULL);
}

static const char *hevc_name(void) { return "colorcube HEVC (libde265, pixel-limited)"; }

static int hevc_supports(enum heif_compression_format format) { return format == heif_compression_HEVC ? 200 : 0; }

static struct heif_error hevc_picture(const struct de265_image *picture, struct heif_image **out) {
    int width = de265_get_image_width(picture, 0), height = de265_get_image_height(picture, 0);
    int bits = de265_get_bits_per_pixel(picture, 0);
    enum heif_chroma chroma;
    switch (de265_get_chroma_format(picture)) {
    case de265_chroma_mono: chroma = heif_chroma_monochrome; break;
    case de265_chroma_420: chroma = heif_chroma_420; break;
    case de265_chroma_422: chroma = heif_chroma_422; break;
    case de265_chroma_444: chroma = heif_chroma_444; break;
    default: return failure(heif_error_Decoder_plugin_error, "the HEVC picture has an unknown chroma format");
    }
    int monochrome = chroma == heif_chroma_monochrome;
    int chroma_width = monochrome ? 0 : de265_get_image_width(picture, 1);
    int chroma_height = monochrome ? 0 : de265_get_image_height(picture, 1);
    if (bits < 1 || bits > 16 || (!monochrome && de265_get_bits_per_pixel(picture, 1) != bits)) {
        return failure(heif_error_Unsupported_feature, "its HEVC luma and chroma have different bit depths");
    }
    struct heif_image *image = NULL;
    struct heif_error error = new_image(width, height, chroma_width, chroma_height, monochrome, chroma, bits, &image);
    if (error.code != heif_error_Ok) return error;
    size_t sample = bits > 8 ? 2 : 1;
    const enum heif_channel channels[3] = {heif_channel_Y, heif_channel_Cb, heif_channel_Cr};
    for (int c = 0; c < (monochrome ? 1 : 3); c++) {
        int stride = 0;
        const uint8_t *plane = de265_get_image_plane(picture, c, &stride);
        copy_plane(image, channels[c], plane, stride, c ? chroma_height : height, (size_t)(c ? chroma_width : width) * sample);
    }
    set_nclx(image, de265_get_image_colour_primaries(picture), de265_get_image_transfer_characteristics(picture),
             de265_get_image_matrix_coefficients(picture), de265_get_image_full_range_flag(picture));
    *out = image;
    return ok();
}

static struct heif_error hevc_decode(void *decoder, struct heif_image **out) {
    pushed_bytes *pushed = decoder;
    *out = NULL;
    int64_t limit = pixel_limit;
    uint64_t width = 0, height = 0;
    if (limit > 0 && hevc_largest_declared(pushed, &width, &height)
        && width * height > (uint64_t)limit) {
        return too_big("HEVC", width, height);
    }
    de265_decoder_context *context = de265_new_decoder();
    if (!context) return failure(heif_error_Memory_allocation_error, "out of memory");
    hevc_allocation allocation = {de265_get_default_image_allocation_functions(), limit};
    struct de265_image_allocation functions = {hevc_get_buffer, hevc_release_buffer};
    de265_set_image_allocation_functions(context, &functions, &allocation);
    de265_set_parameter_bool(context, DE265_DECODER_PARAM_SUPPRESS_FAULTY_PICTURES, 0);
    size_t at = 0, length = 0, units = 0;
    const uint8_t *unit = NULL;
    while (next_nal(pushed, &at, &unit, &length) && de265_push_NAL(context, unit, (int)length, 0, NULL) == DE265_OK) {
        units++;
    }
    de265_flush_data(context);
    // Each call decodes at most one NAL unit; the bound only guards against a decoder that stalls.
    struct heif_error error;
    int more = 1, got = 0;
    for (size_t calls = 0; more && !got && calls < 4 * units + 16; calls++) {
        more = 0;
        de265_error status = de265_decode(context, &more);
        if (status != DE265_OK && status != DE265_ERROR_WAITING_FOR_INPUT_DATA && !de265_isOK(status)) {
            if (status != DE265_ERROR_IMAGE_BUFFER_FULL) break;
            more = 1;
        }
        const struct de265_image *picture = de265_get_next_picture(context);
        if (picture) {
            error = hevc_picture(picture, out);
            de265_release_next_picture(context);
            got = 1;
        }
    }
    de265_free_decoder(context);
    return got ? error : failure(heif_error_Decoder_plugin_error, "its HEVC data is damaged (libde265 made no picture of it)");
}

static const struct heif_decoder_plugin hevc_plugin = {
    .plugin_api_version = 3,
    .get_plugin_name = hevc_name,
    .does_support_format = hevc_supports,
    .new_decoder = new_decoder,
    .free_decoder = free_decoder,
    .push_data = push_data,
    .decode_image = hevc_decode,
    .set_strict_decoding = set_strict_decoding,
    .id_name = "colorcube-libde265",
};

// MARK: Registration

static pthread_once_t installed = PTHREAD_ONCE_INIT;

static void install(void) {
    heif_register_decoder_plugin(&av1_plugin);
    heif_register_decoder_plugin(&hevc_plugin);
}

void limited_decoders_install(void) { pthread_once(&installed, install); }
