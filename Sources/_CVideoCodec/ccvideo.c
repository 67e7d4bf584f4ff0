// See include/ccvideo.h. FFmpeg's functions are reached through a table filled by dlsym, so
// that nothing here is linked against libav*: the binary starts without them.
#include "ccvideo.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// CCVIDEO_WITHOUT_FFMPEG builds the stubs even where the headers are (to check they compile).
#if !defined(CCVIDEO_WITHOUT_FFMPEG) && __has_include(<libavformat/avformat.h>) \
    && __has_include(<libavcodec/avcodec.h>) && __has_include(<libavutil/imgutils.h>)
#define CCVIDEO_HAVE_FFMPEG 1
#endif

static void set_message(char *message, size_t size, const char *format, ...) {
    if (message == NULL || size == 0) return;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(message, size, format, arguments);
    va_end(arguments);
}

#ifndef CCVIDEO_HAVE_FFMPEG

int ccvideo_available(char *message, size_t message_size) {
    set_message(message, message_size, "colorcube was built without FFmpeg's headers");
    return 0;
}
int ccvideo_encoder_formats(const char *name, char *out, size_t out_size) {
    (void)name;
    if (out_size > 0) out[0] = 0;
    return 0;
}
ccvideo_decoder *ccvideo_decoder_open(const char *path, int stream_index, int threads, ccvideo_stream_info *info,
                                      char *message, size_t message_size) {
    (void)path, (void)stream_index, (void)threads, (void)info;
    set_message(message, message_size, "colorcube was built without FFmpeg's headers");
    return NULL;
}
int ccvideo_decoder_next(ccvideo_decoder *decoder, uint8_t *frame, size_t frame_bytes, int64_t *pts,
                         char *message, size_t message_size) {
    (void)decoder, (void)frame, (void)frame_bytes, (void)pts;
    set_message(message, message_size, "colorcube was built without FFmpeg's headers");
    return -CCVIDEO_UNAVAILABLE;
}
const char *ccvideo_decoder_warnings(ccvideo_decoder *decoder) { (void)decoder; return ""; }
void ccvideo_decoder_close(ccvideo_decoder *decoder) { (void)decoder; }
ccvideo_encoder *ccvideo_encoder_open(const ccvideo_encoder_settings *settings, int descriptor, int *status,
                                      char *message, size_t message_size) {
    (void)settings, (void)descriptor;
    *status = CCVIDEO_UNAVAILABLE;
    set_message(message, message_size, "colorcube was built without FFmpeg's headers");
    return NULL;
}
uint8_t *ccvideo_encoder_buffer(ccvideo_encoder *encoder) { (void)encoder; return NULL; }
int ccvideo_encoder_send(ccvideo_encoder *encoder, int64_t pts, char *message, size_t message_size) {
    (void)encoder, (void)pts;
    set_message(message, message_size, "colorcube was built without FFmpeg's headers");
    return CCVIDEO_UNAVAILABLE;
}
int ccvideo_encoder_finish(ccvideo_encoder *encoder, char *message, size_t message_size) {
    (void)encoder;
    set_message(message, message_size, "colorcube was built without FFmpeg's headers");
    return CCVIDEO_UNAVAILABLE;
}
void ccvideo_encoder_close(ccvideo_encoder *encoder) { (void)encoder; }
int ccvideo_muxer_wants_global_header(const char *muxer) { (void)muxer; return 0; }

#else

#include <dlfcn.h>
#include <pthread.h>
#include <unistd.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>

// MARK: - The libraries, opened once

#define CCVIDEO_AVUTIL(X)                                                                                          \
    X(av_frame_alloc) X(av_frame_free) X(av_frame_unref) X(av_frame_get_buffer) X(av_frame_make_writable)          \
    X(av_image_copy_to_buffer) X(av_image_fill_arrays) X(av_image_copy) X(av_get_pix_fmt) X(av_get_pix_fmt_name)  \
    X(av_dict_set) X(av_dict_get) X(av_dict_free) X(av_strerror) X(av_log_set_callback) X(av_log_format_line2)     \
    X(av_malloc) X(av_free) X(av_buffer_alloc) X(av_buffer_ref) X(av_buffer_unref) X(av_buffer_is_writable)
#define CCVIDEO_AVCODEC(X)                                                                                         \
    X(avcodec_find_decoder) X(avcodec_find_encoder_by_name) X(avcodec_alloc_context3) X(avcodec_free_context)      \
    X(avcodec_parameters_to_context) X(avcodec_parameters_from_context) X(avcodec_open2) X(avcodec_send_packet)    \
    X(avcodec_receive_frame) X(avcodec_send_frame) X(avcodec_receive_packet) X(av_packet_alloc) X(av_packet_free) \
    X(av_packet_unref) X(av_packet_rescale_ts) X(av_codec_is_encoder)
#define CCVIDEO_AVFORMAT(X)                                                                                        \
    X(avformat_open_input) X(avformat_find_stream_info) X(avformat_close_input) X(av_read_frame)                   \
    X(avformat_alloc_output_context2) X(avformat_new_stream) X(avio_alloc_context) X(avio_context_free)            \
    X(avio_flush) X(avformat_write_header) X(av_write_frame) X(av_write_trailer) X(avformat_free_context)       \
    X(av_guess_format)

#define CCVIDEO_DECLARE(name) __typeof__(&name) name;
static struct {
    CCVIDEO_AVUTIL(CCVIDEO_DECLARE)
    CCVIDEO_AVCODEC(CCVIDEO_DECLARE)
    CCVIDEO_AVFORMAT(CCVIDEO_DECLARE)
} av;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded;
static char load_failure[CCVIDEO_MESSAGE_SIZE];

static void log_callback(void *context, int level, const char *format, va_list arguments);

#define CCVIDEO_SONAME(library, major) "lib" library ".so." AV_STRINGIFY(major)

static void load(void) {
    const char *names[3] = {
        CCVIDEO_SONAME("avutil", LIBAVUTIL_VERSION_MAJOR),
        CCVIDEO_SONAME("avcodec", LIBAVCODEC_VERSION_MAJOR),
        CCVIDEO_SONAME("avformat", LIBAVFORMAT_VERSION_MAJOR),
    };
    void *handles[3];
    for (int index = 0; index < 3; index++) {
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
    CCVIDEO_AVUTIL(CCVIDEO_RESOLVE_UTIL)
    CCVIDEO_AVCODEC(CCVIDEO_RESOLVE_CODEC)
    CCVIDEO_AVFORMAT(CCVIDEO_RESOLVE_FORMAT)
    av.av_log_set_callback(log_callback);
    loaded = 1;
}

int ccvideo_available(char *message, size_t message_size) {
    pthread_once(&load_once, load);
    if (!loaded) set_message(message, message_size, "%s", load_failure);
    return loaded;
}

// MARK: - What FFmpeg logs, kept per decoder or encoder

// FFmpeg logs through one process-wide callback. Lines are kept by whoever owns the context they
// were logged for (a decoder's demuxer or codec, an encoder's codec); lines of other contexts (a
// codec's worker threads have their own) go to the one sink open when there is only one, else
// nowhere. Nothing is printed: colorcube reports failures itself.
typedef struct log_sink {
    const void *contexts[2];
    char warnings[2048];
    char last_error[CCVIDEO_MESSAGE_SIZE];
    struct log_sink *next;
} log_sink;

static pthread_mutex_t sinks_lock = PTHREAD_MUTEX_INITIALIZER;
static log_sink *sinks;

static void add_sink(log_sink *sink) {
    pthread_mutex_lock(&sinks_lock);
    sink->next = sinks;
    sinks = sink;
    pthread_mutex_unlock(&sinks_lock);
}

static void remove_sink(log_sink *sink) {
    pthread_mutex_lock(&sinks_lock);
    for (log_sink **link = &sinks; *link != NULL; link = &(*link)->next) {
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
    log_sink *target = NULL;
    for (log_sink *sink = sinks; sink != NULL && target == NULL; sink = sink->next) {
        if (context != NULL && (sink->contexts[0] == context || sink->contexts[1] == context)) target = sink;
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
static void failure_message(log_sink *sink, int code, const char *doing, char *message, size_t size) {
    char text[256] = "";
    pthread_mutex_lock(&sinks_lock);
    if (sink != NULL && sink->last_error[0] != 0) snprintf(text, sizeof text, "%s", sink->last_error);
    pthread_mutex_unlock(&sinks_lock);
    if (text[0] == 0 && av.av_strerror(code, text, sizeof text) < 0) snprintf(text, sizeof text, "error %d", code);
    set_message(message, size, "%s%s", doing, text);
}

// MARK: - Encoders' formats, muxers' wishes

int ccvideo_muxer_wants_global_header(const char *muxer) {
    if (!ccvideo_available(NULL, 0)) return 0;
    const AVOutputFormat *format = av.av_guess_format(muxer, NULL, NULL);
    return format != NULL && (format->flags & AVFMT_GLOBALHEADER) != 0;
}

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

// MARK: - Decoding

struct ccvideo_decoder {
    AVFormatContext *format;
    AVCodecContext *codec;
    AVPacket *packet;
    AVFrame *frame;
    int stream;
    int width, height;
    enum AVPixelFormat pixel_format;
    int draining;
    log_sink sink;
};

void ccvideo_decoder_close(ccvideo_decoder *decoder) {
    if (decoder == NULL) return;
    remove_sink(&decoder->sink);
    av.av_frame_free(&decoder->frame);
    av.av_packet_free(&decoder->packet);
    av.avcodec_free_context(&decoder->codec);
    if (decoder->format != NULL) av.avformat_close_input(&decoder->format);
    free(decoder);
}

ccvideo_decoder *ccvideo_decoder_open(const char *path, int stream_index, int threads, ccvideo_stream_info *info,
                                      char *message, size_t message_size) {
    if (!ccvideo_available(message, message_size)) return NULL;
    ccvideo_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) {
        set_message(message, message_size, "out of memory");
        return NULL;
    }
    add_sink(&decoder->sink);
    int status = av.avformat_open_input(&decoder->format, path, NULL, NULL);
    if (status < 0) {
        failure_message(&decoder->sink, status, "", message, message_size);
        ccvideo_decoder_close(decoder);
        return NULL;
    }
    decoder->sink.contexts[0] = decoder->format;
    status = av.avformat_find_stream_info(decoder->format, NULL);
    if (status < 0) {
        failure_message(&decoder->sink, status, "", message, message_size);
        ccvideo_decoder_close(decoder);
        return NULL;
    }
    if (stream_index < 0 || (unsigned)stream_index >= decoder->format->nb_streams
        || decoder->format->streams[stream_index]->codecpar->codec_type != AVMEDIA_TYPE_VIDEO) {
        set_message(message, message_size, "stream %d is not a video stream", stream_index);
        ccvideo_decoder_close(decoder);
        return NULL;
    }
    for (unsigned index = 0; index < decoder->format->nb_streams; index++) {
        if ((int)index != stream_index) decoder->format->streams[index]->discard = AVDISCARD_ALL;
    }
    AVStream *stream = decoder->format->streams[stream_index];
    const AVCodec *codec = av.avcodec_find_decoder(stream->codecpar->codec_id);
    decoder->codec = codec != NULL ? av.avcodec_alloc_context3(codec) : NULL;
    decoder->packet = av.av_packet_alloc();
    decoder->frame = av.av_frame_alloc();
    if (codec == NULL || decoder->codec == NULL || decoder->packet == NULL || decoder->frame == NULL) {
        set_message(message, message_size, codec == NULL ? "no decoder for its video stream" : "out of memory");
        ccvideo_decoder_close(decoder);
        return NULL;
    }
    decoder->sink.contexts[1] = decoder->codec;
    status = av.avcodec_parameters_to_context(decoder->codec, stream->codecpar);
    if (status >= 0) {
        decoder->codec->pkt_timebase = stream->time_base;
        decoder->codec->thread_count = threads;
        status = av.avcodec_open2(decoder->codec, codec, NULL);
    }
    if (status < 0) {
        failure_message(&decoder->sink, status, "", message, message_size);
        ccvideo_decoder_close(decoder);
        return NULL;
    }
    decoder->stream = stream_index;
    decoder->width = decoder->codec->width;
    decoder->height = decoder->codec->height;
    decoder->pixel_format = decoder->codec->pix_fmt;
    memset(info, 0, sizeof *info);
    info->width = decoder->width;
    info->height = decoder->height;
    const char *format_name = av.av_get_pix_fmt_name(decoder->pixel_format);
    snprintf(info->pixel_format, sizeof info->pixel_format, "%s", format_name != NULL ? format_name : "none");
    info->time_base_num = stream->time_base.num;
    info->time_base_den = stream->time_base.den;
    AVRational rate = stream->avg_frame_rate.num > 0 ? stream->avg_frame_rate : stream->r_frame_rate;
    info->frame_rate_num = rate.num > 0 ? rate.num : 0;
    info->frame_rate_den = rate.num > 0 ? rate.den : 1;
    AVRational aspect = stream->sample_aspect_ratio.num > 0 ? stream->sample_aspect_ratio : stream->codecpar->sample_aspect_ratio;
    info->aspect_num = aspect.num > 0 ? aspect.num : 0;
    info->aspect_den = aspect.num > 0 ? aspect.den : 1;
    info->chroma_location = stream->codecpar->chroma_location;
    info->field_order = stream->codecpar->field_order;
    return decoder;
}

int ccvideo_decoder_next(ccvideo_decoder *decoder, uint8_t *frame, size_t frame_bytes, int64_t *pts,
                         char *message, size_t message_size) {
    for (;;) {
        int status = av.avcodec_receive_frame(decoder->codec, decoder->frame);
        if (status == 0) {
            AVFrame *decoded = decoder->frame;
            if (decoded->decode_error_flags != 0 || (decoded->flags & AV_FRAME_FLAG_CORRUPT)) {
                av.av_frame_unref(decoded);
                set_message(message, message_size, "corrupt decoded frame in stream %d", decoder->stream);
                return -CCVIDEO_DECODE_FAILED;
            }
            if (decoded->width != decoder->width || decoded->height != decoder->height
                || decoded->format != decoder->pixel_format) {
                const char *name = av.av_get_pix_fmt_name(decoded->format);
                set_message(message, message_size, "a frame of %dx%d %s in a stream of %dx%d %s", decoded->width,
                            decoded->height, name != NULL ? name : "none", decoder->width, decoder->height,
                            av.av_get_pix_fmt_name(decoder->pixel_format));
                av.av_frame_unref(decoded);
                return -CCVIDEO_FORMAT_CHANGED;
            }
            int copied = av.av_image_copy_to_buffer(frame, (int)frame_bytes, (const uint8_t *const *)decoded->data,
                                                    decoded->linesize, (enum AVPixelFormat)decoded->format, decoded->width,
                                                    decoded->height, 1);
            *pts = decoded->best_effort_timestamp == AV_NOPTS_VALUE ? INT64_MIN : decoded->best_effort_timestamp;
            av.av_frame_unref(decoded);
            if (copied < 0 || (size_t)copied != frame_bytes) {
                set_message(message, message_size, "a frame of %d bytes where %zu were expected", copied, frame_bytes);
                return -CCVIDEO_FORMAT_CHANGED;
            }
            return 1;
        }
        if (status == AVERROR_EOF) return 0;
        if (status != AVERROR(EAGAIN)) {
            failure_message(&decoder->sink, status, "", message, message_size);
            return -CCVIDEO_DECODE_FAILED;
        }
        if (decoder->draining) return 0;
        status = av.av_read_frame(decoder->format, decoder->packet);
        if (status == AVERROR_EOF) {
            decoder->draining = 1;
            status = av.avcodec_send_packet(decoder->codec, NULL);
        } else if (status < 0) {
            failure_message(&decoder->sink, status, "", message, message_size);
            return -CCVIDEO_DECODE_FAILED;
        } else if (decoder->packet->stream_index != decoder->stream) {
            av.av_packet_unref(decoder->packet);
            continue;
        } else {
            status = av.avcodec_send_packet(decoder->codec, decoder->packet);
            av.av_packet_unref(decoder->packet);
        }
        if (status < 0 && status != AVERROR_EOF) {
            failure_message(&decoder->sink, status, "", message, message_size);
            return -CCVIDEO_DECODE_FAILED;
        }
    }
}

const char *ccvideo_decoder_warnings(ccvideo_decoder *decoder) {
    return decoder->sink.warnings;
}

// MARK: - Encoding into NUT

struct ccvideo_encoder {
    AVCodecContext *codec;
    AVFormatContext *muxer;
    AVIOContext *io;
    AVFrame *frame;
    AVPacket *packet;
    /// The packed frame the caller fills (`ccvideo_encoder_buffer`); handed to the encoder as it
    /// is when its planes and rows fall on 32-byte boundaries, else copied into `frame`'s.
    AVBufferRef *staging;
    size_t frame_bytes;
    int wraps_staging;
    int descriptor;
    int write_error;
    log_sink sink;
};

#if LIBAVFORMAT_VERSION_MAJOR >= 61
static int write_bytes(void *opaque, const uint8_t *bytes, int count) {
#else
static int write_bytes(void *opaque, uint8_t *bytes, int count) {
#endif
    ccvideo_encoder *encoder = opaque;
    int done = 0;
    while (done < count) {
        ssize_t written = write(encoder->descriptor, bytes + done, (size_t)(count - done));
        if (written < 0) {
            if (errno == EINTR) continue;
            encoder->write_error = errno;
            return AVERROR(errno);
        }
        done += (int)written;
    }
    return count;
}

void ccvideo_encoder_close(ccvideo_encoder *encoder) {
    if (encoder == NULL) return;
    remove_sink(&encoder->sink);
    av.av_frame_free(&encoder->frame);
    av.av_packet_free(&encoder->packet);
    av.av_buffer_unref(&encoder->staging);
    av.avcodec_free_context(&encoder->codec);
    if (encoder->muxer != NULL) av.avformat_free_context(encoder->muxer);
    if (encoder->io != NULL) {
        av.av_free(encoder->io->buffer);
        av.avio_context_free(&encoder->io);
    }
    free(encoder);
}

/// A failed call's status: a write that failed is reported as such, else `status`.
static int classify(ccvideo_encoder *encoder, int status, int code, const char *doing, char *message,
                    size_t message_size) {
    if (encoder->write_error != 0) {
        set_message(message, message_size, "%s", strerror(encoder->write_error));
        return CCVIDEO_WRITE_FAILED;
    }
    failure_message(&encoder->sink, code, doing, message, message_size);
    return status;
}

ccvideo_encoder *ccvideo_encoder_open(const ccvideo_encoder_settings *settings, int descriptor, int *status,
                                      char *message, size_t message_size) {
    *status = CCVIDEO_UNAVAILABLE;
    if (!ccvideo_available(message, message_size)) return NULL;
    *status = CCVIDEO_NO_MEMORY;
    ccvideo_encoder *encoder = calloc(1, sizeof *encoder);
    if (encoder == NULL) {
        set_message(message, message_size, "out of memory");
        return NULL;
    }
    encoder->descriptor = descriptor;
    add_sink(&encoder->sink);
    const AVCodec *codec = av.avcodec_find_encoder_by_name(settings->encoder);
    enum AVPixelFormat pixel_format = av.av_get_pix_fmt(settings->pixel_format);
    if (codec == NULL || pixel_format == AV_PIX_FMT_NONE) {
        *status = CCVIDEO_ENCODE_FAILED;
        set_message(message, message_size, codec == NULL ? "no encoder %s" : "no pixel format %s",
                    codec == NULL ? settings->encoder : settings->pixel_format);
        ccvideo_encoder_close(encoder);
        return NULL;
    }
    encoder->codec = av.avcodec_alloc_context3(codec);
    encoder->frame = av.av_frame_alloc();
    encoder->packet = av.av_packet_alloc();
    if (encoder->codec == NULL || encoder->frame == NULL || encoder->packet == NULL) {
        set_message(message, message_size, "out of memory");
        ccvideo_encoder_close(encoder);
        return NULL;
    }
    encoder->sink.contexts[0] = encoder->codec;
    AVCodecContext *context = encoder->codec;
    const ccvideo_stream_info *stream_info = &settings->stream;
    context->width = stream_info->width;
    context->height = stream_info->height;
    context->pix_fmt = pixel_format;
    context->time_base = (AVRational){stream_info->time_base_num, stream_info->time_base_den};
    if (stream_info->frame_rate_num > 0) {
        context->framerate = (AVRational){stream_info->frame_rate_num, stream_info->frame_rate_den};
    }
    if (stream_info->aspect_num > 0) {
        context->sample_aspect_ratio = (AVRational){stream_info->aspect_num, stream_info->aspect_den};
    }
    context->chroma_sample_location = stream_info->chroma_location;
    context->field_order = stream_info->field_order;
    context->thread_count = settings->threads;
    if (settings->global_header) context->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;

    AVDictionary *options = NULL;
    for (int index = 0; index < settings->option_count; index++) {
        av.av_dict_set(&options, settings->option_names[index], settings->option_values[index], 0);
    }
    int code = av.avcodec_open2(context, codec, &options);
    const AVDictionaryEntry *unused = av.av_dict_get(options, "", NULL, AV_DICT_IGNORE_SUFFIX);
    if (code >= 0 && unused != NULL) {
        *status = CCVIDEO_UNKNOWN_OPTION;
        set_message(message, message_size, "%s has no option %s", settings->encoder, unused->key);
        av.av_dict_free(&options);
        ccvideo_encoder_close(encoder);
        return NULL;
    }
    av.av_dict_free(&options);
    if (code < 0) {
        *status = CCVIDEO_ENCODE_FAILED;
        failure_message(&encoder->sink, code, "", message, message_size);
        ccvideo_encoder_close(encoder);
        return NULL;
    }

    // Packed frames can go to the encoder without a copy when every plane and row starts on a
    // 32-byte boundary, as FFmpeg's own frames do (some encoders' vector loops assume it).
    uint8_t *planes[4] = {0};
    int strides[4] = {0};
    uint8_t *const aligned_base = (uint8_t *)(uintptr_t)64;
    int bytes = av.av_image_fill_arrays(planes, strides, aligned_base, pixel_format, context->width, context->height, 1);
    if (bytes <= 0) {
        *status = CCVIDEO_ENCODE_FAILED;
        set_message(message, message_size, "no frame of %dx%d %s", context->width, context->height, settings->pixel_format);
        ccvideo_encoder_close(encoder);
        return NULL;
    }
    encoder->frame_bytes = (size_t)bytes;
    encoder->wraps_staging = 1;
    for (int plane = 0; plane < 4; plane++) {
        if (planes[plane] != NULL && (((uintptr_t)planes[plane] % 32) != 0 || strides[plane] % 32 != 0)) encoder->wraps_staging = 0;
    }
    if (!encoder->wraps_staging) {
        encoder->frame->format = pixel_format;
        encoder->frame->width = context->width;
        encoder->frame->height = context->height;
        if (av.av_frame_get_buffer(encoder->frame, 0) < 0) {
            set_message(message, message_size, "out of memory");
            ccvideo_encoder_close(encoder);
            return NULL;
        }
    }

    code = av.avformat_alloc_output_context2(&encoder->muxer, NULL, "nut", NULL);
    const int buffer_size = 1 << 16;
    uint8_t *buffer = code >= 0 ? av.av_malloc(buffer_size) : NULL;
    encoder->io = buffer != NULL ? av.avio_alloc_context(buffer, buffer_size, 1, encoder, NULL, write_bytes, NULL) : NULL;
    if (encoder->io == NULL) {
        if (buffer != NULL) av.av_free(buffer);
        set_message(message, message_size, "out of memory");
        ccvideo_encoder_close(encoder);
        return NULL;
    }
    encoder->muxer->pb = encoder->io;
    encoder->muxer->flags |= AVFMT_FLAG_CUSTOM_IO;
    encoder->sink.contexts[1] = encoder->muxer;
    AVStream *stream = av.avformat_new_stream(encoder->muxer, NULL);
    if (stream == NULL || av.avcodec_parameters_from_context(stream->codecpar, context) < 0) {
        set_message(message, message_size, "out of memory");
        ccvideo_encoder_close(encoder);
        return NULL;
    }
    stream->time_base = context->time_base;
    stream->avg_frame_rate = context->framerate;
    stream->sample_aspect_ratio = context->sample_aspect_ratio;
    AVDictionary *muxer_options = NULL;
    av.av_dict_set(&muxer_options, "write_index", "0", 0);
    // The source's timestamps as they are: an encoder with B-frames hands out its first packets
    // with decoding times before the first frame's (below 0 for a clip starting at 0), and
    // libavformat would shift the whole stream later to make them non-negative, out of step
    // with the audio. NUT stores presentation times only, which stay the frames' own.
    av.av_dict_set(&muxer_options, "avoid_negative_ts", "disabled", 0);
    code = av.avformat_write_header(encoder->muxer, &muxer_options);
    av.av_dict_free(&muxer_options);
    if (code < 0) {
        *status = classify(encoder, CCVIDEO_ENCODE_FAILED, code, "", message, message_size);
        ccvideo_encoder_close(encoder);
        return NULL;
    }
    *status = CCVIDEO_OK;
    return encoder;
}

/// Writes every packet the encoder has ready. Returns CCVIDEO_OK, or a failure.
static int drain(ccvideo_encoder *encoder, char *message, size_t message_size) {
    for (;;) {
        int code = av.avcodec_receive_packet(encoder->codec, encoder->packet);
        if (code == AVERROR(EAGAIN) || code == AVERROR_EOF) return CCVIDEO_OK;
        if (code < 0) return classify(encoder, CCVIDEO_ENCODE_FAILED, code, "", message, message_size);
        encoder->packet->stream_index = 0;
        av.av_packet_rescale_ts(encoder->packet, encoder->codec->time_base, encoder->muxer->streams[0]->time_base);
        code = av.av_write_frame(encoder->muxer, encoder->packet);
        av.av_packet_unref(encoder->packet);
        if (code < 0) return classify(encoder, CCVIDEO_WRITE_FAILED, code, "", message, message_size);
    }
}

uint8_t *ccvideo_encoder_buffer(ccvideo_encoder *encoder) {
    // The encoder may still hold the last frame (a frame-threaded one does): then a new buffer.
    if (encoder->staging == NULL || !av.av_buffer_is_writable(encoder->staging)) {
        av.av_buffer_unref(&encoder->staging);
        encoder->staging = av.av_buffer_alloc(encoder->frame_bytes + 64);
        if (encoder->staging == NULL) return NULL;
    }
    return encoder->staging->data;
}

int ccvideo_encoder_send(ccvideo_encoder *encoder, int64_t pts, char *message, size_t message_size) {
    AVFrame *picture = encoder->frame;
    if (encoder->staging == NULL) {
        set_message(message, message_size, "no frame to send");
        return CCVIDEO_ENCODE_FAILED;
    }
    const enum AVPixelFormat format = encoder->codec->pix_fmt;
    const int width = encoder->codec->width, height = encoder->codec->height;
    if (encoder->wraps_staging) {
        picture->format = format;
        picture->width = width;
        picture->height = height;
        picture->buf[0] = av.av_buffer_ref(encoder->staging);
        if (picture->buf[0] == NULL) {
            set_message(message, message_size, "out of memory");
            return CCVIDEO_NO_MEMORY;
        }
        av.av_image_fill_arrays(picture->data, picture->linesize, encoder->staging->data, format, width, height, 1);
    } else {
        if (av.av_frame_make_writable(picture) < 0) {
            set_message(message, message_size, "out of memory");
            return CCVIDEO_NO_MEMORY;
        }
        uint8_t *planes[4];
        int strides[4];
        av.av_image_fill_arrays(planes, strides, encoder->staging->data, format, width, height, 1);
        av.av_image_copy(picture->data, picture->linesize, (const uint8_t **)planes, strides, format, width, height);
    }
    picture->pts = pts;
    picture->pict_type = AV_PICTURE_TYPE_NONE;
    int code = av.avcodec_send_frame(encoder->codec, picture);
    if (encoder->wraps_staging) av.av_frame_unref(picture);
    if (code < 0) return classify(encoder, CCVIDEO_ENCODE_FAILED, code, "", message, message_size);
    return drain(encoder, message, message_size);
}

int ccvideo_encoder_finish(ccvideo_encoder *encoder, char *message, size_t message_size) {
    int code = av.avcodec_send_frame(encoder->codec, NULL);
    if (code < 0 && code != AVERROR_EOF) {
        return classify(encoder, CCVIDEO_ENCODE_FAILED, code, "", message, message_size);
    }
    int status = drain(encoder, message, message_size);
    if (status != CCVIDEO_OK) return status;
    code = av.av_write_trailer(encoder->muxer);
    if (code >= 0) av.avio_flush(encoder->io);
    if (code < 0 || encoder->write_error != 0) {
        return classify(encoder, CCVIDEO_WRITE_FAILED, code, "", message, message_size);
    }
    return CCVIDEO_OK;
}

#endif
