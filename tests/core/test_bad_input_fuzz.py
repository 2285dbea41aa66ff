"""Bad input never escapes as anything but a RoostError with a message: position texts
mutated at random (characters replaced, dropped, inserted) either parse to a position that
round-trips, or are rejected with PositionError; garbage move names get MoveError."""
import random
import re

import pytest

from roost.core.errors import MoveError, PositionError
from roost.core.games import registered_games

ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789/.:~*@()-,;={}[]\" SNRBFOTDPMWY"


def mutate(text, rnd):
    t = list(text)
    for _ in range(rnd.randint(1, 4)):
        op = rnd.random()
        i = rnd.randrange(len(t)) if t else 0
        if op < 0.4 and t:
            t[i] = rnd.choice(ALPHABET)
        elif op < 0.7 and t:
            del t[i]
        else:
            t.insert(i, rnd.choice(ALPHABET))
    return "".join(t)


@pytest.mark.parametrize("game", registered_games(), ids=lambda g: g.name)
def test_mutated_position_texts(game):
    rnd = random.Random(7)
    rejected = 0
    for _ in range(600):
        text = mutate(rnd.choice(game.examples), rnd)
        try:
            s = game.parse(text)
        except PositionError as e:
            assert str(e)
            rejected += 1
            continue
        assert game.parse(s.text()).text() == s.text()
        s.legal()
    assert rejected > 100


@pytest.mark.parametrize("game", registered_games(), ids=lambda g: g.name)
def test_garbage_move_names(game):
    rnd = random.Random(8)
    s = game.parse(game.examples[0])
    legal_names = set(s.legal_names())
    for _ in range(300):
        name = "".join(rnd.choice(ALPHABET) for _ in range(rnd.randint(0, 12)))
        try:
            m = s.parse_move(name)
        except MoveError as e:
            assert str(e)
            continue
        if s.move_name(m) in legal_names:
            s.copy().play_move(m)
        else:
            with pytest.raises(MoveError):
                s.copy().play_move(m)


# ---------------------------------------------------------------------------- the API
# Values that are not moves: parse_move(None) must not read None as a string, nor play_move(
# None / [] / b"e5" / nan) or move_name(junk) escape as TypeError, ValueError or OverflowError,
# nor play_move(1.5) or play_move(True) play move 1.  Anything but a RoostError naming it fails.
NOT_MOVES = [None, [], (), {}, b"e5", float("nan"), float("inf"), 1.5, 1.0, True, False,
             2 ** 70, -(2 ** 70), 2 ** 31, -1, object(), "1", "", "   ", "\x00", "\u0663",
             "W@\u00b2"]
NOT_TEXTS = [None, 5, 1.5, b"5/6/7", [], {}, object(), True]


def _positions(game):
    """The game's example positions, and a chance node if random play meets one early."""
    out = [game.parse(t) for t in game.examples]
    s = game.start(seed=3)
    for _ in range(40):
        if s.is_over:
            break
        if s.is_chance:
            out.append(s.copy())
            break
        s.play_unchecked(s.legal()[0])
    return out


def _only(errors, fn, *args):
    """fn(*args), or None when it raises one of ``errors`` with a message; any other
    exception fails the test."""
    try:
        return fn(*args)
    except errors as e:
        assert str(e), f"{type(e).__name__} without a message"
        return None


@pytest.mark.parametrize("game", registered_games(), ids=lambda g: g.name)
def test_parse_refuses_what_is_not_text(game):
    for junk in NOT_TEXTS:
        with pytest.raises(PositionError):
            game.parse(junk)


@pytest.mark.parametrize("game", registered_games(), ids=lambda g: g.name)
def test_the_move_api_refuses_what_is_not_a_move(game):
    for s in _positions(game):
        before = (s.text(), s.hash)
        for junk in NOT_MOVES:
            if not isinstance(junk, str):
                with pytest.raises(MoveError):
                    s.parse_move(junk)
            else:
                _only(MoveError, s.parse_move, junk)
            if not isinstance(junk, int) or isinstance(junk, bool) or not 0 <= junk < 2 ** 31:
                with pytest.raises(MoveError):
                    s.move_name(junk)
            c = s.copy()
            if isinstance(junk, int) and not isinstance(junk, bool) and junk in s.legal():
                continue
            if isinstance(junk, str) and _only(MoveError, s.parse_move, junk) in s.legal():
                continue
            with pytest.raises(MoveError):
                c.play_move(junk)
            assert (c.text(), c.hash) == before, f"play_move({junk!r}) changed the position"
        assert (s.text(), s.hash) == before


def _random_value(rnd):
    kind = rnd.randrange(7)
    if kind == 0:
        return rnd.choice([-1, 1]) * rnd.getrandbits(rnd.randint(1, 80))
    if kind == 1:
        return rnd.uniform(-1e6, 1e6)
    if kind == 2:
        return "".join(chr(rnd.randrange(32, 0x2FF)) for _ in range(rnd.randint(0, 10)))
    if kind == 3:
        return bytes(rnd.getrandbits(8) for _ in range(rnd.randint(0, 6)))
    if kind == 4:
        return rnd.choice([None, True, False, [], (), {}, float("nan"), float("-inf")])
    if kind == 5:
        return rnd.randrange(0, 1 << 17)           # the range of every game's move ids
    return "".join(rnd.choice(ALPHABET) for _ in range(rnd.randint(0, 12)))


@pytest.mark.parametrize("game", registered_games(), ids=lambda g: g.name)
def test_random_values_through_the_move_api(game):
    rnd = random.Random(9)
    for s in _positions(game):
        legal = set(s.legal())
        for _ in range(400):
            v = _random_value(rnd)
            m = _only(MoveError, s.parse_move, v)
            assert m is None or isinstance(m, int)
            name = _only(MoveError, s.move_name, v)
            assert name is None or isinstance(name, str)
            c = s.copy()
            played = _only(MoveError, c.play_move, v)
            if played is not None:
                as_id = s.parse_move(v) if isinstance(v, str) else v
                assert not isinstance(v, (bool, float)) and as_id in legal


def _big_numbers(text, rnd):
    """text with a run of digits replaced by a huge number or a non-ASCII digit."""
    runs = [(m.start(), m.end()) for m in re.finditer(r"[0-9]+", text)]
    if not runs:
        return text
    a, b = rnd.choice(runs)
    return text[:a] + rnd.choice(["99999999999999999999", "2147483648", "4294967296",
                                  "\u0663", "\u00b2", "-1", "1e9", "0x10"]) + text[b:]


@pytest.mark.parametrize("game", registered_games(), ids=lambda g: g.name)
def test_out_of_range_numbers_in_position_texts(game):
    # every value is range-checked where it enters: a number too large for the
    # native fields is a PositionError, never an OverflowError or a silently wrapped value.
    rnd = random.Random(10)
    for _ in range(300):
        text = _big_numbers(rnd.choice(game.examples), rnd)
        s = _only(PositionError, game.parse, text)
        if s is not None:
            assert game.parse(s.text()).text() == s.text()
