"""The time manager (src/search/timeman.py) against its documented formula (docs/protocol.md:
``(clock - 0.05 s) / moves left + 0.8 x inc``, at most half of what is left, moves left at
least 4), with the numbers written out here rather than read from the module, and its table of
typical game lengths against a fresh measurement made the way its comment says."""
import dataclasses
import random

import pytest

from roost.core.games import all_games, get_game
from roost.search.timeman import TYPICAL_DECISIONS, Clock, TimeManager


def decisions_per_seat(game, players, seeds=range(20)):
    """The mean number of decisions (turns with more than one legal move) a seat makes in
    uniformly random games, game ``s`` dealt and played with seed ``s``."""
    total = 0
    for s in seeds:
        state = game.start(players=players, seed=s)
        rnd = random.Random(s)
        while not state.is_over:
            if state.is_chance:
                state.play_move(state.sample(rnd.getrandbits(63)))
                continue
            legal = state.legal()
            total += len(legal) > 1
            state.play_move(rnd.choice(legal))
    return total / (len(seeds) * players)


def test_the_typical_lengths_are_twenty_seeded_random_games_each():
    # the table is data: re-measured here (seeds 0 to 19), each entry the rounded mean, so a
    # changed entry, or a rule change that makes games longer or shorter, shows up
    for g in all_games():
        entry = TYPICAL_DECISIONS[g.name]
        if isinstance(entry, dict):
            assert sorted(entry) == list(range(g.min_players, g.max_players + 1))
            for players, n in entry.items():
                assert round(decisions_per_seat(g, players)) == n, (g.name, players)
        else:
            assert round(decisions_per_seat(g, g.default_players)) == entry, g.name


def test_the_documented_formula_with_its_numbers():
    ducks = get_game("ducks").start()              # 39 decisions a seat, more than one legal move
    assert ducks.players == 2 and len(ducks.legal()) > 1
    assert TimeManager("ducks").allocate(Clock(39.05, 0.0), ducks) == pytest.approx(1.0)
    assert TimeManager("ducks").allocate(Clock(39.05, 2.0), ducks) == pytest.approx(1.0 + 1.6)
    # a negative increment (a clock that loses time) is not spent
    assert TimeManager("ducks").allocate(Clock(39.05, -2.0), ducks) == pytest.approx(1.0)
    # at most half of what is left after the reserve; at least a millisecond
    assert TimeManager("ducks").allocate(Clock(1.05, 30.0), ducks) == pytest.approx(0.5)
    assert TimeManager("ducks").allocate(Clock(0.0505, 0.0), ducks) == pytest.approx(0.001)
    assert TimeManager("ducks").allocate(Clock(0.05, 3.0), ducks) == pytest.approx(0.001)
    assert TimeManager("ducks").allocate(Clock(-1.0, 3.0), ducks) == pytest.approx(0.001)
    # an unknown game: 40 decisions; an explicit count wins over the table
    assert TimeManager("nogame").allocate(Clock(40.05), ducks) == pytest.approx(1.0)
    assert TimeManager("ducks", decisions=20).allocate(Clock(20.05), ducks) == pytest.approx(1.0)
    # a player count the table does not list: the mean of the listed ones (59.5, rounded to even)
    assert TimeManager("cubirds", 7).expected == 60 and TimeManager("cubirds", 3).expected == 62


def test_a_clock_without_increment_gains_nothing_and_cannot_be_changed():
    assert Clock(10.0) == Clock(10.0, 0.0)
    ducks = get_game("ducks").start()
    assert TimeManager("ducks").allocate(Clock(39.05), ducks) == pytest.approx(1.0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        Clock(10.0).remaining = 5.0
    assert len({Clock(1.0, 0.5), Clock(1.0, 0.5)}) == 1


def test_each_decision_made_shortens_the_horizon_and_a_new_game_restores_it():
    ducks = get_game("ducks").start()
    tm = TimeManager("ducks")
    shares = [tm.allocate(Clock(39.05 - k, 0.0), ducks) for k in range(3)]
    assert shares == pytest.approx([39.0 / 39, 38.0 / 38, 37.0 / 37]) and tm.made == 3
    for _ in range(40):
        tm.allocate(Clock(100.0), ducks)
    assert tm.moves_left() == 4                    # never fewer than 4 moves left
    assert tm.allocate(Clock(4.05), ducks) == pytest.approx(1.0)
    tm.new_game()
    assert tm.made == 0 and tm.allocate(Clock(39.05), ducks) == pytest.approx(1.0)


def test_without_a_position_every_move_is_a_decision():
    tm = TimeManager("ducks")
    assert tm.allocate(Clock(39.05)) == pytest.approx(1.0) and tm.made == 1
