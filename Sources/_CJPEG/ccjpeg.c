#include "ccjpeg.h"
