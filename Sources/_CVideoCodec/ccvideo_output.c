// See include/ccvideo.h: the output file, its graded video encoded here and the input's other
// streams copied as packets (as FFmpeg's doc/examples/remux.c does), with the chapters, the
// metadata and the streams' side data.
#include "ccvideo_transcode.h"

#ifdef CCVIDEO_HAVE_FFMPEG

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Frames handed to the encoder whose packets have not come back yet, with their durations: an
/// encoder with look-ahead holds a few dozen; x265's most is about 200.
#define CCVIDEO_DURATIONS 1024

struct ccvideo_output {
    AVFormatContext *muxer;
    AVCodecContext *codec;
    AVFrame *frame;
    AVPacket *packet;
    /// The packed frame the caller fills (`ccvideo_output_buffer`); handed to the encoder as it
    /// is when its planes and rows fall on 32-byte boundaries, else copied into `frame`'s.
    AVBufferRef *staging;
    size_t frame_bytes;
    int wraps_staging;
    /// The caller's frames' format, and the conversion to the encoder's when it is another.
    enum AVPixelFormat source_format;
    ccvideo_converter converter;
    /// The output stream of each input stream, or -1 where it is not kept; the re-encoding of
    /// those re-encoded.
    int *map;
    ccvideo_transcode **transcodes;
    int map_count;
    AVFormatContext *input;
    /// Each frame's timestamp and duration, until its packet comes back from the encoder.
    int64_t pending_pts[CCVIDEO_DURATIONS];
    int64_t pending_duration[CCVIDEO_DURATIONS];
    int pending_next;
    /// The graded stream's index in the input, and whether a frame was sent yet.
    int video_stream;
    int sent;
    int file_open;
    ccvideo_log_sink sink;
};

void ccvideo_output_close(ccvideo_output *output) {
    if (output == NULL) return;
    ccvideo_remove_sink(&output->sink);
    av.av_frame_free(&output->frame);
    av.av_packet_free(&output->packet);
    av.av_buffer_unref(&output->staging);
    ccvideo_converter_close(&output->converter);
    av.avcodec_free_context(&output->codec);
    if (output->muxer != NULL) {
        if (output->file_open) av.avio_closep(&output->muxer->pb);
        av.avformat_free_context(output->muxer);
    }
    for (int index = 0; index < output->map_count && output->transcodes != NULL; index++) {
        ccvideo_transcode_close(output->transcodes[index]);
    }
    free(output->transcodes);
    free(output->map);
    free(output);
}

/// Fails an opening: the status and reason set, everything freed.
static ccvideo_output *fail(ccvideo_output *output, int *status, int value) {
    *status = value;
    ccvideo_output_close(output);
    return NULL;
}

/// Copies the side data of `from` that still holds for the output: the display matrix, stereo
/// and spherical mapping always; HDR10's mastering display and light level when `hdr` says so.
/// Dolby Vision's configuration never (the grade drops its layer).
static int copy_side_data(const AVStream *from, AVStream *to, int hdr) {
    for (int index = 0; index < from->nb_side_data; index++) {
        const AVPacketSideData *side = &from->side_data[index];
        switch (side->type) {
        case AV_PKT_DATA_DISPLAYMATRIX:
        case AV_PKT_DATA_STEREO3D:
        case AV_PKT_DATA_SPHERICAL:
            break;
        case AV_PKT_DATA_MASTERING_DISPLAY_METADATA:
        case AV_PKT_DATA_CONTENT_LIGHT_LEVEL:
            if (!hdr) continue;
            break;
        default:
            continue;
        }
        uint8_t *data = av.av_stream_new_side_data(to, side->type, side->size);
        if (data == NULL) return AVERROR(ENOMEM);
        memcpy(data, side->data, side->size);
    }
    return 0;
}

/// A stream's metadata without the "encoder" tag, which would name the source's encoder.
static int copy_metadata(AVDictionary **to, const AVDictionary *from) {
    int code = av.av_dict_copy(to, from, 0);
    if (code >= 0) av.av_dict_set(to, "encoder", NULL, 0);
    return code;
}

static int copy_chapters(const AVFormatContext *from, AVFormatContext *to) {
    if (from->nb_chapters == 0) return 0;
    to->chapters = av.av_calloc(from->nb_chapters, sizeof *to->chapters);
    if (to->chapters == NULL) return AVERROR(ENOMEM);
    for (unsigned index = 0; index < from->nb_chapters; index++) {
        const AVChapter *source = from->chapters[index];
        AVChapter *chapter = av.av_mallocz(sizeof *chapter);
        if (chapter == NULL) return AVERROR(ENOMEM);
        to->chapters[to->nb_chapters++] = chapter;
        chapter->id = source->id;
        chapter->time_base = source->time_base;
        chapter->start = source->start;
        chapter->end = source->end;
        if (av.av_dict_copy(&chapter->metadata, source->metadata, 0) < 0) return AVERROR(ENOMEM);
    }
    return 0;
}

/// 1 when the muxer holds the codec, 0 when it does not; muxers without a list of codecs
/// (Matroska, NUT) are taken to hold anything, as FFmpeg itself does before writing.
static int holds(const AVFormatContext *muxer, enum AVCodecID codec) {
    return av.avformat_query_codec(muxer->oformat, codec, FF_COMPLIANCE_NORMAL) != 0;
}

/// The graded stream's encoder, opened with the settings' options.
static int open_encoder(ccvideo_output *output, const ccvideo_encoder_settings *settings, char *message,
                        size_t message_size) {
    const AVCodec *codec = av.avcodec_find_encoder_by_name(settings->encoder);
    enum AVPixelFormat pixel_format = av.av_get_pix_fmt(settings->pixel_format);
    if (codec == NULL || pixel_format == AV_PIX_FMT_NONE) {
        ccvideo_set_message(message, message_size, codec == NULL ? "no encoder %s" : "no pixel format %s",
                            codec == NULL ? settings->encoder : settings->pixel_format);
        return CCVIDEO_ENCODE_FAILED;
    }
    if (!holds(output->muxer, codec->id)) {
        ccvideo_set_message(message, message_size, "%s video", av.avcodec_get_name(codec->id));
        return CCVIDEO_CONTAINER_CANNOT_HOLD;
    }
    AVCodecContext *context = output->codec = av.avcodec_alloc_context3(codec);
    if (context == NULL) {
        ccvideo_set_message(message, message_size, "out of memory");
        return CCVIDEO_NO_MEMORY;
    }
    output->sink.contexts[0] = context;
    const ccvideo_stream_info *info = &settings->stream;
    context->width = info->width;
    context->height = info->height;
    context->pix_fmt = pixel_format;
    context->time_base = (AVRational){info->time_base_num, info->time_base_den};
    if (info->frame_rate_num > 0) context->framerate = (AVRational){info->frame_rate_num, info->frame_rate_den};
    if (info->aspect_num > 0) context->sample_aspect_ratio = (AVRational){info->aspect_num, info->aspect_den};
    context->chroma_sample_location = info->chroma_location;
    context->field_order = info->field_order;
    context->colorspace = settings->color_matrix;
    context->color_range = settings->color_range;
    context->color_primaries = settings->color_primaries;
    context->color_trc = settings->color_transfer;
    context->thread_count = settings->threads;
    if (output->muxer->oformat->flags & AVFMT_GLOBALHEADER) context->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    AVDictionary *options = NULL;
    for (int index = 0; index < settings->option_count; index++) {
        av.av_dict_set(&options, settings->option_names[index], settings->option_values[index], 0);
    }
    int code = av.avcodec_open2(context, codec, &options);
    const AVDictionaryEntry *unused = av.av_dict_get(options, "", NULL, AV_DICT_IGNORE_SUFFIX);
    if (code >= 0 && unused != NULL) {
        ccvideo_set_message(message, message_size, "%s has no option %s", settings->encoder, unused->key);
        av.av_dict_free(&options);
        return CCVIDEO_UNKNOWN_OPTION;
    }
    av.av_dict_free(&options);
    if (code < 0) {
        ccvideo_failure(&output->sink, code, message, message_size);
        return ccvideo_status(code, CCVIDEO_ENCODE_FAILED);
    }
    enum AVPixelFormat source_format = settings->source_format != NULL ? av.av_get_pix_fmt(settings->source_format) : pixel_format;
    if (source_format == AV_PIX_FMT_NONE
        || ccvideo_converter_open(&output->converter, context->width, context->height, source_format, pixel_format,
                                  settings->matrix, settings->full_range, 0) < 0) {
        ccvideo_set_message(message, message_size, "no conversion from %s to %s", settings->source_format, settings->pixel_format);
        return CCVIDEO_ENCODE_FAILED;
    }
    output->source_format = source_format;
    // Packed frames go to the encoder without a copy when every plane and row starts on a
    // 32-byte boundary, as FFmpeg's own frames do (some encoders' vector loops assume it).
    uint8_t *planes[4] = {0};
    int strides[4] = {0};
    uint8_t *const aligned_base = (uint8_t *)(uintptr_t)64;
    int bytes = av.av_image_fill_arrays(planes, strides, aligned_base, source_format, context->width, context->height, 1);
    if (bytes <= 0) {
        ccvideo_set_message(message, message_size, "no frame of %dx%d %s", context->width, context->height,
                            settings->pixel_format);
        return CCVIDEO_ENCODE_FAILED;
    }
    output->frame_bytes = (size_t)bytes;
    output->wraps_staging = output->converter.context == NULL;
    for (int plane = 0; plane < 4; plane++) {
        if (planes[plane] != NULL && (((uintptr_t)planes[plane] % 32) != 0 || strides[plane] % 32 != 0)) {
            output->wraps_staging = 0;
        }
    }
    if (!output->wraps_staging) {
        output->frame->format = pixel_format;
        output->frame->width = context->width;
        output->frame->height = context->height;
        if (av.av_frame_get_buffer(output->frame, 0) < 0) {
            ccvideo_set_message(message, message_size, "out of memory");
            return CCVIDEO_NO_MEMORY;
        }
    }
    return CCVIDEO_OK;
}

/// The graded stream: the encoder's parameters, the source stream's metadata, dispositions and
/// side data (HDR10's from the first frame too, when the stream has none).
static int add_graded_stream(ccvideo_output *output, const ccvideo_decoder *decoder,
                             const ccvideo_encoder_settings *settings, int hdr) {
    const AVStream *source = decoder->input->format->streams[decoder->stream];
    AVStream *stream = av.avformat_new_stream(output->muxer, NULL);
    if (stream == NULL) return AVERROR(ENOMEM);
    int code = av.avcodec_parameters_from_context(stream->codecpar, output->codec);
    if (code < 0) return code;
    stream->time_base = output->codec->time_base;
    stream->avg_frame_rate = output->codec->framerate;
    stream->sample_aspect_ratio = output->codec->sample_aspect_ratio;
    stream->disposition = source->disposition;
    if (settings->codec_tag != NULL && strlen(settings->codec_tag) == 4) {
        const char *tag = settings->codec_tag;
        stream->codecpar->codec_tag = MKTAG(tag[0], tag[1], tag[2], tag[3]);
    }
    if ((code = copy_metadata(&stream->metadata, source->metadata)) < 0) return code;
    if ((code = copy_side_data(source, stream, hdr)) < 0 || !hdr || !decoder->primed) return code;
    // HDR10's static metadata that a bitstream carries in its first frame only (HEVC's SEI) goes
    // on the output stream too, where MP4, MOV and Matroska keep it in their own boxes.
    const struct { enum AVFrameSideDataType frame; enum AVPacketSideDataType stream; size_t size; } kinds[] = {
        {AV_FRAME_DATA_MASTERING_DISPLAY_METADATA, AV_PKT_DATA_MASTERING_DISPLAY_METADATA, sizeof(AVMasteringDisplayMetadata)},
        {AV_FRAME_DATA_CONTENT_LIGHT_LEVEL, AV_PKT_DATA_CONTENT_LIGHT_LEVEL, sizeof(AVContentLightMetadata)},
    };
    for (size_t kind = 0; kind < sizeof kinds / sizeof *kinds; kind++) {
        const AVFrameSideData *side = av.av_frame_get_side_data(decoder->frame, kinds[kind].frame);
        if (side == NULL || side->size < kinds[kind].size || av.av_stream_get_side_data(stream, kinds[kind].stream, NULL) != NULL) {
            continue;
        }
        uint8_t *data = av.av_stream_new_side_data(stream, kinds[kind].stream, kinds[kind].size);
        if (data == NULL) return AVERROR(ENOMEM);
        memcpy(data, side->data, kinds[kind].size);
    }
    return 0;
}

/// A stream copied as it is.
static int add_copied_stream(ccvideo_output *output, const AVStream *source, char *message, size_t message_size) {
    const AVCodecParameters *parameters = source->codecpar;
    int media = parameters->codec_type == AVMEDIA_TYPE_AUDIO || parameters->codec_type == AVMEDIA_TYPE_SUBTITLE
        || parameters->codec_type == AVMEDIA_TYPE_VIDEO;
    if (media && !holds(output->muxer, parameters->codec_id)) {
        const char *kind = parameters->codec_type == AVMEDIA_TYPE_AUDIO ? "audio"
            : parameters->codec_type == AVMEDIA_TYPE_SUBTITLE ? "subtitles" : "video";
        ccvideo_set_message(message, message_size, "%s %s", av.avcodec_get_name(parameters->codec_id), kind);
        return CCVIDEO_CONTAINER_CANNOT_HOLD;
    }
    AVStream *stream = av.avformat_new_stream(output->muxer, NULL);
    int code = stream != NULL ? av.avcodec_parameters_copy(stream->codecpar, parameters) : AVERROR(ENOMEM);
    if (code >= 0) {
        // The muxer picks its own tag for a codec it knows; a data track (a QuickTime timecode)
        // is known by its tag alone.
        if (parameters->codec_type != AVMEDIA_TYPE_DATA) stream->codecpar->codec_tag = 0;
        stream->time_base = source->time_base;
        stream->avg_frame_rate = source->avg_frame_rate;
        stream->sample_aspect_ratio = source->sample_aspect_ratio;
        stream->disposition = source->disposition;
        code = copy_metadata(&stream->metadata, source->metadata);
    }
    if (code >= 0) code = copy_side_data(source, stream, 1);
    if (code < 0) {
        ccvideo_set_message(message, message_size, "out of memory");
        return CCVIDEO_NO_MEMORY;
    }
    return CCVIDEO_OK;
}

/// True when the input's metadata has QuickTime's own keys (com.apple.quicktime.make, ...),
/// which MOV and MP4 keep only in their "mdta" form.
static int has_quicktime_keys(const AVDictionary *metadata) {
    return av.av_dict_get(metadata, "com.apple.quicktime.", NULL, AV_DICT_IGNORE_SUFFIX) != NULL;
}

ccvideo_output *ccvideo_output_open(ccvideo_decoder *decoder, const char *path, const char *muxer,
                                    const int *actions, const char *const *encoders, const int64_t *bit_rates,
                                    int action_count, const ccvideo_encoder_settings *settings, int hdr_metadata,
                                    int *status, char *message, size_t message_size) {
    ccvideo_output *output = calloc(1, sizeof *output);
    AVFormatContext *input = decoder->input->format;
    if (output == NULL || (output->map = calloc(input->nb_streams, sizeof *output->map)) == NULL
        || (output->transcodes = calloc(input->nb_streams, sizeof *output->transcodes)) == NULL) {
        if (output != NULL) free(output->map);
        free(output);
        ccvideo_set_message(message, message_size, "out of memory");
        *status = CCVIDEO_NO_MEMORY;
        return NULL;
    }
    ccvideo_add_sink(&output->sink);
    output->input = input;
    output->map_count = (int)input->nb_streams;
    output->video_stream = decoder->stream;
    output->frame = av.av_frame_alloc();
    output->packet = av.av_packet_alloc();
    int code = av.avformat_alloc_output_context2(&output->muxer, NULL, muxer, path);
    if (code < 0 || output->frame == NULL || output->packet == NULL) {
        if (code < 0) ccvideo_failure(&output->sink, code, message, message_size);
        else ccvideo_set_message(message, message_size, "out of memory");
        return fail(output, status, ccvideo_status(code, CCVIDEO_ENCODE_FAILED));
    }
    output->sink.contexts[1] = output->muxer;
    int result = open_encoder(output, settings, message, message_size);
    if (result != CCVIDEO_OK) return fail(output, status, result);
    code = add_graded_stream(output, decoder, settings, hdr_metadata);
    if (code < 0) {
        ccvideo_set_message(message, message_size, "out of memory");
        return fail(output, status, CCVIDEO_NO_MEMORY);
    }
    int next = 1;
    for (int index = 0; index < output->map_count; index++) {
        int action = index < action_count ? actions[index] : CCVIDEO_STREAM_DROP;
        output->map[index] = index == decoder->stream ? 0 : action != CCVIDEO_STREAM_DROP ? next++ : -1;
        if (output->map[index] <= 0) continue;
        if (action == CCVIDEO_STREAM_ENCODE) {
            code = ccvideo_transcode_open(&output->transcodes[index], input->streams[index], output->muxer, encoders[index],
                                          bit_rates[index], message, message_size);
            if (code < 0) return fail(output, status, ccvideo_status(code, CCVIDEO_ENCODE_FAILED));
            continue;
        }
        result = add_copied_stream(output, input->streams[index], message, message_size);
        if (result != CCVIDEO_OK) return fail(output, status, result);
    }
    if (copy_metadata(&output->muxer->metadata, input->metadata) < 0 || copy_chapters(input, output->muxer) < 0) {
        ccvideo_set_message(message, message_size, "out of memory");
        return fail(output, status, CCVIDEO_NO_MEMORY);
    }
    // The source's file type is its container's, not the output's (MP4's muxer would write it).
    const char *const container_keys[] = {"major_brand", "minor_version", "compatible_brands"};
    for (size_t key = 0; key < sizeof container_keys / sizeof *container_keys; key++) {
        av.av_dict_set(&output->muxer->metadata, container_keys[key], NULL, 0);
    }
    if (!(output->muxer->oformat->flags & AVFMT_NOFILE)) {
        code = av.avio_open(&output->muxer->pb, path, AVIO_FLAG_WRITE);
        if (code < 0) {
            ccvideo_failure(NULL, code, message, message_size);
            return fail(output, status, ccvideo_status(code, CCVIDEO_WRITE_FAILED));
        }
        output->file_open = 1;
    }
    AVDictionary *options = NULL;
    if (has_quicktime_keys(input->metadata) && (strcmp(muxer, "mov") == 0 || strcmp(muxer, "mp4") == 0)) {
        av.av_dict_set(&options, "movflags", "use_metadata_tags", 0);
    }
    code = av.avformat_write_header(output->muxer, &options);
    av.av_dict_free(&options);
    if (code < 0) {
        ccvideo_failure(&output->sink, code, message, message_size);
        return fail(output, status, code == AVERROR(EINVAL) ? CCVIDEO_CONTAINER_CANNOT_HOLD
                                                            : ccvideo_status(code, CCVIDEO_WRITE_FAILED));
    }
    *status = CCVIDEO_OK;
    return output;
}

/// A failed write: the system's reason.
static int write_failure(ccvideo_output *output, int code, char *message, size_t message_size) {
    ccvideo_failure(&output->sink, code, message, message_size);
    return ccvideo_status(code, CCVIDEO_WRITE_FAILED);
}

int ccvideo_output_copy_packet(ccvideo_output *output, AVPacket *packet, char *message, size_t message_size) {
    int index = packet->stream_index;
    if (index < 0 || index >= output->map_count || output->map[index] <= 0) return CCVIDEO_OK;
    if (output->transcodes[index] != NULL) {
        int code = ccvideo_transcode_packet(output->transcodes[index], output->muxer, packet);
        if (code < 0) {
            ccvideo_failure(NULL, code, message, message_size);
            return ccvideo_status(code, CCVIDEO_ENCODE_FAILED);
        }
        return CCVIDEO_OK;
    }
    AVStream *stream = output->muxer->streams[output->map[index]];
    av.av_packet_rescale_ts(packet, output->input->streams[index]->time_base, stream->time_base);
    packet->stream_index = stream->index;
    packet->pos = -1;
    int code = av.av_interleaved_write_frame(output->muxer, packet);
    return code < 0 ? write_failure(output, code, message, message_size) : CCVIDEO_OK;
}

/// Writes every packet the encoder has ready, each with its frame's duration.
static int drain(ccvideo_output *output, char *message, size_t message_size) {
    AVPacket *packet = output->packet;
    for (;;) {
        int code = av.avcodec_receive_packet(output->codec, packet);
        if (code == AVERROR(EAGAIN) || code == AVERROR_EOF) return CCVIDEO_OK;
        if (code < 0) {
            ccvideo_failure(&output->sink, code, message, message_size);
            return ccvideo_status(code, CCVIDEO_ENCODE_FAILED);
        }
        for (int back = 1; back <= CCVIDEO_DURATIONS; back++) {
            int slot = (output->pending_next - back + CCVIDEO_DURATIONS) % CCVIDEO_DURATIONS;
            if (output->pending_pts[slot] == packet->pts && output->pending_duration[slot] > 0) {
                packet->duration = output->pending_duration[slot];
                break;
            }
        }
        packet->stream_index = 0;
        av.av_packet_rescale_ts(packet, output->codec->time_base, output->muxer->streams[0]->time_base);
        code = av.av_interleaved_write_frame(output->muxer, packet);
        if (code < 0) return write_failure(output, code, message, message_size);
    }
}

uint8_t *ccvideo_output_buffer(ccvideo_output *output) {
    // The encoder may still hold the last frame (a frame-threaded one does): then a new buffer.
    if (output->staging == NULL || !av.av_buffer_is_writable(output->staging)) {
        av.av_buffer_unref(&output->staging);
        output->staging = av.av_buffer_alloc(output->frame_bytes + 64);
        if (output->staging == NULL) return NULL;
    }
    return output->staging->data;
}

int ccvideo_output_send(ccvideo_output *output, int64_t pts, int64_t duration, char *message, size_t message_size) {
    AVFrame *picture = output->frame;
    if (output->staging == NULL) {
        ccvideo_set_message(message, message_size, "no frame to send");
        return CCVIDEO_ENCODE_FAILED;
    }
    const enum AVPixelFormat format = output->codec->pix_fmt;
    const int width = output->codec->width, height = output->codec->height;
    if (output->wraps_staging) {
        picture->format = format;
        picture->width = width;
        picture->height = height;
        picture->buf[0] = av.av_buffer_ref(output->staging);
        if (picture->buf[0] == NULL) {
            ccvideo_set_message(message, message_size, "out of memory");
            return CCVIDEO_NO_MEMORY;
        }
        av.av_image_fill_arrays(picture->data, picture->linesize, output->staging->data, format, width, height, 1);
    } else {
        if (av.av_frame_make_writable(picture) < 0) {
            ccvideo_set_message(message, message_size, "out of memory");
            return CCVIDEO_NO_MEMORY;
        }
        uint8_t *planes[4];
        int strides[4];
        av.av_image_fill_arrays(planes, strides, output->staging->data, output->source_format, width, height, 1);
        if (output->converter.context != NULL) {
            av.sws_scale(output->converter.context, (const uint8_t *const *)planes, strides, 0, height, picture->data,
                         picture->linesize);
        } else {
            av.av_image_copy(picture->data, picture->linesize, (const uint8_t **)planes, strides, format, width, height);
        }
    }
    picture->pts = pts;
    picture->pict_type = AV_PICTURE_TYPE_NONE;
    // A fixed quantiser (MPEG-2, MPEG-4, Motion JPEG at `qscale`) is read from each frame.
    if (output->codec->flags & AV_CODEC_FLAG_QSCALE) picture->quality = output->codec->global_quality;
    // A frame without a duration of its own lasts until the next one.
    int previous = (output->pending_next + CCVIDEO_DURATIONS - 1) % CCVIDEO_DURATIONS;
    if (output->sent && output->pending_duration[previous] <= 0 && pts > output->pending_pts[previous]) {
        output->pending_duration[previous] = pts - output->pending_pts[previous];
    }
    output->sent = 1;
    output->pending_pts[output->pending_next] = pts;
    output->pending_duration[output->pending_next] = duration;
    output->pending_next = (output->pending_next + 1) % CCVIDEO_DURATIONS;
    int code = av.avcodec_send_frame(output->codec, picture);
    if (output->wraps_staging) av.av_frame_unref(picture);
    if (code < 0) {
        ccvideo_failure(&output->sink, code, message, message_size);
        return ccvideo_status(code, CCVIDEO_ENCODE_FAILED);
    }
    return drain(output, message, message_size);
}

/// Where the input's graded stream ends, in its time base: its start and duration, else the
/// file's; INT64_MIN when neither is known.
static int64_t stream_end(const ccvideo_output *output) {
    const AVStream *stream = output->input->streams[output->video_stream];
    int64_t start = stream->start_time != AV_NOPTS_VALUE ? stream->start_time : 0;
    if (stream->duration != AV_NOPTS_VALUE && stream->duration > 0) return start + stream->duration;
    if (output->input->duration == AV_NOPTS_VALUE || output->input->duration <= 0) return INT64_MIN;
    int64_t file_start = output->input->start_time != AV_NOPTS_VALUE ? output->input->start_time : 0;
    return av.av_rescale_q(file_start + output->input->duration, AV_TIME_BASE_Q, stream->time_base);
}

int ccvideo_output_finish(ccvideo_output *output, char *message, size_t message_size) {
    // The last frame without a duration of its own lasts until the source's stream ends.
    int last = (output->pending_next + CCVIDEO_DURATIONS - 1) % CCVIDEO_DURATIONS;
    int64_t end = stream_end(output);
    if (output->sent && output->pending_duration[last] <= 0 && end != INT64_MIN && end > output->pending_pts[last]) {
        output->pending_duration[last] = end - output->pending_pts[last];
    }
    int code = av.avcodec_send_frame(output->codec, NULL);
    if (code < 0 && code != AVERROR_EOF) {
        ccvideo_failure(&output->sink, code, message, message_size);
        return ccvideo_status(code, CCVIDEO_ENCODE_FAILED);
    }
    int status = drain(output, message, message_size);
    if (status != CCVIDEO_OK) return status;
    for (int index = 0; index < output->map_count; index++) {
        if (output->transcodes[index] == NULL) continue;
        code = ccvideo_transcode_packet(output->transcodes[index], output->muxer, NULL);
        if (code < 0) {
            ccvideo_failure(NULL, code, message, message_size);
            return ccvideo_status(code, CCVIDEO_ENCODE_FAILED);
        }
    }
    code = av.av_write_trailer(output->muxer);
    if (code < 0) return write_failure(output, code, message, message_size);
    if (output->file_open) {
        output->file_open = 0;
        code = av.avio_closep(&output->muxer->pb);
        if (code < 0) return write_failure(output, code, message, message_size);
    }
    return CCVIDEO_OK;
}

#endif
