#include "ccwebp.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <webp/decode.h>
#include <webp/demux.h>
#include <webp/encode.h>
#include <webp/mux.h>

struct ccwebp_reader {
    uint8_t *data;   // the whole file
    size_t size;
    int has_animation;
    uint32_t width;
    uint32_t height;
    uint8_t *chunks[3];  // copies of the ICCP, EXIF and XMP payloads
};

static void set_message(char *message, const char *text) {
    if (message) {
        snprintf(message, CCWEBP_MESSAGE_SIZE, "%s", text);
    }
}

static const char *status_text(VP8StatusCode status) {
    switch (status) {
    case VP8_STATUS_OUT_OF_MEMORY: return "out of memory";
    case VP8_STATUS_INVALID_PARAM: return "invalid parameter";
    case VP8_STATUS_BITSTREAM_ERROR: return "the image data is damaged";
    case VP8_STATUS_UNSUPPORTED_FEATURE: return "a WebP feature libwebp does not support";
    case VP8_STATUS_SUSPENDED: return "decoding was suspended";
    case VP8_STATUS_USER_ABORT: return "decoding was aborted";
    case VP8_STATUS_NOT_ENOUGH_DATA: return "the image data ends early";
    default: return "libwebp failed";
    }
}

static int status_code(VP8StatusCode status) {
    switch (status) {
    case VP8_STATUS_OUT_OF_MEMORY: return CCWEBP_NO_MEMORY;
    case VP8_STATUS_UNSUPPORTED_FEATURE: return CCWEBP_UNSUPPORTED;
    default: return CCWEBP_ERROR;
    }
}

static int read_file(const char *path, ccwebp_reader *reader, char *message) {
    FILE *file = fopen(path, "rb");
    if (!file) {
        set_message(message, strerror(errno));
        return CCWEBP_CANNOT_OPEN;
    }
    int status = CCWEBP_OK;
    long length = -1;
    if (fseek(file, 0, SEEK_END) != 0 || (length = ftell(file)) < 0 || fseek(file, 0, SEEK_SET) != 0) {
        set_message(message, strerror(errno));
        status = CCWEBP_CANNOT_OPEN;
    } else if (length < 12) {
        set_message(message, "not a WebP file (shorter than a RIFF header)");
        status = CCWEBP_NOT_WEBP;
    } else if (!(reader->data = malloc((size_t)length))) {
        set_message(message, "out of memory for the file's contents");
        status = CCWEBP_NO_MEMORY;
    } else if (fread(reader->data, 1, (size_t)length, file) != (size_t)length) {
        set_message(message, ferror(file) ? strerror(errno) : "the file shrank while it was read");
        status = CCWEBP_CANNOT_OPEN;
    } else {
        reader->size = (size_t)length;
    }
    fclose(file);
    return status;
}

// Copies chunk `fourcc` (the first of its kind) out of the demuxer into `slot`; absent chunks stay
// empty.
static int copy_chunk(WebPDemuxer *demux, const char *fourcc, uint8_t **slot, ccwebp_chunk *chunk) {
    WebPChunkIterator iterator;
    if (!WebPDemuxGetChunk(demux, fourcc, 1, &iterator)) {
        return 1;
    }
    int copied = 1;
    size_t size = iterator.chunk.size;
    *slot = malloc(size > 0 ? size : 1);
    if (*slot) {
        memcpy(*slot, iterator.chunk.bytes, size);
        chunk->data = *slot;
        chunk->size = size;
    } else {
        copied = 0;
    }
    WebPDemuxReleaseChunkIterator(&iterator);
    return copied;
}

int ccwebp_reader_open(const char *path, ccwebp_reader **out, ccwebp_info *info, char *message) {
    *out = NULL;
    memset(info, 0, sizeof(*info));
    ccwebp_reader *reader = calloc(1, sizeof(ccwebp_reader));
    if (!reader) {
        set_message(message, "out of memory");
        return CCWEBP_NO_MEMORY;
    }
    *out = reader;
    int status = read_file(path, reader, message);
    if (status != CCWEBP_OK) {
        return status;
    }
    if (memcmp(reader->data, "RIFF", 4) != 0 || memcmp(reader->data + 8, "WEBP", 4) != 0) {
        set_message(message, "not a WebP file (no RIFF WEBP header)");
        return CCWEBP_NOT_WEBP;
    }
    WebPBitstreamFeatures features;
    VP8StatusCode feature_status = WebPGetFeatures(reader->data, reader->size, &features);
    if (feature_status != VP8_STATUS_OK) {
        set_message(message, status_text(feature_status));
        return status_code(feature_status);
    }
    // The demuxer accepts only a complete file: a RIFF size beyond the end of the data is truncation.
    WebPData whole = {reader->data, reader->size};
    WebPDemuxState state = WEBP_DEMUX_PARSE_ERROR;
    WebPDemuxer *demux = WebPDemuxPartial(&whole, &state);
    if (!demux || state != WEBP_DEMUX_DONE) {
        if (demux) {
            WebPDemuxDelete(demux);
        }
        set_message(message, state == WEBP_DEMUX_PARSE_ERROR ? "the RIFF structure is damaged"
                                                              : "the file ends before its RIFF size says");
        return CCWEBP_ERROR;
    }
    reader->has_animation = features.has_animation;
    reader->width = WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH);
    reader->height = WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT);
    info->width = reader->width;
    info->height = reader->height;
    info->has_alpha = features.has_alpha ? 1 : 0;
    info->is_lossless = features.format == 2 ? 1 : 0;
    info->frame_count = (int)WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT);
    info->is_lossy_still = features.format == 1 && !features.has_animation ? 1 : 0;
    int copied = copy_chunk(demux, "ICCP", &reader->chunks[0], &info->icc)
        && copy_chunk(demux, "EXIF", &reader->chunks[1], &info->exif)
        && copy_chunk(demux, "XMP ", &reader->chunks[2], &info->xmp);
    WebPDemuxDelete(demux);
    if (!copied) {
        set_message(message, "out of memory for the metadata chunks");
        return CCWEBP_NO_MEMORY;
    }
    return CCWEBP_OK;
}

static int decode_animation_frame(ccwebp_reader *reader, uint8_t *buffer, int channels, char *message) {
    WebPAnimDecoderOptions options;
    if (!WebPAnimDecoderOptionsInit(&options)) {
        set_message(message, "libwebp version mismatch");
        return CCWEBP_ERROR;
    }
    options.color_mode = MODE_RGBA;
    options.use_threads = 0;
    WebPData whole = {reader->data, reader->size};
    WebPAnimDecoder *decoder = WebPAnimDecoderNew(&whole, &options);
    if (!decoder) {
        set_message(message, "the animation cannot be decoded");
        return CCWEBP_ERROR;
    }
    uint8_t *canvas = NULL;
    int timestamp = 0;
    if (!WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) || !canvas) {
        WebPAnimDecoderDelete(decoder);
        set_message(message, "the first frame of the animation is damaged");
        return CCWEBP_ERROR;
    }
    size_t pixels = (size_t)reader->width * reader->height;
    if (channels == 4) {
        memcpy(buffer, canvas, pixels * 4);
    } else {
        for (size_t i = 0; i < pixels; i++) {
            memcpy(buffer + i * 3, canvas + i * 4, 3);
        }
    }
    WebPAnimDecoderDelete(decoder);
    return CCWEBP_OK;
}

int ccwebp_reader_decode(ccwebp_reader *reader, uint8_t *buffer, int channels, int replicate_chroma,
                         char *message) {
    if (channels != 3 && channels != 4) {
        set_message(message, "pixels are delivered as RGB or RGBA only");
        return CCWEBP_ERROR;
    }
    if (reader->has_animation) {
        return decode_animation_frame(reader, buffer, channels, message);
    }
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) {
        set_message(message, "libwebp version mismatch");
        return CCWEBP_ERROR;
    }
    VP8StatusCode status = WebPGetFeatures(reader->data, reader->size, &config.input);
    if (status == VP8_STATUS_OK
        && ((uint32_t)config.input.width != reader->width || (uint32_t)config.input.height != reader->height)) {
        set_message(message, "the image size differs from the canvas size");
        return CCWEBP_ERROR;
    }
    if (status == VP8_STATUS_OK) {
        size_t stride = (size_t)reader->width * (size_t)channels;
        config.output.colorspace = channels == 4 ? MODE_RGBA : MODE_RGB;
        // Point sampling: each U/V sample converts the 2x2 pixels it covers (VP8 is 4:2:0).
        config.options.no_fancy_upsampling = replicate_chroma ? 1 : 0;
        config.output.is_external_memory = 1;
        config.output.u.RGBA.rgba = buffer;
        config.output.u.RGBA.stride = (int)stride;
        config.output.u.RGBA.size = stride * reader->height;
        status = WebPDecode(reader->data, reader->size, &config);
        WebPFreeDecBuffer(&config.output);
    }
    if (status != VP8_STATUS_OK) {
        set_message(message, status_text(status));
        return status_code(status);
    }
    return CCWEBP_OK;
}

void ccwebp_reader_close(ccwebp_reader *reader) {
    if (!reader) {
        return;
    }
    for (int i = 0; i < 3; i++) {
        free(reader->chunks[i]);
    }
    free(reader->data);
    free(reader);
}

static const char *encoding_error_text(WebPEncodingError error) {
    switch (error) {
    case VP8_ENC_ERROR_OUT_OF_MEMORY:
    case VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: return "out of memory";
    case VP8_ENC_ERROR_BAD_DIMENSION: return "the image is larger than WebP's 16383x16383 pixels";
    case VP8_ENC_ERROR_PARTITION0_OVERFLOW:
    case VP8_ENC_ERROR_PARTITION_OVERFLOW: return "the image is too large for a lossy WebP partition";
    case VP8_ENC_ERROR_FILE_TOO_BIG: return "the file would exceed WebP's 4 GB";
    default: return "libwebp's encoder failed";
    }
}

static int add_chunk(WebPMux *mux, const char *fourcc, ccwebp_chunk chunk) {
    if (!chunk.data || chunk.size == 0) {
        return 1;
    }
    WebPData data = {chunk.data, chunk.size};
    return WebPMuxSetChunk(mux, fourcc, &data, 1) == WEBP_MUX_OK;
}

static int write_bytes(const char *path, const uint8_t *bytes, size_t size, char *message) {
    FILE *file = fopen(path, "wb");
    if (!file) {
        set_message(message, strerror(errno));
        return CCWEBP_ERROR;
    }
    int written = fwrite(bytes, 1, size, file) == size;
    int error = errno;
    if (fclose(file) != 0 && written) {
        written = 0;
        error = errno;
    }
    if (!written) {
        set_message(message, strerror(error));
        return CCWEBP_ERROR;
    }
    return CCWEBP_OK;
}

int ccwebp_write(const char *path, const ccwebp_write_options *options, char *message) {
    WebPConfig config;
    if (!WebPConfigInit(&config)) {
        set_message(message, "libwebp version mismatch");
        return CCWEBP_ERROR;
    }
    config.thread_level = 0;
    if (options->lossless) {
        config.lossless = 1;
        config.exact = 1;
    } else {
        config.quality = (float)(options->quality < 1 ? 1 : options->quality > 100 ? 100 : options->quality);
    }
    if (!WebPValidateConfig(&config)) {
        set_message(message, "invalid encoder settings");
        return CCWEBP_ERROR;
    }
    WebPPicture picture;
    if (!WebPPictureInit(&picture)) {
        set_message(message, "libwebp version mismatch");
        return CCWEBP_ERROR;
    }
    picture.use_argb = options->lossless ? 1 : 0;
    picture.width = (int)options->width;
    picture.height = (int)options->height;
    WebPMemoryWriter memory;
    WebPMemoryWriterInit(&memory);
    picture.writer = WebPMemoryWrite;
    picture.custom_ptr = &memory;

    int stride = (int)options->width * options->channels;
    int imported = options->channels == 4 ? WebPPictureImportRGBA(&picture, options->pixels, stride)
                                          : WebPPictureImportRGB(&picture, options->pixels, stride);
    if (!imported || !WebPEncode(&config, &picture)) {
        set_message(message, imported ? encoding_error_text(picture.error_code) : "out of memory");
        WebPPictureFree(&picture);
        WebPMemoryWriterClear(&memory);
        return CCWEBP_ERROR;
    }
    WebPPictureFree(&picture);

    int status = CCWEBP_OK;
    if (options->icc.size == 0 && options->exif.size == 0 && options->xmp.size == 0) {
        status = write_bytes(path, memory.mem, memory.size, message);
    } else {
        WebPData bitstream = {memory.mem, memory.size};
        WebPMux *mux = WebPMuxCreate(&bitstream, 0);
        WebPData assembled = {NULL, 0};
        if (!mux || !add_chunk(mux, "ICCP", options->icc) || !add_chunk(mux, "EXIF", options->exif)
            || !add_chunk(mux, "XMP ", options->xmp) || WebPMuxAssemble(mux, &assembled) != WEBP_MUX_OK) {
            set_message(message, "libwebpmux could not add the metadata chunks");
            status = CCWEBP_ERROR;
        } else {
            status = write_bytes(path, assembled.bytes, assembled.size, message);
        }
        WebPDataClear(&assembled);
        WebPMuxDelete(mux);
    }
    WebPMemoryWriterClear(&memory);
    return status;
}
