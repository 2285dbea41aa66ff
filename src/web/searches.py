"""The search workers of a server: one process per page that searches
(``roost.web.worker``), at most ``limit`` at once, each ended with its page.

A worker does one request at a time; a new one stops the request under way first (SIGINT:
the searcher stops and says what it had).  ``close`` ends the worker and anything it
started: SIGTERM (the worker stops its search and closes any engine program), then SIGKILL
after a grace period.  The server's own loop never searches, so an API call is answered
while every worker is busy; the workers run at a lower priority than the server.
"""
import asyncio
import json
import os
import signal
import sys

from roost.web.errors import BadRequest, Busy

STARTUP_TIMEOUT = 60.0       # seconds a worker may take to import roost on a loaded machine
CLOSE_GRACE = 1.0            # seconds a worker has to end after SIGTERM before SIGKILL
OVERHEAD_MB = 1024           # address space of the interpreter and libraries beyond the engine's


class Limits:
    """What a search over the web may take: ``seconds`` a search (a move, an analysis,
    a position of an evaluation graph), ``memory`` MB of tree or table, ``threads``."""

    def __init__(self, seconds=30.0, memory=512, threads=1, workers=24, allow_cmd=False, nice=10):
        self.seconds, self.memory, self.threads = seconds, memory, threads
        self.workers, self.allow_cmd, self.nice = workers, allow_cmd, nice


class Pool:
    """The server's workers."""

    def __init__(self, limits):
        self.limits = limits
        self.workers = set()

    def worker(self):
        """A new worker for a page (started at its first request); Busy when ``limit``
        workers are open."""
        if len(self.workers) >= self.limits.workers:
            raise Busy(f"{self.limits.workers} searches are open on this server, the most it allows: "
                       "close a page that searches, or try again later")
        w = Worker(self)
        self.workers.add(w)
        return w

    def processes(self):
        """The process ids of the running workers."""
        return [w.proc.pid for w in self.workers if w.proc is not None and w.proc.returncode is None]

    async def close(self):
        await asyncio.gather(*(w.close() for w in list(self.workers)))


class Worker:
    def __init__(self, pool):
        self.pool = pool
        self.proc = None
        self.lock = asyncio.Lock()
        self.busy = None              # the id of the request under way
        self.next_id = 0
        self.closed = False
        self._closing = None

    async def _start(self):
        limits = self.pool.limits
        argv = [sys.executable, "-m", "roost.web.worker", "--seconds", str(limits.seconds),
                "--memory", str(limits.memory), "--address-space", str(limits.memory + OVERHEAD_MB),
                "--nice", str(limits.nice)]
        if limits.allow_cmd:
            argv.append("--allow-cmd")
        env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
        self.proc = await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL, env=env, limit=1 << 24)
        try:
            ready = await asyncio.wait_for(self._read(), STARTUP_TIMEOUT)
        except asyncio.TimeoutError:
            ready = None
        if not ready or not ready.get("ready"):
            if self.proc.returncode is None:
                self.proc.kill()
            await self.proc.wait()
            raise RuntimeError("the search process did not start")

    async def _read(self):
        line = await self.proc.stdout.readline()
        if not line:
            return None
        return json.loads(line)

    async def request(self, request, on_message=None):
        """Send ``request`` (a dict, see ``roost.web.worker``) and return its final answer
        (``result``, ``stopped``, ``done`` or ``error``); ``on_message`` gets every other
        answer (progress, values) as it comes.  A request under way is stopped first."""
        if self.closed:
            raise BadRequest("this page's searches are closed")
        self.stop()
        async with self.lock:
            if self.closed:
                raise BadRequest("this page's searches are closed")
            if self.proc is None or self.proc.returncode is not None:
                await self._start()
            self.next_id += 1
            rid = self.next_id
            self.busy = rid
            try:
                self.proc.stdin.write((json.dumps(dict(request, id=rid)) + "\n").encode())
                await self.proc.stdin.drain()
                while True:
                    msg = await self._read()
                    if msg is None:
                        return {"error": "the search worker ended", "ended": True}
                    if msg.get("id") != rid:
                        continue            # the answer to a stop that came too late
                    if any(k in msg for k in ("result", "stopped", "done", "error")):
                        return msg
                    if on_message is not None:
                        await on_message(msg)
            finally:
                self.busy = None

    def stop(self):
        """Stop the request under way, if any (its answer says what it had)."""
        if self.busy is not None and self.proc is not None and self.proc.returncode is None:
            try:
                self.proc.send_signal(signal.SIGINT)
            except ProcessLookupError:
                pass

    def close(self):
        """End the worker and anything it started: a task the callers (the page, the
        server's shutdown) may all await; the pool counts the worker until it has ended."""
        self.closed = True
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close())
        return self._closing

    async def _close(self):
        proc = self.proc
        try:
            if proc is None or proc.returncode is not None:
                return
            try:
                proc.stdin.close()           # the end of its input: an idle worker leaves at once
                proc.send_signal(signal.SIGTERM)
                try:
                    await asyncio.wait_for(proc.wait(), CLOSE_GRACE)
                except asyncio.TimeoutError:
                    proc.kill()
                    await proc.wait()
            except ProcessLookupError:
                pass
            async with self.lock:            # a request under way ends at the end of the output
                await proc.stdout.read()     # which closes the pipe, and so the transport
        finally:
            self.pool.workers.discard(self)
