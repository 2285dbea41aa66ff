"""The pond's tables (declared in board.pxd): rows, rays, neighbours, the edge, hash keys;
and the geometry as Python values for the text and rendering modules."""
from libc.stdint cimport uint64_t

from roost.core.rng cimport splitmix64

# The rows a..i from the bottom, their lengths, and the axial coordinates (q, r) of the
# rules file: row y has r = y - 4, its first cell q = max(-4, -4 - r).
ROW_NAMES = "abcdefghi"
ROW_LENGTHS = (5, 6, 7, 8, 9, 8, 7, 6, 5)
ROW_STARTS = tuple(sum(ROW_LENGTHS[:y]) for y in range(NROWS))
_DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def _axial_cells():
    """{(q, r): cell} in bit order."""
    index = {}
    for y in range(NROWS):
        r = y - 4
        for col in range(ROW_LENGTHS[y]):
            index[(max(-4, -4 - r) + col, r)] = ROW_STARTS[y] + col
    return index


def _init_geometry():
    global EDGE, BOARD
    cdef int y, i, d, k, n
    index = _axial_cells()
    for y in range(NROWS):
        ROW_LEN[y] = ROW_LENGTHS[y]
        ROW_START[y] = ROW_STARTS[y]
    EDGE = 0
    BOARD = (<uint64_t>1 << NCELLS) - 1
    for (q, r), i in index.items():
        if max(abs(q), abs(r), abs(q + r)) == 4:
            EDGE |= <uint64_t>1 << i
        ADJ[i] = 0
        LINES[i] = 0
        for d in range(6):
            dq, dr = _DIRS[d]
            if (q + dq, r + dr) in index:
                ADJ[i] |= <uint64_t>1 << index[(q + dq, r + dr)]
            RAY[i][d] = 0
            RAY_NEAR[i][d][0] = 0
            n = 0
            qq, rr = q + dq, r + dr
            while (qq, rr) in index:
                RAY[i][d] |= <uint64_t>1 << index[(qq, rr)]
                n += 1
                RAY_NEAR[i][d][n] = RAY[i][d]
                qq, rr = qq + dq, rr + dr
            for k in range(n + 1, 10):
                RAY_NEAR[i][d][k] = RAY[i][d]
            LINES[i] |= RAY[i][d]


def _init_keys():
    global Z_SIDE
    cdef uint64_t seed = 0x0DDC0FFEE
    cdef int i
    for i in range(NCELLS):
        Z_WHITE[i] = splitmix64(&seed)
        Z_BLACK[i] = splitmix64(&seed)
        Z_CRUMB[i] = splitmix64(&seed)
    Z_SIDE = splitmix64(&seed)


_init_geometry()
_init_keys()

EDGE_CELLS = EDGE


def is_gathered(uint64_t ducks):
    """Whether the ducks of a colour (a cell mask) form one group (for position checks)."""
    return gathered(ducks)
