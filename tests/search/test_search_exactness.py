"""Alpha-beta with every speed-up (PVS, the transposition table, killers, history, Star1 and
Star2 chance pruning, iterative deepening) must return exactly the value of a plain
minimax/expectimax search of the same depth.  The reference below is written
over the Python API, searches every move and every outcome, and scores positions the way
alphabeta.pyx documents it:

- a finished game: (2r - 1) * (MATE - ply), r the root player's result;
- the horizon (a decision node at depth 0): (2e - 1) * MATE clamped to +-EVAL_LIMIT, e the
  game's evaluation for the root player;
- a decision node at depth > 0 whose position repeats one on the search path: 0 (a draw);
- a decision node: the best child for its side (two players, or everyone against the root
  player in paranoid mode), one ply deeper and one depth less;
- a chance node (uses no depth): the expectation over its outcomes, one ply deeper, as long
  as the compound chance node stays within `exact` leaves (an outcome that leads to chance
  again continues with budget // n); where alpha-beta would sample, the reference gives up
  on the position (sampled values cannot be compared) and the test takes another.
"""
import random

import pytest

from roost.core.games import get_game
from roost.search.alphabeta import AlphaBeta

from tests.search.positions import decisions, random_game  # noqa: E402

MATE = 1000000.0
EVAL_LIMIT = 990000.0
EXACT = 64


class Sampled(Exception):
    """The tree holds a chance node alpha-beta samples instead of enumerating."""


def reference(root, depth, paranoid=False, exact=EXACT, budget_nodes=400000):
    """[(move, value)] of each root move and the root's value, from the root player's view."""
    me = root.player
    path = [root.hash]
    count = [0]

    def same_side(p):
        return (p == me) if paranoid else (p == me)

    def value(s, depth, ply, budget):
        count[0] += 1
        if count[0] > budget_nodes:
            raise Sampled("too big a tree for the reference")
        if s.is_over:
            return (2.0 * s.result()[me] - 1.0) * (MATE - ply)
        if s.is_chance:
            outs = s.chances()
            n = len(outs)
            if n > budget:
                raise Sampled
            path.append(s.hash)
            total = 0.0
            for o, p in outs:
                c = s.copy()
                c.play_unchecked(o)
                total += p * value(c, depth, ply + 1, budget // n)
            path.pop()
            return total
        if depth <= 0:
            e = (2.0 * s.evaluate_for(me) - 1.0) * MATE
            return max(-EVAL_LIMIT, min(EVAL_LIMIT, e))
        if s.hash in path[:ply]:
            return 0.0
        path.append(s.hash)
        vals = []
        for m in s.legal():
            c = s.copy()
            c.play_unchecked(m)
            vals.append(value(c, depth - 1, ply + 1, exact))
        path.pop()
        return max(vals) if same_side(s.player) else min(vals)

    children = []
    for m in root.legal():
        c = root.copy()
        c.play_unchecked(m)
        children.append((m, value(c, depth - 1, 1, exact)))
    return children, max(v for _, v in children)


def compare(state, depth, paranoid=False, star=2, tt_mb=4):
    """Alpha-beta's result against the reference at the depth alpha-beta completed; returns
    False when the reference cannot follow (sampled chance)."""
    ab = AlphaBeta(tt_mb=tt_mb, paranoid=paranoid, star=star, seed=3)
    r = ab.search(state, max_depth=depth)
    done = r.depth
    assert 1 <= done <= depth
    try:
        children, best = reference(state, done, paranoid)
    except Sampled:
        return False
    assert r.score == pytest.approx(best, abs=1e-3), (state.text(), done)
    assert {m.move for m in r.root_moves} == set(state.legal())
    check_principal_variation(state, r, paranoid)
    truth = dict(children)
    assert truth[r.move] == pytest.approx(best, abs=1e-3), (state.text(), done)
    for m in r.root_moves:
        if m.exact:
            assert m.score == pytest.approx(truth[m.move], abs=1e-3), (state.text(), done, m)
        else:                       # refuted by a null window: an upper bound
            assert truth[m.move] <= m.score + 1e-3, (state.text(), done, m)
    return True


def check_principal_variation(state, r, paranoid):
    """Every position along the PV, searched to the depth left, has the root's value: the
    PV is the line that value comes from (up to the first chance node, where the PV ends)."""
    pv = r.pv
    assert pv and pv[0] == r.move
    s, path = state.copy(), [state.hash]
    for k, m in enumerate(pv, 1):
        assert m in s.legal(), (state.text(), k)
        s.play_unchecked(m)
        if s.is_over or s.is_chance:
            assert k == len(pv)
            break
        v = reference_root(s, r.depth - k, paranoid, me=state.player, ply0=k, path0=path)
        assert v == pytest.approx(r.score, abs=1e-3), (state.text(), k)
        path.append(s.hash)
    # the line runs to the depth searched, unless the game ends or chance acts on the way
    assert len(pv) == r.depth or s.is_over or s.is_chance, (state.text(), len(pv), r.depth)


def sample_positions(game, players, count, seed):
    """Decision positions spread over seeded random games, with at least two moves."""
    info = get_game(game)
    rnd = random.Random(seed)
    out = []
    k = 0
    while len(out) < count:
        states = [s for s in decisions(random_game(info, players, seed * 1000 + k))
                  if len(s.legal()) >= 2]
        k += 1
        out.extend(rnd.sample(states, min(len(states), max(1, count // 4))))
    return out[:count]


# (game, players, depth, positions, paranoid): depths the Python reference can afford
CASES = [
    ("ducks", 2, 3, 16, False),
    ("tweeeet", 2, 3, 8, False),
    ("tweeeet", 2, 2, 8, False),
    ("cubirds", 2, 2, 8, False),
    ("cubirds", 2, 1, 8, False),
    ("cubirds", 3, 2, 8, True),
    ("leaves", 2, 1, 8, False),
    ("leaves", 3, 1, 6, True),
    ("wingspan", 2, 4, 12, False),
    ("wingspan", 3, 3, 8, True),
    ("dice", 2, 4, 12, False),
]


@pytest.mark.parametrize("game,players,depth,count,paranoid", CASES)
def test_alpha_beta_equals_plain_minimax_of_the_same_depth(game, players, depth, count, paranoid):
    compared = 0
    for s in sample_positions(game, players, 10 * count, seed=players * 17 + depth):
        compared += compare(s, depth, paranoid)
        if compared == count:
            break
    assert compared == count, f"only {compared} of {count} positions could be compared"


@pytest.mark.parametrize("star", [0, 1])
@pytest.mark.parametrize("game,depth", [("dice", 4), ("leaves", 1), ("cubirds", 2)])
def test_every_chance_pruning_setting_gives_the_same_values(game, depth, star):
    # the cases above use Star2 (the default); Star1 alone and no pruning must agree too
    compared = 0
    for s in sample_positions(game, 2, 60, seed=7):
        compared += compare(s, depth, star=star)
        if compared == 4:
            break
    assert compared == 4


def reference_root(root, depth, paranoid=False, exact=EXACT, repetition_anywhere=True,
                   me=None, ply0=0, path0=()):
    """The root's value by a plain alpha-beta over the Python API (no table, no ordering):
    the same scoring as reference(), cheaper, for depths reference() cannot afford.  With
    repetition_anywhere=False a position counts as repeated only if it is the root's (to
    show that the positions tested need the rule everywhere on the path).  `me`, `ply0` and
    `path0` continue a search from a position `ply0` plies below the real root."""
    me = root.player if me is None else me
    path = list(path0)

    def value(s, depth, ply, alpha, beta, budget):
        if s.is_over:
            return (2.0 * s.result()[me] - 1.0) * (MATE - ply)
        if s.is_chance:
            outs = s.chances()
            if len(outs) > budget:
                raise Sampled
            path.append(s.hash)
            total = sum(p * value(_after(s, o), depth, ply + 1, -2 * MATE, 2 * MATE, budget // len(outs))
                        for o, p in outs)
            path.pop()
            return total
        if depth <= 0:
            return max(-EVAL_LIMIT, min(EVAL_LIMIT, (2.0 * s.evaluate_for(me) - 1.0) * MATE))
        if ply > 0 and s.hash in (path[:ply] if repetition_anywhere else path[:1]):
            return 0.0
        path.append(s.hash)
        maximizing = s.player == me
        best = -3 * MATE if maximizing else 3 * MATE
        for m in s.legal():
            v = value(_after(s, m), depth - 1, ply + 1, alpha, beta, exact)
            if maximizing:
                best, alpha = max(best, v), max(alpha, v)
            else:
                best, beta = min(best, v), min(beta, v)
            if alpha >= beta:
                break
        path.pop()
        return best

    return value(root, depth, ply0, -3 * MATE, 3 * MATE, exact)


def _after(s, m):
    c = s.copy()
    c.play_unchecked(m)
    return c


# found among 200 positions of random games: the only one whose depth-4 value depends on a
# repetition below the root (a position seen at ply 1 coming back at ply 3)
REPEATS_BELOW_THE_ROOT = "5/6/2bw3/2bwbb2/2bwwww2/2bbwwbb/1wb1bb1/1*ww2/1w3 b 27"


def test_repetitions_anywhere_on_the_search_path_are_draws():
    # Feed the Ducks positions repeat (a duck walks back): at depth 4 a position first seen
    # one ply below the root can come back at ply 3, where the search must score it a draw
    # exactly as the plain search does
    from roost.core.ducks import Ducks
    from roost.core.ducks.state import EVALUATION
    special = Ducks.parse(REPEATS_BELOW_THE_ROOT)
    compared = 0
    # the position was found with the hand-set evaluation; the shipped (fitted) weights
    # happen to score it the same either way, so the search runs with the hand-set ones
    EVALUATION.set(2, EVALUATION.hand[2])
    try:
        assert reference_root(special, 4) != reference_root(special, 4, repetition_anywhere=False)
        for s in [special] + sample_positions("ducks", 2, 40, seed=23)[:6]:
            r = AlphaBeta(tt_mb=4, seed=3).search(s, max_depth=4)
            if r.depth != 4:
                assert r.exact or abs(r.score) > 999000.0
                continue
            assert r.score == pytest.approx(reference_root(s, 4), abs=1e-3), s.text()
            compared += 1
    finally:
        EVALUATION.reset()
    assert compared >= 5
