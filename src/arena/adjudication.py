"""Ending a two-player game early when its engines agree how it ends, as cutechess-cli's
``-resign`` and ``-draw`` do and a tablebase does for a proven result.

The rules read what the engines reported with their moves (``reports.Report``: the mover's
expected result in [0, 1], or a proven result):

- ``Resign(moves=N, value=V)``: a seat loses when, for its last N moves, its own engine
  valued its position at most V, and for the opponent's last N moves the opponent's engine
  valued its own at least 1 - V;
- ``Draw(after=M, moves=N, value=V)``: from the M-th move of the game on, when the last N
  moves of both seats were valued within V of an even result (0.5);
- ``proofs``: when the mover's engine reports a proven win, loss or draw for the mover, the
  game ends with that result; the ending keeps the proof's line.

A move whose engine gives no value (the random mover, a program that sends none) breaks a
run; a forced move (played by the arena without asking) leaves the runs as they were.  An
adjudicated game's ending says so: ``{"reason": "adjudicated", "rule": "resign" | "draw" |
"proof", "detail": ...}`` (with ``"line"`` for a proof), and its result is the one the rule
gives (1 and 0, or a draw).  A proof that averages over chance (alpha-beta's expectimax) is
not taken for one.
"""
import math
from dataclasses import dataclass

from roost.core.errors import RoostError


class AdjudicationError(RoostError):
    """A rule's settings that do not read."""


def _settings(text, kinds, what, example):
    """``"name=value,..."`` -> {name: value} for the names of ``kinds`` (name -> type)."""
    values = {}
    for item in str(text).split(","):
        item = item.strip()
        if not item:
            continue
        name, eq, value = item.partition("=")
        name = name.strip().lower()
        if not eq or name not in kinds:
            raise AdjudicationError(f"bad {what} setting {item!r}: expected "
                                    f"{', '.join(n + '=' for n in kinds)} (e.g. {example})")
        if name in values:
            raise AdjudicationError(f"{what} setting {name!r} given twice")
        try:
            v = kinds[name](value.strip())
        except ValueError:
            kind = "a whole number" if kinds[name] is int else "a number"
            raise AdjudicationError(f"{what} setting {name} must be {kind}, got "
                                    f"{value.strip()!r}") from None
        if isinstance(v, float) and not math.isfinite(v):
            raise AdjudicationError(f"{what} setting {name} must be finite, got {value.strip()!r}")
        values[name] = v
    return values


def _check(what, moves, value, top):
    if moves < 1:
        raise AdjudicationError(f"{what} moves must be at least 1, not {moves}")
    if not 0.0 <= value < top:
        raise AdjudicationError(f"{what} value must be from 0 to below {top:g}, not {value:g}")


@dataclass(frozen=True)
class Resign:
    moves: int = 4
    value: float = 0.05
    EXAMPLE = "moves=4,value=0.05"

    @classmethod
    def parse(cls, text):
        r = cls(**_settings(text, {"moves": int, "value": float}, "resign", cls.EXAMPLE))
        _check("resign", r.moves, r.value, 0.5)
        return r

    def text(self):
        return f"moves={self.moves},value={self.value:g}"


@dataclass(frozen=True)
class Draw:
    after: int = 40
    moves: int = 8
    value: float = 0.05
    EXAMPLE = "after=40,moves=8,value=0.05"

    @classmethod
    def parse(cls, text):
        d = cls(**_settings(text, {"after": int, "moves": int, "value": float}, "draw",
                            cls.EXAMPLE))
        if d.after < 0:
            raise AdjudicationError(f"draw after must be at least 0, not {d.after}")
        _check("draw", d.moves, d.value, 0.5)
        return d

    def text(self):
        return f"after={self.after},moves={self.moves},value={self.value:g}"


@dataclass(frozen=True)
class Adjudication:
    """The rules a match or tournament ends its games by (None / False: not used)."""
    resign: Resign = None
    draw: Draw = None
    proofs: bool = False

    def __bool__(self):
        return bool(self.resign or self.draw or self.proofs)

    def as_dict(self):
        d = {}
        if self.resign:
            d["resign"] = self.resign.text()
        if self.draw:
            d["draw"] = self.draw.text()
        if self.proofs:
            d["proofs"] = True
        return d

    @classmethod
    def from_dict(cls, d):
        d = d or {}
        return cls(resign=Resign.parse(d["resign"]) if d.get("resign") else None,
                   draw=Draw.parse(d["draw"]) if d.get("draw") else None,
                   proofs=bool(d.get("proofs")))

    def text(self):
        parts = [f"resign {self.resign.text()}"] if self.resign else []
        if self.draw:
            parts.append(f"draw {self.draw.text()}")
        if self.proofs:
            parts.append("proven results")
        return ", ".join(parts)

    def check_players(self, players):
        if self and players != 2:
            raise AdjudicationError(f"adjudication judges two-player games, not {players} players "
                                    "(a seat's resignation or a proof does not rank the others)")

    def judge(self, seats):
        """A Judge for one game between the engine specs ``seats``."""
        return Judge(self, seats)


def is_adjudicated(ending):
    return bool(ending) and ending.get("reason") == "adjudicated"


class Judge:
    """One game's watcher: ``see`` each engine move's report; it returns ``(result,
    ending)`` when a rule ends the game, else None."""

    def __init__(self, rules, seats):
        self.rules = rules
        self.seats = list(seats)
        self.moves = 0                      # the players' moves so far, forced ones included
        self.low = [0, 0]                   # a seat's own moves in a row valued <= resign value
        self.high = [0, 0]                  # ... valued >= 1 - resign value
        self.even = [0, 0]                  # ... valued within the draw value of 0.5

    def _who(self, seat):
        return f"p{seat} ({self.seats[seat]})"

    def forced(self):
        """A forced move was played (no engine asked): it counts as a move of the game."""
        self.moves += 1

    def see(self, mover, report):
        self.moves += 1
        rules = self.rules
        if rules.proofs and report is not None and report.proven:
            return self._proof(mover, report)
        value = None if report is None else report.value
        for run, hit in ((self.low, rules.resign and value is not None and value <= rules.resign.value),
                         (self.high, rules.resign and value is not None
                          and value >= 1.0 - rules.resign.value),
                         (self.even, rules.draw and value is not None
                          and abs(value - 0.5) <= rules.draw.value)):
            run[mover] = run[mover] + 1 if hit else 0
        if rules.resign:
            n = rules.resign.moves
            for loser in (0, 1):
                if self.low[loser] >= n and self.high[1 - loser] >= n:
                    return self._end(
                        (0.0, 1.0) if loser == 0 else (1.0, 0.0), "resign",
                        f"{self._who(loser)} resigns: for {n} moves of each side its engine valued "
                        f"its position at most {rules.resign.value:g} and its opponent's at least "
                        f"{1 - rules.resign.value:g}")
        if rules.draw and self.moves >= rules.draw.after:
            n = rules.draw.moves
            if min(self.even) >= n:
                return self._end((0.5, 0.5), "draw",
                                 f"a draw at move {self.moves}: both engines valued their "
                                 f"positions within {rules.draw.value:g} of even for {n} moves each")
        return None

    def _proof(self, mover, report):
        verdict = report.proven
        result = ((1.0, 0.0) if (verdict == "win") == (mover == 0) else (0.0, 1.0)) \
            if verdict != "draw" else (0.5, 0.5)
        what = "a draw" if verdict == "draw" else f"a {verdict} for p{mover}"
        line = list(report.line)
        shown = f": {' '.join(line)}" if line else ""
        result, ending = self._end(result, "proof", f"{self._who(mover)} proved {what}{shown}")
        ending["line"] = line
        ending["by"] = mover
        return result, ending

    @staticmethod
    def _end(result, rule, detail):
        return result, {"reason": "adjudicated", "rule": rule, "detail": detail}
