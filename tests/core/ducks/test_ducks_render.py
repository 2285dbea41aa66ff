"""Feed the Ducks' picture: coordinates a person can read off any cell, under a duck and
the crumb too."""
import math
import random
import re

from roost.core.ducks import ROW_NAMES, render
from roost.core.games import get_game


def positions():
    """The start, a game in the middle, and the game's end."""
    state = get_game("ducks").start(seed=5)
    rnd = random.Random(5)
    out = [state.copy()]
    while not state.is_over:
        state.play_unchecked(rnd.choice(list(state.legal())))
        if len(out) == 1 and state.phase == "play":
            out.append(state.copy())
    return out + [state]


def test_every_cell_shows_its_name_inside_it():
    for state in positions():
        picture = render.svg(state)
        cells = re.findall(r'<g class="cell" data-target="cell:(\w+)">(.*?)</g>', picture, re.S)
        assert len(cells) == 61
        for name, inner in cells:
            cx, cy, r = map(float, re.search(r'<circle class="(?:water|duck \w+)" cx="([\d.]+)" cy="([\d.]+)" '
                                             r'r="([\d.]+)"', inner).groups())
            label = re.search(r'<text class="name" x="([\d.]+)" y="([\d.]+)"[^>]*>(\w+)</text>', inner)
            assert label and label.group(3) == name, (state.text(), name)
            x, y = float(label.group(1)), float(label.group(2))
            assert math.hypot(x - cx, y - cy) < r - 2                  # written inside its circle


def test_each_row_is_named_on_both_sides():
    picture = render.svg(positions()[1])
    rows = re.findall(r'<text class="row" x="(\d+)" y="(\d+)"[^>]*>(\w)</text>', picture)
    assert sorted(name for _, _, name in rows) == sorted(ROW_NAMES * 2)
    for name in ROW_NAMES:
        left, right = sorted((int(x), int(y)) for x, y, n in rows if n == name)
        assert left[1] == right[1] and left[0] < 30 < right[0]         # one line, either side
