"""Where tournament games are played: in this process, in a pool of local worker processes,
or as tasks on a Dask cluster.  Every backend runs ``play_scheduled`` on work items and
hands the finished game records back to the tournament's process, which alone writes them
to the database.

A work item is ``(id, pairing, rotation, engines, specs, seed, opening_seed)``: the game's
schedule id, the roster index and the engine spec of each seat, its seed and the seed of its
random opening; the start is ``(position text or None, opening plies, time control or None)``.
Engines are kept between the games a process plays (external programs keep running; one
that forfeited is started afresh by its next game) and closed when the backend closes.  Backends hand out items in
schedule order, a few at a time (small chunks, sized so a chunk takes about 50 ms, so very
fast games do not drown in messaging while slow ones are spread over all workers), and keep
only a bounded number in flight, so a stop (an SPRT decision, Ctrl-C) wastes little.
"""
import os
import queue
import signal
import socket
import time

from roost.arena.match import play_game
from roost.core.errors import RoostError
from roost.search.engines import parse_engine


class ArenaError(RoostError):
    """A tournament that cannot go on: a failed game, a dead worker, no cluster."""


# ---------------------------------------------------------------------- the work itself
_ENGINE_CACHE = {}      # (spec, game, tc) -> engines built in this process (reused: a new
                        # game resets them)
_START_CACHE = {}


def _engines(specs, game=None, tc=None):
    from roost.protocol.client import arena_engine
    used, out = {}, []
    for s in specs:
        k = used.get(s, 0)
        used[s] = k + 1
        pool = _ENGINE_CACHE.setdefault((s, getattr(game, "name", None), tc), [])
        while len(pool) <= k:
            pool.append(arena_engine(s, game, tc) if tc is not None or s.startswith("cmd:")
                        else parse_engine(s))
        out.append(pool[k])
    return out


def close_engines():
    """End the external programs and workers of the engines kept in this process."""
    for key, pool in list(_ENGINE_CACHE.items()):
        if any(hasattr(e, "close") for e in pool):
            for e in pool:
                e.close()
            del _ENGINE_CACHE[key]


def _start(game, position):
    position = position[0] if isinstance(position, tuple) else position
    if position is None:
        return None
    key = (game.name, position)
    if key not in _START_CACHE:
        _START_CACHE[key] = game.parse(position)
    return _START_CACHE[key]


def play_scheduled(game, position, item, versions=None, encode=False):
    """Play one scheduled game and return its database record (a dict).  With ``encode``,
    return only its database row (under ``_row``, encoded here rather than by the writer)
    and the fields the tournament tallies: less to send between processes."""
    from roost.arena.store import encode_row, python_version, roost_version
    gid, pairing, rotation, engines, specs, seed, *rest = item
    opening = position[1] if isinstance(position, tuple) else 0
    tc = position[2] if isinstance(position, tuple) and len(position) > 2 else None
    t0 = time.perf_counter()
    rec = play_game(game, _engines(specs, game, tc), seed, start=_start(game, position),
                    opening=opening, opening_seed=rest[0] if rest else None, tc=tc)
    seconds = time.perf_counter() - t0
    rv, pv = versions or (roost_version(), python_version())
    rec = {"id": gid, "pairing": pairing, "rotation": rotation, "engines": list(engines),
            "seats": list(specs), "seed": seed, "start": rec.start, "moves": rec.names,
            "move_ids": rec.moves, "movers": rec.movers,
            "times": [round(t, 6) for t in rec.times], "result": list(rec.result),
            "final": rec.final, "plies": len(rec.moves), "seconds": seconds,
            "finished": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()),
            "worker": f"{socket.gethostname()}:{os.getpid()}",
            "roost_version": rv, "python_version": pv, "ending": rec.ending}
    if encode:      # what crosses to the tournament's process: its row, and what it tallies
        return {"id": gid, "engines": rec["engines"], "result": rec["result"],
                "ending": rec["ending"], "seconds": seconds, "_row": encode_row(rec)}
    return rec


def play_chunk(game, position, items):
    """Play several items in order (the unit of work on a Dask cluster)."""
    from roost.arena.store import python_version, roost_version
    versions = (roost_version(), python_version())
    try:
        return [play_scheduled(game, position, it, versions, encode=True) for it in items]
    finally:
        close_engines()         # a Dask worker outlives the tournament: leave no program behind


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
class InProcess:
    """Play every game here, one after another (``--jobs 1``)."""
    name = "one process"
    workers = 1

    def __init__(self, game, position):
        self.game, self.position = game, position

    def play(self, items, on_record):
        from roost.arena.store import python_version, roost_version
        versions = (roost_version(), python_version())
        for it in items:
            if on_record(play_scheduled(self.game, self.position, it, versions)):
                break

    def close(self, abort=False):
        close_engines()


def _worker_main(task_q, result_q, game, position, parent, close_fds):
    for fd in close_fds:               # e.g. the database lock: it must die with the parent
        try:
            os.close(fd)
        except OSError:
            pass
    signal.signal(signal.SIGINT, signal.SIG_IGN)      # the parent decides what Ctrl-C means
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    from roost.arena.store import python_version, roost_version
    versions = (roost_version(), python_version())
    result_q.cancel_join_thread()      # never hang on exit over results nobody will read
    try:
        while True:
            if os.getppid() != parent:     # the tournament was killed: stop too
                return
            try:
                chunk = task_q.get(timeout=0.5)
            except queue.Empty:
                continue
            if chunk is None:
                return
            for it in chunk:
                try:
                    rec = play_scheduled(game, position, it, versions, encode=True)
                except Exception as e:
                    result_q.put(("error", it[0], f"{type(e).__name__}: {e}"))
                    return
                result_q.put(("ok", rec))
    finally:
        close_engines()


class LocalPool:
    """Worker processes on this machine (``--jobs N``)."""
    name = "local processes"

    def __init__(self, game, position, jobs, close_fds=()):
        import multiprocessing as mp
        methods = mp.get_all_start_methods()
        ctx = mp.get_context("fork" if "fork" in methods else "spawn")
        self.workers = jobs
        self.task_q, self.result_q = ctx.Queue(), ctx.Queue()
        self.procs = [ctx.Process(target=_worker_main, name=f"roost-arena-{i}", daemon=True,
                                  args=(self.task_q, self.result_q, game, position, os.getpid(),
                                        tuple(close_fds)))
                      for i in range(jobs)]
        for p in self.procs:
            p.start()

    def play(self, items, on_record):
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
            try:
                kind, *rest = self.result_q.get(timeout=0.5)
            except queue.Empty:
                for p in self.procs:
                    if p.exitcode is not None:
                        raise ArenaError(f"a worker process died (exit code {p.exitcode}); "
                                         "the finished games are stored: run the same command to resume")
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
        for p in self.procs:
            if p.is_alive():
                p.terminate()
        for p in self.procs:
            p.join(2.0)
        self.task_q.cancel_join_thread()
        self.result_q.cancel_join_thread()


class DaskBackend:
    """Games as tasks on a Dask cluster: an existing scheduler (``--scheduler tcp://H:P``)
    or a local cluster of ``local`` worker processes (``--dask-local N``)."""
    name = "dask"

    def __init__(self, game, position, scheduler=None, local=None):
        try:
            import distributed
        except ImportError:
            raise ArenaError("the Dask backend needs dask: pip install 'roost[distributed]'") from None
        import logging
        self.game, self.position = game, position
        self.cluster = None
        try:
            if local:
                self.cluster = distributed.LocalCluster(
                    n_workers=local, threads_per_worker=1, processes=True,
                    dashboard_address=None, silence_logs=logging.ERROR)
                self.client = distributed.Client(self.cluster)
                self.name = f"dask (local cluster, {local} workers)"
            else:
                self.client = distributed.Client(scheduler, timeout="10s")
                self.name = f"dask ({scheduler})"
        except (OSError, TimeoutError, ValueError) as e:
            self.close()
            where = "start a local Dask cluster" if local else f"reach the Dask scheduler at {scheduler}"
            raise ArenaError(f"cannot {where}: {e}") from None
        self.workers = max(1, sum(self.client.nthreads().values()))

    def play(self, items, on_record):
        from distributed import as_completed
        items = iter(items)
        chunker = _Chunker(0.25, 256)
        stopping = False
        ac = as_completed()
        in_flight = 0

        def fill():
            nonlocal in_flight
            while not stopping and in_flight < 2 * self.workers:
                chunk = _take(items, chunker.size())
                if not chunk:
                    break
                ac.add(self.client.submit(play_chunk, self.game, self.position, chunk, pure=False))
                in_flight += 1

        fill()
        for fut in ac:
            in_flight -= 1
            try:
                recs = fut.result()
            except Exception as e:
                raise ArenaError(f"a game failed on the Dask cluster: {type(e).__name__}: {e}") from None
            for rec in recs:
                chunker.seen(rec["seconds"])
                if on_record(rec):
                    stopping = True
            fill()

    def close(self, abort=False):
        for thing in (getattr(self, "client", None), self.cluster):
            if thing is not None:
                try:
                    thing.close()
                except Exception:
                    pass
