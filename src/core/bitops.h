/* Bit helpers shared by every game: popcount, lowest set bit, parallel bit extract/deposit.
 * With BMI2 (x86-64 since Haswell / Zen 3) pext/pdep are single instructions; elsewhere a
 * portable loop gives the same result. */
#ifndef ROOST_BITOPS_H
#define ROOST_BITOPS_H
#include <stdint.h>
#if defined(__BMI2__)
#include <immintrin.h>
#endif

/* Storage of a game's tables (see its board.pxd): every extension module that cimports the
 * board gets a private copy, filled when the module loads.  Private, the C compiler knows
 * that no pointer of the hot code reaches them and keeps them in registers; shared between
 * modules they would be reached through an imported pointer and re-read after every store. */
#if defined(__GNUC__)
#define ROOST_TABLE static __attribute__((unused))
#else
#define ROOST_TABLE static
#endif

static inline int roost_popcount(uint64_t x) { return __builtin_popcountll(x); }
static inline int roost_lsb(uint64_t x) { return __builtin_ctzll(x); }
static inline int roost_msb(uint64_t x) { return 63 - __builtin_clzll(x); }

static inline uint64_t roost_pext(uint64_t x, uint64_t mask) {
#if defined(__BMI2__)
    return _pext_u64(x, mask);
#else
    uint64_t r = 0, bit = 1;
    while (mask) {
        uint64_t low = mask & (0 - mask);
        if (x & low) r |= bit;
        bit <<= 1;
        mask ^= low;
    }
    return r;
#endif
}

static inline uint64_t roost_pdep(uint64_t x, uint64_t mask) {
#if defined(__BMI2__)
    return _pdep_u64(x, mask);
#else
    uint64_t r = 0, bit = 1;
    while (mask) {
        uint64_t low = mask & (0 - mask);
        if (x & bit) r |= low;
        bit <<= 1;
        mask ^= low;
    }
    return r;
#endif
}
#endif
