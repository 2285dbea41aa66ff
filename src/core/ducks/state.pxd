# A Feed the Ducks position (rules: docs/rules/ducks.md).
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


# A position counted for repetition, exactly: the ducks, with the crumb cell's six bits in
# the three spare top bits of each word.  The side to move is not stored: each entry is made
# by a crumb placement, which passes the turn, so entries an even distance apart have the
# same side to move and only those are compared.
ctypedef struct Seen:
    uint64_t white_crumb
    uint64_t black_crumb


cdef class Ducks(State):
    cdef DucksCore c
    # the position taken up (if a crumb is down) and the one after each crumb placement:
    # the repetition rule counts them
    cdef Seen hist[MAX_HIST]
