"""Under the Leaves (rules: docs/rules/leaves.md), one concern per file:

- ``tiles.py``: the tiles and cards as printed (faces, orientations, names);
- ``tables.pxd``: sizes, move and card ids, the native tile tables and hash keys;
- ``garden.pxd``/``garden.pyx``: a garden on bit planes and the checks of a placement
  (bees, hummingbirds, the twelve dweller cards);
- ``state.pxd``/``state.pyx``: the position and the native contract (class ``Leaves``),
  perft, scoring and the evaluation;
- ``replay.pyx``: one garden replayed on its own with any cards (``GardenReplay``);
- ``text.py``: the position text, move names (every value checked where it enters);
- ``render.py``: the gardens in text and as SVG.
"""
from roost.core.leaves.state import Leaves
from roost.core.leaves.replay import GardenReplay
from roost.core.leaves.tiles import (CARD_CODES, CARD_NAMES, CATEGORY_NAMES, COLOUR_NAMES,
                                     TILE_TABLE, TYPE_LETTERS, tile_squares)
from roost.core.leaves.text import move_name, parse_move

__all__ = ["Leaves", "GardenReplay", "CARD_CODES", "CARD_NAMES", "CATEGORY_NAMES",
           "COLOUR_NAMES", "TILE_TABLE", "TYPE_LETTERS", "tile_squares", "move_name",
           "parse_move"]
