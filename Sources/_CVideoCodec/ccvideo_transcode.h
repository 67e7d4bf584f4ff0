// A stream re-encoded for the output (ccvideo_transcode.c). Not part of the API.
#ifndef COLORCUBE_CCVIDEO_TRANSCODE_H
#define COLORCUBE_CCVIDEO_TRANSCODE_H

#include "ccvideo_internal.h"

#ifdef CCVIDEO_HAVE_FFMPEG

#include <libavutil/audio_fifo.h>

typedef struct ccvideo_transcode {
    AVCodecContext *decoder, *encoder;
    /// Audio: the resampler to the encoder's format, layout and rate, and the samples waiting
    /// for a whole encoder frame.
    struct SwrContext *resampler;
    AVAudioFifo *fifo;
    AVFrame *decoded, *resampled, *chunk;
    AVPacket *packet;
    AVStream *stream;
    AVRational source_time_base;
    /// The next samples' time in the encoder's time base (AV_NOPTS_VALUE before the first).
    int64_t next_pts;
    int subtitle;
} ccvideo_transcode;

/// Opens the decoder of `source`, the encoder `encoder_name` (at `bit_rate` when > 0) and the
/// output stream in `muxer`. Returns 0 or an AVERROR, with the reason in `message`.
int ccvideo_transcode_open(ccvideo_transcode **transcode, const AVStream *source, AVFormatContext *muxer,
                           const char *encoder_name, int64_t bit_rate, char *message, size_t message_size);

/// Re-encodes a packet of the source stream (NULL: the end, everything held is written).
int ccvideo_transcode_packet(ccvideo_transcode *transcode, AVFormatContext *muxer, const AVPacket *packet);

void ccvideo_transcode_close(ccvideo_transcode *transcode);

#endif
#endif
