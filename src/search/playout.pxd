# Playout policies for the tree searches (mcts.pyx): how an iteration plays on from the
# leaf it reached.  Each search thread has its own Playout (scratch position, move trail,
# AMAF marks); the MAST table is the one thing a search's threads share: the first
# thread's Playout owns it, the others point at it (share_mast) and all update it with
# atomic adds.
from roost.core.rng cimport Rng
from roost.core.state cimport State, MAX_MOVES

cdef enum:
    POLICY_RANDOM = 0   # uniformly random moves (the game's native playout)
    POLICY_EVAL = 1     # epsilon-greedy on the game's evaluation of the position after the move
    POLICY_MAST = 2     # epsilon-greedy on move averages learnt during this search (MAST)
    POLICY_DECISIVE = 3 # a move that wins at once when the game names one, else a random move
                        # among those the game does not know to lose (State.search_moves)
    MAST_BITS = 16      # MAST slots: hashed (player, move) pairs
    MAST_SLOTS = 1 << MAST_BITS
    TRAIL_CAP = 16384   # moves of one iteration remembered for the MAST update


cdef class Playout:
    cdef readonly int policy
    cdef readonly double epsilon
    cdef State scratch          # a position to try moves on (the searched game's class)
    cdef double* mast_sum       # result of the mover summed over the iterations that played it
    cdef double* mast_count
    cdef Playout mast_owner     # whose table mast_sum/mast_count are (None: this one's)
    cdef int* trail_move        # (player, move) of this iteration, tree part then playout
    cdef int* trail_player
    cdef int trail_len
    cdef bint recording         # note every ply (RAVE, tests), not only for MAST
    # AMAF (RAVE): which (player, move) pairs were played from some ply on, as stamps
    cdef int* played_stamp
    cdef int stamp
    # GRAVE: the AMAF statistics of a reference node's children, by (player, move)
    cdef int* ref_stamp
    cdef int* ref_move
    cdef double* ref_value
    cdef int* ref_visits
    cdef int ref_mark
    cdef int moves[MAX_MOVES]

    cdef void prepare(self, State root, bint clear_mast)
    cdef void share_mast(self, Playout owner)
    cdef void begin(self) noexcept nogil
    cdef void note(self, int player, int move) noexcept nogil
    cdef int run(self, State w, Rng* rng, int max_plies) noexcept nogil
    cdef void learn(self, double* out) noexcept nogil
    cdef double move_value(self, State w, int move, int player) noexcept nogil
    cdef int choose_by_eval(self, State w, int n, int player, Rng* rng) noexcept nogil
    cdef int choose_by_mast(self, int n, int player, Rng* rng) noexcept nogil
    cdef void amaf_begin(self) noexcept nogil
    cdef void amaf_mark(self, int player, int move) noexcept nogil
    cdef bint amaf_played(self, int player, int move) noexcept nogil
    cdef void ref_clear(self) noexcept nogil
    cdef void ref_put(self, int player, int move, double value, int visits) noexcept nogil
    cdef int ref_get(self, int player, int move, double* value) noexcept nogil
