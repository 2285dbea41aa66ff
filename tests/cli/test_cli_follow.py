"""Games in progress: a running tournament writes each game's moves as they are played, and
`roost replay DB --follow` prints them as they come, then the game's end; a game whose
tournament stops is said to be no longer played, and is played again on resume."""
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

from click.testing import CliRunner

from roost.arena.records import game_in_progress
from roost.cli.main import cli
from roost.web.library import games_in_progress


def _tournament(db, games=6, seconds=(0.08, 0.06)):
    # alpha-beta by time: each game lasts a few seconds whatever the machine's load (less
    # once the searches prove the end: a game may end while a follower starts)
    return subprocess.Popen(
        [sys.executable, "-m", "roost.cli.main", "tournament", "connect4",
         "-e", f"ab:time={seconds[0]}", "-e", f"ab:time={seconds[1]}", "--games", str(games),
         "--seed", "3", "--jobs", "1", "--db", db],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _wait_for_a_game_in_progress(db, plies=2, seconds=120):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if os.path.exists(db):
            try:
                playing, _, _ = game_in_progress(db)
            except Exception:        # the file being created
                playing = None
            if playing is not None and len(playing["moves"]) >= plies:
                return playing
        time.sleep(0.05)
    raise AssertionError("no game in progress appeared")


def _follow(db, *args):
    return subprocess.Popen([sys.executable, "-m", "roost.cli.main", "replay", db, *args, "--follow"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _stop(proc):
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_a_game_followed_to_its_end_shows_every_move_and_its_result(tmp_path):
    db = str(tmp_path / "live.db")
    tournament = _tournament(db)
    try:
        playing = _wait_for_a_game_in_progress(db)
        gid = playing["id"]
        # the browser's reader sees the same game, as a record still without a result
        shown = [g for g in games_in_progress(db) if g["id"] == gid]
        assert shown and shown[0]["live"] and shown[0]["result"] is None
        assert shown[0]["moves"][:len(playing["moves"])] == playing["moves"]
        follower = _follow(db, str(gid))
        out, err = follower.communicate(timeout=240)
        assert follower.returncode == 0, err
    finally:
        _stop(tournament)
    lines = out.splitlines()
    assert lines[0].startswith(f"connect4, game {gid}: p0=")
    moves = [l for l in lines if l.strip()[:1].isdigit() and ". p" in l]
    c = sqlite3.connect(db)
    stored = c.execute("SELECT moves, result FROM games WHERE id = ?", (gid,)).fetchone()
    c.close()
    names = json.loads(stored[0])
    assert [l.split(": ", 1)[1].split()[0] for l in moves] == names      # every move, in order
    assert "result: p0=" in out and out.rstrip().splitlines()[-1].startswith("ended: ")


def test_a_game_whose_tournament_stops_is_no_longer_followed_and_is_played_again(tmp_path):
    db = str(tmp_path / "live.db")
    # moves long enough that the game is still being played when the follower has started
    # and read it, and when the tournament is stopped
    tournament = _tournament(db, games=2, seconds=(0.3, 0.3))
    try:
        _wait_for_a_game_in_progress(db)
        follower = _follow(db)
        # the follower has a game (the first in progress as it looked) before the
        # tournament is stopped
        first = follower.stdout.readline()
        assert "being played" in first
        gid = int(first.split("game ", 1)[1].split(":")[0])
        _stop(tournament)
        out, err = follower.communicate(timeout=60)
    finally:
        _stop(tournament)
    assert follower.returncode == 1
    assert f"game {gid} is no longer being played" in err
    assert games_in_progress(db) == []
    r = CliRunner().invoke(cli, ["replay", db, str(gid), "--follow"])
    assert r.exit_code == 1 and "no game" in r.output          # not stored: it never ended
    again = subprocess.run(
        [sys.executable, "-m", "roost.cli.main", "tournament", "connect4", "-e", "ab:time=0.3",
         "-e", "ab:time=0.3", "--games", "2", "--seed", "3", "--jobs", "1", "--db", db],
        capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    c = sqlite3.connect(db)
    assert c.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 2
    c.close()


def test_follow_refuses_what_it_cannot_watch(tmp_path):
    r = CliRunner().invoke(cli, ["replay", str(tmp_path / "none.db"), "--follow"])
    assert r.exit_code == 1 and "Traceback" not in r.output
    r = CliRunner().invoke(cli, ["replay", "x.db", "--follow", "--ply", "3"])
    assert r.exit_code == 2 and "--follow prints the moves as they come" in r.output
    r = CliRunner().invoke(cli, ["replay", "x.db"])
    assert r.exit_code == 2 and "which game?" in r.output
