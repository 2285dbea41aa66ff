"""Threads and memory of the searchers, reported in ``extra_info``, never asserted:

- alpha-beta (Lazy SMP) on the Ducks bench position: nodes/s at a fixed depth with 1, 2 and
  all the machine's cores, and the seconds to reach depth 10 (the time-to-depth speedup is
  what a user feels; nodes/s alone counts helpers' duplicated work too);
- MCTS iterations/s with 1, 2 and all the machine's cores;
- memory: the resident size after an alpha-beta search with a large table (the table grows
  with the search, so a short search stays small) and after MCTS searches of 1 s and 6 s.

    python -m pytest benchmarks/test_threads.py --benchmark-only -s

Scaling needs idle cores: on a shared machine the ratios come out low."""
import os
import resource
import subprocess
import sys

import pytest

from roost.bench import bench_state
from roost.core.games import get_game
from roost.search.engines import parse_engine

DUCKS = get_game("ducks")
THREADS = sorted({1, 2, os.cpu_count() or 1})


def _ducks():
    return bench_state(DUCKS)


@pytest.mark.parametrize("threads", THREADS)
def test_alphabeta_nodes_per_second(benchmark, threads):
    state = _ducks()
    r = benchmark.pedantic(lambda: parse_engine(f"ab:depth=8,threads={threads}").choose(state, seed=1),
                           rounds=3, iterations=1)
    benchmark.extra_info["threads"] = threads
    benchmark.extra_info["nodes"] = r.nodes
    benchmark.extra_info["nodes_per_s"] = r.nodes / benchmark.stats.stats.mean


@pytest.mark.parametrize("threads", THREADS)
def test_alphabeta_time_to_depth_10(benchmark, threads):
    state = _ducks()
    r = benchmark.pedantic(lambda: parse_engine(f"ab:depth=10,threads={threads}").choose(state, seed=1),
                           rounds=1, iterations=1)
    benchmark.extra_info["threads"] = threads
    benchmark.extra_info["depth"] = r.depth
    benchmark.extra_info["search_seconds"] = r.seconds


@pytest.mark.parametrize("threads", THREADS)
def test_mcts_iterations_per_second(benchmark, threads):
    state = _ducks()
    spec = f"mcts:iterations=30000,threads={threads}"
    r = benchmark.pedantic(lambda: parse_engine(spec).choose(state, seed=1), rounds=3, iterations=1)
    benchmark.extra_info["threads"] = threads
    benchmark.extra_info["iterations_per_s"] = r.iterations / benchmark.stats.stats.mean


_RSS = """
import resource, sys
from roost.core.games import get_game
from roost.search.engines import parse_engine
info = get_game("ducks")
r = parse_engine(sys.argv[1]).choose(info.parse(info.bench_position), seed=1)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, r.nodes)
"""


@pytest.mark.parametrize("spec", ["ab:depth=4,tt=512", "ab:depth=8,tt=512", "ab:depth=8,tt=32",
                                  "mcts:time=1", "mcts:time=6"])
def test_peak_memory(benchmark, spec):
    """Peak resident size of a fresh process that runs one search (KB on Linux)."""
    def run():
        out = subprocess.run([sys.executable, "-c", _RSS, spec], capture_output=True, text=True,
                             check=True).stdout.split()
        return int(out[0]), int(out[1])
    rss_kb, nodes = benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info["peak_rss_mb"] = rss_kb / 1024
    benchmark.extra_info["nodes"] = nodes
    benchmark.extra_info["baseline_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
