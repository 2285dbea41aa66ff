"""Wingspan audit findings: move ids, duplicate keys and impossible frame stacks.

Each test cites the section of docs/rules/wingspan.md it checks.
"""
import json

import pytest

from roost.core.errors import MoveError, PositionError
from roost.core.wingspan import Wingspan, jsonform

from tests.core.wingspan.test_wingspan_rules import bird, make, play, pow_at


def _text_of(s):
    return jsonform.to_dict(s)


def _reparse(d):
    return Wingspan.parse(json.dumps(d))


def test_move_ids_as_digits_are_ascii_only():
    # rules: §7.2 (global ids 0..247); a move given by a name that is not an id is a MoveError
    s = Wingspan.start(players=2, seed=1)
    assert s.parse_move("1") == 1 and s.parse_move(" 247 ") == 247
    for name in ("\u00b2", "\u00b9\u00b2", "\u0663", "248", "-1", "1.0", "card:", "card:nobird", "slot:F6"):
        with pytest.raises(MoveError):
            s.parse_move(name)


def test_a_key_named_twice_is_a_position_error():
    # rules: §8 (one JSON object, keys in order): a key given twice is ambiguous
    t = jsonform.to_text(Wingspan.start(players=2, seed=1))
    bad = t.replace('"v":1,', '"v":1,"v":1,', 1)
    with pytest.raises(PositionError, match="twice"):
        Wingspan.parse(bad)
    bad = t.replace('"food":[1,1,1,1,1]', '"food":[1,1,1,1,1],"food":[1,1,1,1,1]', 1)
    with pytest.raises(PositionError, match="twice"):
        Wingspan.parse(bad)


def test_stacks_that_no_game_holds_are_rejected():
    # rules: §8 frames: a turn's stack is TURN, then ACT | MAT | PLAY | ROW [POW] |
    # ROW PINK [POW] | [white POW] [PINK [POW]] (§3.3, §3.9, §4).  A PLAY frame twice (the
    # mutation the fuzzing found: the engine played the same card twice) and a brown power
    # that is not on the row activating it are rejected.
    s = make(hands=[["Mallard", "Osprey"], []], food=[[1, 1, 1, 1, 1], [0] * 5])
    play(s, "play")
    assert s.purpose == "PLAY_CARD"
    d = _text_of(s)
    d["stack"].append(json.loads(json.dumps(d["stack"][-1])))
    with pytest.raises(PositionError, match="stack"):
        _reparse(d)
    mats = [[[bird("Blue Jay"), bird("Acorn Woodpecker")], [], []], [[], [], []]]
    s = make(mats=mats, feeder=[1, 1, 2], stack=pow_at(0, 0, "Blue Jay", row=(0, -1)))
    assert s.purpose == "TAKE_DIE"
    d = _text_of(s)
    d["stack"][1]["col"] = 0           # the ROW has visited column 1 only: Blue Jay (column 0) is next
    with pytest.raises(PositionError, match="stack"):
        _reparse(d)
    d = _text_of(s)
    del d["stack"][1]                  # a brown power with no row activating it
    with pytest.raises(PositionError, match="stack"):
        _reparse(d)
