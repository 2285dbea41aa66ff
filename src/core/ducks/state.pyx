"""Feed the Ducks (rules: docs/rules/ducks.md): the position and the native
contract.  The pond's geometry and the swim are in board.pxd, the bulk perft in perft.pyx,
the position text and move names in text.py, the picture in render.py.

Move ids: 0..60 a crumb on that cell; 64 + cell a white duck, 128 + cell a black duck
(setup placements).
"""
from libc.stdint cimport uint64_t
from libc.string cimport memcpy
from libc.math cimport exp

from roost.core.bits cimport popcount, lsb, pdep, clear_lsb
from roost.core.rng cimport Rng, rng_below
from roost.core.state cimport State, two_player_outcome, SOON_UNKNOWN, SOON_WIN
from roost.core.ducks.board cimport (init_tables, swim, gathered, groups_and_links, crumb_targets, full_key,
                                     EDGE, BOARD, Z_WHITE, Z_BLACK, Z_CRUMB, Z_SIDE, DUCKS_PER_COLOUR,
                                     SETUP_PLACEMENTS, PLY_CAP, WHITE_DUCK, BLACK_DUCK)
from roost.core.ducks.history cimport (Seen, seen_entry, occurs_third_time, filter_build,
                                       MAX_HIST, FILTER_FROM, FILTER_WORDS)
from roost.core.ducks.perft cimport perft_play, perft_setup
from roost.core.ducks.features cimport N_FEATURES, ducks_features, init_features
from roost.core.linear cimport two_player_share, WEIGHT_ROWS
from roost.core.errors import GameError, PositionError
from roost.core.ducks import text as _text, render as _render
from roost.core.weights import LinearEval

init_tables()
init_features()

# The evaluation's weights (features.pxd names the features); EVALUATION sets them.
cdef double EVAL_W[WEIGHT_ROWS][N_FEATURES]


def _install_weights(int players, weights):
    cdef int i
    for i in range(N_FEATURES):
        EVAL_W[players][i] = weights[i]


EVALUATION = LinearEval(
    "ducks",
    ("groups", "links", "largest_group", "mean_distance", "bank", "lone", "to_move"),
    # the evaluation before tuning: half a point per group, 0.08 per adjacent pair
    {2: (-0.5, 0.08, 0.0, 0.0, 0.0, 0.0, 0.0)},
    _install_weights, (2,))


# ---------------------------------------------------------------------------- the crumb
cdef inline int crumb_lands(DucksCore* c, int cell) noexcept nogil:
    """The crumb lands on ``cell``: the ducks swim, the placement is counted, a gathered
    colour wins, the turn passes.  The key and the repetition rule are the caller's.
    A colour that did not move cannot have become gathered, except at the first crumb
    (nothing is checked during the setup, so it may have been gathered all along)."""
    cdef uint64_t ow = c.white, ob = c.black
    cdef bint first = c.crumb < 0, wg, bg
    swim(&c.white, &c.black, cell)
    c.crumb = cell
    c.plies += 1
    wg = (first or c.white != ow) and gathered(c.white)
    bg = (first or c.black != ob) and gathered(c.black)
    if wg and bg:
        c.result = c.side                  # the player who placed the crumb
    elif wg:
        c.result = 0
    elif bg:
        c.result = 1
    c.side ^= 1
    return c.result


cdef inline void place_crumb(DucksCore* c, Seen* hist, uint64_t* hist_filter, int cell) noexcept nogil:
    """A crumb placement by the rules: the move, the key, the repetition and length draws."""
    cdef uint64_t ow = c.white, ob = c.black, diff
    cdef int last = c.crumb
    crumb_lands(c, cell)
    diff = ow ^ c.white
    while diff:
        c.hkey ^= Z_WHITE[lsb(diff)]
        diff = clear_lsb(diff)
    diff = ob ^ c.black
    while diff:
        c.hkey ^= Z_BLACK[lsb(diff)]
        diff = clear_lsb(diff)
    if last >= 0:
        c.hkey ^= Z_CRUMB[last]
    c.hkey ^= Z_CRUMB[cell] ^ Z_SIDE
    if c.result < 0:
        end_by_draw(c, hist, hist_filter, c.nhist >= FILTER_FROM)


cdef inline void end_by_draw(DucksCore* c, Seen* hist, uint64_t* hist_filter,
                             bint filtered) noexcept nogil:
    """After a crumb placement that did not win: its position goes into the history, and the
    game is drawn at the position's third occurrence or at the cap."""
    if (occurs_third_time(hist, hist_filter, &c.nhist, seen_entry(c.white, c.black, c.crumb),
                          filtered)
            or c.plies >= PLY_CAP):
        c.result = 2


cdef int ducks_playout(DucksCore* c, Seen* hist, uint64_t* hist_filter, Rng* rng,
                       int max_plies) noexcept nogil:
    """Random play by the rules from c to the end or ``max_plies``: a setup placement is the
    k-th legal move (white placements, then black, each in cell order) and a crumb cell the
    k-th set bit of the target mask, so the draws are those of legal_moves plus a uniform
    pick.  No key is kept per ply (it is computed once, at the end).  The position is played
    in a local copy, which the compiler keeps in registers: no store into the history can
    change it."""
    cdef DucksCore s = c[0]
    cdef uint64_t free_edge, targets
    cdef int plies = 0, placed, n_white, n_free, k, cell
    if s.result >= 0 or max_plies <= 0:
        return 0
    placed = popcount(s.white | s.black)
    if placed < SETUP_PLACEMENTS:
        n_white = popcount(s.white)
        while plies < max_plies and placed < SETUP_PLACEMENTS:
            free_edge = EDGE & ~(s.white | s.black)
            n_free = popcount(free_edge)
            k = rng_below(rng, n_free * ((n_white < DUCKS_PER_COLOUR)
                                         + (placed - n_white < DUCKS_PER_COLOUR)))
            if n_white < DUCKS_PER_COLOUR and k < n_free:
                s.white |= <uint64_t>1 << lsb(pdep(<uint64_t>1 << k, free_edge))
                n_white += 1
            else:
                if k >= n_free:
                    k -= n_free
                s.black |= <uint64_t>1 << lsb(pdep(<uint64_t>1 << k, free_edge))
            placed += 1
            s.side ^= 1
            plies += 1
    if plies < max_plies and s.nhist < FILTER_FROM:
        filter_build(hist_filter, hist, s.nhist)
    while plies < max_plies:
        targets = crumb_targets(s.white | s.black, s.crumb)
        cell = lsb(pdep(<uint64_t>1 << rng_below(rng, popcount(targets)), targets))
        plies += 1
        if crumb_lands(&s, cell) >= 0:
            break
        end_by_draw(&s, hist, hist_filter, True)
        if s.result >= 0:
            break
    s.hkey = full_key(s.white, s.black, s.crumb, s.side)
    c[0] = s
    return plies


cdef class Ducks(State):
    """A Feed the Ducks position.

    >>> s = Ducks.parse("5/6/7/8/9/8/7/6/5 w 0")
    >>> s.perft(2)
    2208
    >>> s.play_move("W@a1").text()
    '5/6/7/8/9/8/7/6/w4 b 0'
    """
    name = "ducks"

    def __cinit__(self):
        self.n_players = 2
        self.c.crumb = -1
        self.c.result = -1

    # ---------------------------------------------------------------- contract
    cdef int to_move(self) noexcept nogil:
        return self.c.side

    cdef bint over(self) noexcept nogil:
        return self.c.result >= 0

    cdef void outcome(self, double* out) noexcept nogil:
        two_player_outcome(self.c.result, out)

    cdef uint64_t key(self) noexcept nogil:
        return self.c.hkey

    cdef void assign(self, State other) noexcept nogil:
        self.c = (<Ducks>other).c
        memcpy(self.hist, (<Ducks>other).hist, self.c.nhist * sizeof(Seen))
        if self.c.nhist >= FILTER_FROM:
            memcpy(self.hist_filter, (<Ducks>other).hist_filter, FILTER_WORDS * sizeof(uint64_t))

    cdef int legal_moves(self, int* out) noexcept nogil:
        cdef int n = 0, c
        cdef uint64_t f
        if self.c.result >= 0:
            return 0
        if popcount(self.c.white | self.c.black) < SETUP_PLACEMENTS:
            f = EDGE & ~(self.c.white | self.c.black)
            if popcount(self.c.white) < DUCKS_PER_COLOUR:
                while f:
                    out[n] = WHITE_DUCK + lsb(f)
                    n += 1
                    f = clear_lsb(f)
            f = EDGE & ~(self.c.white | self.c.black)
            if popcount(self.c.black) < DUCKS_PER_COLOUR:
                while f:
                    out[n] = BLACK_DUCK + lsb(f)
                    n += 1
                    f = clear_lsb(f)
            return n
        f = crumb_targets(self.c.white | self.c.black, self.c.crumb)
        while f:
            out[n] = lsb(f)
            n += 1
            f = clear_lsb(f)
        return n

    cdef int search_moves(self, int* out, int* soon) noexcept nogil:
        # What one crumb decides (the setup decides nothing): a placement that gathers the
        # mover's colour wins now (alone, it is all a proof or a decisive playout needs);
        # else the placements less those that gather the opponent's colour alone, which
        # lose at once.  If every placement loses at once, all of them (SOON_UNKNOWN is
        # always right).  The opponent's replies are not looked at: that is n^2 swims.
        cdef DucksCore t
        cdef uint64_t f
        cdef int n = 0, cell, me = self.c.side
        soon[0] = SOON_UNKNOWN
        if self.c.result >= 0 or popcount(self.c.white | self.c.black) < SETUP_PLACEMENTS:
            return self.legal_moves(out)
        f = crumb_targets(self.c.white | self.c.black, self.c.crumb)
        while f:
            cell = lsb(f)
            f = clear_lsb(f)
            t = self.c
            crumb_lands(&t, cell)
            if t.result == me:
                soon[0] = SOON_WIN
                out[0] = cell
                return 1
            if t.result < 0:
                out[n] = cell
                n += 1
        if n == 0:
            return self.legal_moves(out)
        return n

    cdef void play(self, int move) noexcept nogil:
        cdef int c
        if move >= BLACK_DUCK:
            c = move - BLACK_DUCK
            self.c.black |= <uint64_t>1 << c
            self.c.hkey ^= Z_BLACK[c] ^ Z_SIDE
            self.c.side ^= 1
            return
        if move >= WHITE_DUCK:
            c = move - WHITE_DUCK
            self.c.white |= <uint64_t>1 << c
            self.c.hkey ^= Z_WHITE[c] ^ Z_SIDE
            self.c.side ^= 1
            return
        place_crumb(&self.c, self.hist, self.hist_filter, move)

    cdef double evaluate(self, int player) noexcept nogil:
        # A logistic model of the result on the two colours' features (features.pxd), with
        # the weights `roost tune ducks` fitted from self-play (EVALUATION).
        cdef double f[2][N_FEATURES]
        ducks_features(&self.c, 0, f[0])
        ducks_features(&self.c, 1, f[1])
        return two_player_share(EVAL_W[2], f[0], f[1], N_FEATURES, player)

    cdef int playout(self, Rng* rng, int max_plies) noexcept nogil:
        return ducks_playout(&self.c, self.hist, self.hist_filter, rng, max_plies)

    cdef unsigned long long perft_native(self, int depth) noexcept:
        if depth == 0:
            return 1
        if self.c.result == 0 or self.c.result == 1:
            return 0     # won; a draw (repetition or the cap) is ignored by perft
        if popcount(self.c.white | self.c.black) < SETUP_PLACEMENTS:
            return perft_setup(self.c.white, self.c.black, depth)
        return perft_play(self.c.white, self.c.black, self.c.crumb, depth)

    def eval_features(self, int player):
        """The evaluation's features of ``player`` here (EVALUATION.features names them)."""
        cdef double f[N_FEATURES]
        ducks_features(&self.c, player, f)
        return [f[i] for i in range(N_FEATURES)]

    # ---------------------------------------------------------------- the bridge to text.py
    @classmethod
    def _load(cls, dict raw):
        """A position from plain values already checked (by text.py, or a pickle):
        ``white``, ``black`` (cell masks), ``crumb`` (a cell or -1), ``side``, ``plies``.
        Without ``result`` it is taken up afresh: drawn at the ply cap, otherwise live with
        itself as the repetition history; with ``result`` and ``history`` (the positions
        counted for repetition, as (white, black, crumb), each a crumb placement after the
        one before) it is exactly the state _raw() described."""
        cdef Ducks s = cls.__new__(cls)
        cdef int i
        s.c.white = raw["white"]
        s.c.black = raw["black"]
        s.c.crumb = raw["crumb"]
        s.c.side = raw["side"]
        s.c.plies = raw["plies"]
        s.c.hkey = full_key(s.c.white, s.c.black, s.c.crumb, s.c.side)
        if raw.get("result") is not None:
            history = raw["history"]
            if len(history) > MAX_HIST:
                raise PositionError(f"a repetition history of {len(history)} positions (at most {MAX_HIST})")
            for entry in history:
                # (a history of keys, the form before positions were kept, cannot be read)
                if not (isinstance(entry, tuple) and len(entry) == 3):
                    raise PositionError(f"a repetition history holds (white, black, crumb) "
                                        f"positions, not {entry!r}")
            s.c.result = raw["result"]
            s.c.nhist = len(history)
            for i in range(s.c.nhist):
                s.hist[i] = seen_entry(history[i][0], history[i][1], history[i][2])
            if s.c.nhist >= FILTER_FROM:
                filter_build(s.hist_filter, s.hist, s.c.nhist)
        elif s.c.plies >= PLY_CAP:
            s.c.result = 2
        elif s.c.crumb >= 0:
            # the position the game is taken up from has occurred once (repetition)
            s.hist[0] = seen_entry(s.c.white, s.c.black, s.c.crumb)
            s.c.nhist = 1
        return s

    def _raw(self):
        """Every field of the position as plain values (the result: -1 live, 0/1 that colour
        won, 2 drawn; the history: the positions counted for repetition, (white, black,
        crumb) each)."""
        return {"white": self.c.white, "black": self.c.black, "crumb": self.c.crumb,
                "side": self.c.side, "plies": self.c.plies, "result": self.c.result,
                "history": tuple((self.hist[i].white_crumb & BOARD, self.hist[i].black_crumb & BOARD,
                                  <int>((self.hist[i].white_crumb >> 61) | ((self.hist[i].black_crumb >> 61) << 3)))
                                 for i in range(self.c.nhist))}

    def __reduce__(self):
        # The position text cannot say which positions have occurred (the repetition
        # history of a live game): a pickle carries the whole state.
        return (_unpickle, (type(self), self._raw()))

    # ---------------------------------------------------------------- Python API
    @classmethod
    def start(cls, players=2, seed=None):
        """The empty pond, White to place the first duck."""
        if players not in (None, 2):
            raise GameError(f"Feed the Ducks is a two-player game (asked for {players} players)")
        return cls.parse("5/6/7/8/9/8/7/6/5 w 0")

    @classmethod
    def parse(cls, text):
        """Parse ``<rows> <side> [<plies> [repetition]]`` (docs/rules/ducks.md §9); a
        finished game parses as finished (text.parse_position says how)."""
        return _text.parse_position(cls, text)

    def text(self):
        return _text.position_text(self._raw())

    def ending(self):
        """Why the game ended, as ``(reason, words)``: ``gathered`` (a win), ``repetition`` or
        ``cap`` (draws); None while it goes on."""
        return _text.ending(self._raw())

    def move_name(self, move):
        return _text.move_name(move)

    def parse_move(self, name):
        return _text.parse_move(name)

    def iter_divide(self, int depth):
        """As State.iter_divide (which divide uses); at a position drawn by repetition or
        the cap the moves are listed all the same (docs/rules/ducks.md §10.1: both are
        ignored)."""
        cdef Ducks s = self
        if self.c.result == 2:
            s = self.clone()
            s.c.result = -1
        return State.iter_divide(s, depth)

    @property
    def phase(self):
        return "setup" if popcount(self.c.white | self.c.black) < SETUP_PLACEMENTS else "play"

    def render(self, observer=None):
        """The pond as a hexagon, row i on top: ``W``/``B`` ducks, ``*`` the crumb, ``.`` water."""
        return _render.render(self)


def _unpickle(cls, raw):
    return cls._load(raw)
