# A Feed the Ducks position (rules: ../shared/rules/feed-the-ducks.md).
from libc.stdint cimport uint64_t

from roost.core.state cimport State
from roost.core.ducks.board cimport MAX_HIST

ctypedef struct DucksCore:
    uint64_t white
    uint64_t black
    uint64_t hkey
    int crumb        # -1 before the first crumb placement
    int side         # 0 white, 1 black
    int plies        # crumb placements made
    int result       # -1 undecided, 0 white won, 1 black won, 2 drawn
    int nhist        # entries of hist in use


cdef class Ducks(State):
    cdef DucksCore c
    # keys of the position taken up (if a crumb is down) and after each crumb placement:
    # the repetition rule counts them
    cdef uint64_t hist[MAX_HIST]

    cdef void place_crumb(self, int c) noexcept nogil
