"""Late move reductions (`ab:lmr=1`): moves late in alpha-beta's order are first
searched a ply shallower, and again at full depth only when one beats alpha.  The option
must reach the searcher, cut the tree, stay deterministic, keep every limit, and never
touch a proof (solve, eval=none), whose values must stay exact."""

import pytest

from roost.core.games import get_game
from roost.search.engines import parse_engine

from tests.search.positions import every_game_positions  # noqa: E402

DUCKS_SOLVE = "5/2bb2/*wbb3/1bbbwb2/2bwbw3/1wwwwb2/1wbww2/3w2/5 b 39"


def _bench(name):
    info = get_game(name)
    return info.parse(info.bench_position)


@pytest.mark.parametrize("name", ["ducks", "tweeeet", "connect4"])
def test_reductions_search_fewer_nodes_to_the_same_depth(name):
    state = _bench(name)
    plain = parse_engine("ab:depth=5").choose(state, seed=1)
    reduced = parse_engine("ab:depth=5,lmr=1").choose(state, seed=1)
    assert reduced.depth == plain.depth == 5
    assert reduced.move in state.legal()
    assert reduced.nodes < plain.nodes


def test_reductions_reach_deeper_in_the_same_nodes():
    state = _bench("ducks")
    plain = parse_engine("ab:nodes=300000").choose(state, seed=1)
    reduced = parse_engine("ab:nodes=300000,lmr=1").choose(state, seed=1)
    assert plain.nodes == reduced.nodes == 300000
    assert reduced.depth > plain.depth


def test_a_reduced_search_is_deterministic():
    state = _bench("ducks")
    a = parse_engine("ab:depth=7,lmr=1").choose(state, seed=3)
    b = parse_engine("ab:depth=7,lmr=1").choose(state, seed=3)
    assert (a.move, a.score, a.nodes, a.pv) == (b.move, b.score, b.nodes, b.pv)


@pytest.mark.parametrize("label,state", every_game_positions(), ids=lambda x: x if isinstance(x, str) else "")
def test_a_reduced_search_returns_a_legal_move_on_every_game(label, state):
    # a node budget rather than a depth: chance and N-player searches grow very unevenly
    # (depth 3 on a 4-player Under the Leaves position takes minutes), and iterative
    # deepening within it reaches the depths where moves are reduced
    paranoid = ",paranoid=1" if state.players > 2 else ""
    r = parse_engine(f"ab:nodes=20000,lmr=1{paranoid}").choose(state, seed=1)
    assert r.move in state.legal()
    assert r.nodes <= 20000


def test_a_proof_is_never_reduced():
    # solve and eval=none prove results: a reduction there could miss a forced line, so
    # the option must leave them exactly as they were, node for node
    ducks = get_game("ducks").parse(DUCKS_SOLVE)
    for spec in ("ab:tt=16", "ab:depth=5,eval=none"):
        solve = "eval" not in spec
        plain = parse_engine(spec).choose(ducks, seed=0, solve=solve)
        reduced = parse_engine(spec + ",lmr=1").choose(ducks, seed=0, solve=solve)
        assert (reduced.move, reduced.score, reduced.nodes, reduced.proven) == \
               (plain.move, plain.score, plain.nodes, plain.proven), spec


def test_the_root_still_reports_every_move():
    state = _bench("ducks")
    r = parse_engine("ab:depth=5,lmr=1").choose(state, seed=1)
    assert sorted(s.name for s in r.stats) == sorted(state.legal_names())
