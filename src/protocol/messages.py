"""The words of the protocol (docs/protocol.md) and the lines with fields: ``go``, ``info``,
``option``.  Times on the wire are whole milliseconds; a value is the mover's expected
result in [0, 1], as everywhere in roost.

>>> Go.parse("clock 61000 inc 500 seed 7").line()
'go clock 61000 inc 500 seed 7'
>>> Info.parse("depth 3 nodes 1200 time 15 value 0.62 pv c4 d5").pv
['c4', 'd5']
"""
from dataclasses import dataclass, field

from roost.core.errors import RoostError

# arena -> engine
HELLO = "roost"              # roost VERSION: the handshake
SETOPTION = "setoption"
NEWGAME = "newgame"
ISREADY = "isready"
POSITION = "position"
WORLD = "world"
MOVES = "moves"
GO = "go"
STOP = "stop"
QUIT = "quit"
# engine -> arena
ID = "id"
OPTION = "option"
HELLO_OK = "roostok"
READYOK = "readyok"
INFO = "info"
BESTMOVE = "bestmove"
ERROR = "error"


ECHO = 120                   # characters of a line an answer quotes back at most


class ProtocolError(RoostError):
    """A line that does not follow the engine protocol."""


def cut(text, limit=ECHO):
    """``text``, or its start and its length when it is longer than ``limit``: what an
    answer quotes of a line must stay a line, whatever was sent.

    >>> cut("x" * 1000, 10)
    'xxxxxxxxxx... (1000 characters)'
    """
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def split(line):
    """(first word, the rest of the line) of a line; ('', '') for a blank one."""
    line = line.strip()
    word, _, rest = line.partition(" ")
    return word, rest.strip()


def _count(text, what, lo=0):
    try:
        v = int(text)
    except (TypeError, ValueError):
        raise ProtocolError(f"go: {what} must be a whole number, got {cut(text)!r}") from None
    if v < lo:
        raise ProtocolError(f"go: {what} must be at least {lo}, got {v}")
    return v


@dataclass
class Go:
    """The limits of one search.  ``clock`` is the mover's time left and ``inc`` what it
    gains after the move (ms); ``movetime`` a fixed time for this move (ms); ``nodes`` and
    ``depth`` caps; ``seed`` the seed the arena would use in-process (an engine may use it
    so games replay); ``infinite``: search until ``stop``."""
    movetime: int = None
    nodes: int = None
    depth: int = None
    clock: int = None
    inc: int = None
    seed: int = None
    infinite: bool = False

    _FIELDS = ("movetime", "nodes", "depth", "clock", "inc", "seed")

    def line(self):
        words = [GO]
        for name in self._FIELDS:
            v = getattr(self, name)
            if v is not None:
                words += [name, str(v)]
        if self.infinite:
            words.append("infinite")
        return " ".join(words)

    @classmethod
    def parse(cls, rest):
        go = cls()
        words = rest.split()
        i = 0
        while i < len(words):
            w = words[i]
            if w == "infinite":
                go.infinite = True
                i += 1
                continue
            if w not in cls._FIELDS:
                raise ProtocolError(f"go: unknown limit {cut(w)!r} (limits: {', '.join(cls._FIELDS)}, infinite)")
            if i + 1 >= len(words):
                raise ProtocolError(f"go: {w} needs a value")
            lo = 1 if w in ("nodes", "depth") else 0
            setattr(go, w, _count(words[i + 1], w, lo))
            i += 2
        return go


@dataclass
class Info:
    """What an engine reports while it searches; every field optional.  ``pv`` and
    ``string`` take the rest of the line."""
    depth: int = None
    seldepth: int = None
    nodes: int = None
    time: int = None
    nps: int = None
    iterations: int = None         # MCTS: iterations so far (PIMC: in the world under search)
    world: int = None              # PIMC: the world under search, from 1
    value: float = None
    best: str = None               # MCTS: the move most visited so far
    share: float = None            # MCTS: that move's share of the root visits
    proven: str = None             # "win", "loss" or "draw" for the mover, once proved
    pv: list = field(default_factory=list)
    string: str = None

    _NUMBERS = ("depth", "seldepth", "nodes", "time", "nps", "iterations", "world")

    def line(self):
        words = [INFO]
        for name in self._NUMBERS:
            v = getattr(self, name)
            if v is not None:
                words += [name, str(int(v))]
        if self.value is not None:
            words += ["value", f"{self.value:.4f}"]
        if self.best is not None:
            words += ["best", self.best]
        if self.share is not None:
            words += ["share", f"{self.share:.4f}"]
        if self.proven is not None:
            words += ["proven", self.proven]
        if self.pv:
            words += ["pv", *self.pv]
        if self.string is not None:
            words += ["string", self.string]
        return " ".join(words)

    @classmethod
    def parse(cls, rest):
        """Lenient, as a reader of other programs' output must be: a field that does not
        read is skipped, an unknown field with it (its value is one word)."""
        info = cls()
        words = rest.split()
        i = 0
        while i < len(words):
            w = words[i]
            if w == "pv":
                info.pv = words[i + 1:]
                break
            if w == "string":
                info.string = " ".join(words[i + 1:])
                break
            v = words[i + 1] if i + 1 < len(words) else None
            try:
                if w in cls._NUMBERS:
                    setattr(info, w, int(v))
                elif w == "value":
                    info.value = min(1.0, max(0.0, float(v)))
                elif w == "share":
                    info.share = min(1.0, max(0.0, float(v)))
                elif w == "best" and v is not None:
                    info.best = v
                elif w == "proven" and v in ("win", "loss", "draw"):
                    info.proven = v
            except (TypeError, ValueError):
                pass
            i += 2
        return info


def _number(v):
    # an int option's limits stay integers (1000000000, not 1e+09) for a client to parse
    return f"{v:g}" if isinstance(v, float) else str(v)


def option_line(param):
    """The ``option`` line declaring an engine parameter (an ``engines.Param``)."""
    if param.choices is not None:
        kind = "choice"
    else:
        kind = {int: "int", float: "float", bool: "bool"}.get(param.kind, "string")
    default = param.default
    if isinstance(default, bool):
        default = int(default)
    words = [OPTION, "name", param.name, "type", kind, "default", _number(default)]
    if param.minimum is not None:
        words += ["min", _number(param.minimum)]
    if param.maximum is not None:
        words += ["max", _number(param.maximum)]
    for c in param.choices or ():
        words += ["var", c]
    return " ".join(words)


def parse_setoption(rest):
    """(name, value) of ``setoption name NAME value VALUE``."""
    words = rest.split()
    if len(words) != 4 or words[0] != "name" or words[2] != "value":
        raise ProtocolError(f"setoption: expected 'setoption name NAME value VALUE', got {cut(rest)!r}")
    return words[1], words[3]


def parse_newgame(rest):
    """(game, players, seat) of ``newgame GAME players N seat K``."""
    words = rest.split()
    if len(words) != 5 or words[1] != "players" or words[3] != "seat":
        raise ProtocolError(f"newgame: expected 'newgame GAME players N seat K', got {cut(rest)!r}")
    try:
        players, seat = int(words[2]), int(words[4])
    except ValueError:
        raise ProtocolError(f"newgame: players and seat are whole numbers, got {cut(rest)!r}") from None
    if not 0 <= seat < players:
        raise ProtocolError(f"newgame: seat {seat} is not one of the {players} seats (0..{players - 1})")
    return words[0], players, seat
