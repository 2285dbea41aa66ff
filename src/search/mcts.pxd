# Monte Carlo tree search (see mcts.pyx): a search's threads, its options resolved once,
# and the searcher.
cimport cython
from libc.stdint cimport int32_t
from roost.core.rng cimport Rng
from roost.core.state cimport State, MAX_MOVES, MAX_PLAYERS
from roost.search.nodes cimport NodeStore, Node, Block
from roost.search.playout cimport Playout
from roost.search.threads cimport Runner
from roost.search.enhancements cimport Blend


ctypedef struct Worker:
    # what one thread of a search owns; the tree and the states are borrowed references
    # (the MCTS object holds them for the search's length)
    void* tree
    void* work            # the State this thread plays iterations in
    void* root            # the State the search is from
    void* playout         # this thread's Playout (policy, scratch, AMAF marks)
    int* path
    Rng rng
    long long iterations
    long long playout_total
    Block block           # the part of the store this thread takes its nodes from
    Runner runner         # this thread as the pool drives it (run_slice on this worker)
    int moves[MAX_MOVES]
    int missing[MAX_MOVES]   # ISMCTS: actions an information set has no child for yet
    char allowed[MAX_MOVES]  # open loop: which children of a node are legal in this draw
    # every player's results below each root child, this search only: the max^n value
    # vector the statistics report (an edge itself keeps only its mover's result)
    long long root_counts[MAX_MOVES]
    double root_sums[MAX_MOVES * MAX_PLAYERS]

ctypedef struct Options:
    # what an iteration does, resolved once a search from the settings and the root
    # (prepare): the iteration reads these, never the settings
    bint solving          # MCTS-Solver (two players, perfect information)
    bint ismcts           # information sets: determinize, select by availability
    bint open_loop        # open-loop chance (perfect information only)
    Blend blend           # the enhancements in the tree (selection's slower path)
    bint quiet            # a cut-off playout plays on to a quiet position
    bint mast             # the playout learns move averages from the tree's moves too
    bint discount         # results shrink with the plies the playout played

ctypedef struct Descent:
    # where an iteration's walk down the tree ended
    int node
    int depth             # the path is wk.path[0..depth]
    bint from_proof       # at a proven node: its proof is the result
    bint terminal         # at the end of the game
    bint drawn            # open loop: a chance node was passed (nothing below is proven)


@cython.final
cdef class MCTS:
    cdef NodeStore store
    cdef public int root
    cdef Worker* workers
    cdef readonly int threads
    cdef list states              # each worker's State, alive for the search
    cdef list playouts            # each worker's Playout
    cdef State search_root
    cdef int32_t nslots
    cdef Rng rng
    cdef State tree_state       # the position the root stands for (None: a fresh tree)
    # settings
    cdef public double c
    cdef public double pw_c
    cdef public double pw_alpha
    cdef public bint solver
    cdef public bint ismcts
    cdef public int playout_plies
    cdef public double discount     # a playout's result after p plies counts discount^p of its margin
    cdef public bint quiet          # a cut-off playout plays on to a quiet position (State.quiesce)
    cdef public double imm_weight   # weight of the implicit minimax value in selection
    cdef public double bias         # progressive bias: bias * heur / (visits + 1)
    cdef public double rave         # RAVE: the visits at which AMAF and the mean weigh alike
    cdef public int grave_ref       # GRAVE: AMAF from the nearest ancestor this visited
    cdef readonly bint extras       # the side store exists (imm, bias or rave set)
    cdef public bint open_loop      # chance nodes keep one child (perfect information only)
    # per search
    cdef Options opt
    cdef int observer
    cdef int stop
    cdef long long claimed
    cdef long long budget
    cdef double deadline

    cdef long long nodes_made(self) noexcept nogil
    cdef void empty_blocks(self)
    cdef inline void give_slot(self, int k) noexcept nogil
    cdef inline int enter(self, Worker* wk, int depth, int k) noexcept nogil
    cdef bint expand(self, Worker* wk, State w, int node, int player) noexcept nogil
    cdef int select_decision(self, int node, int player, const char* allowed) noexcept nogil
    cdef int select_information_set(self, Worker* wk, int node, int player, int n) noexcept nogil
    cdef const char* legal_children(self, Worker* wk, State w, int node) noexcept nogil
    cdef inline double information_set_score(self, Node* ch, int avail) noexcept nogil
    cdef int chance_child(self, Worker* wk, int node, int label) noexcept nogil
    cdef void iterate(self, Worker* wk, State w, State root_state, Playout po) noexcept nogil
    cdef inline void descend(self, Worker* wk, State w, Playout po, Descent* d) noexcept nogil
    cdef inline void leaf_result(self, Worker* wk, State w, Playout po, Descent* d,
                                 double* out) noexcept nogil
    cdef inline void back_up(self, Worker* wk, State w, Playout po, Descent* d,
                             double* out) noexcept nogil
    cdef void shrink(self, double* out, int n, double keep) noexcept nogil
    cdef int widening(self, int node) noexcept nogil
    cdef void proof_outcome(self, int proven, double* out, int n) noexcept nogil
    cdef void prove_terminal(self, int node, double* out) noexcept nogil
    cdef void propagate(self, Worker* wk, int depth) noexcept nogil
    cdef int run(self, Worker* wk, double slice_end, long long slice_iterations) noexcept nogil
    cdef int run_in(self, Worker* wk, State w, State root_state, double slice_end,
                    long long slice_iterations) noexcept nogil
    cdef void prepare(self, State root_state, long long iterations, double seconds,
                      int observer, double t0) except *
    cdef void resolve_options(self, State root_state)
    cdef long long iterations_done(self)
    cdef object report(self, State root_state, long long it, double seconds)
    cdef list slot_values(self, int slot, int n)
