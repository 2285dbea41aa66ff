"""Tournaments end to end: backends agree, interruption and resume, SPRT stops, N-seat
games, and a real kill -9 in the middle (src/arena/tournament.py, runner.py)."""
import json
import os
import pickle
import queue
import shlex
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter

import pytest

from roost.arena.match import is_forfeit
from roost.arena.records import read_records, replay
from roost.arena.runner import play_scheduled
from roost.arena.ratings import Sprt
from roost.arena.tournament import TournamentConfig, TournamentError, result_from_db, run_tournament
from roost.arena.work import GameSettings, WorkItem
from roost.core.games import get_game
from roost.search.engines import parse_engine

from tests.arena.toys import RACE  # noqa: E402

DUCKS = get_game("ducks")
VOLATILE = ("seconds", "times", "finished", "worker", "stats")   # stats: seconds summed


def _rows(db):
    rows = _all_rows(db)
    for r in rows:
        for k in VOLATILE:
            r.pop(k)
    return rows


def _all_rows(db):
    c = sqlite3.connect(db)
    c.row_factory = sqlite3.Row
    rows = [dict(r) for r in c.execute("SELECT * FROM games ORDER BY id")]
    c.close()
    return rows


def test_one_process_and_a_pool_play_the_same_games(tmp_path):
    cfg = TournamentConfig(game=DUCKS, engines=["random", "ab:depth=1", "mcts:iterations=50"],
                           games=2, seed=3)
    a = run_tournament(cfg, db=str(tmp_path / "a.db"), jobs=1)
    b = run_tournament(cfg, db=str(tmp_path / "b.db"), jobs=2)
    assert a.finished and b.finished and a.counted == b.counted == 6
    assert _rows(a.db) == _rows(b.db)
    # the workers counted are those that played (on a loaded machine one of the pool's two
    # may play all six games before the other has started): their pids, not this process's
    played_in = {r["worker"] for r in _all_rows(b.db)}
    assert a.workers == 1 and b.workers == len(played_in) >= 1
    assert all(int(w.rsplit(":", 1)[1]) != os.getpid() for w in played_in)
    assert {r["worker"] for r in _all_rows(a.db)} == {f"{socket.gethostname()}:{os.getpid()}"}
    # every row is complete and replays to its final position and result
    for rec in read_records(a.db):
        states = replay(rec)
        assert len(states) == len(rec.moves) + 1 and states[-1][0].is_over


def test_interrupt_then_resume_loses_and_repeats_nothing(tmp_path):
    cfg = TournamentConfig(game=DUCKS, engines=["random", "random"], games=20, seed=9)
    ref = run_tournament(cfg, db=str(tmp_path / "ref.db"), jobs=1)
    seen = []

    def stop_after_five(p):          # Ctrl-C, once, after the fifth game
        seen.append(p.done)
        if p.done >= 5 and len(seen) == 5:
            raise KeyboardInterrupt

    db = str(tmp_path / "t.db")
    part = run_tournament(cfg, db=db, jobs=1, on_progress=stop_after_five, progress_every=0)
    assert part.interrupted and not part.finished
    assert part.stored == 5
    rest = run_tournament(cfg, db=db, jobs=2)
    assert rest.resumed == 5 and rest.played == 15 and rest.finished
    assert _rows(db) == _rows(ref.db)
    again = run_tournament(cfg, db=db, jobs=2)
    assert again.played == 0 and again.counted == 20


def test_interrupting_a_pool_keeps_every_finished_game(tmp_path):
    cfg = TournamentConfig(game=DUCKS, engines=["random", "random"], games=400, seed=2)

    hit = []

    def stop(p):
        if p.done >= 30 and not hit:
            hit.append(p.done)
            raise KeyboardInterrupt

    db = str(tmp_path / "t.db")
    part = run_tournament(cfg, db=db, jobs=2, on_progress=stop, progress_every=0)
    assert part.interrupted and 30 <= part.stored < 400
    assert part.stored == part.played       # all that reached this process was committed
    done = run_tournament(cfg, db=db, jobs=2)
    assert done.finished and done.stored == 400 and done.played == 400 - part.stored
    ids = [r["id"] for r in _rows(db)]
    assert ids == list(range(1, 401))


def test_sprt_stops_at_its_decision_and_counts_the_schedule_prefix(tmp_path):
    cfg = TournamentConfig(game=DUCKS, engines=["ab:depth=1", "random"], games=200, seed=1,
                           sprt=Sprt(elo0=0, elo1=50))
    db = str(tmp_path / "s.db")
    res = run_tournament(cfg, db=db, jobs=2)
    decision, n, llr = res.sprt
    assert decision == "H1" and llr >= cfg.sprt.upper
    assert res.counted == n < 200 and res.stored == res.counted + res.extra
    # the decision replays from the stored games in schedule order: two seats, so the test
    # reads the game pairs (the two games of a round, 2k+1 and 2k+2)
    scores = []
    for rec in sorted(read_records(db), key=lambda r: r.id)[:n]:
        scores.append(rec.result[rec.engines.index(0)])
    assert n % 2 == 0
    pairs = [scores[k] + scores[k + 1] for k in range(0, n, 2)]
    assert cfg.sprt.run_pairs(pairs)[:2] == ("H1", n // 2)
    # a second run plays nothing more and reports the same
    again = run_tournament(cfg, db=db, jobs=2)
    assert again.played == 0 and again.sprt == res.sprt
    assert result_from_db(db).sprt == res.sprt


@pytest.mark.parametrize("engines,players", [(2, 3), (4, 3), (3, 5)])
def test_multiplayer_tournaments_rotate_seats(tmp_path, engines, players):
    cfg = TournamentConfig(game=RACE, engines=["random"] * engines, players=players,
                           games=players, seed=4)
    res = run_tournament(cfg, db=str(tmp_path / "r.db"), jobs=2)
    assert res.finished
    seats = Counter()
    for rec in read_records(res.db):
        assert len(rec.engines) == players
        replay(rec, game=RACE)
        for s, e in enumerate(rec.engines):
            seats[e, s] += 1
    for e in range(engines):
        assert len({seats[e, s] for s in range(players)}) == 1
    assert all(x is not None for x in res.ratings.elo)


def test_bad_configurations(tmp_path):
    with pytest.raises(TournamentError, match="at least two engines"):
        TournamentConfig(game=DUCKS, engines=["random"])
    with pytest.raises(TournamentError, match="use a multiple of 2"):
        TournamentConfig(game=DUCKS, engines=["random", "random"], games=3)
    with pytest.raises(TournamentError, match="played by 2 players, not 3"):
        TournamentConfig(game=DUCKS, engines=["random", "random"], players=3)
    with pytest.raises(TournamentError, match="SPRT compares two engines"):
        TournamentConfig(game=DUCKS, engines=["random"] * 3, sprt=Sprt())
    with pytest.raises(Exception, match="unknown engine"):
        TournamentConfig(game=DUCKS, engines=["random", "stockfish"])
    cfg = TournamentConfig(game=DUCKS, engines=["random", "random"], games=2)
    run_tournament(cfg, db=str(tmp_path / "t.db"), jobs=1)
    other = TournamentConfig(game=DUCKS, engines=["random", "ab:depth=1"], games=2)
    with pytest.raises(Exception, match="holds a different tournament .*engines"):
        run_tournament(other, db=str(tmp_path / "t.db"), jobs=1)


def _still_after(seconds, probe):
    """What ``probe()`` still finds (processes alive, say) once it finds nothing or
    ``seconds`` have passed: processes are reaped a moment after they are told to go."""
    until = time.monotonic() + seconds
    while probe() and time.monotonic() < until:
        time.sleep(0.05)
    return probe()


def _alive(pid):
    try:
        with open(f"/proc/{pid}/status") as fh:
            return "\nState:\tZ" not in fh.read()
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs /proc and kill -9")
def test_kill_minus_nine_mid_tournament_then_resume(tmp_path):
    db = str(tmp_path / "k.db")
    total = 2000
    cmd = [sys.executable, "-m", "roost.cli.main", "tournament", "ducks", "-e", "random",
           "-e", "random", "--games", str(total), "--seed", "5", "--jobs", "2", "--db", db,
           "--no-progress"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    stored = 0
    while time.monotonic() < deadline:
        time.sleep(0.02)
        if os.path.exists(db):
            try:
                c = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)
                stored = c.execute("SELECT count(*) FROM games").fetchone()[0]
                c.close()
            except sqlite3.OperationalError:
                continue
            if stored >= 150:
                break
    assert proc.poll() is None, "the tournament ended before it could be killed"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL

    # what the crash left: a sound database holding only complete games
    c = sqlite3.connect(db)
    assert c.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    rows = c.execute("SELECT id, worker FROM games ORDER BY id").fetchall()
    c.close()
    assert 150 <= len(rows) < total
    recs = read_records(db)
    assert len(recs) == len(rows)
    for rec in recs[::10]:
        replay(rec)
    # the workers notice and stop by themselves
    pids = {int(w.rsplit(":", 1)[1]) for _, w in rows}
    assert not _still_after(10, lambda: any(_alive(p) for p in pids)), "orphaned workers kept running"

    # the same command resumes and finishes (a batch whose commit was being written when
    # the process died may still show up, whole, once SQLite recovers the log: never less)
    done = subprocess.run(cmd + ["--json"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["resumed_from"] >= len(rows)
    assert summary["resumed_from"] + summary["played_now"] == total
    assert summary["counted"] == summary["stored"] == total
    final = _rows(db)
    assert [r["id"] for r in final] == list(range(1, total + 1))
    # the games are the schedule's: replaying a sample here gives the same moves and results
    cfg = TournamentConfig(game=DUCKS, engines=["random", "random"], games=total, seed=5)
    plan = cfg.schedule()
    for r in final[::97] + [final[summary['resumed_from'] - 1], final[summary['resumed_from']]]:
        g = plan[r["id"] - 1]
        rec = play_scheduled(DUCKS, cfg.settings(), cfg.work_item(g))
        assert json.loads(r["move_ids"]) == rec["move_ids"]
        assert json.loads(r["result"]) == rec["result"]
        assert r["seed"] == g.seed


def _wait_until_stored(db, n, proc, bound):
    """The number of games stored in ``db`` once it reaches ``n`` (or the tournament ends,
    or ``bound`` seconds pass: a hang guard, not a speed test)."""
    deadline = time.monotonic() + bound
    stored = 0
    while time.monotonic() < deadline and stored < n and proc.poll() is None:
        time.sleep(0.05)
        try:
            c = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)
            try:
                stored = c.execute("SELECT count(*) FROM games").fetchone()[0]
            finally:
                c.close()
        except sqlite3.OperationalError:        # not created yet, or busy
            continue
    return stored


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs POSIX signals")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_tidily_and_says_what_is_stored(tmp_path, signum):
    db = str(tmp_path / "t.db")
    cmd = [sys.executable, "-m", "roost.cli.main", "tournament", "ducks", "-e", "random",
           "-e", "random", "--games", "4000", "--jobs", "2", "--db", db, "--no-progress"]
    # a shell may start us with SIGINT ignored: the child gets the default back
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        n = _wait_until_stored(db, 50, proc, bound=120)
        assert n >= 50, "the tournament stored no games to interrupt"
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    stored = sqlite3.connect(db).execute("SELECT count(*) FROM games").fetchone()[0]
    assert 50 <= stored < 4000
    assert f"interrupted: {stored} of 4000 games are stored" in out


def _group_members(pgid):
    """The live processes (not zombies) of process group ``pgid``."""
    out = []
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                with open(f"/proc/{p}/stat") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z" and int(fields[2]) == pgid:
                out.append(int(p))
    return out


# a program that makes the pool itself, before run_tournament routes Ctrl-C to its stop
# request: its workers are forked with Python's own SIGINT handler, not the tournament's
_OWN_POOL = """
import sys
from roost.arena.tournament import TournamentConfig, make_backend, run_tournament
from roost.core.games import get_game
cfg = TournamentConfig(game=get_game("ducks"), engines=["random", "random"], games=int(sys.argv[1]))
pool = make_backend(cfg, jobs=2)
told = set()
def ready(p):
    if p.done >= 50 and not told:
        told.add(p.done)
        print("ready", flush=True)
try:
    res = run_tournament(cfg, db=sys.argv[2], backend=pool, on_progress=ready, progress_every=0)
finally:
    pool.close()
print(f"interrupted: {res.stored} of {res.scheduled} games are stored" if res.interrupted else "done")
sys.exit(130 if res.interrupted else 0)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs POSIX signals and /proc")
@pytest.mark.parametrize("how", ["command line", "pool made by the caller"])
def test_ctrl_c_at_a_terminal_reaches_the_workers_too_and_still_stops_tidily(tmp_path, how):
    # Ctrl-C at a terminal sends SIGINT to the whole foreground process group, the workers
    # included: they must leave the decision to the tournament (no traceback of their own,
    # no "worker died"), and every finished game stays stored
    db = str(tmp_path / "t.db")
    total = 4000
    if how == "command line":
        cmd = [sys.executable, "-m", "roost.cli.main", "tournament", "ducks", "-e", "random",
               "-e", "random", "--games", str(total), "--jobs", "2", "--db", db, "--no-progress"]
    else:
        cmd = [sys.executable, "-c", _OWN_POOL, str(total), db]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True,        # a group of its own, as a terminal's job
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        if how == "command line":
            stored = _wait_until_stored(db, 50, proc, bound=120)
            assert stored >= 50, "the tournament stored no games to interrupt"
        else:
            guard = threading.Timer(120, lambda: os.killpg(proc.pid, signal.SIGKILL))
            guard.start()                          # a script that never says "ready" is killed
            try:
                line = proc.stdout.readline()
            finally:
                guard.cancel()
            assert line == "ready\n", line + proc.stderr.read()
        workers = [p for p in _group_members(proc.pid) if p != proc.pid]
        assert len(workers) >= 2, "the workers are not in the tournament's process group"
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    stored = sqlite3.connect(db).execute("SELECT count(*) FROM games").fetchone()[0]
    assert 50 <= stored < total
    assert f"interrupted: {stored} of {total} games are stored" in out
    assert not _still_after(20, lambda: _group_members(proc.pid)), "processes of the tournament outlived it"


def test_a_damaged_row_is_reported_not_a_traceback(tmp_path):
    cfg = TournamentConfig(game=DUCKS, engines=["random", "random"], games=2)
    db = str(tmp_path / "t.db")
    run_tournament(cfg, db=db, jobs=1)
    c = sqlite3.connect(db)
    c.execute("UPDATE games SET result = 'oops' WHERE id = 2")
    c.commit()
    c.close()
    with pytest.raises(Exception, match="the row of game 2 is damaged"):
        run_tournament(cfg, db=db, jobs=1)
    with pytest.raises(Exception, match="the row of game 2 is damaged"):
        read_records(db)


def test_an_interrupted_sprt_resumes_to_the_same_decision(tmp_path):
    cfg = TournamentConfig(game=DUCKS, engines=["ab:depth=1", "random"], games=200, seed=6,
                           sprt=Sprt(elo0=0, elo1=50))
    whole = run_tournament(cfg, db=str(tmp_path / "whole.db"), jobs=1)
    assert whole.sprt[0] == "H1" and whole.counted > 6
    db = str(tmp_path / "s.db")

    stopped = []

    def stop_after_five(p):          # Ctrl-C, once
        if p.done >= 5 and not stopped:
            stopped.append(p.done)
            raise KeyboardInterrupt

    part = run_tournament(cfg, db=db, jobs=1, on_progress=stop_after_five, progress_every=0)
    assert part.interrupted and part.stored == 5 and part.sprt[0] == ""
    assert result_from_db(db).sprt == ("", 5, part.sprt[2])
    rest = run_tournament(cfg, db=db, jobs=2)
    assert rest.resumed == 5 and rest.sprt == whole.sprt and rest.counted == whole.counted
    assert _rows(db)[:whole.counted] == _rows(whole.db)[:whole.counted]


def _flocks_held(pid, inode):
    """The descriptors of process ``pid`` through which it holds a flock on ``inode``."""
    held = []
    for fd in os.listdir(f"/proc/{pid}/fdinfo"):
        try:
            info = open(f"/proc/{pid}/fdinfo/{fd}").read()
        except OSError:
            continue
        for line in info.splitlines():
            if line.startswith("lock:") and "FLOCK" in line and line.split()[-3].endswith(f":{inode}"):
                held.append(int(fd))
    return held


def _forked_workers():
    """This process's children forked from it (the pool's workers; not, say, a resource
    tracker some earlier test started)."""
    me = os.getpid()
    with open("/proc/self/cmdline", "rb") as fh:
        mine = fh.read()
    out = []
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                with open(f"/proc/{p}/stat") as fh:
                    parent = int(fh.read().rsplit(")", 1)[1].split()[1])
                with open(f"/proc/{p}/cmdline", "rb") as fh:
                    if parent == me and fh.read() == mine:
                        out.append(int(p))
            except (OSError, IndexError, ValueError):
                pass
    return out


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_forked_workers_do_not_hold_the_database_lock(tmp_path):
    # the lock is a flock on the database: a worker that kept the descriptor would hold it
    # after the tournament died, and a resume would be refused as "in use"
    cfg = TournamentConfig(game=DUCKS, engines=["random", "random"], games=400, seed=1)
    db = str(tmp_path / "t.db")
    seen = {}

    def look(p):
        if seen or p.done < 20:
            return
        inode = os.stat(db).st_ino
        seen["parent"] = _flocks_held(os.getpid(), inode)
        seen["workers"] = {c: _flocks_held(c, inode) for c in _forked_workers()}

    res = run_tournament(cfg, db=db, jobs=2, on_progress=look, progress_every=0)
    assert res.finished
    assert seen["parent"], "the tournament's own lock is not visible in /proc: nothing checked"
    assert len(seen["workers"]) >= 2
    assert all(held == [] for held in seen["workers"].values()), seen


def test_a_dead_worker_ends_the_run_saying_what_is_stored(tmp_path):
    cfg = TournamentConfig(game=DUCKS, engines=["random", "random"], games=400, seed=3)
    db = str(tmp_path / "t.db")
    killed = []

    def kill_one(p):
        if not killed and p.done >= 10:
            victim = _forked_workers()[0]
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)

    with pytest.raises(Exception, match=r"a worker process died \(exit code -9\): (\d+) of 400 "
                       r"games are stored in .*t\.db; run the same command to resume") as info:
        run_tournament(cfg, db=db, jobs=2, on_progress=kill_one, progress_every=0)
    stored = sqlite3.connect(db).execute("SELECT count(*) FROM games").fetchone()[0]
    assert f": {stored} of 400 games" in str(info.value)
    done = run_tournament(cfg, db=db, jobs=2)
    assert done.finished and done.resumed == stored and done.stored == 400


def test_a_game_that_fails_in_a_worker_is_named_and_not_offered_for_resuming(tmp_path, monkeypatch):
    # a game that raised would raise again, so
    # the message names it and does not say "run the same command to resume", which it says
    # when the games stopped for a reason outside them (a worker lost)
    import roost.arena.runner as runner
    from roost.arena.runner import ArenaError, WorkersLost

    def broken(game, settings, item, *args, **kwargs):
        if item.id == 1:
            raise ValueError("a bug in a game")
        return play_scheduled(game, settings, item, *args, **kwargs)

    monkeypatch.setattr(runner, "play_scheduled", broken)      # the workers fork with it
    cfg = TournamentConfig(game=DUCKS, engines=["random", "random"], games=4, seed=3)
    with pytest.raises(ArenaError) as e:
        run_tournament(cfg, db=str(tmp_path / "f.db"), jobs=2)
    assert not isinstance(e.value, WorkersLost)
    assert "game 1 failed in a worker: ValueError: a bug in a game" in str(e.value)
    assert "resume" not in str(e.value)


def test_a_record_times_its_game_with_the_wall_clock():
    # the stored duration lies between zero and the time the call took (found by mutation:
    # a sign flipped in the duration went unnoticed)
    cfg = TournamentConfig(game=DUCKS, engines=["random", "random"], games=2, seed=5)
    g = cfg.schedule()[0]
    t0 = time.perf_counter()
    rec = play_scheduled(DUCKS, cfg.settings(), cfg.work_item(g))
    took = time.perf_counter() - t0
    assert 0 < rec["seconds"] <= took


def test_a_chunk_returns_encoded_rows_and_leaves_no_engine_behind():
    # play_chunk is what a Dask worker runs; the worker outlives the tournament
    from roost.arena import runner
    cfg = TournamentConfig(game=DUCKS, engines=["random", "random"], games=4, seed=5)
    items = [cfg.work_item(g) for g in cfg.schedule()[:2]]
    guarded = GameSettings(hang_guard=30.0)  # a hang guard: engines kept in wrappers to close
    out = runner.play_chunk(DUCKS, guarded, items)
    assert [r["id"] for r in out] == [items[0].id, items[1].id]
    assert all("_row" in r and "moves" not in r for r in out)
    assert not [k for k in runner._ENGINE_CACHE if k[3] == 30.0]


def test_dask_chunks_hold_about_the_target_time_of_games():
    from roost.arena.runner import _Chunker
    chunker = _Chunker(target=1.0, most=50)
    assert chunker.size() == 1                   # nothing seen yet: one game, to learn its time
    for _ in range(4):
        chunker.seen(0.1)
    assert chunker.size() == 10                  # 1 s of 0.1 s games
    chunker.seen(0.0)
    chunker.seen(0.0)
    assert chunker.size() == 15                  # mean 0.4 / 6 s
    for _ in range(100):
        chunker.seen(0.0)
    assert chunker.size() == 50                  # never more than ``most``
    slow = _Chunker(target=1.0, most=50)
    slow.seen(30.0)
    assert slow.size() == 1                      # games longer than the target: one a chunk


def test_the_in_process_backend_stops_when_asked_and_closes_its_engines():
    from roost.arena import runner
    assert runner._take(iter(range(10)), 3) == [0, 1, 2]
    cfg = TournamentConfig(game=DUCKS, engines=["random", "random"], games=4, seed=5)
    items = [cfg.work_item(g) for g in cfg.schedule()]
    backend = runner.InProcess(DUCKS, GameSettings(hang_guard=30.0))
    assert backend.workers == 1
    seen = []
    backend.play(iter(items), lambda rec: seen.append(rec["id"]) or len(seen) == 2)   # no stop given
    assert seen == [items[0].id, items[1].id]          # True from on_record: no more games
    backend.close()
    assert not [k for k in runner._ENGINE_CACHE if k[3] == 30.0]


BOT = os.path.join(os.path.dirname(os.path.dirname(__file__)), "protocol", "bots", "bot.py")


def _children():
    out = set()
    for task in os.listdir("/proc/self/task"):
        with open(f"/proc/self/task/{task}/children") as fh:
            out.update(int(p) for p in fh.read().split())
    return out


def test_a_program_seated_twice_runs_twice_is_kept_between_games_and_told_to_quit(tmp_path, monkeypatch):
    # one program a seat (not a spare that never plays), the same ones for the next game,
    # and at the end each is asked to quit rather than killed (found by mutation: a third
    # program started, and close_engines leaving the ending to the garbage collector)
    from roost.arena import runner
    monkeypatch.setattr(runner, "_ENGINE_CACHE", {})
    heard = tmp_path / "heard.txt"
    spec = "cmd:" + " ".join(shlex.quote(w) for w in [sys.executable, BOT, "--record", str(heard)])
    try:
        for gid in (1, 2):
            rec = play_scheduled(DUCKS, GameSettings(), WorkItem(gid, 0, 0, (0, 0), [spec, spec], gid))
            assert not is_forfeit(rec["ending"]) and rec["plies"] > 0
    finally:
        runner.close_engines()
    lines = heard.read_text().splitlines()
    assert sum(line.split()[0] == "roost" for line in lines) == 2      # two handshakes
    assert sum(line.split()[0] == "newgame" for line in lines) == 4     # two games each
    assert lines.count("quit") == 2


def test_one_engine_is_built_a_seat_and_kept_for_the_next_game(monkeypatch):
    # an engine may hold a large table from the start: no spare is built beside the seats'
    # (found by mutation: a count off by one built a third, idle, engine)
    from roost.arena import runner
    monkeypatch.setattr(runner, "_ENGINE_CACHE", {})
    built = []

    def counting(spec, *args):
        built.append(spec)
        return parse_engine(spec)
    monkeypatch.setattr(runner, "arena_engine", counting)
    for gid in (1, 2):
        play_scheduled(DUCKS, GameSettings(), WorkItem(gid, 0, 0, (0, 0), ["ab:depth=1"] * 2, gid))
    assert built == ["ab:depth=1", "ab:depth=1"]


def test_a_record_keeps_each_move_time_to_the_microsecond():
    # the stored time per move is in seconds, rounded to the microsecond (as the help says)
    rec = play_scheduled(DUCKS, GameSettings(), WorkItem(1, 0, 0, (0, 1), ["ab:depth=1", "random"], 7))
    assert len(rec["times"]) == rec["plies"] > 10
    assert rec["times"] == [round(t, 6) for t in rec["times"]]
    assert all(t >= 0 for t in rec["times"]) and any(t > 0 for t in rec["times"])


def test_work_items_and_settings_cross_to_worker_processes_unchanged():
    # pool workers and Dask workers receive them pickled: the copies compare equal and play
    # the same game as the originals, the settings' random opening plies included
    from roost.arena import runner
    settings = GameSettings(opening_plies=2)
    item = WorkItem(1, 0, 0, (0, 1), ["random", "ab:depth=1"], 3, opening_seed=11)
    copies = pickle.loads(pickle.dumps((settings, item)))
    assert copies == (settings, item)
    full = play_scheduled(DUCKS, settings, item)
    rec = play_scheduled(DUCKS, *copies)
    assert (rec["start"], rec["move_ids"], rec["result"]) == \
        (full["start"], full["move_ids"], full["result"])
    assert full["start"] != play_scheduled(DUCKS, GameSettings(), item)["start"]   # two random plies
    runner.close_engines()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("guard", [None, 30.0], ids=["a clock", "a hang guard"])
def test_with_a_clock_or_a_hang_guard_roost_engines_play_in_worker_processes(monkeypatch, guard):
    # a search that overran its clock in the tournament's own process could not be stopped:
    # the arena can end a worker whose move overruns; without a clock the hang guard is what
    # tells it to (found by mutation: the clock's condition turned round played them here,
    # and a start's guard read as None)
    from roost.arena import runner
    from roost.arena.match import TimeControl
    settings = GameSettings(tc=TimeControl(30.0, 0.0) if guard is None else None, hang_guard=guard)
    monkeypatch.setattr(runner, "_ENGINE_CACHE", {})
    before = _children()
    try:
        rec = play_scheduled(DUCKS, settings, WorkItem(1, 0, 0, (0, 1), ["random", "ab:depth=1"], 3))
        assert not is_forfeit(rec["ending"])
        workers = _children() - before
        assert len(workers) == 2
    finally:
        runner.close_engines()
    assert not _still_after(20, lambda: _children() & workers)


class _WorkerQueues:
    """A pool worker's two queues, in this process: what its gets return in turn (a chunk,
    None to close, or "empty": a wait that timed out), and what it sends back."""

    def __init__(self, gets):
        self.gets, self.timeouts, self.sent, self.join_cancelled = list(gets), [], [], False

    def get(self, timeout=None):
        self.timeouts.append(timeout)
        got = self.gets.pop(0)
        if got == "empty":
            raise queue.Empty
        return got

    def put(self, message):
        self.sent.append(message)

    def cancel_join_thread(self):
        self.join_cancelled = True


def test_a_pool_worker_waits_in_short_steps_sends_rows_and_leaves_without_waiting_on_them():
    # a worker waits for chunks in half-second steps (so it notices a dead tournament soon),
    # sends each game's row (not the whole record), and when told to close, or when its
    # tournament is gone, it leaves without waiting for anyone to read what it sent (found by
    # mutation: none of this was checked); the worker's loop runs here, with queues of its own
    from roost.arena import runner
    items = [WorkItem(1, 0, 0, (0, 1), ["random", "random"], 1),
             WorkItem(2, 0, 0, (1, 0), ["random", "random"], 2)]
    told = _WorkerQueues(["empty", items[:1], "empty", items[1:], None, "never read"])
    orphan = _WorkerQueues([items])
    saved = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        runner._worker_main(told, told, DUCKS, GameSettings(), os.getppid(), ())
        runner._worker_main(orphan, orphan, DUCKS, GameSettings(), -1, ())     # its parent is not ours
    finally:
        for s, h in saved.items():
            signal.signal(s, h)
    results = [m for m in told.sent if m[0] != "live"]
    assert [(kind, rec["id"]) for kind, rec in results] == [("ok", 1), ("ok", 2)]
    assert all("_row" in rec and "moves" not in rec for _, rec in results)
    # the games in progress were reported too, each before its result: its first move at once
    live = [m for m in told.sent if m[0] == "live"]
    first = {}
    for m in live:
        first.setdefault(m[1], m[2])
    assert first == {1: 0, 2: 0}
    assert told.sent.index(next(m for m in live if m[1] == 2)) > told.sent.index(results[0])
    assert len(told.timeouts) == 5 and all(0 < t <= 0.5 for t in told.timeouts)
    assert told.gets == ["never read"] and told.join_cancelled
    assert orphan.sent == [] and orphan.gets == [items] and orphan.join_cancelled


def test_closing_a_pool_ends_a_worker_stuck_in_a_game_after_a_few_seconds(monkeypatch):
    # told to close, an idle worker leaves by itself; one that does not finish its game
    # within the few seconds the close allows is terminated (never waited for without end)
    from roost.arena import runner

    def stuck(game, settings, item, *args, **kwargs):
        time.sleep(3600)

    monkeypatch.setattr(runner, "play_scheduled", stuck)      # the workers fork with it
    pool = runner.LocalPool(DUCKS, GameSettings(), 2)
    pool.task_q.put([WorkItem(1, 0, 0, (0, 1), ["random", "random"], 1)])    # taken before the close's
    closing = threading.Thread(target=pool.close, daemon=True)       # None for each worker
    closing.start()
    closing.join(120)                                      # a hang guard, not a speed test
    assert not closing.is_alive(), "the pool's close waited for its stuck worker"
    if sys.platform.startswith("linux"):          # reaped: not even a zombie is left
        assert [p.pid for p in pool.procs if os.path.exists(f"/proc/{p.pid}")] == []
    assert sorted(p.exitcode for p in pool.procs) == [-signal.SIGTERM, 0]


_POOL_LEFT_OPEN = """
import sys
from roost.arena.tournament import TournamentConfig, make_backend, run_tournament
from roost.core.games import get_game
cfg = TournamentConfig(game=get_game("ducks"), engines=["random", "random"], games=20)
pool = make_backend(cfg, jobs=2)
res = run_tournament(cfg, db=sys.argv[1], backend=pool)
print("finished" if res.finished else "unfinished", flush=True)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_program_that_leaves_its_pool_open_still_exits(tmp_path):
    # the pool's workers wait for work as long as the tournament's process lives: they must
    # not keep a program that forgot pool.close() from exiting (found by mutation: workers
    # that were not daemons were waited for at exit, for ever)
    proc = subprocess.Popen([sys.executable, "-c", _POOL_LEFT_OPEN, str(tmp_path / "t.db")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=120)      # a hang guard: it takes a few seconds
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail("a program that left its pool open did not exit")
    assert proc.returncode == 0 and out == "finished\n", err
    assert not _still_after(20, lambda: _group_members(proc.pid)), "workers outlived the program"


class _FakePoolQueues:
    """The pool's two queues without processes: every chunk put is "played" at once, one
    game per get, oldest first; it keeps the most games ever waiting or being played."""

    def __init__(self, seconds):
        self.seconds, self.waiting, self.most, self.chunks = seconds, [], 0, []
        self.first_get = None                # the chunks put before the first result came

    def put(self, chunk):
        self.chunks.append(len(chunk))
        self.waiting.extend(chunk)
        self.most = max(self.most, len(self.waiting))

    def get(self, timeout=None):
        if self.first_get is None:
            self.first_get = list(self.chunks)
        item = self.waiting.pop(0)
        return ("ok", {"id": item.id, "seconds": self.seconds})


def test_a_pool_keeps_a_few_chunks_a_worker_in_flight_and_no_more():
    # fast games go in chunks (about 50 ms of games each, at most 64), and each worker has
    # about two chunks waiting, so none idles between chunks, yet a stop finds few games in
    # flight (found by mutation: a bound that allowed a single chunk for all workers)
    from roost.arena import runner
    for seconds, size in [(0.0008, 62), (0.0001, 64)]:
        pool = object.__new__(runner.LocalPool)
        fake = _FakePoolQueues(seconds)
        pool.workers, pool.procs, pool.task_q, pool.result_q = 2, [], fake, fake
        seen = []
        pool.play(iter(WorkItem(i, 0, 0, (0, 1), ["random", "random"], i) for i in range(1, 3001)),
                  lambda rec: seen.append(rec["id"]))
        assert seen == list(range(1, 3001))                 # every game once, in order
        assert fake.first_get == [1, 1, 1, 1]               # untimed: one game a chunk, two a worker
        assert max(fake.chunks) == size
        assert 2 * 2 * size <= fake.most < 2 * 2 * size + size    # two chunks a worker, no more


def test_a_pool_hands_out_no_more_work_once_told_to_stop():
    # on_record returns True once the tournament has its answer (an SPRT decision): the
    # games already handed out still come back, no new ones go out
    from roost.arena import runner
    pool = object.__new__(runner.LocalPool)
    fake = _FakePoolQueues(0.0008)
    pool.workers, pool.procs, pool.task_q, pool.result_q = 2, [], fake, fake
    seen = []
    pool.play(iter(WorkItem(i, 0, 0, (0, 1), ["random", "random"], i) for i in range(1, 3001)),
              lambda rec: seen.append(rec["id"]) or len(seen) >= 100)
    handed_out = sum(fake.chunks)
    assert 100 <= handed_out < 100 + 2 * 2 * 62 + 62 and seen == list(range(1, handed_out + 1))


def test_a_pool_tournament_asks_its_programs_to_quit_at_the_end(tmp_path):
    # the workers are told to finish, and close their engines: an external program is asked
    # to quit rather than left to find its input closed (found by mutation: a normal close
    # that terminated the workers)
    heard = tmp_path / "heard.txt"
    spec = "cmd:" + " ".join(shlex.quote(w) for w in [sys.executable, BOT, "--record", str(heard)])
    cfg = TournamentConfig(game=DUCKS, engines=[spec, "random"], games=4, seed=2)
    res = run_tournament(cfg, db=str(tmp_path / "t.db"), jobs=2)
    assert res.finished and res.stored == 4
    lines = heard.read_text().splitlines()
    started = sum(line.split()[0] == "roost" for line in lines)
    assert started >= 1 and lines.count("quit") == started
