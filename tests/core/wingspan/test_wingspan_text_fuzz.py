"""A Wingspan position text from outside (docs/rules/wingspan-text.md): whatever is wrong
with it (a wrong type, a huge number, a name that is no card, a missing, unknown or
twice-named key, a move that is not legal, a chance outcome that cannot be) only
PositionError escapes, with a message; a text that is accepted is a position whose own text
reads back to itself."""
import json
import random

import pytest

from roost.core.errors import PositionError
from roost.core.wingspan import Wingspan, example_positions

BAD_VALUES = ("x", "", "?", [], ["?"], [1], None, {}, {"bird": "Blue Jay"}, True, False, 1.5, -1, 0,
              2 ** 31, 2 ** 63, 10 ** 40, float("inf"), "Blue Jay", "blue jay", "Blue Jay (shown)",
              "Blue Jay (deck 7)", "Anatomist", "rolled: seed", "drew: Mallard", "card:mallard",
              "seed", "fish", {"seed": -1}, {"seeds": 2}, "invertebrate or seed", "setup", "over")


def _positions():
    """Texts of every shape: starts (setup), mid-game turn starts, the middle of turns (every
    kind of decision a random game reaches), a finished game, and seats' views."""
    out = list(example_positions())
    seen = set()
    for seed in range(6):
        rnd = random.Random(seed)
        s = Wingspan.start(players=1 + seed % 5, seed=seed)
        while not s.is_over:
            if s.purpose not in seen or rnd.random() < 0.01:
                seen.add(s.purpose)
                out.append(s.text())
                out.append(s.view(rnd.randrange(s.players)))
            s.play_unchecked(rnd.choice(s.legal()))
        out.append(s.text())
    return out


POSITIONS = _positions()


def _paths(obj, path=()):
    yield path
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, path + (i,))


def _at(d, path):
    for k in path:
        d = d[k]
    return d


def _parses_cleanly(text):
    """Parse: either PositionError with a message, or a position whose text reads back."""
    try:
        s = Wingspan.parse(text)
    except PositionError as e:
        assert str(e) and "Traceback" not in str(e)
        return False
    again = Wingspan.parse(s.text())
    assert again.text() == s.text() and again.hash == s.hash
    again.legal()
    return True


def test_every_shape_reads_back():
    assert len(POSITIONS) > 40
    for t in POSITIONS:
        typed = "seed" not in json.loads(t)              # a view, or a table as a player types it
        assert typed or Wingspan.parse(t).text() == t
        assert _parses_cleanly(t)


def _mutated(d, rnd):
    """One random change to the JSON tree ``d`` (in place); the text, or None when the
    change is a key named twice (written into the text)."""
    paths = list(_paths(d))[1:]
    path = rnd.choice(paths)
    parent, key = _at(d, path[:-1]), path[-1]
    op = rnd.random()
    if op < 0.5:
        parent[key] = rnd.choice(BAD_VALUES + (rnd.randint(-3, 300),))
    elif op < 0.62 and isinstance(parent, dict):
        del parent[key]
    elif op < 0.74 and isinstance(parent, list):
        parent.insert(rnd.randrange(len(parent) + 1), rnd.choice(BAD_VALUES))
    elif op < 0.8 and isinstance(parent, list) and len(parent) > 1:
        del parent[rnd.randrange(len(parent))]
    elif op < 0.88 and isinstance(parent, dict):
        parent["x" + str(key)] = 0
    elif op < 0.94 and isinstance(parent[key], str) and len(parent[key]) > 2:
        word = parent[key]
        i = rnd.randrange(len(word))
        parent[key] = word[:i] + rnd.choice("aeiouxz- ") + word[i + 1:]      # a typo
    else:
        parent = parent if isinstance(parent, dict) else d
        k = rnd.choice(list(parent))
        one = json.dumps(parent, separators=(",", ":"))
        twice = one[:-1] + ("," if len(parent) else "") + json.dumps(k) + ":" + json.dumps(parent[k]) + "}"
        return json.dumps(d, separators=(",", ":")).replace(one, twice, 1)
    return json.dumps(d, separators=(",", ":"))


@pytest.mark.parametrize("seed", range(4))
def test_random_mutations_only_raise_position_errors(seed):
    rnd = random.Random(100 + seed)
    rejected = accepted = 0
    for _ in range(250):
        text = _mutated(json.loads(rnd.choice(POSITIONS)), rnd)
        if _parses_cleanly(text):
            accepted += 1
        else:
            rejected += 1
    assert rejected > 150 and accepted > 3


def test_texts_that_are_not_json_objects_are_refused():
    for text in ("", "{", "[]", "7", '"wingspan"', '{"game": "wingspan"}', "{" * 5000 + "}" * 5000,
                 '{"game": "chess"}', "no/such/file.json", None, 3):
        with pytest.raises(PositionError):
            Wingspan.parse(text)
