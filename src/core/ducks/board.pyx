"""The pond's geometry as Python values and helpers, for the text and rendering modules
(the tables and hot helpers are in board.pxd)."""
from libc.stdint cimport uint64_t

init_tables()

ROW_NAMES = "abcdefghi"
ROW_LENGTHS = tuple(ROW_LEN[y] for y in range(NROWS))
ROW_STARTS = tuple(ROW_START[y] for y in range(NROWS))
EDGE_CELLS = EDGE


def is_gathered(uint64_t ducks):
    """Whether the ducks of a colour (a cell mask) form one group (for position checks)."""
    return gathered(ducks)
