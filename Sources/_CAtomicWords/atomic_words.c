#include "atomic_words.h"
