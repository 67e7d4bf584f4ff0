// A small C layer over FFmpeg's libraries (libavformat, libavcodec, libavutil) for colorcube's
// video grading: a clip's video stream decoded into packed frames, and graded frames encoded and
// written as NUT (FFmpeg's own container) to a descriptor, all in colorcube's process. It has no
// stable API: only ColorCubeApplier calls it.
//
// The libraries are opened at run time (dlopen), by the sonames of the headers this was built
// with: colorcube starts and grades photos on a machine without FFmpeg, and a clip there gets
// the usual message. Built without FFmpeg's headers, ccvideo_available() is always false.
//
// Frames cross this boundary packed as FFmpeg's rawvideo lays them out (planes one after another,
// rows without padding), so they are what `ffmpeg -c:v rawvideo` would write.
#ifndef COLORCUBE_CCVIDEO_H
#define COLORCUBE_CCVIDEO_H

#include <stddef.h>
#include <stdint.h>

#define CCVIDEO_OK 0
/// The clip could not be opened or demuxed, or a frame did not decode (message: the reason).
#define CCVIDEO_DECODE_FAILED 1
/// The encoder could not be opened with these settings, or failed on a frame.
#define CCVIDEO_ENCODE_FAILED 2
/// Writing to the descriptor failed (message: the system's reason; EPIPE when the reader has gone).
#define CCVIDEO_WRITE_FAILED 3
/// A frame of another size or pixel format than the stream's first.
#define CCVIDEO_FORMAT_CHANGED 4
/// Memory could not be had.
#define CCVIDEO_NO_MEMORY 5
/// An encoder option the encoder does not know (message: its name).
#define CCVIDEO_UNKNOWN_OPTION 6
/// The libraries are not there.
#define CCVIDEO_UNAVAILABLE 7

#define CCVIDEO_MESSAGE_SIZE 512

/// True (1) when FFmpeg's libraries could be opened; else 0, with the reason in `message`.
int ccvideo_available(char *message, size_t message_size);

/// The pixel formats the encoder `name` accepts, as FFmpeg's names separated by spaces, into
/// `out`. Returns 1 when the encoder exists, 0 when it does not (or the libraries are missing).
int ccvideo_encoder_formats(const char *name, char *out, size_t out_size);

/// 1 when FFmpeg's muxer `muxer` (mp4, matroska, ...) wants a codec's headers apart from its
/// packets (as FFmpeg then asks of the encoder), else 0.
int ccvideo_muxer_wants_global_header(const char *muxer);

typedef struct ccvideo_decoder ccvideo_decoder;

/// What the decoder's stream says; the pixel format is the decoder's (known after opening).
typedef struct ccvideo_stream_info {
    int width;
    int height;
    char pixel_format[32];
    /// The stream's time base, in which the frames' timestamps are given.
    int time_base_num;
    int time_base_den;
    /// The average frame rate (0/1 when unknown), then the sample aspect ratio (0/1 unknown).
    int frame_rate_num;
    int frame_rate_den;
    int aspect_num;
    int aspect_den;
    /// AVChromaLocation and AVFieldOrder as the decoder reports them.
    int chroma_location;
    int field_order;
} ccvideo_stream_info;

/// Opens `path` and the decoder of its stream `stream_index`, on `threads` threads (0: as many
/// as cores). NULL on failure, with the reason in `message`.
ccvideo_decoder *ccvideo_decoder_open(const char *path, int stream_index, int threads, ccvideo_stream_info *info,
                                      char *message, size_t message_size);

/// Decodes the next frame into `frame` (`frame_bytes`, packed) with its timestamp in the
/// stream's time base (INT64_MIN when it has none). Returns 1 for a frame, 0 at the end, or
/// -CCVIDEO_* with the reason in `message`. A frame FFmpeg marks corrupt, and a decoding error,
/// are failures (as `ffmpeg -xerror`).
int ccvideo_decoder_next(ccvideo_decoder *decoder, uint8_t *frame, size_t frame_bytes, int64_t *pts,
                         char *message, size_t message_size);

/// The warnings FFmpeg logged for this decoder's clip (say, "File ended prematurely"), one a
/// line; valid until the decoder is closed.
const char *ccvideo_decoder_warnings(ccvideo_decoder *decoder);

void ccvideo_decoder_close(ccvideo_decoder *decoder);

typedef struct ccvideo_encoder ccvideo_encoder;

/// How frames are encoded: the encoder, its frames and its options as FFmpeg's option names
/// and values (`crf` `16`, `preset` `medium`, `colorspace` `bt709`, ...).
typedef struct ccvideo_encoder_settings {
    const char *encoder;
    /// The frames: their size, time base, rate, aspect, chroma siting and field order (the
    /// decoder's), and their pixel format (the name here; the info's own is not read).
    ccvideo_stream_info stream;
    const char *pixel_format;
    /// 1 when the container the stream ends up in wants the codec's headers apart (MP4, MOV,
    /// Matroska), as FFmpeg asks of an encoder for such a muxer.
    int global_header;
    const char *const *option_names;
    const char *const *option_values;
    int option_count;
    /// Threads for the encoder (0: as the encoder decides).
    int threads;
} ccvideo_encoder_settings;

/// Opens the encoder and a NUT muxer that writes to `descriptor` (not closed here). NULL on
/// failure, with the status in `*status` and the reason in `message`.
ccvideo_encoder *ccvideo_encoder_open(const ccvideo_encoder_settings *settings, int descriptor, int *status,
                                      char *message, size_t message_size);

/// The packed frame to fill before the next `ccvideo_encoder_send` (as many bytes as a frame of
/// the settings' size and format takes, 64-byte aligned); NULL when memory could not be had.
/// The pointer may change from one frame to the next.
uint8_t *ccvideo_encoder_buffer(ccvideo_encoder *encoder);

/// Encodes the frame filled in `ccvideo_encoder_buffer` with timestamp `pts` in the settings'
/// time base, and writes what the encoder hands back. Returns CCVIDEO_OK or a CCVIDEO_* failure.
int ccvideo_encoder_send(ccvideo_encoder *encoder, int64_t pts, char *message, size_t message_size);

/// Drains the encoder and ends the NUT stream. Returns CCVIDEO_OK or a failure as above.
int ccvideo_encoder_finish(ccvideo_encoder *encoder, char *message, size_t message_size);

void ccvideo_encoder_close(ccvideo_encoder *encoder);

#endif
