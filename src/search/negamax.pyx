"""One thread's alpha-beta search: negamax with principal-variation search, the table's
cut-offs, late move reductions, repetition on the search path scored as a draw, chance as
expectimax (exact with Star1 and Star2 pruning when the outcomes are few, sampled when they
are many), and the null-window tests that prove a value to the end of the game.

The main searcher and each Lazy SMP helper are one Negamax each, configured alike from the
search's shared Settings and Task (negamax.pxd); they share the transposition table and
learn from each other only through it.  The deepening that drives the main searcher, and
what a search reports, are alphabeta.pyx's; a helper deepens by itself (helper_search).

Depth counts decisions: a run of chance nodes (a deal of many cards) is one compound chance
ply that uses no depth and expands into a bounded number of positions, so a search of depth
d always ends (see chance()).
"""
from cpython.ref cimport PyObject
from libc.stdlib cimport malloc, free
from libc.stdint cimport uint64_t
from libc.math cimport fabs
from roost.core.rng cimport rng_seed
from roost.core.state cimport (CHANCE, OVER, MAX_PLAYERS, SOON_UNKNOWN, SOON_WIN, SOON_LOSS,
                               SOON_QUIET, SOON_DRAW)
from roost.search.clock cimport now, interrupted
from roost.search.score cimport MATE, MATE_BOUND, EVAL_LIMIT, INF, to_tt, from_tt, DEPTH_INF
from roost.search.tt cimport TTData, EXACT, LOWER, UPPER
from roost.search.ordering cimport ORDER_KILLER2
from roost.search.threads cimport load_u64, store_u64, load_int, store_int, add_u64


# the score of a root move that loses at once: on the opponent's next move (list_root)
cdef double LOST_AT_ONCE = -(MATE - 2)


cdef inline int ctrunc_half(int i) noexcept nogil:
    """i / 2 rounded towards zero."""
    return -((-i) // 2) if i < 0 else i // 2


cdef inline double result_score(int i, int bound) noexcept nogil:
    """The score of the i-th result from the draw (0) in a game of at most `bound` plies
    more: i > 0 a win in bound + 1 - i plies, i < 0 a loss in bound + 1 + i."""
    if i == 0:
        return 0.0
    if i > 0:
        return MATE - (bound + 1 - i)
    return -(MATE - (bound + 1 + i))


cdef inline bint possible_result(int i, int bound, bint own_move) noexcept nogil:
    """Whether the i-th result (see result_score) can be the value of a position whose mover
    wins only on its own moves (own_move: an odd distance) and loses only on the
    opponent's (an even one); any result can where the game does not say."""
    if i == 0 or not own_move:
        return True
    if i > 0:
        return (bound + 1 - i) % 2 == 1
    return (bound + 1 + i) % 2 == 0


cdef inline int result_index(double v, int bound) noexcept nogil:
    """result_score's inverse, for any score a proof returns (a score between the results
    counts as the draw's side of them)."""
    cdef int d
    if v > MATE_BOUND:
        d = <int>(MATE - v + 0.5)
        return max(1, bound + 1 - d)
    if v < -MATE_BOUND:
        d = <int>(MATE + v + 0.5)
        return min(-1, -(bound + 1 - d))
    return 0


cdef inline int result_rank(int i, int bound, bint own_move) noexcept nogil:
    """The place of the i-th result (a possible one, see possible_result) among those a
    position can have, counted from the draw: the k-th win from the draw k, the k-th loss
    -k (where the game says nothing of the distances, i itself)."""
    if not own_move or i == 0:
        return i
    if i > 0:
        return (i - (2 - bound % 2)) // 2 + 1     # wins at odd distances: i of bound's parity
    return -((-i - (1 + bound % 2)) // 2 + 1)     # losses at even distances


cdef inline int ranked_result(int r, int bound, bint own_move) noexcept nogil:
    """result_rank's inverse: the result at place r from the draw."""
    if not own_move or r == 0:
        return r
    if r > 0:
        return 2 - bound % 2 + 2 * (r - 1)
    return -(1 + bound % 2 + 2 * (-r - 1))


cdef inline int possible_below(int i, int bound, bint own_move) noexcept nogil:
    """The nearest result at or below the i-th that a position can have (at least the
    -bound-th)."""
    while i > -bound and not possible_result(i, bound, own_move):
        i -= 1
    return i


cdef inline int possible_above(int i, int bound, bint own_move) noexcept nogil:
    """The nearest result at or above the i-th that a position can have (at most the
    bound-th)."""
    while i < bound and not possible_result(i, bound, own_move):
        i += 1
    return i


cdef inline bint narrowed(double* alpha, double* beta, double lo, double hi,
                          double* settled) noexcept nogil:
    """The window (alpha, beta) narrowed to a node whose value lies in [lo, hi]; True when
    no value is left inside it (the node's fail-soft bound then in `settled`)."""
    if beta[0] > hi:
        beta[0] = hi
        if alpha[0] >= beta[0]:
            settled[0] = beta[0]
            return True
    if alpha[0] < lo:
        alpha[0] = lo
        if alpha[0] >= beta[0]:
            settled[0] = alpha[0]
            return True
    return False


cdef inline bint table_narrowed(TTData* hit, int ply, double* alpha, double* beta,
                                double* settled) noexcept nogil:
    """The window narrowed by a table entry that holds at any depth, found at `ply`: True
    when it settles the node (its value, or its bound, in `settled`)."""
    cdef double tv = from_tt(hit.value, ply)
    if hit.flag == EXACT:
        settled[0] = tv
        return True
    if hit.flag == LOWER:
        return narrowed(alpha, beta, tv, INF, settled)
    return narrowed(alpha, beta, -INF, tv, settled)


cdef inline int fetched_index(int* moves, int n, int m) noexcept nogil:
    """The place of move m among the n whose table words were fetched, or -1."""
    cdef int i
    for i in range(n):
        if moves[i] == m:
            return i
    return -1


cdef inline bint in_head(int* head, int nh, int idx) noexcept nogil:
    cdef int j
    for j in range(nh):
        if head[j] == idx:
            return True
    return False


cdef class Negamax:
    """One thread's searcher (its scratch states, line, move ordering and counts)."""

    def __cinit__(self, seed=0):
        self.order = MoveOrder()
        self.movebuf = <int*>malloc(MAX_PLY * MAX_MOVES * sizeof(int))
        if self.movebuf == NULL:
            raise MemoryError("cannot allocate the alpha-beta tables")
        rng_seed(&self.rng, <uint64_t>seed)
        self.stack = []

    def __dealloc__(self):
        free(self.movebuf)

    def reseed(self, seed):
        rng_seed(&self.rng, <uint64_t>seed)

    cdef void attach(self, TranspositionTable table, Shared* control, int index):
        """Search with `table` and the search's `control`, as thread `index`."""
        self.table = table
        self.control = control
        self.index = index

    cdef bint other_game(self, State root):
        """Whether the scratch states are of another game than `root`'s."""
        cdef PyObject* first = self.states[0]        # NULL: none made yet
        if first == NULL:
            return False
        return (first.ob_type != (<PyObject*>root).ob_type
                or (<State>first).n_players != root.n_players)

    cdef bint begin(self, State root):
        """Ready for a search of `root` as the control's task says (a helper searches its
        own copy of the root: its ply-0 scratch state); whether it searched another game
        before (its scratch states and move ordering are then made anew)."""
        cdef int i
        cdef bint other = self.other_game(root)
        if other:
            self.states[0] = NULL
            self.stack = []           # scratch states of another game: the casts need this one
            self.order.clear()
        self.s = self.control.settings
        copy_task(&self.task, &self.control.task)
        self.root_player = root.to_move()
        self.solving = self.task.solve
        self.solve_deepening = SOLVE_DEEPENING if root.plies_bound() >= 0 else SOLVE_DEEPENING_OPEN
        # a proof reads its children's words for a cut-off where a child's value is the
        # negation of its own (two players alternate) and ETC_PLIES_LEFT plies or more are
        # left (the game's bound from the root, less the ply)
        self.etc_last_ply = (root.plies_bound() - ETC_PLIES_LEFT if root.wins_on_own_move()
                             else -1)
        self.windows = False
        self.line = False
        self.root_first = -1
        self.root_listed = -1
        self.root_lost = 0
        self.root_soon = SOON_UNKNOWN
        self.met_chance = False
        self.stop = False
        self.interrupted = False
        # the root is a node of the search once: the main searcher's (a helper's copy of it
        # is the same position)
        self.nodes = 0 if self.index > 0 else 1
        self.control.published[self.index].value = 0
        self.helper_nodes = 0
        self.checks = 0
        self.seldepth = 0
        self.done.depth = 0
        self.done.pv_len = 0
        self.done.root_n = 0
        if self.states[0] == NULL:
            # scratch states made once for a game and kept (a search of a small position
            # costs little more than this set-up)
            while len(self.stack) < MAX_PLY + 1:
                self.stack.append(root.clone())
            for i in range(MAX_PLY + 1):
                self.states[i] = <PyObject*>self.stack[i]
        if self.index > 0:
            (<State>self.states[0]).assign(root)
        return other

    cdef State scratch_root(self, State root):
        """A copy of `root` to play a line out on after the search (its position: the line
        is read by its moves and keys, never as text): the main searcher's ply-0 scratch
        state, which only a helper searches from (its copy of the root)."""
        cdef State s = <State>self.states[0]
        s.assign_position(root)
        return s

    # ------------------------------------------------------------------ scores and limits
    cdef inline int side(self, int player) noexcept nogil:
        # Paranoid: everyone but the root player is one side.  Two players: the player.
        if self.s.paranoid:
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
        if not self.s.use_eval or self.solving:
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
        # probe(), prove_value()) and every sampled chance outcome.  A single thread's node
        # limit is exact at every node; the rest (the clock, Ctrl-C, the other threads, the
        # table's growth) is read every CHECK_EVERY calls.
        self.checks += 1
        if self.index == 0 and not self.running and self.task.node_limit > 0 \
                and self.nodes >= self.task.node_limit:
            self.stop = True
        elif (self.checks & (CHECK_EVERY - 1)) == 0:
            self.periodic_checks()

    cdef void periodic_checks(self) noexcept nogil:
        """The limits read every CHECK_EVERY nodes.  Only the main searcher checks the clock
        and Ctrl-C; a helper publishes its count and stops when the main one says so (or
        everyone's nodes reach the limit)."""
        if self.index > 0:
            store_u64(&self.control.published[self.index].value, <uint64_t>self.nodes)
            if load_int(&self.control.stop) or (self.task.node_limit > 0 and self.over_node_limit()):
                self.stop = True
            return
        if self.holds_gil:
            # the search has run CHECK_EVERY nodes: other Python threads may run while it
            # goes on (letting the GIL go at once cost a small proof a tenth of its time)
            self.holds_gil = False
            self.caller = PyEval_SaveThread()
        if self.running:
            if self.task.node_limit > 0 and self.over_node_limit():
                self.stop = True
            self.helper_nodes = self.helper_count()
        if load_int(&self.control.stop):
            # a helper completed the search's last depth, or the search's owner said stop
            # from another thread (WindowTests.stop)
            self.stop = True
        if not self.stop:
            if self.table.wants_growth(self.control.table_nodes + self.nodes + self.helper_nodes):
                self.table.grow(self.task.deadline)
            if self.task.deadline > 0 and now() >= self.task.deadline:
                self.stop = True
            if self.signalled():     # Ctrl-C: stop, and tell the caller at the end
                self.interrupted = True
                self.stop = True
        if self.stop and self.running:
            store_int(&self.control.stop, 1)

    cdef void take_gil_back(self) noexcept nogil:
        """The end of a call made holding the GIL: it is the caller's again (taken back if
        the search let it go)."""
        self.holds_gil = False
        if self.caller != NULL:
            PyEval_RestoreThread(self.caller)
            self.caller = NULL

    cdef inline bint over_node_limit(self) noexcept nogil:
        """With threads: whether everyone's nodes reach the limit (enter_node counts them)."""
        return <long long>load_u64(&self.control.counted) >= self.task.node_limit

    cdef inline bint enter_node(self) noexcept nogil:
        """Count a node the search is about to enter; False when it may not (the search
        has stopped, or with threads the node limit has no node left for it), and the
        search stops.  With threads under a node limit every thread takes its node from the
        shared count before entering it, so everyone's nodes together never pass the limit
        and reach it exactly when the search runs that far (a contended atomic add a node,
        paid only by a threaded search under a node limit)."""
        if self.stop:
            return False
        if self.task.node_limit > 0 and (self.running or self.index > 0):
            if <long long>add_u64(&self.control.counted, 1) > self.task.node_limit:
                self.stop = True
                return False
        self.nodes += 1
        return True

    cdef inline bint entered(self, int ply) noexcept nogil:
        """The prologue of a node reached at `ply` (value(), prove_value()): every position
        reached counts as a node, leaves included (as in chess engines), and the limits
        are read; False when the search may not go into it (it has stopped: a stopped
        search enters none, and a sampled chance run can stop it before its child)."""
        if not self.enter_node():
            return False
        if ply > self.seldepth:
            self.seldepth = ply
        self.check_limits()
        return not self.stop

    cdef bint signalled(self) noexcept nogil:
        with gil:
            return interrupted()

    cdef long long helper_count(self) noexcept nogil:
        """The helpers' latest published node counts."""
        cdef long long total = 0
        cdef int i
        for i in range(1, self.control.threads):
            total += <long long>load_u64(&self.control.published[i].value)
        return total

    # ------------------------------------------------------------------ the search
    cdef double value(self, State c, int depth, double alpha, double beta, int ply, int me,
                      int budget) noexcept nogil:
        """Value of position c for player `me`, who moved into it, in window (alpha, beta).
        `budget` bounds the leaves of the compound chance node c belongs to (see chance())."""
        cdef int tm
        if not self.entered(ply):
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
        elif budget >= self.s.exact_outcomes:
            k = self.s.samples
        else:
            k = min(self.s.samples, budget)
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
        if self.s.star >= 2 and exact and n > 1:
            if self.star2_probes(c, outs, probs, lo, hi, n, depth, ply, me, alpha, beta,
                                 &rest_lo, &rest_hi, &total):
                n = 0                           # the probes alone settle the node
        else:
            rest_lo = -MATE
            rest_hi = MATE
        for i in range(n):
            p = probs[i]
            rest_lo -= p * lo[i]                # now the bounds of the outcomes after i
            rest_hi -= p * hi[i]
            if self.s.star >= 1:
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
                v = self.value(<State>child, depth, a, b, ply + 1, me, self.s.exact_outcomes)
            total += p * v
            if self.stop:
                break
            if self.s.star >= 1:
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

    cdef bint star2_probes(self, State c, int* outs, double* probs, double* lo, double* hi,
                           int n, int depth, int ply, int me, double alpha, double beta,
                           double* rest_lo, double* rest_hi, double* total) noexcept nogil:
        """Star2: a bound on each of the n outcomes from its probe (lo, hi), and their
        expectation's bounds (rest_lo, rest_hi); True when those alone put the node outside
        (alpha, beta), its bound then in `total`."""
        cdef PyObject* child = self.states[ply + 1]
        cdef int i
        for i in range(n):
            (<State>child).assign(c)
            (<State>child).play(outs[i])
            self.probe(<State>child, depth, ply + 1, me, &lo[i], &hi[i])
            if self.stop:
                break
        for i in range(n):
            rest_lo[0] += probs[i] * lo[i]
            rest_hi[0] += probs[i] * hi[i]
        if not self.stop and rest_lo[0] >= beta:
            total[0] = rest_lo[0]               # fail high on the probes alone
            return True
        if not self.stop and rest_hi[0] <= alpha:
            total[0] = rest_hi[0]               # fail low on the probes alone
            return True
        return False

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

    cdef inline bint proof_bounds(self, State s, int ply, int* moves, int* n, int* soon,
                                  int* made, double* alpha, double* beta,
                                  double* settled) noexcept nogil:
        """A solve's narrowing of a node's window before its moves are searched; True when
        that settles the node (its value in `settled`).  Nothing here ends sooner than the
        next ply, so a window beyond the mate-distance bounds (as solve's null windows on a
        distance are) is settled at once; below the root, what the game knows of the next
        two plies settles the node or narrows its window further (the root searches every
        legal move: it reports each)."""
        cdef double tv = MATE - ply - 1
        if beta[0] > tv:
            beta[0] = tv
            if alpha[0] >= beta[0]:
                settled[0] = beta[0]
                return True
        if alpha[0] < -tv:
            alpha[0] = -tv
            if alpha[0] >= beta[0]:
                settled[0] = alpha[0]
                return True
        if ply == 0:
            return False
        n[0] = s.search_moves(moves, soon)
        if soon[0] == SOON_WIN:
            settled[0] = MATE - ply - 1
            return True
        if soon[0] == SOON_LOSS:
            settled[0] = -(MATE - ply - 2)
            return True
        if soon[0] == SOON_DRAW:
            settled[0] = 0.0
            return True
        if soon[0] == SOON_QUIET:
            # a win on the mover's next move but one at the soonest, a loss on the
            # opponent's next move but one
            tv = MATE - ply - 3
            if beta[0] > tv:
                beta[0] = tv
                if alpha[0] >= beta[0]:
                    settled[0] = beta[0]
                    return True
            if alpha[0] < -(tv - 1):
                alpha[0] = -(tv - 1)
                if alpha[0] >= beta[0]:
                    settled[0] = alpha[0]
                    return True
        if n[0] > 0 and soon[0] != SOON_LOSS:
            # the first child, made now so that its table line comes in while this node
            # reads its own and orders its moves (the probe's miss is the solver's largest
            # single cost); kept if it is the first searched
            made[0] = moves[0]
            (<State>self.states[ply + 1]).assign(s)
            (<State>self.states[ply + 1]).play(made[0])
            self.table.prefetch((<State>self.states[ply + 1]).key())
        return False

    cdef inline double search_move(self, State s, State child, int m, int i, int depth,
                                   double alpha, double beta, int ply, int me, bint reducing,
                                   bint* exact_v) noexcept nogil:
        """The value of move m, the i-th searched at s (played in `child` when i is 0):
        the first with the whole window, the others with a null window first (one ply
        shallower or two when reduced late), searched again when they beat alpha."""
        cdef double v
        cdef int r
        exact_v[0] = True
        if i == 0:
            return self.value(child, depth - 1, alpha, beta, ply + 1, me, self.s.exact_outcomes)
        r = 0
        if reducing and i >= 3 and self.order.score_of(ply, i) < ORDER_KILLER2:
            r = 2 if (i >= 12 and depth >= 5) else 1
        v = self.value(child, depth - 1 - r, alpha, alpha + 1.0, ply + 1, me,
                       self.s.exact_outcomes)
        if r and v > alpha and not self.stop:
            child.assign(s)
            child.play(m)
            v = self.value(child, depth - 1, alpha, alpha + 1.0, ply + 1, me,
                           self.s.exact_outcomes)
        exact_v[0] = False
        if v > alpha and v < beta and not self.stop:
            child.assign(s)
            child.play(m)
            v = self.value(child, depth - 1, alpha, beta, ply + 1, me, self.s.exact_outcomes)
            exact_v[0] = True
        return v

    cdef double negamax(self, State s, int depth, double alpha, double beta, int ply,
                        int me) noexcept nogil:
        # me: the player to move at s (the caller has asked the game)
        cdef bint probe = self.probing        # Star2: search the first move only
        cdef uint64_t key = s.key()
        cdef TTData hit
        cdef int tt_move = -1, n = 0, i, m, best_move = -1, j, soon = SOON_UNKNOWN, made = -1
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
            if self.proof_bounds(s, ply, moves, &n, &soon, &made, &alpha, &beta, &tv):
                return tv
            alpha0 = alpha
        if ply > 0 and not self.solving:
            # a position repeated on the search path: whoever can repeat can draw
            for i in range(ply - 1, -1, -1):
                if self.path[i] == key:
                    self.horizon += 1     # a heuristic draw, not a proof
                    return 0.0
        if self.table.probe(key, &hit):
            # a proof's table words keep a place in the proof's list of the node's moves,
            # not a move id: deepening in a solve orders without it there
            tt_move = -1 if self.table.proof else hit.move
            if ply > 0 and hit.depth >= depth:
                tv = from_tt(hit.value, ply)
                if (hit.flag == EXACT or (hit.flag == LOWER and tv >= beta)
                        or (hit.flag == UPPER and tv <= alpha)):
                    if hit.depth < DEPTH_INF:
                        self.horizon += 1
                    return tv
        if not self.solving or ply == 0:
            n = s.legal_moves(moves)
        if ply == 0 and self.task.n_excluded:
            n = self.without_excluded(moves, n)
        self.order.score(moves, n, tt_move, ply, me, self.windows, soon != SOON_UNKNOWN,
                         &self.rng if self.index > 0 else NULL)
        child = self.states[ply + 1]
        horizon0 = self.horizon
        # late move reductions: a heuristic search that is deep enough looks at the moves
        # that come late in its order (after the table's move, the killers and the first
        # three) one ply shallower, two past the twelfth, and again at full depth only when
        # one beats alpha.  Never in a proof (solve, eval=none) nor at the root, whose
        # moves are all reported.
        reducing = self.s.lmr and depth >= 3 and ply > 0 and self.s.use_eval and not self.solving \
            and not probe
        for i in range(n):
            m = self.order.pick(moves, n, i, ply)
            if i > 0 or m != made:
                (<State>child).assign(s)
                (<State>child).play(m)
            self.pv_len[ply + 1] = 0
            v = self.search_move(s, <State>child, m, i, depth, alpha, beta, ply, me, reducing,
                                 &exact_v)
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
                    self.extend_line(ply, m)
                    if alpha >= beta:
                        self.order.cutoff(m, ply, me, depth)
                        break
            if probe:
                break
        if self.stop:
            return best if best > -INF else 0.0
        if probe and best <= alpha0:
            return best       # one move failing low bounds nothing
        if best_move >= 0 and not (ply == 0 and self.task.n_excluded):   # a partial root is no entry
            # a subtree that met no horizon is exact at any depth; the place is the probe's
            # (or found again if the table grew while the children were searched)
            self.table.store(key, &hit, to_tt(best, ply), -1 if self.table.proof else best_move,
                             DEPTH_INF if self.horizon == horizon0 else depth,
                             LOWER if (best >= beta or probe) else (EXACT if best > alpha0 else UPPER))
        return best

    # ------------------------------------------------------------------ the proof
    cdef inline double prove_value(self, State c, int tm, double alpha, double beta, int ply,
                                   int me, uint64_t key) noexcept nogil:
        """A proof's value() of position c (whose key is `key`, whose mover is `tm`, as
        State.assign_played made it) for `me`, who moved into it: a solve's window tests
        search to the end of the game, and stop at chance (nothing there is proven)."""
        if not self.entered(ply):
            return 0.0
        if tm == OVER:
            return self.terminal(c, me, ply)
        if tm == CHANCE:
            self.met_chance = True
            self.stop = True
            return 0.0
        if ply >= MAX_PLY - 2:
            return self.leaf(c, me)
        if self.side(tm) == self.side(me):
            return self.prove(c, alpha, beta, ply, tm, key)
        return -self.prove(c, -beta, -alpha, ply, tm, key)

    cdef double prove(self, State s, double alpha, double beta, int ply, int me,
                      uint64_t key) noexcept nogil:
        """The value of s (not the root) for its mover `me` in window (alpha, beta), fail-soft,
        to the end of the game: the window narrowed by the nearest result the node allows
        (mate distance), by what the game knows of the next two plies (search_moves) and by
        the table's bound even where it does not cut; the moves in the game's order (where
        the game names a proof's moves), else the table's move and the killers first; the
        first with the whole window, the others with a null window, searched again when
        they land inside.  Only the last window test keeps a line (self.line)."""
        cdef uint64_t ck
        cdef uint64_t child_keys[PREFETCH_CHILDREN]
        cdef int child_moves[PREFETCH_CHILDREN]
        cdef TTData hit, chit
        cdef double tv
        cdef double child_hi[PREFETCH_CHILDREN]
        cdef bint etc = False
        cdef int k
        cdef int n, t, idx, m, i, soon = SOON_UNKNOWN, best_slot = -1, nh = 0, nk = 0, tm
        cdef int head[3]
        cdef double v, best = -INF, settled, alpha0
        cdef int* moves = self.movebuf + ply * MAX_MOVES
        cdef PyObject* child = self.states[ply + 1]
        cdef long long horizon0 = self.horizon
        cdef bint guided, found = False
        # (the parent has fetched this node's table word: it comes in while the game
        # generates the moves)
        if self.line:
            self.pv_len[ply] = 0
        # nothing here ends sooner than the next ply
        if narrowed(&alpha, &beta, -(MATE - ply - 1), MATE - ply - 1, &settled):
            return settled
        # the moves, ordered only if the table does not settle the node (it settles a
        # third of a Connect Four proof's nodes)
        n = s.search_moves_unordered(moves, &soon)
        if soon == SOON_WIN:
            return MATE - ply - 1
        if soon == SOON_LOSS:
            return -(MATE - ply - 2)
        if soon == SOON_DRAW:
            return 0.0          # the game knows it (Connect Four with two cells left)
        # the table's move and the killers first, but where the game orders a proof's moves
        # in a game that bounds its length (the proof table's layout): there the table's move
        # alone, the game's order after it (killers, moves that cut at other nodes of a ply,
        # took a Connect Four begin position from 1.6 M nodes to 44 M; the table's move
        # takes 0.4% off); the list of a game whose length is open follows no order that
        # finds a result soon
        guided = not (soon != SOON_UNKNOWN and self.table.proof)
        if soon == SOON_QUIET:
            # a win on the mover's next move but one at the soonest, a loss on the
            # opponent's next move but one
            if narrowed(&alpha, &beta, -(MATE - ply - 4), MATE - ply - 3, &settled):
                return settled
        # a node with one move to search neither reads nor keeps an entry: its child's
        # entry says as much a ply on, and a forced move is most of a proof's nodes (kept,
        # their entries pushed out others worth more: a Connect Four begin position took
        # 0.93x the time without them, for 1% more nodes); nor has it anything to order
        if n > 1:
            # the children's table words, fetched while this node reads its own (the
            # probe's miss is the proof's largest single cost), where the game has their
            # keys cheaply
            nk = s.keys_after(moves, min(n, PREFETCH_CHILDREN), child_keys)
            for i in range(nk):
                child_moves[i] = moves[i]
                self.table.prefetch(child_keys[i])
            found = self.table.probe(key, &hit)
            # only a result that holds at any depth bounds a proof (the search's entries,
            # where a solve keeps them, hold deepening's results to a depth too); a bound
            # that does not cut still narrows the window
            if found and hit.depth >= DEPTH_INF and table_narrowed(&hit, ply, &alpha, &beta,
                                                                   &settled):
                return settled
            # a child whose entry bounds its value low enough cuts this node before any
            # child is searched (an enhanced transposition cut-off), and one whose entry
            # bounds it high enough is not searched (its move cannot beat alpha); only where
            # the subtrees are large: the wait for every child's word costs more than it
            # saves nearer the end (Connect Four: 18% fewer nodes everywhere, but 1.2x the
            # time)
            if ply <= self.etc_last_ply:
                etc = True
                for i in range(nk):
                    child_hi[i] = INF
                    if self.table.probe(child_keys[i], &chit) and chit.depth >= DEPTH_INF:
                        tv = -from_tt(chit.value, ply + 1)
                        if chit.flag != LOWER and tv >= beta:
                            return tv
                        if chit.flag != UPPER:
                            child_hi[i] = tv
            s.order_search_moves(moves, n, soon)
        alpha0 = alpha
        if guided and n > 1:
            nh = self.guide(moves, n, ply, hit.move if found else -1, head)
        elif found and 0 < hit.move < n:
            head[0] = hit.move
            nh = 1
        for t in range(nh + n):
            idx = head[t] if t < nh else t - nh
            if t >= nh and nh > 0 and in_head(head, nh, idx):
                continue
            m = moves[idx]
            k = fetched_index(child_moves, nk, m)
            if etc and k >= 0 and child_hi[k] <= alpha:
                # (its bound stands for its value: the node's fail-soft bound holds)
                if child_hi[k] > best:
                    best = child_hi[k]
                    best_slot = idx
                continue
            tm = (<State>child).assign_played(s, m)
            if k >= 0:
                ck = child_keys[k]
            else:
                ck = (<State>child).key()
            self.table.prefetch(ck)
            if self.line:
                self.pv_len[ply + 1] = 0
            if best == -INF or alpha + 1.0 >= beta:
                v = self.prove_value(<State>child, tm, alpha, beta, ply + 1, me, ck)
            else:
                v = self.prove_value(<State>child, tm, alpha, alpha + 1.0, ply + 1, me, ck)
                if v > alpha and v < beta and not self.stop:
                    (<State>child).assign_played(s, m)
                    v = self.prove_value(<State>child, tm, alpha, beta, ply + 1, me, ck)
            if self.stop:
                return 0.0
            if v > best:
                best = v
                best_slot = idx
                if v > alpha:
                    alpha = v
                    if self.line:
                        self.extend_line(ply, m)
                    if alpha >= beta:
                        if guided:
                            self.order.cutoff(m, ply, me, 1)
                        break
        if best_slot < 0:
            return 0.0
        # a result that met no horizon holds at any depth; the proof table keeps no other
        # (nor a forced move's: see the probe)
        if self.horizon == horizon0 and n > 1:
            self.table.store(key, &hit, to_tt(best, ply),
                             best_slot if self.table.proof else moves[best_slot], DEPTH_INF,
                             LOWER if best >= beta else (EXACT if best > alpha0 else UPPER))
        return best

    cdef inline int guide(self, int* moves, int n, int ply, int tt_move, int* head) noexcept nogil:
        """The places in this node's list of its n moves to try first (in head; how many):
        the table's move (tt_move: a proof word's place in the list, else a move id; -1
        none), then the killers."""
        cdef int nh = 0, j, k, m
        if tt_move >= 0:
            if self.table.proof:
                if tt_move < n:
                    head[0] = tt_move
                    nh = 1
            else:
                for j in range(n):
                    if moves[j] == tt_move:
                        head[0] = j
                        nh = 1
                        break
        for k in range(2):
            m = self.order.killers[ply][k]
            for j in range(n):
                if moves[j] == m:
                    if nh == 0 or head[0] != j:
                        head[nh] = j
                        nh += 1
                    break
        return nh

    cdef inline void extend_line(self, int ply, int m) noexcept nogil:
        """The line from ply: move m, then the line its child kept."""
        cdef int j
        self.pv[ply][0] = m
        for j in range(self.pv_len[ply + 1]):
            self.pv[ply][j + 1] = self.pv[ply + 1][j]
        self.pv_len[ply] = self.pv_len[ply + 1] + 1

    cdef void list_root(self, State root, int* legal, int k) noexcept nogil:
        """A proof's root moves, listed once a search from the k `legal` moves of the root
        (those excluded left out): in root_list, the moves its window tests search
        (search_moves: a win now alone, else the moves that do not lose at once), then the
        legal moves that lose at once, which need no search where a game is won only on the
        winner's own moves (wins_on_own_move: each is then a loss on the opponent's next
        move, exactly); elsewhere every legal move is searched."""
        cdef int n, i, j, soon
        cdef bint listed
        n = root.search_moves(self.root_list, &soon)
        if self.task.n_excluded:
            n = self.without_excluded(self.root_list, n)
        self.root_soon = soon
        self.root_lost = 0
        self.root_listed = n
        if soon == SOON_WIN and n > 0:
            return
        if soon == SOON_WIN or not root.wins_on_own_move():
            # the win now excluded, or a game where a move can lose by itself: every move
            self.root_soon = SOON_UNKNOWN
            for i in range(k):
                self.root_list[i] = legal[i]
            self.root_listed = k
            return
        if soon == SOON_LOSS:
            n = 0                 # every move loses at once (the list holds moves all the same)
            self.root_listed = 0
        for i in range(k):
            listed = False
            for j in range(n):
                if self.root_list[j] == legal[i]:
                    listed = True
                    break
            if not listed:
                self.root_list[n + self.root_lost] = legal[i]
                self.root_lost += 1

    cdef void ensure_root_listed(self, State root) noexcept nogil:
        """list_root, if this search has not listed its root yet (a helper's, a test's)."""
        cdef int k
        if self.root_listed >= 0:
            return
        k = root.legal_moves(self.movebuf)          # ply 0's row: no test is under way
        if self.task.n_excluded:
            k = self.without_excluded(self.movebuf, k)
        self.list_root(root, self.movebuf, k)

    cdef void score_lost(self) noexcept nogil:
        """The root moves that lose at once (list_root), scored after those searched."""
        cdef int i
        for i in range(self.root_lost):
            if self.root_n < MAX_MOVES:
                self.root_move[self.root_n] = self.root_list[self.root_listed + i]
                self.root_val[self.root_n] = LOST_AT_ONCE
                self.root_exact[self.root_n] = True
                self.root_n += 1

    cdef double settle_root(self) noexcept nogil:
        """The value of a root the game settles itself (list_root found a win now, a draw
        whatever is played, or no move that does not lose at once), with its moves' scores
        and the line's first move: no window test is needed."""
        cdef double v
        cdef int i
        self.root_n = 0
        if self.root_soon == SOON_WIN:
            v = MATE - 1
            self.root_move[0] = self.root_list[0]
            self.root_val[0] = v
            self.root_exact[0] = True
            self.root_n = 1
        elif self.root_soon == SOON_DRAW and self.root_listed > 0:
            # every move listed draws; those that lose at once after them
            v = 0.0
            for i in range(self.root_listed):
                self.root_move[i] = self.root_list[i]
                self.root_val[i] = 0.0
                self.root_exact[i] = True
            self.root_n = self.root_listed
            self.score_lost()
        else:
            v = LOST_AT_ONCE
            self.score_lost()
        self.pv[0][0] = self.root_list[0]
        self.pv_len[0] = 1
        if self.seldepth < 1:
            self.seldepth = 1          # the game looked at the root's moves
        return v

    cdef double prove_root(self, State root, double alpha, double beta) noexcept nogil:
        """One window test at the root: every move list_root found to search (the last
        test's best first), then the moves that lose at once, scored without a search; each
        move's score kept for the report (exact, or a bound)."""
        cdef int n, i, t, m, me = root.to_move(), first = -1, tm
        cdef int* moves = self.movebuf
        cdef PyObject* child = self.states[1]
        cdef double v, best = -INF, tv = MATE - 1
        cdef bint exact_v
        cdef uint64_t ck
        self.pv_len[0] = 0
        self.root_n = 0
        if beta > tv:
            beta = tv
        if alpha < -tv:
            alpha = -tv
        self.ensure_root_listed(root)
        n = self.root_listed
        for i in range(n):
            moves[i] = self.root_list[i]
        for i in range(n):
            if moves[i] == self.root_first:
                first = i
        if first > 0:
            m = moves[first]
            for i in range(first, 0, -1):
                moves[i] = moves[i - 1]
            moves[0] = m
        for i in range(n):
            m = moves[i]
            tm = (<State>child).assign_played(root, m)
            if not root.key_after(m, &ck):
                ck = (<State>child).key()
            self.table.prefetch(ck)
            self.pv_len[1] = 0
            exact_v = True
            if i == 0 or alpha + 1.0 >= beta:
                v = self.prove_value(<State>child, tm, alpha, beta, 1, me, ck)
            else:
                v = self.prove_value(<State>child, tm, alpha, alpha + 1.0, 1, me, ck)
                exact_v = False
                if v > alpha and v < beta and not self.stop:
                    (<State>child).assign_played(root, m)
                    v = self.prove_value(<State>child, tm, alpha, beta, 1, me, ck)
                    exact_v = True
            if self.stop:
                return best
            if i < MAX_MOVES:
                self.root_move[i] = m
                self.root_val[i] = v
                self.root_exact[i] = exact_v and alpha < v < beta
                self.root_n = i + 1
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    self.root_first = m
                    self.extend_line(0, m)
                    if alpha >= beta:
                        break
        self.score_lost()
        if n == 0 and self.root_lost > 0:
            best = LOST_AT_ONCE           # (a searched move, where there is one, is better)
        return best

    cdef int without_excluded(self, int* moves, int n) noexcept nogil:
        cdef int i, j, kept = 0
        cdef bint out
        for i in range(n):
            out = False
            for j in range(self.task.n_excluded):
                if moves[i] == self.task.excluded[j]:
                    out = True
                    break
            if not out:
                moves[kept] = moves[i]
                kept += 1
        return kept

    # ------------------------------------------------------------------ deepening
    cdef void helper_search(self, State root) noexcept nogil:
        """A helper's whole search: deepening from depth 1 or 2 (every other helper one
        iteration ahead of the main searcher), then solve's window tests, until the main
        searcher stops it; what it finds reaches the main searcher through the table.  A
        helper that completes the search's last depth (or searches the tree to its ends)
        ends the search, and its deepest complete iteration is reported when it is deeper
        than the main searcher's (see AlphaBeta.deepest_helper)."""
        cdef int d = 1 + self.index % 2, ahead
        cdef double v
        self.done.depth = 0
        while not self.stop:
            # never search a depth the main searcher has finished: it gains nothing from
            # the table then (every other helper one iteration further ahead)
            ahead = load_int(&self.control.depth_done) + 1 + self.index % 2
            if ahead > self.task.max_depth:
                ahead = self.task.max_depth          # the last depth: race the main searcher
            if d < ahead:
                d = ahead
            if d > self.task.max_depth or (self.solving and d > self.solve_deepening):
                break
            self.horizon = 0
            self.root_n = 0
            v = self.negamax(root, d, -INF, INF, 0, root.to_move())
            if self.stop:
                break
            if not self.solving:
                self.keep_iteration(d, v)
                if d >= self.task.max_depth or self.horizon == 0:
                    store_int(&self.control.stop, 1)     # the search's answer is here
                    break
            if self.horizon == 0 or (self.solving and d >= self.solve_deepening):
                break
            d += 1
        if self.solving and not self.stop and not self.met_chance:
            self.windows = True
            self.window_tests(root)
            self.windows = False
        store_u64(&self.control.published[self.index].value, <uint64_t>self.nodes)

    cdef double window_tests(self, State root) noexcept nogil:
        """The exact value of the root by window tests to the end of the game.

        A root the game settles itself (a win now, or every move losing at once) needs no
        test (list_root, settle_root).  Where the game bounds its length (plies_bound), the
        proof search's null windows bisect the results the root can have in order (a loss
        soonest, ..., a draw, ..., a win soonest; only the distances the mover can win or
        lose at, where the game says: wins_on_own_move), by their places, from halfway to
        the soonest loss or win towards the draw, as a dedicated solver does: a test far
        from the draw is cheap (the mate distance cuts it short) and fills the table for the
        next.  The last test is a window around the one or two results left: it proves the
        value, scores every root move and keeps the line.  Otherwise (draw_first_tests) the
        search's own windows."""
        cdef double v, below
        cdef int bound = root.plies_bound(), lo, hi, med, i
        cdef bint own_move = root.wins_on_own_move()
        self.horizon = 0
        self.ensure_root_listed(root)
        if (self.root_soon in (SOON_WIN, SOON_DRAW) and self.root_listed > 0) or \
                (self.root_listed == 0 and self.root_lost > 0):
            return self.settle_root()
        if bound <= 0:
            return self.draw_first_tests(root, DEPTH_INF - 1)
        # the results by their places from the draw (result_rank)
        lo = result_rank(possible_above(-bound, bound, own_move), bound, own_move)
        hi = result_rank(possible_below(bound, bound, own_move), bound, own_move)
        while hi - lo > 1 and not self.stop:
            med = lo + (hi - lo) // 2
            if med <= 0 and ctrunc_half(lo) < med:
                med = ctrunc_half(lo)
            elif med >= 0 and ctrunc_half(hi) > med:
                med = ctrunc_half(hi)
            i = ranked_result(med, bound, own_move)
            below = result_score(i, bound)
            v = self.prove_root(root, below, result_score(i + 1, bound))
            if v <= below:
                hi = min(med, result_rank(possible_below(result_index(v, bound), bound, own_move),
                                          bound, own_move))
            else:
                lo = max(med + 1, result_rank(possible_above(result_index(v, bound), bound, own_move),
                                              bound, own_move))
        if self.stop:
            return 0.0
        if hi < lo:
            hi = lo
        self.line = True
        v = self.prove_root(root, result_score(ranked_result(lo, bound, own_move), bound) - 0.5,
                            result_score(ranked_result(hi, bound, own_move), bound) + 0.5)
        self.line = False
        if self.stop:
            return 0.0
        return result_score(result_index(v, bound), bound)     # (a draw's 0 unsigned)

    cdef double draw_first_tests(self, State root, int depth) noexcept nogil:
        """Window tests of a game that does not bound its length, by the search itself
        (deepening's table entries order it): first whether the mover wins, loses or draws
        (one window around 0), then the distance by bisection, each test a window around
        one distance, and a last window around the value itself for the principal variation.
        With the mate-distance bounds a test of "a win within p plies" searches p plies at
        most."""
        cdef double v, t, score
        cdef int p, lo, hi
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

    cdef void keep_pv(self, int d) noexcept nogil:
        cdef int i
        self.done.depth = d
        self.done.pv_len = self.pv_len[0]
        for i in range(self.pv_len[0]):
            self.done.pv[i] = self.pv[0][i]

    cdef void keep_root_scores(self) noexcept nogil:
        cdef int i
        self.done.root_n = self.root_n
        for i in range(self.root_n):
            self.done.root_move[i] = self.root_move[i]
            self.done.root_val[i] = self.root_val[i]
            self.done.root_exact[i] = self.root_exact[i]

    cdef void keep_iteration(self, int d, double v) noexcept nogil:
        self.keep_pv(d)
        self.keep_root_scores()
        self.done.score = v
        self.done.exact = self.horizon == 0 or fabs(v) > MATE_BOUND


cdef void* helper_main(void* searcher) noexcept nogil:
    # a helper searches its own copy of the root (its ply-0 scratch state)
    (<Negamax>searcher).helper_search(<State>(<Negamax>searcher).states[0])
    return NULL
