// Relaxed atomic loads and stores of 32-bit words, for tables that several threads fill lazily
// with values that do not depend on who writes them. No stable API.
#ifndef COLORCUBE_ATOMIC_WORDS_H
#define COLORCUBE_ATOMIC_WORDS_H
#include <stdint.h>

static inline uint32_t cc_atomic_load_word(const uint32_t *word) {
    return __atomic_load_n(word, __ATOMIC_RELAXED);
}

static inline void cc_atomic_store_word(uint32_t *word, uint32_t value) {
    __atomic_store_n(word, value, __ATOMIC_RELAXED);
}

#endif
