// See include/ccvideo.h: the libraries opened once, what FFmpeg logs, the messages. The clip's
// input is ccvideo_input.c, the output ccvideo_output.c.
#include "ccvideo_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ccvideo_set_message(char *message, size_t size, const char *format, ...) {
    if (message == NULL || size == 0) return;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(message, size, format, arguments);
    va_end(arguments);
}

#ifndef CCVIDEO_HAVE_FFMPEG

static const char *const unavailable = "colorcube was built without FFmpeg's headers";

int ccvideo_available(char *message, size_t message_size) {
    ccvideo_set_message(message, message_size, "%s", unavailable);
    return 0;
}
int ccvideo_encoder_formats(const char *name, char *out, size_t out_size) {
    (void)name;
    if (out_size > 0) out[0] = 0;
    return 0;
}
ccvideo_input *ccvideo_input_open(const char *path, int *status, char *message, size_t message_size) {
    (void)path;
    *status = CCVIDEO_UNAVAILABLE;
    ccvideo_set_message(message, message_size, "%s", unavailable);
    return NULL;
}
void ccvideo_input_close(ccvideo_input *input) { (void)input; }
int ccvideo_input_find_streams(ccvideo_input *input, char *message, size_t message_size) {
    (void)input;
    ccvideo_set_message(message, message_size, "%s", unavailable);
    return CCVIDEO_UNAVAILABLE;
}
int ccvideo_input_declared_size(ccvideo_input *input, int *width, int *height) {
    (void)input;
    *width = 0, *height = 0;
    return 0;
}
const char *ccvideo_input_format_name(ccvideo_input *input) { (void)input; return ""; }
double ccvideo_input_duration(ccvideo_input *input) { (void)input; return -1; }
int ccvideo_input_stream_count(ccvideo_input *input) { (void)input; return 0; }
int ccvideo_input_stream(ccvideo_input *input, int index, ccvideo_stream_probe *probe) {
    (void)input, (void)index, (void)probe;
    return 0;
}
const char *ccvideo_input_tag(ccvideo_input *input, const char *key) { (void)input, (void)key; return NULL; }
ccvideo_decoder *ccvideo_decoder_open(ccvideo_input *input, int stream_index, int threads, ccvideo_stream_info *info,
                                      int *status, char *message, size_t message_size) {
    (void)input, (void)stream_index, (void)threads, (void)info;
    *status = CCVIDEO_UNAVAILABLE;
    ccvideo_set_message(message, message_size, "%s", unavailable);
    return NULL;
}
void ccvideo_decoder_hdr(ccvideo_decoder *decoder, ccvideo_hdr_info *hdr) { (void)decoder, (void)hdr; }
int ccvideo_decoder_deliver(ccvideo_decoder *decoder, const char *pixel_format, int matrix, int full_range,
                            char *message, size_t message_size) {
    (void)decoder, (void)pixel_format, (void)matrix, (void)full_range;
    ccvideo_set_message(message, message_size, "%s", unavailable);
    return CCVIDEO_UNAVAILABLE;
}
int ccvideo_decoder_next(ccvideo_decoder *decoder, ccvideo_output *output, uint8_t *frame, size_t frame_bytes,
                         int64_t *pts, int64_t *duration, char *message, size_t message_size) {
    (void)decoder, (void)output, (void)frame, (void)frame_bytes, (void)pts, (void)duration;
    ccvideo_set_message(message, message_size, "%s", unavailable);
    return -CCVIDEO_UNAVAILABLE;
}
int ccvideo_decoder_reach(ccvideo_decoder *decoder, double *reached, double *declared) {
    (void)decoder, (void)reached, (void)declared;
    return 0;
}
const char *ccvideo_decoder_warnings(ccvideo_decoder *decoder) { (void)decoder; return ""; }
void ccvideo_decoder_close(ccvideo_decoder *decoder) { (void)decoder; }
ccvideo_output *ccvideo_output_open(ccvideo_decoder *decoder, const char *path, const char *muxer,
                                    const int *actions, const char *const *encoders, const int64_t *bit_rates,
                                    int action_count, const ccvideo_encoder_settings *settings, int hdr_metadata,
                                    int *status, char *message, size_t message_size) {
    (void)decoder, (void)path, (void)muxer, (void)actions, (void)encoders, (void)bit_rates, (void)action_count;
    (void)settings, (void)hdr_metadata;
    *status = CCVIDEO_UNAVAILABLE;
    ccvideo_set_message(message, message_size, "%s", unavailable);
    return NULL;
}
uint8_t *ccvideo_output_buffer(ccvideo_output *output) { (void)output; return NULL; }
int ccvideo_output_send(ccvideo_output *output, int64_t pts, int64_t duration, char *message, size_t message_size) {
    (void)output, (void)pts, (void)duration;
    ccvideo_set_message(message, message_size, "%s", unavailable);
    return CCVIDEO_UNAVAILABLE;
}
int ccvideo_output_finish(ccvideo_output *output, char *message, size_t message_size) {
    (void)output;
    ccvideo_set_message(message, message_size, "%s", unavailable);
    return CCVIDEO_UNAVAILABLE;
}
void ccvideo_output_close(ccvideo_output *output) { (void)output; }

#else

#include <dlfcn.h>
#include <pthread.h>
#include <unistd.h>


// MARK: - The libraries, opened once

ccvideo_functions av;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded;
static char load_failure[CCVIDEO_MESSAGE_SIZE];

static void log_callback(void *context, int level, const char *format, va_list arguments);

#define CCVIDEO_SONAME(library, major) "lib" library ".so." AV_STRINGIFY(major)

static void load(void) {
    const char *names[5] = {
        CCVIDEO_SONAME("avutil", LIBAVUTIL_VERSION_MAJOR),
        CCVIDEO_SONAME("avcodec", LIBAVCODEC_VERSION_MAJOR),
        CCVIDEO_SONAME("avformat", LIBAVFORMAT_VERSION_MAJOR),
        CCVIDEO_SONAME("swscale", LIBSWSCALE_VERSION_MAJOR),
        CCVIDEO_SONAME("swresample", LIBSWRESAMPLE_VERSION_MAJOR),
    };
    void *handles[5];
    for (int index = 0; index < 5; index++) {
        handles[index] = dlopen(names[index], RTLD_NOW | RTLD_LOCAL);
        if (handles[index] == NULL) {
            snprintf(load_failure, sizeof load_failure, "%s is not installed", names[index]);
            return;
        }
    }
#define CCVIDEO_RESOLVE(handle, name)                                                                             \
    if ((*(void **)&av.name = dlsym(handles[handle], #name)) == NULL) {                                           \
        snprintf(load_failure, sizeof load_failure, "%s has no %s", names[handle], #name);                         \
        return;                                                                                                    \
    }
#define CCVIDEO_RESOLVE_UTIL(name) CCVIDEO_RESOLVE(0, name)
#define CCVIDEO_RESOLVE_CODEC(name) CCVIDEO_RESOLVE(1, name)
#define CCVIDEO_RESOLVE_FORMAT(name) CCVIDEO_RESOLVE(2, name)
#define CCVIDEO_RESOLVE_SCALE(name) CCVIDEO_RESOLVE(3, name)
#define CCVIDEO_RESOLVE_RESAMPLE(name) CCVIDEO_RESOLVE(4, name)
    CCVIDEO_AVUTIL(CCVIDEO_RESOLVE_UTIL)
    CCVIDEO_AVCODEC(CCVIDEO_RESOLVE_CODEC)
    CCVIDEO_AVFORMAT(CCVIDEO_RESOLVE_FORMAT)
    CCVIDEO_SWSCALE(CCVIDEO_RESOLVE_SCALE)
    CCVIDEO_SWRESAMPLE(CCVIDEO_RESOLVE_RESAMPLE)
    av.av_log_set_callback(log_callback);
    loaded = 1;
}

int ccvideo_available(char *message, size_t message_size) {
    pthread_once(&load_once, load);
    if (!loaded) ccvideo_set_message(message, message_size, "%s", load_failure);
    return loaded;
}

// MARK: - What FFmpeg logs, kept per owner

// FFmpeg logs through one process-wide callback. Lines are kept by whoever owns the context they
// were logged for (the input's demuxer, the decoder, the encoder, the muxer); lines of other contexts (a
// codec's worker threads have their own) go to the one sink open when there is only one, else
// nowhere. Nothing is printed: colorcube reports failures itself.
static pthread_mutex_t sinks_lock = PTHREAD_MUTEX_INITIALIZER;
static ccvideo_log_sink *sinks;

void ccvideo_add_sink(ccvideo_log_sink *sink) {
    pthread_mutex_lock(&sinks_lock);
    sink->next = sinks;
    sinks = sink;
    pthread_mutex_unlock(&sinks_lock);
}

void ccvideo_remove_sink(ccvideo_log_sink *sink) {
    pthread_mutex_lock(&sinks_lock);
    for (ccvideo_log_sink **link = &sinks; *link != NULL; link = &(*link)->next) {
        if (*link == sink) {
            *link = sink->next;
            break;
        }
    }
    pthread_mutex_unlock(&sinks_lock);
}

static void log_callback(void *context, int level, const char *format, va_list arguments) {
    if (level > AV_LOG_WARNING) return;
    char line[CCVIDEO_MESSAGE_SIZE];
    int prefix = 0;
    va_list copy;
    va_copy(copy, arguments);
    av.av_log_format_line2(NULL, level, format, copy, line, sizeof line, &prefix);
    va_end(copy);
    size_t length = strlen(line);
    while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r')) line[--length] = 0;
    if (length == 0) return;
    pthread_mutex_lock(&sinks_lock);
    ccvideo_log_sink *target = NULL;
    for (ccvideo_log_sink *sink = sinks; sink != NULL && target == NULL; sink = sink->next) {
        for (int index = 0; index < 4 && context != NULL; index++) {
            if (sink->contexts[index] == context) target = sink;
        }
    }
    if (target == NULL && sinks != NULL && sinks->next == NULL) target = sinks;
    if (target != NULL) {
        if (level <= AV_LOG_ERROR) snprintf(target->last_error, sizeof target->last_error, "%s", line);
        size_t used = strlen(target->warnings);
        if (used + length + 2 < sizeof target->warnings) {
            memcpy(target->warnings + used, line, length);
            target->warnings[used + length] = '\n';
            target->warnings[used + length + 1] = 0;
        }
    }
    pthread_mutex_unlock(&sinks_lock);
}

/// The reason for a failed call: the last error FFmpeg logged for the sink, else FFmpeg's text
/// for the code.
void ccvideo_failure(ccvideo_log_sink *sink, int code, char *message, size_t size) {
    char text[256] = "";
    pthread_mutex_lock(&sinks_lock);
    if (sink != NULL && sink->last_error[0] != 0) snprintf(text, sizeof text, "%s", sink->last_error);
    pthread_mutex_unlock(&sinks_lock);
    if (text[0] == 0 && av.av_strerror(code, text, sizeof text) < 0) snprintf(text, sizeof text, "error %d", code);
    ccvideo_set_message(message, size, "%s", text);
}

// MARK: - Converting frames

static int is_yuvj(enum AVPixelFormat format) {
    return format == AV_PIX_FMT_YUVJ420P || format == AV_PIX_FMT_YUVJ422P || format == AV_PIX_FMT_YUVJ444P
        || format == AV_PIX_FMT_YUVJ440P || format == AV_PIX_FMT_YUVJ411P;
}

int ccvideo_converter_open(ccvideo_converter *converter, int width, int height, enum AVPixelFormat from,
                           enum AVPixelFormat to, int matrix, int full_range, int inward) {
    converter->from = from;
    converter->to = to;
    converter->context = NULL;
    if (from == to) return 0;
    // Inward: chroma repeated over its block (neighbour), outward: averaged over it (area); the
    // two undo each other. Rounded, not truncated.
    int flags = inward ? SWS_POINT | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT | SWS_FULL_CHR_H_INP
                       : SWS_AREA | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT;
    converter->context = av.sws_getContext(width, height, from, width, height, to, flags, NULL, NULL, NULL);
    if (converter->context == NULL) return AVERROR(EINVAL);
    // The deprecated yuvj formats are full range whatever the clip says.
    int from_full = full_range || is_yuvj(from), to_full = full_range || is_yuvj(to);
    const int *coefficients = av.sws_getCoefficients(matrix);
    av.sws_setColorspaceDetails(converter->context, coefficients, from_full, coefficients, to_full, 0, 1 << 16, 1 << 16);
    return 0;
}

void ccvideo_converter_close(ccvideo_converter *converter) {
    if (converter->context != NULL) av.sws_freeContext(converter->context);
    converter->context = NULL;
}

int ccvideo_status(int code, int otherwise) {
    return code == AVERROR(ENOMEM) ? CCVIDEO_NO_MEMORY : otherwise;
}

// MARK: - Encoders' formats

int ccvideo_encoder_formats(const char *name, char *out, size_t out_size) {
    if (out_size > 0) out[0] = 0;
    if (!ccvideo_available(NULL, 0)) return 0;
    const AVCodec *codec = av.avcodec_find_encoder_by_name(name);
    if (codec == NULL || codec->type != AVMEDIA_TYPE_VIDEO) return 0;
    size_t used = 0;
    for (const enum AVPixelFormat *format = codec->pix_fmts; format != NULL && *format != AV_PIX_FMT_NONE; format++) {
        const char *format_name = av.av_get_pix_fmt_name(*format);
        if (format_name == NULL) continue;
        int written = snprintf(out + used, out_size - used, used == 0 ? "%s" : " %s", format_name);
        if (written < 0 || (size_t)written >= out_size - used) break;
        used += (size_t)written;
    }
    return 1;
}
#endif
