"""What an alpha-beta search reports: its principal variation (completed from the table
where a table hit cut it short), each root move's score, the AlphaBetaReport the search
ends with, and scores read for people."""
from libc.math cimport fabs
from cpython.object cimport PyObject, PyTypeObject
from cpython.mem cimport PyMem_Malloc, PyMem_Free
from libc.stdint cimport uint64_t
from libc.string cimport memcpy
from roost.core.state cimport CHANCE, MAX_MOVES, SOON_DRAW, SOON_LOSS, SOON_WIN
from roost.search.score cimport MATE, MATE_BOUND, MAX_PLY, from_tt
from roost.search.tt cimport TTData, EXACT, LOWER
from dataclasses import fields as dataclass_fields
from roost.search.result import Report
from roost.search.root_move cimport root_move


ctypedef struct RootScore:
    # a root move's score as the search left it, kept until the report's root moves are read
    int move
    double score
    bint exact


cdef class ReportFields:
    """The fields of an alpha-beta report (result.Report's, in the same names), held in the
    object itself: a search's report is made with them set in C, where setting the
    dataclass's attributes one by one, each through the type's lookups and the instance's
    shared keys, and making a RootMove for every root move were most of the fixed cost of a
    search (a small proof of Connect Four searches some 36 nodes).  Its line and root moves
    are made when first read, from the moves and scores the search kept (`line`, `kept`);
    assigned, they replace them."""

    cdef public object move, nodes, iterations, depth, seldepth, score, exact, chance, proven
    cdef public object root_proven, threads, memory, playout_plies, worlds, seat_value
    cdef public double value, seconds    # always numbers (a float object each was a tenth of
                                         # the report's cost, made and freed)
    cdef object _pv               # the line (ids), once made or assigned (else _UNMADE)
    cdef object _root_moves       # the RootMoves, once made or assigned (else _UNMADE)
    cdef void* block              # what the search kept for them, in one allocation:
    cdef RootScore* kept          # the searched root moves' scores, in the report's order
    cdef int n_kept
    cdef int* line                # then the line's moves
    cdef int n_line
    cdef bint draw_proven         # the root is a proven draw (an exact 0 is one for its moves)

    def __dealloc__(self):
        PyMem_Free(self.block)

    @property
    def pv(self):
        """The principal variation, in ids."""
        if self._pv is _UNMADE:
            self._pv = line_list(self.line, self.n_line)
        return self._pv

    @pv.setter
    def pv(self, pv):
        self._pv = pv

    @property
    def root_moves(self):
        """[root_move.RootMove]: the exact scores first, each group best first."""
        if self._root_moves is _UNMADE:
            self._root_moves = self.made_root_moves()
        return self._root_moves

    @root_moves.setter
    def root_moves(self, moves):
        self._root_moves = moves

    cdef list made_root_moves(self):
        cdef int i
        cdef str verdict
        cdef RootScore* r
        moves = []
        for i in range(self.n_kept):
            r = &self.kept[i]
            # a move refuted by a null window has only an upper bound: its value is "at
            # most".  An exact mate score is a proof wherever it stands; an exact 0 is a
            # proven draw when the root is one (its tree was searched to the ends, or
            # solved), not when a mate ended a search whose other lines stop at the horizon
            verdict = ""
            if r.exact and is_mate(r.score):
                verdict = "win" if r.score > 0 else "loss"
            elif r.exact and r.score == 0 and self.draw_proven:
                verdict = "draw"
            moves.append(root_move(r.move, score_to_value(r.score), 0, verdict, None, None,
                                   r.score, True, r.exact))
        return moves

    def __reduce__(self):
        # the dataclass's fields, in its __init__'s order
        return type(self), tuple([getattr(self, f.name) for f in dataclass_fields(self)])


class AlphaBetaReport(ReportFields, Report):
    """An alpha-beta search's Report: ``score`` in the searcher's units (beyond MATE_BOUND
    a win or loss in plies), ``exact`` when it is proven, ``chance`` when the search met
    chance (the value is then an expectation); each root move's ``score`` and ``exact``
    (False where a null window only bounded it from above).  Report's dataclass (its
    __init__, fields, equality and repr) over the fields ReportFields holds."""

    def score_text(self):
        return score_text(self.score)

    @property
    def expectation(self):
        return self.chance

    def extras(self):
        figures = {"seldepth": self.seldepth}
        if self.threads > 1:
            figures["threads"] = self.threads
        return figures


cdef object search_report(int move, double score, bint exact, bint chance, int* line, int n_line,
                          int depth, int seldepth, long long nodes, double seconds,
                          Iteration* scores, int threads):
    """The AlphaBetaReport of a finished search: its line the n_line moves of `line`, the
    root moves' `scores` (move, score, exact) kept for its RootMoves, the exact ones first,
    each group best first; both made when first read."""
    cdef str proven = ""
    cdef int i, j, n = min(scores.root_n, MAX_MOVES)
    cdef RootScore r
    cdef RootScore* kept = NULL
    cdef ReportFields report
    if exact:
        proven = "win" if score > 0 else "loss" if score < 0 else "draw"
    # made as object() makes it, without the dataclass's __init__ (its keyword arguments
    # were a sixth of a small proof); what it keeps in C is freed with it
    report = <ReportFields>(<PyTypeObject*>AlphaBetaReport).tp_new(AlphaBetaReport, <PyObject*>_NO_ARGS, NULL)
    report._pv = _UNMADE
    report._root_moves = _UNMADE
    if n > 0 or n_line > 0:
        report.block = PyMem_Malloc(n * sizeof(RootScore) + n_line * sizeof(int))
        if report.block == NULL:
            raise MemoryError()
        kept = <RootScore*>report.block
        report.kept, report.n_kept = kept, n
        report.line, report.n_line = <int*>(kept + n), n_line
        memcpy(report.line, line, n_line * sizeof(int))
    # the exact scores first, each group best first, ties in the search's order (an
    # insertion sort in C: a Python sort by a key function was a tenth of a small solve)
    for i in range(n):
        r.move, r.score, r.exact = scores.root_move[i], scores.root_val[i], scores.root_exact[i]
        j = i
        while j > 0 and _before(r.exact, r.score, kept[j - 1].exact, kept[j - 1].score):
            kept[j] = kept[j - 1]
            j -= 1
        kept[j] = r
    report.draw_proven = exact and score == 0
    report.move = move
    report.value = score_to_value(score)
    report.nodes = nodes
    report.iterations = 0
    report.depth = depth
    report.seldepth = seldepth
    report.seconds = seconds
    report.score = score
    report.exact = exact
    report.chance = chance
    report.proven = proven
    report.root_proven = _ROOT_PROVEN
    report.threads = threads
    report.memory = _MEMORY
    report.playout_plies = _PLAYOUT_PLIES
    report.worlds = _WORLDS
    report.seat_value = _SEAT_VALUE
    return report


# the defaults of the fields a search has no value for; every field of Report is one of
# ReportFields (a field added to Report without one here fails at import)
_DEFAULTS = {f.name: f.default for f in dataclass_fields(Report)}
cdef object _ROOT_PROVEN = _DEFAULTS["root_proven"]
cdef object _MEMORY = _DEFAULTS["memory"]
cdef object _PLAYOUT_PLIES = _DEFAULTS["playout_plies"]
cdef object _WORLDS = _DEFAULTS["worlds"]
cdef object _SEAT_VALUE = _DEFAULTS["seat_value"]
if _DEFAULTS["iterations"] != 0 or [name for name in _DEFAULTS if name not in ReportFields.__dict__]:
    raise ImportError("ReportFields does not hold every field of Report as search_report sets it")
_NO_ARGS = ()                 # object()'s arguments
cdef object _UNMADE = object()   # a report's line or root moves not made yet


cdef inline bint _before(bint exact, double score, bint other_exact, double other_score) noexcept:
    """Whether a root move (exact, score) is reported before another: exact first, then
    the better score."""
    if exact != other_exact:
        return exact
    return score > other_score


cdef int complete_pv(TranspositionTable table, State s, int* line, int n, int depth) noexcept:
    """A search's line (the n moves of `line`, which holds MAX_PLY), continued in place
    from the table where a table hit cut it short (not from a proof's table: see
    complete_proof_line); its length.  `s` a copy of the root, played on."""
    cdef int moves[MAX_MOVES]
    cdef int k
    cdef TTData hit
    cdef uint64_t seen[MAX_PLY + 1]
    cdef int n_seen = _replay(s, line, n, seen)
    while n < depth and n < MAX_PLY and not s.over() and s.to_move() != CHANCE and not table.proof:
        if not table.probe(s.key(), &hit):
            break
        k = s.legal_moves(moves)
        if not _among(moves, k, hit.move):
            break
        n_seen = _extend(s, hit.move, line, &n, seen, n_seen)
        if n_seen < 0:
            break
    return n


cdef int complete_proof_line(TranspositionTable table, State s, int* line, int n,
                             double score) noexcept:
    """A proof's line (the n moves of `line`, which holds MAX_PLY), continued in place from
    its table where a hit cut it short; its length.  A proof's word keeps its move's place
    in the node's list of search_moves (not the move; the search's entries, where a solve
    keeps them, the move), and the move
    is followed only where the entry shows it keeps `score`, the root's proven value (an
    exact value, or a lower bound that reaches it; an upper bound's move is only the one
    that failed least); where the game settles a node itself (a win now, a draw whatever
    is played, or every move losing at once) the line goes on with the game's first move.
    `s` a copy of the root, played on."""
    cdef int moves[MAX_MOVES]
    cdef int k, m, soon, me = s.to_move()
    cdef double v, got
    cdef TTData hit
    cdef uint64_t seen[MAX_PLY + 1]
    cdef int n_seen = _replay(s, line, n, seen)
    while n < MAX_PLY and not s.over() and s.to_move() != CHANCE:
        v = score if s.to_move() == me else -score
        # the moves in search_moves's order only where a move is read from it (ordering
        # costs the game as much as finding them)
        k = s.search_moves_unordered(moves, &soon)
        if soon == SOON_WIN:
            m = moves[0]
        elif soon == SOON_LOSS or soon == SOON_DRAW:
            s.order_search_moves(moves, k, soon)
            m = moves[0]
        elif table.probe(s.key(), &hit):
            got = from_tt(hit.value, n)
            if not ((hit.flag == EXACT and got == v) or (hit.flag == LOWER and got >= v)):
                break
            if table.proof:
                if not 0 <= hit.move < k:
                    break
                s.order_search_moves(moves, k, soon)
                m = moves[hit.move]
            else:
                if not _among(moves, k, hit.move):
                    break
                m = hit.move
        else:
            break
        n_seen = _extend(s, m, line, &n, seen, n_seen)
        if n_seen < 0:
            break
    return n


cdef int _replay(State s, int* line, int n, uint64_t* seen) noexcept:
    """Play the n moves of `line` on `s`, keeping their positions' keys in `seen`; how many
    keys it keeps."""
    cdef int i, n_seen = 0
    for i in range(n):
        s.play(line[i])
        n_seen = _see(seen, n_seen, s.key())
    return n_seen


cdef int _extend(State s, int m, int* pv, int* n, uint64_t* seen, int n_seen) noexcept:
    """Play `m` on `s` and add it to the line pv[:n], unless it repeats a position of the
    line (then -1); otherwise the count of keys in `seen`."""
    cdef uint64_t k
    s.play(m)
    k = s.key()
    if _seen(seen, n_seen, k):
        return -1
    pv[n[0]] = m
    n[0] += 1
    return _see(seen, n_seen, k)


cdef list line_list(int* line, int n):
    """The n moves of `line` as a list."""
    return [line[i] for i in range(n)]


cdef inline bint _among(int* moves, int n, int m) noexcept:
    cdef int i
    for i in range(n):
        if moves[i] == m:
            return True
    return False


cdef inline bint _seen(uint64_t* keys, int n, uint64_t key) noexcept:
    """Whether a line's positions so far (keys[:n]) hold `key`: a line stops before it
    repeats one."""
    cdef int i
    for i in range(n):
        if keys[i] == key:
            return True
    return False


cdef inline int _see(uint64_t* keys, int n, uint64_t key) noexcept:
    """keys[:n] with `key` added (a line longer than MAX_PLY keeps its first positions)."""
    if n <= MAX_PLY:
        keys[n] = key
        return n + 1
    return n


cdef list current_line(Negamax w):
    """The line of w's last root search, as far as it goes."""
    return line_list(w.pv[0], w.pv_len[0])


cpdef double score_to_value(double score):
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


cpdef bint is_mate(double score):
    return fabs(score) > MATE_BOUND
