#include "ccpng_deflater.h"

#include <libdeflate.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

// About this much filtered data per band: large enough that cutting the LZ77 history at band edges
// costs well under 0.1% of the size, small enough that two cores stay busy on small images.
#define BAND_TARGET_BYTES (1u << 20)
// Bands encoded between two writes to the sink, per worker: bounds the memory held in flight.
#define BANDS_PER_WORKER 4
#define MAX_WORKERS 64
#define SCAN_WINDOW 32768

// One worker's tools, reused band after band.
typedef struct worker_state {
    struct libdeflate_compressor *compressor;
    z_stream scanner;           // raw inflate, stepping block by block through the band's output
    int scanner_ready;
    uint8_t *filtered;          // one band's filtered rows
    uint8_t *swapped[2];        // big-endian copies of the current and previous row (16-bit only)
    uint8_t *scan_output;       // inflate's scratch output (discarded)
} worker_state;

// One band of a batch: its input rows, and what encoding it produced.
typedef struct band_job {
    const uint8_t *rows;
    const uint8_t *previous;    // the row above the band's first, or NULL for the image's first row
    uint32_t row_count;
    int is_last;                // the image's last band: its deflate stream stays final
    uint8_t *output;            // owned by the deflater, `output_capacity` bytes
    size_t output_size;
    size_t filtered_size;
    uint32_t adler;
    const char *error;
} band_job;

struct ccpng_deflater {
    ccpng_deflater_options options;
    uint32_t band_rows;
    uint32_t batch_bands;
    uint32_t rows_given;        // rows handed in (encoded or held)
    uint32_t rows_encoded;
    uint8_t *held;              // rows waiting for a full batch, `batch_bands * band_rows` rows
    uint32_t held_rows;
    uint8_t *previous_row;      // the last encoded row (the filter's "up" for the next batch)
    uint8_t *zero_row;          // what the image's first row is filtered against
    int has_previous;
    band_job *jobs;
    size_t output_capacity;
    worker_state workers[MAX_WORKERS];
    int worker_count;
    int header_written;
    uint32_t adler;
    // Shared by the threads of one batch.
    uint32_t batch_count;
    uint32_t next_band;
};

static inline int magnitude(int value) {
    return value < 0 ? -value : value;
}

// The PNG specification's Paeth predictor, written as two selections so that loops over it vectorize.
static inline int paeth_predictor(int a, int b, int c) {
    int pa = magnitude(b - c), pb = magnitude(a - c), pc = magnitude(a + b - 2 * c);
    int nearer = pa <= pb ? a : b, distance = pa <= pb ? pa : pb;
    return distance <= pc ? nearer : c;
}

// A residual's magnitude as a signed byte: the classic heuristic takes the filter whose sum is least.
static inline unsigned cost(int residual) {
    uint8_t r = (uint8_t)residual;
    return r < 128 ? r : 256u - r;
}

// The Paeth predictor and cost in 16-bit arithmetic, for the cost loop to vectorize on 16-bit lanes.
static inline int16_t paeth16(int16_t a, int16_t b, int16_t c) {
    int16_t pa = (int16_t)(b - c), pb = (int16_t)(a - c), pc = (int16_t)(a + b - 2 * c);
    pa = pa < 0 ? (int16_t)-pa : pa;
    pb = pb < 0 ? (int16_t)-pb : pb;
    pc = pc < 0 ? (int16_t)-pc : pc;
    int16_t nearer = pa <= pb ? a : b, distance = pa <= pb ? pa : pb;
    return distance <= pc ? nearer : c;
}

static inline uint16_t cost16(int16_t residual) {
    uint8_t r = (uint8_t)residual;
    return r < 128 ? r : (uint16_t)(256 - r);
}

// Adds the five filters' costs for bytes [start, end) of a row with i >= bpp throughout.
static void add_costs(const uint8_t *row, const uint8_t *previous, size_t start, size_t end, size_t bpp,
                      uint64_t sums[5]) {
    // 16-bit partial sums (at most 128 per byte) over stretches of 256 bytes, which cannot overflow.
    const size_t stretch = 256;
    for (size_t from = start; from < end; from += stretch) {
        size_t to = end - from < stretch ? end : from + stretch;
        uint16_t s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0;
        for (size_t i = from; i < to; i++) {
            int16_t x = row[i], a = row[i - bpp], b = previous[i], c = previous[i - bpp];
            s0 += cost16(x);
            s1 += cost16((int16_t)(x - a));
            s2 += cost16((int16_t)(x - b));
            s3 += cost16((int16_t)(x - ((a + b) >> 1)));
            s4 += cost16((int16_t)(x - paeth16(a, b, c)));
        }
        sums[0] += s0;
        sums[1] += s1;
        sums[2] += s2;
        sums[3] += s3;
        sums[4] += s4;
    }
}

// Writes the filter type byte and the filtered row. `previous` is an all-zero row for the first row.
// For the first `bpp` bytes the left-hand neighbours a and c are zero, so Sub keeps x, Average
// subtracts b / 2 and Paeth predicts b.
static void filter_row(const uint8_t *row, const uint8_t *previous, size_t n, size_t bpp, int filter,
                       uint8_t *out) {
    size_t head = bpp < n ? bpp : n;
    if (filter == 5) {
        uint64_t sums[5] = {0, 0, 0, 0, 0};
        for (size_t i = 0; i < head; i++) {
            int x = row[i], b = previous[i];
            sums[0] += cost(x);
            sums[1] += cost(x);
            sums[2] += cost(x - b);
            sums[3] += cost(x - (b >> 1));
            sums[4] += cost(x - b);
        }
        add_costs(row, previous, head, n, bpp, sums);
        filter = 0;
        for (int k = 1; k < 5; k++) {
            if (sums[k] < sums[filter]) {
                filter = k;
            }
        }
    }
    out[0] = (uint8_t)filter;
    uint8_t *o = out + 1;
    switch (filter) {
    case 0:
        memcpy(o, row, n);
        break;
    case 1:
        memcpy(o, row, head);
        for (size_t i = head; i < n; i++) {
            o[i] = (uint8_t)(row[i] - row[i - bpp]);
        }
        break;
    case 2:
        for (size_t i = 0; i < n; i++) {
            o[i] = (uint8_t)(row[i] - previous[i]);
        }
        break;
    case 3:
        for (size_t i = 0; i < head; i++) {
            o[i] = (uint8_t)(row[i] - (previous[i] >> 1));
        }
        for (size_t i = head; i < n; i++) {
            o[i] = (uint8_t)(row[i] - ((row[i - bpp] + previous[i]) >> 1));
        }
        break;
    default:
        for (size_t i = 0; i < head; i++) {
            o[i] = (uint8_t)(row[i] - previous[i]);
        }
        for (size_t i = head; i < n; i++) {
            o[i] = (uint8_t)(row[i] - paeth_predictor(row[i - bpp], previous[i], previous[i - bpp]));
        }
        break;
    }
}

static void swap_sixteen(const uint8_t *source, uint8_t *target, size_t n) {
    for (size_t i = 0; i + 1 < n; i += 2) {
        target[i] = source[i + 1];
        target[i + 1] = source[i];
    }
}

// Filters a band's rows into `state->filtered`; returns the number of bytes written.
static size_t filter_band(ccpng_deflater *d, worker_state *state, const band_job *job) {
    size_t n = d->options.row_bytes, bpp = (size_t)d->options.bytes_per_pixel;
    const uint8_t *previous = job->previous ? job->previous : d->zero_row;
    int current = 0;
    if (d->options.swap_sixteen && job->previous) {
        swap_sixteen(job->previous, state->swapped[1], n);
        previous = state->swapped[1];
    }
    for (uint32_t y = 0; y < job->row_count; y++) {
        const uint8_t *row = job->rows + (size_t)y * n;
        if (d->options.swap_sixteen) {
            // The two scratch rows take turns: the one just filled is the next row's "up".
            swap_sixteen(row, state->swapped[current], n);
            row = state->swapped[current];
            current ^= 1;
        }
        filter_row(row, previous, n, bpp, d->options.filter, state->filtered + (size_t)y * (n + 1));
        previous = row;
    }
    return (size_t)job->row_count * (n + 1);
}

// Finds where the final block of the raw deflate stream `data` starts and how many padding bits
// end it, by stepping zlib's inflate block by block; also checks the stream decodes to `expected`
// bytes. Returns NULL or the reason.
static const char *scan_stream(worker_state *state, const uint8_t *data, size_t size, size_t expected,
                               uint64_t *final_block_bit, int *padding_bits) {
    z_stream *z = &state->scanner;
    if (inflateReset(z) != Z_OK) {
        return "the image data's compressor check could not start";
    }
    z->next_in = (Bytef *)data;
    z->avail_in = (uInt)size;
    uint64_t boundary = 0;
    int padding = -1;
    for (;;) {
        z->next_out = state->scan_output;
        z->avail_out = SCAN_WINDOW;
        int status = inflate(z, Z_BLOCK);
        if (status == Z_STREAM_END) {
            break;
        }
        if (status != Z_OK) {
            return "the compressor produced a stream that does not decode";
        }
        // At a block boundary the bits still unread in the last byte taken are the next block's
        // first. Before the final block's header has been read, that is where a header starts;
        // after the final block (inflate stops there before skipping to the byte boundary), those
        // bits are the padding.
        if (z->data_type & 128) {
            if (z->data_type & 64) {
                padding = z->data_type & 7;
            } else {
                boundary = (uint64_t)z->total_in * 8 - (uint64_t)(z->data_type & 7);
            }
        }
    }
    if (z->total_in != size || z->total_out != expected || padding < 0) {
        return "the compressor produced a stream of the wrong length";
    }
    *final_block_bit = boundary;
    *padding_bits = padding;
    return NULL;
}

static void encode_band(ccpng_deflater *d, worker_state *state, band_job *job) {
    job->filtered_size = filter_band(d, state, job);
    job->adler = libdeflate_adler32(1, state->filtered, job->filtered_size);
    size_t size = libdeflate_deflate_compress(state->compressor, state->filtered, job->filtered_size,
                                              job->output, d->output_capacity - 5);
    if (size == 0) {
        job->error = "the compressor's output did not fit its buffer";
        return;
    }
    job->output_size = size;
    if (job->is_last) {
        return;
    }
    uint64_t final_block_bit = 0;
    int padding_bits = 0;
    job->error = scan_stream(state, job->output, size, job->filtered_size, &final_block_bit, &padding_bits);
    if (job->error) {
        return;
    }
    // Clear BFINAL so the next band's blocks follow, then end on a byte boundary with an empty
    // stored block: its header is three zero bits (which the zero padding provides when at least
    // three bits are left), then LEN 0 and NLEN 0xFFFF on whole bytes.
    job->output[final_block_bit / 8] &= (uint8_t)~(1u << (final_block_bit % 8));
    if (padding_bits < 3) {
        job->output[job->output_size++] = 0x00;
    }
    static const uint8_t empty_stored[4] = {0x00, 0x00, 0xff, 0xff};
    memcpy(job->output + job->output_size, empty_stored, 4);
    job->output_size += 4;
}

typedef struct worker_start {
    ccpng_deflater *deflater;
    worker_state *state;
} worker_start;

static void *work_on_batch(void *argument) {
    worker_start *start = argument;
    ccpng_deflater *d = start->deflater;
    for (;;) {
        uint32_t index = __atomic_fetch_add(&d->next_band, 1, __ATOMIC_RELAXED);
        if (index >= d->batch_count) {
            break;
        }
        encode_band(d, start->state, &d->jobs[index]);
    }
    return NULL;
}

// Encodes `count` rows from `rows` as bands (the last band may be short only at the image's end),
// on every worker, then hands their bytes to the sink in order.
static const char *encode_batch(ccpng_deflater *d, const uint8_t *rows, uint32_t count,
                                ccpng_deflater_sink sink, void *context) {
    size_t n = d->options.row_bytes;
    uint32_t bands = 0;
    for (uint32_t first = 0; first < count; first += d->band_rows) {
        band_job *job = &d->jobs[bands++];
        job->rows = rows + (size_t)first * n;
        job->previous = first > 0 ? job->rows - n : (d->has_previous ? d->previous_row : NULL);
        job->row_count = count - first < d->band_rows ? count - first : d->band_rows;
        job->is_last = d->rows_encoded + first + job->row_count == d->options.height;
        job->output_size = 0;
        job->error = NULL;
    }
    d->batch_count = bands;
    d->next_band = 0;
    int threads = d->worker_count < (int)bands ? d->worker_count : (int)bands;
    pthread_t ids[MAX_WORKERS];
    worker_start starts[MAX_WORKERS];
    int started = 1;
    for (int w = 0; w < threads; w++) {
        starts[w].deflater = d;
        starts[w].state = &d->workers[w];
    }
    for (int w = 1; w < threads; w++) {
        // A thread that cannot start leaves its bands to the others.
        if (pthread_create(&ids[started], NULL, work_on_batch, &starts[w]) == 0) {
            started++;
        }
    }
    work_on_batch(&starts[0]);
    for (int w = 1; w < started; w++) {
        pthread_join(ids[w], NULL);
    }

    for (uint32_t b = 0; b < bands; b++) {
        if (d->jobs[b].error) {
            return d->jobs[b].error;
        }
    }
    if (!d->header_written) {
        // CMF: deflate with a 32 KiB window; FLG: the level class, and a check making it a multiple of 31.
        int level = d->options.level;
        unsigned level_class = level < 2 ? 0 : level < 6 ? 1 : level == 6 ? 2 : 3;
        uint8_t header[2] = {0x78, (uint8_t)(level_class << 6)};
        header[1] |= (uint8_t)(31 - ((header[0] * 256u + header[1]) % 31));
        if (sink(context, header, 2) != 0) {
            return "the image data could not be written";
        }
        d->header_written = 1;
    }
    for (uint32_t b = 0; b < bands; b++) {
        band_job *job = &d->jobs[b];
        d->adler = (uint32_t)adler32_combine(d->adler, job->adler, (z_off_t)job->filtered_size);
        if (sink(context, job->output, job->output_size) != 0) {
            return "the image data could not be written";
        }
    }
    d->rows_encoded += count;
    memcpy(d->previous_row, rows + (size_t)(count - 1) * n, n);
    d->has_previous = 1;
    return NULL;
}

uint32_t ccpng_deflater_band_rows(size_t row_bytes) {
    size_t rows = BAND_TARGET_BYTES / (row_bytes + 1);
    return rows > 0 ? (uint32_t)rows : 1;
}

ccpng_deflater *ccpng_deflater_create(const ccpng_deflater_options *options, const char **error) {
    *error = "out of memory";
    if (options->height == 0 || options->row_bytes == 0 || options->bytes_per_pixel <= 0) {
        *error = "the image has no rows or no columns";
        return NULL;
    }
    if (options->level < 0 || options->level > 12) {
        *error = "the compression level is outside 0...12";
        return NULL;
    }
    ccpng_deflater *d = calloc(1, sizeof(ccpng_deflater));
    if (!d) {
        return NULL;
    }
    d->options = *options;
    d->adler = 1;
    d->worker_count = options->workers < 1 ? 1 : options->workers > MAX_WORKERS ? MAX_WORKERS : options->workers;
    d->band_rows = ccpng_deflater_band_rows(options->row_bytes);
    if (d->band_rows > options->height) {
        d->band_rows = options->height;
    }
    d->batch_bands = (uint32_t)(d->worker_count * BANDS_PER_WORKER);
    size_t n = options->row_bytes;
    size_t band_filtered = (size_t)d->band_rows * (n + 1);
    d->held = malloc((size_t)d->batch_bands * d->band_rows * n);
    d->previous_row = malloc(n);
    d->zero_row = calloc(n, 1);
    d->jobs = calloc(d->batch_bands, sizeof(band_job));
    if (!d->held || !d->previous_row || !d->zero_row || !d->jobs) {
        ccpng_deflater_destroy(d);
        return NULL;
    }
    for (int w = 0; w < d->worker_count; w++) {
        worker_state *state = &d->workers[w];
        state->compressor = libdeflate_alloc_compressor(options->level);
        state->filtered = malloc(band_filtered);
        state->scan_output = malloc(SCAN_WINDOW);
        if (options->swap_sixteen) {
            state->swapped[0] = malloc(n);
            state->swapped[1] = malloc(n);
        }
        if (!state->compressor || !state->filtered || !state->scan_output
            || (options->swap_sixteen && (!state->swapped[0] || !state->swapped[1]))) {
            ccpng_deflater_destroy(d);
            return NULL;
        }
        if (inflateInit2(&state->scanner, -15) != Z_OK) {
            ccpng_deflater_destroy(d);
            return NULL;
        }
        state->scanner_ready = 1;
    }
    // Room for the worst case, plus the byte and stored block that end a non-final band.
    d->output_capacity = libdeflate_deflate_compress_bound(d->workers[0].compressor, band_filtered) + 5;
    for (uint32_t b = 0; b < d->batch_bands; b++) {
        d->jobs[b].output = malloc(d->output_capacity);
        if (!d->jobs[b].output) {
            ccpng_deflater_destroy(d);
            return NULL;
        }
    }
    *error = NULL;
    return d;
}

const char *ccpng_deflater_write(ccpng_deflater *d, const uint8_t *rows, uint32_t count,
                                 ccpng_deflater_sink sink, void *context) {
    if ((uint64_t)d->rows_given + count > d->options.height) {
        return "more rows were given than the image has";
    }
    size_t n = d->options.row_bytes;
    uint32_t batch_rows = d->batch_bands * d->band_rows;
    while (count > 0) {
        if (d->held_rows == 0 && count >= batch_rows) {
            // Whole batches straight from the caller's rows, no copy.
            const char *error = encode_batch(d, rows, batch_rows, sink, context);
            if (error) {
                return error;
            }
            d->rows_given += batch_rows;
            rows += (size_t)batch_rows * n;
            count -= batch_rows;
            continue;
        }
        uint32_t take = batch_rows - d->held_rows < count ? batch_rows - d->held_rows : count;
        memcpy(d->held + (size_t)d->held_rows * n, rows, (size_t)take * n);
        d->held_rows += take;
        d->rows_given += take;
        rows += (size_t)take * n;
        count -= take;
        if (d->held_rows == batch_rows) {
            d->held_rows = 0;
            const char *error = encode_batch(d, d->held, batch_rows, sink, context);
            if (error) {
                return error;
            }
        }
    }
    return NULL;
}

const char *ccpng_deflater_finish(ccpng_deflater *d, ccpng_deflater_sink sink, void *context) {
    if (d->rows_given != d->options.height) {
        return "fewer rows were given than the image has";
    }
    if (d->held_rows > 0) {
        uint32_t held = d->held_rows;
        d->held_rows = 0;
        const char *error = encode_batch(d, d->held, held, sink, context);
        if (error) {
            return error;
        }
    }
    uint8_t trailer[4] = {(uint8_t)(d->adler >> 24), (uint8_t)(d->adler >> 16), (uint8_t)(d->adler >> 8),
                          (uint8_t)d->adler};
    return sink(context, trailer, 4) != 0 ? "the image data could not be written" : NULL;
}

uint32_t ccpng_deflater_rows_given(const ccpng_deflater *d) {
    return d->rows_given;
}

void ccpng_deflater_destroy(ccpng_deflater *d) {
    if (!d) {
        return;
    }
    for (int w = 0; w < MAX_WORKERS; w++) {
        worker_state *state = &d->workers[w];
        if (state->compressor) {
            libdeflate_free_compressor(state->compressor);
        }
        if (state->scanner_ready) {
            inflateEnd(&state->scanner);
        }
        free(state->filtered);
        free(state->swapped[0]);
        free(state->swapped[1]);
        free(state->scan_output);
    }
    if (d->jobs) {
        for (uint32_t b = 0; b < d->batch_bands; b++) {
            free(d->jobs[b].output);
        }
    }
    free(d->jobs);
    free(d->held);
    free(d->previous_row);
    free(d->zero_row);
    free(d);
}
