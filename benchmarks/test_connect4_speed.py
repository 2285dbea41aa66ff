"""Connect Four, the calibration game, against other programs on the same work (one run):

- roost's solver against the reference perfect solver's recorded times on the calibration
  positions (src/core/data/connect4/: Pascal Pons' solver, no opening book, one thread,
  a fresh table per position), every answer checked against the reference score; the
  processor-time ratio is to the reference's faster table (reference_cpu_times.json's
  table_2^19, which fits the cache), the wall-time one to the times recorded with each
  position (its default table);
- roost's MCTS iterations/s against OpenSpiel's C++ MCTSBot on OpenSpiel's connect_four at
  the same budget (simulations with one random rollout each), from the same positions.

    python -m pytest benchmarks/test_connect4_speed.py --benchmark-only -s

``ROOST_C4_MIDDLE=N`` and ``ROOST_C4_BEGIN=N`` solve only the first N positions of those sets
(all 20 of begin.jsonl, 8-13 stones, take roost about ten seconds of processor time).
Each set reports the search's wall seconds and its processor seconds, and the MCTS comparison
iterations/s by both clocks: on a shared machine the wall time counts the time other work held
the processor, and the reference's times were taken on an idle one.

A report, not a test: the times are compared by reading them; what is asserted is only that
the answers are right and the iteration counts are the budget."""
import os
import time

import pytest

from roost.bench import SOLVE_TARGETS
from roost.core.calibration import reference_cpu_times, solved_connect4
from roost.core.games import get_game
from roost.search.alphabeta import AlphaBeta

GAME = get_game("connect4")


def _rows(name):
    rows = solved_connect4(name)
    best = reference_cpu_times()[name]["table_2^19"]["cpu_us"]
    rows = [dict(row, best_cpu_us=us) for row, us in zip(rows, best)]
    limit = os.environ.get(f"ROOST_C4_{name.upper()}")
    if limit:
        rows = rows[:int(limit)]
    return rows


def _solve_all(rows, tt_mb):
    """Search seconds (wall and processor), nodes and wrong answers over rows, a fresh table
    each (as the reference), the table clearing outside the timed search."""
    ab = AlphaBeta(tt_mb=tt_mb)
    seconds = cpu = nodes = 0.0
    wrong = []
    for row in rows:
        state = GAME.parse(row["moves"])
        ab.clear()
        c0 = time.process_time()
        r = ab.search(state, max_depth=10000, solve=True)
        cpu += time.process_time() - c0
        seconds += r.seconds
        nodes += r.nodes
        v = r.score
        got = 0 if abs(v) < 999000 else state.solver_score("win" if v > 0 else "loss", round(1e6 - abs(v)))
        if not r.exact or got != row["score"]:
            wrong.append(row["moves"])
    return seconds, cpu, nodes, wrong


@pytest.mark.parametrize("name", ["end", "middle", "begin"])
def test_solve_against_the_reference_solver(benchmark, name):
    rows = _rows(name)
    # 256 MB: the table `roost solve` uses by default
    seconds, cpu, nodes, wrong = benchmark.pedantic(_solve_all, args=(rows, 256), rounds=1, iterations=1)
    ref_s = sum(r["solver_us"] for r in rows) * 1e-6
    best_s = sum(r["best_cpu_us"] for r in rows) * 1e-6
    ref_nodes = sum(r["solver_nodes"] for r in rows)
    extra = {"positions": len(rows), "roost_ms_per_position": 1e3 * seconds / len(rows),
             "reference_ms_per_position": 1e3 * ref_s / len(rows),
             "time_ratio": seconds / ref_s, "roost_cpu_ms_per_position": 1e3 * cpu / len(rows),
             "reference_2^19_cpu_ms_per_position": 1e3 * best_s / len(rows),
             "cpu_time_ratio": cpu / best_s, "cpu_time_target": SOLVE_TARGETS[name],
             "roost_nodes": nodes / len(rows),
             "reference_nodes": ref_nodes / len(rows), "node_ratio": nodes / ref_nodes}
    benchmark.extra_info.update(extra)
    print(f"\n{name}: " + ", ".join(f"{k} {v:.4g}" for k, v in extra.items()))
    assert not wrong, wrong[:5]


# positions for the MCTS comparison: the empty board and a few middle positions
MCTS_POSITIONS = ["-", "4453", "2611111172444374", "7427466465253455364"]


def test_mcts_iterations_against_openspiel(benchmark):
    import pyspiel
    from roost.search.mcts import MCTS
    sims = 20000
    os_game = pyspiel.load_game("connect_four")

    def run():
        ours = theirs = ours_cpu = theirs_cpu = 0.0
        for text in MCTS_POSITIONS:          # interleaved, position by position
            # no solver on either side: a proven root would end a search early
            tree = MCTS(capacity=2 * sims + 100, c=1.0, solver=False)
            t0, c0 = time.perf_counter(), time.process_time()
            r = tree.search(GAME.parse(text), iterations=sims)
            ours += time.perf_counter() - t0
            ours_cpu += time.process_time() - c0
            assert r.iterations == sims
            bot = pyspiel.MCTSBot(os_game, pyspiel.RandomRolloutEvaluator(1, 1), 2.0, sims, 4000,
                                  False, 1, False)
            state = os_game.new_initial_state()
            for ch in text.strip("-"):
                state.apply_action(int(ch) - 1)
            t0, c0 = time.perf_counter(), time.process_time()
            root = bot.mcts_search(state)
            theirs += time.perf_counter() - t0
            theirs_cpu += time.process_time() - c0
            assert root.explore_count == sims
        return ours, theirs, ours_cpu, theirs_cpu

    ours, theirs, ours_cpu, theirs_cpu = benchmark.pedantic(run, rounds=1, iterations=1)
    n = sims * len(MCTS_POSITIONS)
    # both searchers run in this process, one thread each: processor time is theirs alone
    extra = {"roost_iterations_per_s": n / ours, "openspiel_iterations_per_s": n / theirs,
             "ratio": theirs / ours, "roost_cpu_iterations_per_s": n / ours_cpu,
             "openspiel_cpu_iterations_per_s": n / theirs_cpu, "cpu_ratio": theirs_cpu / ours_cpu}
    benchmark.extra_info.update(extra)
    print("\nmcts: " + ", ".join(f"{k} {v:.4g}" for k, v in extra.items()))
