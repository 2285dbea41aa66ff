"""Playout policies: how an MCTS iteration plays on from its leaf.

- random: the game's own native playout (State.playout), the fastest;
- eval: epsilon-greedy on the game's evaluation: with probability epsilon a random move,
  else the move whose resulting position the evaluation likes best for the mover (one
  copy, move and evaluation per legal move: slower plies, better informed);
- decisive: the game's search_moves (the moves a proof searches): a move that wins at once
  when it names one, else a random move among those it does not know to lose (at once, or
  on the opponent's reply where the game looks that far).  Random playouts of a connection
  game end by a side gathered by accident; decisive ones end when a side can gather, so
  their results say who is closer to it.  A game without search_moves plays random moves;
- mast: Move-Average Sampling: every (player, move) pair keeps the mean result of the
  iterations of this search that played it (in the tree or the playout); a playout takes
  the best mean with probability 1 - epsilon, else a random move.  Moves are compared by
  their ids, so it helps where a move id means much the same thing across positions.

A playout stops after ``max_plies`` plies; the searcher then scores the position with the
game's evaluation (a playout cut-off).

Threads: a search gives each of its threads a Playout of its own (its scratch position,
trail and AMAF marks; the random numbers come from the thread's own generator).  The MAST
table is shared by the threads of one search so that each learns from all iterations: the
updates are atomic adds, and a reader may see a slot's sum and count from two different
moments, which only blurs one move's mean for one choice (never a torn number).
"""
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memset
from libc.stdint cimport uint32_t, uint64_t

from roost.core.rng cimport Rng, rng_below, rng_double, rng_seed
from roost.core.state cimport State, CHANCE, MAX_PLAYERS, SOON_WIN

# the shared MAST table is added to and read with the threads' atomics
from roost.search.threads cimport add_double as atomic_add_double, load_double as atomic_load_double

POLICIES = {"random": POLICY_RANDOM, "eval": POLICY_EVAL, "mast": POLICY_MAST,
            "decisive": POLICY_DECISIVE}

cdef inline int mast_slot(int player, int move) noexcept nogil:
    # Fibonacci hashing of the pair; move ids are small, so collisions are rare
    cdef uint32_t h = (<uint32_t>move * <uint32_t>2654435761u) ^ (<uint32_t>player * <uint32_t>0x85EBCA6Bu)
    return <int>((h * <uint32_t>2246822519u) >> (32 - MAST_BITS))


cdef class Playout:

    def __cinit__(self, int policy=POLICY_RANDOM, double epsilon=0.1):
        if policy not in (POLICY_RANDOM, POLICY_EVAL, POLICY_MAST, POLICY_DECISIVE):
            raise ValueError(f"unknown playout policy {policy}")
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"a playout's epsilon is a probability (0..1), not {epsilon}")
        self.policy = policy
        self.epsilon = epsilon
        self.mast_sum = NULL
        self.mast_count = NULL
        self.trail_move = NULL
        self.trail_player = NULL
        self.trail_move = <int*>malloc(TRAIL_CAP * sizeof(int))
        self.trail_player = <int*>malloc(TRAIL_CAP * sizeof(int))
        self.played_stamp = <int*>calloc(MAST_SLOTS, sizeof(int))
        self.ref_stamp = <int*>calloc(MAST_SLOTS, sizeof(int))
        self.ref_move = <int*>malloc(MAST_SLOTS * sizeof(int))
        self.ref_value = <double*>malloc(MAST_SLOTS * sizeof(double))
        self.ref_visits = <int*>malloc(MAST_SLOTS * sizeof(int))
        self.stamp = 0
        self.ref_mark = 0
        if policy == POLICY_MAST:
            self.mast_sum = <double*>calloc(MAST_SLOTS, sizeof(double))
            self.mast_count = <double*>calloc(MAST_SLOTS, sizeof(double))
        if (self.trail_move == NULL or self.trail_player == NULL or self.played_stamp == NULL
                or self.ref_stamp == NULL or self.ref_move == NULL or self.ref_value == NULL
                or self.ref_visits == NULL
                or (policy == POLICY_MAST and (self.mast_sum == NULL or self.mast_count == NULL))):
            raise MemoryError("cannot allocate the playout tables")
        self.trail_len = 0
        self.recording = False

    def __dealloc__(self):
        if self.mast_owner is None:
            free(self.mast_sum)
            free(self.mast_count)
        free(self.trail_move)
        free(self.trail_player)
        free(self.played_stamp)
        free(self.ref_stamp)
        free(self.ref_move)
        free(self.ref_value)
        free(self.ref_visits)

    cdef void share_mast(self, Playout owner):
        """Learn into and read from `owner`'s MAST table (the threads of one search)."""
        if self.policy != POLICY_MAST or owner is self:
            return
        if self.mast_owner is None:
            free(self.mast_sum)
            free(self.mast_count)
        self.mast_owner = owner
        self.mast_sum = owner.mast_sum
        self.mast_count = owner.mast_count

    cdef void prepare(self, State root, bint clear_mast):
        """Before a search from `root`: a scratch position of its game, and (`clear_mast`,
        the table's owner) a fresh MAST table: what one search learns is not carried into
        the next."""
        if (self.scratch is None or type(self.scratch) is not type(root)
                or self.scratch.n_players != root.n_players):
            self.scratch = root.clone()
        if self.policy == POLICY_MAST and clear_mast:
            memset(self.mast_sum, 0, MAST_SLOTS * sizeof(double))
            memset(self.mast_count, 0, MAST_SLOTS * sizeof(double))
        self.trail_len = 0

    cdef void begin(self) noexcept nogil:
        self.trail_len = 0

    cdef void note(self, int player, int move) noexcept nogil:
        if (self.policy == POLICY_MAST or self.recording) and move >= 0 and self.trail_len < TRAIL_CAP:
            self.trail_player[self.trail_len] = player
            self.trail_move[self.trail_len] = move
            self.trail_len += 1

    cdef void learn(self, double* out) noexcept nogil:
        """MAST: credit every move of this iteration with its mover's result."""
        cdef int i, s
        if self.policy != POLICY_MAST:
            return
        for i in range(self.trail_len):
            if self.trail_player[i] < 0:
                continue                    # a chance outcome
            s = mast_slot(self.trail_player[i], self.trail_move[i])
            atomic_add_double(&self.mast_sum[s], out[self.trail_player[i]])
            atomic_add_double(&self.mast_count[s], 1.0)
        self.trail_len = 0

    cdef double move_value(self, State w, int move, int player) noexcept nogil:
        """The evaluation, for `player`, of the position after `move` in `w` (the result
        itself if the move ends the game)."""
        cdef double out[MAX_PLAYERS]
        self.scratch.assign(w)
        self.scratch.play(move)
        if self.scratch.over():
            self.scratch.outcome(out)
            return out[player]
        return self.scratch.evaluate(player)

    cdef int choose_by_eval(self, State w, int n, int player, Rng* rng) noexcept nogil:
        cdef int i, best = 0, ties = 0
        cdef double v, best_v = -1.0
        for i in range(n):
            v = self.move_value(w, self.moves[i], player)
            if v > best_v:
                best_v = v
                best = i
                ties = 1
            elif v == best_v:
                ties += 1
                if rng_below(rng, ties) == 0:     # a uniform choice among equal moves
                    best = i
        return self.moves[best]

    cdef int choose_by_mast(self, int n, int player, Rng* rng) noexcept nogil:
        cdef int i, s, best = 0, ties = 0
        cdef double v, best_v = -1.0, count
        for i in range(n):
            s = mast_slot(player, self.moves[i])
            # a move never tried counts as even (0.5): neither sought nor shunned
            count = atomic_load_double(&self.mast_count[s])
            v = atomic_load_double(&self.mast_sum[s]) / count if count > 0 else 0.5
            if v > best_v:
                best_v = v
                best = i
                ties = 1
            elif v == best_v:
                ties += 1
                if rng_below(rng, ties) == 0:
                    best = i
        return self.moves[best]

    cdef int run(self, State w, Rng* rng, int max_plies) noexcept nogil:
        """Play `w` on by the policy for at most `max_plies` plies; the plies played."""
        cdef int plies = 0, n, player, m, soon
        if self.policy == POLICY_RANDOM and not self.recording:
            return w.playout(rng, max_plies)     # the game's fast playout, unrecorded
        while plies < max_plies and not w.over():
            player = w.to_move()
            if player == CHANCE:
                m = w.sample_chance(rng)
            elif self.policy == POLICY_DECISIVE:
                n = w.search_moves(self.moves, &soon)
                m = self.moves[0] if soon == SOON_WIN else self.moves[rng_below(rng, n)]
            else:
                n = w.legal_moves(self.moves)
                if n == 1 or self.policy == POLICY_RANDOM or rng_double(rng) < self.epsilon:
                    m = self.moves[rng_below(rng, n)]
                elif self.policy == POLICY_EVAL:
                    m = self.choose_by_eval(w, n, player, rng)
                else:
                    m = self.choose_by_mast(n, player, rng)
            self.note(player, m)        # a chance outcome is noted with player CHANCE
            w.play(m)
            plies += 1
        return plies

    # ------------------------------------------------------------------ AMAF (RAVE, GRAVE)
    # Stamps instead of clearing: a pair is marked when its stamp is the current one.
    cdef void amaf_begin(self) noexcept nogil:
        """A new AMAF pass: mark the moves this iteration's playout played."""
        cdef int i
        self.stamp += 1
        if self.stamp == 2147483647:
            memset(self.played_stamp, 0, MAST_SLOTS * sizeof(int))
            self.stamp = 1
        for i in range(self.trail_len):
            if self.trail_player[i] >= 0:
                self.played_stamp[mast_slot(self.trail_player[i], self.trail_move[i])] = self.stamp

    cdef void amaf_mark(self, int player, int move) noexcept nogil:
        self.played_stamp[mast_slot(player, move)] = self.stamp

    cdef bint amaf_played(self, int player, int move) noexcept nogil:
        return self.played_stamp[mast_slot(player, move)] == self.stamp

    cdef void ref_clear(self) noexcept nogil:
        self.ref_mark += 1
        if self.ref_mark == 2147483647:
            memset(self.ref_stamp, 0, MAST_SLOTS * sizeof(int))
            self.ref_mark = 1

    cdef void ref_put(self, int player, int move, double value, int visits) noexcept nogil:
        cdef int s = mast_slot(player, move)
        self.ref_stamp[s] = self.ref_mark
        self.ref_move[s] = move * 8 + player
        self.ref_value[s] = value
        self.ref_visits[s] = visits

    cdef int ref_get(self, int player, int move, double* value) noexcept nogil:
        """The reference visits of (player, move) (0 if none; a colliding pair counts as
        none), its summed value in `value`."""
        cdef int s = mast_slot(player, move)
        if self.ref_stamp[s] != self.ref_mark or self.ref_move[s] != move * 8 + player:
            return 0
        value[0] = self.ref_value[s]
        return self.ref_visits[s]

    # ------------------------------------------------------------------ for tests
    def trace(self, State state, seed, int max_plies=100000):
        """The plies a playout from `state` plays with `seed`: [(player or -1, move)]."""
        cdef Rng rng
        cdef State w = state.clone()
        rng_seed(&rng, <uint64_t>seed)
        self.scratch = state.clone()     # (what MAST has learnt stays)
        self.recording = True
        self.run(w, &rng, max_plies)
        self.recording = False
        line = [(self.trail_player[i], self.trail_move[i]) for i in range(self.trail_len)]
        self.trail_len = 0
        return line

    def teach(self, int player, int move, double result):
        """Credit (player, move) with one result, as a finished iteration would (MAST)."""
        cdef double out[MAX_PLAYERS]
        if self.policy != POLICY_MAST:
            raise ValueError("only a MAST playout learns move averages")
        out[player] = result
        self.trail_len = 0
        self.note(player, move)
        self.learn(out)

    def mast_credits(self, int player, int move):
        """How many iterations credited (player, move) in the MAST table (0 without MAST)."""
        if self.policy != POLICY_MAST:
            return 0
        return self.mast_count[mast_slot(player, move)]

    def mast_mean(self, int player, int move):
        """The MAST mean of (player, move), or None if it was never played."""
        cdef int s
        if self.policy != POLICY_MAST:
            return None
        s = mast_slot(player, move)
        return self.mast_sum[s] / self.mast_count[s] if self.mast_count[s] > 0 else None
