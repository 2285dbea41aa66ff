"""Feed the Ducks (rules: ../shared/rules/feed-the-ducks.md).

The 61 cells are bits 0..60 of a 64-bit word in the order a1..a5, b1..b6, .., i1..i5.
Along any of the six directions the bit index is monotone, so each ray from a cell is a
mask whose nearest cell is either its lowest or its highest bit: a swim is a pext of the
ducks' colours along the ray followed by a pdep into the cells next to the crumb.

Move ids: 0..60 a crumb on that cell; 64 + cell a white duck, 128 + cell a black duck
(setup placements).
"""
import operator

from libc.stdint cimport uint64_t
from libc.string cimport memcpy
from libc.math cimport exp

from roost.core.bits cimport popcount, lsb, pext, pdep, clear_lsb
from roost.core.rng cimport Rng, rng_seed, rng_next, rng_below, splitmix64
from roost.core.state cimport State, CHANCE, two_player_outcome, MAX_MOVES
from roost.core.interrupt cimport interrupted
from roost.core.errors import PositionError, MoveError, GameError

DEF NCELLS = 61
DEF DUCKS_PER_COLOUR = 12
DEF SETUP_PLACEMENTS = 24
DEF PLY_CAP = 300
DEF MAX_HIST = 304
DEF WHITE_DUCK = 64
DEF BLACK_DUCK = 128

cdef int ROW_LEN[9]
cdef int ROW_START[9]
cdef int CELL_Q[NCELLS]
cdef int CELL_R[NCELLS]
cdef int CELL_ROW[NCELLS]
cdef uint64_t RAY[NCELLS][6]
cdef uint64_t RAY_NEAR[NCELLS][6][10]   # RAY_NEAR[c][d][k]: the k cells of ray d nearest c
cdef uint64_t LINES[NCELLS]             # the cell's six rays together
cdef uint64_t ADJ[NCELLS]
cdef uint64_t EDGE
cdef uint64_t BOARD
cdef uint64_t Z_WHITE[NCELLS]
cdef uint64_t Z_BLACK[NCELLS]
cdef uint64_t Z_CRUMB[NCELLS]
cdef uint64_t Z_SIDE

ROW_NAMES = "abcdefghi"
_DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
_INDEX = {}


def _init_tables():
    global EDGE, BOARD, Z_SIDE
    cdef int y, c, i, d, k, q, r, n, idx
    cdef uint64_t seed = 0x0DDC0FFEE
    lens = [5, 6, 7, 8, 9, 8, 7, 6, 5]
    idx = 0
    for y in range(9):
        ROW_LEN[y] = lens[y]
        ROW_START[y] = idx
        r = y - 4
        for c in range(lens[y]):
            q = max(-4, -4 - r) + c
            CELL_Q[idx] = q
            CELL_R[idx] = r
            CELL_ROW[idx] = y
            _INDEX[(q, r)] = idx
            idx += 1
    EDGE = 0
    BOARD = (<uint64_t>1 << NCELLS) - 1
    for i in range(NCELLS):
        q, r = CELL_Q[i], CELL_R[i]
        if max(abs(q), abs(r), abs(q + r)) == 4:
            EDGE |= <uint64_t>1 << i
        ADJ[i] = 0
        LINES[i] = 0
        for d in range(6):
            dq, dr = _DIRS[d]
            if (q + dq, r + dr) in _INDEX:
                ADJ[i] |= <uint64_t>1 << _INDEX[(q + dq, r + dr)]
            RAY[i][d] = 0
            RAY_NEAR[i][d][0] = 0
            n = 0
            qq, rr = q + dq, r + dr
            while (qq, rr) in _INDEX:
                RAY[i][d] |= <uint64_t>1 << _INDEX[(qq, rr)]
                n += 1
                RAY_NEAR[i][d][n] = RAY[i][d]
                qq, rr = qq + dq, rr + dr
            for k in range(n + 1, 10):
                RAY_NEAR[i][d][k] = RAY[i][d]
            LINES[i] |= RAY[i][d]
    for i in range(NCELLS):
        Z_WHITE[i] = splitmix64(&seed)
        Z_BLACK[i] = splitmix64(&seed)
        Z_CRUMB[i] = splitmix64(&seed)
    Z_SIDE = splitmix64(&seed)


_init_tables()


def cell_name(int cell):
    """``cell_name(30) == 'e5'``"""
    if not 0 <= cell < NCELLS:
        raise MoveError(f"{cell} is not a cell index (0..60)")
    y = CELL_ROW[cell]
    return f"{ROW_NAMES[y]}{cell - ROW_START[y] + 1}"


def _is_number(str s):
    """ASCII digits only: str.isdigit() also admits superscripts and other scripts' digits,
    which int() rejects or reads silently."""
    return s.isascii() and s.isdigit()


def parse_cell(str name):
    """``parse_cell('e5') == 30``; raises MoveError for a name that is not a cell."""
    s = name.strip().lower()
    if len(s) < 2 or s[0] not in ROW_NAMES or not _is_number(s[1:]):
        raise MoveError(f"{name!r} is not a cell name (a1..i5)")
    y = ROW_NAMES.index(s[0])
    col = int(s[1:])
    if not 1 <= col <= ROW_LEN[y]:
        raise MoveError(f"{name!r} is not a cell: row {s[0]} has cells 1..{ROW_LEN[y]}")
    return ROW_START[y] + col - 1


cdef inline uint64_t swim(uint64_t* white, uint64_t* black, int c) noexcept nogil:
    """Every duck on the six lines of cell c packs up against it; returns the cells that
    changed (for the caller's hash update)."""
    cdef uint64_t w = white[0], b = black[0], occ = w | b
    cdef uint64_t ray, o, target, nw, changed = 0
    cdef int d, k
    for d in range(6):
        ray = RAY[c][d]
        o = occ & ray
        if o == 0:
            continue
        k = popcount(o)
        target = RAY_NEAR[c][d][k]
        if target == o:
            continue
        # pext/pdep keep the ducks' order: the i-th duck by bit index lands on the
        # i-th target cell by bit index, and ray order is bit order (monotone).
        nw = pdep(pext(w, o), target)
        changed |= o | target
        w = (w & ~ray) | nw
        b = (b & ~ray) | (target & ~nw)
    white[0] = w
    black[0] = b
    return changed


cdef inline bint gathered(uint64_t ducks) noexcept nogil:
    """All ducks of one colour in one hex-connected group (flood fill from the lowest)."""
    cdef uint64_t group = ducks & (0 - ducks)
    cdef uint64_t frontier = group, grown, f
    while frontier:
        grown = 0
        f = frontier
        while f:
            grown |= ADJ[lsb(f)]
            f = clear_lsb(f)
        frontier = grown & ducks & ~group
        group |= frontier
    return group == ducks


cdef inline int groups_and_links(uint64_t ducks, int* links) noexcept nogil:
    """Connected groups of one colour, and (into links) the number of adjacent pairs,
    in one pass of flood fills: each duck's neighbour mask is read once."""
    cdef int groups = 0, l = 0, d
    cdef uint64_t left = ducks, group, frontier, grown, nb
    while left:
        group = left & (0 - left)
        frontier = group
        while frontier:
            grown = 0
            while frontier:
                d = lsb(frontier)
                nb = ADJ[d]
                grown |= nb
                l += popcount(nb & ducks)
                frontier = clear_lsb(frontier)
            frontier = grown & ducks & ~group
            group |= frontier
        left &= ~group
        groups += 1
    links[0] = l // 2
    return groups


cdef inline uint64_t crumb_targets(uint64_t occ, int crumb) noexcept nogil:
    if crumb < 0:
        return BOARD & ~occ
    return BOARD & ~occ & ~LINES[crumb] & ~(<uint64_t>1 << crumb)


cdef unsigned long long perft_bulk(uint64_t w, uint64_t b, int crumb, int depth) noexcept nogil:
    """Perft of the play phase (repetition and cap ignored, as the rules file says)."""
    cdef uint64_t targets = crumb_targets(w | b, crumb)
    cdef uint64_t nw, nb
    cdef unsigned long long total = 0
    cdef int c
    if depth == 1:
        return popcount(targets)
    if interrupted():
        return 0
    while targets:
        c = lsb(targets)
        targets = clear_lsb(targets)
        nw = w
        nb = b
        swim(&nw, &nb, c)
        if gathered(nw) or gathered(nb):
            continue  # the game ends: a leaf at depth 1 only
        total += perft_bulk(nw, nb, c, depth - 1)
    return total


cdef unsigned long long perft_setup(uint64_t w, uint64_t b, int depth) noexcept nogil:
    cdef int nw = popcount(w), nb = popcount(b)
    cdef uint64_t free_edge
    cdef unsigned long long total = 0
    cdef int c
    if nw + nb == SETUP_PLACEMENTS:
        return perft_bulk(w, b, -1, depth)
    free_edge = EDGE & ~(w | b)
    if depth == 1:
        return popcount(free_edge) * ((nw < DUCKS_PER_COLOUR) + (nb < DUCKS_PER_COLOUR))
    if interrupted():
        return 0
    while free_edge:
        c = lsb(free_edge)
        free_edge = clear_lsb(free_edge)
        if nw < DUCKS_PER_COLOUR:
            total += perft_setup(w | (<uint64_t>1 << c), b, depth - 1)
        if nb < DUCKS_PER_COLOUR:
            total += perft_setup(w, b | (<uint64_t>1 << c), depth - 1)
    return total


cdef inline uint64_t full_key(uint64_t w, uint64_t b, int crumb, int side) noexcept nogil:
    cdef uint64_t h = 0, f = w
    while f:
        h ^= Z_WHITE[lsb(f)]
        f = clear_lsb(f)
    f = b
    while f:
        h ^= Z_BLACK[lsb(f)]
        f = clear_lsb(f)
    if crumb >= 0:
        h ^= Z_CRUMB[crumb]
    if side:
        h ^= Z_SIDE
    return h

ctypedef struct DucksCore:
    uint64_t white
    uint64_t black
    uint64_t hkey
    int crumb        # -1 before the first crumb placement
    int side         # 0 white, 1 black
    int plies        # crumb placements made
    int result       # -1 undecided, 0 white won, 1 black won, 2 drawn
    int nhist        # entries of hist in use


cdef class Ducks(State):
    """A Feed the Ducks position.

    >>> s = Ducks.parse("5/6/7/8/9/8/7/6/5 w 0")
    >>> s.perft(2)
    2208
    >>> s.play_move("W@a1").text()
    '5/6/7/8/9/8/7/6/w4 b 0'
    """
    name = "ducks"

    cdef DucksCore c
    cdef uint64_t hist[MAX_HIST]   # keys of the parsed start (if a crumb is down) and after each crumb placement (repetition)

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
        return perft_bulk(self.c.white, self.c.black, self.c.crumb, depth)

    # ---------------------------------------------------------------- Python API
    def iter_divide(self, int depth):
        """As State.iter_divide (which divide uses); at a position drawn by repetition or
        the cap the moves are listed all the same (rules "Perft": both are ignored)."""
        cdef Ducks s = self
        if self.c.result == 2:
            s = self.clone()
            s.c.result = -1
        return State.iter_divide(s, depth)

    @classmethod
    def start(cls, players=2, seed=None):
        """The empty pond, White to place the first duck."""
        if players not in (None, 2):
            raise GameError(f"Feed the Ducks is a two-player game (asked for {players} players)")
        return cls.parse("5/6/7/8/9/8/7/6/5 w 0")

    @classmethod
    def parse(cls, text):
        """Parse ``<rows> <side> [<plies>]`` (rules file, Position text)."""
        cdef Ducks s = cls.__new__(cls)
        if not isinstance(text, str):
            raise PositionError("a Feed the Ducks position must be text")
        fields = text.split()
        if len(fields) not in (2, 3):
            raise PositionError(
                f"a Feed the Ducks position has 2 or 3 fields (<rows> <side> [<plies>]), got {len(fields)}")
        rows = fields[0].split("/")
        if len(rows) != 9:
            raise PositionError(f"the board needs 9 rows separated by '/', got {len(rows)}")
        crumbs = []
        for t, row in enumerate(rows):
            y = 8 - t
            col = 0
            for ch in row:
                if ch in "123456789":
                    col += int(ch)
                    continue
                if ch not in "wb*":
                    raise PositionError(f"unknown character {ch!r} in row {ROW_NAMES[y]} ({row!r})")
                if col >= ROW_LEN[y]:
                    break
                cell = ROW_START[y] + col
                if ch == "w":
                    s.c.white |= <uint64_t>1 << cell
                elif ch == "b":
                    s.c.black |= <uint64_t>1 << cell
                else:
                    crumbs.append(cell)
                col += 1
            else:
                if col == ROW_LEN[y]:
                    continue
            raise PositionError(
                f"row {ROW_NAMES[y]} ({row!r}) must describe {ROW_LEN[y]} cells, it describes "
                f"{'more' if col >= ROW_LEN[y] else col}")
        side = fields[1]
        if side not in ("w", "b"):
            raise PositionError(f"the side to move must be 'w' or 'b', got {side!r}")
        s.c.side = 0 if side == "w" else 1
        plies = 0
        if len(fields) == 3:
            if not _is_number(fields[2]):
                raise PositionError(f"plies must be a non-negative integer, got {fields[2]!r}")
            plies = int(fields[2])
            if plies > PLY_CAP:
                raise PositionError(f"plies {plies} is beyond the {PLY_CAP}-placement cap")
        s.c.plies = plies
        nw, nb = popcount(s.c.white), popcount(s.c.black)
        if nw > DUCKS_PER_COLOUR:
            raise PositionError(f"{nw} white ducks: there are only {DUCKS_PER_COLOUR}")
        if nb > DUCKS_PER_COLOUR:
            raise PositionError(f"{nb} black ducks: there are only {DUCKS_PER_COLOUR}")
        if len(crumbs) > 1:
            raise PositionError("two crumbs on the board (" + ", ".join(cell_name(c) for c in crumbs) + ")")
        if nw + nb < SETUP_PLACEMENTS:
            off = (s.c.white | s.c.black) & ~EDGE
            if off:
                raise PositionError(
                    f"a duck on {cell_name(lsb(off))} during setup: setup ducks stand on edge cells only")
            if crumbs:
                raise PositionError(f"a crumb on {cell_name(crumbs[0])} during setup ({nw + nb} of 24 ducks placed)")
            if plies:
                raise PositionError(f"plies is {plies} during setup: no crumb has been placed yet")
            if s.c.side != (nw + nb) % 2:
                raise PositionError(
                    f"after {nw + nb} setup placements it is {'White' if (nw + nb) % 2 == 0 else 'Black'}'s turn, "
                    f"not {'White' if s.c.side == 0 else 'Black'}'s")
        else:
            if crumbs:
                s.c.crumb = crumbs[0]
                if gathered(s.c.white) or gathered(s.c.black):
                    who = "white" if gathered(s.c.white) else "black"
                    raise PositionError(
                        f"the game is already decided: a crumb is on the board and the {who} ducks are gathered")
            elif plies:
                raise PositionError(f"plies is {plies} but no crumb is on the board")
        s.c.hkey = full_key(s.c.white, s.c.black, s.c.crumb, s.c.side)
        if s.c.plies >= PLY_CAP:
            s.c.result = 2
        elif s.c.crumb >= 0:
            # the position the game is taken up from has occurred once (repetition)
            s.hist[0] = s.c.hkey
            s.c.nhist = 1
        return s

    def text(self):
        out = []
        for y in range(8, -1, -1):
            row = ""
            empty = 0
            for col in range(ROW_LEN[y]):
                cell = ROW_START[y] + col
                bit = <uint64_t>1 << cell
                ch = "w" if self.c.white & bit else "b" if self.c.black & bit else "*" if cell == self.c.crumb else ""
                if not ch:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                row += ch
            if empty:
                row += str(empty)
            out.append(row)
        return f"{'/'.join(out)} {'wb'[self.c.side]} {self.c.plies}"

    def move_name(self, move):
        try:
            move = operator.index(move)
        except TypeError:
            raise MoveError(f"{move!r} is not a Feed the Ducks move id") from None
        if 0 <= move < NCELLS:
            return cell_name(move)
        if WHITE_DUCK <= move < WHITE_DUCK + NCELLS:
            return "W@" + cell_name(move - WHITE_DUCK)
        if BLACK_DUCK <= move < BLACK_DUCK + NCELLS:
            return "B@" + cell_name(move - BLACK_DUCK)
        raise MoveError(f"{move} is not a Feed the Ducks move id")

    def parse_move(self, str name):
        s = name.strip()
        if "@" in s:
            colour, _, cell = s.partition("@")
            if colour.upper() not in ("W", "B"):
                raise MoveError(f"{name!r}: a setup move is W@<cell> or B@<cell>")
            return (WHITE_DUCK if colour.upper() == "W" else BLACK_DUCK) + parse_cell(cell)
        return parse_cell(s)

    @property
    def phase(self):
        return "setup" if popcount(self.c.white | self.c.black) < SETUP_PLACEMENTS else "play"

    def render(self, observer=None):
        """The pond as a hexagon, row i on top: ``W``/``B`` ducks, ``*`` the crumb, ``.`` water."""
        lines = []
        for y in range(8, -1, -1):
            cells = []
            for col in range(ROW_LEN[y]):
                cell = ROW_START[y] + col
                bit = <uint64_t>1 << cell
                cells.append("W" if self.c.white & bit else "B" if self.c.black & bit
                             else "*" if cell == self.c.crumb else ".")
            lines.append(f"{ROW_NAMES[y]}  " + " " * (9 - ROW_LEN[y]) + " ".join(cells))
        lines.append("   " + "   columns count from 1 at the left of each row")
        if self.c.result >= 0:
            status = ["White has gathered and wins", "Black has gathered and wins", "Drawn"][self.c.result]
        else:
            status = f"{'White' if self.c.side == 0 else 'Black'} to {'place a duck' if self.phase == 'setup' else 'place the crumb'}"
        lines.append(f"{status}; {self.c.plies} crumb placements")
        return "\n".join(lines)
