"""Feed the Ducks (rules: docs/rules/ducks.md), one concern per file:

- ``board.pxd``/``board.pyx``: the pond's tables and the hot helpers (swim, gathered);
- ``state.pxd``/``state.pyx``: the position and the native contract (class ``Ducks``);
- ``perft.pyx``: the bulk perft on bare bitboards;
- ``text.py``: position text, cell and move names (every value checked where it enters);
- ``render.py``: the picture in text.
"""
from roost.core.ducks.state import Ducks
from roost.core.ducks.text import cell_name, parse_cell, parse_move, move_name
from roost.core.ducks.board import ROW_NAMES

__all__ = ["Ducks", "cell_name", "parse_cell", "parse_move", "move_name", "ROW_NAMES"]
