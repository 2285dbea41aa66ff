"""The JSON form of a Wingspan position (docs/rules/wingspan.md §8, still read for files and
databases written in it) from outside: every value is checked where it enters, and
whatever is wrong with the JSON (a wrong type, a huge integer, a missing, unknown or
twice-named key) only PositionError escapes, with a message naming the fault."""
import json
import random

import pytest

from roost.core.errors import PositionError
from roost.core.wingspan import Wingspan, example_positions, jsonform

BAD_VALUES = ("x", "", [], [1], [[0, 1]], None, {}, {"f": "TURN"}, True, False, 1.5, -1, 2 ** 31,
              -2 ** 31 - 1, 2 ** 63, 2 ** 64 + 1, 10 ** 40, float("inf"))


def _walk_to_stack_shapes():
    """Positions whose stacks hold PLAY, MAT, ROW, POW and PINK frames, from seeded games."""
    found = {}
    for seed in range(12):
        rnd = random.Random(seed)
        s = Wingspan.start(players=2 + seed % 3, seed=seed)
        while not s.is_over:
            shape = tuple(f["f"] for f in jsonform.to_dict(s)["stack"])
            found.setdefault(shape, jsonform.to_text(s))
            s.play_unchecked(rnd.choice(s.legal()))
    return list(found.values())


def _setup_with_buffers():
    s = Wingspan.start(players=3, seed=5)
    for name in ("yes", "no", "yes", "no", "no"):
        s.play_move(name)
    return jsonform.to_text(s)


POSITIONS = ([jsonform.to_text(Wingspan.parse(t)) for t in example_positions()] + [_setup_with_buffers()]
             + _walk_to_stack_shapes())


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
        assert str(e)
        return False
    assert jsonform.to_text(Wingspan.parse(jsonform.to_text(s))) == jsonform.to_text(s)
    s.legal()
    return True


@pytest.mark.parametrize("field", ["deck", "discard", "tray", "bonus_deck", "players.0.setup.keep",
                                   "stack.0.f", "stack.-1.f", "players.1.food", "feeder", "draft"])
def test_a_wrong_value_in_a_list_names_its_field(field):
    # rules: §8; the fields of the audit: deck, discard, tray, bonus_deck, setup.keep, stack[].f
    path = tuple(int(k) if k.lstrip("-").isdigit() else k for k in field.split("."))
    base = next(json.loads(t) for t in POSITIONS if _has(json.loads(t), path))
    for bad in BAD_VALUES:
        d = json.loads(json.dumps(base))
        target = _at(d, path[:-1])
        if isinstance(target[path[-1]], list):
            if not target[path[-1]]:
                target[path[-1]].append(0)
            target[path[-1]][0] = bad
        else:
            target[path[-1]] = bad
        with pytest.raises(PositionError) as err:
            Wingspan.parse(json.dumps(d))
        if path[0] == "players":
            name = f"players[{path[1]}]." + ".".join(path[2:])
        else:
            name = "stack[" if path[0] == "stack" else path[0]
        assert name in str(err.value), (field, bad, str(err.value))


def _has(d, path):
    try:
        v = _at(d, path)
    except (KeyError, IndexError, TypeError):
        return False
    return not isinstance(v, list) or bool(v) or path[-1] == "draft"


def test_random_mutations_only_raise_position_errors():
    # rules: §8: a position is one JSON object of checked values; anything else is refused
    rnd = random.Random(11)
    rejected = accepted = 0
    for _ in range(700):
        d = json.loads(rnd.choice(POSITIONS))
        paths = list(_paths(d))[1:]
        path = rnd.choice(paths)
        parent, key = _at(d, path[:-1]), path[-1]
        op = rnd.random()
        if op < 0.55:
            parent[key] = rnd.choice(BAD_VALUES + (rnd.randint(-3, 300),))
        elif op < 0.7 and isinstance(parent, dict):
            del parent[key]
        elif op < 0.8 and isinstance(parent, list):
            parent.insert(rnd.randrange(len(parent) + 1), rnd.choice(BAD_VALUES + (0, 5, 169)))
        elif op < 0.9 and isinstance(parent, dict):
            parent["x" + str(key)] = 0
        else:
            parent = parent if isinstance(parent, dict) else d
            k = rnd.choice(list(parent))
            one = json.dumps(parent, separators=(",", ":"))
            twice = one[:-1] + ("," if len(parent) else "") + json.dumps(k) + ":" + json.dumps(parent[k]) + "}"
            text = json.dumps(d, separators=(",", ":")).replace(one, twice, 1)
            assert not _parses_cleanly(text)
            rejected += 1
            continue
        if _parses_cleanly(json.dumps(d, separators=(",", ":"))):
            accepted += 1
        else:
            rejected += 1
    assert rejected > 500


def test_every_example_still_parses():
    for t in POSITIONS:
        assert jsonform.to_text(Wingspan.parse(t)) == t


def test_random_mutations_of_views_only_raise_position_errors():
    # rules: §8 observer view: a seat's view parses too, and whatever is wrong with it only
    # PositionError escapes; a mutated view that is accepted is a view its position shows
    rnd = random.Random(12)
    views = [(jsonform.view(Wingspan.parse(t), o), o) for t in POSITIONS for o in range(json.loads(t)["n"])]
    rejected = accepted = 0
    for _ in range(500):
        view, o = rnd.choice(views)
        d = json.loads(view)
        path = rnd.choice(list(_paths(d))[1:])
        parent, key = _at(d, path[:-1]), path[-1]
        op = rnd.random()
        if op < 0.6:
            parent[key] = rnd.choice(BAD_VALUES + (rnd.randint(-3, 300),))
        elif op < 0.8 and isinstance(parent, dict):
            del parent[key]
        elif isinstance(parent, list):
            parent.insert(rnd.randrange(len(parent) + 1), rnd.choice(BAD_VALUES + (0, 5, 169)))
        text = json.dumps(d, separators=(",", ":"))
        try:
            s = Wingspan.parse(text)
        except PositionError as e:
            assert str(e)
            rejected += 1
            continue
        assert jsonform.view(s, d["observer"]) == text
        accepted += 1
    assert rejected > 400
