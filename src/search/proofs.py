"""A bounded proof beside a game's main search, for two-player games of perfect information.

Play needs only whether the position is won, drawn or lost, and a move that keeps it: not
the distance to the result, which a solve bisects with several window tests near the draw.
The proof is two null-window tests to the end of the game (src/search/wdl.pyx), in a proof
table kept from move to move, so what earlier moves proved makes later proofs cheaper:
"does a move keep a draw or better?", then "does a move win?".  A settled win or draw is
played by its proof: a move the test showed to reach it.

``auto`` runs the proof in one of two ways.  With one thread, after the main search, in the
part of the move's budget the search left, trying the search's move first (``Prover.prove``).
With two or more (``auto:threads=N``), on a thread of its own for the whole move, while the
main search runs on the others (``Prover.start``): on a machine with a core to spare the
proof has twice the time and the main search all of its own.

An unfinished proof still tells what the main search's move is worth.  After the search,
the first test either shows that the search's move keeps a draw or better (the move is
played) or that it loses, and then goes on to the other moves: the one it shows to keep a
draw or better is played instead, and no move it showed to lose is played while another is
left.  Beside the search, a move the proof showed to keep a draw or better is played over
the search's move when the proof did not reach that one (a proven draw is never traded for
a move unproven).

>>> from roost.core.games import get_game
>>> proof = Prover().prove(get_game("connect4").parse("4455"), nodes=100000)
>>> proof.value, get_game("connect4").parse("4455").move_name(proof.move)
('win', '3')
"""
import threading
import time
from dataclasses import dataclass, field

PROOF_SHARE = 0.5        # the part of a move's time (or node budget) the proof may take
PROOF_MAX_SECONDS = 30.0 # and at most this long (a search until stopped has 1e9 s)
PROOF_TT_MB = 16         # the proof table (src/search/tt.pxd: one word a position)

VALUES = {"win": 1.0, "draw": 0.5, "loss": 0.0}


@dataclass
class Proof:
    value: str = ""          # "win", "draw" or "loss" for the mover when proven, else ""
    at_least: str = ""       # "draw": a draw or better is proven, a win is not settled
    move: int = -1           # a root move that keeps `value` (or `at_least`); -1: none
    losing: frozenset = field(default_factory=frozenset)   # root moves shown to lose
    seconds: float = 0.0
    nodes: int = 0

    def result(self, state, engine):
        """The SearchResult that plays the proof's move."""
        from roost.search.result import MoveStat, SearchResult
        name = state.move_name(self.move)
        stats = [MoveStat(m, state.move_name(m), value=0.0, proven="loss") for m in sorted(self.losing)]
        stats.insert(0, MoveStat(self.move, name, value=VALUES[self.value], proven=self.value))
        return SearchResult(engine=engine, move=self.move, move_name=name, player=state.player,
                            value=VALUES[self.value], score=self.value, pv=[name],
                            nodes=self.nodes, seconds=self.seconds, proven=self.value, stats=stats,
                            info={"proof": f"{self.value} (proven)"})


def provable_game(state):
    """Whether proofs are worth a share of the moves of ``state``'s game: two players,
    nothing hidden, a game that bounds its length (there the proof's null windows close on
    the result; in a game that does not, a proof rarely ends within a move, and MCTS's own
    solver proves what is near)."""
    return state.players == 2 and not state.hidden_info and state.length_bound is not None


def provable(state):
    """Whether a proof is worth a share of this move: a game whose proofs are
    (``provable_game``), and a decision to make (chance ahead stops a proof when it is met)."""
    return provable_game(state) and not state.is_chance and not state.is_over


class Prover:
    """Bounded win/draw/loss proofs of the positions one player meets, in one table."""

    def __init__(self):
        self._tests = None

    def _window_tests(self):
        from roost.search.wdl import WindowTests
        if self._tests is None:
            self._tests = WindowTests(PROOF_TT_MB)
        return self._tests

    def prove(self, state, seconds=0.0, nodes=0, first=-1):
        """What ``seconds`` and ``nodes`` (0: no such limit) prove of ``state``, the move
        ``first`` tested first: a Proof (its value "" when neither test ended)."""
        tests, t0 = self._window_tests(), time.perf_counter()
        proof = Proof()
        draw, move, below = tests.test(state, "draw", seconds=seconds, nodes=nodes, first=first)
        proof.nodes = tests.nodes
        proof.losing = frozenset(m for m, r in below.items() if r == "loss")
        if draw is False:
            proof.value = "loss"
        elif draw and tests.wins:
            proof.value, proof.move = "win", move       # the draw test's move won outright
        elif draw:
            proof.at_least, proof.move = "draw", move
            left_s = seconds - (time.perf_counter() - t0) if seconds else 0.0
            left_n = nodes - proof.nodes if nodes else 0
            if (not seconds or left_s > 0) and (not nodes or left_n > 0):
                win, winning, _ = tests.test(state, "win", seconds=max(left_s, 0.0),
                                             nodes=max(left_n, 0), first=move)
                proof.nodes += tests.nodes
                if win is not None:
                    proof.value, proof.at_least = ("win", "") if win else ("draw", "")
                    if win:
                        proof.move = winning
        proof.seconds = time.perf_counter() - t0
        return proof

    def start(self, state, seconds=0.0, nodes=0):
        """Begin proving ``state`` on a thread of its own (what ``prove`` would, with no move
        to try first); returns its ProofThread."""
        return ProofThread(self, self._window_tests(), state.copy(), seconds, nodes)

    def new_game(self):
        if self._tests is not None:
            self._tests.clear()


class ProofThread:
    """A proof running beside the caller's search (``Prover.start``).  ``result()`` waits
    for it (it ends by its own limits); ``stop()`` ends it within a few hundred nodes.  Only
    the main thread sees Ctrl-C: the caller stops the proof when its own search was
    interrupted, so nothing outlives the move."""

    def __init__(self, prover, tests, state, seconds, nodes):
        self._tests = tests
        self._proof = None
        self._error = None
        tests.stop(False)
        self._thread = threading.Thread(target=self._run, args=(prover, state, seconds, nodes),
                                        name="roost-proof", daemon=True)
        self._thread.start()

    def _run(self, prover, state, seconds, nodes):
        try:
            self._proof = prover.prove(state, seconds=seconds, nodes=nodes)
        except BaseException as e:       # handed to the caller by result()
            self._error = e

    def stop(self):
        """End the proof now and wait for its thread."""
        self._tests.stop()
        self._join()

    def result(self):
        """The Proof (its value "" when stopped before either test ended)."""
        try:
            self._join()
        except BaseException:
            self.stop()                  # Ctrl-C while waiting: the proof ends with the move
            raise
        if self._error is not None:
            raise self._error
        return self._proof or Proof()

    def _join(self):
        # in short waits, so that the main thread goes on seeing signals
        while self._thread.is_alive():
            self._thread.join(0.05)


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


def keep_proven(result, state, proof):
    """The main search's ``result`` after an unfinished proof (or a proven loss): the
    proof's move when it showed another to keep a draw or better (the search's move shown
    to lose, or, by a proof beside the search that did not reach it, unproven), else never
    a move shown to lose while another is left."""
    if proof.at_least and proof.move != result.move:
        why = "loses (proven)" if result.move in proof.losing else "not proven to keep a draw"
        play_instead(result, state, proof.move, why)
    else:
        keep_clear_of(result, proof.losing)
    if proof.value == "loss":
        result.proven, result.value = "loss", 0.0
        result.info.setdefault("proof", "loss (proven)")


def play_instead(result, state, move, why):
    """Replace ``result``'s move by ``move`` (a proof's), saying why in its info."""
    name = state.move_name(move)
    result.info["proof"] = f"{result.move_name} {why}: {name} instead"
    result.move, result.move_name, result.pv = move, name, [name]
