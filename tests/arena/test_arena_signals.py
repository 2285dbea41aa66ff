"""Ctrl-C (SIGINT) and kill (SIGTERM) stop a tournament tidily wherever they land: never a
hang, never a finished game lost (src/arena/stopping.py).

The race this guards against: a handler that raised KeyboardInterrupt wherever the main
thread was could unwind out of the writer queue's ``put`` with its lock held, and
``Writer.close()`` then waited forever.  tests/arena_signal_trials.py delivers the signals
at every stretch of the writer loop in turn, in a process of its own with a timeout."""
import os
import signal
import subprocess
import sys
import threading

import pytest

from roost.arena.stopping import StopRequest

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs POSIX signals")
@pytest.mark.parametrize("jobs", [1, 2])
def test_signals_at_every_point_of_the_writer_loop_lose_nothing(tmp_path, jobs):
    cmd = [sys.executable, os.path.join(HERE, "signal_trials.py"), str(jobs), "40",
           str(jobs), str(tmp_path)]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=180,
                              preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    except subprocess.TimeoutExpired as e:
        seen = (e.stdout or b"").decode(errors="replace").strip().splitlines()
        pytest.fail(f"a tournament hung after a signal: {seen[-1] if seen else 'before the first trial'}")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    assert done.stdout.strip().endswith("ok 40")


def test_a_signal_only_asks_outside_a_game_and_abandons_a_game_inside_one():
    stop = StopRequest()
    stop.handler(signal.SIGTERM, None)            # outside a game: nothing raised here
    assert stop.requested and stop.signal == signal.SIGTERM
    with pytest.raises(KeyboardInterrupt):
        stop.check()                              # the loop stops at its own safe point
    stop = StopRequest()
    with pytest.raises(KeyboardInterrupt):
        with stop.game():
            stop.handler(signal.SIGINT, None)     # inside a game: the game is abandoned
    assert stop.requested and not stop.in_game
    with pytest.raises(KeyboardInterrupt):        # a stop asked before a game: none starts
        with stop.game():
            pytest.fail("a game started after the stop")


def test_handlers_are_installed_for_the_block_and_restored():
    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    stop = StopRequest()
    with stop.installed():
        assert signal.getsignal(signal.SIGINT) == stop.handler
        assert signal.getsignal(signal.SIGTERM) == stop.handler
        os.kill(os.getpid(), signal.SIGTERM)      # would end this process without the handler
        assert stop.requested
    assert {s: signal.getsignal(s) for s in before} == before
    seen = []
    t = threading.Thread(target=lambda: seen.append(StopRequest().installed().__enter__()))
    t.start()
    t.join()                                      # another thread installs nothing (and fails not)
    assert seen and signal.getsignal(signal.SIGINT) == before[signal.SIGINT]
