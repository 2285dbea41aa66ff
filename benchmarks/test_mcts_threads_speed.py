"""MCTS on several threads and its growing tree, reports in ``extra_info``:

- iterations/s on every game's bench position for 1 and 2 threads (the target on 2 idle
  cores: 2 threads >= 1.7x), at a fixed iteration budget;
- nodes held after 1 s and 6 s of Feed the Ducks at default settings (target: >= 4x), and
  the store's size.

Run alone on the machine: ``python -m pytest benchmarks/test_mcts_threads_speed.py
--benchmark-only``."""
import pytest

from roost.bench import bench_state, work_for
from roost.core.games import all_games, get_game
from roost.search.engines import parse_engine

GAMES = all_games()


def _position(info):
    s = bench_state(info)
    if s.is_chance:
        s.play_unchecked(s.sample(0))
    return s


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("info", GAMES, ids=lambda g: g.name)
def test_mcts_iterations_per_thread_count(benchmark, info, threads):
    s = _position(info)
    its = 2 * work_for(info.name)["mcts"]
    r = benchmark.pedantic(lambda: parse_engine(f"mcts:iterations={its},threads={threads}").choose(s, seed=1),
                           rounds=3, iterations=1)
    benchmark.extra_info["iterations_per_s"] = r.iterations / benchmark.stats.stats.mean
    benchmark.extra_info["threads"] = threads


@pytest.mark.parametrize("seconds", [1.0, 6.0])
def test_mcts_tree_growth(benchmark, seconds):
    s = _position(get_game("ducks"))
    r = benchmark.pedantic(lambda: parse_engine(f"mcts:time={seconds}").choose(s, seed=1),
                           rounds=1, iterations=1)
    benchmark.extra_info["tree_nodes"] = r.info["tree_nodes"]
    benchmark.extra_info["tree_mb"] = r.info["tree_mb"]
    benchmark.extra_info["iterations"] = r.iterations
