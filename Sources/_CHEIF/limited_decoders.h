// Decoders registered with libheif ahead of its own, which are told the caller's pixel limit
// before they allocate a frame. Private to ccheif.c.
#ifndef LIMITED_DECODERS_H
#define LIMITED_DECODERS_H

#include <stdint.h>

/// Registers the limited decoders with libheif, once per process; later calls do nothing.
void limited_decoders_install(void);

/// The largest frame, in pixels, that a decode on this thread may allocate (0: no limit).
void limited_decoders_set_pixel_limit(int64_t max_pixels);

/// The message of this thread's last refusal or failure since the limit was set, without the
/// prefix libheif adds; NULL when there was none.
const char *limited_decoders_failure(void);

#endif
