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

__all__ = ["GAME", "Leaves", "GardenReplay", "CARD_CODES", "CARD_NAMES", "CATEGORY_NAMES",
           "COLOUR_NAMES", "TILE_TABLE", "TYPE_LETTERS", "tile_squares", "move_name",
           "parse_move"]

from roost.core import games as _games
from roost.core.leaves import render as _render

GAME = _games.register_game(_games.GameInfo(
    "leaves", "Under the Leaves", Leaves, 2, 4, 2, ("under-the-leaves", "utl"),
    "grow a garden of 13 tiles that draws bees, hummingbirds and garden dwellers",
    examples=(
        # a 2-player start (Leaves.start(2, seed=0))
        "UTL p=2 cards=Flirty,Collector,Diver turn=1 tomove=0 market=24,38,44 "
        "bag=2,3,4,5,7,9,10,11,12,17,19,20,21,26,27,28,31,37,41,42,43,47,48 "
        "g0=S0@(0,0)o0 g1=S3@(0,0)o0",
        # the example of docs/rules/leaves.md §11.4
        "UTL p=2 cards=Flirty,Collector,Friendly turn=4 tomove=1 market=7,29,30 "
        "bag=0,4,8,13,15,16,17,21,24,28,31,33,34,35,37,38,39,41,44,48 "
        "g0=S1@(0,0)o0;43@(0,1)o5;42@(-1,1)o7 g1=S3@(0,0)o0;12@(1,0)o2",
        # a refill pending (a chance node)
        "UTL p=2 cards=Flirty,Explorer,Shy turn=17 tomove=0 market=48,49 "
        "bag=6,7,9,10,23,24,41,43 g0=S0@(0,0)o0;30@(-1,0)o2;22@(-1,-1)o5;37@(0,1)o6;"
        "17@(1,1)o3;3@(-1,1)o0;5@(1,2)o0;34@(1,3)o1;1@(0,2)o7 g1=S1@(0,0)o0;2@(0,1)o4;"
        "12@(0,2)o6;32@(1,1)o1;40@(-1,0)o3;36@(1,0)o1;19@(0,3)o4;4@(1,3)o3;18@(-2,0)o3",
        # 3- and 4-player starts (seed 0)
        "UTL p=3 cards=Flirty,Collector,Diver turn=1 tomove=0 market=0,1,13 "
        "bag=2,3,4,5,6,7,9,10,11,12,17,18,19,20,21,22,24,25,26,27,28,31,32,34,35,37,"
        "38,41,42,43,44,46,47,48,49 g0=S0@(0,0)o0 g1=S3@(0,0)o0 g2=S2@(0,0)o0",
        "UTL p=4 cards=Flirty,Collector,Diver turn=1 tomove=0 market=14,29,40 "
        "bag=0,1,2,3,4,5,6,7,8,9,10,11,12,13,15,16,17,18,19,20,21,22,23,24,25,26,27,"
        "28,30,31,32,33,34,35,36,37,38,39,41,42,43,44,45,46,47,48,49 g0=S0@(0,0)o0 "
        "g1=S3@(0,0)o0 g2=S2@(0,0)o0 g3=S1@(0,0)o0",
    ),
    # 2 players, turn 16 of 24, seat 1 to move
    bench_position=(
        "UTL p=2 cards=Flirty,Explorer,Shy turn=16 tomove=1 market=18,48,49 "
        "bag=6,7,9,10,23,24,41,43 g0=S0@(0,0)o0;30@(-1,0)o2;22@(-1,-1)o5;37@(0,1)o6;"
        "17@(1,1)o3;3@(-1,1)o0;5@(1,2)o0;34@(1,3)o1;1@(0,2)o7 g1=S1@(0,0)o0;2@(0,1)o4;"
        "12@(0,2)o6;32@(1,1)o1;40@(-1,0)o3;36@(1,0)o1;19@(0,3)o4;4@(1,3)o3"),
    picture=_render))
