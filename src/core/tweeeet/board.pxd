# The strip: its bitboard layout, tables (filled by board.pyx) and the neighbour step.
#
# The strip is rows 0..19 of 9 hex cells ("odd-r": odd rows sit half a cell to the right).
# Cell (x, y) has id 9*y + x (0..179).  The bitboards are three 64-bit words of seven rows
# each: row y is lane y % 7 of word y // 7, at bits 9*(y % 7) .. 9*(y % 7) + 8, so that
# ``word * 63 + bit`` is the cell id again.  Neighbours are shifts: +-1 along a lane (masked
# at columns a and i), and +-9 between lanes after "spreading" the source row to the two
# cells it touches in the next row (x-1 and x from an even row, x and x+1 from an odd one).
from libc.stdint cimport uint64_t

from roost.core.rng cimport splitmix64

cdef enum:
    NROWS = 20
    NCOLS = 9
    NCELLS = 180
    NEST_ROW = 19
    PASS = 180             # move id of a pass; 0..179 a flight to that cell
    CHANCE_BASE = 1024     # chance outcome id: CHANCE_BASE + arrangement * 64 + foods
    NARR = 1260            # 36 water pairs * 35 bush triples
    NOUT = 80640           # NARR * 64 food choices
    NPAIRS = 36
    START_CELL = 4         # e0
    SIGHT = 4              # rows laid ahead of the bird that flew / kept behind the last bird
    ZEN = 128              # energies with a tabled hash key

# terrain types (hash keys and text)
cdef enum:
    T_GRASS = 0
    T_WATER = 1
    T_EMPTY = 2
    T_FOOD = 3             # T_FOOD + v - 2 for food value v = 2..5
    T_START = 7
    T_NEST = 8
    NTYPES = 9

# The tables: private to each module that cimports this file (see ROOST_TABLE in bitops.h),
# filled by init_tables() below when the module loads.
cdef extern from *:
    """
    #include "bitops.h"
    ROOST_TABLE uint64_t tw_VALID, tw_LANE0, tw_NOTA, tw_NOTI, tw_NESTROW_NEST;
    ROOST_TABLE uint64_t tw_COLA[3], tw_COLI[3], tw_EVI[3], tw_ODA[3];
    ROOST_TABLE uint64_t tw_ROWM[20];
    ROOST_TABLE int tw_ROWW[20], tw_ROWSH[20];
    ROOST_TABLE int tw_ARR_WATER[1260], tw_ARR_BUSH[1260], tw_ARR_BCOL[1260][3], tw_PAIR_WATER[36];
    ROOST_TABLE int tw_ISNEST[180];
    ROOST_TABLE uint64_t tw_Z[180][9], tw_ZBIRD[4][180], tw_ZEN_T[4][128], tw_ZCUR[4];
    """
    uint64_t VALID "tw_VALID"
    uint64_t LANE0 "tw_LANE0"
    uint64_t NOTA "tw_NOTA"                  # every cell but column a
    uint64_t NOTI "tw_NOTI"                  # every cell but column i
    uint64_t NESTROW_NEST "tw_NESTROW_NEST"  # nests of row 19, within word 2
    uint64_t COLA "tw_COLA"[3]
    uint64_t COLI "tw_COLI"[3]
    uint64_t EVI "tw_EVI"[3]                 # even rows without column i, per word
    uint64_t ODA "tw_ODA"[3]                 # odd rows without column a, per word
    uint64_t ROWM "tw_ROWM"[NROWS]           # the row's 9 bits in word ROWW[y]
    int ROWW "tw_ROWW"[NROWS]
    int ROWSH "tw_ROWSH"[NROWS]
    # A landscape row is an arrangement (2 water, then 3 bushes among the other 7 cells)
    # and three foods; arrangement a = water pair * 35 + bush triple.
    int ARR_WATER "tw_ARR_WATER"[NARR]       # 9-bit column masks
    int ARR_BUSH "tw_ARR_BUSH"[NARR]
    int ARR_BCOL "tw_ARR_BCOL"[NARR][3]
    int PAIR_WATER "tw_PAIR_WATER"[NPAIRS]
    bint ISNEST "tw_ISNEST"[NCELLS]
    uint64_t Z "tw_Z"[NCELLS][NTYPES]        # hash keys: terrain of a cell
    uint64_t ZBIRD "tw_ZBIRD"[4][NCELLS]     # a bird on a cell
    uint64_t ZEN_T "tw_ZEN_T"[4][ZEN]        # a bird's energy
    uint64_t ZCUR "tw_ZCUR"[4]               # the bird to move


cdef inline void init_layout() noexcept nogil:
    global VALID, LANE0, NOTA, NOTI, NESTROW_NEST
    cdef int y, x, k, cell
    VALID = (<uint64_t>1 << 63) - 1
    LANE0 = 0x1FF
    for k in range(3):
        COLA[k] = 0
        COLI[k] = 0
        EVI[k] = 0
        ODA[k] = 0
    for y in range(21):
        k = y // 7
        for x in range(NCOLS):
            if x == 0:
                COLA[k] |= <uint64_t>1 << (9 * (y % 7) + x)
            if x == 8:
                COLI[k] |= <uint64_t>1 << (9 * (y % 7) + x)
        if y % 2 == 0:
            EVI[k] |= LANE0 << (9 * (y % 7))
        else:
            ODA[k] |= LANE0 << (9 * (y % 7))
    NOTA = VALID & ~COLA[0]
    NOTI = VALID & ~COLI[0]
    for k in range(3):
        EVI[k] &= NOTI
        ODA[k] &= NOTA
    for y in range(NROWS):
        ROWW[y] = y // 7
        ROWSH[y] = 9 * (y % 7)
        ROWM[y] = LANE0 << ROWSH[y]
    for cell in range(NCELLS):
        ISNEST[cell] = cell // 9 == NEST_ROW and (cell % 9) % 2 == 0
    NESTROW_NEST = 0
    for x in range(0, NCOLS, 2):
        NESTROW_NEST |= <uint64_t>1 << (ROWSH[NEST_ROW] + x)


cdef inline void init_arrangements() noexcept nogil:
    """Water pair i < j, then the bush triple among the 7 other columns, in that order."""
    cdef int i, j, p, q, r, m, x, n = 0, a = 0
    cdef int rest[7]
    for i in range(NCOLS):
        for j in range(i + 1, NCOLS):
            PAIR_WATER[n] = (1 << i) | (1 << j)
            m = 0
            for x in range(NCOLS):
                if x != i and x != j:
                    rest[m] = x
                    m += 1
            for p in range(7):
                for q in range(p + 1, 7):
                    for r in range(q + 1, 7):
                        ARR_WATER[a] = PAIR_WATER[n]
                        ARR_BCOL[a][0] = rest[p]
                        ARR_BCOL[a][1] = rest[q]
                        ARR_BCOL[a][2] = rest[r]
                        ARR_BUSH[a] = (1 << rest[p]) | (1 << rest[q]) | (1 << rest[r])
                        a += 1
            n += 1


cdef inline void init_keys() noexcept nogil:
    cdef uint64_t seed = 0x7EEE7B1D5
    cdef int i, cell, t
    for cell in range(NCELLS):
        for t in range(NTYPES):
            Z[cell][t] = splitmix64(&seed)
    for i in range(4):
        for cell in range(NCELLS):
            ZBIRD[i][cell] = splitmix64(&seed)
        for t in range(ZEN):
            ZEN_T[i][t] = splitmix64(&seed)
        ZCUR[i] = splitmix64(&seed)


cdef inline void init_tables() noexcept nogil:
    """Fill this module's copy of the tables (call once, when the module loads)."""
    init_layout()
    init_arrangements()
    init_keys()


cdef inline int cell_word(int cell) noexcept nogil:
    return cell // 63


cdef inline uint64_t cell_bit(int cell) noexcept nogil:
    return <uint64_t>1 << (cell % 63)


cdef inline void nbr3(const uint64_t* r, uint64_t* o) noexcept nogil:
    """o = the cells next to some cell of r (not r itself unless a neighbour)."""
    cdef uint64_t a0 = r[0], a1 = r[1], a2 = r[2]
    cdef uint64_t s0 = a0 | ((a0 >> 1) & EVI[0]) | ((a0 << 1) & ODA[0])
    cdef uint64_t s1 = a1 | ((a1 >> 1) & EVI[1]) | ((a1 << 1) & ODA[1])
    cdef uint64_t s2 = a2 | ((a2 >> 1) & EVI[2]) | ((a2 << 1) & ODA[2])
    o[0] = (((a0 << 1) & NOTA) | ((a0 >> 1) & NOTI) | (s0 << 9) | (s0 >> 9)
            | ((s1 & LANE0) << 54)) & VALID
    o[1] = (((a1 << 1) & NOTA) | ((a1 >> 1) & NOTI) | (s1 << 9) | (s1 >> 9)
            | (s0 >> 54) | ((s2 & LANE0) << 54)) & VALID
    o[2] = (((a2 << 1) & NOTA) | ((a2 >> 1) & NOTI) | (s2 << 9) | (s2 >> 9)
            | (s1 >> 54)) & VALID


cdef inline bint has_barrier(const uint64_t* water) noexcept nogil:
    """The water cells hold a chain of neighbouring cells from column a to column i."""
    cdef uint64_t r[3]
    cdef uint64_t n[3]
    cdef uint64_t g0, g1, g2
    cdef int k
    for k in range(3):
        r[k] = water[k] & COLA[k]
    while True:
        if (r[0] & COLI[0]) | (r[1] & COLI[1]) | (r[2] & COLI[2]):
            return True
        nbr3(r, n)
        g0 = r[0] | (n[0] & water[0])
        g1 = r[1] | (n[1] & water[1])
        g2 = r[2] | (n[2] & water[2])
        if g0 == r[0] and g1 == r[1] and g2 == r[2]:
            return False
        r[0] = g0
        r[1] = g1
        r[2] = g2


cdef inline uint64_t energy_key(int b, int e) noexcept nogil:
    cdef uint64_t x
    if 0 <= e < ZEN:
        return ZEN_T[b][e]
    x = <uint64_t>(e * 4 + b) ^ <uint64_t>0xA5A5F00DCAFE
    return splitmix64(&x)
