"""The base class of every game: generic defaults for the native contract and the
Python-facing API (legal moves as lists, move names, play with validation, perft).

A game overrides the cdef methods listed in ``state.pxd`` and these Python methods:
``parse(text)`` (a classmethod), ``text()``, ``move_name(move)``, ``parse_move(name)``,
``render(observer=None)``, ``start(players, seed)`` (a classmethod) and, where its games
end in more than one way, ``ending()``.  ``parse(text())`` is the same position, a
finished one included.  Each game is a
package: its text module checks every value of a position text in plain Python and hands
the native state plain values through ``_load(raw)`` (``_raw()`` gives them back);
``parse_move`` and ``move_name`` raise MoveError for anything that is not a move name or a
move id (``move_id`` below), never another exception.
"""
import operator

from libc.stdlib cimport malloc, free
from libc.stdint cimport uint64_t

from roost.core.interrupt cimport interrupted
from roost.core.interrupt import run_interruptible
from roost.core.rng cimport Rng, rng_seed, rng_below, rng_double
from roost.core.errors import MoveError, PositionError


def move_id(value, what="move id"):
    """``value`` as a move id: an integer (Python's or numpy's); MoveError ("... is not a
    <what>") for anything else, a bool or a float included (``1.5`` and ``True`` are not
    move 1)."""
    if isinstance(value, bool):
        raise MoveError(f"{value!r} is a truth value, not a {what}")
    try:
        return operator.index(value)
    except TypeError:
        raise MoveError(f"{value!r} is not a {what}") from None


cdef class State:

    # ---------------------------------------------------------------- the hot contract
    cdef int to_move(self) noexcept nogil:
        return 0

    cdef int legal_moves(self, int* out) noexcept nogil:
        return 0

    cdef void play(self, int move) noexcept nogil:
        pass

    cdef bint over(self) noexcept nogil:
        return True

    cdef void outcome(self, double* out) noexcept nogil:
        cdef int p
        for p in range(self.n_players):
            out[p] = 1.0 / self.n_players

    cdef uint64_t key(self) noexcept nogil:
        return 0

    cdef bint key_after(self, int move, uint64_t* key) noexcept nogil:
        return False

    cdef void assign(self, State other) noexcept nogil:
        pass

    cdef void assign_position(self, State other) noexcept nogil:
        self.assign(other)

    cdef int assign_played(self, State parent, int move) noexcept nogil:
        self.assign_position(parent)
        self.play(move)
        return OVER if self.over() else self.to_move()

    cdef int keys_after(self, int* moves, int n, uint64_t* keys) noexcept nogil:
        cdef int i
        for i in range(n):
            if not self.key_after(moves[i], &keys[i]):
                return i
        return n

    # ---------------------------------------------------------------- chance
    cdef int chance_count(self) noexcept nogil:
        return 0

    cdef int chance_outcomes(self, int* out, double* probs) noexcept nogil:
        return 0

    cdef int sample_chance(self, Rng* rng) noexcept nogil:
        # Generic inverse-CDF sampling over the enumerated outcomes; games with many
        # outcomes override this with a direct sampler.
        cdef int n = self.chance_count()
        cdef int* out = <int*>malloc(n * sizeof(int))
        cdef double* probs = <double*>malloc(n * sizeof(double))
        cdef int i, chosen
        cdef double r
        n = self.chance_outcomes(out, probs)
        r = rng_double(rng)
        chosen = out[n - 1]
        for i in range(n):
            r -= probs[i]
            if r < 0:
                chosen = out[i]
                break
        free(out)
        free(probs)
        return chosen

    # ---------------------------------------------------------------- search helpers
    cdef double evaluate(self, int player) noexcept nogil:
        # No knowledge: every player equally likely to win.
        return 1.0 / self.n_players

    cdef void determinize(self, int observer, Rng* rng) noexcept nogil:
        # Perfect information: the state is its own only determinization.
        pass

    cdef int observe(self, int move, int observer) noexcept nogil:
        # Perfect information: every player sees every action.
        return move

    cdef int search_moves(self, int* out, int* soon) noexcept nogil:
        soon[0] = SOON_UNKNOWN
        return self.legal_moves(out)

    cdef int search_moves_unordered(self, int* out, int* soon) noexcept nogil:
        # A game whose order costs nothing to skip: search_moves, in its order already.
        return self.search_moves(out, soon)

    cdef void order_search_moves(self, int* moves, int n, int soon) noexcept nogil:
        pass

    cdef int plies_bound(self) noexcept nogil:
        return -1

    cdef bint wins_on_own_move(self) noexcept nogil:
        return False

    @property
    def length_bound(self):
        """At most how many more plies the game lasts from here, or None when the game does
        not bound its length (its ``plies_bound``)."""
        cdef int n = self.plies_bound()
        return None if n < 0 else n

    cdef int playout(self, Rng* rng, int max_plies) noexcept nogil:
        cdef int moves[MAX_MOVES]
        cdef int plies = 0
        cdef int n
        while plies < max_plies and not self.over():
            if self.to_move() == CHANCE:
                self.play(self.sample_chance(rng))
            else:
                n = self.legal_moves(moves)
                self.play(moves[rng_below(rng, n)])
            plies += 1
        return plies

    cdef int quiesce(self, Rng* rng) noexcept nogil:
        # Plays on at random from a playout cut off here to a position the game's evaluation
        # reads fairly; returns the plies played.  A game whose turn is one ply is there.
        return 0

    cdef unsigned long long perft_native(self, int depth) noexcept:
        cdef list scratch = [self.clone() for _ in range(depth)]
        return _perft(self, depth, scratch, 0)

    cdef State clone(self):
        # the base fields are fixed for a game: set here once, so assign() copies only the
        # game's own position
        cdef State s = type(self).__new__(type(self))
        s.n_players = self.n_players
        s.hidden_info = self.hidden_info
        s.perft_expands_chance = self.perft_expands_chance
        s.assign(self)
        return s

    # ---------------------------------------------------------------- Python API
    @property
    def players(self):
        """Number of players."""
        return self.n_players

    @property
    def player(self):
        """The player to move (0-based), or -1 (CHANCE) where chance acts."""
        return self.to_move()

    @property
    def is_chance(self):
        return (not self.over()) and self.to_move() == CHANCE

    @property
    def is_over(self):
        return self.over()

    @property
    def hash(self):
        """The 64-bit Zobrist-style key the searchers use for this position."""
        return self.key()

    def result(self):
        """Per-player results in [0, 1] of a finished game, as a tuple."""
        cdef double out[MAX_PLAYERS]
        if not self.over():
            raise MoveError("the game is not over")
        self.outcome(out)
        return tuple(out[p] for p in range(self.n_players))

    def ending(self):
        """Why the game ended: ``{"reason": a word, "detail": the words for people}``, None
        while it goes on.  A game whose games end in more than one way overrides this
        (Feed the Ducks: ``gathered``, ``repetition``, ``cap``); the default is a game
        played to its last turn and scored (Under the Leaves, Wingspan)."""
        if not self.over():
            return None
        scores = getattr(self, "scores", None)
        if scores is None:
            return {"reason": "over", "detail": "the game is over"}
        return {"reason": "scored", "detail": "played to the end and scored: "
                + ", ".join(f"seat {p} {v}" for p, v in enumerate(scores()))}

    def legal(self):
        """Legal move ids here (the outcome ids at a chance node), in generation order."""
        cdef int moves[MAX_MOVES]
        cdef int n
        if self.over():
            return []
        if self.to_move() == CHANCE:
            return self._outcome_ids()
        n = self.legal_moves(moves)
        return [moves[i] for i in range(n)]

    def _outcome_ids(self):
        cdef int n = self.chance_count()
        cdef int* out = <int*>malloc(max(n, 1) * sizeof(int))
        cdef double* probs = <double*>malloc(max(n, 1) * sizeof(double))
        try:
            n = self.chance_outcomes(out, probs)
            return [out[i] for i in range(n)]
        finally:
            free(out)
            free(probs)

    def is_legal(self, move):
        """Whether the move id ``move`` (an outcome id at a chance node) may be played here;
        scans the native lists, so a chance node with many outcomes builds no Python list."""
        cdef int moves[MAX_MOVES]
        cdef int n, i, m
        cdef int* out
        cdef double* probs
        cdef bint found = False
        v = move_id(move)
        if self.over() or not 0 <= v < 2 ** 31:
            return False
        m = v
        if self.to_move() != CHANCE:
            n = self.legal_moves(moves)
            for i in range(n):
                if moves[i] == m:
                    return True
            return False
        n = self.chance_count()
        out = <int*>malloc(max(n, 1) * sizeof(int))
        probs = <double*>malloc(max(n, 1) * sizeof(double))
        n = self.chance_outcomes(out, probs)
        for i in range(n):
            if out[i] == m:
                found = True
                break
        free(out)
        free(probs)
        return found

    def legal_names(self):
        return [self.move_name(m) for m in self.legal()]

    def chances(self):
        """[(outcome id, probability)] at a chance node, [] elsewhere."""
        if self.over() or self.to_move() != CHANCE:
            return []
        cdef int n = self.chance_count()
        cdef int* out = <int*>malloc(max(n, 1) * sizeof(int))
        cdef double* probs = <double*>malloc(max(n, 1) * sizeof(double))
        try:
            n = self.chance_outcomes(out, probs)
            return [(out[i], probs[i]) for i in range(n)]
        finally:
            free(out)
            free(probs)

    def sample(self, seed):
        """Draw one chance outcome with a seeded generator (does not play it)."""
        cdef Rng rng
        if self.over() or self.to_move() != CHANCE:
            raise MoveError("not a chance node")
        rng_seed(&rng, <uint64_t>seed)
        return self.sample_chance(&rng)

    def play_move(self, move):
        """Play a move given by name (text) or id (an integer); MoveError names the fault
        when it is not a move or not legal here."""
        if self.over():
            raise MoveError("the game is over: no move can be played")
        m = (self.parse_move(move) if isinstance(move, str)
             else move_id(move, "move (give a move name, or a move id: an integer)"))
        if not self.is_legal(m):
            try:
                name = self.move_name(m)
            except MoveError:
                name = str(m)
            raise MoveError(f"illegal move {name!r} in this position")
        self.play(m)
        return self

    def play_unchecked(self, int move):
        """Play a move id without validation (for replaying trusted records)."""
        self.play(move)
        return self

    def copy(self):
        return self.clone()

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        # the position is C fields only: the native copy is the whole state
        return self.clone()

    def evaluate_for(self, int player):
        """The game's heuristic estimate of ``player``'s result, in [0, 1]."""
        return self.evaluate(player)

    def determinized(self, int observer, seed):
        """A full state consistent with what ``observer`` knows, drawn with ``seed``."""
        cdef Rng rng
        rng_seed(&rng, <uint64_t>seed)
        cdef State s = self.clone()
        s.determinize(observer, &rng)
        return s

    def seen_by(self, int move, int observer):
        """Whether ``observer`` sees which action ``move`` (a decision or a chance outcome)
        is when it is played here: a card drawn into another seat's hand is not seen."""
        return self.observe(move, observer) != HIDDEN

    def random_playout(self, seed, int max_plies=100000):
        """Play random moves (and chance) to the end in place; returns plies played."""
        cdef Rng rng
        rng_seed(&rng, <uint64_t>seed)
        return self.playout(&rng, max_plies)

    def play_to_quiet(self, seed):
        """Play random moves in place on to a position the game's evaluation reads fairly,
        as a search's quiet cut-off does (``quiet=1``); returns the plies played.  Wingspan
        plays on to the next turn's first decision; a game whose turn is one ply is already
        there and plays none."""
        cdef Rng rng
        rng_seed(&rng, <uint64_t>seed)
        return self.quiesce(&rng)

    def perft(self, int depth):
        """Leaf count of the legal-move tree of ``depth`` plies (the game's convention).
        Ctrl-C (any exception a signal handler raises) stops the count and is raised."""
        if depth < 0:
            raise ValueError("perft depth must be >= 0")
        return _interruptible_perft(self, depth)

    def divide(self, int depth):
        """[(move name, perft(child, depth - 1))] for every legal move or outcome here (a
        chance draw uses no depth).  A chance node whose game counts it as one leaf has
        nothing to divide: []."""
        return list(self.iter_divide(depth))

    def iter_divide(self, int depth):
        """divide() one move at a time (Ctrl-C between moves keeps what was counted)."""
        if depth < 1:
            raise ValueError("divide needs depth >= 1")
        cdef State child
        if self.over() or (self.to_move() == CHANCE and not self.perft_expands_chance):
            return
        chance = self.to_move() == CHANCE
        for m in self.legal():
            child = self.clone()
            child.play(m)
            yield self.move_name(m), _interruptible_perft(child, depth if chance else depth - 1)

    def __str__(self):
        return self.text()

    def __repr__(self):
        return f"{type(self).__name__}({self.text()!r})"

    def __eq__(self, other):
        return type(self) is type(other) and self.text() == other.text()

    def __hash__(self):
        return hash(self.text())

    def __reduce__(self):
        return (type(self).parse, (self.text(),))


def playout_batch(State root, long n, seed=0, int max_plies=100000):
    """Play ``n`` native random playouts from ``root`` (left as it is), each from a copy, with
    one generator seeded once: the loop MCTS runs, without Python between playouts (for
    timing the playout itself).  Returns (total plies, per-player sums of the results of the
    games that ended)."""
    cdef State s = root.clone()
    cdef Rng rng
    cdef double out[MAX_PLAYERS]
    cdef double sums[MAX_PLAYERS]
    cdef long long plies = 0
    cdef long i
    cdef int p
    if n < 0:
        raise ValueError("the number of playouts must be >= 0")
    rng_seed(&rng, <uint64_t>seed)
    for p in range(MAX_PLAYERS):
        sums[p] = 0.0
    with nogil:
        for i in range(n):
            s.assign(root)
            plies += s.playout(&rng, max_plies)
            if s.over():
                s.outcome(out)
                for p in range(s.n_players):
                    sums[p] += out[p]
    return plies, tuple(sums[p] for p in range(root.n_players))


def _interruptible_perft(State s, int depth):
    return run_interruptible(_native_perft, s, depth)


def _native_perft(State s, int depth):
    return s.perft_native(depth)


cdef unsigned long long _perft(State s, int depth, list scratch, int level) noexcept:
    """Generic perft over the contract; the game's perft_expands_chance picks the chance rule.
    scratch[level] is this level's child buffer, so the recursion allocates nothing once warm."""
    cdef int moves[MAX_MOVES]
    cdef int n, i
    cdef unsigned long long total = 0
    cdef State child
    cdef int* outs
    cdef double* probs
    if depth == 0:
        return 1
    if s.over():
        return 0
    if len(scratch) <= level:
        scratch.append(s.clone())
    child = <State>scratch[level]
    if s.to_move() == CHANCE:
        if not s.perft_expands_chance:
            return 1
        if depth >= 3 and interrupted():
            return 0
        n = s.chance_count()
        outs = <int*>malloc(n * sizeof(int))
        probs = <double*>malloc(n * sizeof(double))
        n = s.chance_outcomes(outs, probs)
        for i in range(n):
            child.assign(s)
            child.play(outs[i])
            total += _perft(child, depth, scratch, level + 1)  # a draw uses no depth
        free(outs)
        free(probs)
        return total
    n = s.legal_moves(moves)
    if depth == 1:
        return n
    # Ctrl-C: looked for above the last two plies (a depth-2 subtree is small, and there
    # are many of them)
    if depth >= 3 and interrupted():
        return 0
    for i in range(n):
        child.assign(s)
        child.play(moves[i])
        total += _perft(child, depth - 1, scratch, level + 1)
    return total
