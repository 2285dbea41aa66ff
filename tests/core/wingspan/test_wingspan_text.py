"""Wingspan position text in the game's own terms (docs/rules/wingspan-text.md): the table
by name, a turn's middle as its start and the moves since (replayed natively), what a
player cannot know left out, and the JSON form of earlier versions still read."""
import json
import pathlib
import pickle
import random
import re

import pytest

from roost.core.errors import PositionError
from roost.core.wingspan import Wingspan, jsonform

DOC = pathlib.Path(__file__).resolve().parents[3] / "docs" / "rules" / "wingspan-text.md"


def random_game(players, seed):
    """Every position of one seeded random game, the end included."""
    rnd = random.Random(seed)
    s = Wingspan.start(players=players, seed=seed)
    out = [s.copy()]
    while not s.is_over:
        s.play_unchecked(rnd.choice(s.legal()))
        out.append(s.copy())
    return out


@pytest.mark.parametrize("players, seed", [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5)])
def test_the_text_reads_back_to_itself_at_every_ply(players, seed):
    middles = 0
    for s in random_game(players, seed):
        t = s.text()
        r = Wingspan.parse(t)
        assert r.text() == t and r.hash == s.hash and r.legal() == s.legal() and r.is_over == s.is_over
        middles += "moves" in json.loads(t)
    assert s.is_over and json.loads(t)["turn"] == "over" and middles > 20


@pytest.mark.parametrize("players, seed", [(2, 12), (4, 14)])
def test_the_json_form_and_the_text_of_a_position_are_one_position(players, seed):
    for s in random_game(players, seed):
        old, new = Wingspan.parse(jsonform.to_text(s)), Wingspan.parse(s.text())
        assert old.hash == new.hash == s.hash and old.legal() == new.legal() == s.legal()
        assert jsonform.to_text(old) == jsonform.to_text(new) == jsonform.to_text(s)


def test_a_turn_start_is_its_table_and_a_turn_middle_its_start_and_moves():
    for s in random_game(3, 7):
        d = json.loads(s.text())
        if s.is_over:
            assert d["turn"] == "over" and "moves" not in d
        elif s.purpose == "TURN_ACTION":
            assert d["turn"] == s.turn_player and "moves" not in d
        elif s.phase == "setup":
            assert d["turn"] == "setup" and (d.get("moves") or s.player == 0)
        else:
            assert d["moves"] and d["turn"] == s.turn_player
        assert "stack" not in d and all(isinstance(x, str) for x in d["tray"] if x is not None)


def test_pickles_and_copies_keep_the_turn():
    s = random_game(2, 3)[70]
    assert "moves" in json.loads(s.text())
    for t in (pickle.loads(pickle.dumps(s)), s.copy(), type(s)._load(s._raw())):
        assert t.text() == s.text() and t.hash == s.hash


def _doc_examples():
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)```", DOC.read_text(), re.S)]


def test_the_examples_of_the_docs_read_as_they_say():
    from roost.core.wingspan import TYPED_TABLE
    table, middle, view, setup = _doc_examples()
    assert json.loads(TYPED_TABLE) == table                       # the registry's example
    s = Wingspan.parse(json.dumps(table))
    assert (s.player, s.purpose, s.round, s.legal_names()) == (1, "TURN_ACTION", 2, ["play", "food", "eggs", "cards"])
    again = Wingspan.parse(json.dumps(table))                     # the deck and the seed left out:
    assert again.text() == s.text()                               # the same text, the same position
    m = Wingspan.parse(json.dumps(middle))
    assert (m.player, m.purpose, m.legal_names()) == (1, "TAKE_DIE", ["die:S", "die:skip"])
    assert "Acorn Woodpecker" in m.question()
    assert jsonform.to_dict(m)["feeder"] == [0, 0, 1, 3, 4]          # the roll told
    assert m.view(0) == json.dumps(view, separators=(",", ":"))
    v = Wingspan.parse(json.dumps(view))
    assert v.view(0) == m.view(0) and v.purpose == "TAKE_DIE"
    u = Wingspan.parse(json.dumps(setup))
    assert (u.phase, u.player, u.purpose) == ("setup", 0, "SETUP_KEEP_BIRD")
    assert jsonform.to_dict(u)["players"][0]["setup"]["keep"] == sorted(jsonform.to_dict(u)["players"][0]["setup"]["keep"])


def _table():
    return _doc_examples()[0]


def test_names_are_matched_forgivingly():
    d = _table()
    base = Wingspan.parse(json.dumps(d)).text()
    d["tray"] = ["bald eagle", "CANADA-GOOSE", "House  Wren"]
    d["goals"][3] = "Bowl Birds With An Egg"
    d["seats"][0]["hand"][0] = "american robin"
    d["seats"][1]["food"] = {"I": 2, "rodents": 1}
    d["goal_scores"] = d.pop("goal scores")
    assert Wingspan.parse(json.dumps(d)).text() == base


def test_a_text_that_leaves_out_the_deck_deals_it_from_its_seed():
    d = _table()
    one = Wingspan.parse(json.dumps(dict(d, seed="0000000000000001")))
    two = Wingspan.parse(json.dumps(dict(d, seed="0000000000000002")))
    assert json.loads(one.text())["seed"] == "0000000000000001"
    assert json.loads(one.text())["deck"] != json.loads(two.text())["deck"]
    # the unseen cards of the other seat are dealt from the birds the text names nowhere
    hand = json.loads(one.text())["seats"][1]["hand"]
    assert len(hand) == 4 and "Great Blue Heron (shown)" in hand and "?" not in hand
    full = json.loads(one.text())
    assert Wingspan.parse(json.dumps(full)).text() == one.text()    # named in full: the same


def test_told_chance_decides_the_replayed_moves_chance():
    d = _doc_examples()[1]
    d["moves"][-1] = "rolled: fish, fish, fish, fish, fish"
    s = Wingspan.parse(json.dumps(d))                     # no seed die: roll again, or none
    assert jsonform.to_dict(s)["feeder"] == [2, 2, 2, 2, 2] and s.legal_names() == ["reroll", "die:skip"]
    d["moves"] = d["moves"][:3]                                    # not told: drawn from the seed
    assert jsonform.to_dict(Wingspan.parse(json.dumps(d)))["feeder"] != [0, 0, 1, 3, 4]


@pytest.mark.parametrize("change, says", [
    (lambda d: d["seats"][1].__setitem__("cubes", 7), r"the cubes \[6, 7\] do not fit round 2 with seat 1 to play"),
    (lambda d: d["seats"][0]["forest"].append("Mallard"), r"seats\[0\].forest\[1\]: Mallard does not live in the forest"),
    (lambda d: d["seats"][0]["forest"][0].__setitem__("eggs", 9), r"seats\[0\].forest\[0\].eggs \(Mourning Dove holds at most 5\)"),
    (lambda d: d["tray"].__setitem__(0, "Mallard"), r"Mallard is in two places: tray\[0\] and seats\[0\].hand\[1\]"),
    (lambda d: d["goals"].__setitem__(1, "eggs in forest"), r"goals\[1\] 'eggs in forest' is the other side of the tile of goals\[0\]"),
    (lambda d: d.__setitem__("goal scores", []), r"'goal scores' must hold the 1 round\(s\) scored so far"),
    (lambda d: d.__setitem__("colour", "green"), r"the position has an unknown key 'colour'"),
    (lambda d: d.pop("tray"), r"the position misses the key 'tray'"),
    (lambda d: d["seats"][0]["hand"].__setitem__(1, "Malard"), r"'Malard' is not a bird of the core set \(nearest: Mallard"),
    (lambda d: d.__setitem__("moves", ["eggs", "slot:F1", "slot:G1"]), r"moves\[2\] 'slot:G1': not legal here \(seat 1 decides"),
    (lambda d: d.__setitem__("moves", ["eggs", "fly away"]), r"moves\[1\] 'fly away': 'fly away' is not a Wingspan move .* \(seat 1 decides .*; legal here: "),
    (lambda d: d.__setitem__("moves", ["rolled: seed, seed, seed, seed, seed", "food"]), r"moves\[0\]: .* comes before any move"),
    (lambda d: d.__setitem__("moves", ["eggs", "rolled: seed, seed, seed, seed, seed"]), r"moves\[1\]: a chance outcome told after moves\[0\]"),
    (lambda d: d.__setitem__("moves", ["food", "?"]), r"a hidden move \('\?'\) is for a seat's view"),
    (lambda d: d.__setitem__("seed", "xyz"), r"'seed' must be 16 hexadecimal digits"),
    (lambda d: d["seats"][1]["hand"].append("?"), r"unseen bird places|named nowhere"),
    (lambda d: d.__setitem__("turn", 2), r"'turn' must be the seat to play \(0..1\)"),
])
def test_a_table_that_breaks_the_rules_is_one_position_error(change, says):
    d = _table()
    if "hand" in says or "named nowhere" in says:
        d["deck"] = []                       # every bird named: one '?' more has no card
        d["deck"] = json.loads(Wingspan.parse(json.dumps(_table())).text())["deck"]
        d["seats"][1]["hand"] = json.loads(Wingspan.parse(json.dumps(_table())).text())["seats"][1]["hand"]
        d["bonus discard"] = json.loads(Wingspan.parse(json.dumps(_table())).text())["bonus discard"]
    change(d)
    with pytest.raises(PositionError, match=says):
        Wingspan.parse(json.dumps(d))


def test_a_position_read_in_the_json_form_mid_turn_keeps_that_form_until_its_turn_ends():
    s = next(s for s in random_game(2, 5)[60:] if s.purpose not in ("TURN_ACTION", None))
    old = Wingspan.parse(jsonform.to_text(s))
    assert old.text() == jsonform.to_text(s)                       # its turn's start is not known
    while old.purpose != "TURN_ACTION":
        old.play_unchecked(old.legal()[0])
    assert json.loads(old.text())["game"] == "wingspan"          # from the next turn on: the text
    old.play_unchecked(old.legal()[0])
    assert Wingspan.parse(old.text()).hash == old.hash


def test_a_drawn_world_is_written_as_text_with_its_own_seed():
    for s in random_game(3, 9)[::25]:
        if s.is_over:
            continue
        w = s.determinized((s.player + 1) % 3, 4)
        d = json.loads(w.text())
        assert d["game"] == "wingspan" and d["seed"] != json.loads(s.text())["seed"]
        r = Wingspan.parse(w.text())
        assert r.text() == w.text() and r.hash == w.hash and r.legal() == w.legal()
