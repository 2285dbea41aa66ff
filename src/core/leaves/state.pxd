# An Under the Leaves position (rules: docs/rules/leaves.md), 2 to 4 players.
from libc.stdint cimport uint64_t

from roost.core.state cimport State
from roost.core.leaves.garden cimport Garden

ctypedef struct Core:
    uint64_t market      # tile ids in the market (bit order = ascending id = market index)
    uint64_t bag
    uint64_t hkey        # market, bag, turn and cards; gardens are mixed in by key()
    int n
    int turn             # the turn about to be played, 1..12n; 12n+1 once over
    int cards[3]         # leaf 0..3, mushroom 4..7, puddle 8..11
    Garden g[4]          # only the first n are in use (and copied)


cdef class Leaves(State):
    cdef Core c
