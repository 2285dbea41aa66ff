# Setup (§1.3, §7.4): the deal, and each seat's buffered choices applied together.
from libc.stdint cimport uint64_t

from roost.core.wingspan.state cimport Core, Frame

cdef void deal(Core* c, int n, int side, uint64_t seed) noexcept nogil
cdef int setup_gen(Core* c, Frame* F, int* out) noexcept nogil
cdef void setup_apply(Core* c, Frame* F, int m) noexcept nogil
