# A CuBirds position (rules: docs/rules/cubirds.md), omniscient: every hand and the
# draw pile's contents.
from libc.stdint cimport uint64_t

from roost.core.state cimport State, MAX_PLAYERS
from roost.core.cubirds.cards cimport NSP, NROWS, ROWCAP

ctypedef struct Core:
    unsigned char hand[MAX_PLAYERS][NSP]
    unsigned char known[MAX_PLAYERS][NSP]    # the part of each hand the others know
    unsigned char coll[MAX_PLAYERS][NSP]
    unsigned char hsize[MAX_PLAYERS]
    unsigned char lacks[MAX_PLAYERS]         # bit s: the unknown part of the hand holds no s
    unsigned char discard[NSP]
    unsigned char deck[NSP]
    unsigned char rowlen[NROWS]
    unsigned char row[NROWS][ROWCAP]
    int ndeck
    int ndiscard
    int n
    int phase
    int player      # whose turn it is
    int dealer
    int pending     # PH_DRAWING: cards still to draw
    int frow        # PH_FILLING / PH_COMPLETE: the row being completed, else -1
    int fcard       # PH_COMPLETE: the card waiting for its end, else -1
    int turn        # turns completed
    int winners     # PH_OVER: bit mask of the winners


cdef class Cubirds(State):
    cdef Core c
