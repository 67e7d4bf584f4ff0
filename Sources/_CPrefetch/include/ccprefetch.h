// Cache prefetch hints, for loops that know an address some iterations before they load it
// (ColorCubeLearner's colour tally). Swift has no way to ask for a prefetch; these inline into
// the Swift loop that calls them. A hint never faults, whatever the address: a stale or wild
// pointer only wastes the fetch. Without the builtin they do nothing.
#ifndef COLORCUBE_CCPREFETCH_H
#define COLORCUBE_CCPREFETCH_H

/// Asks for the cache line holding `address`, to be read soon.
static inline void ccprefetch_read(const void *address) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(address, 0, 3);
#else
    (void)address;
#endif
}

/// Asks for the cache line holding `address`, to be written soon.
static inline void ccprefetch_write(const void *address) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(address, 1, 3);
#else
    (void)address;
#endif
}

#endif
