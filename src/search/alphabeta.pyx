"""Alpha-beta search over the State contract: the searcher a caller holds.

Negamax with principal-variation search, iterative deepening, a transposition table,
move ordering (table move, two killers a ply, history), limits by depth, time and nodes,
repetition on the search path scored as a draw, win/loss distance in the score, and
expectimax at chance nodes (exact with Star1 pruning when the outcomes are few, sampled
when they are many).  Two players, or N players in paranoid mode (everyone against the
root player).  ``solve`` searches without a horizon evaluation until the value is proven.

The units: AlphaBeta (here) holds the settings, the table and the threads, deepens the
main searcher and reports; negamax.pyx is one thread's search; tt.pyx the transposition
table; ordering.pyx the move ordering; score.pxd the score scale (a result r in [0, 1]
scores (2r - 1) * MATE, a win at ply p MATE - p, an estimate inside +-EVAL_LIMIT);
alphabeta_report.pyx what a search returns; threads.pxd the threads of Lazy SMP.
"""
from libc.stdlib cimport malloc, free
from libc.stdint cimport uint64_t
from libc.math cimport fabs
from roost.core.state cimport State, CHANCE, MAX_MOVES, MAX_OUTCOMES
from roost.search.clock cimport now
from roost.search.score cimport MATE_BOUND, INF, DEPTH_INF, MAX_PLY
from roost.search.tt cimport TranspositionTable
from roost.search.negamax cimport Negamax, Settings, Shared, Iteration, helper_main, MAX_THREADS_C
from roost.search.threads cimport Pool, pool_open, pool_start, pool_join, pool_close, load_u64, store_int
from roost.search.alphabeta_report cimport (complete_pv, complete_proof_line, current_line,
                                            line_list, search_report)
from roost.search.alphabeta_report import score_to_value, score_text, is_mate

MAX_DEPTH = MAX_PLY - 10        # the deepest iteration a search may ask for
MAX_TT_MB = 65536
MAX_SECONDS = 1e9               # about 31 years: "until stopped" (the protocol's go infinite)
MAX_NODES = 10 ** 15
MAX_SAMPLES = 10000
MAX_EXACT = MAX_OUTCOMES
MAX_THREADS = MAX_THREADS_C     # threads= of one search (main and helpers)


class ChanceInSolve(Exception):
    """solve() met a chance node: the position's value is not a deterministic result."""


class SearchInterrupted(KeyboardInterrupt):
    """Ctrl-C during a search; ``partial`` holds what the search had (the last complete
    iteration), so a caller can report it before stopping."""

    def __init__(self, partial):
        super().__init__("search interrupted")
        self.partial = partial


cdef class AlphaBeta:
    """A reusable alpha-beta searcher (the table survives between searches of one game).

    With threads > 1 a search is Lazy SMP: helper threads search the same root at their
    own depths and move orders, sharing the table, while the main searcher deepens as it
    would alone; its result is the one reported, the nodes are everyone's.  Every thread
    is a Negamax configured from the same Settings and Task (self.shared)."""

    cdef TranspositionTable table
    cdef Shared shared            # settings, task and counts every thread reads
    cdef Negamax main             # the searcher on the calling thread
    cdef list helpers             # Lazy SMP: a Negamax for each helper thread
    cdef Pool pool                # the helpers' threads while they run
    cdef readonly int threads
    # what the main searcher has found in the search under way (see deepen)
    cdef int best_move
    cdef int depth_done
    cdef double score
    cdef bint exact
    cdef bint lazy                # the line is kept in C until the end
    cdef int line[MAX_PLY]        # the line (a list only where it is read: the report makes
    cdef int line_n               # it when it is first read, a callback is given one)
    cdef Iteration* scores        # the root moves' scores reported (a searcher's kept ones)

    def __cinit__(self, int tt_mb=256, bint use_eval=True, bint paranoid=False,
                  int exact_outcomes=64, int samples=8, int star=2, seed=0, int threads=1,
                  bint lmr=False):
        if not 1 <= tt_mb <= MAX_TT_MB:
            raise ValueError(f"the transposition table takes 1 to {MAX_TT_MB} MB, not {tt_mb}")
        if not (1 <= exact_outcomes <= MAX_EXACT and 1 <= samples <= MAX_SAMPLES and 0 <= star <= 2):
            raise ValueError(f"chance settings out of range: exact 1..{MAX_EXACT}, "
                             f"samples 1..{MAX_SAMPLES}, star 0..2")
        if not 1 <= threads <= MAX_THREADS:
            raise ValueError(f"alpha-beta runs 1 to {MAX_THREADS} threads, not {threads}")
        self.table = TranspositionTable(tt_mb)
        self.threads = threads
        self.shared.threads = threads
        self.shared.settings = Settings(use_eval=use_eval, paranoid=paranoid,
                                        exact_outcomes=exact_outcomes, samples=samples,
                                        star=star, lmr=lmr)
        self.main = Negamax(seed)
        self.main.attach(self.table, &self.shared, 0)
        self.helpers = []
        if pool_open(&self.pool, threads - 1) != 0:
            raise MemoryError("cannot allocate the alpha-beta threads")

    def __dealloc__(self):
        pool_close(&self.pool)

    def clear(self):
        """Forget the transposition table, killers and history (a new game)."""
        cdef Negamax h
        self.table.clear()
        self.shared.table_nodes = 0
        self.main.order.clear()
        for h in self.helpers:
            h.order.clear()

    @property
    def tt_in_use(self):
        """Bytes of the table the search has grown into so far."""
        return self.table.bytes_in_use

    @property
    def tt_bytes(self):
        """Bytes of the whole table."""
        return self.table.bytes

    @property
    def hashfull(self):
        """Per mille of the table in use that holds entries."""
        return self.table.hashfull()

    @property
    def use_eval(self):
        return self.shared.settings.use_eval

    @property
    def paranoid(self):
        return self.shared.settings.paranoid

    @property
    def exact_outcomes(self):
        return self.shared.settings.exact_outcomes

    @property
    def samples(self):
        return self.shared.settings.samples

    @property
    def star(self):
        return self.shared.settings.star

    @property
    def lmr(self):
        return self.shared.settings.lmr

    def reseed(self, seed):
        self.main.reseed(seed)

    # ------------------------------------------------------------------ a search
    def search(self, State root, int max_depth=64, double seconds=0.0, long long nodes=0,
               bint solve=False, callback=None, exclude=()):
        """Iterative deepening from `root`.  Returns an AlphaBetaReport (move, score,
        depth, pv in ids, nodes, seconds, exact when the score is proven, root_moves).
        ``exclude``: root moves to leave out (the best of the others is searched, for the
        second and later lines of a multi-PV analysis)."""
        cdef double t0 = now()
        cdef Negamax w = self.main
        max_depth = self.prepare(root, max_depth, seconds, nodes, solve, exclude, t0)
        # A solve without a callback builds deepening's line as a Python list once, at the
        # end, and only if the window tests do not replace it (building it after every
        # iteration was 8% of the time of an easy solve, end.jsonl's).  A solve stopped
        # early then extends that line from the table as it is at the end.  The root
        # moves' scores stay in C (Negamax.done) until the report is made.
        self.lazy = solve and callback is None
        self.start_helpers(root, max_depth)
        try:
            self.deepen(root, max_depth, solve, callback, t0)
            if solve and not self.exact and not w.stop and not w.met_chance:
                self.solve_by_windows(root, t0, callback)
        finally:
            self.stop_helpers()
            self.shared.table_nodes += self.all_nodes()
        return self.report(root, solve, callback, t0)

    cdef int prepare(self, State root, int max_depth, double seconds, long long nodes,
                     bint solve, exclude, double t0) except -1:
        """Check the request, set the search's task and ready the main searcher; the depth
        to deepen to."""
        cdef Negamax w = self.main
        cdef int i, m, n
        if root.over() or root.to_move() == CHANCE:
            raise ValueError("alpha-beta needs a decision node to search from")
        if not (0.0 <= seconds <= MAX_SECONDS) or not (0 <= nodes <= MAX_NODES) or max_depth < 1:
            raise ValueError(f"alpha-beta limits out of range: depth >= 1, seconds 0..{MAX_SECONDS:g}, "
                             f"nodes 0..{MAX_NODES}")
        if root.n_players > 2 and not self.shared.settings.paranoid:
            raise ValueError(
                f"alpha-beta searches two-player games; this position has {root.n_players} players "
                "(use paranoid=1 to search everyone against the player to move)")
        if len(exclude) >= MAX_MOVES:
            raise ValueError(f"at most {MAX_MOVES - 1} root moves can be excluded")
        self.shared.task.n_excluded = len(exclude)
        if exclude:
            for i, m in enumerate(exclude):
                self.shared.task.excluded[i] = m
        self.shared.task.solve = solve
        self.shared.task.node_limit = nodes
        self.shared.task.deadline = t0 + seconds if seconds > 0 else 0.0
        if w.begin(root):
            self.clear()              # a table and histories of another game
        # a proof's table words where the game bounds its length (a solve then goes straight
        # to its window tests, see negamax.pxd), else the search's entries, which deepening
        # needs
        if self.table.new_search(solve and root.plies_bound() >= 0):
            self.shared.table_nodes = 0       # cleared for the other kind of search's layout
        n = root.legal_moves(w.movebuf)
        if self.shared.task.n_excluded:
            n = w.without_excluded(w.movebuf, n)
            if n == 0:
                raise ValueError("every root move is excluded: nothing is left to search")
        if solve:
            w.list_root(root, w.movebuf, n)     # a proof's root moves, from the same list
        if n == 1 and not solve and not self.shared.task.n_excluded:
            # a forced move is played at once; a multi-PV line whose only move is left
            # after the excluded ones still needs its value searched
            max_depth = min(max_depth, 1)
        self.best_move = -1
        self.depth_done = 0
        self.score = 0.0
        self.exact = False
        self.line_n = 0
        self.scores = &w.done                 # none yet (begin)
        if nodes == 1:
            # the root is the whole budget: no move is searched; the game's first move is
            # played and the root's evaluation reported, at depth 0
            max_depth = 0
            w.stop = True
            self.score = w.leaf(root, w.root_player)
        return max_depth

    cdef int deepen(self, State root, int max_depth, bint solve, callback, double t0) except -1:
        """The main searcher's iterative deepening, to max_depth or a proof or a limit."""
        cdef Negamax w = self.main
        cdef int d
        cdef double v
        for d in range(1, max_depth + 1):
            if solve and d > w.solve_deepening:
                break
            w.horizon = 0
            w.root_n = 0
            w.holds_gil = True            # let go at the first periodic check
            v = w.negamax(root, d, -INF, INF, 0, root.to_move())
            w.take_gil_back()
            if w.stop and d > 1:
                break       # an unfinished iteration: keep the last complete one
            if w.pv_len[0] > 0:
                self.best_move = w.pv[0][0]
                if self.lazy:
                    w.keep_pv(d)
                else:
                    self.take_line(w.pv[0], w.pv_len[0])
                    self.line_n = complete_pv(self.table, w.scratch_root(root), self.line, self.line_n, d)
            elif self.best_move < 0:
                self.best_move = w.movebuf[0]
                self.take_line(&self.best_move, 1)
            self.score = v
            self.depth_done = d
            store_int(&self.shared.depth_done, d)
            w.keep_root_scores()
            if callback is not None:
                try:
                    callback(d, self.score, line_list(self.line, self.line_n), self.all_nodes(), now() - t0)
                except KeyboardInterrupt:     # Ctrl-C inside the caller's Python code
                    w.interrupted = True
                    w.stop = True             # nothing after this may search on (window_solve)
                    break
            if w.met_chance and solve:
                raise ChanceInSolve("the position has chance ahead: solve needs a position "
                                    "with no chance left")
            if not w.stop and (w.horizon == 0 or (fabs(self.score) > MATE_BOUND and not solve)):
                self.exact = True    # a forced win/loss, or a tree searched to its ends
                break
            if w.stop or (solve and (d >= w.solve_deepening or fabs(self.score) > MATE_BOUND)):
                # solve takes a mate's distance from the window tests: a table kept from
                # another search can show a longer mate at a shallow depth
                break
        return 0

    cdef int solve_by_windows(self, State root, double t0, callback) except -1:
        """The exact value by null-window tests to the end of the game, after deepening
        left it unproven (Negamax.window_tests); their line and root scores replace
        deepening's when they found a line or a proof."""
        cdef Negamax w = self.main
        cdef double score
        w.windows = True
        w.holds_gil = True                # let go at the first periodic check
        score = w.window_tests(root)
        w.take_gil_back()
        w.windows = False
        if w.stop:
            self.score, self.exact = 0.0, False
        else:
            if callback is not None:
                callback(w.seldepth, score, current_line(w), self.all_nodes(), now() - t0)
            self.score = score
            self.exact = not w.stop and (fabs(score) > MATE_BOUND or w.horizon == 0)
        if self.exact or w.pv_len[0] > 0:
            self.lazy = False
            self.depth_done = w.seldepth
            if w.pv_len[0] > 0:
                self.best_move = w.pv[0][0]
                self.take_line(w.pv[0], w.pv_len[0])
                if not self.table.proof:      # the search's own windows (draw_first_tests)
                    self.line_n = complete_pv(self.table, w.scratch_root(root), self.line, self.line_n, MAX_PLY)
                elif self.exact:
                    self.line_n = complete_proof_line(self.table, w.scratch_root(root), self.line,
                                                      self.line_n, score)
            w.keep_root_scores()
        return 0

    cdef void take_line(self, int* moves, int n) noexcept:
        """Report the n `moves` as the line (until another replaces it)."""
        cdef int i
        for i in range(n):
            self.line[i] = moves[i]
        self.line_n = n

    cdef object report(self, State root, bint solve, callback, double t0):
        """The search's result: the main searcher's deepest complete iteration, or a
        helper's when it is better (see deepest_helper)."""
        cdef Negamax w = self.main
        cdef Negamax helper
        if self.lazy:
            # deepening's last complete iteration, kept in C arrays while it ran
            if w.done.pv_len > 0:
                self.take_line(w.done.pv, w.done.pv_len)
                self.line_n = complete_pv(self.table, w.scratch_root(root), self.line, self.line_n, w.done.depth)
        if not solve:
            helper = self.deepest_helper(self.depth_done, self.exact)
            if helper is not None:
                self.depth_done = helper.done.depth
                self.score = helper.done.score
                self.exact = helper.done.exact
                self.best_move = helper.done.pv[0]
                self.take_line(helper.done.pv, helper.done.pv_len)
                self.line_n = complete_pv(self.table, w.scratch_root(root), self.line, self.line_n, self.depth_done)
                self.scores = &helper.done
                if callback is not None and not w.interrupted:
                    try:
                        callback(self.depth_done, self.score, line_list(self.line, self.line_n),
                                 self.all_nodes(), now() - t0)
                    except KeyboardInterrupt:
                        w.interrupted = True
        if w.met_chance and solve:
            raise ChanceInSolve("the position has chance ahead: solve needs a position "
                                "with no chance left")
        if self.best_move < 0:
            self.best_move = w.movebuf[0]
            self.take_line(&self.best_move, 1)
        result = search_report(self.best_move, self.score, self.exact and not w.met_chance,
                               w.met_chance, self.line, self.line_n, self.depth_done, w.seldepth,
                               self.all_nodes(), now() - t0, self.scores, self.threads)
        if w.interrupted:
            raise SearchInterrupted(result)
        return result

    # ------------------------------------------------------------------ Lazy SMP
    cdef void start_helpers(self, State root, int max_depth):
        """Start threads - 1 helper threads on `root` (as many as the system gives)."""
        cdef Negamax h
        self.shared.stop = 0
        self.shared.counted = 1           # the main searcher's root
        self.shared.depth_done = 0
        self.shared.task.max_depth = max_depth
        self.main.running = False
        if self.threads == 1 or max_depth < 1:
            return
        while len(self.helpers) < self.threads - 1:
            h = Negamax(len(self.helpers) + 1)
            h.attach(self.table, &self.shared, len(self.helpers) + 1)
            self.helpers.append(h)
        for h in self.helpers:
            h.begin(root)
        self.main.running = True
        for h in self.helpers:
            if not pool_start(&self.pool, helper_main, <void*>h):
                break          # no more threads to be had: search with those started

    cdef void stop_helpers(self):
        if not self.main.running:
            return
        store_int(&self.shared.stop, 1)
        with nogil:
            pool_join(&self.pool)
        self.main.running = False
        self.main.helper_nodes = 0

    cdef long long all_nodes(self):
        """The nodes of this search, the helpers' included (their latest published counts
        while they run, their own counts once they have stopped)."""
        cdef Negamax h
        cdef long long total = self.main.nodes
        for h in self.helpers:
            total += (h.nodes if not self.main.running
                      else <long long>load_u64(&self.shared.published[h.index].value))
        return total

    cdef Negamax deepest_helper(self, int depth_done, bint exact):
        """The helper whose last complete iteration is better than the main searcher's
        (`depth_done`, `exact`), else None; only after the helpers have been joined.  A
        proven value beats an unproven one, even from a shallower iteration (a helper can
        prove the value at a depth the main searcher has passed, through what the main
        searcher left in the table, and end the search); then the deeper iteration wins."""
        cdef Negamax h, best = None
        for h in self.helpers:
            if h.done.pv_len == 0 or h.done.depth == 0:
                continue
            if (h.done.exact and not exact) or (h.done.exact == exact and h.done.depth > depth_done):
                depth_done = h.done.depth
                exact = h.done.exact
                best = h
        return best


def can_allocate(size_t nbytes):
    """Whether a table of nbytes can be had now (allocated and given back untouched), so that
    an engine spec asking for more memory than the machine has fails when it is parsed."""
    cdef void* p = malloc(nbytes)
    if p == NULL:
        return False
    free(p)
    return True
