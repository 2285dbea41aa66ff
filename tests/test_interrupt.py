"""Ctrl-C during a long search: the command says what it had finished and exits 130."""
import os
import signal
import subprocess
import sys
import time


def _start(args):
    # a shell may start us with SIGINT ignored; the child gets the default back so that
    # Python installs its KeyboardInterrupt handler
    return subprocess.Popen([sys.executable, "-m", "roost.cli.main", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def test_interrupted_solve_reports_its_last_depth():
    p = _start(["solve", "ducks", "bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0"])
    seen = ""
    deadline = time.time() + 60
    while "depth   6" not in seen and time.time() < deadline:
        line = p.stderr.readline()
        if not line:
            break
        seen += line
    assert "depth   6" in seen
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    assert p.returncode == 130
    assert "interrupted: unproven after depth" in out
    assert "Traceback" not in err


def test_interrupted_analysis_prints_the_search_so_far():
    p = _start(["analyse", "ducks", "--engine", "mcts:iterations=1000000000"])
    time.sleep(2.0)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    assert p.returncode == 130
    assert "best     " in out and "iterations" in out
    assert "interrupted" in err and "Traceback" not in err
