"""Every game's own native random playout (what MCTS rollouts play) plays only legal moves and
chance outcomes, and picks among the legal moves uniformly.

The playout is a native method with no trace, so the test reads it through the prefix
property of a seeded playout: ``random_playout(seed, k)`` draws the same numbers as the first
k plies of ``random_playout(seed, k + 1)``, so the positions after k and k + 1 plies are
consecutive positions of one playout, and the second must be the first after one of its
legal moves (or chance outcomes).  A position is compared after its forced moves are played
(Wingspan's playout stops at its ply cap before the forced steps that ``play`` collapses).
"""
import math
from collections import Counter

import pytest

from roost.core.games import registered_games


GAMES = [(info.name, n) for info in registered_games()
         for n in sorted({info.min_players, info.default_players, info.max_players})]


def settled(state):
    """`state` with its forced moves played (a single legal move is no decision)."""
    s = state.copy()
    while not s.is_over and not s.is_chance and len(s.legal()) == 1:
        s.play_unchecked(s.legal()[0])
    return s


def successors(state):
    """{hash: [text]} of every position one legal move or chance outcome after `state`."""
    out = {}
    for m in state.legal():
        c = state.copy()
        c.play_unchecked(m)
        c = settled(c)
        out.setdefault(c.hash, []).append(c.text())
    return out


def playout_steps(start, seed):
    """The positions of one native playout from `start`, ply by ply (prefix property), as
    the playout left them."""
    full = start.copy()
    plies = full.random_playout(seed)
    assert full.is_over, "a playout with no ply cap ends the game"
    steps = [start.copy()]
    for k in range(1, plies + 1):
        s = start.copy()
        assert s.random_playout(seed, k) == k
        steps.append(s)
    assert settled(steps[-1]).text() == full.text()
    return steps


def reached_in_one_ply(before, after):
    """`after` (as a playout left it) is one legal move or outcome after `before`: compared
    settled, from `before` as it stands (a forced move counts as a ply) or settled (a
    playout that stopped at its cap before the forced steps)."""
    if before.is_chance:          # one outcome, as it stands (chance has no forced moves)
        for o, p in before.chances():
            c = before.copy()
            c.play_unchecked(o)
            if c.hash == after.hash and c.text() == after.text():
                return p > 0
        return False
    target = settled(after)
    starts = {b.text(): b for b in (before, settled(before))}
    return any(target.text() in successors(b).get(target.hash, []) for b in starts.values())


def start_positions(name, players):
    from roost.core.games import get_game
    info = get_game(name)
    starts = [info.start(players=players, seed=seed) for seed in (1, 2)]
    if players == info.default_players:
        starts.append(info.parse(info.bench_position))
    return starts


@pytest.mark.parametrize("name,players", GAMES)
def test_every_ply_of_the_native_playout_is_legal(name, players):
    checked = 0
    for start in start_positions(name, players):
        for seed in (5,):
            steps = playout_steps(start, seed)
            big_draws = 0
            for before, after in zip(steps, steps[1:]):
                if before.is_chance and len(before.chances()) > 5000:
                    # Tweeeet's row draw has 80,640 outcomes: check two of them a playout
                    big_draws += 1
                    if big_draws > 2:
                        continue
                assert reached_in_one_ply(before, after), (
                    f"{name}: the playout went from {before.text()} to {after.text()}, "
                    "which no legal move or chance outcome reaches")
                checked += 1
    assert checked >= 10


def first_ply_counts(state, draws):
    """How often the playout's first ply from `state` reaches each successor."""
    counts = Counter()
    for seed in range(draws):
        s = state.copy()
        s.random_playout(1000 + seed, 1)
        counts[settled(s).hash] += 1
    return counts


@pytest.mark.parametrize("name,players", GAMES)
def test_the_playout_picks_every_legal_move_equally_often(name, players):
    # at a decision node each legal move should come up 1/n of the time (a successor reached
    # by k of the n moves, k/n of the time): the counts must lie within 6 standard deviations
    # of that (the seeds are fixed, so this is not flaky: a failure is a biased playout)
    tested = 0
    kinds = set()
    for state in playout_steps(start_positions(name, players)[0], 9)[::3]:
        if state.is_over or state.is_chance or len(state.legal()) < 2:
            continue
        moves = state.legal()
        if len(moves) in kinds and tested >= 4:
            continue                       # prefer nodes of another kind (another move count)
        kinds.add(len(moves))
        share = Counter()
        for m in moves:
            c = state.copy()
            c.play_unchecked(m)
            share[settled(c).hash] += 1
        draws = max(2000, 60 * len(moves))
        counts = first_ply_counts(state, draws)
        assert set(counts) <= set(share), f"{name}: a first ply no legal move reaches"
        for h, k in share.items():
            p = k / len(moves)
            expected, sd = draws * p, math.sqrt(draws * p * (1 - p))
            assert abs(counts[h] - expected) <= 6 * sd + 1, (
                name, state.text(), k, len(moves), counts[h], expected)
        tested += 1
        if tested >= 8:
            break
    assert tested >= 1
