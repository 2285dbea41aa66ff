# A Tweeeet position (rules: docs/rules/tweeeet.md).
from libc.stdint cimport uint64_t

from roost.core.state cimport State

ctypedef struct TwCore:
    uint64_t exist[3]      # cells on the board (laid, not removed; a0 and i0 never)
    uint64_t water[3]
    uint64_t empty[3]      # bushes whose food has been eaten
    uint64_t food[4][3]    # bushes with food of value 2..5
    uint64_t nest[3]
    uint64_t tgt[3]        # cached: the flights of the bird to move (valid when resolved)
    uint64_t hkey
    int pos[4]             # cell of MR, MB, FR, FB
    int energy[4]
    int cur                # bird to move (after the pending rows, at a chance node)
    int low                # lowest row on the board
    int high               # highest laid row
    int lay_to             # rows are pending while high < lay_to
    int result             # -1 undecided, 0/1 that player won, 2 drawn
    int can_pass           # the bird to move has no flight and passes


cdef class Tweeeet(State):
    cdef TwCore c
    cdef uint64_t allowed_pairs(self) noexcept nogil
