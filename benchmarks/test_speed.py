"""Speed of every registered game's move generator and of both searchers, single thread.
Targets (this machine): Feed the Ducks perft >= 150 M leaves/s, playouts
>= 150,000/s, MCTS >= 100,000 iterations/s, alpha-beta >= 2 M nodes/s; Tweeeet playouts
>= 50,000 games/s, MCTS >= 30,000 it/s; CuBirds 4-player playouts >= 20,000 games/s, ISMCTS
>= 20,000 it/s; Under the Leaves playouts >= 10,000 (2p) and 4,000 (4p) games/s.

A report, not a test: the targets above are for reading next to the figures in
``extra_info``; none is asserted (timings on a shared machine are too noisy for that)."""
import pytest

from roost.bench import ab_spec, bench_state, work_for
from roost.core.games import all_games
from roost.core.state import playout_batch
from roost.search.engines import parse_engine

GAMES = all_games()


def _position(info):
    s = bench_state(info)
    if s.is_chance:
        s.play_unchecked(s.sample(0))
    return s


@pytest.mark.parametrize("info", GAMES, ids=lambda g: g.name)
def test_perft(benchmark, info):
    s = _position(info)
    depth = work_for(info.name)["perft"]
    leaves = benchmark.pedantic(s.perft, args=(depth,), rounds=3, iterations=1)
    benchmark.extra_info["leaves"] = leaves
    benchmark.extra_info["leaves_per_s"] = leaves / benchmark.stats.stats.mean


@pytest.mark.parametrize("info", GAMES, ids=lambda g: g.name)
def test_random_playouts(benchmark, info):
    s = _position(info)
    n = max(100, work_for(info.name)["playouts"] // 10)

    def run():
        for i in range(n):
            s.copy().random_playout(seed=i)

    benchmark.pedantic(run, rounds=3, iterations=1)
    benchmark.extra_info["playouts_per_s"] = n / benchmark.stats.stats.mean


@pytest.mark.parametrize("info", GAMES, ids=lambda g: g.name)
def test_native_playouts(benchmark, info):
    # the playouts alone, in one native loop (benchmarks/playouts.py prints the same figure,
    # and for Feed the Ducks the plain-C probe's beside it)
    s = _position(info)
    n = work_for(info.name)["playouts"]
    plies, _ = benchmark.pedantic(playout_batch, args=(s, n, 1), rounds=3, iterations=1)
    benchmark.extra_info["playouts_per_s"] = n / benchmark.stats.stats.mean
    benchmark.extra_info["plies_per_playout"] = plies / n


@pytest.mark.parametrize("info", GAMES, ids=lambda g: g.name)
def test_mcts_iterations(benchmark, info):
    s = _position(info)
    its = work_for(info.name)["mcts"]
    r = benchmark.pedantic(lambda: parse_engine(f"mcts:iterations={its}").choose(s, seed=1),
                           rounds=3, iterations=1)
    benchmark.extra_info["iterations_per_s"] = r.iterations / benchmark.stats.stats.mean


@pytest.mark.parametrize("info", GAMES, ids=lambda g: g.name)
def test_alphabeta_nodes(benchmark, info):
    s = _position(info)
    w = work_for(info.name)
    spec = ab_spec(w, s.players)
    r = benchmark.pedantic(lambda: spec.engine().choose(s, seed=1), rounds=3, iterations=1)
    benchmark.extra_info["nodes"] = r.nodes
    benchmark.extra_info["nodes_per_s"] = r.nodes / benchmark.stats.stats.mean


@pytest.mark.parametrize("chance", ["closed", "open"])
def test_mcts_chance_modes_on_tweeeet(benchmark, chance):
    # open-loop chance nodes (mcts:chance=open) grow a far larger tree below Tweeeet's rows
    # and filter each node's children by the legal moves of the draw: the cost of a pass
    s = _position(next(g for g in GAMES if g.name == "tweeeet"))
    its = work_for("tweeeet")["mcts"]
    r = benchmark.pedantic(lambda: parse_engine(f"mcts:iterations={its},imm=0.8,chance={chance}").choose(s, seed=1),
                           rounds=3, iterations=1)
    assert r.iterations == its
    benchmark.extra_info["iterations_per_s"] = r.iterations / benchmark.stats.stats.mean
    benchmark.extra_info["tree_nodes"] = r.info["tree_nodes"]


@pytest.mark.parametrize("game", ["ducks", "connect4"])
@pytest.mark.parametrize("playout", ["random", "decisive"])
def test_mcts_decisive_playouts(benchmark, game, playout):
    # decisive playouts (mcts:playout=decisive) ask the game's search_moves at every ply
    # instead of the game's own native random playout: the cost of that knowledge a pass
    s = _position(next(g for g in GAMES if g.name == game))
    its = work_for(game)["mcts"]
    r = benchmark.pedantic(lambda: parse_engine(f"mcts:iterations={its},playout={playout}").choose(s, seed=1),
                           rounds=3, iterations=1)
    assert r.iterations == its
    benchmark.extra_info["iterations_per_s"] = r.iterations / benchmark.stats.stats.mean
