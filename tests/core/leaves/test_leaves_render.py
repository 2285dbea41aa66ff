"""Under the Leaves' picture: whose turn, the market, every seat's score and a legend, at
the same size for four players as for two, with every line of text inside the picture."""
import random
import re

import pytest

from roost.core.games import get_game
from roost.core.leaves import render
from tests.core.text_width import text_width


def played(players, plies, seed=3):
    state = get_game("leaves").start(players=players, seed=seed)
    rnd = random.Random(seed)
    for _ in range(plies):
        if state.is_chance:
            state.play_unchecked(state.sample(rnd.getrandbits(62)))
        else:
            state.play_unchecked(rnd.choice(list(state.legal())))
    while state.is_chance:
        state.play_unchecked(state.sample(rnd.getrandbits(62)))
    return state


def size(picture):
    width, height, box = re.match(r'<svg [^>]*width="([\d.]+)" height="([\d.]+)" viewBox="([^"]+)"', picture).groups()
    assert box.split() == ["0", "0", width, height]             # drawn at its own size, not scaled
    return float(width), float(height)


def texts(picture):
    return [re.sub(r"<[^>]+>", "", t) for t in re.findall(r"<text [^>]*>(.*?)</text>", picture)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_turn_market_scores_and_legend(players):
    state = played(players, 5 * players)
    picture = render.svg(state)
    words = texts(picture)
    mover = (state.turn - 1) % players
    assert f"turn {state.turn} of {12 * players}: seat {mover} to move" in words[0]
    market = re.findall(r'<g class="market" data-target="market:(\d)">(.*?)</g>', picture)
    assert [int(i) for i, _ in market] == list(range(len(state.market()))) and len(market) >= 3
    assert all(inner.count("<rect") == 5 for _, inner in market)   # the frame and the tile's 4 squares
    for seat, score in enumerate(state.scores()):
        title = f"seat {seat}" + (", to move" if seat == mover else "") + f": score {score}"
        assert title in words
    legend = next(w for w in words if w.startswith("pieces: "))
    assert all(card in legend for card in state.cards) and "L " in legend and "M " in legend and "P " in legend
    for colour in ("yellow", "pink", "orange", "purple", "green", "puddle"):
        assert colour in words
    assert any(w.startswith("mushroom") for w in words)


def test_four_gardens_are_drawn_as_large_as_two():
    two, four = render.svg(played(2, 30)), render.svg(played(4, 60))
    square = r'<rect x="[\d.]+" y="[\d.]+" width="(\d+)" height="\d+" fill="#[0-9a-f]+" stroke="#555"'
    assert set(re.findall(square, four)) == set(re.findall(square, two)) == {"24", "18", "14"}
    width, height = size(four)
    assert width <= 1000 and height <= 1000                     # a page shows it whole, unscaled
    assert size(four)[1] > size(two)[1]


@pytest.mark.parametrize("players", [2, 4])
def test_every_line_of_text_ends_inside_the_picture(players):
    picture = render.svg(played(players, 6 * players))
    width, _ = size(picture)
    for attrs, text in re.findall(r"<text ([^>]*)>(.*?)</text>", picture):
        text = re.sub(r"<[^>]+>", "", text)
        x = float(re.search(r'\bx="([\d.]+)"', attrs).group(1))
        font = float(re.search(r'font-size="([\d.]+)"', attrs).group(1))
        anchor = re.search(r'text-anchor="(\w+)"', attrs)
        drawn = text_width(text, font, 'font-weight="bold"' in attrs)
        right = x + (drawn / 2 if anchor and anchor.group(1) == "middle" else drawn)
        assert right <= width, (text, right, width)


def test_a_refill_draw_is_said_as_the_tile_it_brings():
    state = played(2, 0)
    rnd = random.Random(2)
    while not state.is_chance:
        state.play_unchecked(rnd.choice(state.legal()))
    outcome = state.sample(11)
    tile = int(state.move_name(outcome)[1:])
    assert render.outcome_words(state, outcome) == f"tile #{tile} drawn for the market"
    state.play_unchecked(outcome)
    assert tile in state.market()
