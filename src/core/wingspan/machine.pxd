# The frame machine: run automatic steps to the next decision (gen), apply a move (apply),
# collapse forced moves (settle); random playouts and the position key.
from libc.stdint cimport uint64_t

from roost.core.rng cimport Rng
from roost.core.wingspan.state cimport Core

cdef int gen(Core* c, int* out) noexcept nogil
cdef void apply(Core* c, int m) noexcept nogil
cdef int settle(Core* c, int* buf) noexcept nogil
cdef int playout(Core* c, Rng* rng, int max_plies) noexcept nogil
cdef int finish_turn(Core* c, Rng* rng) noexcept nogil
cdef uint64_t core_key(Core* c) noexcept nogil
