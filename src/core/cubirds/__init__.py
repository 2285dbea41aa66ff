"""CuBirds (rules: docs/rules/cubirds.md), one concern per file:

- ``cards.pxd``: sizes, phases, move ids, the species table and the hash keys;
- ``state.pxd``/``state.pyx``: the position and the native contract (class ``Cubirds``);
- ``rules.pxd``: the rules on a position: laying, drawing, flocking, rounds, dealing;
- ``information.pxd``: what a seat knows, and the worlds consistent with it;
- ``text.py``: the JSON position text, a seat's view, move names (every value checked);
- ``render.py``: the table as text;
- ``examples.py``: the registry's positions.
"""
from roost.core.cubirds.state import Cubirds
from roost.core.cubirds.examples import EXAMPLES, BENCH_POSITION
from roost.core.cubirds.text import (LETTERS, PHASES, SPECIES_NAMES, move_name, parse_move)

__all__ = ["GAME", "Cubirds", "EXAMPLES", "BENCH_POSITION", "LETTERS", "PHASES", "SPECIES_NAMES",
           "move_name", "parse_move"]

from roost.core import games as _games
from roost.core.cubirds import render as _render

GAME = _games.register_game(_games.GameInfo(
    "cubirds", "CuBirds", Cubirds, 2, 5, 4, ("cu-birds", "cb"),
    "lay birds in the rows to capture the cards between, then flock them into "
    "a collection of 7 species or two species of 3",
    examples=EXAMPLES, bench_position=BENCH_POSITION, picture=_render))
