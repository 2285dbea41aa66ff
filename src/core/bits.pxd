# Inline bit helpers (nogil): see bitops.h for the portable fallbacks.
from libc.stdint cimport uint64_t

cdef extern from "bitops.h" nogil:
    int popcount "roost_popcount"(uint64_t x)
    int lsb "roost_lsb"(uint64_t x)
    int msb "roost_msb"(uint64_t x)
    uint64_t pext "roost_pext"(uint64_t x, uint64_t mask)
    uint64_t pdep "roost_pdep"(uint64_t x, uint64_t mask)


cdef inline uint64_t clear_lsb(uint64_t x) noexcept nogil:
    return x & (x - 1)
