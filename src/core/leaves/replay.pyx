"""One garden replayed on its own, with any set of cards checked at once: the tests (the
scripts of docs/rules/leaves.md §13.1 check all 12), the pictures and Leaves.piece_squares
use it."""
from libc.stdint cimport uint64_t
from libc.string cimport memcpy, memset

from roost.core.leaves.tables cimport init_tables, OTYPE, OMUSH, NTILES, NCARDS, OFF, SOFF, MAXG
from roost.core.leaves.garden cimport (Garden, Rec, garden_init, place_and_check, on_frontier,
                                       slot_bit, frontier_list)
from roost.core.errors import MoveError
from roost.core.leaves.tiles import CARD_CODES, CARD_NAMES, TYPE_LETTERS, card_index
from roost.core.leaves import text as _text

init_tables()


cdef class GardenReplay:
    """One garden replayed on its own, with any set of cards checked at once.

    >>> g = GardenReplay(0)
    >>> g.play("38@(1,0)o0")["Sk"]
    1
    """
    cdef Garden g
    cdef uint64_t used[NCARDS][32]
    cdef int counts[NCARDS]
    cdef int cards[NCARDS]
    cdef int ncards
    cdef Rec rec
    cdef list _where      # per card in the list: [(u, v)]

    def __init__(self, start, cards=None):
        if isinstance(start, str):
            if start not in ("S0", "S1", "S2", "S3"):
                raise ValueError(f"starting tile must be S0..S3, got {start!r}")
            start = int(start[1])
        if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start <= 3:
            raise ValueError(f"starting tile must be 0..3, got {start!r}")
        if cards is None:
            cards = CARD_CODES
        idx = [card_index(c) for c in cards]
        if len(set(idx)) != len(idx):
            raise ValueError("a card is listed twice")
        self.ncards = len(idx)
        for k, c in enumerate(idx):
            self.cards[k] = c
            self.counts[k] = 0
        memset(self.used, 0, sizeof(self.used))
        garden_init(&self.g, start)
        self._where = [[] for _ in idx]

    def set_cards(self, cards):
        """Change the cards checked from the next placement on (a card that stays keeps
        its pieces and used set, a new one starts empty).  A test device for "when a check
        first sees ..." situations of §13 that legal play with the card in from the start
        cannot reach.  Only Explorer scans the whole garden: every other card checks around
        the tile just placed (exact only while the card has been checked from the start),
        so a card turned on here sees only what later tiles touch."""
        cdef int k, j
        cdef uint64_t old_used[NCARDS][32]
        cdef int old_counts[NCARDS]
        idx = [card_index(c) for c in cards]
        if len(set(idx)) != len(idx):
            raise ValueError("a card is listed twice")
        old = [self.cards[k] for k in range(self.ncards)]
        memcpy(old_used, self.used, sizeof(self.used))
        memcpy(old_counts, self.counts, sizeof(self.counts))
        where = self._where
        memset(self.used, 0, sizeof(self.used))
        self._where = []
        for k, c in enumerate(idx):
            self.cards[k] = c
            self.counts[k] = 0
            self._where.append([])
            if c in old:
                j = old.index(c)
                memcpy(self.used[k], old_used[j], sizeof(self.used[k]))
                self.counts[k] = old_counts[j]
                self._where[k] = where[j]
        self.ncards = len(idx)

    def place(self, int tile, int x, int y, int o):
        """Place tile (0..49) at slot (x,y) in orientation o and run every check; returns
        the pieces gained per card code (cards that gained nothing are left out)."""
        cdef int k
        cdef int before[NCARDS]
        if not 0 <= tile < NTILES:
            raise MoveError(f"there is no tile {tile}")
        if not 0 <= o < 8:
            raise MoveError(f"orientation {o} is not 0..7")
        if self.g.ntiles >= MAXG:
            raise MoveError("the garden already holds 13 tiles")
        if any(e[0] == tile for e in self.entries()):
            raise MoveError(f"tile {tile} is already in this garden")
        if not on_frontier(&self.g, x, y):
            raise MoveError(f"slot ({x},{y}) is not on the frontier")
        for k in range(self.ncards):
            before[k] = self.counts[k]
        self.rec.n = 0
        place_and_check(&self.g, tile, x, y, o, self.cards, self.ncards, &self.used[0][0],
                        self.counts, &self.rec)
        for k in range(self.rec.n):
            card = self.rec.card[k]
            for j in range(self.ncards):
                if self.cards[j] == card:
                    self._where[j].append((self.rec.u[k], self.rec.v[k]))
        return {CARD_CODES[self.cards[k]]: self.counts[k] - before[k]
                for k in range(self.ncards) if self.counts[k] != before[k]}

    def play(self, str text):
        """Place a tile written as in a garden list: ``38@(1,0)o0``."""
        tile, x, y, o = _text.parse_placement(text)
        return self.place(tile, x, y, o)

    def entries(self):
        return [(self.g.ptile[j], self.g.px[j], self.g.py[j], self.g.po[j]) for j in range(self.g.ntiles)]

    @property
    def card_names(self):
        """The names of the cards checked, in order."""
        return [CARD_NAMES[self.cards[k]] for k in range(self.ncards)]

    @property
    def bees(self):
        return self.g.bees

    @property
    def hummingbirds(self):
        return self.g.humm

    def hummingbirds_at(self, int x, int y):
        """count(T) of the tile at slot (x, y) (§7), 0 for an empty slot."""
        cdef int w = x + SOFF
        if not (-13 <= x <= 13 and -13 <= y <= 13) or not (self.g.tiles[w] & slot_bit(y)):
            return 0
        if not (self.g.based[w] & slot_bit(y)):
            return 0
        return 1 + (1 if (self.g.based[w - 1] & self.g.based[w + 1] & slot_bit(y)) else 0) \
            + (1 if (self.g.based[w] & slot_bit(y - 1)) and (self.g.based[w] & slot_bit(y + 1)) else 0)

    def pieces(self):
        """Pieces per card code, every card checked."""
        return {CARD_CODES[self.cards[k]]: self.counts[k] for k in range(self.ncards)}

    def piece_squares(self, code):
        """Where the pieces of a card stand, [(u, v)] in the order they came (windows: the
        top-left square; sectors and components: their first square in reading order)."""
        c = card_index(code)
        for k in range(self.ncards):
            if self.cards[k] == c:
                return list(self._where[k])
        raise ValueError(f"card {code!r} is not checked in this garden")

    def frontier(self):
        return frontier_list(&self.g)

    def square(self, int u, int v):
        """'Y', 'P*', '~' ... for an existing square, None for a missing one."""
        cdef int r = v & 31, b = u + OFF
        if not (-26 <= u <= 27 and -27 <= v <= 26) or not (self.g.exist[r] >> b) & 1:
            return None
        if not (self.g.vlo <= v <= self.g.vhi):
            return None
        for t in range(6):
            if (self.g.typ[t][r] >> b) & 1:
                return TYPE_LETTERS[t] + ("*" if (self.g.mush[r] >> b) & 1 else "")
        return None

    def pollinated(self, int u, int v):
        cdef int r = v & 31, b = u + OFF
        return self.square(u, v) is not None and bool((self.g.poll[r] >> b) & 1)

    def bounds(self):
        """(umin, umax, vmin, vmax) of the squares."""
        return (2 * self.g.xlo, 2 * self.g.xhi + 1, self.g.vlo, self.g.vhi)

    def render_lines(self, legend=True):
        from roost.core.leaves.render import garden_lines
        return garden_lines(self, legend)

    def render(self):
        return "\n".join(self.render_lines())
