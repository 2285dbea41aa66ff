"""The Dask backend against real clusters on loopback: a scheduler and worker processes
started by these tests (killed by PID), and a local cluster through --dask-local.  Games
run in the workers' processes, land in the same SQLite database as one process would
write, and resume the same way; when the cluster fails the tournament says what happened:
a lost scheduler, no workers at all for a while, the workers that really
played.  Needs the `distributed` extra (part of the test extra)."""
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from contextlib import contextmanager

import pytest

distributed = pytest.importorskip("distributed")

from click.testing import CliRunner  # noqa: E402

from roost.arena.runner import DaskBackend, quiet_dask_logs  # noqa: E402
from roost.arena.tournament import TournamentConfig, run_tournament, summary_text  # noqa: E402
from roost.arena.work import GameSettings, WorkItem  # noqa: E402
from roost.cli.main import cli  # noqa: E402
from roost.core.games import get_game  # noqa: E402

DUCKS = get_game("ducks")
HOST = socket.gethostname()


# Generous bounds for a loaded machine: the slowest of these waits takes a few seconds alone.
# an in-process cluster with no dashboard: its scheduler's HTTP server on a free port (with
# dashboard_address=None alone it took 8787, and warned when that was in use)
NO_DASHBOARD = {"dashboard_address": None,
                "scheduler_kwargs": {"dashboard": False, "dashboard_address": "127.0.0.1:0"}}
START_BOUND = 120          # a cluster up, or workers joining or leaving it
RUN_BOUND = 240            # one tournament on the cluster


@contextmanager
def bounded(seconds, what):
    """Fail the test, naming ``what``, when the block runs over ``seconds``.  A Dask tournament
    with no worker waits for one without end (by design: one may join), so workers that
    vanish would hang the test.  At the bound the block is stopped the way a user stops it:
    SIGINT, which the tournament handles at a point where nothing is held (and which raises
    KeyboardInterrupt anywhere else, caught here)."""
    fired = threading.Event()

    def fire():
        fired.set()
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(seconds, fire)
    timer.daemon = True
    timer.start()
    try:
        try:
            yield
        finally:
            timer.cancel()
            timer.join()
            if fired.is_set():
                time.sleep(0.2)            # the SIGINT lands here if the block ended first
    except KeyboardInterrupt:
        if not fired.is_set():
            raise
    if fired.is_set():
        pytest.fail(f"{what} did not finish within {seconds} s (Dask workers gone or stuck?)",
                    pytrace=False)


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """A Dask scheduler and workers (no nanny: each worker is the process we started) on
    127.0.0.1, their output in files under ``folder``.  The workers start together with
    the scheduler (they wait for it), which saves a few seconds a cluster."""

    def __init__(self, folder, workers=2):
        self.folder = str(folder)
        self.procs = []
        self.address = f"tcp://127.0.0.1:{_free_port()}"
        self.scheduler = self._start("scheduler", [
            "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
            "--port", self.address.rsplit(":", 1)[1], "--no-dashboard"])
        self.workers = [self.add_worker() for _ in range(workers)]
        self.wait_for(workers)

    def _start(self, name, args):
        log = open(os.path.join(self.folder, f"{name}-{len(self.procs)}.log"), "w")
        p = subprocess.Popen([sys.executable, "-m", *args], stdout=log, stderr=log)
        self.procs.append(p)
        return p

    def add_worker(self):
        return self._start("worker", ["distributed.cli.dask_worker", self.address, "--nthreads", "1",
                                      "--no-nanny", "--host", "127.0.0.1", "--no-dashboard",
                                      "--death-timeout", "30"])

    def wait_for(self, n, timeout=START_BOUND):
        with bounded(timeout, f"the cluster reaching {n} workers"), \
                distributed.Client(self.address, timeout="60s") as c:
            while sum(c.nthreads(callback_timeout=10).values()) != n:
                assert self.scheduler.poll() is None, "the scheduler did not start"
                time.sleep(0.05)

    @staticmethod
    def kill(proc):
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)

    def ensure(self, n):
        """Exactly ``n`` live workers (tests sharing a cluster each start from what they need)."""
        live = [w for w in self.workers if w.poll() is None]
        for w in live[n:]:
            self.kill(w)
        self.workers = live[:n] + [self.add_worker() for _ in range(n - len(live))]
        self.wait_for(n)
        return self.workers

    def pids(self):
        return {p.pid for p in self.procs if p is not self.scheduler}

    def close(self):
        for p in self.procs:
            if p.poll() is None:
                p.kill()
        for p in self.procs:
            p.wait(10)


@pytest.fixture(scope="module")
def shared(tmp_path_factory):
    """One cluster for the tests that can share it: each asks for the workers it needs."""
    c = Cluster(tmp_path_factory.mktemp("dask"))
    yield c
    c.close()


def _rows(db):
    c = sqlite3.connect(db)
    rows = c.execute("SELECT id, engines, seats, seed, start, moves, move_ids, movers, result, "
                     "final FROM games ORDER BY id").fetchall()
    c.close()
    return rows


def _worker_pids(db):
    c = sqlite3.connect(db)
    workers = [w for (w,) in c.execute("SELECT worker FROM games")]
    c.close()
    assert all(w.rsplit(":", 1)[0] == HOST for w in workers)
    return {int(w.rsplit(":", 1)[1]) for w in workers}


def test_games_run_in_the_workers_processes_and_resume(tmp_path, shared):
    cluster = shared
    cluster.ensure(2)
    cfg = TournamentConfig(game=DUCKS, engines=["random", "ab:depth=1"], games=10, seed=8)
    with bounded(RUN_BOUND, "the reference tournament"):
        ref = run_tournament(cfg, db=str(tmp_path / "ref.db"), jobs=1)
    db = str(tmp_path / "dask.db")
    stop_at = []

    def interrupt(p):                      # Ctrl-C once, part way through
        if p.done >= 3 and not stop_at:
            stop_at.append(p.done)
            raise KeyboardInterrupt

    backend = DaskBackend(cfg.game, cfg.settings(), scheduler=cluster.address)
    try:
        assert backend.workers == 2
        with bounded(RUN_BOUND, "the tournament interrupted part way"):
            part = run_tournament(cfg, db=db, backend=backend, on_progress=interrupt, progress_every=0)
        assert part.interrupted and 3 <= part.stored < 10
        with bounded(RUN_BOUND, "the resumed tournament"):
            rest = run_tournament(cfg, db=db, backend=backend)
    finally:
        backend.close()
    assert rest.finished and rest.resumed == part.stored and rest.played == 10 - part.stored
    assert rest.backend == f"dask ({cluster.address})"
    assert _rows(db) == _rows(ref.db)
    played = _worker_pids(db)
    assert played <= cluster.pids() and os.getpid() not in played


def test_the_scheduler_option_through_the_command_line(tmp_path, shared):
    cluster = shared
    cluster.ensure(2)
    db = str(tmp_path / "s.db")
    with bounded(RUN_BOUND, "roost tournament --scheduler"):
        r = CliRunner().invoke(cli, ["tournament", "ducks", "-e", "random", "-e", "ab:depth=1",
                                     "--games", "20", "--scheduler", cluster.address, "--db", db,
                                     "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["backend"] == f"dask ({cluster.address})" and d["stored"] == 20 and d["finished"]
    played = _worker_pids(db)
    assert played <= cluster.pids() and os.getpid() not in played
    assert d["workers"] == len(played)


def test_the_summary_counts_the_workers_that_played(tmp_path, shared):
    cluster = shared
    cluster.ensure(2)
    cfg = TournamentConfig(game=DUCKS, engines=["random", "ab:depth=1"], games=20, seed=4)
    backend = DaskBackend(cfg.game, cfg.settings(), scheduler=cluster.address)
    try:
        assert backend.workers == 2
        cluster.kill(cluster.workers[0])       # one of the two dies before playing a game
        cluster.wait_for(1)
        with bounded(RUN_BOUND, "the tournament on the one worker left"):
            res = run_tournament(cfg, db=str(tmp_path / "c.db"), backend=backend)
    finally:
        backend.close()
    assert res.finished and _worker_pids(res.db) == {cluster.workers[1].pid}
    assert res.workers == 1
    assert f"on 1 worker ({res.backend})" in summary_text(res)


def test_dask_local_through_the_command_line(tmp_path):
    import warnings
    db = str(tmp_path / "l.db")
    taken = socket.socket()                 # distributed's default HTTP port, taken: no
    try:                                    # warning about it (nor any other) reaches the user
        taken.bind(("127.0.0.1", 8787))
        taken.listen()
    except OSError:
        pass                                # taken already
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with bounded(RUN_BOUND, "roost tournament --dask-local 2"):
                r = CliRunner().invoke(cli, ["tournament", "ducks", "-e", "random", "-e", "ab:depth=1",
                                             "--games", "10", "--dask-local", "2", "--db", db, "--json"])
    finally:
        taken.close()
    assert r.exit_code == 0, r.output
    assert [str(w.message) for w in caught if "distributed" in w.filename] == []
    d = json.loads(r.output)
    assert d["backend"] == "dask (local cluster, 2 workers)" and d["stored"] == 10
    played = _worker_pids(db)
    assert played and os.getpid() not in played
    assert d["workers"] == len(played) <= 2


def test_a_lost_scheduler_is_named_with_what_is_stored(tmp_path):
    cluster = Cluster(tmp_path, workers=1)
    db = str(tmp_path / "lost.db")
    cmd = [sys.executable, "-m", "roost.cli.main", "tournament", "ducks", "-e", "ab:depth=1",
           "-e", "random", "--games", "4000", "--scheduler", cluster.address, "--db", db,
           "--no-progress"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        n = 0
        while n < 10:
            assert time.monotonic() < deadline and proc.poll() is None, "no games were stored"
            time.sleep(0.05)
            try:
                c = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)
                n = c.execute("SELECT count(*) FROM games").fetchone()[0]
                c.close()
            except sqlite3.OperationalError:
                pass
        cluster.kill(cluster.scheduler)
        try:
            out, err = proc.communicate(timeout=RUN_BOUND)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the tournament did not stop within {RUN_BOUND} s of losing its scheduler",
                        pytrace=False)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        cluster.close()
    stored = sqlite3.connect(db).execute("SELECT count(*) FROM games").fetchone()[0]
    assert proc.returncode == 1, err
    assert err.strip() == (f"Error: lost the Dask scheduler at {cluster.address}: {stored} of "
                           f"4000 games are stored in {db}; run the same command to resume")
    assert 10 <= stored < 4000 and out == ""


def test_no_workers_for_a_while_is_said_then_the_tournament_carries_on(tmp_path, shared):
    cluster = shared
    first, = cluster.ensure(1)
    # enough games that most are still to be handed out when the worker dies
    cfg = TournamentConfig(game=DUCKS, engines=["ab:depth=1", "random"], games=150, seed=2)
    events = []
    later = []

    def kill_the_worker(p):
        if p.done >= 5 and first.poll() is None:
            cluster.kill(first)

    def on_event(text):
        events.append(text)
        if text.startswith("no Dask workers") and not later:
            later.append(cluster.add_worker())      # a worker joins after the notice
            cluster.workers.append(later[0])

    backend = DaskBackend(cfg.game, cfg.settings(), scheduler=cluster.address, no_worker_notice=1.0)
    try:
        with bounded(RUN_BOUND, "the tournament whose worker died and another joined"):
            res = run_tournament(cfg, db=str(tmp_path / "w.db"), backend=backend,
                                 on_progress=kill_the_worker, progress_every=0, on_event=on_event)
        assert res.finished and res.stored == 150
        assert events[0] == "no Dask workers for 1 s; waiting; Ctrl-C stores what is done"
        assert events[1] == "1 Dask worker thread back: carrying on"
        played = _worker_pids(res.db)
        assert played == {first.pid, later[0].pid}
        assert res.workers == 2          # the two processes that played, one after the other

        # no worker again, and Ctrl-C while the tournament waits: it stops, keeping what is done
        cluster.ensure(0)
        events.clear()

        def interrupt(text):
            events.append(text)
            os.kill(os.getpid(), signal.SIGINT)

        cfg2 = TournamentConfig(game=DUCKS, engines=["ab:depth=1", "random"], games=60, seed=3)
        t0 = time.monotonic()
        with bounded(RUN_BOUND, "the tournament stopped while waiting for workers"):
            res = run_tournament(cfg2, db=str(tmp_path / "w2.db"), backend=backend, on_event=interrupt)
        assert res.interrupted and res.stored == 0 and time.monotonic() - t0 < 30
        assert events == ["no Dask workers for 1 s; waiting; Ctrl-C stores what is done"]
    finally:
        backend.close()


def test_a_tournament_whose_workers_all_vanish_fails_the_test_at_its_bound(tmp_path, shared):
    # the guard itself: with no worker the tournament would wait for ever; the bound stops it
    # and fails with a message saying what did not finish
    cluster = shared
    cluster.ensure(0)
    cfg = TournamentConfig(game=DUCKS, engines=["random", "random"], games=4, seed=1)
    backend = DaskBackend(cfg.game, cfg.settings(), scheduler=cluster.address)
    try:
        t0 = time.monotonic()
        with pytest.raises(pytest.fail.Exception, match="the lonely tournament did not finish "
                                                        r"within 2 s \(Dask workers gone"):
            with bounded(2, "the lonely tournament"):
                run_tournament(cfg, db=str(tmp_path / "v.db"), backend=backend)
        assert time.monotonic() - t0 < 60
    finally:
        backend.close()


NOTICE = "no Dask workers for {} s; waiting; Ctrl-C stores what is done"


def test_the_no_worker_notice_comes_after_the_30_s_the_help_promises(shared, monkeypatch):
    # the default the command line uses (it passes none), on a clock of the test's own
    import types
    from roost.arena import runner
    from roost.arena.tournament import make_backend
    r = CliRunner().invoke(cli, ["tournament", "--help"])
    assert "With no worker for 30 s it says so and waits for one" in " ".join(r.output.split())
    shared.ensure(0)
    cfg = TournamentConfig(game=DUCKS, engines=["random", "random"], games=2, seed=1)
    backend = make_backend(cfg, scheduler=shared.address)
    try:
        assert backend.workers == 1          # none yet: counted as one (two chunks handed out)
        clock = [100.0]
        monkeypatch.setattr(runner, "time", types.SimpleNamespace(monotonic=lambda: clock[0]))
        events = []
        watch = runner._WorkerWatch(backend, events.append)
        for t in (100.0, 110.0, 120.0, 129.5):
            clock[0] = t
            watch.look()
        assert events == []
        clock[0] = 130.0
        watch.look()
        assert events == [NOTICE.format(30)]
    finally:
        backend.close()


def test_records_lost_with_their_worker_are_waited_for_watching_the_cluster_and_ctrl_c(shared):
    # a chunk finished, then its worker died before its records were fetched: they are played
    # again elsewhere, here only once a worker joins; meanwhile the wait says there is no
    # worker, and Ctrl-C stops it
    from distributed import wait
    from roost.arena import runner
    from roost.arena.stopping import StopRequest
    cluster = shared
    first, = cluster.ensure(1)
    cfg = TournamentConfig(game=DUCKS, engines=["random", "ab:depth=1"], games=2, seed=6)
    items = [cfg.work_item(g) for g in cfg.schedule()[:1]]
    backend = DaskBackend(DUCKS, GameSettings(), scheduler=cluster.address, no_worker_notice=1.0)
    try:
        fut = backend.client.submit(runner.play_chunk, DUCKS, GameSettings(), items, pure=False)
        with bounded(RUN_BOUND, "a chunk of one game"):
            wait(fut)
        assert fut.status == "finished"
        cluster.kill(first)
        cluster.wait_for(0)

        stop, events = StopRequest(), []

        def ctrl_c(text):                      # as the handler of SIGINT does
            events.append(text)
            stop.request()

        with bounded(60, "the wait for lost records, with Ctrl-C"):       # about 1 s
            with pytest.raises(KeyboardInterrupt):
                DaskBackend._fetch(fut, stop, runner._WorkerWatch(backend, ctrl_c))
        assert events == [NOTICE.format(1)]

        events, later = [], []

        def join(text):                        # a worker joins after the notice
            events.append(text)
            if not later:
                later.append(cluster.add_worker())
                cluster.workers.append(later[0])

        with bounded(RUN_BOUND, "the wait for lost records until a worker joins"):
            recs = DaskBackend._fetch(fut, StopRequest(), runner._WorkerWatch(backend, join))
        assert events == [NOTICE.format(1), "1 Dask worker thread back: carrying on"]
        assert [(r["id"], r["worker"]) for r in recs] == [(items[0].id, f"{HOST}:{later[0].pid}")]
        here, = runner.play_chunk(DUCKS, GameSettings(), items)
        assert recs[0]["result"] == here["result"] and recs[0]["ending"] == here["ending"]
    finally:
        backend.close()


def test_records_out_of_reach_mean_a_lost_cluster_not_a_failed_game(tmp_path, monkeypatch):
    # a chunk played, but its records cannot be fetched (the connection broke as they were
    # gathered): the cluster is lost and the same command resumes; no game failed
    from distributed.comm import CommClosedError
    from roost.arena.runner import WorkersLost

    async def broken_gather(self, direct, local_worker):
        raise CommClosedError("in <TCP (closed) Client->Scheduler>: Stream is closed")

    with distributed.LocalCluster(n_workers=1, processes=False, threads_per_worker=1,
                                  **NO_DASHBOARD) as cluster:
        cfg = TournamentConfig(game=DUCKS, engines=["random", "random"], games=4, seed=1)
        backend = DaskBackend(cfg.game, cfg.settings(), scheduler=cluster.scheduler_address)
        monkeypatch.setattr(distributed.Client, "_gather_remote", broken_gather)
        try:
            db = str(tmp_path / "g.db")
            with bounded(RUN_BOUND, "the tournament whose records are out of reach"):
                with pytest.raises(WorkersLost) as caught:
                    run_tournament(cfg, db=db, backend=backend)
        finally:
            monkeypatch.undo()
            backend.close()
    assert str(caught.value) == (f"lost the Dask scheduler at {cluster.scheduler_address}: 0 of 4 "
                                 f"games are stored in {db}; run the same command to resume")


def test_dask_chunks_hold_a_quarter_second_of_games_two_a_worker_thread_in_flight(monkeypatch):
    # a task on a cluster costs more than a pool's message: a chunk holds about 0.25 s of
    # games (at most 256), each worker thread has about two chunks waiting, and a stop
    # (on_record saying so) hands out no more; games of known length, played at once, on
    # workers in this process (two threads)
    from roost.arena import runner
    length = [0.0]

    def timed_chunk(game, settings, items, live_topic=None):
        return [{"id": it.id, "seconds": length[0]} for it in items]

    monkeypatch.setattr(runner, "play_chunk", timed_chunk)
    with distributed.LocalCluster(n_workers=1, processes=False, threads_per_worker=2,
                                  **NO_DASHBOARD) as cluster:
        backend = DaskBackend(DUCKS, GameSettings(), scheduler=cluster.scheduler_address)
        try:
            assert backend.workers == 2
            submit = backend.client.submit
            for seconds, games, stop_after, size in [(2 ** -7, 400, None, 32),
                                                     (2 ** -20, 3000, None, 256),
                                                     (2 ** -7, 3000, 100, 32)]:
                length[0] = seconds
                chunks, seen, waiting = [], [], []

                def counting_submit(fn, game, settings, chunk, *rest, **kw):
                    done = sum(c[-1].id in seen for c in chunks)     # chunks whose records came
                    chunks.append(chunk)
                    waiting.append(len(chunks) - done)
                    return submit(fn, game, settings, chunk, *rest, **kw)

                backend.client.submit = counting_submit
                items = [WorkItem(i, 0, 0, (0, 1), ["random", "random"], i) for i in range(1, games + 1)]
                with bounded(RUN_BOUND, f"{games} games of {seconds} s on Dask"):
                    backend.play(iter(items), lambda rec: seen.append(rec["id"]) or
                                 (stop_after is not None and len(seen) >= stop_after))
                sizes = [len(c) for c in chunks]
                assert sizes[:4] == [1, 1, 1, 1]          # untimed: one game a chunk
                assert max(sizes) == size
                assert max(waiting) == 4                   # two chunks a worker thread
                handed_out = sum(sizes)
                assert sorted(seen) == list(range(1, handed_out + 1))   # every game once
                if stop_after is None:
                    assert handed_out == games
                else:
                    assert stop_after <= handed_out < stop_after + 5 * size
        finally:
            backend.client.submit = submit
            backend.close()


def test_the_local_cluster_plays_one_game_at_a_time_a_worker_and_serves_no_dashboard():
    # the engines a worker process keeps are its own, not shared between threads; the cluster
    # is the tournament's private one: its scheduler answers on 127.0.0.1 but shows no pages
    import urllib.error
    import urllib.request
    from roost.arena.tournament import make_backend
    r = CliRunner().invoke(cli, ["tournament", "--help"])
    assert "one game at a time each, on 127.0.0.1 with no dashboard" in " ".join(r.output.split())
    cfg = TournamentConfig(game=DUCKS, engines=["random", "random"], games=2, seed=1)
    with bounded(START_BOUND, "a local cluster of two workers"):
        backend = make_backend(cfg, dask_local=2)
    try:
        assert backend.workers == 2
        assert sorted(backend.client.nthreads().values()) == [1, 1]
        port = backend.client.scheduler_info()["services"]["dashboard"]
        http = f"http://127.0.0.1:{port}"
        assert urllib.request.urlopen(f"{http}/health", timeout=30).read() == b"ok"
        with pytest.raises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(f"{http}/status", timeout=30)
        assert caught.value.code == 404
    finally:
        backend.close()


def test_a_scheduler_that_cannot_be_reached_is_named_and_dask_logs_are_restored():
    import logging
    from roost.arena.runner import ArenaError
    log = logging.getLogger("distributed.client")
    level = log.level
    address = f"tcp://127.0.0.1:{_free_port()}"        # nothing listens there
    with bounded(RUN_BOUND, "a backend for a scheduler that is not there"):
        with pytest.raises(ArenaError, match=f"cannot reach the Dask scheduler at {address}: "):
            DaskBackend(DUCKS, GameSettings(), scheduler=address)
    assert log.level == level and log.isEnabledFor(logging.ERROR)


def test_distributed_logging_is_quiet_until_restored():
    import logging
    client_log = logging.getLogger("distributed.client")
    before = (logging.getLogger("distributed").level, client_log.level)
    restore = quiet_dask_logs()
    try:
        assert not client_log.isEnabledFor(logging.CRITICAL)
        assert not logging.getLogger("distributed.some.new.module").isEnabledFor(logging.CRITICAL)
    finally:
        restore()
    assert (logging.getLogger("distributed").level, client_log.level) == before
    assert client_log.isEnabledFor(logging.ERROR)


def test_a_root_logger_left_unset_is_quieted_too_and_a_set_child_is_restored():
    import logging
    tornado, child = logging.getLogger("tornado"), logging.getLogger("distributed.roost_probe")
    before = (tornado.level, child.level)
    tornado.setLevel(logging.NOTSET)           # as when nothing configured tornado's logging
    child.setLevel(logging.INFO)
    try:
        restore = quiet_dask_logs()
        try:
            assert not tornado.isEnabledFor(logging.CRITICAL)
            assert not child.isEnabledFor(logging.CRITICAL)
        finally:
            restore()
        assert (tornado.level, child.level) == (logging.NOTSET, logging.INFO)
    finally:
        tornado.setLevel(before[0])
        child.setLevel(before[1])


def test_a_backend_keeps_dask_quiet_until_it_is_closed_unless_verbose(shared):
    import logging
    log = logging.getLogger("distributed.client")
    level = log.level
    backend = DaskBackend(DUCKS, GameSettings(), scheduler=shared.address)
    try:
        assert not log.isEnabledFor(logging.CRITICAL)
    finally:
        backend.close()
    assert log.level == level and log.isEnabledFor(logging.ERROR)
    backend = DaskBackend(DUCKS, GameSettings(), scheduler=shared.address, verbose=True)
    try:
        assert log.isEnabledFor(logging.ERROR)
    finally:
        backend.close()


class _FakeCluster:
    """What _WorkerWatch asks of a backend: a scheduler that is there, a worker count."""

    def __init__(self, threads, notice):
        self.threads, self.no_worker_notice = list(threads), notice
        self.asked, self.workers = 0, 1

    def _check_scheduler(self):
        pass

    def _threads(self):
        self.asked += 1
        return self.threads.pop(0)


def test_the_worker_watch_asks_every_half_second_and_tells_of_no_workers_on_time(monkeypatch):
    from roost.arena import runner
    clock = [10.0]
    monkeypatch.setattr(runner.time, "monotonic", lambda: clock[0])
    events = []
    cluster = _FakeCluster([0, 0, 0, 0, 2], notice=2.0)
    watch = runner._WorkerWatch(cluster, events.append)

    def look_at(t):
        clock[0] = t
        watch.look()
        return cluster.asked

    assert look_at(10.0) == 1                 # none since 10.0
    assert look_at(10.4) == 1                 # asked 0.4 s ago: not again yet
    assert look_at(10.5) == 2                 # half a second on: asks again
    assert events == []
    assert look_at(11.4) == 3 and events == []   # 1.4 s without workers: nothing said yet
    assert look_at(12.0) == 4                 # 2 s without workers: said, once
    assert events == ["no Dask workers for 2 s; waiting; Ctrl-C stores what is done"]
    assert look_at(12.5) == 5
    assert events[1:] == ["2 Dask worker threads back: carrying on"] and cluster.workers == 2


def test_games_that_finish_after_the_notice_say_the_workers_are_back_at_once(monkeypatch):
    # a worker that joins can play every game left between two looks half a second apart:
    # the tournament then ended without saying it had carried on (seen under load in
    # test_no_workers_for_a_while_is_said_then_the_tournament_carries_on)
    from roost.arena import runner
    clock = [10.0]
    monkeypatch.setattr(runner.time, "monotonic", lambda: clock[0])
    events = []
    cluster = _FakeCluster([0, 0, 1], notice=1.0)
    watch = runner._WorkerWatch(cluster, events.append)
    watch.results_came()                       # results before any notice: nothing to say
    assert cluster.asked == 0 and events == []
    watch.look()
    clock[0] = 11.0
    watch.look()
    assert events == ["no Dask workers for 1 s; waiting; Ctrl-C stores what is done"]
    clock[0] = 11.1                            # 0.1 s after the last look: not due yet
    watch.results_came()
    assert cluster.asked == 3 and events[1:] == ["1 Dask worker thread back: carrying on"]
    watch.results_came()                       # said once
    assert cluster.asked == 3 and len(events) == 2


class _FakeFuture:
    """A chunk's future whose records come after ``waits`` waits of half a second."""

    def __init__(self, waits, records):
        self.waits, self.records = waits, records

    def result(self, timeout):
        if self.waits:
            self.waits -= 1
            raise TimeoutError
        return self.records


def test_records_fetched_after_the_notice_say_the_workers_are_back(monkeypatch):
    # the notice given while a finished chunk's records were waited for, a worker joining
    # and playing every game left: the tournament ended without saying it had carried on
    # (seen under load in test_no_workers_for_a_while_is_said_then_the_tournament_carries_on)
    from roost.arena import runner
    from roost.arena.stopping import StopRequest
    clock = [10.0]
    monkeypatch.setattr(runner.time, "monotonic", lambda: clock[0])
    events = []
    cluster = _FakeCluster([0, 1], notice=0.0)
    watch = runner._WorkerWatch(cluster, events.append)
    recs = DaskBackend._fetch(_FakeFuture(1, ["a record"]), StopRequest(), watch)
    assert recs == ["a record"]
    assert events == ["no Dask workers for 0 s; waiting; Ctrl-C stores what is done",
                      "1 Dask worker thread back: carrying on"]


def test_a_game_that_raises_on_a_worker_is_named_not_taken_for_a_lost_cluster(tmp_path, monkeypatch):
    # workers in this process (threads), so the chunk function can be swapped for one that
    # fails the way a bug in a game would
    from roost.arena import runner
    from roost.arena.runner import ArenaError, WorkersLost

    def broken_chunk(game, settings, chunk, live_topic=None):
        raise ValueError("a bug in a game")

    monkeypatch.setattr(runner, "play_chunk", broken_chunk)
    with distributed.LocalCluster(n_workers=1, processes=False, threads_per_worker=1,
                                  **NO_DASHBOARD) as cluster:
        cfg = TournamentConfig(game=DUCKS, engines=["random", "random"], games=4, seed=1)
        backend = DaskBackend(cfg.game, cfg.settings(), scheduler=cluster.scheduler_address)
        try:
            with bounded(RUN_BOUND, "the tournament whose games fail on the worker"):
                with pytest.raises(ArenaError) as caught:
                    run_tournament(cfg, db=str(tmp_path / "f.db"), backend=backend)
        finally:
            backend.close()
    assert not isinstance(caught.value, WorkersLost)
    assert str(caught.value) == "a game failed on the Dask cluster: ValueError: a bug in a game"


def test_games_in_progress_on_the_workers_are_written_as_they_are_played(tmp_path, shared):
    # the workers' moves come back as the scheduler's events while the game goes on, so a
    # game in progress on the cluster is in the database before it finishes, as with --jobs
    from roost.arena.records import game_in_progress
    cluster = shared
    cluster.ensure(2)
    db = str(tmp_path / "live.db")
    seen, done = {}, threading.Event()

    def watch():
        while not done.is_set():
            try:
                playing, _, _ = game_in_progress(db) if os.path.exists(db) else (None, None, None)
            except Exception:                    # the file being created
                playing = None
            if playing is not None:
                seen[playing["id"]] = max(seen.get(playing["id"], 0), len(playing["moves"]))
            time.sleep(0.05)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        with bounded(RUN_BOUND, "a Dask tournament of alpha-beta by time"):
            r = CliRunner().invoke(cli, ["tournament", "connect4", "-e", "ab:time=0.05", "-e", "ab:time=0.04",
                                         "--games", "4", "--scheduler", cluster.address, "--db", db, "--json"])
    finally:
        done.set()
        watcher.join()
    assert r.exit_code == 0, r.output
    stored = {gid: len(json.loads(moves)) for gid, moves in
              sqlite3.connect(db).execute("SELECT id, moves FROM games").fetchall()}
    assert len(stored) == 4
    assert seen and all(0 < seen[gid] <= stored[gid] for gid in seen)
    assert any(seen[gid] > 1 for gid in seen)          # followed past its first move
    assert game_in_progress(db)[0] is None             # and none left once the tournament ended
