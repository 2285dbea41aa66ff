"""A tournament without clocks ends a move that overruns its hang guard and goes on
(an in-process engine that overruns runs in a worker the arena can end).

The overrunning engine is a real searcher given far more time than the guard: it keeps its
own limit, so only the arena can cut it short.  Each tournament runs in a process of its own
with a timeout, so a guard that does not fire fails the test instead of hanging the suite."""
import json
import sqlite3
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from roost.cli.main import cli

SLOW = "mcts:time=600"          # ten minutes a move: far past any guard or test timeout
GUARD = 2.0
WATCHDOG = 240.0                # the whole tournament, engines' start-up on a busy machine included


def run_tournament(tmp_path, *extra):
    db = tmp_path / "guard.db"
    argv = [sys.executable, "-m", "roost.cli.main", "tournament", "ducks", "-e", SLOW,
            "-e", "random", "--games", "2", "--seed", "3", "--jobs", "1", "--db", str(db),
            "--json", "--no-progress", *extra]
    t0 = time.monotonic()
    r = subprocess.run(argv, capture_output=True, text=True, timeout=WATCHDOG)
    return r, time.monotonic() - t0, db


def test_the_hang_guard_ends_an_overrunning_move_and_the_tournament_goes_on(tmp_path):
    r, seconds, db = run_tournament(tmp_path, "--hang-guard", str(GUARD))
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    assert summary["stored"] == 2                     # both games, the second after the first's forfeit
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT seats, movers, ending FROM games ORDER BY id").fetchall()
    assert len(rows) == 2
    for seats, movers, ending in rows:
        seats, movers, ending = json.loads(seats), json.loads(movers), json.loads(ending)
        slow_seat = seats.index(SLOW)
        assert ending["seat"] == slow_seat and ending["reason"] == "time"
        assert "hang guard" in ending["detail"]
        assert slow_seat not in movers                # its one move never came
    assert seconds < WATCHDOG


def test_a_hang_guard_must_be_a_positive_number_of_seconds():
    for bad in ("0", "-1", "soon"):
        r = CliRunner().invoke(cli, ["tournament", "ducks", "-e", "random", "-e", "random",
                                     "--hang-guard", bad])
        assert r.exit_code == 2 and "--hang-guard" in r.output and "Traceback" not in r.output


def test_the_hang_guard_is_not_part_of_the_stored_configuration():
    # the same games with or without the guard: a tournament resumes under either
    from roost.arena.tournament import TournamentConfig
    from roost.core.games import get_game
    ducks = get_game("ducks")
    plain = TournamentConfig(game=ducks, engines=["random", "random"], games=2)
    guarded = TournamentConfig(game=ducks, engines=["random", "random"], games=2, hang_guard=5.0)
    assert plain.as_dict() == guarded.as_dict()
    assert guarded.settings().hang_guard == 5.0 and plain.settings().hang_guard is None
    with pytest.raises(Exception, match="hang guard"):
        TournamentConfig(game=ducks, engines=["random", "random"], games=2, hang_guard=float("nan"))


def _processes_running(marker):
    """PIDs of this machine's processes whose command line holds ``marker``."""
    import os
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        if marker in cmd and "pytest" not in cmd:
            found.append(int(pid))
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_sigterm_ends_the_engine_programs_of_worker_processes_too(tmp_path):
    # with --jobs 2 the games run in worker processes, each serving its engines from programs
    # in sessions of their own; SIGTERM to the tournament ends the workers, and the programs,
    # their input closed in the middle of a ten-minute search, must end too, not search on
    # orphaned
    import os
    import signal
    spec = "mcts:time=600,c=1.2345"            # a marker no other process carries
    argv = [sys.executable, "-m", "roost.cli.main", "tournament", "ducks", "-e", spec, "-e", "random",
            "--games", "2", "--seed", "3", "--jobs", "2", "--db", str(tmp_path / "t.db"),
            "--hang-guard", "300", "--no-progress"]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while not _processes_running(f"--engine {spec}") and time.monotonic() < deadline:
            assert proc.poll() is None
            time.sleep(0.2)
        assert _processes_running(f"--engine {spec}"), "the engine programs never started"
        time.sleep(5)                          # well into their first search
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
        deadline = time.monotonic() + 10
        while _processes_running(f"--engine {spec}") and time.monotonic() < deadline:
            time.sleep(0.2)
        left = _processes_running(f"--engine {spec}")
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        assert not left, "engine programs outlived the tournament"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
