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

__all__ = ["GAME", "Ducks", "cell_name", "parse_cell", "parse_move", "move_name", "ROW_NAMES"]

from roost.core import games as _games
from roost.core.ducks import render as _render

GAME = _games.register_game(_games.GameInfo(
    "ducks", "Feed the Ducks", Ducks, 2, 2, 2, ("feed-the-ducks", "fd"),
    "gather your 12 ducks into one group by dropping a crumb",
    examples=("5/6/7/8/9/8/7/6/5 w 0",
              "bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0",
              "bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww b 0"),
    bench_position="bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0",
    picture=_render))
