"""What every search returns: the best move, its value, the principal variation, counts,
and per-move statistics.  A value is always the searching player's expected result in
[0, 1]; ``score`` keeps the engine's own units (alpha-beta score, win/loss distance)."""
from dataclasses import dataclass, field


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

    @property
    def speed(self):
        """Nodes (alpha-beta) or iterations (MCTS) per second."""
        n = self.iterations or self.nodes
        return n / self.seconds if self.seconds > 0 else 0.0

    def as_dict(self):
        return {
            "engine": self.engine, "move": self.move_name, "id": self.move,
            "player": self.player, "value": round(self.value, 4),
            **({"values": [round(v, 4) for v in self.values]} if self.values else {}),
            "score": self.score,
            "pv": self.pv, "nodes": self.nodes, "iterations": self.iterations,
            "depth": self.depth, "seconds": round(self.seconds, 4),
            "speed": round(self.speed, 1), "proven": self.proven or None,
            "expectation": self.expectation,
            "stats": [s.as_dict() for s in self.stats], **({"info": self.info} if self.info else {}),
        }
