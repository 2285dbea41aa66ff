"""What every search returns: the best move, its value, the principal variation, counts,
and per-move statistics.  A value is always the searching player's expected result in
[0, 1]; ``score`` keeps the engine's own units (alpha-beta score, win/loss distance).

Two levels: a searcher (``AlphaBeta``, ``MCTS``, ``Pimc``) reports a ``Report`` in move ids
and its own units (each kind its own subclass, made where its search ends:
``alphabeta_report.AlphaBetaReport``, ``mcts_report.MctsReport``, ``pimc.PimcReport``); an
engine reads any of them the same way (``Engine.read_report``) as the ``SearchResult`` every
engine kind returns, the moves named in the world of the seat the analysis is for.
"""
from dataclasses import dataclass, field


@dataclass
class Report:
    """What a searcher reports: the move chosen, its value for the player to move, the
    principal variation (ids) and the counts; the fields a searcher does not have keep
    their defaults."""
    move: int
    value: float = 0.5
    pv: list = field(default_factory=list)
    nodes: int = 0               # alpha-beta nodes; MCTS tree nodes made
    iterations: int = 0          # MCTS iterations (PIMC: over every world)
    depth: int = 0               # alpha-beta: the deepest complete iteration
    seldepth: int = 0
    seconds: float = 0.0
    score: float = None          # alpha-beta: the root's score
    exact: bool = False          # alpha-beta: the score is proven
    chance: bool = False         # alpha-beta: the search met chance (the value is an expectation)
    proven: str = ""             # MCTS: the chosen move's proof for the mover
    root_proven: str = ""        # MCTS: the root's own
    root_moves: list = field(default_factory=list)     # [root_move.RootMove]
    threads: int = 1
    memory: int = 0              # MCTS: bytes of node store
    playout_plies: int = 0       # MCTS: plies its playouts played
    worlds: int = 0              # PIMC: worlds searched
    seat_value: float = None     # PIMC: the observer's expected result, where the worlds tell it

    # whether ``pv`` is a line of play, named as far as the observer can follow it in its
    # world; a kind whose pv is only the move it chose names that move as it stands
    pv_is_line = True

    def chosen(self):
        """The RootMove of the move chosen, or None."""
        return next((m for m in self.root_moves if m.move == self.move), None)

    def score_text(self):
        """The result in the searcher's own units, as ``SearchResult.score`` shows it."""
        return f"{self.value:.3f}"

    @property
    def expectation(self):
        """Whether the value is an expectation rather than a proof."""
        return not self.proven

    def extras(self):
        """The searcher's own figures for ``SearchResult.info``."""
        return {}


@dataclass
class MoveStat:
    move: int
    name: str
    visits: int = 0          # MCTS visits (0 for alpha-beta)
    value: float = 0.5       # the mover's expected result after this move, in [0, 1]
                             # (None where the engine did not search the move exactly)
    proven: str = ""         # "win", "loss", "draw" when proven for the mover
    values: list = field(default_factory=list)   # every player's expected result (MCTS)
    bound: str = ""          # "upper": alpha-beta only showed the value is at most this

    def as_dict(self):
        d = {"move": self.name, "id": self.move, "visits": self.visits,
             "value": None if self.value is None else round(self.value, 4),
             "proven": self.proven or None}
        if self.bound:
            d["bound"] = self.bound
        if self.values:
            d["values"] = [round(v, 4) for v in self.values]
        return d


@dataclass
class SearchResult:
    engine: str
    move: int
    move_name: str
    player: int
    value: float                       # expected result for `player` in [0, 1]
    values: list = field(default_factory=list)    # every player's, where the engine knows
    score: str = ""                    # engine units: "+0.23", "win in 7", "loss in 4"
    pv: list = field(default_factory=list)        # move names
    nodes: int = 0                     # alpha-beta nodes or MCTS iterations
    iterations: int = 0
    depth: int = 0
    seconds: float = 0.0
    proven: str = ""                   # "win"/"loss"/"draw" when the value is a proof
    expectation: bool = False          # the value averages over chance (not a proof)
    stats: list = field(default_factory=list)     # [MoveStat]
    info: dict = field(default_factory=dict)      # engine-specific extras
    # multi-PV: the best lines, best first, each {"move", "value", "verdict", "pv"} (the
    # value for `player`; verdict "win in 7"/"loss in 4"/"draw" once proven, else "")
    lines: list = field(default_factory=list)
    # the seat the analysis is for (None: the player to move) and that seat's expected
    # result in [0, 1] when the mover plays `move`; the search read only what it can see
    seat: int = None
    seat_value: float = None

    @property
    def speed(self):
        """Nodes (alpha-beta) or iterations (MCTS) per second."""
        n = self.iterations or self.nodes
        return n / self.seconds if self.seconds > 0 else 0.0

    def as_dict(self):
        return {
            "engine": self.engine, "move": self.move_name, "id": self.move,
            "player": self.player, "value": round(self.value, 4),
            "seat": self.player if self.seat is None else self.seat,
            "seat_value": round(self.value if self.seat_value is None else self.seat_value, 4),
            **({"values": [round(v, 4) for v in self.values]} if self.values else {}),
            "score": self.score,
            "pv": self.pv, "nodes": self.nodes, "iterations": self.iterations,
            "depth": self.depth, "seconds": round(self.seconds, 4),
            "speed": round(self.speed, 1), "proven": self.proven or None,
            "expectation": self.expectation,
            "stats": [s.as_dict() for s in self.stats], **({"info": self.info} if self.info else {}),
            **({"lines": [dict(l, value=round(l["value"], 4)) for l in self.lines]} if self.lines else {}),
        }


def verdict_text(proven, plies=None):
    """A proven result for the player to move: 'win in 7', 'loss in 4', 'draw'."""
    if proven == "draw" or not proven:
        return proven
    return f"{proven} in {plies}" if plies else proven


@dataclass
class Progress:
    """One progress report of a search under way, for a live display: alpha-beta sends one
    per completed depth, MCTS one at growing intervals.  ``value`` is the expected result
    for the player to move (in [0, 1]); ``verdict`` replaces it once proven ("win in 7")."""
    seconds: float
    nodes: int = 0                     # alpha-beta nodes, or MCTS tree nodes
    iterations: int = 0                # MCTS
    depth: int = 0                     # alpha-beta
    value: float = None
    verdict: str = ""
    best: str = ""
    share: float = None                # the best move's share of the root visits (MCTS)
    pv: list = field(default_factory=list)
    world: tuple = None                # PIMC: (this world from 1, worlds)
    line: int = 0                      # multi-PV: the line searched (from 1), 0 without

    @property
    def speed(self):
        n = self.iterations or self.nodes
        return n / self.seconds if self.seconds > 0 else 0.0

    def text(self):
        parts = [f"line {self.line}"] if self.line else []
        if self.world:
            parts.append(f"world {self.world[0]} of {self.world[1]}")
        if self.iterations:
            parts.append(f"{self.iterations:,} iteration{'s' if self.iterations != 1 else ''}")
        else:
            parts.append(f"depth {self.depth}")
        if self.best:
            share = f" ({100 * self.share:.0f}% of visits)" if self.share is not None else ""
            parts.append(f"best {self.best}{share}")
        if self.verdict:
            parts.append(self.verdict)
        elif self.value is not None:
            parts.append(f"value {self.value:.3f}")
        if not self.iterations:
            parts.append(f"{self.nodes:,} nodes")
        unit = "iterations/s" if self.iterations else "nodes/s"
        parts.append(f"{self.seconds:.2f} s" + (f" ({self.speed:,.0f} {unit})" if self.seconds >= 0.01 else ""))
        if self.pv:
            parts.append("pv " + " ".join(self.pv))
        return "  ".join(parts)

    __str__ = text

    def as_dict(self):
        d = {"seconds": round(self.seconds, 4), "nodes": self.nodes}
        if self.iterations:
            d["iterations"] = self.iterations
        else:
            d["depth"] = self.depth
        d["speed"] = round(self.speed, 1)
        if self.best:
            d["best"] = self.best
        if self.share is not None:
            d["share"] = round(self.share, 4)
        d["value"] = None if self.value is None else round(self.value, 4)
        d["verdict"] = self.verdict or None
        d["pv"] = self.pv
        if self.world:
            d["world"], d["worlds"] = self.world
        if self.line:
            d["line"] = self.line
        return d
