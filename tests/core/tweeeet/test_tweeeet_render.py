"""Tweeeet's picture: birds sharing a cell (the four on the start hex) are drawn inside
that hexagon, and no two overlap."""
import itertools
import math
import random
import re

from roost.core.games import get_game
from roost.core.tweeeet import render

STROKE = 0.75               # half a bird's outline, drawn outside its radius


def hexagons(picture):
    """Each cell's polygon: {target: [(x, y), ...]}."""
    out = {}
    for target, points in re.findall(r'<g class="cell" data-target="([^"]+)">\s*<polygon class="[^"]+" points="([^"]+)"',
                                     picture):
        out[target] = [tuple(map(float, p.split(","))) for p in points.split()]
    return out


def birds(picture):
    return [tuple(map(float, b)) for b in
            re.findall(r'<circle class="bird \w+" cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"', picture)]


def inside(polygon, x, y, r):
    """Whether the circle (x, y, r) lies inside the convex ``polygon``."""
    n = len(polygon)
    cx = sum(p[0] for p in polygon) / n
    cy = sum(p[1] for p in polygon) / n
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1]):
        length = math.hypot(x2 - x1, y2 - y1)
        side = lambda px, py: ((x2 - x1) * (py - y1) - (y2 - y1) * (px - x1)) / length
        if side(cx, cy) * side(x, y) <= 0 or abs(side(x, y)) < r:
            return False
    return True


def test_the_four_birds_on_the_start_hex_lie_inside_it():
    state = get_game("tweeeet").start(seed=3)
    picture = render.svg(state)
    cells, drawn = hexagons(picture), birds(picture)
    assert len(drawn) == 4
    home = [t for t, poly in cells.items() if all(inside(poly, x, y, 0) for x, y, _ in drawn)]
    assert len(home) == 1                                   # all four centres in one hexagon
    for x, y, r in drawn:
        assert inside(cells[home[0]], x, y, r + STROKE), (x, y, r)
    for (x1, y1, r1), (x2, y2, r2) in itertools.combinations(drawn, 2):
        assert math.hypot(x2 - x1, y2 - y1) >= r1 + r2      # side by side, none hidden


def test_birds_sharing_any_cell_stay_inside_it():
    rnd = random.Random(4)
    for seed in range(3):
        state = get_game("tweeeet").start(seed=seed)
        while not state.is_over:
            picture = render.svg(state)
            cells = hexagons(picture)
            for x, y, r in birds(picture):
                assert any(inside(poly, x, y, r + STROKE) for poly in cells.values()), (state.text(), x, y)
            state.play_unchecked(rnd.choice(list(state.legal())))


def test_a_laid_row_is_said_in_words_with_its_number():
    # the start shows rows up to 4 (docs/rules/tweeeet.md §2); the first chance lays row 5
    state = get_game("tweeeet").start()
    rnd = random.Random(5)
    while not state.is_chance:
        state.play_unchecked(rnd.choice(state.legal()))
    row = state._raw()["high"] + 1
    outcome = state.sample(7)
    words = render.outcome_words(state, outcome)
    assert words.startswith(f"row {row} laid: {state.move_name(outcome)} ")
    state.play_unchecked(outcome)
    assert state._raw()["high"] == row
