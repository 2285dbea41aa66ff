# One thread's alpha-beta search (see negamax.pyx), and what the threads of one search share.
cimport cython
from cpython.ref cimport PyObject
from cpython.pystate cimport PyThreadState
from libc.stdint cimport uint64_t
from roost.core.rng cimport Rng
from roost.core.state cimport State, MAX_MOVES
from roost.search.score cimport MAX_PLY
from roost.search.tt cimport TranspositionTable
from roost.search.ordering cimport MoveOrder

cdef enum:
    MAX_THREADS_C = 256           # threads of one search (the main searcher and its helpers)
    CHECK_EVERY = 256             # nodes between two looks at the clock and the other threads
    SOLVE_DEEPENING = 0           # a solve deepens this far, then tests windows to the end of
                                  # the game: not at all where the game bounds its length
                                  # (plies_bound; the proof's own null windows need nothing from
                                  # a shallow iteration, and a small proof cost a tenth more with
                                  # one); where it does not, far
    SOLVE_DEEPENING_OPEN = 8      # enough to find a near result before a window test without
                                  # a distance to stop it goes down the longest lines
    PREFETCH_CHILDREN = 8         # a proof node fetches the table words of this many children
                                  # at most before it reads its own
    ETC_PLIES_LEFT = 15           # a proof node reads its children's words for a cut-off
                                  # with this many plies left or more (Connect Four's begin
                                  # positions: 0.95x the time, 11% fewer nodes; 12 and 18 no
                                  # better)


cdef extern from "Python.h":
    # declared nogil: a search lets the GIL go from inside its nogil code (let_gil_go)
    PyThreadState* PyEval_SaveThread() noexcept nogil
    void PyEval_RestoreThread(PyThreadState* state) noexcept nogil


ctypedef struct Settings:
    # how a search searches: the user's choices, the same for every thread
    bint use_eval                 # the game's evaluation at the horizon (else 0: a proof)
    bint paranoid                 # N players as everyone against the root player
    int exact_outcomes            # enumerate a chance node exactly up to this many outcomes
    int samples                   # otherwise average this many sampled outcomes
    int star                      # chance pruning: 0 none, 1 Star1, 2 Star1 with Star2 probes
    bint lmr                      # late move reductions (a heuristic search only)

ctypedef struct Task:
    # one search, as every thread searches it
    bint solve
    long long node_limit          # 0: none
    double deadline               # 0: none
    int max_depth                 # the deepest iteration
    int n_excluded                # root moves left out (multi-PV: the lines after the first)
    int excluded[MAX_MOVES]

ctypedef struct Counter:
    uint64_t value
    char pad[56]                  # a cache line each: every thread writes its own

cdef inline void copy_task(Task* to, Task* task) noexcept nogil:
    """A thread's copy of the search's task: the exclusions in use only (the list holds
    MAX_MOVES; copying it whole was a tenth of a small proof)."""
    cdef int i
    to.solve = task.solve
    to.node_limit = task.node_limit
    to.deadline = task.deadline
    to.max_depth = task.max_depth
    to.n_excluded = task.n_excluded
    for i in range(task.n_excluded):
        to.excluded[i] = task.excluded[i]


ctypedef struct Shared:
    # what the threads of one search share besides the table; the main searcher's
    # AlphaBeta owns it, every thread reads it through a pointer
    Settings settings
    Task task
    int threads                   # the main searcher and its helpers
    int stop                      # every thread stops at its next look: set by the main searcher
                                  # for its helpers, or by another thread (WindowTests.stop)
    uint64_t counted              # threads under a node limit: the nodes entered by everyone (the
                                  # main root included) and the attempts refused past the limit
    int depth_done                # the main searcher's deepest complete iteration
    long long table_nodes         # nodes searched since the table was last cleared, before this search
    Counter published[MAX_THREADS_C]   # each thread's node count, published now and then

ctypedef struct Iteration:
    # a complete iteration of a thread's deepening: what a search reports
    int depth
    double score
    bint exact
    int pv_len
    int pv[MAX_PLY]
    int root_n                    # each root move's score (exact, or an upper bound)
    int root_move[MAX_MOVES]
    double root_val[MAX_MOVES]
    bint root_exact[MAX_MOVES]


@cython.final
cdef class Negamax:
    cdef int index                # 0: the main searcher; 1.. its helpers
    cdef TranspositionTable table # the search's, shared by its threads
    cdef MoveOrder order
    cdef Shared* control
    cdef Settings s               # the search's settings and task, copied when it begins
    cdef Task task
    cdef Rng rng
    cdef int* movebuf             # [MAX_PLY][MAX_MOVES]
    cdef int pv[MAX_PLY][MAX_PLY]
    cdef int pv_len[MAX_PLY]
    cdef uint64_t path[MAX_PLY]
    # each root move's score in the iteration under way (exact, or an upper bound)
    cdef int root_move[MAX_MOVES]
    cdef double root_val[MAX_MOVES]
    cdef bint root_exact[MAX_MOVES]
    cdef int root_n
    cdef list stack               # one scratch State a ply
    cdef PyObject* states[MAX_PLY + 1]   # the same States, borrowed, for nogil code (states[0]
                                         # NULL until they are made)
    cdef Iteration done           # the deepest complete iteration (a helper's, or a solve's)
    # per search
    cdef int root_player
    cdef bint solving
    cdef int etc_last_ply          # a proof's last ply of enhanced transposition cut-offs
    cdef int solve_deepening      # SOLVE_DEEPENING or SOLVE_DEEPENING_OPEN, for the root's game
    cdef bint windows             # solve's null-window tests are under way
    cdef bint line                # a proof keeps its principal variation (the last window test)
    cdef int root_first           # a proof's root move to try first: the last test's best
    # a proof's root moves, listed once a search (list_root): root_listed to search, then
    # root_lost that lose at once and need no search (-1: not yet listed), and what the
    # game said of the root's next two plies (SOON_*)
    cdef int root_listed
    cdef int root_lost
    cdef int root_soon
    cdef int root_list[MAX_MOVES]
    cdef bint probing             # the next negamax call is a Star2 probe
    cdef bint met_chance
    cdef bint stop
    cdef bint interrupted
    cdef bint running             # the main searcher: its helpers are running
    # the main searcher is called holding the GIL and lets it go at its first periodic
    # check (let_gil_go), so that a small search pays nothing for it; the caller's thread
    # state while it is let go (NULL: held), taken back when the call returns (take_gil_back)
    cdef bint holds_gil
    cdef PyThreadState* caller
    cdef long long nodes
    cdef long long checks
    cdef long long helper_nodes   # the main searcher's latest sum of its helpers' counts
    cdef long long horizon        # leaves cut by depth (or by a depth-limited table entry)
    cdef int seldepth

    cdef void attach(self, TranspositionTable table, Shared* control, int index)
    cdef bint other_game(self, State root)
    cdef bint begin(self, State root)
    cdef State scratch_root(self, State root)
    cdef inline int side(self, int player) noexcept nogil
    cdef inline double terminal(self, State s, int me, int ply) noexcept nogil
    cdef inline double leaf(self, State s, int me) noexcept nogil
    cdef inline void check_limits(self) noexcept nogil
    cdef void periodic_checks(self) noexcept nogil
    cdef void take_gil_back(self) noexcept nogil
    cdef inline bint over_node_limit(self) noexcept nogil
    cdef inline bint enter_node(self) noexcept nogil
    cdef inline bint entered(self, int ply) noexcept nogil
    cdef bint signalled(self) noexcept nogil
    cdef long long helper_count(self) noexcept nogil
    cdef double value(self, State c, int depth, double alpha, double beta, int ply, int me,
                      int budget) noexcept nogil
    cdef double chance(self, State c, int depth, double alpha, double beta, int ply, int me,
                       int budget) noexcept nogil
    cdef bint star2_probes(self, State c, int* outs, double* probs, double* lo, double* hi,
                           int n, int depth, int ply, int me, double alpha, double beta,
                           double* rest_lo, double* rest_hi, double* total) noexcept nogil
    cdef void sample_run(self, State s) noexcept nogil
    cdef void probe(self, State c, int depth, int ply, int me, double* lo, double* hi) noexcept nogil
    cdef inline bint proof_bounds(self, State s, int ply, int* moves, int* n, int* soon, int* made,
                           double* alpha, double* beta, double* settled) noexcept nogil
    cdef inline double search_move(self, State s, State child, int m, int i, int depth, double alpha,
                            double beta, int ply, int me, bint reducing,
                            bint* exact_v) noexcept nogil
    cdef double negamax(self, State s, int depth, double alpha, double beta, int ply,
                        int me) noexcept nogil
    cdef inline double prove_value(self, State c, int tm, double alpha, double beta, int ply,
                                   int me, uint64_t key) noexcept nogil
    cdef double prove(self, State s, double alpha, double beta, int ply, int me,
                      uint64_t key) noexcept nogil
    cdef inline int guide(self, int* moves, int n, int ply, int tt_move, int* head) noexcept nogil
    cdef inline void extend_line(self, int ply, int m) noexcept nogil
    cdef void list_root(self, State root, int* legal, int k) noexcept nogil
    cdef void ensure_root_listed(self, State root) noexcept nogil
    cdef void score_lost(self) noexcept nogil
    cdef double settle_root(self) noexcept nogil
    cdef double prove_root(self, State root, double alpha, double beta) noexcept nogil
    cdef int without_excluded(self, int* moves, int n) noexcept nogil
    cdef void helper_search(self, State root) noexcept nogil
    cdef double window_tests(self, State root) noexcept nogil
    cdef double draw_first_tests(self, State root, int depth) noexcept nogil
    cdef void keep_pv(self, int d) noexcept nogil
    cdef void keep_root_scores(self) noexcept nogil
    cdef void keep_iteration(self, int d, double v) noexcept nogil


cdef void* helper_main(void* searcher) noexcept nogil
