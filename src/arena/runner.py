"""Where tournament games are played: in this process, in a pool of local worker processes,
or as tasks on a Dask cluster.  Every backend runs ``play_scheduled`` on work items and
hands the finished game records back to the tournament's process, which alone writes them
to the database.

A work item (``work.WorkItem``) is one scheduled game: its id, pairing, rotation, the roster
index and the engine spec of each seat, its seed, the seed of its random opening and the
suite's opening it starts from; the ``work.GameSettings`` every game shares are its start
position, random opening plies, time control, hang guard and adjudication rules.

While a game is played, ``on_live(gid, first, engines, seats, start, names, movers, times)``
hears its moves from ply ``first`` on, at most every ``LIVE_EVERY`` seconds (the first move at
once), so the tournament can show it in progress; a pool worker sends them with its results,
a Dask worker as events of the run's topic.
Engines are kept between the games a process plays (external programs keep running; one
that forfeited is started afresh by its next game) and closed when the backend closes.  Backends hand out items in
schedule order, a few at a time (small chunks, sized so a chunk takes about 50 ms, 0.25 s on Dask
where a task costs more, so very fast games do not drown in messaging while slow ones are spread
over all workers), and keep about two chunks a worker in flight, so a stop (SPRT, Ctrl-C) wastes little.
"""
import logging
import os
import queue
import signal
import socket
import time

from roost.arena.engines import arena_engine
from roost.arena.match import play_game
from roost.arena.stopping import StopRequest
from roost.core.errors import RoostError


class ArenaError(RoostError):
    """A tournament that cannot go on: a failed game, a dead worker, no cluster."""
    resumable = False        # the games were stopped from outside: the same command resumes


class WorkersLost(ArenaError):
    """The games stopped for a reason outside them (a worker process died, the Dask scheduler
    was lost): every stored game is sound and the same command plays the rest."""
    resumable = True


# ---------------------------------------------------------------------- the work itself
_ENGINE_CACHE = {}      # (spec, game, tc) -> engines built in this process (reused: a new
                        # game resets them)
_START_CACHE = {}


def _engines(specs, game=None, tc=None, hang_guard=None):
    """The engines of ``specs`` (EngineSpecs, one a seat), kept in this process between games."""
    used, out = {}, []
    for s in specs:
        k = used.get(s, 0)
        used[s] = k + 1
        pool = _ENGINE_CACHE.setdefault((s, getattr(game, "name", None), tc, hang_guard), [])
        while len(pool) <= k:
            pool.append(arena_engine(s, game, tc, hang_guard))
        out.append(pool[k])
    return out


def close_engines(at_once=False):
    """End the external programs and workers of the engines kept in this process (each
    with everything it started); ``at_once``: without waiting for them to quit."""
    for key, pool in list(_ENGINE_CACHE.items()):
        if any(e.external for e in pool):         # programs: the rest stay for the next games
            for e in pool:
                if at_once:
                    e.kill()
                else:
                    e.close()
            del _ENGINE_CACHE[key]


def _start(game, position):
    if position is None:
        return None
    key = (game.name, position)
    if key not in _START_CACHE:
        _START_CACHE[key] = game.parse(position)
    return _START_CACHE[key]


LIVE_EVERY = 0.25      # seconds between two reports of a game in progress


class _LiveFeed:
    """A game's moves handed to ``send`` as it is played: the first at once, then at most
    every LIVE_EVERY seconds."""

    def __init__(self, gid, engines, send):
        self.gid, self.engines, self.send = gid, list(engines), send
        self.sent, self.last = 0, None

    def __call__(self, state, record):
        now = time.monotonic()
        if self.last is not None and now - self.last < LIVE_EVERY:
            return
        self.last = now
        first, self.sent = self.sent, len(record.moves)
        self.send(self.gid, first, self.engines, record.seats, record.start,
                  record.names[first:], record.movers[first:], record.times[first:])


def play_scheduled(game, settings, item, versions=None, encode=False, on_live=None):
    """Play one scheduled game (a WorkItem, with the tournament's GameSettings) and return
    its database record (a dict).  With ``encode``, return only its database row (under
    ``_row``, encoded here rather than by the writer) and the fields the tournament tallies:
    less to send between processes.  ``on_live`` hears the moves as they are played (see
    the module)."""
    from roost.arena.reports import seat_stats
    from roost.arena.store import encode_row, python_version, roost_version
    opening = item.opening
    start = _start(game, opening["text"]) if opening else _start(game, settings.position)
    t0 = time.perf_counter()
    rec = play_game(game, _engines(item.specs, game, settings.tc, settings.hang_guard), item.seed,
                    start=start, opening=settings.opening_plies, opening_seed=item.opening_seed,
                    tc=settings.tc, adjudication=settings.adjudication,
                    on_move=_LiveFeed(item.id, item.engines, on_live) if on_live is not None else None)
    seconds = time.perf_counter() - t0
    rv, pv = versions or (roost_version(), python_version())
    stats = seat_stats(rec.players, rec.movers, rec.times, rec.reports)
    rec = {"id": item.id, "pairing": item.pairing, "rotation": item.rotation,
           "engines": list(item.engines), "seats": list(item.specs), "seed": item.seed,
           "start": rec.start, "moves": rec.names, "move_ids": rec.moves, "movers": rec.movers,
           "times": [round(t, 6) for t in rec.times], "result": list(rec.result),
           "final": rec.final, "plies": len(rec.moves), "seconds": seconds,
           "finished": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()),
           "worker": f"{socket.gethostname()}:{os.getpid()}",
           "roost_version": rv, "python_version": pv, "ending": rec.ending,
           "opening": opening, "reports": [None if r is None else r.row() for r in rec.reports],
           "stats": stats}
    if encode:      # what crosses to the tournament's process: its row, and what it tallies
        return {"id": item.id, "engines": rec["engines"], "result": rec["result"],
                "ending": rec["ending"], "seconds": seconds, "worker": rec["worker"],
                "stats": stats, "_row": encode_row(rec)}
    return rec


def play_chunk(game, settings, items, live_topic=None):
    """Play several items in order (the unit of work on a Dask cluster).  With
    ``live_topic`` the moves of each game are sent as they are played, as events of the
    worker under that topic, to the client that subscribed to it."""
    from roost.arena.store import python_version, roost_version
    versions = (roost_version(), python_version())
    on_live = _worker_events(live_topic) if live_topic else None
    try:
        return [play_scheduled(game, settings, it, versions, encode=True, on_live=on_live)
                for it in items]
    finally:
        close_engines()         # a Dask worker outlives the tournament: leave no program behind


def _worker_events(topic):
    from distributed import get_worker
    worker = get_worker()
    # the worker batches events to the scheduler with its other messages: a move costs a
    # small message, never a wait
    return lambda *moves: worker.log_event(topic, list(moves))


class _Chunker:
    """Chunk sizes from the mean game time seen so far: about ``target`` seconds a chunk."""

    def __init__(self, target, most):
        self.target, self.most = target, most
        self.n, self.total = 0, 0.0

    def seen(self, seconds):
        self.n += 1
        self.total += seconds

    def size(self):
        if self.n == 0:
            return 1
        mean = max(self.total / self.n, 1e-6)
        return max(1, min(self.most, int(self.target / mean)))


def _take(it, n):
    out = []
    for x in it:
        out.append(x)
        if len(out) >= n:
            break
    return out


# ---------------------------------------------------------------------- backends
# Every backend has ``workers``, ``name``, ``play(items, on_record, stop, on_event, on_live)``
# and ``close(abort)``.  ``play`` hands each finished record to ``on_record`` (which returns
# True to stop handing out work), looks at the StopRequest ``stop`` between records and raises
# KeyboardInterrupt there when a stop was asked, tells ``on_event(text)`` what the user
# should know while it waits (no Dask workers, a worker back), and hands the moves of games
# in progress to ``on_live``.

class InProcess:
    """Play every game here, one after another (``--jobs 1``)."""
    name = "one process"
    workers = 1

    def __init__(self, game, settings):
        self.game, self.settings = game, settings

    def play(self, items, on_record, stop=None, on_event=None, on_live=None):
        from roost.arena.store import python_version, roost_version
        stop = stop or StopRequest()
        versions = (roost_version(), python_version())
        for it in items:
            with stop.game():
                rec = play_scheduled(self.game, self.settings, it, versions, on_live=on_live)
            if on_record(rec):
                break

    def close(self, abort=False):
        close_engines()


class _Ended(SystemExit):
    """SIGTERM reached a pool worker: its tournament stops, or is gone."""


def _pool_worker(task_q, result_q, game, settings, parent, close_fds):
    """The process of a pool worker: the worker's loop, ended by SIGTERM with its engines and
    whatever they started.  The tournament stops its workers with SIGTERM, and a worker
    receives it too when the tournament dies (Linux), killed or not."""
    from roost.protocol.processes import die_with_parent

    def end(signum, frame):
        # the signal comes once for each thread of a dying tournament as it ends: a second
        # one must not cut the ending of the engines off
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        result_q.cancel_join_thread()      # nobody reads the results any more
        raise _Ended(128 + signum)
    signal.signal(signal.SIGTERM, end)
    die_with_parent(signal.SIGTERM, parent)
    try:
        _worker_main(task_q, result_q, game, settings, parent, close_fds)
    except _Ended:
        close_engines(at_once=True)        # those a signal during a graceful close left
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)   # ended by the signal, as its exit status says


def _worker_main(task_q, result_q, game, settings, parent, close_fds):
    for fd in close_fds:               # e.g. the database lock: it must die with the parent
        try:
            os.close(fd)
        except OSError:
            pass
    signal.signal(signal.SIGINT, signal.SIG_IGN)      # the parent decides what Ctrl-C means
    from roost.arena.store import python_version, roost_version
    versions = (roost_version(), python_version())

    def live(*moves):
        result_q.put(("live", *moves))
    try:
        while True:
            if os.getppid() != parent:     # the tournament was killed: stop too
                result_q.cancel_join_thread()      # never hang on exit over results nobody reads
                return
            try:
                chunk = task_q.get(timeout=0.5)
            except queue.Empty:
                continue
            if chunk is None:              # closing: results not read by now never will be
                result_q.cancel_join_thread()
                return
            for it in chunk:
                try:
                    rec = play_scheduled(game, settings, it, versions, encode=True,
                                         on_live=live)
                except Exception as e:
                    # the queue's feeder thread flushes this at exit (the join is not
                    # cancelled here): without it the tournament saw only a worker gone
                    result_q.put(("error", it.id, f"{type(e).__name__}: {e}"))
                    return
                result_q.put(("ok", rec))
    except _Ended:
        close_engines(at_once=True)        # stopped: no time to wait for them to quit
        raise
    finally:
        close_engines()


class LocalPool:
    """Worker processes on this machine (``--jobs N``)."""
    name = "local processes"

    def __init__(self, game, settings, jobs, close_fds=()):
        import multiprocessing as mp
        from roost.protocol.processes import become_reaper
        become_reaper()          # the workers' engines are marked as this tournament's
        methods = mp.get_all_start_methods()
        ctx = mp.get_context("fork" if "fork" in methods else "spawn")
        self.workers = jobs
        self.task_q, self.result_q = ctx.Queue(), ctx.Queue()
        self.procs = [ctx.Process(target=_pool_worker, name=f"roost-arena-{i}", daemon=True,
                                  args=(self.task_q, self.result_q, game, settings, os.getpid(),
                                        tuple(close_fds)))
                      for i in range(jobs)]
        for p in self.procs:
            p.start()

    def play(self, items, on_record, stop=None, on_event=None, on_live=None):
        stop = stop or StopRequest()
        items = iter(items)
        chunker = _Chunker(0.05, 64)
        in_flight, stopping = 0, False

        def fill():
            nonlocal in_flight
            while not stopping:
                size = chunker.size()
                if in_flight >= max(2 * self.workers, 2 * self.workers * size):
                    break
                chunk = _take(items, size)
                if not chunk:
                    break
                self.task_q.put(chunk)
                in_flight += len(chunk)

        fill()
        while in_flight:
            stop.check()
            try:
                kind, *rest = self.result_q.get(timeout=0.2)
            except queue.Empty:
                dead = [p for p in self.procs if p.exitcode is not None]
                if not dead:
                    continue
                try:     # its last words (a failed game's message) may have just arrived
                    kind, *rest = self.result_q.get(timeout=1.0)
                except queue.Empty:
                    raise WorkersLost(f"a worker process died (exit code {dead[0].exitcode})") from None
            if kind == "live":
                if on_live is not None:
                    on_live(*rest)
                continue
            in_flight -= 1
            if kind == "error":
                gid, msg = rest
                raise ArenaError(f"game {gid} failed in a worker: {msg}")
            rec = rest[0]
            chunker.seen(rec["seconds"])
            if on_record(rec):
                stopping = True
            fill()

    def close(self, abort=False):
        if not abort:
            for _ in self.procs:
                self.task_q.put(None)
            deadline = time.monotonic() + 5.0
            for p in self.procs:
                p.join(max(0.0, deadline - time.monotonic()))
        from roost.protocol.processes import reap_started_by
        for p in self.procs:
            if p.is_alive():
                p.terminate()        # a worker ends its engines on SIGTERM
        deadline = time.monotonic() + 5.0
        for p in self.procs:
            p.join(max(0.0, deadline - time.monotonic()))
        for p in self.procs:
            if p.is_alive():
                p.kill()
                p.join(2.0)
        # whatever a worker that died or was killed could not end (its engines die with
        # it; their orphans come to this process)
        reap_started_by([p.pid for p in self.procs])
        self.task_q.cancel_join_thread()
        self.result_q.cancel_join_thread()


# distributed's loggers (and tornado's, which it runs on) print tracebacks of a lost
# connection to the terminal; the tournament says what happened itself
_DASK_LOGGERS = ("distributed", "tornado", "bokeh")


def quiet_dask_logs():
    """Silence distributed's logging; returns the function that restores it."""
    manager = logging.root.manager
    names = [n for n in list(manager.loggerDict)
             if n.startswith(tuple(f"{root}." for root in _DASK_LOGGERS))]
    saved = []
    for name in (*_DASK_LOGGERS, *names):
        logger = logging.getLogger(name)
        if name in _DASK_LOGGERS or logger.level != logging.NOTSET:
            saved.append((logger, logger.level))
            logger.setLevel(logging.CRITICAL + 10)

    def restore():
        for logger, level in saved:
            logger.setLevel(level)
    return restore


class DaskBackend:
    """Games as tasks on a Dask cluster: an existing scheduler (``--scheduler tcp://H:P``)
    or a local cluster of ``local`` worker processes (``--dask-local N``).

    The cluster may change under a tournament: a worker that dies loses only the chunk it
    was playing (the scheduler hands it to another worker); with no worker at all the
    tournament waits, says so after ``no_worker_notice`` seconds, and carries on when one
    joins; a lost scheduler ends the run (``WorkersLost``), the stored games intact.
    distributed's own logging stays quiet unless ``verbose``."""
    name = "dask"

    def __init__(self, game, settings, scheduler=None, local=None, verbose=False,
                 no_worker_notice=30.0):
        try:
            import distributed
        except ImportError:
            raise ArenaError("the Dask backend needs dask: pip install 'roost[distributed]'") from None
        self.game, self.settings = game, settings
        self.cluster = self.client = None
        self.no_worker_notice = no_worker_notice
        self.where = "the local Dask cluster" if local else f"the Dask scheduler at {scheduler}"
        self._restore_logs = None if verbose else quiet_dask_logs()
        try:
            if local:
                # loopback only; the scheduler's HTTP server (it has one even without a
                # dashboard) on a free port, not 8787 with a warning when that is taken
                self.cluster = distributed.LocalCluster(
                    n_workers=local, threads_per_worker=1, processes=True, host="127.0.0.1",
                    dashboard_address=None,
                    scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
                    silence_logs=logging.WARNING if verbose else logging.CRITICAL)
                self.client = distributed.Client(self.cluster)
                self.name = f"dask (local cluster, {local} workers)"
            else:
                self.client = distributed.Client(scheduler, timeout="10s")
                self.name = f"dask ({scheduler})"
            self.workers = max(1, self._threads())
        except (OSError, TimeoutError, ValueError) as e:
            self.close()
            where = "start a local Dask cluster" if local else f"reach the Dask scheduler at {scheduler}"
            raise ArenaError(f"cannot {where}: {e}") from None

    def _threads(self):
        return sum(self.client.nthreads(callback_timeout=10).values())

    def _lost(self):
        return WorkersLost(f"lost {self.where}")

    def _check_scheduler(self):
        if self.client.status != "running":
            raise self._lost()

    def play(self, items, on_record, stop=None, on_event=None, on_live=None):
        """Games in progress reach ``on_live`` through the scheduler: the workers send each
        move as an event under a topic of this run, heard here in this thread."""
        live = _LiveEvents(self.client, on_live)
        try:
            self._play(items, on_record, stop, on_event, live)
        finally:
            live.close()

    def _play(self, items, on_record, stop, on_event, live):
        from concurrent.futures import CancelledError
        from distributed import as_completed
        stop = stop or StopRequest()
        on_event = on_event or (lambda text: None)
        items = iter(items)
        chunker = _Chunker(0.25, 256)
        stopping = False
        ac = as_completed()
        in_flight = 0
        watch = _WorkerWatch(self, on_event)

        def fill():
            nonlocal in_flight
            while not stopping and in_flight < 2 * self.workers:
                chunk = _take(items, chunker.size())
                if not chunk:
                    break
                ac.add(self.client.submit(play_chunk, self.game, self.settings, chunk, live.topic,
                                          pure=False))
                in_flight += 1

        fill()
        while in_flight:
            stop.check()
            live.deliver()
            done = ac.next_batch(block=False)
            if not done:
                watch.look()
                time.sleep(0.02)
                continue
            watch.results_came()
            live.deliver()                    # a game's last moves before its record
            for fut in done:
                in_flight -= 1
                try:
                    recs = self._fetch(fut, stop, watch)
                except Exception as e:
                    # a task that raised is "error"; one cancelled, or finished with its
                    # result out of reach, means the connection to the scheduler broke
                    if fut.status != "error" or isinstance(e, CancelledError):
                        raise self._lost() from None
                    if type(e).__name__ == "KilledWorker":
                        raise WorkersLost(f"Dask workers died playing a chunk of games: {e}") from None
                    raise ArenaError(f"a game failed on the Dask cluster: {type(e).__name__}: {e}") from None
                for rec in recs:
                    chunker.seen(rec["seconds"])
                    if on_record(rec):
                        stopping = True
            fill()

    @staticmethod
    def _fetch(fut, stop, watch):
        """A finished chunk's records.  They live on the worker that played them: if it
        died meanwhile they are played again elsewhere, maybe only once a worker joins, so
        wait in short steps, watching the cluster and the stop request.  Records that come
        after the watch said there were no workers say the cluster plays again: a worker that
        joined while they were waited for can play every game left before the next look."""
        while True:
            try:
                recs = fut.result(timeout=0.5)
            except TimeoutError:
                stop.check()
                watch.look()
                continue
            watch.results_came()
            return recs

    def close(self, abort=False):
        for thing in (self.client, self.cluster):
            if thing is not None:
                try:
                    thing.close(timeout=5)
                except Exception:
                    pass
        self.client = self.cluster = None
        if self._restore_logs is not None:
            self._restore_logs()
            self._restore_logs = None


class _LiveEvents:
    """The moves of games in progress on a Dask cluster: the client hears the workers'
    events in its own thread and queues them; ``deliver`` hands them to ``on_live`` in the
    tournament's thread, which owns the database writer."""

    def __init__(self, client, on_live):
        import queue
        import uuid
        self.client, self.on_live = client, on_live
        self.topic = f"roost-live-{uuid.uuid4().hex}" if on_live is not None else None
        self.queue = queue.SimpleQueue()
        if self.topic is not None:
            client.subscribe_topic(self.topic, lambda event: self.queue.put(event[1]))

    def deliver(self):
        import queue
        while True:
            try:
                moves = self.queue.get_nowait()
            except queue.Empty:
                return
            self.on_live(*moves)

    def close(self):
        if self.topic is not None:
            try:
                self.client.unsubscribe_topic(self.topic)
            except Exception:               # the scheduler gone: nothing to unsubscribe from
                pass


class _WorkerWatch:
    """While a Dask tournament waits: is the scheduler there, how many worker threads are."""

    def __init__(self, backend, on_event, every=0.5):
        self.backend, self.on_event, self.every = backend, on_event, every
        self.last = 0.0
        self.none_since = None
        self.told = False

    def results_came(self):
        """Games finished: after the notice, say at once that the cluster plays again (a
        worker that joins can play every game left between two looks)."""
        if self.told:
            self.look(at_once=True)

    def look(self, at_once=False):
        b = self.backend
        b._check_scheduler()
        now = time.monotonic()
        if not at_once and now - self.last < self.every:
            return
        self.last = now
        try:
            threads = b._threads()
        except Exception:
            b._check_scheduler()
            raise b._lost() from None
        if threads:
            b.workers = threads
            if self.told:
                self.on_event(f"{threads} Dask worker thread{'s' if threads > 1 else ''} "
                              "back: carrying on")
            self.none_since, self.told = None, False
            return
        if self.none_since is None:
            self.none_since = now
        if not self.told and now - self.none_since >= b.no_worker_notice:
            self.told = True
            self.on_event(f"no Dask workers for {b.no_worker_notice:g} s; waiting; "
                          "Ctrl-C stores what is done")
