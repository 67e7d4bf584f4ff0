// See include/ccvideo.h: streams the output's container cannot hold as they are, re-encoded
// (as FFmpeg's doc/examples/transcode.c does): audio decoded, resampled to what the encoder
// takes (libswresample), cut into the encoder's frame size and encoded; text subtitles decoded
// and encoded again.
#include "ccvideo_transcode.h"

#ifdef CCVIDEO_HAVE_FFMPEG

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ccvideo_transcode_close(ccvideo_transcode *transcode) {
    if (transcode == NULL) return;
    av.avcodec_free_context(&transcode->decoder);
    av.avcodec_free_context(&transcode->encoder);
    av.swr_free(&transcode->resampler);
    if (transcode->fifo != NULL) av.av_audio_fifo_free(transcode->fifo);
    av.av_frame_free(&transcode->decoded);
    av.av_frame_free(&transcode->resampled);
    av.av_frame_free(&transcode->chunk);
    av.av_packet_free(&transcode->packet);
    free(transcode);
}

/// The encoder's sample rate for a source of `rate`: the same when it takes it, else the
/// nearest it takes above, else its highest.
static int sample_rate_for(const AVCodec *codec, int rate) {
    if (codec->supported_samplerates == NULL) return rate;
    int best = 0, above = 0;
    for (const int *candidate = codec->supported_samplerates; *candidate != 0; candidate++) {
        if (*candidate == rate) return rate;
        if (*candidate > best) best = *candidate;
        if (*candidate > rate && (above == 0 || *candidate < above)) above = *candidate;
    }
    return above != 0 ? above : best;
}

int ccvideo_transcode_open(ccvideo_transcode **result, const AVStream *source, AVFormatContext *muxer,
                           const char *encoder_name, int64_t bit_rate, char *message, size_t message_size) {
    *result = NULL;
    ccvideo_transcode *transcode = calloc(1, sizeof *transcode);
    if (transcode == NULL) return AVERROR(ENOMEM);
    const AVCodecParameters *parameters = source->codecpar;
    const AVCodec *decoder = av.avcodec_find_decoder(parameters->codec_id);
    const AVCodec *encoder = av.avcodec_find_encoder_by_name(encoder_name);
    if (decoder == NULL || encoder == NULL || encoder->type != parameters->codec_type) {
        ccvideo_set_message(message, message_size, decoder == NULL ? "FFmpeg has no decoder for %s" : "FFmpeg has no %s encoder %s",
                            decoder == NULL ? av.avcodec_get_name(parameters->codec_id)
                                            : (parameters->codec_type == AVMEDIA_TYPE_AUDIO ? "audio" : "subtitle"),
                            encoder_name);
        ccvideo_transcode_close(transcode);
        return AVERROR_ENCODER_NOT_FOUND;
    }
    transcode->subtitle = parameters->codec_type == AVMEDIA_TYPE_SUBTITLE;
    transcode->source_time_base = source->time_base;
    transcode->decoder = av.avcodec_alloc_context3(decoder);
    transcode->encoder = av.avcodec_alloc_context3(encoder);
    transcode->decoded = av.av_frame_alloc();
    transcode->packet = av.av_packet_alloc();
    int code = transcode->decoder != NULL && transcode->encoder != NULL && transcode->decoded != NULL && transcode->packet != NULL
        ? av.avcodec_parameters_to_context(transcode->decoder, parameters) : AVERROR(ENOMEM);
    if (code >= 0) {
        transcode->decoder->pkt_timebase = source->time_base;
        code = av.avcodec_open2(transcode->decoder, decoder, NULL);
    }
    if (code < 0) {
        ccvideo_failure(NULL, code, message, message_size);
        ccvideo_transcode_close(transcode);
        return code;
    }
    AVCodecContext *context = transcode->encoder;
    if (transcode->subtitle) {
        context->time_base = AV_TIME_BASE_Q;
        // Text subtitle encoders start from the decoder's ASS header.
        if (transcode->decoder->subtitle_header != NULL) {
            context->subtitle_header = av.av_mallocz((size_t)transcode->decoder->subtitle_header_size + 1);
            if (context->subtitle_header == NULL) code = AVERROR(ENOMEM);
            else {
                memcpy(context->subtitle_header, transcode->decoder->subtitle_header, (size_t)transcode->decoder->subtitle_header_size);
                context->subtitle_header_size = transcode->decoder->subtitle_header_size;
            }
        }
    } else {
        context->sample_rate = sample_rate_for(encoder, transcode->decoder->sample_rate);
        context->time_base = (AVRational){1, context->sample_rate};
        context->sample_fmt = encoder->sample_fmts != NULL ? encoder->sample_fmts[0] : transcode->decoder->sample_fmt;
        code = av.av_channel_layout_copy(&context->ch_layout, &transcode->decoder->ch_layout);
        if (bit_rate > 0) context->bit_rate = bit_rate;
    }
    if (muxer->oformat->flags & AVFMT_GLOBALHEADER) context->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    if (code >= 0) code = av.avcodec_open2(context, encoder, NULL);
    if (code >= 0 && !transcode->subtitle) {
        transcode->resampled = av.av_frame_alloc();
        transcode->chunk = av.av_frame_alloc();
        transcode->fifo = av.av_audio_fifo_alloc(context->sample_fmt, context->ch_layout.nb_channels, 4096);
        code = transcode->resampled != NULL && transcode->chunk != NULL && transcode->fifo != NULL
            ? av.swr_alloc_set_opts2(&transcode->resampler, &context->ch_layout, context->sample_fmt, context->sample_rate,
                                     &transcode->decoder->ch_layout, transcode->decoder->sample_fmt,
                                     transcode->decoder->sample_rate, 0, NULL)
            : AVERROR(ENOMEM);
        if (code >= 0) code = av.swr_init(transcode->resampler);
    }
    if (code < 0) {
        ccvideo_failure(NULL, code, message, message_size);
        ccvideo_transcode_close(transcode);
        return code;
    }
    AVStream *stream = av.avformat_new_stream(muxer, NULL);
    code = stream != NULL ? av.avcodec_parameters_from_context(stream->codecpar, context) : AVERROR(ENOMEM);
    if (code < 0) {
        ccvideo_set_message(message, message_size, "out of memory");
        ccvideo_transcode_close(transcode);
        return code;
    }
    stream->time_base = transcode->subtitle ? (AVRational){1, 1000} : context->time_base;
    stream->disposition = source->disposition;
    av.av_dict_copy(&stream->metadata, source->metadata, 0);
    av.av_dict_set(&stream->metadata, "encoder", NULL, 0);
    transcode->stream = stream;
    transcode->next_pts = AV_NOPTS_VALUE;
    *result = transcode;
    return 0;
}

/// Writes every packet the encoder has ready.
static int write_encoded(ccvideo_transcode *transcode, AVFormatContext *muxer) {
    for (;;) {
        int code = av.avcodec_receive_packet(transcode->encoder, transcode->packet);
        if (code == AVERROR(EAGAIN) || code == AVERROR_EOF) return 0;
        if (code < 0) return code;
        transcode->packet->stream_index = transcode->stream->index;
        av.av_packet_rescale_ts(transcode->packet, transcode->encoder->time_base, transcode->stream->time_base);
        code = av.av_interleaved_write_frame(muxer, transcode->packet);
        if (code < 0) return code;
    }
}

/// Encodes the samples waiting, in frames of the encoder's size (all of them when `last`).
static int encode_samples(ccvideo_transcode *transcode, AVFormatContext *muxer, int last) {
    AVCodecContext *context = transcode->encoder;
    int size = context->frame_size > 0 ? context->frame_size : 1024;
    while (av.av_audio_fifo_size(transcode->fifo) >= size || (last && av.av_audio_fifo_size(transcode->fifo) > 0)) {
        int count = av.av_audio_fifo_size(transcode->fifo) < size ? av.av_audio_fifo_size(transcode->fifo) : size;
        AVFrame *chunk = transcode->chunk;
        av.av_frame_unref(chunk);
        chunk->nb_samples = count;
        chunk->format = context->sample_fmt;
        chunk->sample_rate = context->sample_rate;
        int code = av.av_channel_layout_copy(&chunk->ch_layout, &context->ch_layout);
        if (code >= 0) code = av.av_frame_get_buffer(chunk, 0);
        if (code >= 0 && av.av_audio_fifo_read(transcode->fifo, (void **)chunk->data, count) < count) code = AVERROR(EIO);
        if (code < 0) return code;
        chunk->pts = transcode->next_pts;
        transcode->next_pts += count;
        code = av.avcodec_send_frame(context, chunk);
        if (code < 0) return code;
        if ((code = write_encoded(transcode, muxer)) < 0) return code;
    }
    return 0;
}

/// Resamples `frame` (NULL: what the resampler still holds) into the queue and encodes what fills
/// the encoder's frames.
static int queue_samples(ccvideo_transcode *transcode, AVFormatContext *muxer, const AVFrame *frame) {
    AVCodecContext *context = transcode->encoder;
    if (transcode->next_pts == AV_NOPTS_VALUE) {
        // The first samples' time: the source's, so the audio stays where it was beside the video.
        int64_t start = frame != NULL && frame->pts != AV_NOPTS_VALUE ? frame->pts : 0;
        transcode->next_pts = av.av_rescale_q(start, transcode->source_time_base, context->time_base);
    }
    AVFrame *resampled = transcode->resampled;
    av.av_frame_unref(resampled);
    resampled->format = context->sample_fmt;
    resampled->sample_rate = context->sample_rate;
    int code = av.av_channel_layout_copy(&resampled->ch_layout, &context->ch_layout);
    if (code >= 0) code = av.swr_convert_frame(transcode->resampler, resampled, frame);
    if (code < 0) return code;
    if (resampled->nb_samples > 0
        && av.av_audio_fifo_write(transcode->fifo, (void **)resampled->data, resampled->nb_samples) < resampled->nb_samples) {
        return AVERROR(ENOMEM);
    }
    return encode_samples(transcode, muxer, 0);
}

/// A decoded subtitle encoded again, at its own time.
static int encode_subtitle(ccvideo_transcode *transcode, AVFormatContext *muxer, AVSubtitle *subtitle) {
    // As FFmpeg counts a subtitle's time: from its start of display, for as long as it shows.
    if (subtitle->pts == AV_NOPTS_VALUE) return 0;
    subtitle->pts += av.av_rescale_q(subtitle->start_display_time, (AVRational){1, 1000}, AV_TIME_BASE_Q);
    subtitle->end_display_time -= subtitle->start_display_time;
    subtitle->start_display_time = 0;
    enum { capacity = 1 << 20 };
    uint8_t *buffer = av.av_malloc(capacity);
    if (buffer == NULL) return AVERROR(ENOMEM);
    int size = av.avcodec_encode_subtitle(transcode->encoder, buffer, capacity, subtitle);
    if (size < 0) {
        av.av_free(buffer);
        return size;
    }
    AVPacket *packet = transcode->packet;
    av.av_packet_unref(packet);
    int code = av.av_new_packet(packet, size);
    if (code >= 0) {
        memcpy(packet->data, buffer, (size_t)size);
        packet->pts = packet->dts = av.av_rescale_q(subtitle->pts, AV_TIME_BASE_Q, transcode->stream->time_base);
        packet->duration = av.av_rescale_q(subtitle->end_display_time, (AVRational){1, 1000}, transcode->stream->time_base);
        packet->stream_index = transcode->stream->index;
        code = av.av_interleaved_write_frame(muxer, packet);
    }
    av.av_free(buffer);
    return code;
}

int ccvideo_transcode_packet(ccvideo_transcode *transcode, AVFormatContext *muxer, const AVPacket *packet) {
    if (transcode->subtitle) {
        if (packet == NULL) return 0;
        AVSubtitle subtitle;
        int got = 0;
        int code = av.avcodec_decode_subtitle2(transcode->decoder, &subtitle, &got, (AVPacket *)packet);
        if (code < 0 || !got) return code < 0 ? code : 0;
        code = encode_subtitle(transcode, muxer, &subtitle);
        av.avsubtitle_free(&subtitle);
        return code;
    }
    int code = av.avcodec_send_packet(transcode->decoder, packet);
    if (code < 0 && code != AVERROR_EOF) return code;
    for (;;) {
        code = av.avcodec_receive_frame(transcode->decoder, transcode->decoded);
        if (code == AVERROR(EAGAIN) || code == AVERROR_EOF) break;
        if (code < 0) return code;
        code = queue_samples(transcode, muxer, transcode->decoded);
        av.av_frame_unref(transcode->decoded);
        if (code < 0) return code;
    }
    if (packet != NULL) return 0;
    // At the end: what the resampler holds, the last short frame, then the encoder's delay.
    if (transcode->next_pts != AV_NOPTS_VALUE && (code = queue_samples(transcode, muxer, NULL)) < 0) return code;
    if ((code = encode_samples(transcode, muxer, 1)) < 0) return code;
    code = av.avcodec_send_frame(transcode->encoder, NULL);
    if (code < 0 && code != AVERROR_EOF) return code;
    return write_encoded(transcode, muxer);
}

#endif
