# Alpha-beta's move ordering, one per search thread: the table's move first, then two killer
# moves a ply (moves that cut off a sibling), then the rest by history (how much each move
# of each player has cut off, weighted by depth); in a proof, the game's own order.  Moves
# are taken one at a time (selection sort), as a cut-off after a few moves never pays for
# sorting the rest.
cimport cython
from roost.core.rng cimport Rng, rng_next
from roost.core.state cimport MAX_MOVES, MAX_PLAYERS
from roost.search.score cimport MAX_PLY

cdef extern from *:
    """
    #define ROOST_ORDER_TT 1e12
    #define ROOST_ORDER_KILLER1 1e11
    #define ROOST_ORDER_KILLER2 1e10
    """
    # ordering scores above any history count: the table's move, then the two killers
    const double ORDER_TT "ROOST_ORDER_TT"
    const double ORDER_KILLER1 "ROOST_ORDER_KILLER1"
    const double ORDER_KILLER2 "ROOST_ORDER_KILLER2"

cdef enum:
    HIST_SIZE = 4096              # history slots a player (move ids hashed by their low bits)


@cython.final
cdef class MoveOrder:
    cdef int killers[MAX_PLY][2]  # -1: none
    cdef int* history             # [MAX_PLAYERS][HIST_SIZE]
    cdef double* scores           # [MAX_PLY][MAX_MOVES]: the moves' scores at each ply

    cdef void clear(self) noexcept nogil

    cdef inline void score(self, int* moves, int n, int tt_move, int ply, int player,
                           bint proof, bint game_order, Rng* jitter) noexcept nogil:
        """Score the n moves of a node at `ply`.  `proof`: a search to the end of the game
        (solve's window tests); `game_order`: the moves came from search_moves with what the
        game knows (not SOON_UNKNOWN); `jitter` (NULL: none) breaks history's ties at
        random, so that a helper thread searches other subtrees first."""
        cdef int i, m
        cdef double* sc = self.scores + ply * MAX_MOVES
        for i in range(n):
            m = moves[i]
            if proof and game_order:
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
            elif proof:
                # a proof to the end: the game's own generation order ranks the rest
                # (history by move id, learnt across unrelated subtrees, ranked them worse
                # on Connect Four: 4x the nodes on a drawn position)
                sc[i] = -i
            else:
                sc[i] = self.history[player * HIST_SIZE + (m & (HIST_SIZE - 1))]
                if jitter != NULL:
                    sc[i] += <double>(rng_next(jitter) & 3)

    cdef inline int pick(self, int* moves, int n, int i, int ply) noexcept nogil:
        """The best of moves[i:n], swapped into place i (with its score)."""
        cdef double* sc = self.scores + ply * MAX_MOVES
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

    cdef inline double score_of(self, int ply, int i) noexcept nogil:
        """The score of the move picked at place i."""
        return self.scores[ply * MAX_MOVES + i]

    cdef inline void cutoff(self, int move, int ply, int player, int depth) noexcept nogil:
        """`move` of `player` cut off a node at `ply` searched to `depth`."""
        if move != self.killers[ply][0]:
            self.killers[ply][1] = self.killers[ply][0]
            self.killers[ply][0] = move
        self.history[player * HIST_SIZE + (move & (HIST_SIZE - 1))] += depth * depth
