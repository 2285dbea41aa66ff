# Sizes, move ids, card ids and the native tables of the tiles (private to each module
# that cimports this file, see ROOST_TABLE in bitops.h; filled by init_tables()).
from libc.stdint cimport uint64_t, int8_t

from roost.core.rng cimport splitmix64

cdef enum:
    NTILES = 50          # regular tiles 0..49; starting tiles S0..S3 are 50..53
    NALL = 54
    OFF = 32             # bit of square column u
    SOFF = 16            # word of slot column x, bit of slot row y
    MAXG = 13            # tiles in a finished garden
    NSLOTNUM = 625       # 25 x 25 slot numbers for move ids
    CHANCE_BASE = 16384  # chance outcome id = CHANCE_BASE + tile id
    PUD = 5              # square type index of a puddle (colours are 0..4)
    NCARDS = 12
    REC_CAP = 1024

cdef enum:
    C_THOUGHTFUL = 0
    C_RESTLESS = 1
    C_FLIRTY = 2
    C_RUNNER = 3
    C_HOST = 4
    C_EXPLORER = 5
    C_COLLECTOR = 6
    C_LONER = 7
    C_DIVER = 8
    C_SKIPPER = 9
    C_FRIENDLY = 10
    C_SHY = 11

# Hash domains of the per-garden key parts.
cdef enum:
    ZD_PLACE = 1
    ZD_USED = 2
    ZD_COUNT = 3

cdef extern from *:
    """
    #include "bitops.h"
    ROOST_TABLE int8_t utl_OTYPE[54][8][4], utl_OMUSH[54][8], utl_OPUD[54][8];
    ROOST_TABLE int utl_TCOLOURS[54];
    ROOST_TABLE uint64_t utl_Z_MARKET[50], utl_Z_BAG[50], utl_Z_TURN[64], utl_Z_CARD[12];
    ROOST_TABLE uint64_t utl_Z_PLAYER[8];
    """
    int8_t OTYPE "utl_OTYPE"[NALL][8][4]     # square type at placed position i
    int8_t OMUSH "utl_OMUSH"[NALL][8]        # placed position of the mushroom, or -1
    int8_t OPUD "utl_OPUD"[NALL][8]          # placed position of the puddle, or -1
    int TCOLOURS "utl_TCOLOURS"[NALL]        # bit mask of the colours on a tile
    uint64_t Z_MARKET "utl_Z_MARKET"[NTILES]  # hash keys
    uint64_t Z_BAG "utl_Z_BAG"[NTILES]
    uint64_t Z_TURN "utl_Z_TURN"[64]
    uint64_t Z_CARD "utl_Z_CARD"[NCARDS]
    uint64_t Z_PLAYER "utl_Z_PLAYER"[8]


cdef inline uint64_t zmix(uint64_t x) noexcept nogil:
    x += <uint64_t>0x9E3779B97F4A7C15ULL
    x = (x ^ (x >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    x = (x ^ (x >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return x ^ (x >> 31)


cdef inline void init_tiles():
    """The oriented squares of every tile, from the printed faces (tiles.py)."""
    from roost.core.leaves.tiles import TILE_TABLE, ORIENTATIONS, TYPE_LETTERS
    cdef int t, o, i, j
    for t in range(NALL):
        sq = TILE_TABLE[t].split()
        types = [TYPE_LETTERS.index(s[0]) for s in sq]
        mush = [s.endswith("*") for s in sq]
        TCOLOURS[t] = 0
        for j in range(4):
            if types[j] != PUD:
                TCOLOURS[t] |= 1 << types[j]
        for o in range(8):
            OMUSH[t][o] = -1
            OPUD[t][o] = -1
            for i in range(4):
                j = ORIENTATIONS[o][i]
                OTYPE[t][o][i] = types[j]
                if mush[j]:
                    OMUSH[t][o] = i
                if types[j] == PUD:
                    OPUD[t][o] = i


cdef inline void init_keys() noexcept nogil:
    cdef uint64_t seed = 0x1EAF5EED
    cdef int i
    for i in range(NTILES):
        Z_MARKET[i] = splitmix64(&seed)
        Z_BAG[i] = splitmix64(&seed)
    for i in range(64):
        Z_TURN[i] = splitmix64(&seed)
    for i in range(NCARDS):
        Z_CARD[i] = splitmix64(&seed)
    for i in range(8):
        Z_PLAYER[i] = splitmix64(&seed)


cdef inline void init_tables():
    """Fill this module's copy of the tables (call once, when the module loads)."""
    init_tiles()
    init_keys()
