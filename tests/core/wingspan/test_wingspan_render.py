"""Wingspan's picture: every bird's card keeps its words inside its border, in a hand or
the tray and in a habitat's slot, measured with the widest usual sans-serif font."""
import re
from xml.sax.saxutils import escape, unescape

import pytest

from roost.core.wingspan import render
from roost.core.wingspan.tables import BIRDS
from tests.core.text_width import text_width

# the cards as the picture draws them: in a hand or the tray, and in a habitat's slot
SIZES = {"hand": (render._CARD_W, render._CARD_H), "slot": (render._SLOT_W - 6, render._SLOT_H - 8)}
PADDING = 3                 # px kept clear of the border


def card_texts(svg):
    """The card's rectangle (x, width) and each line drawn on it (x, size, bold, text)."""
    rect = re.search(r'<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)"', svg)
    lines = [(float(x), float(size), bool(bold), unescape(text)) for x, size, bold, text in
             re.findall(r'<text x="([\d.]+)" y="[\d.]+" font-size="(\d+)"( font-weight="bold")?[^>]*>([^<]*)</text>', svg)]
    return float(rect.group(1)), float(rect.group(2)), lines


@pytest.mark.parametrize("where", sorted(SIZES))
def test_every_birds_name_fits_inside_its_card(where):
    w, h = SIZES[where]
    too_wide = []
    for bird in range(len(BIRDS)):
        svg = "".join(render._bird_card(10, 10, w, h, bird, escape, notes=("eggs 5/6", "cached 3", "tucked 4")))
        left, width, lines = card_texts(svg)
        name = [line for line in lines if line[2]]
        assert " ".join(t for _, _, _, t in name).replace("- ", "-") == BIRDS[bird]["name"]
        for x, size, bold, text in lines:
            if x + text_width(text, size, bold) > left + width - PADDING:
                too_wide.append(f"{text!r} ({x + text_width(text, size, bold) - left:.0f} px of {width:g})")
    assert not too_wide, too_wide


def test_setup_shows_each_kept_and_discarded_bird_to_its_seat_only():
    # §6.1: each seat keeps or discards its five dealt birds one by one; the hand stays as
    # dealt until every seat has chosen, so the picture marks the answers given so far
    from roost.core.games import get_game
    state = get_game("wingspan").start(players=2, seed=1)
    dealt = [BIRDS[b]["name"] for b in state._raw()["players"][0]["hand"]]
    state.play_move(state.parse_move("yes"))
    state.play_move(state.parse_move("no"))
    assert render.setup_decisions(state._raw(), 0) == ["kept", "discarded"]
    hand = next(line for line in state.render(observer=0).splitlines() if "hand" in line)
    assert f"{dealt[0]} (kept), {dealt[1]} (discarded), {dealt[2]}," in hand
    picture = render.svg(state, observer=0)
    assert f"<title>{escape(dealt[0])} (kept):" in picture
    assert f"<title>{escape(dealt[1])} (discarded):" in picture
    assert f"<title>{escape(dealt[2])}:" in picture
    assert "(kept)" not in state.render(observer=1) and "(kept)" not in render.svg(state, observer=1)
