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

__all__ = ["Tweeeet", "playouts", "BIRDS", "BIRD_TITLES", "COLS", "EXAMPLE", "FOOD_NAMES",
           "NEST_ROW_TEXT", "START_ROW_TEXT", "cell_name", "move_name", "neighbours",
           "outcome_text", "parse_cell", "parse_move", "parse_outcome"]
