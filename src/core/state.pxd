# The native contract every game implements, and the only thing the searchers know.
#
# A game subclasses State, keeps its whole position in C fields (bitboards, small arrays),
# and overrides the cdef methods below.  The searchers call them through the vtable with
# no Python objects on the hot path, so every hot method is `noexcept nogil`.
#
# Conventions shared by all games:
# - players are 0..n_players-1 (at most MAX_PLAYERS); to_move() returns CHANCE at a node
#   where chance acts (a card drawn, a row laid), and is meaningless once over() is true;
# - a move id is a small non-negative int; at a chance node, play() takes an outcome id;
# - outcome() writes one result per player in [0, 1] (a win 1, a loss 0, shared wins 1/k);
# - evaluate(p) estimates outcome()[p] for a position that is not over, also in [0, 1];
# - search_moves(out, soon) writes the moves a proof must search and *soon (SOON_*): the
#   legal moves less those that lose at once, or a win now alone; the default, the legal
#   moves and SOON_UNKNOWN, is always right; search_moves_unordered(out, soon) writes the
#   same moves and *soon in any order and order_search_moves(out, n, soon) puts them in
#   search_moves's order (a proof orders only the nodes its table does not settle; the
#   default orders nothing and search_moves_unordered is search_moves); a game that says
#   SOON_DRAW treats it as SOON_QUIET in its order;
# - plies_bound() is at most how many more plies the game lasts from here, or -1 when the
#   game does not say (the default): a proof bisects the result's distance within it;
# - wins_on_own_move() is True when two players alternate and a game is won only by the
#   winner's own move: the mover wins an odd number of plies from here and loses an even
#   number (a proof's bisection skips the other distances); the default, False, says nothing;
# - every move buffer passed to legal_moves (or search_moves) holds at least MAX_MOVES ints,
#   and every outcome buffer passed to chance_outcomes holds at least MAX_OUTCOMES ints and doubles.
from libc.stdint cimport uint64_t
from roost.core.rng cimport Rng

cdef enum:
    CHANCE = -1          # to_move() at a chance node
    OVER = -2            # assign_played(): the position made is over
    HIDDEN = -1          # observe(): the observer cannot see this action
    MAX_PLAYERS = 5
    MAX_MOVES = 1024     # decision moves at any node of any game
    MAX_OUTCOMES = 131072  # distinct outcomes at any chance node of any game


cdef enum:
    # search_moves(): what the game knows of the next two plies (solving uses it to settle a
    # node without searching it, or to narrow its window by the distance to a result)
    SOON_UNKNOWN = 0     # nothing: out holds the legal moves
    SOON_WIN = 1         # the mover wins with a move now: out holds that move alone
    SOON_LOSS = 2        # whatever the mover plays, the opponent can win on the next ply
                         # (out holds moves all the same, for a root that must choose one)
    SOON_QUIET = 3       # no move wins now, and none of the moves in out lets the opponent
                         # win on the next ply (the moves left out do): the mover wins on its
                         # next move but one at the soonest, and loses on the opponent's next
                         # move but one at the soonest (a game that alternates the two)
    SOON_DRAW = 4        # all SOON_QUIET says, and the game ends drawn whichever move of out
                         # is played, whatever follows: the node is a draw (Connect Four with
                         # two cells left or one)


cdef enum:
    DRAWN = 2            # two_player_outcome(): neither player won


cdef inline void two_player_outcome(int result, double* out) noexcept nogil:
    """outcome() of a two-player game whose result is the winner (0 or 1) or DRAWN."""
    if result == DRAWN:
        out[0] = 0.5
    else:
        out[0] = 1.0 if result == 0 else 0.0
    out[1] = 1.0 - out[0]


cdef class State:
    # Set by the game in __cinit__/parse; read by searchers and the Python API.
    cdef readonly int n_players
    cdef readonly bint hidden_info        # some part of the state is hidden from some player
    cdef readonly bint perft_expands_chance  # perft sums over chance outcomes (else counts 1)

    # -- the hot contract: every game implements these --------------------------------
    cdef int to_move(self) noexcept nogil
    cdef int legal_moves(self, int* out) noexcept nogil
    cdef void play(self, int move) noexcept nogil
    cdef bint over(self) noexcept nogil
    cdef void outcome(self, double* out) noexcept nogil
    cdef uint64_t key(self) noexcept nogil
    cdef bint key_after(self, int move, uint64_t* key) noexcept nogil  # the key after `move`
                                                          # without playing it, where the game
                                                          # has it cheaply (a search fetches its
                                                          # children's table entries early);
                                                          # False where not (the default)
    cdef void assign(self, State other) noexcept nogil   # copy other's position into self
                                                          # (same game and player count: clone()
                                                          # sets the fields above)
    cdef void assign_position(self, State other) noexcept nogil  # assign, less what only the
                                                          # position's text reads (its history):
                                                          # a search's scratch child (the default:
                                                          # assign)
    cdef int assign_played(self, State parent, int move) noexcept nogil  # assign_position(parent)
                                                          # then play(move): a search's scratch
                                                          # child in one call, and its mover
                                                          # (to_move(), or OVER once over():
                                                          # the three calls a search makes of
                                                          # every child in one; the default:
                                                          # those calls)
    cdef int keys_after(self, int* moves, int n, uint64_t* keys) noexcept nogil  # key_after of
                                                          # the first n moves, in keys: how many
                                                          # from the first the game gives (a proof
                                                          # fetches its children's table words)

    # -- chance: games with chance nodes implement these --------------------------------
    cdef int chance_count(self) noexcept nogil
    cdef int chance_outcomes(self, int* out, double* probs) noexcept nogil
    cdef int sample_chance(self, Rng* rng) noexcept nogil

    # -- search helpers with generic defaults --------------------------------------------
    cdef double evaluate(self, int player) noexcept nogil
    cdef void determinize(self, int observer, Rng* rng) noexcept nogil
    cdef int observe(self, int move, int observer) noexcept nogil
    cdef int search_moves(self, int* out, int* soon) noexcept nogil
    cdef int search_moves_unordered(self, int* out, int* soon) noexcept nogil
    cdef void order_search_moves(self, int* moves, int n, int soon) noexcept nogil
    cdef int plies_bound(self) noexcept nogil
    cdef bint wins_on_own_move(self) noexcept nogil
    cdef int playout(self, Rng* rng, int max_plies) noexcept nogil
    cdef int quiesce(self, Rng* rng) noexcept nogil      # on to a position evaluate reads
    cdef unsigned long long perft_native(self, int depth) noexcept

    # -- allocation (needs the GIL) ---------------------------------------------------------
    cdef State clone(self)
