"""Tweeeet (rules: docs/rules/tweeeet.md), one concern per file:

- ``board.pxd``/``board.pyx``: the strip's bitboard layout, tables and neighbour step;
- ``state.pxd``/``state.pyx``: the position and the native contract (class ``Tweeeet``);
- ``flights.pxd``: where a bird may fly (the flight, pass and death tests);
- ``landscape.pxd``: rows laid at random, the nest row, rows removed;
- ``turns.pxd``: a flight or a pass and what follows it;
- ``text.py``: position text, cell, move and row names (every value checked where it enters);
- ``render.py``: the picture in text.
"""
from roost.core.tweeeet.state import Tweeeet, playouts
from roost.core.tweeeet.text import (BIRDS, BIRD_TITLES, COLS, EXAMPLE, FOOD_NAMES,
                                     NEST_ROW_TEXT, START_ROW_TEXT, cell_name, move_name,
                                     neighbours, outcome_text, parse_cell, parse_move,
                                     parse_outcome)

__all__ = ["GAME", "Tweeeet", "playouts", "BIRDS", "BIRD_TITLES", "COLS", "EXAMPLE", "FOOD_NAMES",
           "NEST_ROW_TEXT", "START_ROW_TEXT", "cell_name", "move_name", "neighbours",
           "outcome_text", "parse_cell", "parse_move", "parse_outcome"]

from roost.core import games as _games
from roost.core.tweeeet import render as _render

GAME = _games.register_game(_games.GameInfo(
    "tweeeet", "Tweeeet", Tweeeet, 2, 2, 2, ("tweet",),
    "fly your robins from bush to bush up the hex strip to the nests with the most energy",
    examples=("0:-...S...-/~..3.5~.2/.4..~2.~3/5~.~..4.2/..~3.~54. e0:6 e0:7 e0:8 e0:9 MR",
              "0:-...S...-/~..o.5~.2/.4..~2.~3/5~.~..4.2/..~3.~54. d1:8 e0:7 e0:8 e0:9 MB"),
    bench_position=("0:-...S...-/~..o.o~.o/.o..~o.~o/o~.~..4.2/..~o.~o4./.~.oo.~4./"
                    ".4o.~.~2./3.3o~..~./....4~o2~/...~423~./~~oo.5.../3.2~..~5./"
                    "2~~.2..4./...25~.5~/35~~4.... d5:7 c6:6 d10:6 i2:5 MR"),
    picture=_render))
