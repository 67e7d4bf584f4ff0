// See ccexr.h. Reading goes through a read function over a file descriptor (pread, so chunks can
// be decoded on several threads at once) that also records how far the header reached, so that the
// header's bytes can be kept for an output to copy its attributes from.
#include "ccexr.h"

#include <OpenEXR/openexr.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/// zlib's level for ZIP and ZIPS outputs: 4, the level OpenImageIO writes (zlib's default, 6, makes
/// files about 3% smaller and takes about half as long again).
#define CCEXR_ZIP_LEVEL 4

/// The library's last error message on this thread (its handler has no user data of ours).
static _Thread_local char last_error[CCEXR_MESSAGE_SIZE];

static void record_error(exr_const_context_t ctxt, exr_result_t code, const char *text) {
    (void)ctxt;
    snprintf(last_error, sizeof last_error, "%s", text ? text : exr_get_default_error_message(code));
}

static int fail(char *message, int status, const char *text) {
    snprintf(message, CCEXR_MESSAGE_SIZE, "%s", text);
    return status;
}

/// The library's message for `result`: its handler's text where it gave one.
static int library_failure(char *message, exr_result_t result) {
    const char *text = last_error[0] ? last_error : exr_get_default_error_message(result);
    if (result == EXR_ERR_OUT_OF_MEMORY) return fail(message, CCEXR_NO_MEMORY, text);
    return fail(message, CCEXR_ERROR, text);
}

struct ccexr_reader {
    int fd;
    int64_t file_size;
    int recording;        // set while the header is parsed
    uint64_t extent;      // the furthest byte read while recording
    exr_context_t context;
    uint8_t *header;
    size_t header_size;
    int part;             // the part read
    int channel_of[4];    // for R, G, B, A: the channel list's index, or -1
    ccexr_info info;
};

static int64_t read_file(exr_const_context_t ctxt, void *user, void *buffer, uint64_t size, uint64_t offset,
                         exr_stream_error_func_ptr_t error) {
    struct ccexr_reader *reader = user;
    ssize_t got = pread(reader->fd, buffer, size, (off_t)offset);
    if (got < 0) {
        error(ctxt, EXR_ERR_READ_IO, "cannot read the file: %s", strerror(errno));
        return -1;
    }
    if (reader->recording && offset + (uint64_t)got > reader->extent) reader->extent = offset + (uint64_t)got;
    return got;
}

static int64_t file_size(exr_const_context_t ctxt, void *user) {
    (void)ctxt;
    return ((struct ccexr_reader *)user)->file_size;
}

/// R, G, B, A as 0...3, anything else -1.
static int rgba_index(const char *name) {
    if (strcmp(name, "R") == 0) return 0;
    if (strcmp(name, "G") == 0) return 1;
    if (strcmp(name, "B") == 0) return 2;
    if (strcmp(name, "A") == 0) return 3;
    return -1;
}

/// What a part's channel list offers: R, G and B at full resolution, or why not.
enum part_channels { PART_RGB, PART_NO_RGB, PART_SUBSAMPLED };

/// Finds R, G, B and A in a part's channel list: `channel_of` their indices (or -1) and
/// `pixel_type` the widest colour channel's rank (0 uint, 1 half, 2 float).
static enum part_channels find_rgb(const exr_attr_chlist_t *channels, int channel_of[4], int32_t *pixel_type) {
    for (int i = 0; i < 4; i++) channel_of[i] = -1;
    *pixel_type = -1;
    int subsampled = 0;
    for (int i = 0; i < channels->num_channels; i++) {
        const exr_attr_chlist_entry_t *entry = &channels->entries[i];
        int index = rgba_index(entry->name.str);
        if (index < 0) continue;
        if (entry->x_sampling != 1 || entry->y_sampling != 1) subsampled = 1;
        channel_of[index] = i;
        if (index < 3) {
            int rank = entry->pixel_type == EXR_PIXEL_FLOAT ? 2 : entry->pixel_type == EXR_PIXEL_HALF ? 1 : 0;
            if (rank > *pixel_type) *pixel_type = rank;
        }
    }
    if (channel_of[0] < 0 || channel_of[1] < 0 || channel_of[2] < 0) return PART_NO_RGB;
    return subsampled ? PART_SUBSAMPLED : PART_RGB;
}

/// The first part of a multi-part file with full-resolution R, G and B that is not deep, or -1
/// with `message` naming what each part holds.
static int choose_part(exr_const_context_t ctxt, int parts, char *message) {
    char seen[CCEXR_MESSAGE_SIZE] = "";
    size_t used = 0;
    for (int part = 0; part < parts; part++) {
        exr_storage_t storage = EXR_STORAGE_SCANLINE;
        exr_get_storage(ctxt, part, &storage);
        const exr_attr_chlist_t *channels = NULL;
        int deep = storage == EXR_STORAGE_DEEP_SCANLINE || storage == EXR_STORAGE_DEEP_TILED;
        int found = -1;
        if (!deep && exr_get_channels(ctxt, part, &channels) == EXR_ERR_SUCCESS && channels) {
            int channel_of[4];
            int32_t type;
            found = find_rgb(channels, channel_of, &type);
            if (found == PART_RGB) return part;
        }
        const char *name = NULL;
        exr_get_name(ctxt, part, &name);
        const char *holds = deep ? "deep" : found == PART_SUBSAMPLED ? "subsampled RGB" : "no R, G and B";
        if (used < sizeof seen - 80) {
            int wrote = snprintf(seen + used, sizeof seen - used, "%s%d \"%.24s\" %s", part ? ", " : "", part,
                                 name ? name : "", holds);
            if (wrote > 0) used += (size_t)wrote;
        }
    }
    snprintf(message, CCEXR_MESSAGE_SIZE,
             "none of its %d parts is a flat RGB image (parts: %s); colorcube reads RGB and RGBA images: extract or "
             "convert a part with oiiotool (oiiotool IN --subimage NAME -o OUT)", parts, seen);
    return -1;
}

/// Reads the attributes of the part to read (the only one, or a multi-part file's first flat RGB
/// part) that `info` reports; the reader's channel map too.
static int describe(struct ccexr_reader *reader, char *message) {
    exr_context_t ctxt = reader->context;
    ccexr_info *info = &reader->info;
    int parts = 0;
    exr_get_count(ctxt, &parts);
    if (parts < 1) return fail(message, CCEXR_ERROR, "its header declares no parts");
    int part = 0;
    if (parts > 1) {
        part = choose_part(ctxt, parts, message);
        if (part < 0) return CCEXR_UNSUPPORTED;
        const char *name = NULL;
        if (exr_get_name(ctxt, part, &name) == EXR_ERR_SUCCESS && name)
            snprintf(info->part_name, sizeof info->part_name, "%s", name);
    }
    reader->part = part;
    info->part = part;
    info->part_count = parts;
    exr_storage_t storage;
    exr_get_storage(ctxt, part, &storage);
    if (storage == EXR_STORAGE_DEEP_SCANLINE || storage == EXR_STORAGE_DEEP_TILED)
        return fail(message, CCEXR_UNSUPPORTED, "it holds deep data (samples per pixel); colorcube reads flat images");
    info->tiled = storage == EXR_STORAGE_TILED;
    exr_attr_box2i_t data, display;
    if (exr_get_data_window(ctxt, part, &data) != EXR_ERR_SUCCESS || exr_get_display_window(ctxt, part, &display) != EXR_ERR_SUCCESS)
        return fail(message, CCEXR_ERROR, "its header has no data or display window");
    int64_t width = (int64_t)data.max.x - data.min.x + 1, height = (int64_t)data.max.y - data.min.y + 1;
    if (width < 1 || height < 1 || width > INT32_MAX || height > INT32_MAX)
        return fail(message, CCEXR_ERROR, "its data window is empty or inverted");
    info->width = (int32_t)width;
    info->height = (int32_t)height;
    info->data_min_x = data.min.x;
    info->data_min_y = data.min.y;
    info->display_min_x = display.min.x;
    info->display_min_y = display.min.y;
    info->display_max_x = display.max.x;
    info->display_max_y = display.max.y;

    const exr_attr_chlist_t *channels = NULL;
    if (exr_get_channels(ctxt, part, &channels) != EXR_ERR_SUCCESS || !channels)
        return fail(message, CCEXR_ERROR, "its header has no channel list");
    enum part_channels found = find_rgb(channels, reader->channel_of, &info->pixel_type);
    if (found == PART_SUBSAMPLED)
        return fail(message, CCEXR_UNSUPPORTED, "its R, G, B or A channel is subsampled; colorcube reads full-resolution channels");
    if (found == PART_NO_RGB) {
        char names[160] = "";
        for (int i = 0; i < channels->num_channels && strlen(names) < 120; i++) {
            if (i) strcat(names, ", ");
            strncat(names, channels->entries[i].name.str, 16);
        }
        snprintf(message, CCEXR_MESSAGE_SIZE,
                 "it has no R, G and B channels (it has %s); colorcube reads RGB and RGBA images: convert a "
                 "luminance or layered file to RGB with oiiotool", names);
        return CCEXR_UNSUPPORTED;
    }
    info->channels = reader->channel_of[3] >= 0 ? 4 : 3;
    exr_compression_t compression;
    exr_get_compression(ctxt, part, &compression);
    info->compression = (int32_t)compression;
    if (compression == EXR_COMPRESSION_DWAA || compression == EXR_COMPRESSION_DWAB)
        return fail(message, CCEXR_UNSUPPORTED,
                    "it is DWA-compressed, which OpenEXR's C library 3.1 does not decode; convert it to ZIP first "
                    "(oiiotool IN --compression zip -o OUT)");
    exr_lineorder_t order;
    exr_get_lineorder(ctxt, part, &order);
    info->line_order = (int32_t)order;
    if (info->tiled) {
        exr_tile_level_mode_t level;
        exr_tile_round_mode_t round;
        exr_get_tile_descriptor(ctxt, part, &info->tile_width, &info->tile_height, &level, &round);
        if (info->tile_width == 0 || info->tile_height == 0)
            return fail(message, CCEXR_ERROR, "its tile size is zero");
    }
    exr_get_pixel_aspect_ratio(ctxt, part, &info->pixel_aspect_ratio);
    exr_attr_v2f_t center = {{{0, 0}}};
    exr_get_screen_window_center(ctxt, part, &center);
    info->screen_window_center_x = center.x;
    info->screen_window_center_y = center.y;
    exr_get_screen_window_width(ctxt, part, &info->screen_window_width);
    exr_attr_chromaticities_t chromaticities;
    if (exr_attr_get_chromaticities(ctxt, part, "chromaticities", &chromaticities) == EXR_ERR_SUCCESS) {
        info->has_chromaticities = 1;
        float values[8] = {chromaticities.red_x, chromaticities.red_y, chromaticities.green_x, chromaticities.green_y,
                           chromaticities.blue_x, chromaticities.blue_y, chromaticities.white_x, chromaticities.white_y};
        memcpy(info->chromaticities, values, sizeof values);
    }
    int32_t length = 0;
    const char *interop = NULL;
    if (exr_attr_get_string(ctxt, part, "colorInteropID", &length, &interop) == EXR_ERR_SUCCESS && interop && length > 0)
        snprintf(info->color_interop_id, sizeof info->color_interop_id, "%.*s", (int)length, interop);
    return CCEXR_OK;
}

int ccexr_open(const char *path, ccexr_reader **out, ccexr_info *info, char *message) {
    *out = NULL;
    last_error[0] = 0;
    struct ccexr_reader *reader = calloc(1, sizeof *reader);
    if (!reader) return fail(message, CCEXR_NO_MEMORY, "out of memory");
    reader->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (reader->fd < 0) {
        int status = fail(message, CCEXR_CANNOT_OPEN, strerror(errno));
        free(reader);
        return status;
    }
    struct stat status;
    if (fstat(reader->fd, &status) != 0 || !S_ISREG(status.st_mode)) {
        close(reader->fd);
        free(reader);
        return fail(message, CCEXR_CANNOT_OPEN, "it is not a regular file");
    }
    reader->file_size = status.st_size;
    unsigned char magic[4] = {0};
    if (pread(reader->fd, magic, 4, 0) != 4 || magic[0] != 0x76 || magic[1] != 0x2f || magic[2] != 0x31 || magic[3] != 0x01) {
        close(reader->fd);
        free(reader);
        return fail(message, CCEXR_NOT_EXR, "it does not start with OpenEXR's magic number");
    }
    exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
    init.error_handler_fn = record_error;
    init.user_data = reader;
    init.read_fn = read_file;
    init.size_fn = file_size;
    init.flags = EXR_CONTEXT_FLAG_SILENT_HEADER_PARSE;
    reader->recording = 1;
    exr_result_t result = exr_start_read(&reader->context, path, &init);
    reader->recording = 0;
    if (result != EXR_ERR_SUCCESS) {
        int failure = result == EXR_ERR_OUT_OF_MEMORY ? library_failure(message, result)
            : fail(message, CCEXR_ERROR, last_error[0] ? last_error : exr_get_default_error_message(result));
        ccexr_close(reader);
        return failure;
    }
    int described = describe(reader, message);
    if (described != CCEXR_OK) {
        ccexr_close(reader);
        return described;
    }
    // The header's bytes, for an output to copy attributes from.
    reader->header_size = reader->extent;
    reader->header = malloc(reader->header_size ? reader->header_size : 1);
    if (!reader->header || pread(reader->fd, reader->header, reader->header_size, 0) != (ssize_t)reader->header_size) {
        ccexr_close(reader);
        return fail(message, CCEXR_ERROR, "cannot read the header again");
    }
    *info = reader->info;
    *out = reader;
    return CCEXR_OK;
}

const uint8_t *ccexr_header(const ccexr_reader *reader, size_t *size) {
    *size = reader->header_size;
    return reader->header;
}

void ccexr_close(ccexr_reader *reader) {
    if (!reader) return;
    if (reader->context) exr_finish(&reader->context);
    if (reader->fd >= 0) close(reader->fd);
    free(reader->header);
    free(reader);
}

/// One thread's share of the chunks: every `step`-th chunk from `first`.
/// Threads for decoding or compressing chunks: one per core, at most 16.
#define CCEXR_MAX_THREADS 16

static int thread_count(void) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores < 1 ? 1 : cores > CCEXR_MAX_THREADS ? CCEXR_MAX_THREADS : (int)cores;
}

/// Runs `work` on each of `count` jobs (an array of `size`-byte structures) on a thread of its
/// own, the first on the calling thread; a job whose thread cannot be started runs here too.
static void run_jobs(void *(*work)(void *), void *jobs, size_t size, int count) {
    pthread_t handles[CCEXR_MAX_THREADS];
    int running[CCEXR_MAX_THREADS] = {0};
    for (int t = 1; t < count; t++) {
        void *job = (char *)jobs + (size_t)t * size;
        running[t] = pthread_create(&handles[t], NULL, work, job) == 0;
        if (!running[t]) work(job);
    }
    work(jobs);
    for (int t = 1; t < count; t++)
        if (running[t]) pthread_join(handles[t], NULL);
}

struct decode_job {
    struct ccexr_reader *reader;
    float *pixels;
    int first, step;
    exr_result_t result;
    char error[CCEXR_MESSAGE_SIZE];
};

/// The chunk `index` (scanline chunks top to bottom, tiles row by row) as its origin in the data
/// window, relative to its corner.
static exr_result_t chunk_info(const struct ccexr_reader *reader, int index, int32_t lines, exr_chunk_info_t *chunk,
                               int64_t *x, int64_t *y) {
    const ccexr_info *info = &reader->info;
    if (info->tiled) {
        int64_t across = (info->width + (int64_t)info->tile_width - 1) / info->tile_width;
        int tile_x = (int)(index % across), tile_y = (int)(index / across);
        *x = (int64_t)tile_x * info->tile_width;
        *y = (int64_t)tile_y * info->tile_height;
        return exr_read_tile_chunk_info(reader->context, reader->part, tile_x, tile_y, 0, 0, chunk);
    }
    *x = 0;
    *y = (int64_t)index * lines;
    return exr_read_scanline_chunk_info(reader->context, reader->part, (int)(info->data_min_y + *y), chunk);
}

static void *decode_chunks(void *argument) {
    struct decode_job *job = argument;
    struct ccexr_reader *reader = job->reader;
    const ccexr_info *info = &reader->info;
    last_error[0] = 0;
    int32_t lines = 1, count = 0;
    exr_get_scanlines_per_chunk(reader->context, reader->part, &lines);
    exr_get_chunk_count(reader->context, reader->part, &count);
    if (info->tiled) {
        int64_t across = (info->width + (int64_t)info->tile_width - 1) / info->tile_width;
        int64_t down = (info->height + (int64_t)info->tile_height - 1) / info->tile_height;
        count = (int32_t)(across * down);  // the first level's tiles
    } else if (lines < 1) {
        job->result = EXR_ERR_INVALID_ARGUMENT;
        return NULL;
    }
    const int64_t stride = info->channels;
    // One chunk's planes: a tile, or the scanlines of a chunk, never more than the picture holds
    // (a header may declare tiles or chunks larger than the data window). One more plane takes
    // every channel that is not R, G, B or A: the library writes each channel somewhere (some
    // of its fast paths do not look for a channel left out).
    const int64_t chunk_columns = info->tiled && info->tile_width < (uint32_t)info->width ? info->tile_width : info->width;
    const int64_t chunk_rows = info->tiled ? (info->tile_height < (uint32_t)info->height ? info->tile_height : info->height)
                                           : (lines < info->height ? lines : info->height);
    const int64_t plane_size = chunk_columns * chunk_rows;
    float *planes = malloc((size_t)(plane_size * (stride + 1)) * sizeof(float));
    if (!planes) {
        job->result = EXR_ERR_OUT_OF_MEMORY;
        snprintf(job->error, sizeof job->error, "out of memory");
        return NULL;
    }
    exr_decode_pipeline_t decoder;
    memset(&decoder, 0, sizeof decoder);
    int started = 0;
    for (int index = job->first; index < count; index += job->step) {
        exr_chunk_info_t chunk;
        int64_t x = 0, y = 0;
        exr_result_t result = chunk_info(reader, index, lines, &chunk, &x, &y);
        if (result == EXR_ERR_SUCCESS)
            result = started ? exr_decoding_update(reader->context, reader->part, &chunk, &decoder)
                             : exr_decoding_initialize(reader->context, reader->part, &chunk, &decoder);
        if (result != EXR_ERR_SUCCESS) {
            job->result = result;
            break;
        }
        if (x + chunk.width > info->width || y + chunk.height > info->height || chunk.width < 0 || chunk.height < 0
            || (int64_t)chunk.width * chunk.height > plane_size) {
            job->result = EXR_ERR_CORRUPT_CHUNK;
            break;
        }
        // Each channel into its own plane of the chunk (the library's interleaving fast paths
        // assume pointer layouts of their own), then interleaved as R, G, B(, A) below.
        for (int c = 0; c < decoder.channel_count; c++) {
            exr_coding_channel_info_t *channel = &decoder.channels[c];
            int target = rgba_index(channel->channel_name);
            if (target < 0 || target >= info->channels) target = (int)stride;  // the plane for the others
            channel->decode_to_ptr = (uint8_t *)(planes + (int64_t)target * plane_size);
            channel->user_pixel_stride = sizeof(float);
            channel->user_line_stride = (int32_t)(chunk.width * sizeof(float));
            channel->user_bytes_per_element = sizeof(float);
            channel->user_data_type = EXR_PIXEL_FLOAT;
        }
        if (!started) {
            result = exr_decoding_choose_default_routines(reader->context, reader->part, &decoder);
            started = 1;
        }
        if (result == EXR_ERR_SUCCESS) result = exr_decoding_run(reader->context, reader->part, &decoder);
        if (result != EXR_ERR_SUCCESS) {
            job->result = result;
            break;
        }
        for (int64_t row = 0; row < chunk.height; row++) {
            float *pixel = job->pixels + ((y + row) * info->width + x) * stride;
            const float *plane = planes + row * chunk.width;
            for (int64_t i = 0; i < chunk.width; i++, pixel += stride)
                for (int64_t c = 0; c < stride; c++) pixel[c] = plane[c * plane_size + i];
        }
    }
    free(planes);
    if (job->result != EXR_ERR_SUCCESS)
        snprintf(job->error, sizeof job->error, "%s", last_error[0] ? last_error : exr_get_default_error_message(job->result));
    if (started || decoder.channels) exr_decoding_destroy(reader->context, &decoder);
    return NULL;
}

int ccexr_read_pixels(ccexr_reader *reader, float *pixels, char *message) {
    int threads = thread_count();
    struct decode_job jobs[CCEXR_MAX_THREADS];
    for (int t = 0; t < threads; t++)
        jobs[t] = (struct decode_job){.reader = reader, .pixels = pixels, .first = t, .step = threads};
    run_jobs(decode_chunks, jobs, sizeof jobs[0], threads);
    for (int t = 0; t < threads; t++) {
        if (jobs[t].result != EXR_ERR_SUCCESS) {
            int status = jobs[t].result == EXR_ERR_OUT_OF_MEMORY ? CCEXR_NO_MEMORY : CCEXR_ERROR;
            return fail(message, status, jobs[t].error);
        }
    }
    return CCEXR_OK;
}

// MARK: Writing

/// A source header served from memory, for exr_copy_unset_attributes.
struct memory_source {
    const uint8_t *bytes;
    size_t size;
};

static int64_t read_memory(exr_const_context_t ctxt, void *user, void *buffer, uint64_t size, uint64_t offset,
                           exr_stream_error_func_ptr_t error) {
    (void)ctxt;
    (void)error;
    const struct memory_source *source = user;
    if (offset >= source->size) return 0;
    uint64_t count = source->size - offset < size ? source->size - offset : size;
    memcpy(buffer, source->bytes + offset, count);
    return (int64_t)count;
}

static int64_t memory_size(exr_const_context_t ctxt, void *user) {
    (void)ctxt;
    return (int64_t)((const struct memory_source *)user)->size;
}

/// One sample for the file's channel type, into `out` (2 bytes for half, 4 otherwise).
static void store_sample(float value, int pixel_type, uint8_t *out) {
    if (pixel_type == EXR_PIXEL_HALF) {
        _Float16 half = (_Float16)value;
        memcpy(out, &half, 2);
    } else if (pixel_type == EXR_PIXEL_FLOAT) {
        memcpy(out, &value, 4);
    } else {
        // Rounded in double: value + 0.5f in float rounds 2^23 + 1 up to 2^23 + 2.
        uint32_t code = value != value || value <= 0 ? 0 : value >= 4294967295.0f ? UINT32_MAX : (uint32_t)((double)value + 0.5);
        memcpy(out, &code, 4);
    }
}

/// One chunk compressed, waiting for its turn to be written.
struct compressed_chunk {
    void *data;
    uint64_t size;
};

/// What the compressing threads share: the picture, and a slot per chunk for what they make.
struct encode_plan {
    exr_context_t context;
    int part;
    const ccexr_info *info;
    const float *pixels;
    int pixel_type, bytes;
    exr_lineorder_t order;
    int32_t lines;          // scanlines per chunk
    int64_t across, count;  // tiles per row; chunks
    struct compressed_chunk *chunks;
};

/// One thread's share of the chunks: every `step`-th from `first`.
struct encode_job {
    struct encode_plan *plan;
    int64_t first, step, current;
    exr_result_t result;
};

/// The pipeline's last step, instead of writing: the compressed bytes kept in the chunk's slot.
static exr_result_t keep_chunk(exr_encode_pipeline_t *encoder) {
    struct encode_job *job = encoder->encoding_user_data;
    struct compressed_chunk *slot = &job->plan->chunks[job->current];
    slot->data = malloc(encoder->compressed_bytes ? encoder->compressed_bytes : 1);
    if (!slot->data) return EXR_ERR_OUT_OF_MEMORY;
    memcpy(slot->data, encoder->compressed_buffer, encoder->compressed_bytes);
    slot->size = encoder->compressed_bytes;
    return EXR_ERR_SUCCESS;
}

/// Chunks are compressed in any order; `keep_chunk` holds them until they are written in order.
static exr_result_t any_order(exr_encode_pipeline_t *encoder) {
    (void)encoder;
    return EXR_ERR_SUCCESS;
}

static void *compress_share(void *argument) {
    struct encode_job *job = argument;
    struct encode_plan *plan = job->plan;
    const ccexr_info *info = plan->info;
    const int64_t stride = info->channels, bytes = plan->bytes;
    int64_t chunk_width = info->tiled && info->tile_width < (uint32_t)info->width ? info->tile_width : info->width;
    int64_t chunk_height = info->tiled ? (info->tile_height < (uint32_t)info->height ? info->tile_height : info->height)
                                       : (plan->lines < info->height ? plan->lines : info->height);
    uint8_t *buffer = malloc((size_t)(chunk_width * chunk_height * stride * bytes));
    if (!buffer) {
        job->result = EXR_ERR_OUT_OF_MEMORY;
        return NULL;
    }
    exr_encode_pipeline_t encoder;
    memset(&encoder, 0, sizeof encoder);
    int started = 0;
    exr_result_t result = EXR_ERR_SUCCESS;
    for (int64_t index = job->first; index < plan->count && result == EXR_ERR_SUCCESS; index += job->step) {
        int64_t x = info->tiled ? (index % plan->across) * info->tile_width : 0;
        int64_t y = info->tiled ? (index / plan->across) * info->tile_height : index * plan->lines;
        exr_chunk_info_t chunk;
        result = info->tiled
            ? exr_write_tile_chunk_info(plan->context, plan->part, (int)(index % plan->across), (int)(index / plan->across), 0, 0, &chunk)
            : exr_write_scanline_chunk_info(plan->context, plan->part, (int)(info->data_min_y + y), &chunk);
        if (result != EXR_ERR_SUCCESS) break;
        if ((int64_t)chunk.width * chunk.height > chunk_width * chunk_height) {
            result = EXR_ERR_INVALID_ARGUMENT;
            break;
        }
        result = started ? exr_encoding_update(plan->context, plan->part, &chunk, &encoder)
                         : exr_encoding_initialize(plan->context, plan->part, &chunk, &encoder);
        if (result != EXR_ERR_SUCCESS) break;
        // The chunk's samples in the file's type, a plane per channel in R, G, B, A order (the
        // library's interleaving fast paths assume pointer layouts of their own).
        const int64_t plane = (int64_t)chunk.width * chunk.height;
        for (int64_t row = 0; row < chunk.height; row++) {
            const float *source = plan->pixels + ((y + row) * info->width + x) * stride;
            for (int64_t i = 0; i < chunk.width; i++)
                for (int64_t c = 0; c < stride; c++)
                    store_sample(source[i * stride + c], plan->pixel_type, buffer + ((c * plane) + row * chunk.width + i) * bytes);
        }
        for (int c = 0; c < encoder.channel_count; c++) {
            exr_coding_channel_info_t *channel = &encoder.channels[c];
            channel->encode_from_ptr = buffer + rgba_index(channel->channel_name) * plane * bytes;
            channel->user_pixel_stride = (int32_t)bytes;
            channel->user_line_stride = (int32_t)(chunk.width * bytes);
            channel->user_bytes_per_element = (int16_t)bytes;
            channel->user_data_type = (uint16_t)plan->pixel_type;
        }
        if (!started) {
            result = exr_encoding_choose_default_routines(plan->context, plan->part, &encoder);
            started = 1;
        }
        encoder.encoding_user_data = job;
        encoder.yield_until_ready_fn = any_order;
        encoder.write_fn = keep_chunk;
        job->current = index;
        if (result == EXR_ERR_SUCCESS) result = exr_encoding_run(plan->context, plan->part, &encoder);
    }
    if (started) exr_encoding_destroy(plan->context, &encoder);
    free(buffer);
    job->result = result;
    return NULL;
}

/// Compresses every chunk of `plan`, on as many threads as there are cores.
static exr_result_t compress_chunks(struct encode_plan *plan) {
    int threads = thread_count();
    struct encode_job jobs[CCEXR_MAX_THREADS];
    for (int t = 0; t < threads; t++) jobs[t] = (struct encode_job){.plan = plan, .first = t, .step = threads};
    run_jobs(compress_share, jobs, sizeof jobs[0], threads);
    for (int t = 0; t < threads; t++)
        if (jobs[t].result != EXR_ERR_SUCCESS) return jobs[t].result;
    return EXR_ERR_SUCCESS;
}

int ccexr_write(const char *path, const ccexr_write_options *options, const float *pixels, char *message) {
    last_error[0] = 0;
    const ccexr_info *info = &options->info;
    int pixel_type = info->pixel_type == 2 ? EXR_PIXEL_FLOAT : info->pixel_type == 1 ? EXR_PIXEL_HALF : EXR_PIXEL_UINT;
    int bytes = pixel_type == EXR_PIXEL_HALF ? 2 : 4;
    exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
    init.error_handler_fn = record_error;
    init.zip_level = CCEXR_ZIP_LEVEL;
    exr_context_t context = NULL;
    exr_result_t result = exr_start_write(&context, path, EXR_WRITE_FILE_DIRECTLY, &init);
    if (result != EXR_ERR_SUCCESS) return fail(message, CCEXR_CANNOT_OPEN, last_error[0] ? last_error : strerror(errno));
    int part = 0;
    result = exr_add_part(context, NULL, info->tiled ? EXR_STORAGE_TILED : EXR_STORAGE_SCANLINE, &part);
    exr_attr_box2i_t data = {{{info->data_min_x, info->data_min_y}},
                             {{info->data_min_x + info->width - 1, info->data_min_y + info->height - 1}}};
    exr_attr_box2i_t display = {{{info->display_min_x, info->display_min_y}}, {{info->display_max_x, info->display_max_y}}};
    exr_attr_v2f_t center = {{{info->screen_window_center_x, info->screen_window_center_y}}};
    exr_lineorder_t order = info->tiled ? (exr_lineorder_t)info->line_order
        : info->line_order == EXR_LINEORDER_DECREASING_Y ? EXR_LINEORDER_DECREASING_Y : EXR_LINEORDER_INCREASING_Y;
    if (result == EXR_ERR_SUCCESS)
        result = exr_initialize_required_attr(context, part, &display, &data, info->pixel_aspect_ratio, &center,
                                              info->screen_window_width, order, (exr_compression_t)info->compression);
    static const char *names[4] = {"R", "G", "B", "A"};
    for (int c = 0; c < info->channels && result == EXR_ERR_SUCCESS; c++)
        result = exr_add_channel(context, part, names[c], (exr_pixel_type_t)pixel_type, EXR_PERCEPTUALLY_LOGARITHMIC, 1, 1);
    if (result == EXR_ERR_SUCCESS && info->tiled)
        result = exr_set_tile_descriptor(context, part, info->tile_width, info->tile_height, EXR_TILE_ONE_LEVEL, EXR_TILE_ROUND_DOWN);
    if (result == EXR_ERR_SUCCESS && options->source_header && options->source_header_size > 0) {
        struct memory_source source = {options->source_header, options->source_header_size};
        exr_context_initializer_t source_init = EXR_DEFAULT_CONTEXT_INITIALIZER;
        source_init.user_data = &source;
        source_init.read_fn = read_memory;
        source_init.size_fn = memory_size;
        source_init.flags = EXR_CONTEXT_FLAG_SILENT_HEADER_PARSE;
        exr_context_t header = NULL;
        if (exr_start_read(&header, "header", &source_init) == EXR_ERR_SUCCESS) {
            // Attributes of the input's part that the output has not set: every one but the
            // required ones written above and the channel list, tiles and chunk count.
            result = exr_copy_unset_attributes(context, part, header, info->part);
        }
        if (header) exr_finish(&header);
    }
    if (result == EXR_ERR_SUCCESS) result = exr_write_header(context);

    struct encode_plan plan = {.context = context, .part = part, .info = info, .pixels = pixels, .pixel_type = pixel_type,
                               .bytes = bytes, .order = order};
    if (result == EXR_ERR_SUCCESS) {
        if (info->tiled) {
            plan.across = (info->width + (int64_t)info->tile_width - 1) / info->tile_width;
            plan.count = plan.across * ((info->height + (int64_t)info->tile_height - 1) / info->tile_height);
        } else {
            exr_get_scanlines_per_chunk(context, part, &plan.lines);
            plan.count = (info->height + plan.lines - 1) / plan.lines;
        }
        plan.chunks = calloc((size_t)(plan.count ? plan.count : 1), sizeof *plan.chunks);
        if (!plan.chunks) result = EXR_ERR_OUT_OF_MEMORY;
    }
    if (result == EXR_ERR_SUCCESS) result = compress_chunks(&plan);
    // The compressed chunks written in order (a scanline file's line order; tiles row by row).
    for (int64_t n = 0; n < plan.count && result == EXR_ERR_SUCCESS; n++) {
        int64_t index = !info->tiled && order == EXR_LINEORDER_DECREASING_Y ? plan.count - 1 - n : n;
        const struct compressed_chunk *chunk = &plan.chunks[index];
        result = info->tiled
            ? exr_write_tile_chunk(context, part, (int)(index % plan.across), (int)(index / plan.across), 0, 0,
                                   chunk->data, chunk->size)
            : exr_write_scanline_chunk(context, part, (int)(info->data_min_y + index * plan.lines), chunk->data, chunk->size);
    }
    for (int64_t n = 0; plan.chunks && n < plan.count; n++) free(plan.chunks[n].data);
    free(plan.chunks);
    int status = CCEXR_OK;
    if (result != EXR_ERR_SUCCESS) status = library_failure(message, result);
    exr_result_t finished = exr_finish(&context);
    if (status == CCEXR_OK && finished != EXR_ERR_SUCCESS) status = library_failure(message, finished);
    return status;
}
