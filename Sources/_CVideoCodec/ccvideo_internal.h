// What the files of _CVideoCodec share: FFmpeg's functions (a table filled by dlsym, so that
// nothing here is linked against libav*), the log sinks and the messages. Not part of the API.
#ifndef COLORCUBE_CCVIDEO_INTERNAL_H
#define COLORCUBE_CCVIDEO_INTERNAL_H

#include "ccvideo.h"

#include <stdarg.h>

// CCVIDEO_WITHOUT_FFMPEG builds the stubs even where the headers are (to check they compile).
#if !defined(CCVIDEO_WITHOUT_FFMPEG) && __has_include(<libavformat/avformat.h>) \
    && __has_include(<libavcodec/avcodec.h>) && __has_include(<libavutil/imgutils.h>) \
    && __has_include(<libswscale/swscale.h>) && __has_include(<libswresample/swresample.h>)
#define CCVIDEO_HAVE_FFMPEG 1
#endif

void ccvideo_set_message(char *message, size_t size, const char *format, ...);

#ifdef CCVIDEO_HAVE_FFMPEG

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/log.h>
#include <libavutil/mastering_display_metadata.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>

#define CCVIDEO_AVUTIL(X)                                                                                          \
    X(av_frame_alloc) X(av_frame_free) X(av_frame_unref) X(av_frame_get_buffer) X(av_frame_make_writable)          \
    X(av_image_copy_to_buffer) X(av_image_fill_arrays) X(av_image_copy) X(av_get_pix_fmt) X(av_get_pix_fmt_name)  \
    X(av_dict_set) X(av_dict_get) X(av_dict_free) X(av_dict_copy) X(av_strerror) X(av_log_set_callback)            \
    X(av_log_format_line2) X(av_malloc) X(av_mallocz) X(av_calloc) X(av_free) X(av_buffer_alloc) X(av_buffer_ref) \
    X(av_buffer_unref) X(av_buffer_is_writable) X(av_frame_get_side_data) X(av_display_rotation_get)               \
    X(av_image_check_size2) X(av_rescale_q) X(av_image_get_buffer_size) X(av_audio_fifo_alloc) X(av_audio_fifo_free)  \
    X(av_audio_fifo_write) X(av_audio_fifo_read) X(av_audio_fifo_size) X(av_channel_layout_copy)
#define CCVIDEO_AVCODEC(X)                                                                                         \
    X(avcodec_find_decoder) X(avcodec_find_encoder_by_name) X(avcodec_alloc_context3) X(avcodec_free_context)      \
    X(avcodec_parameters_to_context) X(avcodec_parameters_from_context) X(avcodec_parameters_copy) X(avcodec_open2) \
    X(avcodec_send_packet) X(avcodec_receive_frame) X(avcodec_send_frame) X(avcodec_receive_packet)              \
    X(av_packet_alloc) X(av_packet_free) X(av_packet_unref) X(av_packet_rescale_ts) X(av_packet_ref)              \
    X(avcodec_get_name) X(avcodec_profile_name) X(avcodec_decode_subtitle2) X(avcodec_encode_subtitle) X(avsubtitle_free) \
    X(av_new_packet)
#define CCVIDEO_AVFORMAT(X)                                                                                        \
    X(avformat_open_input) X(avformat_find_stream_info) X(avformat_close_input) X(av_read_frame)                   \
    X(avformat_alloc_output_context2) X(avformat_new_stream) X(avio_open) X(avio_closep) X(avformat_write_header)  \
    X(av_interleaved_write_frame) X(av_write_trailer) X(avformat_free_context) X(avformat_query_codec)            \
    X(av_stream_get_side_data) X(av_stream_new_side_data)

#define CCVIDEO_SWSCALE(X)                                                                                         \
    X(sws_getContext) X(sws_freeContext) X(sws_scale) X(sws_setColorspaceDetails) X(sws_getCoefficients)
#define CCVIDEO_SWRESAMPLE(X)                                                                                      \
    X(swr_alloc_set_opts2) X(swr_init) X(swr_free) X(swr_convert_frame)

#define CCVIDEO_DECLARE(name) __typeof__(&name) name;
typedef struct ccvideo_functions {
    CCVIDEO_AVUTIL(CCVIDEO_DECLARE)
    CCVIDEO_AVCODEC(CCVIDEO_DECLARE)
    CCVIDEO_AVFORMAT(CCVIDEO_DECLARE)
    CCVIDEO_SWSCALE(CCVIDEO_DECLARE)
    CCVIDEO_SWRESAMPLE(CCVIDEO_DECLARE)
} ccvideo_functions;
#undef CCVIDEO_DECLARE

/// FFmpeg's functions; filled once by `ccvideo_available`.
extern ccvideo_functions av;

/// What FFmpeg logged for one owner's contexts (a demuxer, a codec, a muxer): the last error,
/// the evidence beside a failing call's return code, and the warnings.
typedef struct ccvideo_log_sink {
    const void *contexts[4];
    char warnings[2048];
    char last_error[CCVIDEO_MESSAGE_SIZE];
    struct ccvideo_log_sink *next;
} ccvideo_log_sink;

void ccvideo_add_sink(ccvideo_log_sink *sink);
void ccvideo_remove_sink(ccvideo_log_sink *sink);

/// The reason for a failed call: the last error FFmpeg logged for the sink, else FFmpeg's text
/// for the code (av_strerror).
void ccvideo_failure(ccvideo_log_sink *sink, int code, char *message, size_t size);

/// The status for a failed call's code: CCVIDEO_NO_MEMORY for ENOMEM, else `otherwise`.
int ccvideo_status(int code, int otherwise);

/// A conversion of whole frames between pixel formats of one size (libswscale): planar YCbCr
/// repacked exactly, or between RGB and YCbCr with the clip's matrix and range.
typedef struct ccvideo_converter {
    struct SwsContext *context;
    enum AVPixelFormat from, to;
} ccvideo_converter;

/// Prepares `converter` from `from` to `to` (nothing to do when they are one format); `into_rgb`
/// picks the flags (chroma repeated on the way in, averaged on the way out). Returns 0 or an
/// AVERROR.
int ccvideo_converter_open(ccvideo_converter *converter, int width, int height, enum AVPixelFormat from,
                           enum AVPixelFormat to, int matrix, int full_range, int inward);
void ccvideo_converter_close(ccvideo_converter *converter);

/// Where the input's packets of streams other than the graded one go (ccvideo_output.c).
int ccvideo_output_copy_packet(ccvideo_output *output, AVPacket *packet, char *message, size_t message_size);

struct ccvideo_input {
    AVFormatContext *format;
    ccvideo_log_sink sink;
    int declared_width, declared_height;
};

struct ccvideo_decoder {
    ccvideo_input *input;
    AVCodecContext *codec;
    AVPacket *packet;
    AVFrame *frame;
    /// The first frame, decoded at opening (for its side data), handed out first.
    int primed;
    /// Packets of other streams read while priming, for the output.
    AVPacket **pending;
    int pending_count, pending_capacity;
    int stream;
    int width, height;
    enum AVPixelFormat pixel_format;
    int draining;
    /// The frames' format for the caller, and the conversion to it when it is not the decoder's.
    enum AVPixelFormat delivered_format;
    ccvideo_converter converter;
    ccvideo_log_sink sink;
    char warnings[4096];
    /// The latest end (timestamp plus duration, in seconds) of a packet read, once one had a timestamp.
    int has_reach;
    double reach;
};

#endif
#endif
