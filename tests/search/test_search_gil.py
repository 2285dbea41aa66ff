"""A search called from Python lets other Python threads run while it searches (a protocol
engine reads `stop` on one thread while another searches; a web server answers while a
search runs): the searcher lets the GIL go once it has run a periodic check's nodes, and
takes it back when it returns, on each of its ways of searching."""

import threading
import time

from roost.core.calibration import solved_connect4
from roost.core.games import get_game
from roost.search.alphabeta import AlphaBeta
from roost.search.wdl import WindowTests

from tests.search.positions import bench_position


def _ran_during(search):
    """Whether another Python thread ran in the middle fifth of the time `search()` took
    (a thread runs at the call's start and end anyway, when the interpreter hands the GIL
    over between bytecodes)."""
    stamps, started, done = [], threading.Event(), threading.Event()

    def note_the_time():
        last = 0.0
        started.set()
        while not done.is_set():
            t = time.perf_counter()
            if t - last >= 0.001:
                stamps.append(t)
                last = t

    other = threading.Thread(target=note_the_time)
    other.start()
    started.wait()
    t0 = time.perf_counter()
    search()
    t1 = time.perf_counter()
    done.set()
    other.join()
    lo, hi = t0 + 0.4 * (t1 - t0), t0 + 0.6 * (t1 - t0)
    return any(lo <= t <= hi for t in stamps)


def test_a_deepening_search_lets_other_threads_run():
    state = bench_position(get_game("ducks"))
    assert _ran_during(lambda: AlphaBeta(tt_mb=16).search(state, max_depth=64, nodes=300_000))


def test_a_solve_lets_other_threads_run():
    state = get_game("connect4").parse(solved_connect4("begin")[0]["moves"])
    assert _ran_during(lambda: AlphaBeta(tt_mb=16).search(state, max_depth=10000, solve=True))


def test_a_window_test_lets_other_threads_run():
    state = get_game("connect4").parse(solved_connect4("begin")[0]["moves"])
    assert _ran_during(lambda: WindowTests(tt_mb=16).test(state, "draw"))
