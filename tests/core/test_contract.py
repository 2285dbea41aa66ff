"""Generic tests of the native contract, run over every registered game and every player
count it supports (OpenSpiel-style): random games end, copies are independent, keys agree
for equal positions, position text round-trips, every legal move plays and names itself,
pickles and deep copies keep the whole state, the legality check agrees with the move list,
divide adds up to perft.  A new game that passes these is honest about the contract."""
import copy
import pickle
import random

import pytest

from roost.core.errors import MoveError
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


def _random_walk(game, players, seed, walk_seed, plies=60):
    """The positions of one seeded random game from the start, the first `plies` of them
    (fewer if it ends), with the walk's generator (for a chance outcome to try)."""
    rnd = random.Random(walk_seed)
    s = game.start(players=players, seed=seed)
    for _ in range(plies):
        if s.is_over:
            return
        yield s, rnd
        _random_step(s, rnd)


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
        # shares of a victory; alone, the utility is the capped score (docs/rules/wingspan.md §5.3)
        if players > 1:
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
def test_a_finished_game_round_trips_through_its_text_and_says_why_it_ended(game, players):
    # the final position of a game record is a position: parsed back (through the registry,
    # as a library caller does) it is the same finished game, with the same result and reason
    rnd = random.Random(3)
    for g in range(4):
        s = game.start(players=players, seed=200 + g)
        assert s.ending() is None
        while not s.is_over:
            _random_step(s, rnd)
            if not s.is_over:
                assert s.ending() is None
        ending = s.ending()
        assert set(ending) == {"reason", "detail"} and ending["reason"] and ending["detail"]
        again = game.parse(s.text())
        assert again.is_over and again.result() == s.result()
        assert again.text() == s.text() and again.ending() == ending
        assert again.legal() == []


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


def _continue(state, seed, plies):
    """Play ``plies`` random plies (chance sampled) from a copy; the texts, keys and the
    result seen on the way."""
    rnd = random.Random(seed)
    s = state.copy()
    seen = []
    for _ in range(plies):
        if s.is_over:
            break
        _random_step(s, rnd)
        seen.append((s.text(), s.hash))
    return seen, (s.result() if s.is_over else None)


@pytest.mark.parametrize("game,players", CONFIGS)
def test_pickle_and_deepcopy_keep_the_whole_state(game, players):
    # a pickle or a deep copy must be the same state, finished or not (a finished Feed the
    # Ducks game, or one drawn by repetition, must not come back live), and play on exactly
    # as the original does.
    rnd = random.Random(12)
    for g in range(2):
        s = game.start(players=players, seed=200 + g)
        step = 0
        while True:
            if step % 3 == 0 or s.is_over:
                for again in (pickle.loads(pickle.dumps(s)), copy.deepcopy(s)):
                    assert type(again) is type(s)
                    assert (again.text(), again.hash, again.is_over) == (s.text(), s.hash, s.is_over)
                    if s.is_over:
                        assert again.result() == s.result()
                    else:
                        assert again.player == s.player and again.legal() == s.legal()
                        assert _continue(again, step, 8) == _continue(s, step, 8)
            if s.is_over:
                break
            _random_step(s, rnd)
            step += 1


@pytest.mark.parametrize("game,players", CONFIGS)
def test_is_legal_agrees_with_the_legal_moves(game, players):
    # play_move checks legality natively (is_legal), without the Python list of legal()
    rnd = random.Random(13)
    s = game.start(players=players, seed=17)
    for _ in range(25):
        if s.is_over:
            break
        legal = s.legal()
        for m in legal:
            assert s.is_legal(m)
        near = {m + d for m in legal for d in (-1, 1)} | {rnd.randrange(1 << 17) for _ in range(50)}
        for m in sorted(near - set(legal))[:60]:
            assert not s.is_legal(m)
            before = (s.text(), s.hash)
            with pytest.raises(MoveError):
                s.copy().play_move(m)
            assert (s.text(), s.hash) == before
        _random_step(s, rnd)
    assert not s.is_legal(-1) and not s.is_legal(2 ** 40)


@pytest.mark.parametrize("game,players", CONFIGS)
def test_divide_adds_up_to_perft(game, players):
    rnd = random.Random(14)
    s = game.start(players=players, seed=21)
    checked = 0
    while not s.is_over and checked < 3:
        if not (s.is_chance and not s.perft_expands_chance) and rnd.random() < 0.3:
            assert sum(n for _, n in s.divide(2)) == s.perft(2)
            assert len(s.divide(1)) == (len(s.legal()) if not s.is_chance else len(s.chances()))
            checked += 1
        _random_step(s, rnd)


@pytest.mark.parametrize("game,players", [c for c in CONFIGS if hasattr(c.values[0].cls, "_raw")])
def test_the_native_loader_takes_back_what_it_gives(game, players):
    # a game package's bridge between the native state and its plain-Python text module:
    # _raw() gives every field as plain values, _load() builds the same position from them
    rnd = random.Random(15)
    s = game.start(players=players, seed=31)
    for _ in range(40):
        again = type(s)._load(s._raw())
        assert (again.text(), again.hash, again.is_over) == (s.text(), s.hash, s.is_over)
        assert again.legal() == s.legal()
        if s.is_over:
            break
        _random_step(s, rnd)


@pytest.mark.parametrize("game,players", CONFIGS)
def test_a_key_after_a_move_is_the_key_of_the_position_it_makes(game, players):
    # State.key_after: a game that gives it (a proof fetches its children's table words by
    # it) gives the key the move's position has; the others give none
    from roost.interop.native import key_after
    for s, _ in _random_walk(game, players, seed=7, walk_seed=3):
        if not s.is_chance:
            for m in s.legal()[:20]:
                k = key_after(s, m)
                if k is not None:
                    child = s.copy()
                    child.play_unchecked(m)
                    assert k == child.hash, (s.text(), m)


@pytest.mark.parametrize("game,players", CONFIGS)
def test_the_keys_after_a_list_of_moves_are_the_keys_after_each(game, players):
    # State.keys_after, one call for a proof's children: what key_after gives move by move,
    # as far as it gives them
    from roost.interop.native import key_after, keys_after
    for s, _ in _random_walk(game, players, seed=11, walk_seed=5):
        if not s.is_chance:
            moves = s.legal()[:20]
            expected = []
            for m in moves:
                k = key_after(s, m)
                if k is None:
                    break
                expected.append(k)
            assert keys_after(s, moves) == expected, s.text()


@pytest.mark.parametrize("game,players", CONFIGS)
def test_a_scratch_child_is_the_position_its_move_makes(game, players):
    # State.assign_played, a search's child in one call, into a scratch position that held
    # another game: the position, its mover, moves, key and result are the move's, and the
    # mover it returns is the child's ("over" once over)
    from roost.interop.native import played
    for s, rnd in _random_walk(game, players, seed=13, walk_seed=6):
        for m in (s.legal()[:5] if not s.is_chance else [s.sample(rnd.getrandbits(63))]):
            expected = s.copy()
            expected.play_unchecked(m)
            child, mover = played(s, m, game.start(players=players, seed=14))
            assert child.hash == expected.hash, (s.text(), m)
            assert child.is_over == expected.is_over, (s.text(), m)
            assert mover == ("over" if expected.is_over else "chance" if expected.is_chance
                             else expected.player), (s.text(), m)
            if expected.is_over:
                assert child.result() == expected.result(), (s.text(), m)
            else:
                assert child.is_chance == expected.is_chance, (s.text(), m)
                assert child.is_chance or child.player == expected.player, (s.text(), m)
                assert child.is_chance or child.legal() == expected.legal(), (s.text(), m)


@pytest.mark.parametrize("game,players", CONFIGS)
def test_a_game_that_says_it_is_won_on_the_winners_move_is(game, players):
    # State.wins_on_own_move lets a proof skip half the distances: where a game says so,
    # two players alternate and every game won ends with the winner's own move
    from roost.interop.native import wins_on_own_move
    s = game.start(players=players, seed=5)
    if not wins_on_own_move(s):
        return
    rnd = random.Random(4)
    won = 0
    for g in range(200):
        s = game.start(players=players, seed=g)
        last = None
        while not s.is_over:
            assert not s.is_chance and players == 2 and s.player != last, s.text()
            assert wins_on_own_move(s), s.text()
            last = s.player
            _random_step(s, rnd)
        r = s.result()
        if max(r) == 1.0:
            assert r[last] == 1.0, s.text()
            won += 1
    assert won > 100


@pytest.mark.parametrize("game,players", CONFIGS)
def test_a_position_a_game_calls_a_draw_ends_drawn_whatever_is_played(game, players):
    # search_moves's SOON_DRAW lets a proof settle a node without searching it: wherever a
    # game says "draw", every game on from each of its moves ends drawn.  The games are
    # played by moves that do not lose at once where the game names them, so that they
    # last to their end
    from roost.interop.native import search_moves
    rnd = random.Random(8)
    said = 0
    for g in range(60):
        s = game.start(players=players, seed=g)
        plies = 0
        while not s.is_over and plies < 150:
            if s.is_chance:
                _random_step(s, rnd)
            else:
                moves, soon = search_moves(s)
                if soon == "draw":
                    said += 1
                    assert moves, s.text()
                    for m in moves:
                        child = s.copy()
                        child.play_unchecked(m)
                        assert _every_end_drawn(child), (s.text(), m)
                s.play_unchecked(rnd.choice(moves if soon in ("quiet", "draw") else s.legal()))
            plies += 1
    assert said > 5 or game.name != "connect4"    # Connect Four says it with two cells left


def _every_end_drawn(state):
    """Whether every game on from `state` ends with no player ahead of another (decisions
    only: no game says "draw" where chance is yet to act)."""
    if state.is_over:
        return len(set(state.result())) == 1
    assert not state.is_chance, state.text()
    for m in state.legal():
        child = state.copy()
        child.play_unchecked(m)
        if not _every_end_drawn(child):
            return False
    return True
