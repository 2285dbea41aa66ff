"""Tweeeet (rules: docs/rules/tweeeet.md): the position and the native contract.
The strip's layout and tables are in board.pxd, the flights in flights.pxd, the rows in
landscape.pxd, the turn in turns.pxd; the position text and names in text.py, the picture
in render.py.

Move ids: 0..179 a flight to that cell, 180 a pass.  Chance outcome ids (one landscape row)
are CHANCE_BASE + (arrangement * 64 + foods): arrangement 0..1259 numbers the ways to place
2 water (pair 0..35) then 3 bushes among the other 7 cells (0..34), foods is three base-4
digits (2..5 for the bushes from left to right, the leftmost most significant).  Their
names are the row's 9-character text, e.g. ``~..3.5~.2``.

Roost's decisions where the printed rules leave a choice (docs/rules/tweeeet.md §13):
- the nest row is laid automatically (no chance node: it has one outcome);
- the pass test lifts the other birds off the cells that are passable without them
  (grass, empty bushes, the start): a nest holding a bird stays impassable, so a bird whose
  only way runs through a nest dies (§6.2);
- a position in which every bird not in a nest can only pass would repeat forever; the
  game ends there, drawn (§6.4);
- the water-barrier test looks at the water cells on the board (removed rows are gone;
  §7.3).
"""
from libc.stdint cimport uint64_t
from libc.math cimport exp

from roost.core.bits cimport popcount, lsb, pdep, clear_lsb
from roost.core.rng cimport Rng, rng_seed, rng_below
from roost.core.state cimport State, CHANCE, two_player_outcome
from roost.core.state import move_id
from roost.core.tweeeet.board cimport (init_tables, cell_word, cell_bit, energy_key, ISNEST, ROWM, ROWSH,
                                       ROWW, Z, ZBIRD, ZCUR, NCOLS, NEST_ROW, NPAIRS, PASS,
                                       CHANCE_BASE, NOUT, START_CELL, SIGHT, T_WATER, T_EMPTY,
                                       T_FOOD, T_NEST)
from roost.core.tweeeet.flights cimport terrain, reach, distance_to, best_gain
from roost.core.tweeeet.landscape cimport pair_makes_barrier, lay_landscape, sample_row
from roost.core.tweeeet.turns cimport resolve, after_rows, fly, do_pass, finish_nested
from roost.core.tweeeet.features cimport N_FEATURES, tweeeet_features
from roost.core.linear cimport two_player_share, WEIGHT_ROWS
from roost.core.errors import GameError, PositionError
from roost.core.tweeeet import text as _text, render as _render
from roost.core.tweeeet.text import EXAMPLE
from roost.core.weights import LinearEval

init_tables()

# The evaluation's weights (features.pxd names the features); EVALUATION sets them.
cdef double EVAL_W[WEIGHT_ROWS][N_FEATURES]


def _install_weights(int players, weights):
    cdef int i
    for i in range(N_FEATURES):
        EVAL_W[players][i] = weights[i]


EVALUATION = LinearEval(
    "tweeeet",
    ("energy", "gain", "climb", "stuck", "mover_gain", "to_move", "nested"),
    # the hand-set evaluation: energy, half the best gain, a quarter point a row to climb,
    # 25 points for a bird with nothing in reach, the difference divided by 4; and the
    # tempo: the bird to move takes its best gain now, so that gain counts in full like
    # energy (without it alpha-beta's value swings with the parity of its depth, since the
    # side that moved last has eaten and the other has not: docs/strength.md)
    {2: (0.25, 0.125, -0.0625, -6.25, 0.125, 0.0, 0.0)},
    _install_weights, (2,))


cdef inline uint64_t full_key(TwCore* c) noexcept nogil:
    cdef uint64_t h = 0
    cdef int y, x, cell, b
    for y in range(c.low, c.high + 1):
        for x in range(NCOLS):
            cell = 9 * y + x
            if c.exist[ROWW[y]] & cell_bit(cell):
                h ^= Z[cell][terrain(c, cell)]
    for b in range(4):
        h ^= ZBIRD[b][c.pos[b]] ^ energy_key(b, c.energy[b])
    return h ^ ZCUR[c.cur]


cdef class Tweeeet(State):
    """A Tweeeet position.

    >>> s = Tweeeet.parse(EXAMPLE)
    >>> s.legal_names()[:3]
    ['d1', 'f1', 'i1']
    """
    name = "tweeeet"

    def __cinit__(self):
        self.n_players = 2
        self.hidden_info = False
        self.perft_expands_chance = False
        self.c.result = -1

    # ---------------------------------------------------------------- contract
    cdef int to_move(self) noexcept nogil:
        if self.c.high < self.c.lay_to:
            return CHANCE
        return self.c.cur & 1

    cdef bint over(self) noexcept nogil:
        return self.c.result >= 0

    cdef void outcome(self, double* out) noexcept nogil:
        two_player_outcome(self.c.result, out)

    cdef uint64_t key(self) noexcept nogil:
        return self.c.hkey

    cdef void assign(self, State other) noexcept nogil:
        self.c = (<Tweeeet>other).c

    cdef int legal_moves(self, int* out) noexcept nogil:
        cdef int n = 0, k
        cdef uint64_t f
        if self.c.result >= 0 or self.c.high < self.c.lay_to:
            return 0
        if self.c.can_pass:
            out[0] = PASS
            return 1
        for k in range(3):
            f = self.c.tgt[k]
            while f:
                out[n] = 63 * k + lsb(f)
                n += 1
                f = clear_lsb(f)
        return n

    cdef void play(self, int move) noexcept nogil:
        if self.c.high < self.c.lay_to:
            lay_landscape(&self.c, move - CHANCE_BASE)
            after_rows(&self.c)
        elif move == PASS:
            do_pass(&self.c)
        else:
            fly(&self.c, move)

    cdef uint64_t allowed_pairs(self) noexcept nogil:
        """Bit p: water pair p may be laid in the next row (no barrier a..i)."""
        cdef uint64_t mask = 0
        cdef int p
        for p in range(NPAIRS):
            if not pair_makes_barrier(&self.c, p):
                mask |= <uint64_t>1 << p
        return mask

    cdef int chance_count(self) noexcept nogil:
        if self.c.result >= 0 or self.c.high >= self.c.lay_to:
            return 0
        return popcount(self.allowed_pairs()) * 35 * 64

    cdef int chance_outcomes(self, int* out, double* probs) noexcept nogil:
        cdef int p, a, f, n = 0, i
        cdef double pr
        if self.c.result >= 0 or self.c.high >= self.c.lay_to:
            return 0
        for p in range(NPAIRS):
            if pair_makes_barrier(&self.c, p):
                continue
            for a in range(35 * p, 35 * p + 35):
                for f in range(64):
                    out[n] = CHANCE_BASE + a * 64 + f
                    n += 1
        pr = 1.0 / n
        for i in range(n):
            probs[i] = pr
        return n

    cdef int sample_chance(self, Rng* rng) noexcept nogil:
        return CHANCE_BASE + sample_row(&self.c, rng)

    cdef double evaluate(self, int player) noexcept nogil:
        # Each pair's expected final energy decides the game: a logistic model of the
        # result on the pairs' features (features.pxd), weights fitted from self-play by
        # `roost tune tweeeet` (EVALUATION).
        cdef double f[2][N_FEATURES]
        cdef double res[2]
        if self.c.result >= 0:
            self.outcome(res)
            return res[player]
        tweeeet_features(&self.c, 0, f[0])
        tweeeet_features(&self.c, 1, f[1])
        return two_player_share(EVAL_W[2], f[0], f[1], N_FEATURES, player)

    def eval_features(self, int player):
        """The evaluation's features of ``player`` here (EVALUATION.features names them)."""
        cdef double f[N_FEATURES]
        tweeeet_features(&self.c, player, f)
        return [f[i] for i in range(N_FEATURES)]

    cdef int playout(self, Rng* rng, int max_plies) noexcept nogil:
        # Specialised for speed: a random flight is the k-th set bit of the cached
        # target words; rows are drawn by rejection.
        cdef int plies = 0, n0, n1, n2, k
        cdef TwCore* c = &self.c
        while plies < max_plies and c.result < 0:
            if c.high < c.lay_to:
                lay_landscape(c, sample_row(c, rng))
                after_rows(c)
            elif c.can_pass:
                do_pass(c)
            else:
                n0 = popcount(c.tgt[0])
                n1 = popcount(c.tgt[1])
                n2 = popcount(c.tgt[2])
                k = rng_below(rng, n0 + n1 + n2)
                if k < n0:
                    fly(c, lsb(pdep(<uint64_t>1 << k, c.tgt[0])))
                elif k < n0 + n1:
                    fly(c, 63 + lsb(pdep(<uint64_t>1 << (k - n0), c.tgt[1])))
                else:
                    fly(c, 126 + lsb(pdep(<uint64_t>1 << (k - n0 - n1), c.tgt[2])))
            plies += 1
        return plies

    # ---------------------------------------------------------------- loading
    @classmethod
    def start(cls, players=2, seed=0):
        """A new game: rows 0..4 laid (rows 1..4 drawn from ``seed``), all birds on e0."""
        if players not in (None, 2):
            raise GameError(f"Tweeeet is a two-player game (asked for {players} players)")
        cdef Tweeeet s = cls.__new__(cls)
        cdef Rng rng
        cdef int b
        rng_seed(&rng, <uint64_t>((0 if seed is None else int(seed)) & 0xFFFFFFFFFFFFFFFF))
        s.c.exist[0] = ROWM[0] & ~(<uint64_t>1 | (<uint64_t>1 << 8))
        s.c.low = 0
        s.c.high = 0
        for b in range(4):
            s.c.pos[b] = START_CELL
            s.c.energy[b] = 6 + b
        s.c.cur = 0
        s.c.lay_to = SIGHT
        s.c.hkey = full_key(&s.c)
        while s.c.high < s.c.lay_to:
            lay_landscape(&s.c, sample_row(&s.c, &rng))
        after_rows(&s.c)
        return s

    # ---------------------------------------------------------------- the bridge to text.py
    @classmethod
    def _load(cls, dict raw):
        """A position from plain values text.py has checked: ``low``, ``rows`` (the terrain
        codes of the rows from low up, -1 for no cell), the birds' cells ``pos`` and
        ``energy``, the bird to move ``cur``, and ``lay_to``, the row up to which rows are
        laid before it moves.  Whether it flies, passes or dies is worked out here."""
        cdef Tweeeet s = cls.__new__(cls)
        cdef TwCore* c = &s.c
        cdef int y, x, t, w, b
        cdef uint64_t bit
        rows = raw["rows"]
        c.low = raw["low"]
        c.high = c.low + len(rows) - 1
        for y in range(c.low, c.high + 1):
            w = ROWW[y]
            for x in range(NCOLS):
                t = rows[y - c.low][x]
                bit = <uint64_t>1 << (ROWSH[y] + x)
                if t < 0:
                    continue
                c.exist[w] |= bit
                if t == T_WATER:
                    c.water[w] |= bit
                elif t == T_EMPTY:
                    c.empty[w] |= bit
                elif T_FOOD <= t < T_FOOD + 4:
                    c.food[t - T_FOOD][w] |= bit
                elif t == T_NEST:
                    c.nest[w] |= bit
        for b in range(4):
            c.pos[b] = raw["pos"][b]
            c.energy[b] = raw["energy"][b]
        c.cur = raw["cur"]
        c.result = -1
        c.hkey = full_key(c)
        c.lay_to = raw["lay_to"]
        if ISNEST[c.pos[0]] and ISNEST[c.pos[1]] and ISNEST[c.pos[2]] and ISNEST[c.pos[3]]:
            finish_nested(c)
        elif c.high >= c.lay_to:
            resolve(c)
        return s

    def _raw(self):
        """Every field of the position as plain values (what _load takes, and what follows
        from it: the result, whether the bird to move passes)."""
        return {"low": self.c.low, "high": self.c.high, "lay_to": self.c.lay_to,
                "cur": self.c.cur, "result": self.c.result, "can_pass": bool(self.c.can_pass),
                "pos": tuple(self.c.pos[b] for b in range(4)),
                "energy": tuple(self.c.energy[b] for b in range(4)),
                "rows": [self._terrain_row(y) for y in range(self.c.low, self.c.high + 1)]}

    def _terrain_row(self, int y):
        """Terrain codes of row y's 9 cells (-1: no cell there)."""
        cdef int x, cell
        out = []
        for x in range(NCOLS):
            cell = 9 * y + x
            if 0 <= y <= NEST_ROW and self.c.exist[cell_word(cell)] & cell_bit(cell):
                out.append(terrain(&self.c, cell))
            else:
                out.append(-1)
        return out

    # ---------------------------------------------------------------- Python API
    @classmethod
    def parse(cls, text):
        """Parse ``<low>:<rows> <MR> <MB> <FR> <FB> <to-move>`` (docs/rules/tweeeet.md §11)."""
        return _text.parse_position(cls, text)

    def text(self):
        return _text.position_text(self._raw())

    def ending(self):
        """Why the game ended (text.ending): ``died``, ``nested`` or ``blocked``; None while
        it goes on."""
        return _text.ending(self._raw())

    def move_name(self, move):
        return _text.move_name(move)

    def parse_move(self, name):
        return _text.parse_move(name)

    def legal(self):
        if self.to_move() == CHANCE and not self.over():
            return list(_chance_lists(self)[0])
        return State.legal(self)

    def chances(self):
        if self.to_move() == CHANCE and not self.over():
            return list(_chance_lists(self)[1])
        return State.chances(self)

    def is_legal(self, move):
        """As State.is_legal; at a chance node decided from the outcome id alone."""
        if self.over() or self.to_move() != CHANCE:
            return State.is_legal(self, move)
        code = move_id(move) - CHANCE_BASE
        if not 0 <= code < NOUT:
            return False
        return bool(self.allowed_pairs() >> ((code >> 6) // 35) & 1)

    # ---------------------------------------------------------------- inspection
    @property
    def bird_to_move(self):
        """The bird to move ('MR', 'MB', 'FR', 'FB')."""
        return _text.BIRDS[self.c.cur]

    def bird(self, name):
        """(cell name, energy) of a bird given as 'MR', 'MB', 'FR' or 'FB'."""
        b = _text.BIRDS.index(name)
        return _text.cell_name(self.c.pos[b]), self.c.energy[b]

    @property
    def rows(self):
        """(lowest row, highest laid row)."""
        return self.c.low, self.c.high

    def row_text(self, int y):
        if not self.c.low <= y <= self.c.high:
            raise ValueError(f"row {y} is not on the board")
        return _text.row_text(self._terrain_row(y))

    def distance(self, str target):
        """Steps of the shortest flight of the bird to move to ``target`` (None if it
        cannot fly there within its energy)."""
        cdef int cell = _text.parse_cell(target)
        cdef uint64_t t[3]
        reach(&self.c, self.c.cur, True, t)
        if not (t[cell_word(cell)] & cell_bit(cell)):
            return None
        return distance_to(&self.c, self.c.cur, cell)

    def render(self, observer=None):
        """The visible strip, top row first: ``~`` water, ``.`` grass, ``2``-``5`` food,
        ``o`` empty bush, ``N`` nest, ``S`` start; birds by initials (R/r the male/female
        robin, B/b the bluethroats) with their energies at the end of their row."""
        return _render.render(self)


# The outcome lists of a chance node depend only on which water pairs the next row may
# take: built once per such set and kept (legal() and chances() at a chance node returned a
# fresh 80,640-entry list from the native enumeration on every call).
_CHANCE_LISTS = {}
_CHANCE_LISTS_KEPT = 64
_chance_lists_built = 0


def _chance_lists(Tweeeet s):
    """(outcome ids, [(id, probability)]) at the chance node s."""
    global _chance_lists_built
    cdef uint64_t pairs = s.allowed_pairs()
    lists = _CHANCE_LISTS.get(pairs)
    if lists is None:
        pairs_named = State.chances(s)
        lists = (tuple(o for o, _ in pairs_named), tuple(pairs_named))
        if len(_CHANCE_LISTS) >= _CHANCE_LISTS_KEPT:
            _CHANCE_LISTS.pop(next(iter(_CHANCE_LISTS)))
        _CHANCE_LISTS[pairs] = lists
        _chance_lists_built += 1
    return lists


def chance_lists_built():
    """How many chance-node outcome lists have been built (a test reads it)."""
    return _chance_lists_built


def playouts(str position, int n, seed=0):
    """Play ``n`` random games from ``position`` natively; returns (robin wins, bluethroat
    wins, draws, total plies).  For timing the native playout without Python overhead."""
    cdef Tweeeet root = Tweeeet.parse(position)
    cdef Tweeeet s = Tweeeet.parse(position)
    cdef Rng rng
    cdef int i
    cdef long long plies = 0
    cdef long wins0 = 0, wins1 = 0, draws = 0
    rng_seed(&rng, <uint64_t>seed)
    with nogil:
        for i in range(n):
            s.c = root.c
            plies += s.playout(&rng, 1000000)
            if s.c.result == 0:
                wins0 += 1
            elif s.c.result == 1:
                wins1 += 1
            else:
                draws += 1
    return wins0, wins1, draws, plies
