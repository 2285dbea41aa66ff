"""Feed the Ducks (rules: ../shared/rules/feed-the-ducks.md): the position and the native
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
from roost.core.state cimport State, two_player_outcome, MAX_MOVES
from roost.core.ducks.board cimport (init_tables, swim, gathered, groups_and_links, crumb_targets, full_key,
                                     EDGE, Z_WHITE, Z_BLACK, Z_CRUMB, Z_SIDE, DUCKS_PER_COLOUR,
                                     SETUP_PLACEMENTS, PLY_CAP, MAX_HIST, WHITE_DUCK, BLACK_DUCK)
from roost.core.ducks.perft cimport perft_play, perft_setup
from roost.core.errors import GameError, PositionError
from roost.core.ducks import text as _text, render as _render

init_tables()


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
        memcpy(self.hist, (<Ducks>other).hist, self.c.nhist * sizeof(uint64_t))

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
        self.place_crumb(move)

    cdef void place_crumb(self, int c) noexcept nogil:
        cdef uint64_t ow = self.c.white, ob = self.c.black, diff
        cdef bint wg, bg
        cdef int i, seen
        swim(&self.c.white, &self.c.black, c)
        diff = ow ^ self.c.white
        while diff:
            self.c.hkey ^= Z_WHITE[lsb(diff)]
            diff = clear_lsb(diff)
        diff = ob ^ self.c.black
        while diff:
            self.c.hkey ^= Z_BLACK[lsb(diff)]
            diff = clear_lsb(diff)
        if self.c.crumb >= 0:
            self.c.hkey ^= Z_CRUMB[self.c.crumb]
        self.c.hkey ^= Z_CRUMB[c] ^ Z_SIDE
        self.c.crumb = c
        self.c.plies += 1
        wg = gathered(self.c.white)
        bg = gathered(self.c.black)
        if wg and bg:
            self.c.result = self.c.side          # the player who placed the crumb
        elif wg:
            self.c.result = 0
        elif bg:
            self.c.result = 1
        self.c.side ^= 1
        if self.c.result >= 0:
            return
        seen = 1
        for i in range(self.c.nhist):
            if self.hist[i] == self.c.hkey:
                seen += 1
        if self.c.nhist < MAX_HIST:
            self.hist[self.c.nhist] = self.c.hkey
            self.c.nhist += 1
        if seen >= 3:
            self.c.result = 2
        elif self.c.plies >= PLY_CAP:
            self.c.result = 2

    cdef double evaluate(self, int player) noexcept nogil:
        # Gathering is about groups: each group a colour must still merge costs it, and
        # adjacent same-colour pairs measure how close the groups already are.  The
        # difference is squashed into (0, 1) as an estimated result.
        cdef int lw, lb
        cdef int gw = groups_and_links(self.c.white, &lw)
        cdef int gb = groups_and_links(self.c.black, &lb)
        cdef double adv = (gb - gw) * 0.5 + (lw - lb) * 0.08
        if player == 1:
            adv = -adv
        return 1.0 / (1.0 + exp(-adv))

    cdef int playout(self, Rng* rng, int max_plies) noexcept nogil:
        # Specialised for speed: a random crumb cell is the k-th set bit of the target mask.
        cdef int moves[MAX_MOVES]
        cdef int plies = 0, n, c
        cdef uint64_t targets
        while plies < max_plies and self.c.result < 0:
            if popcount(self.c.white | self.c.black) < SETUP_PLACEMENTS:
                n = self.legal_moves(moves)
                self.play(moves[rng_below(rng, n)])
            else:
                targets = crumb_targets(self.c.white | self.c.black, self.c.crumb)
                c = lsb(pdep(<uint64_t>1 << rng_below(rng, popcount(targets)), targets))
                self.place_crumb(c)
            plies += 1
        return plies

    cdef unsigned long long perft_native(self, int depth) noexcept:
        if depth == 0:
            return 1
        if self.c.result == 0 or self.c.result == 1:
            return 0     # won; a draw (repetition or the cap) is ignored by perft
        if popcount(self.c.white | self.c.black) < SETUP_PLACEMENTS:
            return perft_setup(self.c.white, self.c.black, depth)
        return perft_play(self.c.white, self.c.black, self.c.crumb, depth)

    # ---------------------------------------------------------------- the bridge to text.py
    @classmethod
    def _load(cls, dict raw):
        """A position from plain values already checked (by text.py, or a pickle):
        ``white``, ``black`` (cell masks), ``crumb`` (a cell or -1), ``side``, ``plies``.
        Without ``result`` it is taken up afresh: drawn at the ply cap, otherwise live with
        its own key as the repetition history; with ``result`` and ``history`` (the keys
        counted for repetition) it is exactly the state _raw() described."""
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
                raise PositionError(f"a repetition history of {len(history)} keys (at most {MAX_HIST})")
            s.c.result = raw["result"]
            s.c.nhist = len(history)
            for i in range(s.c.nhist):
                s.hist[i] = history[i]
        elif s.c.plies >= PLY_CAP:
            s.c.result = 2
        elif s.c.crumb >= 0:
            # the position the game is taken up from has occurred once (repetition)
            s.hist[0] = s.c.hkey
            s.c.nhist = 1
        return s

    def _raw(self):
        """Every field of the position as plain values (the result: -1 live, 0/1 that colour
        won, 2 drawn; the history: the keys counted for repetition)."""
        return {"white": self.c.white, "black": self.c.black, "crumb": self.c.crumb,
                "side": self.c.side, "plies": self.c.plies, "result": self.c.result,
                "history": tuple(self.hist[i] for i in range(self.c.nhist))}

    def __reduce__(self):
        # The position text cannot say a game is won (such a text is refused as decided) nor
        # which positions have occurred: a pickle carries the whole state.
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
        """Parse ``<rows> <side> [<plies>]`` (rules file, Position text)."""
        return _text.parse_position(cls, text)

    @classmethod
    def parse_decided(cls, text):
        """As parse, and also a won position (a crumb on the board, a colour gathered): the
        rules' position text refuses one, but it is the final position of a won game (a
        game record's ``final``), which the command line shows and analyses."""
        return _text.parse_position(cls, text, decided=True)

    def text(self):
        return _text.position_text(self._raw())

    def move_name(self, move):
        return _text.move_name(move)

    def parse_move(self, name):
        return _text.parse_move(name)

    def iter_divide(self, int depth):
        """As State.iter_divide (which divide uses); at a position drawn by repetition or
        the cap the moves are listed all the same (rules "Perft": both are ignored)."""
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
