"""Ctrl-C during a long search: the command says what it had finished and exits 130.

Each test waits for the command's own readiness line on stderr (a finished depth, or the
first progress line of `analyse --progress`, printed once the search has a result) before
it sends SIGINT, so the signal never lands before there is something to report."""
import json
import signal
import subprocess
import sys
import threading

import pytest

OPENING = "bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0"


def _start(args):
    # a shell may start us with SIGINT ignored; the child gets the default back so that
    # Python installs its KeyboardInterrupt handler
    return subprocess.Popen([sys.executable, "-m", "roost.cli.main", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def _interrupt_after(p, ready):
    """Read stderr until a line containing `ready`, send SIGINT, return (out, err)."""
    seen = ""
    # a process that never prints the line must not block readline() forever: kill it
    watchdog = threading.Timer(120, p.kill)
    watchdog.start()
    try:
        while ready not in seen:
            line = p.stderr.readline()
            if not line:
                break
            seen += line
    finally:
        watchdog.cancel()
    if ready not in seen:
        p.kill()
        out, err = p.communicate()
        raise AssertionError(f"no readiness line {ready!r}: {seen + err}")
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    return out, seen + err


def test_interrupted_solve_reports_its_last_depth():
    p = _start(["solve", "ducks", OPENING])
    out, err = _interrupt_after(p, "info depth 6 ")
    assert p.returncode == 130
    assert "interrupted: unproven after depth" in out
    assert "Traceback" not in err


def test_interrupted_threaded_solve_reports_its_last_depth():
    p = _start(["solve", "ducks", OPENING, "--threads", "2"])
    out, err = _interrupt_after(p, "info depth 6 ")
    assert p.returncode == 130
    assert "interrupted: unproven after depth" in out
    assert "Traceback" not in err


def test_interrupted_solve_still_prints_json():
    p = _start(["solve", "ducks", OPENING, "--json"])
    out, err = _interrupt_after(p, '"depth": 6,')             # its progress as JSON lines
    assert p.returncode == 130 and "Traceback" not in err
    data = json.loads(out)
    assert data["verdict"] == "interrupted" and data["depth"] >= 6 and data["pv"]


@pytest.mark.parametrize("spec", ["mcts:iterations=1000000000", "pimc:worlds=4,iterations=1000000000",
                                  "mcts:iterations=1000000000,threads=2",
                                  "ismcts:iterations=1000000000,threads=3",
                                  "pimc:worlds=4,iterations=1000000000,threads=2",
                                  "mcts:iterations=1000000000,playout=eval,imm=0.5,bias=1,rave=100,grave=20",
                                  "mcts:iterations=1000000000,playout=mast,imm=0.5,rave=100,threads=2",
                                  "pimc:worlds=4,iterations=1000000000,playout=mast",
                                  "ab:depth=150", "ab:depth=150,threads=2", "ab:depth=150,lmr=1"])
def test_interrupted_analysis_prints_the_search_so_far(spec):
    p = _start(["analyse", "ducks", OPENING, "--engine", spec, "--progress"])
    out, err = _interrupt_after(p, "info ")
    assert p.returncode == 130
    assert "best     " in out and ("iterations" in out or "depth" in out)
    assert "interrupted" in err and "Traceback" not in err


@pytest.mark.parametrize("spec", ["auto:time=60", "auto:time=60,threads=2"])
def test_interrupted_auto_analysis_with_its_proof_prints_the_search_so_far(spec):
    # Connect Four: auto's proof follows its main search, or runs beside it on a thread of
    # its own, and Ctrl-C ends both (an eight-stone start whose proof takes about a second)
    p = _start(["analyse", "connect4", "16351371", "--engine", spec, "--progress"])
    out, err = _interrupt_after(p, "info ")
    assert p.returncode == 130
    assert "best     " in out and "iterations" in out
    assert "interrupted" in err and "Traceback" not in err


@pytest.mark.parametrize("spec", ["mcts:iterations=1000000000,chance=open,imm=0.8",
                                  "mcts:iterations=1000000000,chance=open,imm=0.8,threads=2"])
def test_interrupted_open_loop_analysis_below_chance_prints_the_search_so_far(spec):
    # Tweeeet lays rows at random: the open-loop passes go on below its chance nodes
    from roost.core.games import get_game
    p = _start(["analyse", "tweeeet", get_game("tweeeet").bench_position, "--engine", spec, "--progress"])
    out, err = _interrupt_after(p, "info ")
    assert p.returncode == 130
    assert "best     " in out and "iterations" in out
    assert "interrupted" in err and "Traceback" not in err


def test_interrupted_pimc_on_hidden_cards_prints_its_votes():
    from roost.core.games import get_game
    state = get_game("cubirds").start(players=3, seed=2)
    p = _start(["analyse", "cubirds", state.text(), "--engine", "pimc:worlds=3,iterations=1000000000",
                "--progress", "--json"])
    out, err = _interrupt_after(p, '"world": 1,')
    assert p.returncode == 130 and "Traceback" not in err
    data = json.loads(out)
    assert data["iterations"] > 0 and data["stats"] and data["info"]["worlds"] == 1


def _lines_until(p, done):
    """Read stderr until ``done(lines so far)``, then send SIGINT; return (out, err)."""
    lines = []
    watchdog = threading.Timer(120, p.kill)
    watchdog.start()
    try:
        while not done(lines):
            line = p.stderr.readline()
            if not line:
                break
            lines.append(line)
    finally:
        watchdog.cancel()
    if not done(lines):
        p.kill()
        out, err = p.communicate()
        raise AssertionError(f"the search ended before it was stopped: {''.join(lines) + err + out}")
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    return out, "".join(lines) + err


@pytest.mark.parametrize("engine,past_its_budget", [
    # the default (auto: 1 s a move on Feed the Ducks) and mcts (10,000 iterations) report
    # at growing intervals: the 7th line comes after 3.2 s; alpha-beta (depth 6) by depth
    ([], lambda lines: sum(l.startswith("info ") for l in lines) >= 7),
    (["-e", "mcts"], lambda lines: sum(l.startswith("info ") for l in lines) >= 7),
    (["-e", "ab"], lambda lines: any(l.startswith("info depth 7 ") for l in lines)),
])
def test_an_infinite_analysis_prints_its_lines_until_ctrl_c_and_then_reports(engine, past_its_budget):
    p = _start(["analyse", "ducks", "--infinite", *engine])
    out, err = _lines_until(p, past_its_budget)
    assert p.returncode == 0, err
    assert "best     " in out and "pv       " in out and "stopped:" in err
    assert "Traceback" not in err and "interrupted" not in err


def test_an_infinite_analysis_takes_no_budget():
    from click.testing import CliRunner
    from roost.cli.main import cli
    r = CliRunner().invoke(cli, ["analyse", "ducks", "--infinite", "-e", "ab:depth=3"])
    assert r.exit_code == 2 and "--infinite" in r.output and "(depth)" in r.output
