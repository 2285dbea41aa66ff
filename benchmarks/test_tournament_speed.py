"""Bookkeeping cost of tournaments: games/s of very fast games (random engines), in one
process and in a local pool, with the share of the workers' time spent in the games
themselves (the result's ``busy()``) recorded next to the rate in ``extra_info``.

A report, not a test: nothing here asserts a target (timings on a shared machine are too
noisy for that).  Compare runs with ``--benchmark-compare``, or two builds in interleaved
runs; the test suite checks only correctness."""
import pytest

from roost.arena.tournament import TournamentConfig, run_tournament
from roost.core.games import get_game


@pytest.mark.parametrize("jobs", [1, 2])
def test_random_games_per_second(benchmark, tmp_path, jobs):
    counter = iter(range(1000))

    def run():
        cfg = TournamentConfig(game=get_game("ducks"), engines=["random", "random"], games=500, seed=next(counter))
        return run_tournament(cfg, db=str(tmp_path / f"t{jobs}-{cfg.seed}.db"), jobs=jobs)

    res = benchmark.pedantic(run, rounds=2, iterations=1)
    benchmark.extra_info["games_per_s"] = res.played / res.wall
    benchmark.extra_info["share_in_games"] = res.busy()
