"""A seat's view is a position text its receiver can parse (the position text as
that seat sees it): the games' parsers take their own views, hidden cards dealt in a fixed
way from the unseen ones, and the view of the result is the view sent.  Wingspan's views
have their own tests (tests/core/wingspan/test_wingspan_views.py)."""
import json
import random

import pytest

from roost.core.errors import PositionError
from roost.core.games import get_game

CUBIRDS = get_game("cubirds")


def positions(game, players, seed, every=1):
    """Every `every`-th decision node of a seeded random game (chance included)."""
    rnd = random.Random(seed)
    s = get_game(game).start(players=players, seed=seed)
    k = 0
    while not s.is_over:
        if s.is_chance:
            s.play_unchecked(s.sample(rnd.getrandbits(63)))
            continue
        if k % every == 0:
            yield s.copy()
        k += 1
        s.play_unchecked(rnd.choice(s.legal()))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_cubirds_view_parses_back_to_itself(players):
    checked = 0
    for s in positions("cubirds", players, seed=players, every=2):
        for seat in range(players):
            view = s.view(seat)
            parsed = CUBIRDS.parse(view)
            assert parsed.view(seat) == view
            if seat == s.player:           # the mover's own options are all in its view
                assert parsed.legal() == s.legal()
            checked += 1
    assert checked > 50


def test_a_parsed_view_depends_on_the_view_alone():
    for s in positions("cubirds", 4, seed=9, every=7):
        seat = (s.player + 1) % 4
        other = s.determinized(seat, 77)
        assert other.view(seat) == s.view(seat)
        assert CUBIRDS.parse(other.view(seat)).text() == CUBIRDS.parse(s.view(seat)).text()


def test_a_parsed_flock_view_lets_the_mover_flock():
    found = 0
    for s in positions("cubirds", 3, seed=4):
        if json.loads(s.text())["phase"] != "flock":
            continue
        for seat in range(3):
            assert CUBIRDS.parse(s.view(seat)).legal() != []
        found += 1
    assert found


def view_of(players=3, seed=2):
    s = next(positions("cubirds", players, seed=seed))
    return s, json.loads(s.view((s.player + 1) % players))


@pytest.mark.parametrize("change, says", [
    (lambda d: d.__setitem__("deck", d["deck"] + 1), "unknown hand cards and"),
    (lambda d: d.__setitem__("deck", "FFO"), "the number of cards in the draw pile"),
    (lambda d: d.pop("unseen"), "a view needs 'unseen'"),
    (lambda d: d["hands"].__setitem__(d["observer"], d["hands"][d["observer"]] + "?"), "ends in '?'"),
    (lambda d: d.__setitem__("observer", 9), "'observer' must be 0..2"),
    (lambda d: d.__setitem__("unseen", "X" + d["unseen"]), "not a species letter"),
])
def test_a_bad_view_is_one_position_error(change, says):
    s, d = view_of()
    change(d)
    with pytest.raises(PositionError, match=says):
        CUBIRDS.parse(json.dumps(d))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_leaves_view_parses_back_to_itself(players):
    leaves = get_game("leaves")
    checked = 0
    for s in positions("leaves", players, seed=players, every=3):
        view = s.view((s.player + 1) % players)
        # the bag is hidden exactly where tiles were removed unseen (2 and 3 players)
        assert ("bag=?" in view) == (players < 4) and (players < 4 or view == s.text())
        parsed = leaves.parse(view)
        assert parsed.view(0) == view and parsed.legal() == s.legal()
        assert leaves.parse(s.determinized(s.player, 5).view(1)).text() == parsed.text()
        checked += 1
    assert checked > 5
    with pytest.raises(Exception, match="observer must be a seat"):
        s.view(players)


def test_what_the_arena_sends_a_seat_parses_on_every_hidden_information_game():
    from roost.protocol.views import seat_texts
    for game, players in (("cubirds", 2), ("cubirds", 4), ("leaves", 2), ("leaves", 3)):
        for s in positions(game, players, seed=11, every=9):
            position, world = seat_texts(s, s.player, 3)
            assert get_game(game).parse(position).view(s.player) == position
            assert get_game(game).parse(world).view(s.player) == position
