"""Trials for tests/test_arena_signals.py, run as a script in a process of their own (a hang
must not hang the test suite, and SIGTERM must reach a process that expects it).

Each trial runs `roost tournament` (in this process, through Click) with a trace hook that
sends this process SIGINT or SIGTERM at the k-th event (a call, a line, a return) of the
tournament's bookkeeping while its database writer is open: the tournament and runner code,
the store, and the queue, threading and multiprocessing code they call.  Every such point
of the writer loop gets its turn across the trials.  A trial must end (no hang: the test's
timeout catches one), print its JSON summary, and have committed every game it handed to
the writer (stored = played, as the database itself counts them).

    python arena_signal_trials.py JOBS TRIALS SEED DIR
prints "trial K SIGNAL" before each trial and "ok N" at the end; a failed check raises.
"""
import contextlib
import io
import json
import os
import random
import signal
import sqlite3
import sys

from roost.arena import store
from roost.cli.main import cli

WATCHED = tuple(os.sep + p for p in (
    "queue.py", "threading.py", os.path.join("multiprocessing", "queues.py"),
    os.path.join("multiprocessing", "synchronize.py"),
    os.path.join("multiprocessing", "connection.py"),
    os.path.join("arena", "store.py"), os.path.join("arena", "tournament.py"),
    os.path.join("arena", "runner.py"), os.path.join("arena", "stopping.py"),
    os.path.join("cli", "tournament.py")))
GAMES = 16


class WriterOpen:
    """Whether the tournament's database writer exists right now (between its creation
    and the end of its close): the span in which a stop must lose nothing."""
    now = False

    @classmethod
    def watch(cls):
        init, close = store.Writer.__init__, store.Writer.close

        def opened(self, *args, **kwargs):
            init(self, *args, **kwargs)
            cls.now = True

        def closed(self):
            try:
                return close(self)
            finally:
                cls.now = False
        store.Writer.__init__, store.Writer.close = opened, closed


class Hook:
    """A trace function: counts the events of watched code while the writer is open and
    sends ``signum`` to this process at event number ``at`` (never, if 0)."""

    def __init__(self, at, signum):
        self.at, self.signum, self.count = at, signum, 0
        self.pid = os.getpid()

    def __call__(self, frame, event, arg):
        if os.getpid() != self.pid:          # a forked worker inherits the hook: not there
            sys.settrace(None)
            return None
        if not frame.f_code.co_filename.endswith(WATCHED):
            return None
        self.tick()
        return self.local

    def local(self, frame, event, arg):
        if os.getpid() == self.pid:
            self.tick()
        return self.local

    def tick(self):
        if not WriterOpen.now:
            return
        self.count += 1
        if self.count == self.at:
            os.kill(os.getpid(), self.signum)


def run(jobs, db, hook):
    args = ["tournament", "ducks", "-e", "random", "-e", "random", "--games", str(GAMES),
            "--jobs", str(jobs), "--db", db, "--no-progress", "--json"]
    out = io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out):
        sys.settrace(hook)
        try:
            cli.main(args, standalone_mode=False)
        except SystemExit as e:
            code = e.code
        finally:
            sys.settrace(None)
    return code, out.getvalue()


def stored(db):
    c = sqlite3.connect(db)
    try:
        return c.execute("SELECT count(*) FROM games").fetchone()[0]
    finally:
        c.close()


def main():
    jobs, trials, seed, folder = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    WriterOpen.watch()
    counter = Hook(0, 0)
    code, _ = run(jobs, os.path.join(folder, "count.db"), counter)
    assert code in (0, None) and counter.count > 100, (code, counter.count)
    rnd = random.Random(seed)
    span = counter.count
    for k in range(trials):
        # spread over the whole writer loop, each trial somewhere in its own slice
        at = 1 + (k * span) // trials + rnd.randrange(max(1, span // trials))
        signum = (signal.SIGINT, signal.SIGTERM)[k % 2]
        print(f"trial {k} {signal.Signals(signum).name} at event {at} of {span}", flush=True)
        db = os.path.join(folder, f"t{k}.db")
        code, out = run(jobs, db, Hook(at, signum))
        assert code in (0, 130, None), f"trial {k}: exit status {code}"
        summary = json.loads(out)           # the summary is printed, interrupted or not
        assert summary["interrupted"] or summary["finished"], summary
        assert stored(db) == summary["stored"] == summary["played_now"], (
            f"trial {k}: {summary['played_now']} games handed to the writer, "
            f"{stored(db)} in the database")
    print(f"ok {trials}", flush=True)


if __name__ == "__main__":
    main()
