"""The strip's geometry as Python values and helpers, for the text module (the tables and
hot helpers are in board.pxd)."""
from libc.stdint cimport uint64_t

COLS = "abcdefghi"


init_tables()
# (water column mask, bush columns left to right) of each arrangement id
ARRANGEMENTS = tuple((ARR_WATER[a], (ARR_BCOL[a][0], ARR_BCOL[a][1], ARR_BCOL[a][2]))
                     for a in range(NARR))


def neighbour_cells(int cell):
    """Ids of the cells next to ``cell`` on the full strip, ascending."""
    cdef uint64_t r[3]
    cdef uint64_t n[3]
    r[0] = 0
    r[1] = 0
    r[2] = 0
    r[cell_word(cell)] = cell_bit(cell)
    nbr3(r, n)
    return [63 * k + i for k in range(3) for i in range(63) if n[k] >> i & 1 and 63 * k + i < NCELLS]


def water_barrier(cells):
    """Whether these water cells (ids) hold a chain of neighbours from column a to i."""
    cdef uint64_t w[3]
    w[0] = 0
    w[1] = 0
    w[2] = 0
    for cell in cells:
        w[cell_word(cell)] |= cell_bit(cell)
    return has_barrier(w)
