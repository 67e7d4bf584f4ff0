// See include/ccvideo.h: a clip opened and described, and its video stream decoded.
#include "ccvideo_internal.h"

#ifdef CCVIDEO_HAVE_FFMPEG

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// MARK: - Opening and describing

void ccvideo_input_close(ccvideo_input *input) {
    if (input == NULL) return;
    ccvideo_remove_sink(&input->sink);
    if (input->format != NULL) av.avformat_close_input(&input->format);
    free(input);
}

static AVStream *first_video(AVFormatContext *format) {
    for (unsigned index = 0; index < format->nb_streams; index++) {
        AVStream *stream = format->streams[index];
        if (stream->codecpar->codec_type == AVMEDIA_TYPE_VIDEO && !(stream->disposition & AV_DISPOSITION_ATTACHED_PIC)) {
            return stream;
        }
    }
    return NULL;
}

ccvideo_input *ccvideo_input_open(const char *path, int *status, char *message, size_t message_size) {
    *status = CCVIDEO_UNAVAILABLE;
    if (!ccvideo_available(message, message_size)) return NULL;
    *status = CCVIDEO_NO_MEMORY;
    ccvideo_input *input = calloc(1, sizeof *input);
    if (input == NULL) {
        ccvideo_set_message(message, message_size, "out of memory");
        return NULL;
    }
    ccvideo_add_sink(&input->sink);
    int code = av.avformat_open_input(&input->format, path, NULL, NULL);
    if (code < 0) {
        *status = ccvideo_status(code, CCVIDEO_UNREADABLE);
        ccvideo_failure(&input->sink, code, message, message_size);
        ccvideo_input_close(input);
        return NULL;
    }
    input->sink.contexts[0] = input->format;
    // The size the headers declare, before FFmpeg decodes anything to probe the streams: a
    // decoder that refuses frames of that size leaves the stream without one.
    AVStream *video = first_video(input->format);
    if (video != NULL) {
        input->declared_width = video->codecpar->width;
        input->declared_height = video->codecpar->height;
    }
    *status = CCVIDEO_OK;
    return input;
}

int ccvideo_input_find_streams(ccvideo_input *input, char *message, size_t message_size) {
    int code = av.avformat_find_stream_info(input->format, NULL);
    if (code < 0) {
        ccvideo_failure(&input->sink, code, message, message_size);
        return ccvideo_status(code, CCVIDEO_UNREADABLE);
    }
    AVStream *video = first_video(input->format);
    if (video != NULL && video->codecpar->width > 0 && video->codecpar->height > 0) {
        input->declared_width = video->codecpar->width;
        input->declared_height = video->codecpar->height;
    }
    return CCVIDEO_OK;
}

int ccvideo_input_declared_size(ccvideo_input *input, int *width, int *height) {
    *width = input->declared_width;
    *height = input->declared_height;
    if (*width <= 0 || *height <= 0) return 0;
    return av.av_image_check_size2((unsigned)*width, (unsigned)*height, INT64_MAX, AV_PIX_FMT_NONE, 0, NULL) >= 0;
}

const char *ccvideo_input_format_name(ccvideo_input *input) {
    return input->format->iformat != NULL && input->format->iformat->name != NULL ? input->format->iformat->name : "";
}

double ccvideo_input_duration(ccvideo_input *input) {
    int64_t duration = input->format->duration;
    return duration == AV_NOPTS_VALUE || duration < 0 ? -1 : (double)duration / AV_TIME_BASE;
}

int ccvideo_input_stream_count(ccvideo_input *input) {
    return (int)input->format->nb_streams;
}

const char *ccvideo_input_tag(ccvideo_input *input, const char *key) {
    const AVDictionaryEntry *entry = av.av_dict_get(input->format->metadata, key, NULL, AV_DICT_MATCH_CASE);
    return entry != NULL ? entry->value : NULL;
}

static int kind_of(enum AVMediaType type) {
    switch (type) {
    case AVMEDIA_TYPE_VIDEO: return CCVIDEO_KIND_VIDEO;
    case AVMEDIA_TYPE_AUDIO: return CCVIDEO_KIND_AUDIO;
    case AVMEDIA_TYPE_DATA: return CCVIDEO_KIND_DATA;
    case AVMEDIA_TYPE_SUBTITLE: return CCVIDEO_KIND_SUBTITLE;
    case AVMEDIA_TYPE_ATTACHMENT: return CCVIDEO_KIND_ATTACHMENT;
    default: return CCVIDEO_KIND_OTHER;
    }
}

int ccvideo_input_stream(ccvideo_input *input, int index, ccvideo_stream_probe *probe) {
    if (index < 0 || (unsigned)index >= input->format->nb_streams) return 0;
    memset(probe, 0, sizeof *probe);
    const AVStream *stream = input->format->streams[index];
    const AVCodecParameters *parameters = stream->codecpar;
    probe->kind = kind_of(parameters->codec_type);
    const char *codec = av.avcodec_get_name(parameters->codec_id);
    if (parameters->codec_tag == MKTAG('t', 'm', 'c', 'd')) codec = "tmcd";
    snprintf(probe->codec, sizeof probe->codec, "%s", codec != NULL ? codec : "none");
    const char *profile = av.avcodec_profile_name(parameters->codec_id, parameters->profile);
    snprintf(probe->profile, sizeof probe->profile, "%s", profile != NULL ? profile : "");
    probe->width = parameters->width;
    probe->height = parameters->height;
    const char *pixel_format = parameters->codec_type == AVMEDIA_TYPE_VIDEO
        ? av.av_get_pix_fmt_name((enum AVPixelFormat)parameters->format) : NULL;
    snprintf(probe->pixel_format, sizeof probe->pixel_format, "%s", pixel_format != NULL ? pixel_format : "none");
    probe->color_matrix = parameters->color_space;
    probe->color_range = parameters->color_range;
    probe->color_primaries = parameters->color_primaries;
    probe->color_transfer = parameters->color_trc;
    probe->chroma_location = parameters->chroma_location;
    probe->attached_picture = (stream->disposition & AV_DISPOSITION_ATTACHED_PIC) != 0;
    probe->frame_count = stream->nb_frames > 0 ? stream->nb_frames : 0;
    probe->duration = stream->duration != AV_NOPTS_VALUE && stream->duration >= 0 && stream->time_base.den > 0
        ? (double)stream->duration * stream->time_base.num / stream->time_base.den : -1;
    probe->rate_num = stream->avg_frame_rate.num > 0 && stream->avg_frame_rate.den > 0 ? stream->avg_frame_rate.num : 0;
    probe->rate_den = probe->rate_num > 0 ? stream->avg_frame_rate.den : 1;
    size_t size = 0;
    const uint8_t *matrix = av.av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (matrix != NULL && size >= 9 * sizeof(int32_t)) {
        double rotation = av.av_display_rotation_get((const int32_t *)matrix);
        if (isfinite(rotation)) {
            probe->has_rotation = 1;
            probe->rotation = rotation;
        }
    }
    return 1;
}

// MARK: - Decoding

void ccvideo_decoder_close(ccvideo_decoder *decoder) {
    if (decoder == NULL) return;
    ccvideo_remove_sink(&decoder->sink);
    for (int index = 0; index < decoder->pending_count; index++) av.av_packet_free(&decoder->pending[index]);
    free(decoder->pending);
    ccvideo_converter_close(&decoder->converter);
    av.av_frame_free(&decoder->frame);
    av.av_packet_free(&decoder->packet);
    av.avcodec_free_context(&decoder->codec);
    free(decoder);
}

/// Keeps a packet of another stream read before the output was open.
static int keep_pending(ccvideo_decoder *decoder, AVPacket *packet) {
    if (decoder->pending_count == decoder->pending_capacity) {
        int capacity = decoder->pending_capacity == 0 ? 16 : decoder->pending_capacity * 2;
        AVPacket **grown = realloc(decoder->pending, (size_t)capacity * sizeof *grown);
        if (grown == NULL) return AVERROR(ENOMEM);
        decoder->pending = grown;
        decoder->pending_capacity = capacity;
    }
    AVPacket *copy = av.av_packet_alloc();
    if (copy == NULL) return AVERROR(ENOMEM);
    int code = av.av_packet_ref(copy, packet);
    if (code < 0) {
        av.av_packet_free(&copy);
        return code;
    }
    decoder->pending[decoder->pending_count++] = copy;
    return 0;
}

/// Receives the next frame into decoder->frame: 1, 0 at the end, or -CCVIDEO_*.
/// Notes how far `packet` reaches (`ccvideo_decoder_reach`).
static void note_reach(ccvideo_decoder *decoder, const AVPacket *packet) {
    const AVStream *stream = decoder->input->format->streams[packet->stream_index];
    const int64_t time = packet->pts != AV_NOPTS_VALUE ? packet->pts : packet->dts;
    if (time == AV_NOPTS_VALUE || stream->time_base.den <= 0) return;
    const double end = (double)(time + (packet->duration > 0 ? packet->duration : 0)) * stream->time_base.num / stream->time_base.den;
    if (!decoder->has_reach || end > decoder->reach) decoder->reach = end;
    decoder->has_reach = 1;
}

static int receive(ccvideo_decoder *decoder, ccvideo_output *output, char *message, size_t message_size) {
    for (;;) {
        int code = av.avcodec_receive_frame(decoder->codec, decoder->frame);
        if (code == 0) return 1;
        if (code == AVERROR_EOF) return 0;
        if (code != AVERROR(EAGAIN)) {
            ccvideo_failure(&decoder->sink, code, message, message_size);
            return -ccvideo_status(code, CCVIDEO_DECODE_FAILED);
        }
        if (decoder->draining) return 0;
        AVPacket *packet = decoder->packet;
        code = av.av_read_frame(decoder->input->format, packet);
        if (code == AVERROR_EOF) {
            decoder->draining = 1;
            code = av.avcodec_send_packet(decoder->codec, NULL);
        } else if (code < 0) {
            ccvideo_failure(&decoder->input->sink, code, message, message_size);
            return -ccvideo_status(code, CCVIDEO_DECODE_FAILED);
        } else {
            if (packet->flags & AV_PKT_FLAG_CORRUPT) {
                // The demuxer read less than the packet's declared size: the file ends inside it.
                ccvideo_set_message(message, message_size, "stream %d's packet at byte %lld ends before its declared size "
                                    "(truncated?)", packet->stream_index, (long long)packet->pos);
                av.av_packet_unref(packet);
                return -CCVIDEO_DECODE_FAILED;
            }
            note_reach(decoder, packet);
            if (packet->stream_index != decoder->stream) {
                code = output != NULL ? ccvideo_output_copy_packet(output, packet, message, message_size)
                                      : keep_pending(decoder, packet);
                av.av_packet_unref(packet);
                if (code > 0) return -code;  // the output's status
                if (code < 0) {
                    ccvideo_set_message(message, message_size, "out of memory");
                    return -CCVIDEO_NO_MEMORY;
                }
                continue;
            }
            code = av.avcodec_send_packet(decoder->codec, packet);
            av.av_packet_unref(packet);
        }
        if (code < 0 && code != AVERROR_EOF) {
            ccvideo_failure(&decoder->sink, code, message, message_size);
            return -ccvideo_status(code, CCVIDEO_DECODE_FAILED);
        }
    }
}

ccvideo_decoder *ccvideo_decoder_open(ccvideo_input *input, int stream_index, int threads, ccvideo_stream_info *info,
                                      int *status, char *message, size_t message_size) {
    *status = CCVIDEO_NO_MEMORY;
    ccvideo_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) {
        ccvideo_set_message(message, message_size, "out of memory");
        return NULL;
    }
    decoder->input = input;
    ccvideo_add_sink(&decoder->sink);
    AVFormatContext *format = input->format;
    if (stream_index < 0 || (unsigned)stream_index >= format->nb_streams
        || format->streams[stream_index]->codecpar->codec_type != AVMEDIA_TYPE_VIDEO) {
        *status = CCVIDEO_DECODE_FAILED;
        ccvideo_set_message(message, message_size, "stream %d is not a video stream", stream_index);
        ccvideo_decoder_close(decoder);
        return NULL;
    }
    AVStream *stream = format->streams[stream_index];
    const AVCodec *codec = av.avcodec_find_decoder(stream->codecpar->codec_id);
    decoder->codec = codec != NULL ? av.avcodec_alloc_context3(codec) : NULL;
    decoder->packet = av.av_packet_alloc();
    decoder->frame = av.av_frame_alloc();
    if (codec == NULL || decoder->codec == NULL || decoder->packet == NULL || decoder->frame == NULL) {
        if (codec == NULL) *status = CCVIDEO_DECODE_FAILED;
        ccvideo_set_message(message, message_size, codec == NULL ? "FFmpeg has no decoder for its video stream" : "out of memory");
        ccvideo_decoder_close(decoder);
        return NULL;
    }
    decoder->sink.contexts[0] = decoder->codec;
    int code = av.avcodec_parameters_to_context(decoder->codec, stream->codecpar);
    if (code >= 0) {
        decoder->codec->pkt_timebase = stream->time_base;
        decoder->codec->thread_count = threads;
        code = av.avcodec_open2(decoder->codec, codec, NULL);
    }
    if (code < 0) {
        *status = ccvideo_status(code, CCVIDEO_DECODE_FAILED);
        ccvideo_failure(&decoder->sink, code, message, message_size);
        ccvideo_decoder_close(decoder);
        return NULL;
    }
    decoder->stream = stream_index;
    int primed = receive(decoder, NULL, message, message_size);
    if (primed < 0) {
        // The size the first frame's own header declared, for the message.
        memset(info, 0, sizeof *info);
        info->width = decoder->codec->width;
        info->height = decoder->codec->height;
        *status = -primed;
        ccvideo_decoder_close(decoder);
        return NULL;
    }
    decoder->primed = primed;
    // The first frame's size and format are the stream's (the parameters may not know them).
    decoder->width = primed ? decoder->frame->width : decoder->codec->width;
    decoder->height = primed ? decoder->frame->height : decoder->codec->height;
    decoder->pixel_format = primed ? (enum AVPixelFormat)decoder->frame->format : decoder->codec->pix_fmt;
    decoder->delivered_format = decoder->pixel_format;
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
    *status = CCVIDEO_OK;
    return decoder;
}

int ccvideo_decoder_deliver(ccvideo_decoder *decoder, const char *pixel_format, int matrix, int full_range,
                            char *message, size_t message_size) {
    enum AVPixelFormat format = av.av_get_pix_fmt(pixel_format);
    ccvideo_converter_close(&decoder->converter);
    if (format == AV_PIX_FMT_NONE
        || ccvideo_converter_open(&decoder->converter, decoder->width, decoder->height, decoder->pixel_format, format,
                                  matrix, full_range, 1) < 0) {
        const char *name = av.av_get_pix_fmt_name(decoder->pixel_format);
        ccvideo_set_message(message, message_size, "no conversion from %s to %s", name != NULL ? name : "none", pixel_format);
        return CCVIDEO_DECODE_FAILED;
    }
    decoder->delivered_format = format;
    return CCVIDEO_OK;
}

static double q2d(AVRational value) {
    return value.den != 0 ? (double)value.num / value.den : 0;
}

static void read_mastering(const AVMasteringDisplayMetadata *display, ccvideo_hdr_info *hdr) {
    if (!display->has_primaries || !display->has_luminance) return;
    hdr->has_mastering = 1;
    for (int channel = 0; channel < 3; channel++) {
        hdr->primaries[channel][0] = q2d(display->display_primaries[channel][0]);
        hdr->primaries[channel][1] = q2d(display->display_primaries[channel][1]);
    }
    hdr->primaries[3][0] = q2d(display->white_point[0]);
    hdr->primaries[3][1] = q2d(display->white_point[1]);
    hdr->min_luminance = q2d(display->min_luminance);
    hdr->max_luminance = q2d(display->max_luminance);
}

void ccvideo_decoder_hdr(ccvideo_decoder *decoder, ccvideo_hdr_info *hdr) {
    memset(hdr, 0, sizeof *hdr);
    const AVStream *stream = decoder->input->format->streams[decoder->stream];
    size_t size = 0;
    const uint8_t *data = av.av_stream_get_side_data(stream, AV_PKT_DATA_MASTERING_DISPLAY_METADATA, &size);
    if (data != NULL && size >= sizeof(AVMasteringDisplayMetadata)) read_mastering((const AVMasteringDisplayMetadata *)data, hdr);
    data = av.av_stream_get_side_data(stream, AV_PKT_DATA_CONTENT_LIGHT_LEVEL, &size);
    if (data != NULL && size >= sizeof(AVContentLightMetadata)) {
        const AVContentLightMetadata *light = (const AVContentLightMetadata *)data;
        hdr->has_light = 1;
        hdr->max_cll = (int)light->MaxCLL;
        hdr->max_fall = (int)light->MaxFALL;
    }
    if (av.av_stream_get_side_data(stream, AV_PKT_DATA_DOVI_CONF, &size) != NULL) hdr->dolby_vision = 1;
    if (!decoder->primed) return;
    const AVFrame *frame = decoder->frame;
    const AVFrameSideData *side = av.av_frame_get_side_data(frame, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA);
    if (side != NULL && !hdr->has_mastering) read_mastering((const AVMasteringDisplayMetadata *)side->data, hdr);
    side = av.av_frame_get_side_data(frame, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL);
    if (side != NULL && !hdr->has_light) {
        const AVContentLightMetadata *light = (const AVContentLightMetadata *)side->data;
        hdr->has_light = 1;
        hdr->max_cll = (int)light->MaxCLL;
        hdr->max_fall = (int)light->MaxFALL;
    }
    if (av.av_frame_get_side_data(frame, AV_FRAME_DATA_DOVI_METADATA) != NULL
        || av.av_frame_get_side_data(frame, AV_FRAME_DATA_DOVI_RPU_BUFFER) != NULL) hdr->dolby_vision = 1;
    if (av.av_frame_get_side_data(frame, AV_FRAME_DATA_DYNAMIC_HDR_PLUS) != NULL) hdr->hdr10_plus = 1;
}

int ccvideo_decoder_next(ccvideo_decoder *decoder, ccvideo_output *output, uint8_t *frame, size_t frame_bytes,
                         int64_t *pts, int64_t *duration, char *message, size_t message_size) {
    for (int index = 0; index < decoder->pending_count; index++) {
        int status = ccvideo_output_copy_packet(output, decoder->pending[index], message, message_size);
        av.av_packet_free(&decoder->pending[index]);
        if (status != CCVIDEO_OK) {
            for (int rest = index + 1; rest < decoder->pending_count; rest++) av.av_packet_free(&decoder->pending[rest]);
            decoder->pending_count = 0;
            return -status;
        }
    }
    decoder->pending_count = 0;
    int received = decoder->primed ? 1 : receive(decoder, output, message, message_size);
    decoder->primed = 0;
    if (received <= 0) return received;
    AVFrame *decoded = decoder->frame;
    if (decoded->decode_error_flags != 0 || (decoded->flags & AV_FRAME_FLAG_CORRUPT)) {
        av.av_frame_unref(decoded);
        ccvideo_set_message(message, message_size, "corrupt decoded frame in stream %d", decoder->stream);
        return -CCVIDEO_DECODE_FAILED;
    }
    if (decoded->width != decoder->width || decoded->height != decoder->height || decoded->format != decoder->pixel_format) {
        const char *name = av.av_get_pix_fmt_name(decoded->format);
        ccvideo_set_message(message, message_size, "a frame of %dx%d %s in a stream of %dx%d %s", decoded->width,
                            decoded->height, name != NULL ? name : "none", decoder->width, decoder->height,
                            av.av_get_pix_fmt_name(decoder->pixel_format));
        av.av_frame_unref(decoded);
        return -CCVIDEO_FORMAT_CHANGED;
    }
    int copied;
    if (decoder->converter.context != NULL) {
        uint8_t *planes[4];
        int strides[4];
        copied = av.av_image_get_buffer_size(decoder->delivered_format, decoded->width, decoded->height, 1);
        if (copied >= 0 && (size_t)copied == frame_bytes) {
            av.av_image_fill_arrays(planes, strides, frame, decoder->delivered_format, decoded->width, decoded->height, 1);
            av.sws_scale(decoder->converter.context, (const uint8_t *const *)decoded->data, decoded->linesize, 0,
                         decoded->height, planes, strides);
        }
    } else {
        copied = av.av_image_copy_to_buffer(frame, (int)frame_bytes, (const uint8_t *const *)decoded->data,
                                            decoded->linesize, (enum AVPixelFormat)decoded->format, decoded->width,
                                            decoded->height, 1);
    }
    *pts = decoded->best_effort_timestamp == AV_NOPTS_VALUE ? INT64_MIN : decoded->best_effort_timestamp;
#if LIBAVUTIL_VERSION_MAJOR >= 58
    *duration = decoded->duration > 0 ? decoded->duration : 0;
#else
    *duration = decoded->pkt_duration > 0 ? decoded->pkt_duration : 0;
#endif
    av.av_frame_unref(decoded);
    if (copied < 0 || (size_t)copied != frame_bytes) {
        ccvideo_set_message(message, message_size, "a frame of %d bytes where %zu were expected", copied, frame_bytes);
        return -CCVIDEO_FORMAT_CHANGED;
    }
    return 1;
}

int ccvideo_decoder_reach(ccvideo_decoder *decoder, double *reached, double *declared) {
    const AVFormatContext *format = decoder->input->format;
    if (!decoder->has_reach || format->duration == AV_NOPTS_VALUE || format->duration <= 0
        || format->duration_estimation_method != AVFMT_DURATION_FROM_STREAM) return 0;
    const double start = format->start_time != AV_NOPTS_VALUE ? (double)format->start_time / AV_TIME_BASE : 0;
    *reached = decoder->reach - start;
    *declared = (double)format->duration / AV_TIME_BASE;
    return 1;
}

const char *ccvideo_decoder_warnings(ccvideo_decoder *decoder) {
    snprintf(decoder->warnings, sizeof decoder->warnings, "%s%s", decoder->input->sink.warnings, decoder->sink.warnings);
    return decoder->warnings;
}

#endif
