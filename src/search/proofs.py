"""A bounded proof beside a game's main search, for two-player games of perfect information.

``auto`` first gives part of a move's budget to alpha-beta's solve (the window tests to the
end of the game, src/search/negamax.pyx) in a small proof table kept from move to move, so
what earlier moves proved makes later proofs cheaper.  A proven position is played by its
proof: the move that keeps the proven win or draw (or resists a proven loss longest), never
one that gives it away.  An unfinished proof still tells which root moves it showed to
lose; the main search's move is replaced by its best other one when it is one of those.

>>> from roost.core.games import get_game
>>> proof = Prover().prove(get_game("connect4").parse("4455"), seconds=0, nodes=100000)
>>> proof.result.proven, proof.result.move_name
('win', '3')
"""
from dataclasses import dataclass, field

PROOF_SHARE = 0.5        # the part of a move's time (or node budget) the proof may take
PROOF_MAX_SECONDS = 30.0 # and at most this long (a search until stopped has 1e9 s)
PROOF_TT_MB = 16         # its table: a proof uses at most 8 MB of it (src/search/tt.pxd)


@dataclass
class Proof:
    result: object                       # the solve's SearchResult (proven or not)
    losing: frozenset = field(default_factory=frozenset)   # root moves shown to lose


def provable(state):
    """Whether a proof is worth a share of the move: two players, nothing hidden, a decision
    to make (chance ahead stops a proof when it is met), in a game that bounds its length
    (there the proof's null windows close on the score; in a game that does not, a proof
    rarely ends within a move, and MCTS's own solver proves what is near)."""
    return (state.players == 2 and not state.hidden_info and not state.is_chance
            and not state.is_over and state.length_bound is not None)


class Prover:
    """Bounded solves of the positions one player meets, in one table."""

    def __init__(self):
        self._engine = None

    def prove(self, state, seconds=0.0, nodes=0, seed=0):
        """A solve of ``state`` within ``seconds`` and ``nodes`` (0: no such limit); None when
        chance ahead stops it."""
        from roost.search.alphabeta import ChanceInSolve
        from roost.search.engines import parse_engine
        from roost.search.limit import Limit
        if self._engine is None:
            self._engine = parse_engine(f"ab:tt={PROOF_TT_MB},eval=none")
        try:
            r = self._engine.choose(state, Limit(time=seconds or None, nodes=nodes or None),
                                    seed=seed, solve=True)
        except ChanceInSolve:
            return None
        # a move's value 0 is a loss (an exact one, or a bound at most a loss): only a
        # proof's score reaches it, a heuristic one stays inside the results
        losing = frozenset(st.move for st in r.stats if st.value == 0.0)
        return Proof(r, losing)

    def new_game(self):
        if self._engine is not None:
            self._engine.new_game()


def proof_seconds(proof):
    """The seconds a proof took (none when chance stopped it at once)."""
    return 0.0 if proof is None else proof.result.seconds


def keep_clear_of(result, losing):
    """Replace ``result``'s move, when the proof showed it loses, by the main search's best
    move the proof did not (by visits, else value); unchanged when every move loses."""
    if result.move not in losing:
        return
    others = [st for st in result.stats if st.move not in losing]
    if not others:
        return
    best = max(others, key=lambda st: (st.visits, st.value if st.value is not None else 0.0))
    result.info["proof"] = f"{result.move_name} loses (proven): {best.name} instead"
    result.move, result.move_name, result.pv = best.move, best.name, [best.name]
