# The evaluation's features (src/core/linear.pxd): what a colour's ducks look like on the
# way to one group.  Filled per colour from that colour's owner's point of view; the
# weights are fitted by `roost tune ducks` (roost.arena.tuning).
from libc.stdint cimport uint64_t

from roost.core.bits cimport popcount, lsb, clear_lsb
from roost.core.ducks.board cimport (ADJ, EDGE, NCELLS, NROWS, ROW_LEN, ROW_START,
                                     groups_and_links)
from roost.core.ducks.state cimport DucksCore

cdef enum:
    N_FEATURES = 7

# hex distances between cells (filled by init_features when the module loads)
cdef extern from *:
    """
    #include "bitops.h"
    ROOST_TABLE unsigned char fd_DIST[61][61];
    """
    unsigned char DIST "fd_DIST"[NCELLS][NCELLS]


cdef inline void init_features() noexcept nogil:
    cdef int q[NCELLS]
    cdef int r[NCELLS]
    cdef int y, col, i, j, idx = 0, dq, dr
    for y in range(NROWS):
        for col in range(ROW_LEN[y]):
            q[idx] = (-4 if y >= 4 else -y) + col
            r[idx] = y - 4
            idx += 1
    for i in range(NCELLS):
        for j in range(NCELLS):
            dq = q[i] - q[j]
            dr = r[i] - r[j]
            DIST[i][j] = <unsigned char>((abs(dq) + abs(dr) + abs(dq + dr)) // 2)


cdef inline int abs(int x) noexcept nogil:
    return -x if x < 0 else x


cdef inline int largest_group(uint64_t ducks) noexcept nogil:
    cdef uint64_t left = ducks, group, frontier, grown, f
    cdef int best = 0, n
    while left:
        group = left & (0 - left)
        frontier = group
        while frontier:
            grown = 0
            f = frontier
            while f:
                grown |= ADJ[lsb(f)]
                f = clear_lsb(f)
            frontier = grown & ducks & ~group
            group |= frontier
        n = popcount(group)
        if n > best:
            best = n
        left &= ~group
    return best


cdef inline double mean_distance(uint64_t ducks) noexcept nogil:
    """Mean hex distance between two ducks of the colour: how far the gathering still is."""
    cdef int cells[16]
    cdef int n = 0, i, j, total = 0
    while ducks and n < 16:
        cells[n] = lsb(ducks)
        n += 1
        ducks = clear_lsb(ducks)
    if n < 2:
        return 0.0
    for i in range(n):
        for j in range(i + 1, n):
            total += DIST[cells[i]][cells[j]]
    return total / (n * (n - 1) / 2.0)


cdef inline void ducks_features(const DucksCore* c, int player, double* out) noexcept nogil:
    """0 groups, 1 adjacent pairs, 2 largest group, 3 mean distance between ducks,
    4 ducks on the bank, 5 ducks with no neighbour of their colour, 6 to move (the
    tempo: without it a depth-limited search swings with the parity of its depth)."""
    cdef uint64_t own = c.white if player == 0 else c.black
    cdef uint64_t lone = 0, f = own
    cdef int links, groups = groups_and_links(own, &links)
    while f:
        if not (ADJ[lsb(f)] & own):
            lone |= f & (0 - f)
        f = clear_lsb(f)
    out[0] = groups
    out[1] = links
    out[2] = largest_group(own)
    out[3] = mean_distance(own)
    out[4] = popcount(own & EDGE)
    out[5] = popcount(lone)
    out[6] = 1.0 if c.side == player else 0.0
