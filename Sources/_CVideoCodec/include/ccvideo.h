// A small C layer over FFmpeg's libraries (libavformat, libavcodec, libavutil) for colorcube's
// video grading, all in colorcube's process: a clip opened and described (`ccvideo_input`), its
// video stream decoded into packed frames (`ccvideo_decoder`), and the output written
// (`ccvideo_output`): graded frames encoded into it, every other stream kept copied as packets,
// with the clip's chapters, metadata and stream side data. It has no stable API: only
// ColorCubeApplier calls it.
//
// The libraries are opened at run time (dlopen), by the sonames of the headers this was built
// with: colorcube starts and grades photos on a machine without FFmpeg, and a clip there gets
// the usual message. Built without FFmpeg's headers, ccvideo_available() is always false.
//
// Frames cross this boundary packed as FFmpeg's rawvideo lays them out (planes one after another,
// rows without padding). Failures come back as a CCVIDEO_* status with FFmpeg's own reason (its
// return code through av_strerror, or the error it logged for that context).
#ifndef COLORCUBE_CCVIDEO_H
#define COLORCUBE_CCVIDEO_H

#include <stddef.h>
#include <stdint.h>

#define CCVIDEO_OK 0
/// A frame did not decode, or the packets could not be read (message: the reason).
#define CCVIDEO_DECODE_FAILED 1
/// The encoder could not be opened with these settings, or failed on a frame.
#define CCVIDEO_ENCODE_FAILED 2
/// Writing the output failed (message: the system's reason).
#define CCVIDEO_WRITE_FAILED 3
/// A frame of another size or pixel format than the stream's first.
#define CCVIDEO_FORMAT_CHANGED 4
/// Memory could not be had (for an input: its headers asked for more than could be had).
#define CCVIDEO_NO_MEMORY 5
/// An encoder option the encoder does not know (message: its name).
#define CCVIDEO_UNKNOWN_OPTION 6
/// The libraries are not there.
#define CCVIDEO_UNAVAILABLE 7
/// The file could not be opened as a media file (message: the reason).
#define CCVIDEO_UNREADABLE 8
/// The output's container cannot hold a stream's codec (message: the codec's name).
#define CCVIDEO_CONTAINER_CANNOT_HOLD 9

#define CCVIDEO_MESSAGE_SIZE 512

/// True (1) when FFmpeg's libraries could be opened; else 0, with the reason in `message`.
int ccvideo_available(char *message, size_t message_size);

/// The pixel formats the encoder `name` accepts, as FFmpeg's names separated by spaces, into
/// `out`. Returns 1 when the encoder exists, 0 when it does not (or the libraries are missing).
int ccvideo_encoder_formats(const char *name, char *out, size_t out_size);

// MARK: - A clip, opened and described

typedef struct ccvideo_input ccvideo_input;

/// Stream kinds, as FFmpeg's media types.
#define CCVIDEO_KIND_VIDEO 0
#define CCVIDEO_KIND_AUDIO 1
#define CCVIDEO_KIND_DATA 2
#define CCVIDEO_KIND_SUBTITLE 3
#define CCVIDEO_KIND_ATTACHMENT 4
#define CCVIDEO_KIND_OTHER 5

/// One stream of an opened clip, as its container and FFmpeg's probing describe it.
typedef struct ccvideo_stream_probe {
    int kind;
    /// FFmpeg's codec name ("h264", "aac", "mov_text"); "tmcd" for a QuickTime timecode track.
    char codec[32];
    /// The codec profile's name ("High", "Main 10"), or empty.
    char profile[64];
    /// Video: its size, pixel format name ("none" when unknown) and colour description as
    /// FFmpeg's integers, which are ITU-T H.273's codes (AVColorSpace, AVColorRange,
    /// AVColorPrimaries, AVColorTransferCharacteristic, AVChromaLocation).
    int width, height;
    char pixel_format[32];
    int color_matrix, color_range, color_primaries, color_transfer, chroma_location;
    /// 1 for a picture attached to the file (cover art), not a clip.
    int attached_picture;
    /// The container's frame count (0 when it has none); its duration in seconds (< 0 when it
    /// does not say) and average frame rate (0/1 when unknown).
    int64_t frame_count;
    double duration;
    int rate_num, rate_den;
    /// 1 with the display matrix's rotation in degrees (counter-clockwise, as FFmpeg gives it).
    int has_rotation;
    double rotation;
} ccvideo_stream_probe;

/// Opens the clip at `path` and reads its headers. NULL on failure with the status in `*status`
/// (CCVIDEO_UNREADABLE, CCVIDEO_NO_MEMORY: the headers ask for more memory than can be had,
/// CCVIDEO_UNAVAILABLE) and the reason in `message`.
ccvideo_input *ccvideo_input_open(const char *path, int *status, char *message, size_t message_size);

/// Reads the start of the streams to describe them (decoding a few frames where the headers do
/// not say enough). Returns CCVIDEO_OK or a status as above, with the reason.
int ccvideo_input_find_streams(ccvideo_input *input, char *message, size_t message_size);
void ccvideo_input_close(ccvideo_input *input);

/// The width and height of the first video stream (0 when there is none): as the headers
/// declare it until `ccvideo_input_find_streams`, then as probed where that found a size.
/// Returns 1 when FFmpeg decodes frames of that size (its own limit on a frame's bytes), else 0.
int ccvideo_input_declared_size(ccvideo_input *input, int *width, int *height);

/// The container's format names ("mov,mp4,m4a,3gp,3g2,mj2").
const char *ccvideo_input_format_name(ccvideo_input *input);
/// The container's duration in seconds (< 0 when unknown).
double ccvideo_input_duration(ccvideo_input *input);
int ccvideo_input_stream_count(ccvideo_input *input);
/// Describes stream `index` into `probe`; 0 when there is no such stream.
int ccvideo_input_stream(ccvideo_input *input, int index, ccvideo_stream_probe *probe);
/// The value of the file's metadata tag `key` (exact, case-sensitive), or NULL.
const char *ccvideo_input_tag(ccvideo_input *input, const char *key);

// MARK: - Decoding its video

typedef struct ccvideo_decoder ccvideo_decoder;

/// What the decoder's stream says; the pixel format is the decoder's.
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

/// HDR10's static metadata and the dynamic kinds, from the stream's side data and its first
/// frame's.
typedef struct ccvideo_hdr_info {
    int has_mastering;
    /// Red, green, blue, white as x, y; luminance in cd/m².
    double primaries[4][2];
    double min_luminance, max_luminance;
    int has_light;
    int max_cll, max_fall;
    int dolby_vision, hdr10_plus;
} ccvideo_hdr_info;

/// Opens the decoder of `input`'s stream `stream_index` on `threads` threads (0: as many as
/// cores) and decodes its first frame (kept for the first `ccvideo_decoder_next`). NULL on
/// failure with the status in `*status`, the reason in `message`, and in `info` only the size
/// the decoder read from the frame's own header (0 when none). Packets of other streams
/// read meanwhile are kept for the output (`ccvideo_decoder_next`).
ccvideo_decoder *ccvideo_decoder_open(ccvideo_input *input, int stream_index, int threads, ccvideo_stream_info *info,
                                      int *status, char *message, size_t message_size);

/// Has the decoder deliver frames in `pixel_format` (FFmpeg's name), converted from its own with
/// libswscale where they differ: planar YCbCr repacked exactly (nv12 to yuv420p), RGB to RGB,
/// or YCbCr to RGB with `matrix` (SWS_CS_*) and `full_range` (chroma repeated over its block).
/// Returns CCVIDEO_OK, or CCVIDEO_DECODE_FAILED when there is no such conversion.
int ccvideo_decoder_deliver(ccvideo_decoder *decoder, const char *pixel_format, int matrix, int full_range,
                            char *message, size_t message_size);

/// HDR10's metadata and dynamic metadata kinds the stream and its first frame carry.
void ccvideo_decoder_hdr(ccvideo_decoder *decoder, ccvideo_hdr_info *hdr);

typedef struct ccvideo_output ccvideo_output;

/// Decodes the next frame into `frame` (`frame_bytes`, packed) with its timestamp and duration
/// in the stream's time base (INT64_MIN / 0 when it has none). Packets of other streams read on
/// the way go to `output` (which drops those of streams it does not keep). Returns 1 for a
/// frame, 0 at the end, or -CCVIDEO_* with the reason in `message`. A frame FFmpeg marks corrupt,
/// a packet the demuxer read short of its declared size, and a decoding error, are failures.
int ccvideo_decoder_next(ccvideo_decoder *decoder, ccvideo_output *output, uint8_t *frame, size_t frame_bytes,
                         int64_t *pts, int64_t *duration, char *message, size_t message_size);

/// How far the clip's packets read so far reach, in seconds from the clip's start (the latest
/// timestamp plus duration of any stream's packet), into `reached`, and the duration the
/// container's header declares into `declared`. Returns 0 when the header declares none (the
/// duration is estimated from timestamps or the bit rate) or no packet had a timestamp.
int ccvideo_decoder_reach(ccvideo_decoder *decoder, double *reached, double *declared);

/// The warnings FFmpeg logged for this decoder's clip (say, "File ended prematurely"), one a
/// line; valid until the decoder is closed.
const char *ccvideo_decoder_warnings(ccvideo_decoder *decoder);

void ccvideo_decoder_close(ccvideo_decoder *decoder);

// MARK: - Writing the output

/// How the graded video is encoded: the encoder, its frames and its options as FFmpeg's option
/// names and values (`crf` `16`, `preset` `medium`, `x265-params` ...), and the colour tags as
/// FFmpeg's integers.
typedef struct ccvideo_encoder_settings {
    const char *encoder;
    /// The frames: their size, time base, rate, aspect, chroma siting and field order (the
    /// decoder's), and the encoder's pixel format (the name here; the info's own is not read).
    ccvideo_stream_info stream;
    const char *pixel_format;
    /// The format of the frames the caller fills; converted to `pixel_format` with libswscale
    /// (chroma averaged over its block, `matrix` SWS_CS_* and `full_range` between YCbCr and RGB)
    /// when it is another. NULL: `pixel_format`.
    const char *source_format;
    int matrix, full_range;
    const char *const *option_names;
    const char *const *option_values;
    int option_count;
    /// The colour description as FFmpeg's integers (H.273's codes; AVCOL_*_UNSPECIFIED where
    /// untagged).
    int color_matrix, color_range, color_primaries, color_transfer;
    /// The stream's codec tag as four characters ("hvc1"), or NULL for the muxer's choice.
    const char *codec_tag;
    /// Threads for the encoder (0: as the encoder decides).
    int threads;
} ccvideo_encoder_settings;

/// What the output does with each of the input's streams, by index.
#define CCVIDEO_STREAM_DROP 0
#define CCVIDEO_STREAM_COPY 1
/// Re-encoded: audio resampled for the encoder, text subtitles decoded and encoded again.
#define CCVIDEO_STREAM_ENCODE 3

/// What the output keeps of the input's video stream's side data.
#define CCVIDEO_HDR_METADATA_DROP 0
#define CCVIDEO_HDR_METADATA_KEEP 1

/// Opens the encoder and the output file `path` in FFmpeg's muxer `muxer`: the graded stream
/// first, then the input's streams whose `actions` say COPY (each with its codec parameters,
/// time base, dispositions, metadata and side data) or ENCODE (with the encoder `encoders[i]`
/// at `bit_rates[i]` bits a second when > 0, dispositions and metadata), in order; the input's
/// chapters and metadata. `hdr_metadata` says whether the video's mastering display and light
/// level side data stay (an HDR clip made SDR drops them); the display matrix always stays.
/// The file is written by `ccvideo_output_finish`. NULL on failure with the status and reason.
ccvideo_output *ccvideo_output_open(ccvideo_decoder *decoder, const char *path, const char *muxer,
                                    const int *actions, const char *const *encoders, const int64_t *bit_rates,
                                    int action_count, const ccvideo_encoder_settings *settings, int hdr_metadata,
                                    int *status, char *message, size_t message_size);

/// The packed frame to fill before the next `ccvideo_output_send` (64-byte aligned; it may
/// change from one frame to the next); NULL when memory could not be had.
uint8_t *ccvideo_output_buffer(ccvideo_output *output);

/// Encodes the frame filled in `ccvideo_output_buffer` with timestamp `pts` and `duration` in the
/// stream's time base, and writes what the encoder hands back. Returns CCVIDEO_OK or a failure.
int ccvideo_output_send(ccvideo_output *output, int64_t pts, int64_t duration, char *message, size_t message_size);

/// Drains the encoder and writes the file's end. Returns CCVIDEO_OK or a failure.
int ccvideo_output_finish(ccvideo_output *output, char *message, size_t message_size);

/// Frees the output; the file written so far is closed, not removed.
void ccvideo_output_close(ccvideo_output *output);

#endif
