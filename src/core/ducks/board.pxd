# The pond: geometry and hash keys (filled by board.pyx), and the hot helpers every part of
# the game shares: swimming, the gathered test, groups for the evaluation.
#
# The 61 cells are bits 0..60 of a 64-bit word in the order a1..a5, b1..b6, .., i1..i5.
# Along any of the six directions the bit index is monotone, so each ray from a cell is a
# mask whose nearest cell is either its lowest or its highest bit: a swim is a pext of the
# ducks' colours along the ray followed by a pdep into the cells next to the crumb.  A
# neighbour is always 1, 5, 6, 7, 8 or 9 bit indices away, so the neighbours of a whole set
# of cells are six shifts each way (neighbours()).
from libc.stdint cimport uint64_t

from roost.core.bits cimport popcount, lsb, pext, pdep, clear_lsb
from roost.core.rng cimport splitmix64

cdef enum:
    NCELLS = 61
    NROWS = 9
    DUCKS_PER_COLOUR = 12
    SETUP_PLACEMENTS = 24
    PLY_CAP = 300
    WHITE_DUCK = 64      # move id WHITE_DUCK + cell: a white duck placed in the setup
    BLACK_DUCK = 128     # move id BLACK_DUCK + cell: a black duck

# The tables: private to each module that cimports this file (see ROOST_TABLE in bitops.h),
# filled by init_tables() below when the module loads.
cdef extern from *:
    """
    #include "bitops.h"
    ROOST_TABLE int fd_ROW_LEN[9], fd_ROW_START[9];
    ROOST_TABLE uint64_t fd_RAY[61][6], fd_RAY_NEAR[61][6][10], fd_LINES[61], fd_ADJ[61];
    ROOST_TABLE uint64_t fd_STEP[10];
    ROOST_TABLE uint64_t fd_EDGE, fd_BOARD, fd_Z_SIDE;
    ROOST_TABLE uint64_t fd_Z_WHITE[61], fd_Z_BLACK[61], fd_Z_CRUMB[61];
    """
    int ROW_LEN "fd_ROW_LEN"[NROWS]
    int ROW_START "fd_ROW_START"[NROWS]
    uint64_t RAY "fd_RAY"[NCELLS][6]
    uint64_t RAY_NEAR "fd_RAY_NEAR"[NCELLS][6][10]   # [c][d][k]: the k cells of ray d nearest c
    uint64_t LINES "fd_LINES"[NCELLS]                # the cell's six rays together
    uint64_t ADJ "fd_ADJ"[NCELLS]
    uint64_t STEP "fd_STEP"[10]                     # [k]: the cells with a neighbour at index + k
    uint64_t EDGE "fd_EDGE"
    uint64_t BOARD "fd_BOARD"
    uint64_t Z_WHITE "fd_Z_WHITE"[NCELLS]            # hash keys
    uint64_t Z_BLACK "fd_Z_BLACK"[NCELLS]
    uint64_t Z_CRUMB "fd_Z_CRUMB"[NCELLS]
    uint64_t Z_SIDE "fd_Z_SIDE"


cdef inline void init_geometry() noexcept nogil:
    """Rows a..i from the bottom (5, 6, 7, 8, 9, 8, 7, 6, 5 cells) and the axial
    coordinates of docs/rules/ducks.md §2.2: row y has r = y - 4 and its first cell
    q = max(-4, -4 - r).  A step in
    direction d is (dq, dr) = DQ[d], DR[d]."""
    global EDGE, BOARD
    cdef int DQ[6]
    cdef int DR[6]
    cdef int CELL_Q[NCELLS]
    cdef int CELL_R[NCELLS]
    cdef int y, col, i, d, k, n, q, r, qq, rr, idx = 0
    DQ[:] = [1, -1, 0, 0, 1, -1]
    DR[:] = [0, 0, 1, -1, -1, 1]
    for y in range(NROWS):
        ROW_LEN[y] = 9 - (y - 4 if y >= 4 else 4 - y)
        ROW_START[y] = idx
        for col in range(ROW_LEN[y]):
            CELL_Q[idx] = (-4 if y - 4 >= 0 else -y) + col
            CELL_R[idx] = y - 4
            idx += 1
    EDGE = 0
    BOARD = (<uint64_t>1 << NCELLS) - 1
    for k in range(10):
        STEP[k] = 0
    for i in range(NCELLS):
        q = CELL_Q[i]
        r = CELL_R[i]
        if q == 4 or q == -4 or r == 4 or r == -4 or q + r == 4 or q + r == -4:
            EDGE |= <uint64_t>1 << i
        ADJ[i] = 0
        LINES[i] = 0
        for d in range(6):
            n = cell_at(q + DQ[d], r + DR[d])
            if n >= 0:
                ADJ[i] |= <uint64_t>1 << n
                if n > i:
                    STEP[n - i] |= <uint64_t>1 << i
            RAY[i][d] = 0
            RAY_NEAR[i][d][0] = 0
            n = 0
            qq = q + DQ[d]
            rr = r + DR[d]
            while cell_at(qq, rr) >= 0:
                RAY[i][d] |= <uint64_t>1 << cell_at(qq, rr)
                n += 1
                RAY_NEAR[i][d][n] = RAY[i][d]
                qq += DQ[d]
                rr += DR[d]
            for k in range(n + 1, 10):
                RAY_NEAR[i][d][k] = RAY[i][d]
            LINES[i] |= RAY[i][d]


cdef inline int cell_at(int q, int r) noexcept nogil:
    """The cell at axial (q, r), or -1 off the board (ROW_LEN and ROW_START filled)."""
    cdef int y = r + 4
    if y < 0 or y >= NROWS or q < -4 or q > 4 or q + r < -4 or q + r > 4:
        return -1
    return ROW_START[y] + q - (-4 if r >= 0 else -4 - r)


cdef inline void init_keys() noexcept nogil:
    global Z_SIDE
    cdef uint64_t seed = 0x0DDC0FFEE
    cdef int i
    for i in range(NCELLS):
        Z_WHITE[i] = splitmix64(&seed)
        Z_BLACK[i] = splitmix64(&seed)
        Z_CRUMB[i] = splitmix64(&seed)
    Z_SIDE = splitmix64(&seed)


cdef inline void init_tables() noexcept nogil:
    """Fill this module's copy of the tables (call once, when the module loads)."""
    init_geometry()
    init_keys()


cdef inline void swim(uint64_t* white, uint64_t* black, int c) noexcept nogil:
    """Every duck on the six lines of cell c packs up against it.  The rays share no cell, so
    each is worked out from the ducks as they were, all six at once (no ray waits for the
    one before), and without a branch: a ray with no duck, or whose ducks are packed
    already, comes out as it was."""
    cdef uint64_t w = white[0], occ = w | black[0], o, target, moved
    cdef uint64_t nw = 0, nb = 0
    cdef int d
    for d in range(6):
        o = occ & RAY[c][d]
        target = RAY_NEAR[c][d][popcount(o)]
        # pext/pdep keep the ducks' order: the i-th duck by bit index lands on the
        # i-th target cell by bit index, and ray order is bit order (monotone).
        moved = pdep(pext(w, o), target)
        nw |= moved
        nb |= target & ~moved
    white[0] = (w & ~LINES[c]) | nw
    black[0] = (black[0] & ~LINES[c]) | nb


cdef inline uint64_t neighbours(uint64_t cells) noexcept nogil:
    """Every cell next to one of ``cells``.  Two neighbours k indices apart are found from
    the lower one, which STEP[k] marks: k up from the marked cells of ``cells``, and k down
    onto the marked cells whose upper neighbour is in ``cells``."""
    return (((cells & STEP[1]) << 1) | ((cells >> 1) & STEP[1])
            | ((cells & STEP[5]) << 5) | ((cells >> 5) & STEP[5])
            | ((cells & STEP[6]) << 6) | ((cells >> 6) & STEP[6])
            | ((cells & STEP[7]) << 7) | ((cells >> 7) & STEP[7])
            | ((cells & STEP[8]) << 8) | ((cells >> 8) & STEP[8])
            | ((cells & STEP[9]) << 9) | ((cells >> 9) & STEP[9]))


cdef inline bint gathered(uint64_t ducks) noexcept nogil:
    """All ducks of one colour in one hex-connected group.  Most colours that are not have a
    duck with no neighbour of its colour, seen at once; the others (and a lone duck, or
    none, both gathered) are flood-filled from the lowest duck, a ring at a time."""
    cdef uint64_t lonely = ducks & ~neighbours(ducks)
    cdef uint64_t group, frontier
    if lonely and lonely != ducks:
        return False
    group = ducks & (0 - ducks)
    frontier = group
    while frontier:
        frontier = neighbours(frontier) & ducks & ~group
        group |= frontier
    return group == ducks


cdef inline int groups_and_links(uint64_t ducks, int* links) noexcept nogil:
    """Connected groups of one colour, and (into links) the number of adjacent pairs,
    in one pass of flood fills: each duck's neighbour mask is read once."""
    cdef int groups = 0, l = 0, d
    cdef uint64_t left = ducks, group, frontier, grown, nb
    while left:
        group = left & (0 - left)
        frontier = group
        while frontier:
            grown = 0
            while frontier:
                d = lsb(frontier)
                nb = ADJ[d]
                grown |= nb
                l += popcount(nb & ducks)
                frontier = clear_lsb(frontier)
            frontier = grown & ducks & ~group
            group |= frontier
        left &= ~group
        groups += 1
    links[0] = l // 2
    return groups


cdef inline uint64_t crumb_targets(uint64_t occ, int crumb) noexcept nogil:
    """Where the next crumb may go: an empty cell on no line of the crumb (crumb < 0: none
    placed yet, any empty cell)."""
    if crumb < 0:
        return BOARD & ~occ
    return BOARD & ~occ & ~LINES[crumb] & ~(<uint64_t>1 << crumb)


cdef inline uint64_t full_key(uint64_t w, uint64_t b, int crumb, int side) noexcept nogil:
    cdef uint64_t h = 0, f = w
    while f:
        h ^= Z_WHITE[lsb(f)]
        f = clear_lsb(f)
    f = b
    while f:
        h ^= Z_BLACK[lsb(f)]
        f = clear_lsb(f)
    if crumb >= 0:
        h ^= Z_CRUMB[crumb]
    if side:
        h ^= Z_SIDE
    return h
