"""Wingspan, core set (rules: docs/rules/wingspan.md, the cards and goals in
docs/rules/wingspan-cards.md), 1 to 5 players: the position class and the hot contract.

The position is one C struct (``Core``, state.pxd) whose frame stack (§8) is the engine's
continuation; the machine (machine.pyx) runs it from decision to decision, so there are no
chance nodes: ``to_move`` is always a seat and chance is drawn from the position's own RNG
(§6.2, §7.1).  Moves are the global ids of §7.2.  Position text (text.py) and the text
picture (render.py) are plain Python over ``_raw()``, the struct's fields as plain values.
"""
from libc.stdint cimport uint64_t
from libc.string cimport memset

from roost.core.rng cimport Rng
from roost.core.state cimport State, MAX_MOVES
from roost.core.wingspan.tables cimport *
from roost.core.wingspan.state cimport Core
from roost.core.wingspan.machine cimport gen, apply, settle, core_key
from roost.core.wingspan.machine cimport playout as core_playout, finish_turn
from roost.core.wingspan.scoring cimport score, score_parts, final_outcome, bonus_points, goal_count
from roost.core.wingspan.scoring cimport evaluate as core_evaluate
from roost.core.wingspan.information cimport determinize as core_determinize, observe as core_observe
from roost.core.wingspan.setup cimport deal
from roost.core.wingspan.position cimport dump, load

from roost.core.errors import GameError
from roost.core.wingspan import tables as _tables


cdef class Wingspan(State):
    """A Wingspan (core set) position: the omniscient state at a decision node.

    >>> s = Wingspan.start(players=2, seed=1)
    >>> s.purpose, s.player, s.legal_names()
    ('SETUP_KEEP_BIRD', 0, ['no', 'yes'])
    """
    name = "wingspan"

    cdef Core c

    def __cinit__(self):
        self.n_players = 2
        self.hidden_info = True
        self.perft_expands_chance = False
        self.c.n = 2

    # ---------------------------------------------------------------- contract
    cdef int to_move(self) noexcept nogil:
        return self.c.actor

    cdef bint over(self) noexcept nogil:
        return self.c.phase == PH_OVER

    cdef void outcome(self, double* out) noexcept nogil:
        final_outcome(&self.c, out)

    cdef uint64_t key(self) noexcept nogil:
        return core_key(&self.c)

    cdef void assign(self, State other) noexcept nogil:
        self.c = (<Wingspan>other).c
        self.n_players = other.n_players

    cdef int legal_moves(self, int* out) noexcept nogil:
        if self.c.phase == PH_OVER:
            return 0
        return gen(&self.c, out)

    cdef void play(self, int move) noexcept nogil:
        cdef int buf[MAX_MOVES]
        apply(&self.c, move)
        settle(&self.c, buf)

    cdef double evaluate(self, int player) noexcept nogil:
        return core_evaluate(&self.c, player)

    cdef void determinize(self, int observer, Rng* rng) noexcept nogil:
        core_determinize(&self.c, observer, rng)

    cdef int observe(self, int move, int observer) noexcept nogil:
        return core_observe(&self.c, move, observer)

    cdef int playout(self, Rng* rng, int max_plies) noexcept nogil:
        return core_playout(&self.c, rng, max_plies)

    cdef int quiesce(self, Rng* rng) noexcept nogil:
        return finish_turn(&self.c, rng)

    # ---------------------------------------------------------------- Python API
    @classmethod
    def start(cls, players=None, seed=0, side="green"):
        """A new game (§1.3): the setup's chance events drawn from ``seed``; the first
        decision is seat 0's SETUP_KEEP_BIRD for its lowest dealt card."""
        cdef Wingspan s
        cdef int buf[MAX_MOVES]
        n = 2 if players is None else players
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 5:
            raise GameError(f"Wingspan is played by 1 to 5 players, not {players}")
        if side not in ("green", "blue"):
            raise GameError(f"the goal side is 'green' or 'blue', not {side!r}")
        s = _blank(cls, n)
        deal(&s.c, n, 0 if side == "green" else 1, <uint64_t>(0 if seed is None else seed))
        settle(&s.c, buf)
        return s

    @classmethod
    def parse(cls, text, settle=False):
        """Parse the position text of §8 (one JSON object; or a file holding it), or a
        seat's view (``view``; its hidden cards dealt in a fixed way, views.py).  The text
        must be at a decision node; with ``settle=True`` a position whose pending step is
        automatic or forced is accepted and advanced to the next decision node (for
        building test positions by hand)."""
        from roost.core.wingspan import text as _text
        return _text.parse(cls, text, settle)

    def text(self):
        from roost.core.wingspan import text as _text
        return _text.to_text(self)

    def view(self, int observer):
        """The position text as seat ``observer`` sees it (§8, observer view): hidden
        cards as -1, the decks as lists of -1, other seats' setup choices and the RNG removed.
        ``parse`` reads it back to a position whose view is this text."""
        from roost.core.wingspan import text as _text
        if not 0 <= observer < self.c.n:
            raise GameError(f"observer must be a seat 0..{self.c.n - 1}, not {observer}")
        return _text.view(self, observer)

    # -- the bridge to the plain-Python modules
    def _raw(self):
        """Every field of the position as plain values (position.pyx)."""
        return dump(&self.c)

    @classmethod
    def _load(cls, dict raw):
        """A position from plain values that text.py has checked (not settled)."""
        cdef Wingspan s = _blank(cls, raw["n"])
        load(&s.c, raw)
        return s

    def _settle(self):
        """Runs automatic steps and forced moves; returns the number of moves at the node
        reached (0 when the game is over)."""
        cdef int buf[MAX_MOVES]
        if self.c.phase == PH_OVER:
            return 0
        return settle(&self.c, buf)

    # -- facts for tests, tools and people
    @property
    def purpose(self):
        """The purpose of the pending decision node (§7.3), or None when the game is over."""
        return None if self.c.phase == PH_OVER else _tables.PURPOSES[self.c.purpose]

    @property
    def kind(self):
        return None if self.c.phase == PH_OVER else _tables.KINDS[self.c.kind]

    @property
    def phase(self):
        return ("setup", "play", "over")[self.c.phase]

    @property
    def round(self):
        return self.c.round

    @property
    def turn_player(self):
        return self.c.cur

    def scores(self):
        """Each seat's points now (§5.2): the final score once the game is over."""
        return [score(&self.c, p) for p in range(self.c.n)]

    def score_parts(self, int p):
        """(birds, bonus, goals, eggs, cache, tucks) of seat p."""
        cdef int parts[6]
        score_parts(&self.c, p, parts)
        return tuple(parts[i] for i in range(6))

    def goal_points(self):
        return [[self.c.goal_pts[r][p] for p in range(self.c.n)] for r in range(self.c.nscored)]

    def local_moves(self):
        """The legal moves as local values of the node's kind (§7.2)."""
        off = KIND_OFF[self.c.kind]
        return [m - off for m in self.legal()]

    def observe_move(self, int move, int observer):
        """What ``observer`` sees of ``move`` played here: the id, or -1 (HIDDEN)."""
        return self.observe(move, observer)

    def bonus_score(self, int p, int bonus_id):
        return bonus_points(&self.c, p, bonus_id)

    def goal_count(self, int p, int side_id):
        return goal_count(&self.c, p, side_id)

    def move_name(self, move):
        from roost.core.wingspan import moves as _moves
        return _moves.move_name(move)

    def parse_move(self, name):
        from roost.core.wingspan import moves as _moves
        return _moves.parse_move(name)

    def question(self, observer=None):
        """The pending decision as a short question for people ("seat 0: keep Bewick's
        Wren? (yes: ...; no: ...)"), or None when the game is over; with ``observer``, as
        that seat may see it (a card hidden from it is not named)."""
        from roost.core.wingspan import render as _render
        if observer is not None and not 0 <= observer < self.c.n:
            raise GameError(f"observer must be a seat 0..{self.c.n - 1}, not {observer}")
        return _render.question(self, observer)

    def explain_move(self, move):
        """The move's name, with what it does where the name is a bare yes or no:
        'no (discard it)', 'yes (use it)'."""
        from roost.core.wingspan import render as _render
        return _render.explain_move(self, move)

    def render(self, observer=None):
        from roost.core.wingspan import render as _render
        if observer is not None and not 0 <= observer < self.c.n:
            raise GameError(f"observer must be a seat 0..{self.c.n - 1}, not {observer}")
        return _render.render(self, observer)

    def __reduce__(self):
        from roost.core.wingspan import text as _text
        return (_text.parse_text, (type(self), self.text()))


cdef Wingspan _blank(cls, int n):
    cdef Wingspan s = cls.__new__(cls)
    cdef Core* c = &s.c
    cdef int p, k
    memset(c, 0, sizeof(Core))
    c.n = n
    s.n_players = n
    c.round = 1
    for k in range(3):
        c.tray[k] = -1
    for p in range(MAXP):
        for k in range(15):
            c.pl[p].bird[k] = -1
        c.pl[p].sbonus = -1
    return s
