# The cards: sizes, phases, move ids, the species table and the hash keys (private tables,
# filled by init_tables() below when a module loads).
from libc.stdint cimport uint64_t

from roost.core.rng cimport splitmix64
from roost.core.state cimport MAX_PLAYERS

cdef enum:
    NSP = 8               # species 0..7 in the rules table's order F O T D P M W R
    NROWS = 4
    ROWCAP = 112          # a row never holds more than the 110 cards
    HAND = 8
    TURN_CAP = 1000
    TOTAL = 110
    MAXCOUNT = 21         # a species count is 0..20
    MV_DRAW = 64          # move ids: lay species*8 + row*2 + end is 0..63
    MV_NODRAW = 65
    MV_FLOCK = 66         # + species
    MV_NOFLOCK = 74
    MV_LEFT = 75
    MV_RIGHT = 76
    CARD = 80             # chance outcome: CARD + species
    FLOCK_TRIES = 32      # determinize: redraws before building a flock node's flock

cdef enum:
    PH_LAY = 0
    PH_DRAW = 1
    PH_FLOCK = 2
    PH_COMPLETE = 3
    PH_DRAWING = 4        # phases from here to PH_SETUP are chance nodes
    PH_FILLING = 5
    PH_DEAL = 6
    PH_SETUP = 7
    PH_OVER = 8

cdef extern from *:
    """
    #include "bitops.h"
    ROOST_TABLE int cb_COPIES[8], cb_SMALL[8], cb_BIG[8];
    ROOST_TABLE uint64_t cb_Z_HAND[5][8][21], cb_Z_KNOWN[5][8][21], cb_Z_COLL[5][8][21];
    ROOST_TABLE uint64_t cb_Z_LACK[5][8], cb_Z_DISC[8][21], cb_Z_ROW[4][112][8];
    ROOST_TABLE uint64_t cb_Z_PHASE[9], cb_Z_PLAYER[5], cb_Z_DEALER[5], cb_Z_N[6];
    ROOST_TABLE uint64_t cb_Z_PEND[3], cb_Z_FROW[5], cb_Z_FCARD[9], cb_Z_WIN[32], cb_Z_TURN;
    """
    int COPIES "cb_COPIES"[NSP]       # cards of each species
    int SMALL "cb_SMALL"[NSP]         # a small flock
    int BIG "cb_BIG"[NSP]             # a big flock
    uint64_t Z_HAND "cb_Z_HAND"[MAX_PLAYERS][NSP][MAXCOUNT]      # hash keys
    uint64_t Z_KNOWN "cb_Z_KNOWN"[MAX_PLAYERS][NSP][MAXCOUNT]
    uint64_t Z_COLL "cb_Z_COLL"[MAX_PLAYERS][NSP][MAXCOUNT]
    uint64_t Z_LACK "cb_Z_LACK"[MAX_PLAYERS][NSP]
    uint64_t Z_DISC "cb_Z_DISC"[NSP][MAXCOUNT]
    uint64_t Z_ROW "cb_Z_ROW"[NROWS][ROWCAP][NSP]
    uint64_t Z_PHASE "cb_Z_PHASE"[9]
    uint64_t Z_PLAYER "cb_Z_PLAYER"[MAX_PLAYERS]
    uint64_t Z_DEALER "cb_Z_DEALER"[MAX_PLAYERS]
    uint64_t Z_N "cb_Z_N"[MAX_PLAYERS + 1]
    uint64_t Z_PEND "cb_Z_PEND"[3]
    uint64_t Z_FROW "cb_Z_FROW"[NROWS + 1]
    uint64_t Z_FCARD "cb_Z_FCARD"[NSP + 1]
    uint64_t Z_WIN "cb_Z_WIN"[32]
    uint64_t Z_TURN "cb_Z_TURN"


cdef inline void init_species() noexcept nogil:
    COPIES[:] = [7, 10, 10, 13, 13, 17, 20, 20]
    SMALL[:] = [2, 3, 3, 4, 4, 5, 6, 6]
    BIG[:] = [3, 4, 4, 6, 6, 7, 9, 9]


cdef inline void init_keys() noexcept nogil:
    global Z_TURN
    cdef uint64_t seed = 0xC0B1D5C0B1D5
    cdef int i, j, k
    for i in range(MAX_PLAYERS):
        for j in range(NSP):
            Z_HAND[i][j][0] = 0
            Z_KNOWN[i][j][0] = 0
            Z_COLL[i][j][0] = 0
            for k in range(1, MAXCOUNT):
                Z_HAND[i][j][k] = splitmix64(&seed)
                Z_KNOWN[i][j][k] = splitmix64(&seed)
                Z_COLL[i][j][k] = splitmix64(&seed)
            Z_LACK[i][j] = splitmix64(&seed)
        Z_PLAYER[i] = splitmix64(&seed)
        Z_DEALER[i] = splitmix64(&seed)
    for j in range(NSP):
        Z_DISC[j][0] = 0
        for k in range(1, MAXCOUNT):
            Z_DISC[j][k] = splitmix64(&seed)
    for i in range(NROWS):
        for j in range(ROWCAP):
            for k in range(NSP):
                Z_ROW[i][j][k] = splitmix64(&seed)
    for i in range(9):
        Z_PHASE[i] = splitmix64(&seed)
    for i in range(MAX_PLAYERS + 1):
        Z_N[i] = splitmix64(&seed)
    for i in range(3):
        Z_PEND[i] = splitmix64(&seed)
    for i in range(NROWS + 1):
        Z_FROW[i] = splitmix64(&seed)
    for i in range(NSP + 1):
        Z_FCARD[i] = splitmix64(&seed)
    for i in range(32):
        Z_WIN[i] = splitmix64(&seed)
    Z_TURN = splitmix64(&seed) | 1


cdef inline void init_tables() noexcept nogil:
    """Fill this module's copy of the tables (call once, when the module loads)."""
    init_species()
    init_keys()
