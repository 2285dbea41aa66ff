"""Wingspan, core set (rules: docs/rules/wingspan.md, the cards and goals in
docs/rules/wingspan-cards.md), 1 to 5 players: the position class and the hot contract.

The position is one C struct (``Core``, state.pxd) whose frame stack is the engine's
continuation; the machine (machine.pyx) runs it from decision to decision, so there are no
chance nodes: ``to_move`` is always a seat and chance is drawn from the position's own RNG
(§6.2, §7.1).  Moves are the global ids of §7.2.  Position text (text.py) and the text
picture (render.py) are plain Python over ``_raw()``, the struct's fields as plain values.

A position handed to Python also keeps the record of its turn (record.pxd): where the turn
started and the moves since, so that its text names the table as the game does and writes
a position in the middle of a turn as that start and those moves.  The searchers' copies
(``clone``) keep none, so the hot contract pays one test of a NULL pointer for it.
"""
from libc.stdint cimport uint64_t, uint8_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset

from roost.core.rng cimport Rng, rng_below, rng_seed
from roost.core.state cimport State, MAX_MOVES
from roost.core.wingspan.tables cimport *
from roost.core.wingspan.state cimport Core, Script, Record, LOGCAP
from roost.core.wingspan.record cimport at_start, record_start, record_move, record_told
from roost.core.wingspan.machine cimport gen, apply, settle, core_key
from roost.core.wingspan.machine cimport playout as core_playout, finish_turn
from roost.core.wingspan.scoring cimport score, score_parts, final_outcome, bonus_points, goal_count
from roost.core.wingspan.scoring cimport evaluate as core_evaluate
from roost.core.wingspan.information cimport determinize as core_determinize, observe as core_observe
from roost.core.wingspan.setup cimport deal
from roost.core.wingspan.payments cimport play_ok
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

    cdef Record* rec          # the turn so far (NULL in a searcher's copies); before the
                              # struct, so that play() reads it beside the object's header
    cdef Core c

    def __cinit__(self):
        self.n_players = 2
        self.hidden_info = True
        self.perft_expands_chance = False
        self.c.n = 2

    def __dealloc__(self):
        free(self.rec)

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
        if self.rec != NULL:
            self.keep_record(<Wingspan>other)

    cdef int legal_moves(self, int* out) noexcept nogil:
        if self.c.phase == PH_OVER:
            return 0
        return gen(&self.c, out)

    cdef void play(self, int move) noexcept nogil:
        cdef int buf[MAX_MOVES]
        if self.rec != NULL:
            self.play_recorded(move)
            return
        apply(&self.c, move)
        settle(&self.c, buf)

    cdef double evaluate(self, int player) noexcept nogil:
        return core_evaluate(&self.c, player)

    cdef void determinize(self, int observer, Rng* rng) noexcept nogil:
        core_determinize(&self.c, observer, rng)

    cdef int observe(self, int move, int observer) noexcept nogil:
        return core_observe(&self.c, move, observer)

    cdef int playout(self, Rng* rng, int max_plies) noexcept nogil:
        if self.rec != NULL:
            return self.play_on_recorded(rng, max_plies, False)
        return core_playout(&self.c, rng, max_plies)

    cdef int quiesce(self, Rng* rng) noexcept nogil:
        if self.rec != NULL:
            return self.play_on_recorded(rng, 1 << 30, True)
        return finish_turn(&self.c, rng)

    # ---------------------------------------------------------------- the record of the turn
    cdef void play_recorded(self, int move) noexcept nogil:
        """play() that records: a turn starting here starts the record, then the move and
        the outcomes a replay's script told for it are logged.  A forced move (played where
        a random playout stopped before it) is not logged: replaying the move before it
        plays it, as play() does."""
        cdef int buf[MAX_MOVES]
        cdef int first = 0
        cdef bint forced = gen(&self.c, buf) == 1
        if at_start(&self.c):
            record_start(self.rec, &self.c)
        if self.c.script != NULL:
            first = self.c.script.pos
        apply(&self.c, move)
        settle(&self.c, buf)
        if forced:
            return
        record_move(self.rec, move)
        if self.c.script != NULL:
            record_told(self.rec, self.c.script, first)

    cdef int play_on_recorded(self, Rng* rng, int max_plies, bint to_next_turn) noexcept nogil:
        """The random playout (or, with ``to_next_turn``, the play to the next turn's first
        decision) of machine.pyx, drawing the same moves, recorded."""
        cdef int moves[MAX_MOVES]
        cdef int plies = 0, n, m
        while plies < max_plies:
            n = gen(&self.c, moves)
            if n == 0 or (to_next_turn and self.c.st[self.c.nst - 1].f == FR_ACT):
                break
            if n == 1:
                apply(&self.c, moves[0])
                continue
            m = moves[rng_below(rng, n)]
            if at_start(&self.c):
                record_start(self.rec, &self.c)
            apply(&self.c, m)
            record_move(self.rec, m)
            plies += 1
        return plies

    cdef void keep_record(self, Wingspan other) noexcept nogil:
        """This position now is ``other``'s: its record too (or none known)."""
        if other.rec != NULL:
            self.rec[0] = other.rec[0]
        else:
            self.rec.lost = True
            self.rec.n = 0

    cdef void new_record(self) noexcept:
        if self.rec == NULL:
            self.rec = <Record*>malloc(sizeof(Record))
            if self.rec == NULL:
                raise MemoryError()
        self.rec.lost = True
        self.rec.n = 0
        if at_start(&self.c):
            record_start(self.rec, &self.c)

    def _record(self):
        """The turn so far: (the fields of the position where it started, the log bytes),
        or None when it is not known (a position read in the middle of a turn from the
        JSON form, until its turn ends).  A position at a turn's start is its own start."""
        if at_start(&self.c):
            return dump(&self.c), b""
        if self.rec == NULL or self.rec.lost:
            return None
        return dump(&self.rec.start), bytes(self.rec.log[:self.rec.n])

    def _replay_move(self, int move, bytes outcomes=b"", bint tracing=False, bint step=False):
        """Plays ``move`` as ``play`` does (recorded) under a script: the chance ``outcomes``
        told (state.pxd), and with ``tracing`` every outcome (told or drawn) written down.  With ``step``
        the move alone is applied and the automatic steps run to the next decision, forced
        moves not played: a replay that must see every move.  Returns (the number of moves at
        the node reached, bytes of the script used, its fault: 0 or 1 + the position of an
        outcome that could not be, the outcomes traced)."""
        cdef int buf[MAX_MOVES]
        cdef Script S
        cdef int n = 0
        cdef bint forced
        S.data = <uint8_t*><const unsigned char*>outcomes
        S.pos = 0
        S.n = len(outcomes)
        S.fault = 0
        S.tpos = 0
        S.tcap = 65536 if tracing else 0
        S.trace = <uint8_t*>malloc(S.tcap) if tracing else NULL
        if tracing and S.trace == NULL:
            raise MemoryError()
        forced = self.c.phase != PH_OVER and gen(&self.c, buf) == 1
        if self.rec != NULL and at_start(&self.c):
            record_start(self.rec, &self.c)
        self.c.script = &S
        try:
            apply(&self.c, move)
            if self.c.phase != PH_OVER:
                n = gen(&self.c, buf) if step else settle(&self.c, buf)
        finally:
            self.c.script = NULL
        if self.rec != NULL:
            if not forced:
                record_move(self.rec, move)
            record_told(self.rec, &S, 0)
        out = b""
        if tracing:
            out = bytes(S.trace[:S.tpos])
            free(S.trace)
        return n, S.pos, S.fault, out

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
        s.new_record()
        return s

    @classmethod
    def parse(cls, text, settle=False):
        """Parse a position text (docs/rules/wingspan-text.md; one JSON object, or a file
        holding it), a seat's view (``view``; its unseen cards dealt in a fixed way,
        views.py), or the JSON form of earlier versions (jsonform.py).  A JSON form must be
        at a decision node; with ``settle=True`` one whose pending step is automatic or
        forced is accepted and advanced to the next decision node (for building test
        positions by hand)."""
        from roost.core.wingspan import text as _text
        return _text.parse(cls, text, settle)

    def text(self):
        from roost.core.wingspan import text as _text
        return _text.to_text(self)

    def view(self, int observer):
        """The position text as seat ``observer`` sees it (views.py): the cards it has not
        seen as ``?``, the decks and the seed left out, another seat's secret choices as
        ``?``.  ``parse`` reads it back to a position whose view is this text."""
        from roost.core.wingspan import views as _views
        if not 0 <= observer < self.c.n:
            raise GameError(f"observer must be a seat 0..{self.c.n - 1}, not {observer}")
        return _views.to_text(self, observer)

    # -- the bridge to the plain-Python modules
    def _raw(self):
        """Every field of the position as plain values (position.pyx), and under "record"
        the record of its turn (``_record()``, None when not known)."""
        raw = dump(&self.c)
        raw["record"] = None if at_start(&self.c) else self._record()
        return raw

    @classmethod
    def _load(cls, dict raw):
        """A position from plain values that text.py has checked (not settled), with the
        record of its turn when ``raw`` has one."""
        cdef Wingspan s = _blank(cls, raw["n"])
        load(&s.c, raw)
        s.new_record()
        if raw.get("record") is not None:
            s._keep_record(raw["record"])
        return s

    def _keep_record(self, rec):
        """Takes ``rec`` (the fields of the turn's start, the log bytes: ``_record()``) as
        the record of this position's turn."""
        start, log = rec
        if len(log) > LOGCAP:
            raise ValueError(f"record: {len(log)} log bytes, room for {LOGCAP}")
        self.new_record()
        if at_start(&self.c):
            return
        load(&self.rec.start, start)
        self.rec.n = len(log)
        for i, x in enumerate(log):
            self.rec.log[i] = x
        self.rec.lost = False

    def _settle(self):
        """Runs automatic steps and forced moves; returns the number of moves at the node
        reached (0 when the game is over)."""
        cdef int buf[MAX_MOVES]
        cdef int n
        if self.c.phase == PH_OVER:
            return 0
        n = settle(&self.c, buf)
        if self.rec != NULL:
            self.new_record()
        return n

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

    def _can_play(self, int seat, int b):
        """Seat ``seat`` could play bird ``b`` in some habitat, were it in its hand (§3.3)."""
        return any(play_ok(&self.c.pl[seat], b, h) for h in range(3))

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

    # -- copies handed to Python keep the record of the turn
    def copy(self):
        cdef Wingspan s = <Wingspan>self.clone()
        s.new_record()
        s.keep_record(self)
        return s

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def determinized(self, int observer, seed):
        """A full position consistent with what ``observer`` knows, drawn with ``seed``
        (the determinization of §6.4), with the record of its turn (worlds.py)."""
        cdef Rng rng
        cdef Wingspan s = <Wingspan>self.clone()
        from roost.core.wingspan import worlds as _worlds
        rng_seed(&rng, <uint64_t>seed)
        s.determinize(observer, &rng)
        s.new_record()
        if not at_start(&s.c):
            return _worlds.recorded(self, s, observer) or s
        return s


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
