"""Bad input never escapes as anything but a RoostError with a message: position texts
mutated at random (characters replaced, dropped, inserted) either parse to a position that
round-trips, or are rejected with PositionError; garbage move names get MoveError."""
import random

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
