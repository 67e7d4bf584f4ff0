// zlib's one-shot compression and a bounded inflate, as plain functions Swift can call (zlib's
// inflateInit is a macro that does not import). No stable API: ColorCubeConverter's use only.
#ifndef COLORCUBE_CCZLIB_H
#define COLORCUBE_CCZLIB_H

#include <stddef.h>
#include <stdint.h>

/// The outcome of cczlib_inflate.
typedef enum cczlib_status {
    CCZLIB_OK = 0,          // one complete zlib stream, exactly `capacity` bytes out
    CCZLIB_TRUNCATED = 1,   // the input ended before the stream did
    CCZLIB_TOO_LONG = 2,    // the stream holds more than `capacity` bytes (stopped there)
    CCZLIB_TOO_SHORT = 3,   // the stream ended with fewer than `capacity` bytes
    CCZLIB_DAMAGED = 4,     // not a valid zlib stream (header, data or checksum)
    CCZLIB_NO_MEMORY = 5
} cczlib_status;

/// Inflates the zlib stream `input` into `output`, which holds exactly `capacity` bytes; never
/// writes past it. `*produced` gets the bytes written.
cczlib_status cczlib_inflate(const uint8_t *input, size_t input_size, uint8_t *output, size_t capacity,
                             size_t *produced);

/// An upper bound of the compressed size of `size` bytes.
size_t cczlib_bound(size_t size);

/// Compresses `input` at zlib's default level into `output` (at least cczlib_bound bytes);
/// returns the bytes written, or 0 on failure.
size_t cczlib_compress(const uint8_t *input, size_t input_size, uint8_t *output, size_t capacity);

#endif
