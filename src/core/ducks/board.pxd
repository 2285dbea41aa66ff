# The pond: geometry and hash keys (filled by board.pyx), and the hot helpers every part of
# the game shares: swimming, the gathered test, groups for the evaluation.
#
# The 61 cells are bits 0..60 of a 64-bit word in the order a1..a5, b1..b6, .., i1..i5.
# Along any of the six directions the bit index is monotone, so each ray from a cell is a
# mask whose nearest cell is either its lowest or its highest bit: a swim is a pext of the
# ducks' colours along the ray followed by a pdep into the cells next to the crumb.
from libc.stdint cimport uint64_t

from roost.core.bits cimport popcount, lsb, pext, pdep, clear_lsb

cdef enum:
    NCELLS = 61
    NROWS = 9
    DUCKS_PER_COLOUR = 12
    SETUP_PLACEMENTS = 24
    PLY_CAP = 300
    MAX_HIST = 304
    WHITE_DUCK = 64      # move id WHITE_DUCK + cell: a white duck placed in the setup
    BLACK_DUCK = 128     # move id BLACK_DUCK + cell: a black duck

cdef int ROW_LEN[NROWS]
cdef int ROW_START[NROWS]
cdef uint64_t RAY[NCELLS][6]
cdef uint64_t RAY_NEAR[NCELLS][6][10]   # RAY_NEAR[c][d][k]: the k cells of ray d nearest c
cdef uint64_t LINES[NCELLS]             # the cell's six rays together
cdef uint64_t ADJ[NCELLS]
cdef uint64_t EDGE
cdef uint64_t BOARD
cdef uint64_t Z_WHITE[NCELLS]
cdef uint64_t Z_BLACK[NCELLS]
cdef uint64_t Z_CRUMB[NCELLS]
cdef uint64_t Z_SIDE


cdef inline uint64_t swim(uint64_t* white, uint64_t* black, int c) noexcept nogil:
    """Every duck on the six lines of cell c packs up against it; returns the cells that
    changed (for the caller's hash update)."""
    cdef uint64_t w = white[0], b = black[0], occ = w | b
    cdef uint64_t ray, o, target, nw, changed = 0
    cdef int d, k
    for d in range(6):
        ray = RAY[c][d]
        o = occ & ray
        if o == 0:
            continue
        k = popcount(o)
        target = RAY_NEAR[c][d][k]
        if target == o:
            continue
        # pext/pdep keep the ducks' order: the i-th duck by bit index lands on the
        # i-th target cell by bit index, and ray order is bit order (monotone).
        nw = pdep(pext(w, o), target)
        changed |= o | target
        w = (w & ~ray) | nw
        b = (b & ~ray) | (target & ~nw)
    white[0] = w
    black[0] = b
    return changed


cdef inline bint gathered(uint64_t ducks) noexcept nogil:
    """All ducks of one colour in one hex-connected group (flood fill from the lowest)."""
    cdef uint64_t group = ducks & (0 - ducks)
    cdef uint64_t frontier = group, grown, f
    while frontier:
        grown = 0
        f = frontier
        while f:
            grown |= ADJ[lsb(f)]
            f = clear_lsb(f)
        frontier = grown & ducks & ~group
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
