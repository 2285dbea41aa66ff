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
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memset
from libc.stdint cimport uint64_t, int32_t, int16_t, uint8_t
from libc.math cimport fabs
from roost.search.clock cimport now, interrupted

from roost.core.rng cimport Rng, rng_seed, rng_below
from roost.core.state cimport State, CHANCE, MAX_MOVES, MAX_OUTCOMES, MAX_PLAYERS

DEF MAX_PLY = 160
DEF MATE = 1000000.0
DEF MATE_BOUND = 999000.0
DEF EVAL_LIMIT = 990000.0
DEF INF = 1e9
DEF DEPTH_INF = 10000
DEF HIST_SIZE = 4096
DEF SOLVE_DEEPENING = 8       # solve() deepens this far, then searches null windows to the end
DEF EXACT = 0
DEF LOWER = 1
DEF UPPER = 2

MAX_DEPTH = MAX_PLY - 10        # the deepest iteration a search may ask for
MAX_TT_MB = 65536
MAX_SECONDS = 1e9               # about 31 years: "until stopped" (the protocol's go infinite)
MAX_NODES = 10 ** 15
MAX_SAMPLES = 10000
MAX_EXACT = MAX_OUTCOMES

ctypedef struct TTEntry:
    uint64_t key
    double value
    int32_t move
    int16_t depth
    uint8_t flag
    uint8_t used


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

    cdef TTEntry* tt
    cdef uint64_t tt_mask
    cdef public long long tt_bytes
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
    cdef Rng rng
    # settings
    cdef public bint use_eval
    cdef public bint paranoid
    cdef public int exact_outcomes  # enumerate a chance node exactly up to this many outcomes
    cdef public int samples         # otherwise average this many sampled outcomes
    cdef public int star            # chance pruning: 0 none, 1 Star1, 2 Star1 with Star2 probes
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

    def __cinit__(self, int tt_mb=32, bint use_eval=True, bint paranoid=False,
                  int exact_outcomes=64, int samples=8, int star=2, seed=0):
        cdef uint64_t n = 1
        if not 1 <= tt_mb <= MAX_TT_MB:
            raise ValueError(f"the transposition table takes 1 to {MAX_TT_MB} MB, not {tt_mb}")
        if not (1 <= exact_outcomes <= MAX_EXACT and 1 <= samples <= MAX_SAMPLES and 0 <= star <= 2):
            raise ValueError(f"chance settings out of range: exact 1..{MAX_EXACT}, "
                             f"samples 1..{MAX_SAMPLES}, star 0..2")
        while n * 2 * sizeof(TTEntry) <= <uint64_t>tt_mb * 1024 * 1024:
            n *= 2
        self.tt = <TTEntry*>calloc(n, sizeof(TTEntry))
        self.tt_mask = n - 1
        self.tt_bytes = n * sizeof(TTEntry)
        self.history = <int*>calloc(MAX_PLAYERS * HIST_SIZE, sizeof(int))
        self.movebuf = <int*>malloc(MAX_PLY * MAX_MOVES * sizeof(int))
        self.scorebuf = <double*>malloc(MAX_PLY * MAX_MOVES * sizeof(double))
        if self.tt == NULL or self.history == NULL or self.movebuf == NULL or self.scorebuf == NULL:
            raise MemoryError(f"cannot allocate the alpha-beta tables ({tt_mb} MB of "
                              "transposition table)")
        self.use_eval = use_eval
        self.paranoid = paranoid
        self.exact_outcomes = exact_outcomes
        self.samples = samples
        self.star = star
        rng_seed(&self.rng, <uint64_t>seed)
        self.stack = []
        memset(self.killers, 0xFF, sizeof(self.killers))   # -1: no killer (0 is a move id)

    def __dealloc__(self):
        free(self.tt)
        free(self.history)
        free(self.movebuf)
        free(self.scorebuf)

    def clear(self):
        """Forget the transposition table, killers and history (a new game)."""
        memset(self.tt, 0, (self.tt_mask + 1) * sizeof(TTEntry))
        memset(self.history, 0, MAX_PLAYERS * HIST_SIZE * sizeof(int))
        memset(self.killers, 0xFF, sizeof(self.killers))

    def reseed(self, seed):
        rng_seed(&self.rng, <uint64_t>seed)

    # ------------------------------------------------------------------ helpers
    cdef inline int side(self, int player) noexcept nogil:
        # Paranoid: everyone but the root player is one side.  Two players: the player.
        if self.paranoid:
            return 0 if player == self.root_player else 1
        return player

    cdef inline double terminal(self, State s, int me, int ply) noexcept:
        cdef double out[MAX_PLAYERS]
        s.outcome(out)
        cdef double sv = 2.0 * out[self.root_player] - 1.0
        if self.side(me) != self.side(self.root_player):
            sv = -sv
        return sv * (MATE - ply)

    cdef inline double leaf(self, State s, int me) noexcept:
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

    cdef inline void check_limits(self) noexcept:
        # the one place the limits are checked: at every node a search enters (value(),
        # probe()) and every sampled chance outcome; the clock is read every 256 calls
        self.checks += 1
        if self.node_limit > 0 and self.nodes >= self.node_limit:
            self.stop = True
        elif (self.checks & 255) == 0:
            if self.deadline > 0 and now() >= self.deadline:
                self.stop = True
            if interrupted():     # Ctrl-C: stop, and tell the caller at the end
                self.interrupted = True
                self.stop = True

    # ------------------------------------------------------------------ the search
    cdef double value(self, State c, int depth, double alpha, double beta, int ply, int me,
                      int budget):
        """Value of position c for player `me`, who moved into it, in window (alpha, beta).
        `budget` bounds the leaves of the compound chance node c belongs to (see chance())."""
        cdef int tm
        # every position reached counts as a node, leaves included (as in chess engines)
        self.nodes += 1
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
            return self.negamax(c, depth, alpha, beta, ply)
        return -self.negamax(c, depth, -beta, -alpha, ply)

    cdef double chance(self, State c, int depth, double alpha, double beta, int ply, int me,
                       int budget):
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
        cdef State child
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
        child = <State>self.stack[ply + 1]
        for i in range(n):
            lo[i] = -MATE
            hi[i] = MATE
        if self.star >= 2 and exact and n > 1:
            for i in range(n):
                child.assign(c)
                child.play(outs[i])
                self.probe(child, depth, ply + 1, me, &lo[i], &hi[i])
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
            child.assign(c)
            if exact:
                child.play(outs[i])
                v = self.value(child, depth, a, b, ply + 1, me, budget // n)
            else:
                self.sample_run(child)
                v = self.value(child, depth, a, b, ply + 1, me, self.exact_outcomes)
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

    cdef void sample_run(self, State s):
        """Play sampled outcomes in s until a player is to move or the game is over."""
        while not s.over() and s.to_move() == CHANCE:
            s.play(s.sample_chance(&self.rng))
            self.check_limits()
            if self.stop:
                return

    cdef void probe(self, State c, int depth, int ply, int me, double* lo, double* hi):
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
        self.nodes += 1
        self.check_limits()
        if self.stop:
            return
        self.probing = True
        if self.side(tm) == self.side(me):
            lo[0] = self.negamax(c, depth, -MATE - 1, MATE + 1, ply)
        else:
            hi[0] = -self.negamax(c, depth, -MATE - 1, MATE + 1, ply)
        self.probing = False

    cdef void score_moves(self, int* moves, int n, int tt_move, int ply, int player):
        cdef int i, m
        cdef double* sc = self.scorebuf + ply * MAX_MOVES
        for i in range(n):
            m = moves[i]
            if m == tt_move:
                sc[i] = 1e12
            elif m == self.killers[ply][0]:
                sc[i] = 1e11
            elif m == self.killers[ply][1]:
                sc[i] = 1e10
            elif self.windows:
                # a proof to the end: the game's own generation order ranks the rest
                # (history by move id, learnt across unrelated subtrees, ranked them worse
                # on Connect Four: 4x the nodes on a drawn position)
                sc[i] = -i
            else:
                sc[i] = self.history[player * HIST_SIZE + (m & (HIST_SIZE - 1))]

    cdef inline int pick_next(self, int* moves, int n, int i, int ply) noexcept:
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

    cdef double negamax(self, State s, int depth, double alpha, double beta, int ply):
        cdef int me = s.to_move()
        cdef bint probe = self.probing        # Star2: search the first move only
        cdef uint64_t key = s.key()
        cdef TTEntry* e = &self.tt[key & self.tt_mask]
        cdef int tt_move = -1, n, i, m, best_move = -1, j
        cdef double v, best = -INF, alpha0 = alpha, tv
        cdef bint exact_v
        cdef int* moves = self.movebuf + ply * MAX_MOVES
        cdef State child
        cdef long long horizon0
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
            alpha0 = alpha
        if ply > 0 and not self.solving:
            # a position repeated on the search path: whoever can repeat can draw
            for i in range(ply - 1, -1, -1):
                if self.path[i] == key:
                    self.horizon += 1     # a heuristic draw, not a proof
                    return 0.0
        if e.used and e.key == key:
            tt_move = e.move
            if ply > 0 and e.depth >= depth:
                tv = from_tt(e.value, ply)
                if (e.flag == EXACT or (e.flag == LOWER and tv >= beta)
                        or (e.flag == UPPER and tv <= alpha)):
                    if e.depth < DEPTH_INF:
                        self.horizon += 1
                    return tv
        n = s.legal_moves(moves)
        if ply == 0 and self.n_excluded:
            n = self.without_excluded(moves, n)
        self.score_moves(moves, n, tt_move, ply, me)
        child = <State>self.stack[ply + 1]
        horizon0 = self.horizon
        for i in range(n):
            m = self.pick_next(moves, n, i, ply)
            child.assign(s)
            child.play(m)
            self.pv_len[ply + 1] = 0
            exact_v = True
            if i == 0:
                v = self.value(child, depth - 1, alpha, beta, ply + 1, me, self.exact_outcomes)
            else:
                v = self.value(child, depth - 1, alpha, alpha + 1.0, ply + 1, me, self.exact_outcomes)
                exact_v = False
                if v > alpha and v < beta and not self.stop:
                    child.assign(s)
                    child.play(m)
                    v = self.value(child, depth - 1, alpha, beta, ply + 1, me, self.exact_outcomes)
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
            e.key = key
            e.used = 1
            e.value = to_tt(best, ply)
            e.move = best_move
            # a subtree that met no horizon is exact at any depth
            e.depth = DEPTH_INF if self.horizon == horizon0 else depth
            e.flag = LOWER if (best >= beta or probe) else (EXACT if best > alpha0 else UPPER)
        return best

    cdef int without_excluded(self, int* moves, int n) noexcept:
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
        second and later lines of a multi-PV analysis)."""
        cdef int d, i, n, m, best_move = -1, depth_done = 0
        cdef double t0 = now(), score = 0.0, v, alpha, beta
        cdef int* moves
        cdef State child
        cdef list pv = [], root_scores = []
        cdef bint exact = False
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
        self.root_player = root.to_move()
        self.solving = solve
        self.met_chance = False
        self.stop = False
        self.interrupted = False
        self.nodes = 1
        self.checks = 0
        self.node_limit = nodes
        self.deadline = t0 + seconds if seconds > 0 else 0.0
        self.seldepth = 0
        if self.stack and (type(self.stack[0]) is not type(root)
                           or (<State>self.stack[0]).n_players != root.n_players):
            self.stack = []           # scratch states of another game: the casts need this one
            self.clear()
        while len(self.stack) < MAX_PLY + 1:
            self.stack.append(root.clone())
        moves = self.movebuf
        n = root.legal_moves(moves)
        if self.n_excluded:
            n = self.without_excluded(moves, n)
            if n == 0:
                raise ValueError("every root move is excluded: nothing is left to search")
        if n == 1 and not solve:
            max_depth = min(max_depth, 1)
        for d in range(1, max_depth + 1):
            self.horizon = 0
            self.root_n = 0
            self.path[0] = root.key()
            v = self.negamax(root, d, -INF, INF, 0)
            if self.stop and d > 1:
                break       # an unfinished iteration: keep the last complete one
            if self.pv_len[0] > 0:
                best_move = self.pv[0][0]
                pv = self.complete_pv(root, [self.pv[0][i] for i in range(self.pv_len[0])], d)
            elif best_move < 0:
                best_move = moves[0]
                pv = [best_move]
            score = v
            depth_done = d
            root_scores = [(self.root_move[i], self.root_val[i], self.root_exact[i])
                           for i in range(self.root_n)]
            if callback is not None:
                try:
                    callback(d, score, pv, self.nodes, now() - t0)
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
                depth_done = self.seldepth
                if self.pv_len[0] > 0:
                    best_move = self.pv[0][0]
                    pv = self.complete_pv(root, [self.pv[0][i] for i in range(self.pv_len[0])],
                                          MAX_PLY)
                root_scores = [(self.root_move[i], self.root_val[i], self.root_exact[i])
                               for i in range(self.root_n)]
        if self.met_chance and solve:
            raise ChanceInSolve("the position has chance ahead: solve needs a position "
                                "with no chance left")
        if best_move < 0:
            best_move = moves[0]
            pv = [best_move]
        result = {"move": best_move, "score": score, "depth": depth_done, "pv": pv,
                "nodes": self.nodes, "seconds": now() - t0, "exact": exact and not self.met_chance,
                "chance": self.met_chance,
                "seldepth": self.seldepth, "root_moves": root_scores}
        if self.interrupted:
            raise SearchInterrupted(result)
        return result

    cdef tuple window_solve(self, State root, double t0, callback):
        """The exact value by null-window tests to the end of the game, after deepening
        left it unproven: first whether the mover wins, loses or draws (one window around
        0), then the distance by bisection, each test a window around one distance, and a
        last window around the value itself for the principal variation.  With the
        mate-distance bounds a test of "a win within p plies" searches p plies at most."""
        cdef int depth = DEPTH_INF - 1
        self.windows = True
        try:
            return self.window_tests(root, t0, callback, depth)
        finally:
            self.windows = False

    cdef tuple window_tests(self, State root, double t0, callback, int depth):
        cdef double v, t, score
        cdef int p, lo, hi
        self.horizon = 0
        self.path[0] = root.key()
        v = self.negamax(root, depth, -0.5, 0.5, 0)
        if v >= 0.5:                      # a win: the fewest plies p with value MATE - p
            lo, hi = 1, <int>(MATE - v + 0.5)
            while lo < hi and not self.stop:
                p = (lo + hi) // 2
                t = MATE - p
                v = self.negamax(root, depth, t - 0.5, t + 0.5, 0)
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
                v = self.negamax(root, depth, t - 0.5, t + 0.5, 0)
                if v >= t - 0.5:
                    lo = max(p, <int>(MATE + v + 0.5))
                else:
                    hi = min(p - 1, <int>(MATE + v + 0.5))
            score = -(MATE - lo)
        else:
            score = 0.0
        if self.stop:
            return 0.0, False
        if score != 0.0:
            self.root_n = 0
            self.negamax(root, depth, score - 0.5, score + 0.5, 0)
        if callback is not None and not self.stop:
            callback(self.seldepth, score, [self.pv[0][i] for i in range(self.pv_len[0])],
                     self.nodes, now() - t0)
        return score, not self.stop and (fabs(score) > MATE_BOUND or self.horizon == 0)

    cdef list complete_pv(self, State root, list pv, int depth):
        """The search's PV, continued from the table where a table hit cut it short."""
        cdef State s = root.clone()
        cdef int moves[MAX_MOVES]
        cdef int n, i, m
        cdef TTEntry* e
        cdef list seen = []
        for m in pv:
            s.play(m)
            seen.append(s.key())
        while len(pv) < depth and not s.over() and s.to_move() != CHANCE:
            e = &self.tt[s.key() & self.tt_mask]
            if not (e.used and e.key == s.key()):
                break
            m = e.move
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
