"""Generic tests of the native contract, run over every registered game and every player
count it supports (OpenSpiel-style): random games end, copies are independent, keys agree
for equal positions, position text round-trips, every legal move plays and names itself."""
import random

import pytest

from roost.core.games import registered_games as all_games


def _configs():
    for g in all_games():
        for n in sorted({g.min_players, g.default_players, g.max_players}):
            yield pytest.param(g, n, id=f"{g.name}-{n}p")


CONFIGS = list(_configs())


def _random_step(state, rnd):
    if state.is_chance:
        state.play_unchecked(state.sample(rnd.getrandbits(63)))
    else:
        state.play_unchecked(rnd.choice(state.legal()))


@pytest.mark.parametrize("game,players", CONFIGS)
def test_random_games_end_with_valid_results(game, players):
    rnd = random.Random(1)
    for g in range(5):
        s = game.start(players=players, seed=g)
        plies = 0
        while not s.is_over:
            _random_step(s, rnd)
            plies += 1
            assert plies < 100000, "a random game did not end"
        r = s.result()
        assert len(r) == players
        assert all(0.0 <= x <= 1.0 for x in r)
        if players > 1:      # shares of a victory; alone, the utility is the capped score (wingspan.md §5.3)
            assert abs(sum(r) - 1.0) < 1e-9
        assert s.legal() == []


@pytest.mark.parametrize("game,players", CONFIGS)
def test_text_round_trip_and_keys_along_random_games(game, players):
    rnd = random.Random(2)
    for g in range(3):
        s = game.start(players=players, seed=100 + g)
        while not s.is_over:
            t = s.text()
            again = game.parse(t)
            assert again.text() == t
            assert again.hash == s.hash, "equal positions must have equal keys"
            assert again.player == s.player
            assert again.legal() == s.legal()
            _random_step(s, rnd)


@pytest.mark.parametrize("game,players", CONFIGS)
def test_copies_are_independent(game, players):
    rnd = random.Random(3)
    s = game.start(players=players, seed=7)
    for _ in range(6):
        if s.is_over:
            break
        c = s.copy()
        before = (s.text(), s.hash)
        steps = 0
        while not c.is_over and steps < 5:
            _random_step(c, rnd)
            steps += 1
        assert (s.text(), s.hash) == before, "playing on a copy changed the original"
        _random_step(s, rnd)


@pytest.mark.parametrize("game,players", CONFIGS)
def test_every_legal_move_plays_and_names_round_trip(game, players):
    rnd = random.Random(4)
    s = game.start(players=players, seed=11)
    for _ in range(30):
        if s.is_over:
            break
        if s.is_chance:
            outs = s.chances()
            assert abs(sum(p for _, p in outs) - 1.0) < 1e-9
            assert all(p > 0 for _, p in outs)
            assert len({o for o, _ in outs}) == len(outs)
        else:
            moves = s.legal()
            assert moves, "a live decision node must have a legal move"
            assert len(set(moves)) == len(moves)
            for m in moves:
                assert s.parse_move(s.move_name(m)) == m
                c = s.copy()
                c.play_move(m)
        _random_step(s, rnd)


@pytest.mark.parametrize("game,players", CONFIGS)
def test_native_playout_is_deterministic_and_ends(game, players):
    a = game.start(players=players, seed=5)
    b = game.start(players=players, seed=5)
    a.random_playout(seed=42)
    b.random_playout(seed=42)
    assert a.is_over and b.is_over
    assert a.text() == b.text()
    assert a.result() == b.result()


@pytest.mark.parametrize("game,players", CONFIGS)
def test_evaluate_is_a_probability(game, players):
    rnd = random.Random(6)
    s = game.start(players=players, seed=3)
    while not s.is_over:
        if not s.is_chance:
            for p in range(players):
                assert 0.0 <= s.evaluate_for(p) <= 1.0
        _random_step(s, rnd)


@pytest.mark.parametrize("game", [g for g in all_games()], ids=lambda g: g.name)
def test_examples_parse_and_round_trip(game):
    for text in game.examples:
        s = game.parse(text)
        assert game.parse(s.text()).text() == s.text()
