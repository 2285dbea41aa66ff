"""How a tournament stops on Ctrl-C (SIGINT) or kill (SIGTERM) without losing a finished game.

A Python signal handler runs in the main thread between two bytecodes, wherever that thread
happens to be.  An exception raised there can leave the lock of a queue or a condition held
(it unwinds from inside ``Queue.put``, between taking the lock and the ``with`` that would
release it), and the database writer then waits forever for a record that never comes.
So the handler only records the request, and the backends' loops look at it at points of
their own where nothing is held (``StopRequest.check``) and stop from there.

The one exception is a game being played in the tournament's own process (``--jobs 1``):
the searchers notice Ctrl-C themselves and return at once, which needs the
KeyboardInterrupt; nothing of the writer's or the queues' is held while a game is played,
and the abandoned game is played again on resume.
"""
import signal
import threading
from contextlib import contextmanager

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class StopRequest:
    """A stop asked for by a signal (or by a program calling ``request``)."""

    def __init__(self):
        self.signal = 0
        self.in_game = False         # a game is being played in this very thread

    @property
    def requested(self):
        return self.signal != 0

    def request(self, signum=signal.SIGINT):
        self.signal = signum

    def handler(self, signum, frame):
        self.signal = signum
        if self.in_game:
            self.in_game = False
            raise KeyboardInterrupt

    def check(self):
        """Stop here (a point of a loop where no lock is held) if a stop was asked."""
        if self.signal:
            raise KeyboardInterrupt

    @contextmanager
    def game(self):
        """Around a game played in this process: a signal abandons it at once."""
        self.in_game = True
        try:
            self.check()
            yield
        finally:
            self.in_game = False

    @contextmanager
    def installed(self, signals=STOP_SIGNALS):
        """Route ``signals`` to this request while the block runs (the previous handlers
        come back afterwards).  Outside the main thread Python delivers no signals to
        handlers set here, so nothing is installed there."""
        if threading.current_thread() is not threading.main_thread():
            yield self
            return
        previous = {}
        try:
            for s in signals:
                if signal.getsignal(s) is signal.SIG_IGN:    # e.g. SIGINT of a background job
                    continue
                previous[s] = signal.signal(s, self.handler)
            yield self
        finally:
            for s, h in previous.items():
                signal.signal(s, h)
