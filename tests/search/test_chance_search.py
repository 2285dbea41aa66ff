"""Chance nodes in the searchers, checked against brute-force expectimax on Dice Race
(src/core/toys.pyx), a toy whose chance is a fair die and a biased coin."""
import pytest

from roost.core.games import get_game
from roost.search.engines import parse_engine
from roost.search.mcts import MCTS

DICE = get_game("dice")


def expectimax(state, me):
    """The exact expected result for `me`, by enumerating every move and outcome."""
    if state.is_over:
        return state.result()[me]
    if state.is_chance:
        total = 0.0
        for o, p in state.chances():
            c = state.copy()
            c.play_unchecked(o)
            total += p * expectimax(c, me)
        return total
    values = []
    for m in state.legal():
        c = state.copy()
        c.play_unchecked(m)
        values.append(expectimax(c, me))
    return max(values) if state.player == me else min(values)


def move_values(state):
    me = state.player
    out = {}
    for m in state.legal():
        c = state.copy()
        c.play_unchecked(m)
        out[state.move_name(m)] = expectimax(c, me)
    return out


POSITIONS = ["0 0 4 0 -", "1 0 3 1 -", "0 3 2 0 -", "5 0 2 1 -", "2 2 2 0 -", "0 4 1 0 -", "6 3 1 1 -"]


def test_chance_outcome_probabilities_sum_to_one():
    for text in ("3 5 2 1 roll", "4 4 1 1 coin"):
        outs = DICE.parse(text).chances()
        assert abs(sum(p for _, p in outs) - 1.0) < 1e-12


@pytest.mark.parametrize("text", POSITIONS)
def test_expectimax_alpha_beta_equals_brute_force(text):
    s = DICE.parse(text)
    truth = move_values(s)
    r = parse_engine("ab:depth=12").choose(s, seed=0)
    # scores prefer quicker wins by ply / 10**6, so values agree to 1e-4, not to the last bit
    assert abs(r.value - max(truth.values())) < 1e-4
    assert truth[r.move_name] == pytest.approx(max(truth.values()), abs=1e-9)
    for st in r.stats:
        if st.bound == "upper":
            assert truth[st.name] <= st.value + 1e-4
        else:
            assert abs(truth[st.name] - st.value) < 1e-4
    assert r.expectation and not r.proven


def test_sampled_expectimax_is_an_estimate_near_the_truth():
    s = DICE.parse("0 0 4 0 -")
    truth = max(move_values(s).values())
    r = parse_engine("ab:depth=12,exact=1,samples=24").choose(s, seed=4)
    assert r.expectation and abs(r.value - truth) < 0.15


def clear_positions():
    """The positions whose best move is better than the second by 0.05 or more."""
    out = []
    for text in POSITIONS:
        truth = move_values(DICE.parse(text))
        ranked = sorted(truth.values(), reverse=True)
        if ranked[0] - ranked[1] >= 0.05:
            out.append(text)
    return out


CLEAR = clear_positions()


@pytest.mark.parametrize("text", CLEAR)
def test_mcts_finds_the_better_move_behind_a_chance_node(text):
    s = DICE.parse(text)
    truth = move_values(s)
    best = max(truth, key=truth.get)
    r = parse_engine("mcts:iterations=20000").choose(s, seed=1)
    assert r.move_name == best
    assert abs(r.value - truth[best]) < 0.05


def test_there_are_positions_whose_best_move_lies_behind_chance():
    # guard for the test above: several positions have a clear best move, and in some
    # of them it is a gamble (roll or coin), not the certain hold
    best = [max(t, key=t.get) for t in (move_values(DICE.parse(x)) for x in CLEAR)]
    assert len(best) >= 4 and any(m in ("roll", "coin") for m in best)


def test_progressive_widening_bounds_the_outcomes_kept():
    s = DICE.parse("0 0 6 0 -")
    tree = MCTS(capacity=200000, pw_c=0.5, pw_alpha=0.3, seed=2)
    tree.search(s, iterations=5000)
    widths = tree.chance_widths()
    assert widths
    import math
    for visits, kept in widths:
        assert kept <= max(1, math.ceil(0.5 * (visits + 1) ** 0.3))
    assert any(kept < 6 for visits, kept in widths if visits > 10)
    # the count widening reads is the number of outcomes really linked below each node
    nodes = tree.tree_nodes()
    linked = [(n["visits"], len(n["children"])) for n in nodes.values() if n["chance"]]
    assert sorted(linked) == sorted(widths)
    # and each outcome is kept once: a second child for an outcome already kept would split
    # its statistics
    for n in nodes.values():
        if n["chance"]:
            outcomes = [nodes[k]["move"] for k in n["children"]]
            assert len(outcomes) == len(set(outcomes)), outcomes


def test_full_depth_search_of_a_longer_race_is_exact():
    # six decisions with chance between them: every iteration past the game's length must
    # give the brute-force value (a stale path entry would score transpositions as draws)
    s = DICE.parse("0 0 6 0 -")
    truth = max(move_values(s).values())
    for depth in (6, 9, 12):
        r = parse_engine(f"ab:depth={depth}").choose(s, seed=0)
        assert abs(r.value - truth) < 1e-4


@pytest.mark.parametrize("game,text", [
    ("tweeeet", "0:-...S...-/~..3.5~.2/.4..~2.~3/5~.~..4.2/..~3.~54. e0:6 e0:7 e0:8 e0:9 MR"),
    ("dice", None)])
def test_a_solve_stops_at_the_first_chance_node_it_meets(game, text):
    # a proof cannot pass chance: the solve gives up at the first chance node it meets, its
    # one progress line counting the root, the moves before and that node, and raises
    # instead of searching on past a chance node it cannot prove through
    from roost.search.alphabeta import AlphaBeta, ChanceInSolve
    info = get_game(game)
    s = info.parse(text or info.bench_position)
    assert not s.is_chance

    def to_chance(m):
        c = s.copy()
        c.play_unchecked(m)
        return c.is_chance
    first = next(i for i, m in enumerate(s.legal()) if to_chance(m))
    assert first < len(s.legal()) - 1        # guard: moves after it would be searched on
    seen = []
    with pytest.raises(ChanceInSolve, match="chance ahead"):
        AlphaBeta(tt_mb=8).search(s, solve=True, callback=lambda *a: seen.append(a))
    assert [nodes for _, _, _, nodes, _ in seen] == [1 + first + 1]


@pytest.mark.parametrize("game,text,depth", [
    ("dice", "0 0 4 0 -", 12),
    ("dice", "2 2 2 0 -", 12),
    ("leaves", None, 2),
])
def test_star1_and_star2_pruning_change_nothing_but_the_work(game, text, depth):
    info = get_game(game)
    s = info.parse(text or info.bench_position)
    results = [parse_engine(f"ab:depth={depth},star={k}").choose(s, seed=0) for k in (0, 1, 2)]
    assert len({round(r.value, 9) for r in results}) == 1
    assert len({r.move for r in results}) == 1
    if game == "leaves":          # many outcomes with cheap probes: Star2 saves most of the tree
        assert results[2].nodes < results[1].nodes < results[0].nodes


@pytest.mark.parametrize("text", ["1 0 3 1 -", "0 3 2 0 -", "5 0 2 1 -"])
def test_sampled_chance_converges_with_more_samples(text):
    # every chance node sampled (exact=1): 200 samples an outcome land within a few hundredths
    # of the exact value, and the work grows with the samples asked for
    from roost.search.alphabeta import AlphaBeta, score_to_value
    s = DICE.parse(text)
    truth = max(move_values(s).values())
    few = AlphaBeta(tt_mb=1, exact_outcomes=1, samples=8, seed=4).search(s, max_depth=12)
    many = AlphaBeta(tt_mb=1, exact_outcomes=1, samples=200, seed=4).search(s, max_depth=12)
    assert abs(score_to_value(many.score) - truth) < 0.04
    assert many.nodes > 10 * few.nodes


def test_a_deal_of_many_cards_is_one_bounded_chance_ply():
    # after any move here 16 cards are dealt one by one (16 chance nodes of up to
    # 7 outcomes).  As one compound chance node it expands into at most exact=64 decision
    # positions a move: enumerated while the outcomes multiply to at most 64 (7 x 7 = 49 deals
    # of the first two cards), the rest of each deal sampled once
    from tests.search.positions import CUBIRDS_REDEAL
    from roost.search.alphabeta import AlphaBeta
    s = get_game("cubirds").parse(CUBIRDS_REDEAL)
    assert len(s.legal()) == 2
    r = AlphaBeta(tt_mb=1, seed=1).search(s, max_depth=1)
    # the root, per move: the move's chance node, 7 first cards, 49 second cards, 49 leaves
    assert r.nodes <= 1 + 2 * (1 + 7 + 49 + 64)
    sampled = AlphaBeta(tt_mb=1, exact_outcomes=1, samples=8, seed=1).search(s, max_depth=1)
    assert sampled.nodes <= 1 + 2 * (1 + 8)       # 8 complete deals a move
    assert r.chance and sampled.chance



@pytest.mark.parametrize("text,score", [
    ("156", 1e6 - 157),         # the last card at ply 156, the result at ply 157
    ("157", 1e6 - 158),         # the last card at ply 157: the deepest node expanded
    ("158", 0.0),               # a card at ply 158 is the horizon: evaluated, knowing nothing
    ("1000", 0.0),              # a far longer deal stops there too, inside the per-ply buffers
    ("155 close", 1e6 - 157),   # player 1's closing move at ply 156, the result at ply 157
    ("156 close", 1e6 - 158),   # the closing move at ply 157: a decision node expanded
    ("157 close", 0.0),         # the closing move at ply 158: the horizon
    ("1000 close", 0.0),
])
def test_a_line_is_followed_to_the_ply_limit_and_no_further(text, score):
    # alphabeta.pyx: MAX_PLY = 160, and a node at ply MAX_PLY - 2 or deeper is a leaf, a
    # chance node as well as a decision node.  After the choice at the root, each card of a
    # LongDeal is a chance node of one outcome: it spends a ply but no depth, so depth 2
    # follows the deal and the closing move to the end of the game (a win, MATE - ply, for
    # `win`) or to the ply limit (the evaluation, 1/2: a score of 0)
    from roost.core.toys import LongDeal
    from roost.search.alphabeta import AlphaBeta
    s = LongDeal.parse(text)
    r = AlphaBeta(tt_mb=1, seed=0).search(s, max_depth=2)
    plies = int(text.split()[0]) + 1 + (" close" in text)      # from the root to the end
    assert r.score == score
    assert r.seldepth == min(plies, 158)
    assert r.move == 0 and r.chance
    assert sorted((m.move, m.score) for m in r.root_moves) == [(0, score), (1, -score)]
