#include "cczlib.h"

#include <string.h>
#include <zlib.h>

cczlib_status cczlib_inflate(const uint8_t *input, size_t input_size, uint8_t *output, size_t capacity,
                             size_t *produced) {
    *produced = 0;
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (inflateInit(&stream) != Z_OK) return CCZLIB_NO_MEMORY;
    cczlib_status status = CCZLIB_OK;
    size_t consumed = 0;
    // zlib counts in uInt: feed and drain in pieces so sizes above 4 GiB cannot wrap.
    for (;;) {
        size_t input_left = input_size - consumed;
        size_t output_left = capacity - *produced;
        uint8_t spare = 0;
        stream.next_in = (Bytef *)(input + consumed);
        stream.avail_in = (uInt)(input_left > 0x40000000u ? 0x40000000u : input_left);
        if (output_left == 0) {
            // Room for one more byte only to learn whether the stream goes on.
            stream.next_out = &spare;
            stream.avail_out = 1;
        } else {
            stream.next_out = output + *produced;
            stream.avail_out = (uInt)(output_left > 0x40000000u ? 0x40000000u : output_left);
        }
        uInt before_in = stream.avail_in, before_out = stream.avail_out;
        int result = inflate(&stream, Z_NO_FLUSH);
        consumed += before_in - stream.avail_in;
        size_t written = before_out - stream.avail_out;
        if (output_left == 0 && written > 0) { status = CCZLIB_TOO_LONG; break; }
        *produced += written;
        if (result == Z_STREAM_END) {
            status = *produced == capacity ? CCZLIB_OK : CCZLIB_TOO_SHORT;
            break;
        }
        if (result == Z_MEM_ERROR) { status = CCZLIB_NO_MEMORY; break; }
        if (result == Z_DATA_ERROR || result == Z_NEED_DICT || result == Z_STREAM_ERROR) { status = CCZLIB_DAMAGED; break; }
        if (result == Z_BUF_ERROR || (before_in == stream.avail_in && written == 0)) {
            // No progress: either the input ran out or (with output room) the stream is cut.
            status = consumed == input_size ? CCZLIB_TRUNCATED : CCZLIB_DAMAGED;
            break;
        }
    }
    inflateEnd(&stream);
    return status;
}

size_t cczlib_bound(size_t size) {
    return (size_t)compressBound((uLong)size);
}

size_t cczlib_compress(const uint8_t *input, size_t input_size, uint8_t *output, size_t capacity) {
    uLongf written = (uLongf)capacity;
    if (compress2(output, &written, input, (uLong)input_size, Z_DEFAULT_COMPRESSION) != Z_OK) return 0;
    return (size_t)written;
}
