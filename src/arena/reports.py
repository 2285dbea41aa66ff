"""What an engine said of each move it chose, as the arena keeps it, and what the reports of
many games add up to for each engine.

A ``Report`` is the value the engine gave the position (the mover's expected result in
[0, 1], None from an engine that gives none: a random mover, a person, a program that sent
no value), how far it searched (alpha-beta's depth, MCTS's iterations), the nodes, and a
proven result with its line.  ``reported(result)`` reads one from an engine's search
result: the one place the arena looks into a search result, so that a change of the
result's type changes only that function.  A game record keeps a report per ply (None
where no engine was asked: chance, a forced move); its ``row`` is the compact form the
database stores.

``seat_stats`` sums a game's reports per seat, the database keeps those sums with the
game, and ``EngineStats`` adds them up per engine for the tournament's summary: moves
searched, mean seconds a move, mean depth or iterations, nodes (or iterations) a second,
and the games in which the engine proved a result.
"""
from dataclasses import dataclass, field

PROVEN = ("win", "loss", "draw")


@dataclass(frozen=True)
class Report:
    value: float = None          # the mover's expected result; None: the engine gives none
    depth: int = 0               # alpha-beta: the depth completed (0: none reported)
    nodes: int = 0               # alpha-beta's nodes, MCTS's tree nodes
    iterations: int = 0          # MCTS: the iterations of the search (0: not MCTS)
    proven: str = ""             # "win", "loss" or "draw" for the mover when proved
    line: tuple = ()             # the principal variation (move names), kept for a proof

    def row(self):
        """The stored form: ``[value, depth, nodes, iterations]`` and the proof, if any."""
        out = [None if self.value is None else round(self.value, 4), self.depth, self.nodes,
               self.iterations]
        return out + [self.proven] if self.proven else out

    @classmethod
    def from_row(cls, row):
        if row is None:
            return None
        value, depth, nodes, iterations, *proof = row
        return cls(value=value, depth=depth, nodes=nodes, iterations=iterations,
                   proven=proof[0] if proof else "")

    @property
    def work(self):
        """What the engine counts its speed in: iterations (MCTS), else nodes."""
        return self.iterations or self.nodes


def reported(result):
    """The Report of an engine's search result (``search.result.SearchResult``).  Engines
    that give no value say so: the random mover and a person by their spec, a program over
    the engine protocol by sending none (``info["no_value"]``)."""
    no_value = (result.engine in ("random", "human")
                or bool(getattr(result, "info", None) and result.info.get("no_value")))
    # a value that averages over chance (alpha-beta's expectimax) is no proof of a result
    proven = result.proven if result.proven in PROVEN and not result.expectation else ""
    return Report(value=None if no_value else float(result.value), depth=int(result.depth or 0),
                  nodes=int(result.nodes or 0), iterations=int(result.iterations or 0),
                  proven=proven, line=tuple(result.pv) if proven else ())


# the per-seat sums of a game, in this order (the stored form)
_SUMS = ("moves", "seconds", "depth", "depth_moves", "iterations", "iteration_moves", "work",
         "proofs")


def seat_stats(players, movers, times, reports):
    """Per seat, the sums over its moves that an engine was asked for (those with a report):
    ``{"moves", "seconds", "depth", "depth_moves", "iterations", "iteration_moves", "work",
    "proofs"}``, work being nodes or iterations, proofs 1 if it proved a result (a dict per
    seat, as the database stores it)."""
    out = [dict.fromkeys(_SUMS, 0) for _ in range(players)]
    for mover, spent, r in zip(movers, times, reports):
        if r is None or mover < 0:
            continue
        s = out[mover]
        s["moves"] += 1
        s["seconds"] += spent
        if r.depth:
            s["depth"] += r.depth
            s["depth_moves"] += 1
        if r.iterations:
            s["iterations"] += r.iterations
            s["iteration_moves"] += 1
        s["work"] += r.work
        if r.proven:
            s["proofs"] = 1
    for s in out:
        s["seconds"] = round(s["seconds"], 6)
    return out


@dataclass
class EngineStats:
    """One engine's sums over the games it played (``add`` a game's seat sums)."""
    sums: dict = field(default_factory=lambda: dict.fromkeys(_SUMS, 0))

    def add(self, seat):
        for k in _SUMS:
            self.sums[k] += seat.get(k, 0)

    def as_dict(self, time_forfeits=0):
        s = self.sums
        moves = s["moves"]
        return {"moves": moves,
                "seconds_per_move": round(s["seconds"] / moves, 4) if moves else None,
                "mean_depth": round(s["depth"] / s["depth_moves"], 2) if s["depth_moves"] else None,
                "mean_iterations": (round(s["iterations"] / s["iteration_moves"], 1)
                                    if s["iteration_moves"] else None),
                "nodes_per_second": (round(s["work"] / s["seconds"])
                                     if s["seconds"] > 0 and s["work"] else None),
                "time_forfeits": time_forfeits, "games_with_proofs": s["proofs"]}
