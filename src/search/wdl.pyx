"""Win, draw or loss by null-window tests: the proof search of alpha-beta's solve
(Negamax.prove_root, to the end of the game) asked only where the root's value lies against
the draw, in a proof table kept from test to test.

Play needs no more than that: a solve's exact value bisects the distance to the result with
several window tests near the draw, while "is a draw or better reached?" and "is a win
reached?" are one null window each, and a test that fails high names a root move that
reaches it.  For games that bound their length (plies_bound), which the proof table's layout
needs; two players, nothing hidden, no chance ahead (a test that meets chance stops).
"""
from roost.core.state cimport State, CHANCE, MAX_MOVES
from roost.search.clock cimport now
from roost.search.score cimport MATE, MATE_BOUND
from roost.search.tt cimport TranspositionTable
from roost.search.negamax cimport Negamax, Settings, Shared
from roost.search.threads cimport store_int

# the thresholds a test can ask about: the value is at least a draw, or at least a win
THRESHOLDS = ("draw", "win")


class WindowInterrupted(KeyboardInterrupt):
    """Ctrl-C during a window test."""


cdef class WindowTests:
    """Null-window tests of positions of one game, to the end of the game, in one table."""

    cdef TranspositionTable table
    cdef Shared shared
    cdef Negamax w
    cdef readonly long long nodes        # of the last test
    cdef readonly bint wins              # the last test showed the root won (its score a win's)

    def __cinit__(self, int tt_mb=16, seed=0):
        self.table = TranspositionTable(tt_mb)
        self.shared.threads = 1
        self.shared.settings = Settings(use_eval=False, paranoid=False, exact_outcomes=64,
                                        samples=8, star=2, lmr=False)
        self.w = Negamax(seed)
        self.w.attach(self.table, &self.shared, 0)

    def clear(self):
        """Forget the table and the move ordering's history (a new game)."""
        self.table.clear()
        self.shared.table_nodes = 0
        self.w.order.clear()

    def stop(self, bint stopping=True):
        """From another thread: the test under way stops at its next look at its limits (within
        a few hundred nodes) and answers None, as do the tests begun after it, until
        ``stop(False)``."""
        store_int(&self.shared.stop, 1 if stopping else 0)

    def test(self, State root, str threshold, double seconds=0.0, long long nodes=0, moves=None,
             int first=-1):
        """Whether the value of ``root`` for its mover reaches ``threshold`` ("draw": a draw
        or a win; "win": a win at any distance), with ``moves`` (ids; default every legal
        move) the mover's only choices, within ``seconds`` and ``nodes`` (0: no limit).

        Returns (answer, move, below): answer True, False or None when a limit (or chance
        ahead) stopped the test first; move the root move that reached the threshold (-1
        when none did); below the root moves the test showed to fall short of it, each with
        "loss" where that shows it loses, else "" (a move shown below a win only).  ``wins``
        then says whether the test showed more: that ``move`` wins."""
        cdef int bound = root.plies_bound(), i, m
        cdef double alpha, beta, v, t0 = now()
        if threshold not in THRESHOLDS:
            raise ValueError(f"a window test asks for a draw or a win, not {threshold!r}")
        if bound < 0:
            raise ValueError("window tests need a game that bounds its length")
        if root.over() or root.to_move() == CHANCE:
            raise ValueError("a window test needs a decision node to search from")
        legal = list(root.legal())
        only = legal if moves is None else list(moves)
        if not only or any(m not in legal for m in only):
            raise ValueError(f"window test moves must be legal moves of the root: {only}")
        if len(legal) - len(only) >= MAX_MOVES:
            raise ValueError("too many root moves left out")
        self.shared.task.solve = True
        self.shared.task.node_limit = nodes
        self.shared.task.deadline = t0 + seconds if seconds > 0 else 0.0
        self.shared.task.max_depth = 1
        self.shared.task.n_excluded = 0
        for m in legal:
            if m not in only:
                self.shared.task.excluded[self.shared.task.n_excluded] = m
                self.shared.task.n_excluded += 1
        if self.w.other_game(root):
            self.clear()
        self.w.begin(root)
        if self.table.new_search(True):
            self.shared.table_nodes = 0
        self.w.root_first = first
        # the draw scores 0; the latest loss -(MATE - bound - 1) and the latest win
        # MATE - bound - 1 (see negamax.pyx's result_score): a null window between two
        # neighbouring results
        if threshold == "draw":
            alpha, beta = -(MATE - bound - 1), 0.0
        else:
            alpha, beta = 0.0, MATE - bound - 1
        self.w.windows = True
        self.w.holds_gil = True           # let go at the first periodic check
        v = self.w.prove_root(root, alpha, beta)
        self.w.take_gil_back()
        self.w.windows = False
        self.nodes = self.w.nodes
        self.shared.table_nodes += self.w.nodes
        # fail-soft: a score at or above the window bounds the value from below, and a
        # score above the draw is a win's (a draw test can show a win)
        self.wins = not self.w.stop and not self.w.met_chance and v >= beta and v > 0
        if self.w.interrupted:
            raise WindowInterrupted("window test interrupted")
        below = {}
        for i in range(self.w.root_n):
            if self.w.root_val[i] <= alpha:
                below[self.w.root_move[i]] = _result(self.w.root_val[i], threshold)
        if self.w.stop or self.w.met_chance:
            return None, -1, below
        if v >= beta:
            return True, self.w.pv[0][0] if self.w.pv_len[0] > 0 else -1, below
        return False, -1, below


cdef str _result(double v, str threshold):
    """What a root move's fail-soft score at or below the window shows of its result: a
    loss's score, or below a draw, is a loss; below a win it can be a draw or a loss."""
    if v < -MATE_BOUND or threshold == "draw":
        return "loss"
    return ""
