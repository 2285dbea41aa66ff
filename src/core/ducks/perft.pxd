# Bulk perft (docs/rules/ducks.md §10.1): leaves at depth 1 are counted from the target mask.
from libc.stdint cimport uint64_t

cdef unsigned long long perft_play(uint64_t w, uint64_t b, int crumb, int depth) noexcept nogil
cdef unsigned long long perft_setup(uint64_t w, uint64_t b, int depth) noexcept nogil
