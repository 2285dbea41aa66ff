"""Runs every perft suite in tests/perft/*.jsonl (one JSON object a line: game, position,
{depth: leaves}, source).  On a mismatch the failure message carries the divide, so the
faulty subtree can be found by hand, as with chess perft suites."""
import json
import pathlib

import pytest

from roost.core.games import get_game

SUITES = sorted((pathlib.Path(__file__).parent / "perft").glob("*.jsonl"))


def _cases():
    for path in SUITES:
        for lineno, line in enumerate(path.read_text().splitlines(), 1):
            if line.strip() and not line.startswith("#"):
                entry = json.loads(line)
                for depth, leaves in entry["perft"].items():
                    yield pytest.param(entry["game"], entry["position"], int(depth), leaves,
                                       id=f"{path.stem}:{lineno}:d{depth}")


@pytest.mark.parametrize("game,position,depth,expected", list(_cases()))
def test_perft(game, position, depth, expected):
    state = get_game(game).parse(position)
    got = state.perft(depth)
    if got != expected:
        divide = "\n".join(f"  {name}: {n}" for name, n in state.divide(depth))
        pytest.fail(f"perft({depth}) = {got}, expected {expected}\ndivide:\n{divide}")


def test_there_is_a_suite_for_every_game():
    from roost.core.games import all_games
    games_with_suites = {json.loads(l)["game"] for p in SUITES for l in p.read_text().splitlines()
                         if l.strip() and not l.startswith("#")}
    assert {g.name for g in all_games()} <= games_with_suites


# ---------------------------------------------------------------------------- Ctrl-C
# A native perft must notice Ctrl-C inside a root move.  A SIGALRM handler that
# raises stands in for Ctrl-C (Python raises KeyboardInterrupt from its SIGINT handler the
# same way); each count below would run for minutes (ducks, leaves: the games' own native
# perft; cubirds: the generic one in state.pyx).
DEEP = [("ducks", None, 9), ("leaves", None, 6), ("cubirds", None, 12)]


class Alarm(Exception):
    pass


def _raise_alarm(signum, frame):
    raise Alarm()


@pytest.mark.parametrize("game,position,depth", DEEP, ids=[d[0] for d in DEEP])
def test_a_signal_handler_stops_a_native_perft(game, position, depth):
    import signal
    import time
    info = get_game(game)
    state = info.parse(position) if position else info.parse(info.bench_position)
    old = signal.signal(signal.SIGALRM, _raise_alarm)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        t0 = time.perf_counter()
        with pytest.raises(Alarm):
            state.perft(depth)
        assert time.perf_counter() - t0 < 10, "the perft ran on long after the signal"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    # nothing is left over: the next count runs to the end and is right
    assert state.perft(1) == len(state.legal()) or state.is_chance


def test_ctrl_c_stops_the_perft_command_inside_a_root_move():
    # `roost perft ducks 64` used to ignore Ctrl-C until a root move was counted (never)
    import signal
    import subprocess
    import sys
    p = subprocess.Popen([sys.executable, "-m", "roost.cli.main", "perft", "ducks", "64"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert "counting perft(64)" in p.stderr.readline()     # the readiness line
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        p.kill()
    assert p.returncode == 130
    assert "interrupted after 0 of 48 moves: 0 leaves so far" in out
    assert "Traceback" not in err
