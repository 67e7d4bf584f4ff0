// Everything is inline in include/ccprefetch.h; a C target needs one source file to build.
#include "ccprefetch.h"
