"""How long one search may go: ``Limit(time=, nodes=, depth=, clock=, inc=)``, as
python-chess's ``Limit``, or ``Limit(infinite=True)``: until it is stopped.

A limit is laid over the engine's own settings: each limit given caps the setting it
names (the smaller wins; a setting of 0 is no limit of its own), and an engine without
such a setting searches by its others.  ``clock`` and ``inc`` are the mover's clock: the
time manager (``roost.search.timeman``) allots the move its share, which caps the time as
``time`` would; ``margin`` is how long past the clock's end an answer still counts (the
arena's rule, which an engine in another process needs to know how long to wait).
``infinite`` lifts the engine's own budget (the spec's time, nodes and depth): the search
goes on until it is stopped (the protocol's ``stop``, Ctrl-C), or until a limit given with
it is reached.

>>> Limit(time=0.5, depth=6)
Limit(time=0.5, depth=6)
>>> Limit(infinite=True)
Limit(infinite=True)
>>> Limit(nodes=-1)
Traceback (most recent call last):
...
roost.search.limit.LimitError: a search limit's nodes must be a whole number from 0, not -1
"""
import math
from dataclasses import dataclass, fields

from roost.core.errors import RoostError
from roost.search.forfeits import MARGIN


# seconds a search until stopped is given, where its engine names no longest time (the
# searchers' own longest is the same)
UNTIL_STOPPED = 1e9


class LimitError(RoostError):
    """A search limit that is not a number a search can keep to."""


@dataclass(frozen=True)
class Limit:
    time: float = None       # seconds for this move
    nodes: int = None        # alpha-beta nodes, MCTS iterations, OpenSpiel's simulations
    depth: int = None        # plies (alpha-beta)
    clock: float = None      # seconds left on the mover's clock (may be a little below 0)
    inc: float = 0.0         # seconds added to it after each of the mover's moves
    margin: float = MARGIN   # seconds past the clock's end an answer still counts
    infinite: bool = False   # until stopped: the engine's own budget lifted

    def __post_init__(self):
        if not isinstance(self.infinite, bool):
            raise LimitError(f"a search limit's infinite is True or False, not {self.infinite!r}")
        for name in ("nodes", "depth"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
                raise LimitError(f"a search limit's {name} must be a whole number from 0, not {value!r}")
        for name in ("time", "clock", "inc", "margin"):
            value = getattr(self, name)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise LimitError(f"a search limit's {name} must be a finite number of seconds, not {value!r}")
            if value < 0 and name != "clock":
                raise LimitError(f"a search limit's {name} must be at least 0 seconds, not {value!r}")

    def __repr__(self):
        given = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
                 if getattr(self, f.name) != f.default]
        return f"Limit({', '.join(given)})"

    def seconds(self, state):
        """The seconds this move may take at ``state``: ``time``, capped by the clock's
        allotment (a time manager for the game of ``state``); None when neither is given."""
        if self.clock is None:
            return self.time
        from roost.search.timeman import Clock, TimeManager
        share = TimeManager.for_state(state).allocate(Clock(self.clock, self.inc), state)
        return share if self.time is None else min(self.time, share)
