# A Feed the Ducks position (rules: docs/rules/ducks.md).
from libc.stdint cimport uint64_t

from roost.core.state cimport State
from roost.core.ducks.history cimport Seen, MAX_HIST, FILTER_WORDS

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
    # the position taken up (if a crumb is down) and the one after each crumb placement:
    # the repetition rule counts them (history.pxd); the filter is in use from FILTER_FROM
    # entries on
    cdef Seen hist[MAX_HIST]
    cdef uint64_t hist_filter[FILTER_WORDS]
