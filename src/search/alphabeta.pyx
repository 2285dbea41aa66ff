"""Alpha-beta search over the State contract.

Negamax with principal-variation search, iterative deepening, a transposition table,
move ordering (table move, two killers a ply, history), limits by depth, time and nodes,
repetition on the search path scored as a draw, win/loss distance in the score, and
expectimax at chance nodes (exact with Star1 pruning when the outcomes are few, sampled
when they are many).  Depth counts decisions: a run of chance nodes (a deal of many cards)
is one compound chance ply that uses no depth and expands into a bounded number of
positions, so a search of depth d always ends (see chance()).  Two players, or N players in paranoid mode (everyone against the
root player).  ``solve`` searches without a horizon evaluation until the value is proven.

Scores are doubles from the point of view of the player to move, on one scale with the
game's results so that expectations over chance mean what they say: a result r in [0, 1]
scores (2r - 1) * MATE, a win found at ply p scores MATE - p (the distance breaks ties), and
a heuristic estimate e scores (2e - 1) * MATE clamped inside +-EVAL_LIMIT, below every
proven win.
"""
from cpython.ref cimport PyObject
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memset, memcpy
from libc.stdint cimport uint64_t, uint32_t, uint16_t, int16_t
from libc.math cimport fabs
from roost.search.clock cimport now, interrupted
from roost.search.tt cimport TranspositionTable, TTData, EXACT, LOWER, UPPER
from roost.search.threads cimport (Pool, pool_open, pool_start, pool_join, pool_close, load_u64, store_u64,
                                   load_int, store_int, add_u64)

from roost.core.rng cimport Rng, rng_seed, rng_below, rng_next
from roost.core.state cimport (State, CHANCE, MAX_MOVES, MAX_OUTCOMES, MAX_PLAYERS, SOON_UNKNOWN,
                               SOON_WIN, SOON_LOSS, SOON_QUIET)

# The score scale (see the module's text): literals, as C sees them
cdef extern from *:
    """
    #define ROOST_MATE 1000000.0
    #define ROOST_MATE_BOUND 999000.0
    #define ROOST_EVAL_LIMIT 990000.0
    #define ROOST_INF 1e9
    #define ROOST_ORDER_TT 1e12
    #define ROOST_ORDER_KILLER1 1e11
    #define ROOST_ORDER_KILLER2 1e10
    """
    const double MATE "ROOST_MATE"
    const double MATE_BOUND "ROOST_MATE_BOUND"
    const double EVAL_LIMIT "ROOST_EVAL_LIMIT"
    const double INF "ROOST_INF"
    # move ordering scores above any history count: the table's move, then the two killers
    const double ORDER_TT "ROOST_ORDER_TT"
    const double ORDER_KILLER1 "ROOST_ORDER_KILLER1"
    const double ORDER_KILLER2 "ROOST_ORDER_KILLER2"

cdef enum:
    MAX_PLY = 160
    DEPTH_INF = 10000
    HIST_SIZE = 4096
    MAX_THREADS_C = 256
    SOLVE_DEEPENING = 8           # solve() deepens this far, then searches null windows to the end

MAX_DEPTH = MAX_PLY - 10        # the deepest iteration a search may ask for
MAX_TT_MB = 65536
MAX_SECONDS = 1e9               # about 31 years: "until stopped" (the protocol's go infinite)
MAX_NODES = 10 ** 15
MAX_SAMPLES = 10000
MAX_EXACT = MAX_OUTCOMES
MAX_THREADS = MAX_THREADS_C     # threads= of one search (main and helpers)

ctypedef struct Shared:
    # what the threads of one search share besides the table
    int stop                  # set by the main thread: every helper stops at its next node
    uint64_t counted          # threads under a node limit: the nodes entered by everyone (the main
                              # root included) and the attempts refused past the limit
    int depth_done            # the main searcher's deepest complete iteration


cdef void* helper_main(void* searcher) noexcept nogil:
    # a helper searches its own copy of the root (its ply-0 scratch state)
    (<AlphaBeta>searcher).helper_search(<State>(<AlphaBeta>searcher).states[0])
    return NULL


cdef inline double to_tt(double v, int ply) noexcept nogil:
    # Mate scores are stored relative to the node so a table hit at another ply is right.
    if v > MATE_BOUND:
        return v + ply
    if v < -MATE_BOUND:
        return v - ply
    return v


cdef inline double from_tt(double v, int ply) noexcept nogil:
    if v > MATE_BOUND:
        return v - ply
    if v < -MATE_BOUND:
        return v + ply
    return v


class ChanceInSolve(Exception):
    """solve() met a chance node: the position's value is not a deterministic result."""


class SearchInterrupted(KeyboardInterrupt):
    """Ctrl-C during a search; ``partial`` holds what the search had (the last complete
    iteration), so a caller can report it before stopping."""

    def __init__(self, partial):
        super().__init__("search interrupted")
        self.partial = partial


cdef class AlphaBeta:
    """A reusable alpha-beta searcher (the table survives between searches of one game)."""

    cdef TranspositionTable table # the main searcher's, which its helpers share
    cdef long long table_nodes    # nodes searched since the table was last cleared
    cdef int killers[MAX_PLY][2]
    cdef int* history             # [MAX_PLAYERS][HIST_SIZE]
    cdef int* movebuf             # [MAX_PLY][MAX_MOVES]
    cdef double* scorebuf         # [MAX_PLY][MAX_MOVES] ordering scores
    cdef int pv[MAX_PLY][MAX_PLY]
    cdef int pv_len[MAX_PLY]
    cdef uint64_t path[MAX_PLY]
    # each root move's score in the iteration under way (exact, or an upper bound)
    cdef int root_move[MAX_MOVES]
    cdef double root_val[MAX_MOVES]
    cdef bint root_exact[MAX_MOVES]
    cdef int root_n
    # root moves left out of this search (multi-PV: the lines after the first)
    cdef int excluded[MAX_MOVES]
    cdef int n_excluded
    cdef list stack               # one scratch State a ply
    cdef PyObject* states[MAX_PLY + 1]   # the same States, borrowed, for nogil code
    cdef Rng rng
    # Lazy SMP: helpers are searchers of their own that share this one's table
    cdef public int threads
    cdef list helpers
    cdef PyObject* helper_ptrs[MAX_THREADS_C]   # the same helpers, borrowed, for nogil code
    cdef AlphaBeta main           # a helper's main searcher (None in the main searcher)
    cdef int helper_index         # 0 in the main searcher
    cdef Shared shared            # the main searcher's; a helper reads main.shared
    cdef Shared* control
    cdef Pool pool                # the helpers' threads while they run
    cdef bint running             # the main searcher's helpers are running
    cdef uint64_t published_nodes # a helper's node count, published now and then
    cdef long long helper_nodes   # the main searcher's latest sum of its helpers' counts
    cdef int helper_depth         # deepest iteration a helper may search
    # a helper's deepest complete iteration, which the main searcher reports when it is
    # deeper than its own (read after the helper's thread is joined)
    cdef int done_depth
    cdef double done_score
    cdef bint done_exact
    cdef int done_pv[MAX_PLY]
    cdef int done_pv_len
    cdef int done_root_move[MAX_MOVES]
    cdef double done_root_val[MAX_MOVES]
    cdef bint done_root_exact[MAX_MOVES]
    cdef int done_root_n
    # settings
    cdef public bint use_eval
    cdef public bint paranoid
    cdef public int exact_outcomes  # enumerate a chance node exactly up to this many outcomes
    cdef public int samples         # otherwise average this many sampled outcomes
    cdef public int star            # chance pruning: 0 none, 1 Star1, 2 Star1 with Star2 probes
    cdef public bint lmr            # late move reductions (a heuristic search only)
    cdef bint probing               # the next negamax call is a Star2 probe
    # per-search state
    cdef int root_player
    cdef bint solving
    cdef bint windows             # solve's null-window tests are under way
    cdef bint met_chance
    cdef bint stop
    cdef bint interrupted
    cdef long long nodes
    cdef long long checks
    cdef long long node_limit
    cdef double deadline
    cdef long long horizon        # leaves cut by depth (or by a depth-limited table entry)
    cdef int seldepth

    def __cinit__(self, int tt_mb=256, bint use_eval=True, bint paranoid=False,
                  int exact_outcomes=64, int samples=8, int star=2, seed=0, int threads=1,
                  AlphaBeta main=None, bint lmr=False):
        if not 1 <= tt_mb <= MAX_TT_MB:
            raise ValueError(f"the transposition table takes 1 to {MAX_TT_MB} MB, not {tt_mb}")
        if not (1 <= exact_outcomes <= MAX_EXACT and 1 <= samples <= MAX_SAMPLES and 0 <= star <= 2):
            raise ValueError(f"chance settings out of range: exact 1..{MAX_EXACT}, "
                             f"samples 1..{MAX_SAMPLES}, star 0..2")
        if not 1 <= threads <= MAX_THREADS:
            raise ValueError(f"alpha-beta runs 1 to {MAX_THREADS} threads, not {threads}")
        self.main = main
        self.control = &self.shared
        if main is not None:
            # a helper: the main searcher's table and stop flag
            self.table = main.table
            self.control = &main.shared
        else:
            self.table = TranspositionTable(tt_mb)
        self.threads = threads
        self.helpers = []
        if pool_open(&self.pool, threads - 1) != 0:
            raise MemoryError("cannot allocate the alpha-beta threads")
        self.history = <int*>calloc(MAX_PLAYERS * HIST_SIZE, sizeof(int))
        self.movebuf = <int*>malloc(MAX_PLY * MAX_MOVES * sizeof(int))
        self.scorebuf = <double*>malloc(MAX_PLY * MAX_MOVES * sizeof(double))
        if self.history == NULL or self.movebuf == NULL or self.scorebuf == NULL:
            raise MemoryError("cannot allocate the alpha-beta tables")
        self.use_eval = use_eval
        self.paranoid = paranoid
        self.exact_outcomes = exact_outcomes
        self.samples = samples
        self.star = star
        self.lmr = lmr
        rng_seed(&self.rng, <uint64_t>seed)
        self.stack = []
        memset(self.killers, 0xFF, sizeof(self.killers))   # -1: no killer (0 is a move id)

    def __dealloc__(self):
        pool_close(&self.pool)
        free(self.history)
        free(self.movebuf)
        free(self.scorebuf)

    def clear(self):
        """Forget the transposition table, killers and history (a new game)."""
        if self.main is None:
            self.table.clear()
            self.table_nodes = 0
        memset(self.history, 0, MAX_PLAYERS * HIST_SIZE * sizeof(int))
        memset(self.killers, 0xFF, sizeof(self.killers))
        for h in self.helpers:
            h.clear()

    @property
    def tt_in_use(self):
        """Bytes of the table the search has grown into so far."""
        return self.table.bytes_in_use

    @property
    def tt_bytes(self):
        """Bytes of the whole table."""
        return self.table.bytes

    def reseed(self, seed):
        rng_seed(&self.rng, <uint64_t>seed)

    # ------------------------------------------------------------------ helpers
    cdef inline int side(self, int player) noexcept nogil:
        # Paranoid: everyone but the root player is one side.  Two players: the player.
        if self.paranoid:
            return 0 if player == self.root_player else 1
        return player

    cdef inline double terminal(self, State s, int me, int ply) noexcept nogil:
        cdef double out[MAX_PLAYERS]
        s.outcome(out)
        cdef double sv = 2.0 * out[self.root_player] - 1.0
        if self.side(me) != self.side(self.root_player):
            sv = -sv
        return sv * (MATE - ply)

    cdef inline double leaf(self, State s, int me) noexcept nogil:
        self.horizon += 1
        if not self.use_eval or self.solving:
            return 0.0
        cdef double sv = (2.0 * s.evaluate(self.root_player) - 1.0) * MATE
        if sv > EVAL_LIMIT:
            sv = EVAL_LIMIT
        elif sv < -EVAL_LIMIT:
            sv = -EVAL_LIMIT
        if self.side(me) != self.side(self.root_player):
            sv = -sv
        return sv

    cdef inline void check_limits(self) noexcept nogil:
        # the one place the limits are checked: at every node a search enters (value(),
        # probe()) and every sampled chance outcome; the clock is read every 256 calls.
        # Only the main searcher checks them; a helper stops when the main one says so.
        self.checks += 1
        if self.helper_index > 0:
            if (self.checks & 255) == 0:
                store_u64(&self.published_nodes, <uint64_t>self.nodes)
            if load_int(&self.control.stop) or (self.node_limit > 0 and self.over_node_limit()):
                self.stop = True
            return
        if self.node_limit > 0 and (self.over_node_limit() if self.running
                                    else self.nodes >= self.node_limit):
            self.stop = True
        elif self.running and load_int(&self.control.stop):
            self.stop = True         # a helper completed the search's last depth
        elif (self.checks & 255) == 0:
            if self.running:
                self.helper_nodes = self.count_helper_nodes()
            if self.table.wants_growth(self.table_nodes + self.nodes + self.helper_nodes):
                self.table.grow(self.deadline)
            if self.deadline > 0 and now() >= self.deadline:
                self.stop = True
            if self.signalled():     # Ctrl-C: stop, and tell the caller at the end
                self.interrupted = True
                self.stop = True
        if self.stop and self.running:
            store_int(&self.shared.stop, 1)

    cdef inline bint over_node_limit(self) noexcept nogil:
        """With threads: whether everyone's nodes reach the limit (enter_node counts them)."""
        return <long long>load_u64(&self.control.counted) >= self.node_limit

    cdef inline bint enter_node(self) noexcept nogil:
        """Count a node the search is about to enter; False when it may not (the search
        has stopped, or with threads the node limit has no node left for it), and the
        search stops.  With threads under a node limit every thread takes its node from the
        shared count before entering it, so everyone's nodes together never pass the limit
        and reach it exactly when the search runs that far (a contended atomic add a node,
        paid only by a threaded search under a node limit)."""
        if self.stop:
            return False
        if self.node_limit > 0 and (self.running or self.helper_index > 0):
            if <long long>add_u64(&self.control.counted, 1) > self.node_limit:
                self.stop = True
                return False
        self.nodes += 1
        return True

    cdef bint signalled(self) noexcept nogil:
        with gil:
            return interrupted()

    cdef long long count_helper_nodes(self) noexcept nogil:
        cdef long long total = 0
        cdef int i
        for i in range(self.threads - 1):
            total += <long long>load_u64(&(<AlphaBeta>self.helper_ptrs[i]).published_nodes)
        return total

    # ------------------------------------------------------------------ the search
    cdef double value(self, State c, int depth, double alpha, double beta, int ply, int me,
                      int budget) noexcept nogil:
        """Value of position c for player `me`, who moved into it, in window (alpha, beta).
        `budget` bounds the leaves of the compound chance node c belongs to (see chance())."""
        cdef int tm
        # every position reached counts as a node, leaves included (as in chess engines);
        # a stopped search enters none (a sampled chance run can stop it before its child)
        if not self.enter_node():
            return 0.0
        if ply > self.seldepth:
            self.seldepth = ply
        self.check_limits()
        if self.stop:
            return 0.0
        if c.over():
            return self.terminal(c, me, ply)
        tm = c.to_move()
        if tm == CHANCE:
            return self.chance(c, depth, alpha, beta, ply, me, budget)
        if depth <= 0 or ply >= MAX_PLY - 2:
            return self.leaf(c, me)
        if self.side(tm) == self.side(me):
            return self.negamax(c, depth, alpha, beta, ply, tm)
        return -self.negamax(c, depth, -beta, -alpha, ply, tm)

    cdef double chance(self, State c, int depth, double alpha, double beta, int ply, int me,
                       int budget) noexcept nogil:
        """Expectimax over a compound chance node: a run of consecutive chance nodes (a deal
        of many cards) is one chance ply that uses no depth and expands into at most
        max(exact, samples) decision positions.  A node with at most `budget` outcomes is
        enumerated, and an outcome that leads to chance again continues the compound node
        with budget // n; otherwise complete runs to the next decision are sampled: `samples`
        of them at the start of a compound node, min(samples, budget) inside one.

        With enumerated outcomes, Star1 cuts off once the outcomes searched, with bounds on
        the rest, settle the expectation outside (alpha, beta); Star2 first probes each
        outcome (its first move only) to tighten those bounds."""
        cdef int n, i, k
        cdef int* outs
        cdef double* probs
        cdef double* lo
        cdef double* hi
        cdef double total = 0.0, rest_lo = 0.0, rest_hi = 0.0, v, p, a, b
        cdef PyObject* child
        cdef bint exact
        self.met_chance = True
        if self.solving:
            self.stop = True
            return 0.0
        n = c.chance_count()
        if ply >= MAX_PLY - 2 or n <= 0:
            return self.leaf(c, me)
        # the repetition test reads path[0..ply): this ply must hold this node, not a stale key
        self.path[ply] = c.key()
        exact = n <= budget
        if exact:
            k = n
        elif budget >= self.exact_outcomes:
            k = self.samples
        else:
            k = min(self.samples, budget)
        outs = <int*>malloc(k * sizeof(int))
        probs = <double*>malloc(k * 3 * sizeof(double))
        lo = probs + k
        hi = lo + k
        if exact:
            n = c.chance_outcomes(outs, probs)
        else:
            n = k
            for i in range(k):
                probs[i] = 1.0 / k
        child = self.states[ply + 1]
        for i in range(n):
            lo[i] = -MATE
            hi[i] = MATE
        if self.star >= 2 and exact and n > 1:
            for i in range(n):
                (<State>child).assign(c)
                (<State>child).play(outs[i])
                self.probe(<State>child, depth, ply + 1, me, &lo[i], &hi[i])
                if self.stop:
                    break
            for i in range(n):
                rest_lo += probs[i] * lo[i]
                rest_hi += probs[i] * hi[i]
            if not self.stop and rest_lo >= beta:
                total = rest_lo                 # fail high on the probes alone
                n = 0
            elif not self.stop and rest_hi <= alpha:
                total = rest_hi                 # fail low on the probes alone
                n = 0
        else:
            rest_lo = -MATE
            rest_hi = MATE
        for i in range(n):
            p = probs[i]
            rest_lo -= p * lo[i]                # now the bounds of the outcomes after i
            rest_hi -= p * hi[i]
            if self.star >= 1:
                # the window outcome i must beat for the expectation to stay inside (alpha, beta)
                a = (alpha - total - rest_hi) / p
                b = (beta - total - rest_lo) / p
                if a < -MATE:
                    a = -MATE - 1
                if b > MATE:
                    b = MATE + 1
            else:
                a = -MATE - 1
                b = MATE + 1
            (<State>child).assign(c)
            if exact:
                (<State>child).play(outs[i])
                v = self.value(<State>child, depth, a, b, ply + 1, me, budget // n)
            else:
                self.sample_run(<State>child)
                v = self.value(<State>child, depth, a, b, ply + 1, me, self.exact_outcomes)
            total += p * v
            if self.stop:
                break
            if self.star >= 1:
                if total + rest_hi <= alpha:
                    total += rest_hi            # fail low: an upper bound
                    break
                if total + rest_lo >= beta:
                    total += rest_lo            # fail high: a lower bound
                    break
        free(outs)
        free(probs)
        self.pv_len[ply] = 0
        return total

    cdef void sample_run(self, State s) noexcept nogil:
        """Play sampled outcomes in s until a player is to move or the game is over."""
        while not s.over() and s.to_move() == CHANCE:
            s.play(s.sample_chance(&self.rng))
            self.check_limits()
            if self.stop:
                return

    cdef void probe(self, State c, int depth, int ply, int me, double* lo, double* hi) noexcept nogil:
        """Star2's probe of one outcome: the exact value of a terminal or horizon position,
        else the first move's value, a bound in the direction of the side to move there
        (a lower bound for `me` if me's side moves, an upper bound otherwise)."""
        cdef int tm
        cdef double v
        if c.over():
            v = self.terminal(c, me, ply)
            lo[0] = v
            hi[0] = v
            return
        tm = c.to_move()
        if tm == CHANCE:
            return
        if depth <= 0 or ply >= MAX_PLY - 2:
            v = self.leaf(c, me)
            lo[0] = v
            hi[0] = v
            return
        if not self.enter_node():
            return
        self.check_limits()
        if self.stop:
            return
        self.probing = True
        if self.side(tm) == self.side(me):
            lo[0] = self.negamax(c, depth, -MATE - 1, MATE + 1, ply, tm)
        else:
            hi[0] = -self.negamax(c, depth, -MATE - 1, MATE + 1, ply, tm)
        self.probing = False

    cdef void score_moves(self, int* moves, int n, int tt_move, int ply, int player,
                          bint game_order) noexcept nogil:
        # game_order: the moves came from search_moves with what the game knows (not SOON_UNKNOWN)
        cdef int i, m
        cdef double* sc = self.scorebuf + ply * MAX_MOVES
        for i in range(n):
            m = moves[i]
            if self.windows and game_order:
                # a proof to the end, of a game that names the moves a proof searches: its
                # order alone (the table's move and the killers, learnt in other subtrees,
                # cost Connect Four 4x the nodes; history by move id, 4x on a drawn position)
                sc[i] = -i
            elif m == tt_move:
                sc[i] = ORDER_TT
            elif m == self.killers[ply][0]:
                sc[i] = ORDER_KILLER1
            elif m == self.killers[ply][1]:
                sc[i] = ORDER_KILLER2
            elif self.windows:
                # a proof to the end: the game's own generation order ranks the rest
                # (history by move id, learnt across unrelated subtrees, ranked them worse
                # on Connect Four: 4x the nodes on a drawn position)
                sc[i] = -i
            else:
                sc[i] = self.history[player * HIST_SIZE + (m & (HIST_SIZE - 1))]
                if self.helper_index > 0:
                    # helpers break ties their own way, so that they search other subtrees
                    # first and leave in the table what the main searcher has not seen yet
                    sc[i] += <double>(rng_next(&self.rng) & 3)

    cdef inline int pick_next(self, int* moves, int n, int i, int ply) noexcept nogil:
        """Selection sort one step at a time: a cut-off after a few moves never pays for
        sorting the rest."""
        cdef double* sc = self.scorebuf + ply * MAX_MOVES
        cdef int j, best = i, m
        cdef double s
        for j in range(i + 1, n):
            if sc[j] > sc[best]:
                best = j
        if best != i:
            m = moves[i]
            moves[i] = moves[best]
            moves[best] = m
            s = sc[i]
            sc[i] = sc[best]
            sc[best] = s
        return moves[i]

    cdef double negamax(self, State s, int depth, double alpha, double beta, int ply,
                        int me) noexcept nogil:
        # me: the player to move at s (the caller has asked the game)
        cdef bint probe = self.probing        # Star2: search the first move only
        cdef uint64_t key = s.key()
        cdef TTData hit
        cdef int tt_move = -1, n = 0, i, m, best_move = -1, j, soon = SOON_UNKNOWN, made = -1
        cdef int r
        cdef bint reducing
        cdef double v, best = -INF, alpha0 = alpha, tv
        cdef bint exact_v
        cdef int* moves = self.movebuf + ply * MAX_MOVES
        cdef PyObject* child
        cdef long long horizon0
        # the table's line is fetched while the game generates the moves: the probe's cache
        # miss was three quarters of the solver's time in negamax
        self.table.prefetch(key)
        self.probing = False
        self.pv_len[ply] = 0
        self.path[ply] = key
        if self.solving:
            # mate-distance bounds: nothing here ends sooner than the next ply, so a window
            # beyond them (as solve's null windows on a distance are) is settled at once
            tv = MATE - ply - 1
            if beta > tv:
                beta = tv
                if alpha >= beta:
                    return beta
            if alpha < -tv:
                alpha = -tv
                if alpha >= beta:
                    return alpha
            if ply > 0:
                # what the game knows of the next two plies settles the node, or narrows its
                # window further (the root searches every legal move: it reports each)
                n = s.search_moves(moves, &soon)
                if soon == SOON_WIN:
                    return MATE - ply - 1
                if soon == SOON_LOSS:
                    return -(MATE - ply - 2)
                if soon == SOON_QUIET:
                    # a win on the mover's next move but one at the soonest, a loss on the
                    # opponent's next move but one
                    tv = MATE - ply - 3
                    if beta > tv:
                        beta = tv
                        if alpha >= beta:
                            return beta
                    if alpha < -(tv - 1):
                        alpha = -(tv - 1)
                        if alpha >= beta:
                            return alpha
                if n > 0 and soon != SOON_LOSS:
                    # the first child, made now so that its table line comes in while this
                    # node reads its own and orders its moves (the probe's miss is the
                    # solver's largest single cost); kept if it is the first searched
                    made = moves[0]
                    (<State>self.states[ply + 1]).assign(s)
                    (<State>self.states[ply + 1]).play(made)
                    self.table.prefetch((<State>self.states[ply + 1]).key())
            alpha0 = alpha
        if ply > 0 and not self.solving:
            # a position repeated on the search path: whoever can repeat can draw
            for i in range(ply - 1, -1, -1):
                if self.path[i] == key:
                    self.horizon += 1     # a heuristic draw, not a proof
                    return 0.0
        if self.table.probe(key, &hit):
            tt_move = hit.move
            if ply > 0 and hit.depth >= depth:
                tv = from_tt(hit.value, ply)
                if (hit.flag == EXACT or (hit.flag == LOWER and tv >= beta)
                        or (hit.flag == UPPER and tv <= alpha)):
                    if hit.depth < DEPTH_INF:
                        self.horizon += 1
                    return tv
        if not self.solving or ply == 0:
            n = s.legal_moves(moves)
        if ply == 0 and self.n_excluded:
            n = self.without_excluded(moves, n)
        self.score_moves(moves, n, tt_move, ply, me, soon != SOON_UNKNOWN)
        child = self.states[ply + 1]
        horizon0 = self.horizon
        # late move reductions: a heuristic search that is deep enough looks at the moves
        # that come late in its order (after the table's move, the killers and the first
        # three) one ply shallower, two past the twelfth, and again at full depth only when
        # one beats alpha.  Never in a proof (solve, eval=none) nor at the root, whose
        # moves are all reported.
        reducing = self.lmr and depth >= 3 and ply > 0 and self.use_eval and not self.solving \
            and not probe
        for i in range(n):
            m = self.pick_next(moves, n, i, ply)
            if i > 0 or m != made:
                (<State>child).assign(s)
                (<State>child).play(m)
            self.pv_len[ply + 1] = 0
            exact_v = True
            if i == 0:
                v = self.value(<State>child, depth - 1, alpha, beta, ply + 1, me, self.exact_outcomes)
            else:
                r = 0
                if reducing and i >= 3 and self.scorebuf[ply * MAX_MOVES + i] < ORDER_KILLER2:
                    r = 2 if (i >= 12 and depth >= 5) else 1
                v = self.value(<State>child, depth - 1 - r, alpha, alpha + 1.0, ply + 1, me,
                               self.exact_outcomes)
                if r and v > alpha and not self.stop:
                    (<State>child).assign(s)
                    (<State>child).play(m)
                    v = self.value(<State>child, depth - 1, alpha, alpha + 1.0, ply + 1, me,
                                   self.exact_outcomes)
                exact_v = False
                if v > alpha and v < beta and not self.stop:
                    (<State>child).assign(s)
                    (<State>child).play(m)
                    v = self.value(<State>child, depth - 1, alpha, beta, ply + 1, me, self.exact_outcomes)
                    exact_v = True
            if self.stop:
                break
            if ply == 0 and i < MAX_MOVES:
                self.root_move[i] = m
                self.root_val[i] = v
                self.root_exact[i] = exact_v and v < beta
                self.root_n = i + 1
            if v > best:
                best = v
                best_move = m
                if v > alpha:
                    alpha = v
                    self.pv[ply][0] = m
                    for j in range(self.pv_len[ply + 1]):
                        self.pv[ply][j + 1] = self.pv[ply + 1][j]
                    self.pv_len[ply] = self.pv_len[ply + 1] + 1
                    if alpha >= beta:
                        if m != self.killers[ply][0]:
                            self.killers[ply][1] = self.killers[ply][0]
                            self.killers[ply][0] = m
                        self.history[me * HIST_SIZE + (m & (HIST_SIZE - 1))] += depth * depth
                        break
            if probe:
                break
        if self.stop:
            return best if best > -INF else 0.0
        if probe and best <= alpha0:
            return best       # one move failing low bounds nothing
        if best_move >= 0 and not (ply == 0 and self.n_excluded):   # a partial root is no entry
            # a subtree that met no horizon is exact at any depth
            # (the table may have grown while the children were searched: store finds the
            # key's place again)
            self.table.store(key, to_tt(best, ply), best_move,
                     DEPTH_INF if self.horizon == horizon0 else depth,
                     LOWER if (best >= beta or probe) else (EXACT if best > alpha0 else UPPER))
        return best

    cdef int without_excluded(self, int* moves, int n) noexcept nogil:
        cdef int i, j, kept = 0
        cdef bint out
        for i in range(n):
            out = False
            for j in range(self.n_excluded):
                if moves[i] == self.excluded[j]:
                    out = True
                    break
            if not out:
                moves[kept] = moves[i]
                kept += 1
        return kept

    # ------------------------------------------------------------------ the driver
    def search(self, State root, int max_depth=64, double seconds=0.0, long long nodes=0,
               bint solve=False, callback=None, exclude=()):
        """Iterative deepening from `root`.  Returns a dict: move, score, depth, pv (ids),
        nodes, seconds, exact (the score is proven), stats [(move, score)] at the root.
        ``exclude``: root moves to leave out (the best of the others is searched, for the
        second and later lines of a multi-PV analysis).

        With threads > 1 this is Lazy SMP: helper threads search the same root at their own
        depths and move orders, sharing the table, while this (the main) searcher deepens as
        it would alone; its result is the one reported, the nodes are everyone's."""
        cdef int d, i, n, m, best_move = -1, depth_done = 0
        cdef double t0 = now(), score = 0.0, v, alpha, beta
        cdef int* moves
        cdef list pv = [], root_scores = []
        cdef bint exact = False, lazy
        if root.over() or root.to_move() == CHANCE:
            raise ValueError("alpha-beta needs a decision node to search from")
        if not (0.0 <= seconds <= MAX_SECONDS) or not (0 <= nodes <= MAX_NODES) or max_depth < 1:
            raise ValueError(f"alpha-beta limits out of range: depth >= 1, seconds 0..{MAX_SECONDS:g}, "
                             f"nodes 0..{MAX_NODES}")
        if root.n_players > 2 and not self.paranoid:
            raise ValueError(
                f"alpha-beta searches two-player games; this position has {root.n_players} players "
                "(use paranoid=1 to search everyone against the player to move)")
        if len(exclude) >= MAX_MOVES:
            raise ValueError(f"at most {MAX_MOVES - 1} root moves can be excluded")
        self.n_excluded = len(exclude)
        for i, m in enumerate(exclude):
            self.excluded[i] = m
        self.begin(root, solve)
        self.table.new_search()
        self.node_limit = nodes
        self.deadline = t0 + seconds if seconds > 0 else 0.0
        moves = self.movebuf
        n = root.legal_moves(moves)
        if self.n_excluded:
            n = self.without_excluded(moves, n)
            if n == 0:
                raise ValueError("every root move is excluded: nothing is left to search")
        if n == 1 and not solve and not self.n_excluded:
            # a forced move is played at once; a multi-PV line whose only move is left
            # after the excluded ones still needs its value searched
            max_depth = min(max_depth, 1)
        if nodes == 1:
            # the root is the whole budget: no move is searched; the game's first move is
            # played and the root's evaluation reported, at depth 0
            max_depth = 0
            self.stop = True
            score = self.leaf(root, self.root_player)
        # A solve without a callback builds deepening's line and root scores as Python lists
        # once, at the end, and only if the window tests do not replace them (building them
        # after every iteration was 8% of the time of an easy solve, end.jsonl's).  A solve
        # stopped early then extends that line from the table as it is at the end.
        lazy = solve and callback is None
        self.done_pv_len = 0
        self.start_helpers(root, max_depth)
        try:
            for d in range(1, max_depth + 1):
                self.horizon = 0
                self.root_n = 0
                with nogil:
                    v = self.negamax(root, d, -INF, INF, 0, root.to_move())
                if self.stop and d > 1:
                    break       # an unfinished iteration: keep the last complete one
                if self.pv_len[0] > 0:
                    best_move = self.pv[0][0]
                    if lazy:
                        self.keep_pv(d)
                    else:
                        pv = self.complete_pv(root, [self.pv[0][i] for i in range(self.pv_len[0])], d)
                elif best_move < 0:
                    best_move = moves[0]
                    pv = [best_move]
                score = v
                depth_done = d
                store_int(&self.shared.depth_done, d)
                if lazy:
                    self.keep_root_scores()
                else:
                    root_scores = [(self.root_move[i], self.root_val[i], self.root_exact[i])
                                   for i in range(self.root_n)]
                if callback is not None:
                    try:
                        callback(d, score, pv, self.all_nodes(), now() - t0)
                    except KeyboardInterrupt:     # Ctrl-C inside the caller's Python code
                        self.interrupted = True
                        self.stop = True          # nothing after this may search on (window_solve)
                        break
                if self.met_chance and solve:
                    raise ChanceInSolve("the position has chance ahead: solve needs a position "
                                        "with no chance left")
                if not self.stop and (self.horizon == 0 or (fabs(score) > MATE_BOUND and not solve)):
                    exact = True    # a forced win/loss, or a tree searched to its ends
                    break
                if self.stop or (solve and (d >= SOLVE_DEEPENING or fabs(score) > MATE_BOUND)):
                    # solve takes a mate's distance from the window tests: a table kept from
                    # another search can show a longer mate at a shallow depth
                    break
            if solve and not exact and not self.stop and not self.met_chance:
                score, exact = self.window_solve(root, t0, callback)
                if exact or self.pv_len[0] > 0:
                    lazy = False      # the window tests' line and root scores replace deepening's
                    depth_done = self.seldepth
                    if self.pv_len[0] > 0:
                        best_move = self.pv[0][0]
                        pv = self.complete_pv(root, [self.pv[0][i] for i in range(self.pv_len[0])],
                                              MAX_PLY)
                    root_scores = [(self.root_move[i], self.root_val[i], self.root_exact[i])
                                   for i in range(self.root_n)]
        finally:
            self.stop_helpers()
            self.table_nodes += self.all_nodes()
        if lazy:
            # deepening's last complete iteration, kept in C arrays while it ran
            if self.done_pv_len > 0:
                pv = self.complete_pv(root, [self.done_pv[i] for i in range(self.done_pv_len)],
                                      self.done_depth)
            root_scores = [(self.done_root_move[i], self.done_root_val[i], self.done_root_exact[i])
                           for i in range(self.done_root_n)]
        if not solve:
            helper = self.deepest_helper(depth_done, exact)
            if helper is not None:
                depth_done = helper.done_depth
                score = helper.done_score
                exact = helper.done_exact
                best_move = helper.done_pv[0]
                pv = self.complete_pv(root, [helper.done_pv[i] for i in range(helper.done_pv_len)],
                                      depth_done)
                root_scores = [(helper.done_root_move[i], helper.done_root_val[i],
                                helper.done_root_exact[i]) for i in range(helper.done_root_n)]
                if callback is not None and not self.interrupted:
                    try:
                        callback(depth_done, score, pv, self.all_nodes(), now() - t0)
                    except KeyboardInterrupt:
                        self.interrupted = True
        if self.met_chance and solve:
            raise ChanceInSolve("the position has chance ahead: solve needs a position "
                                "with no chance left")
        if best_move < 0:
            best_move = moves[0]
            pv = [best_move]
        result = {"move": best_move, "score": score, "depth": depth_done, "pv": pv,
                "nodes": self.all_nodes(), "seconds": now() - t0,
                "exact": exact and not self.met_chance, "chance": self.met_chance,
                "seldepth": self.seldepth, "root_moves": root_scores, "threads": self.threads}
        if self.interrupted:
            raise SearchInterrupted(result)
        return result

    cdef void begin(self, State root, bint solve):
        """Ready this searcher (main or helper) for a search of `root`."""
        cdef int i
        self.root_player = root.to_move()
        self.solving = solve
        self.windows = False
        self.met_chance = False
        self.stop = False
        self.interrupted = False
        # the root is a node of the search once: the main searcher's (a helper's copy of it
        # is the same position)
        self.nodes = 0 if self.helper_index > 0 else 1
        self.published_nodes = 0
        self.helper_nodes = 0
        self.checks = 0
        self.node_limit = 0
        self.deadline = 0.0
        self.seldepth = 0
        if self.stack and (type(self.stack[0]) is not type(root)
                           or (<State>self.stack[0]).n_players != root.n_players):
            self.stack = []           # scratch states of another game: the casts need this one
            self.clear()
        while len(self.stack) < MAX_PLY + 1:
            self.stack.append(root.clone())
        for i in range(MAX_PLY + 1):
            self.states[i] = <PyObject*>self.stack[i]
        (<State>self.stack[0]).assign(root)    # a helper searches from its own copy

    cdef void start_helpers(self, State root, int max_depth):
        """Start threads - 1 helper threads on `root` (as many as the system gives)."""
        cdef AlphaBeta h
        cdef int i, j
        self.shared.stop = 0
        self.shared.counted = 1           # the main searcher's root
        self.shared.depth_done = 0
        self.running = False
        if self.threads == 1 or max_depth < 1:
            return
        while len(self.helpers) < self.threads - 1:
            h = AlphaBeta(tt_mb=1, threads=1, main=self, seed=len(self.helpers) + 1)
            h.helper_index = len(self.helpers) + 1
            self.helpers.append(h)
        del self.helpers[self.threads - 1:]
        for i, h in enumerate(self.helpers):
            self.helper_ptrs[i] = <PyObject*>h
            h.use_eval = self.use_eval
            h.paranoid = self.paranoid
            h.exact_outcomes = self.exact_outcomes
            h.samples = self.samples
            h.star = self.star
            h.lmr = self.lmr
            h.n_excluded = self.n_excluded      # a multi-PV line: helpers leave out the same moves
            for j in range(self.n_excluded):
                h.excluded[j] = self.excluded[j]
            h.begin(root, self.solving)
            h.helper_depth = max_depth
            h.node_limit = self.node_limit
        self.running = True
        for h in self.helpers:
            if not pool_start(&self.pool, helper_main, <void*>h):
                break          # no more threads to be had: search with those started

    cdef void stop_helpers(self):
        cdef AlphaBeta h
        if not self.running:
            return
        store_int(&self.shared.stop, 1)
        with nogil:
            pool_join(&self.pool)
        self.running = False
        self.helper_nodes = 0

    cdef long long all_nodes(self):
        """The nodes of this search, the helpers' included (their latest published counts
        while they run, their own counts once they have stopped)."""
        cdef AlphaBeta h
        cdef long long total = self.nodes
        for h in self.helpers:
            total += h.nodes if not self.running else <long long>load_u64(&h.published_nodes)
        return total

    cdef void helper_search(self, State root) noexcept nogil:
        """A helper's whole search: deepening from depth 1 or 2 (every other helper one
        iteration ahead of the main searcher), then solve's window tests, until the main
        searcher stops it; what it finds reaches the main searcher through the table.  A
        helper that completes the search's last depth (or searches the tree to its ends)
        ends the search, and its deepest complete iteration is reported when it is deeper
        than the main searcher's (see adopt_helper)."""
        cdef int d = 1 + self.helper_index % 2, ahead
        cdef double v
        self.done_depth = 0
        while not self.stop:
            # never search a depth the main searcher has finished: it gains nothing from
            # the table then (every other helper one iteration further ahead)
            ahead = load_int(&self.control.depth_done) + 1 + self.helper_index % 2
            if ahead > self.helper_depth:
                ahead = self.helper_depth          # the last depth: race the main searcher
            if d < ahead:
                d = ahead
            if d > self.helper_depth:
                break
            self.horizon = 0
            self.root_n = 0
            v = self.negamax(root, d, -INF, INF, 0, root.to_move())
            if self.stop:
                break
            if not self.solving:
                self.keep_iteration(d, v)
                if d >= self.helper_depth or self.horizon == 0:
                    store_int(&self.control.stop, 1)     # the search's answer is here
                    break
            if self.horizon == 0 or (self.solving and d >= SOLVE_DEEPENING):
                break
            d += 1
        if self.solving and not self.stop and not self.met_chance:
            self.windows = True
            self.window_tests(root, DEPTH_INF - 1)
            self.windows = False
        store_u64(&self.published_nodes, <uint64_t>self.nodes)

    cdef void keep_pv(self, int d) noexcept nogil:
        cdef int i
        self.done_depth = d
        self.done_pv_len = self.pv_len[0]
        for i in range(self.pv_len[0]):
            self.done_pv[i] = self.pv[0][i]

    cdef void keep_root_scores(self) noexcept nogil:
        cdef int i
        self.done_root_n = self.root_n
        for i in range(self.root_n):
            self.done_root_move[i] = self.root_move[i]
            self.done_root_val[i] = self.root_val[i]
            self.done_root_exact[i] = self.root_exact[i]

    cdef void keep_iteration(self, int d, double v) noexcept nogil:
        cdef int i
        self.done_depth = d
        self.done_score = v
        self.done_exact = self.horizon == 0 or fabs(v) > MATE_BOUND
        self.done_pv_len = self.pv_len[0]
        for i in range(self.pv_len[0]):
            self.done_pv[i] = self.pv[0][i]
        self.done_root_n = self.root_n
        for i in range(self.root_n):
            self.done_root_move[i] = self.root_move[i]
            self.done_root_val[i] = self.root_val[i]
            self.done_root_exact[i] = self.root_exact[i]

    cdef AlphaBeta deepest_helper(self, int depth_done, bint exact):
        """The helper whose last complete iteration is better than the main searcher's
        (`depth_done`, `exact`), else None; only after the helpers have been joined.  A
        proven value beats an unproven one, even from a shallower iteration (a helper can
        prove the value at a depth the main searcher has passed, through what the main
        searcher left in the table, and end the search); then the deeper iteration wins."""
        cdef AlphaBeta h, best = None
        for h in self.helpers:
            if h.done_pv_len == 0 or h.done_depth == 0:
                continue
            if (h.done_exact and not exact) or (h.done_exact == exact and h.done_depth > depth_done):
                depth_done = h.done_depth
                exact = h.done_exact
                best = h
        return best

    cdef tuple window_solve(self, State root, double t0, callback):
        """The exact value by null-window tests to the end of the game, after deepening
        left it unproven (see window_tests)."""
        cdef double score
        self.windows = True
        try:
            with nogil:
                score = self.window_tests(root, DEPTH_INF - 1)
        finally:
            self.windows = False
        if self.stop:
            return 0.0, False
        if callback is not None:
            callback(self.seldepth, score, [self.pv[0][i] for i in range(self.pv_len[0])],
                     self.all_nodes(), now() - t0)
        return score, not self.stop and (fabs(score) > MATE_BOUND or self.horizon == 0)

    cdef double window_tests(self, State root, int depth) noexcept nogil:
        """First whether the mover wins, loses or draws (one window around 0), then the
        distance by bisection, each test a window around one distance, and a last window
        around the value itself for the principal variation.  With the mate-distance bounds
        a test of "a win within p plies" searches p plies at most."""
        cdef double v, t, score
        cdef int p, lo, hi
        self.horizon = 0
        v = self.negamax(root, depth, -0.5, 0.5, 0, root.to_move())
        if v >= 0.5:                      # a win: the fewest plies p with value MATE - p
            lo, hi = 1, <int>(MATE - v + 0.5)
            while lo < hi and not self.stop:
                p = (lo + hi) // 2
                t = MATE - p
                v = self.negamax(root, depth, t - 0.5, t + 0.5, 0, root.to_move())
                if v >= t - 0.5:
                    hi = min(p, <int>(MATE - v + 0.5))
                else:
                    lo = max(p + 1, <int>(MATE - v + 0.5))
            score = MATE - hi
        elif v <= -0.5:                   # a loss: the most plies p with value -(MATE - p)
            lo, hi = 1, <int>(MATE + v + 0.5)
            while lo < hi and not self.stop:
                p = (lo + hi + 1) // 2
                t = -(MATE - p)
                v = self.negamax(root, depth, t - 0.5, t + 0.5, 0, root.to_move())
                if v >= t - 0.5:
                    lo = max(p, <int>(MATE + v + 0.5))
                else:
                    hi = min(p - 1, <int>(MATE + v + 0.5))
            score = -(MATE - lo)
        else:
            score = 0.0
        if self.stop:
            return 0.0
        if score != 0.0:
            self.root_n = 0
            self.negamax(root, depth, score - 0.5, score + 0.5, 0, root.to_move())
        return score

    cdef list complete_pv(self, State root, list pv, int depth):
        """The search's PV, continued from the table where a table hit cut it short."""
        cdef State s = root.clone()
        cdef int moves[MAX_MOVES]
        cdef int n, i, m
        cdef TTData hit
        cdef list seen = []
        for m in pv:
            s.play(m)
            seen.append(s.key())
        while len(pv) < depth and not s.over() and s.to_move() != CHANCE:
            if not self.table.probe(s.key(), &hit):
                break
            m = hit.move
            n = s.legal_moves(moves)
            for i in range(n):
                if moves[i] == m:
                    break
            else:
                break
            s.play(m)
            if s.key() in seen:
                break
            seen.append(s.key())
            pv.append(m)
        return pv


def score_to_value(double score):
    """A score (player to move's view) as an expected result in [0, 1]."""
    if score > MATE_BOUND:
        return 1.0
    if score < -MATE_BOUND:
        return 0.0
    return min(1.0, max(0.0, 0.5 + 0.5 * score / MATE))


def score_text(double score):
    """'win in 5' / 'loss in 4' (plies) for proven scores, else the advantage in [-1, 1]
    ('+0.231' = an expected result of 0.6155)."""
    if score > MATE_BOUND:
        return f"win in {int(round(MATE - score))}"
    if score < -MATE_BOUND:
        return f"loss in {int(round(MATE + score))}"
    return f"{score / MATE:+.3f}"


def is_mate(double score):
    return fabs(score) > MATE_BOUND


def can_allocate(size_t nbytes):
    """Whether a table of nbytes can be had now (allocated and given back untouched), so that
    an engine spec asking for more memory than the machine has fails when it is parsed."""
    cdef void* p = malloc(nbytes)
    if p == NULL:
        return False
    free(p)
    return True
