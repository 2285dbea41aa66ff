"""Under the Leaves (rules: docs/rules/leaves.md), 2 to 4 players: the
position and the native contract.  The tile tables are in tables.pxd, a garden and the
checks of a placement in garden.pyx, a garden replayed on its own in replay.pyx; the
position text and move names in text.py, the pictures in render.py.

Move ids: ``(i * 625 + slot) * 8 + o`` where i is the market index, slot =
``(x + 12) * 25 + (y + 12)`` (|x|, |y| <= 12 at every decision node) and o the
orientation, so ascending ids are the canonical order of §4.3.  Chance outcomes (refill
draws) are ``CHANCE_BASE + tile id`` (named ``d<id>``); the two ranges never overlap.
"""
from libc.stdint cimport uint64_t, uint32_t
from libc.string cimport memcpy, memset
from libc.stdlib cimport malloc, free
from libc.math cimport exp

from roost.core.bits cimport popcount, lsb, pdep, clear_lsb
from roost.core.rng cimport Rng, rng_seed, rng_below
from roost.core.state cimport State, CHANCE
from roost.core.interrupt cimport interrupted
from roost.core.leaves.tables cimport (init_tables, zmix, NTILES, SOFF, OFF, PUD, NSLOTNUM,
                                       CHANCE_BASE, Z_MARKET, Z_BAG, Z_TURN, Z_CARD, Z_PLAYER)
from roost.core.leaves.garden cimport (Garden, garden_init, garden_place, kth_frontier,
                                       frontier_list)
from roost.core.errors import GameError
from roost.core.leaves import text as _text, render as _render

init_tables()


# ---------------------------------------------------------------------------- the core
cdef inline uint64_t base_key(const Core* s) noexcept nogil:
    cdef uint64_t h = Z_TURN[s.turn & 63]
    cdef uint64_t f
    cdef int i
    f = s.market
    while f:
        h ^= Z_MARKET[lsb(f)]
        f = clear_lsb(f)
    f = s.bag
    while f:
        h ^= Z_BAG[lsb(f)]
        f = clear_lsb(f)
    for i in range(3):
        h ^= Z_CARD[s.cards[i]]
    return h


cdef inline void core_copy(Core* dst, const Core* src) noexcept nogil:
    memcpy(dst, src, <size_t>(<char*>&src.g[src.n] - <char*>src))


cdef inline bint core_over(const Core* s) noexcept nogil:
    return s.turn > 12 * s.n


cdef inline bint core_chance(const Core* s) noexcept nogil:
    return s.turn <= 12 * s.n and popcount(s.market) < 3


cdef void core_place(Core* s, int tile, int x, int y, int o) noexcept nogil:
    """The player to move places a market tile; checks run; the turn advances (§5)."""
    garden_place(&s.g[(s.turn - 1) % s.n], tile, x, y, o, s.cards, NULL)
    s.market &= ~((<uint64_t>1) << tile)
    s.hkey ^= Z_MARKET[tile] ^ Z_TURN[s.turn & 63] ^ Z_TURN[(s.turn + 1) & 63]
    s.turn += 1


cdef inline void core_draw(Core* s, int tile) noexcept nogil:
    cdef uint64_t bit = (<uint64_t>1) << tile
    s.bag &= ~bit
    s.market |= bit
    s.hkey ^= Z_BAG[tile] ^ Z_MARKET[tile]


cdef inline int kth_bit(uint64_t x, int k) noexcept nogil:
    return lsb(pdep((<uint64_t>1) << k, x))


cdef inline void decode_move(int move, int* i, int* x, int* y, int* o) noexcept nogil:
    cdef int rest = move >> 3, slot
    o[0] = move & 7
    slot = rest % NSLOTNUM
    i[0] = rest // NSLOTNUM
    x[0] = slot // 25 - 12
    y[0] = slot % 25 - 12


cdef inline int encode_move(int i, int x, int y, int o) noexcept nogil:
    return ((i * NSLOTNUM + (x + 12) * 25 + (y + 12)) << 3) + o


cdef inline void core_play(Core* s, int move) noexcept nogil:
    cdef int i, x, y, o
    if move >= CHANCE_BASE:
        core_draw(s, move - CHANCE_BASE)
        return
    decode_move(move, &i, &x, &y, &o)
    core_place(s, kth_bit(s.market, i), x, y, o)


cdef unsigned long long perft_core(Core* s, int depth, Core* scratch) noexcept nogil:
    """§12.  Bulk counting: at depth 1 a decision node has |market| x |frontier| x 8 moves,
    and every draw at a chance node with depth 1 leads to one with |market|+1 tiles."""
    cdef unsigned long long total = 0
    cdef Core* child = scratch
    cdef int p, nm, nf, i, k, x, y, o, tile
    cdef uint64_t f
    if depth == 0:
        return 1
    if core_over(s):
        return 0
    p = (s.turn - 1) % s.n
    nf = s.g[p].nfront
    nm = popcount(s.market)
    if nm < 3:
        if depth == 1:
            return <unsigned long long>popcount(s.bag) * (nm + 1) * nf * 8
        if interrupted():
            return 0
        f = s.bag
        while f:
            tile = lsb(f)
            f = clear_lsb(f)
            core_copy(child, s)
            core_draw(child, tile)
            total += perft_core(child, depth, scratch + 1)
        return total
    if depth == 1:
        return <unsigned long long>nm * nf * 8
    if interrupted():
        return 0
    for i in range(nm):
        tile = kth_bit(s.market, i)
        for k in range(nf):
            kth_frontier(&s.g[p], k, &x, &y)
            for o in range(8):
                core_copy(child, s)
                core_place(child, tile, x, y, o)
                total += perft_core(child, depth - 1, scratch + 1)
    return total


# ---------------------------------------------------------------------------- scoring
cdef void final_scores(const Core* s, int* score) noexcept nogil:
    """§9.1-2: bees + hummingbirds + pieces, plus +2 per category to everyone at the
    highest count of it (when that is at least 1)."""
    cdef int p, j, best
    for p in range(s.n):
        score[p] = s.g[p].bees + s.g[p].humm + s.g[p].pieces[0] + s.g[p].pieces[1] + s.g[p].pieces[2]
    for j in range(3):
        best = 0
        for p in range(s.n):
            if s.g[p].pieces[j] > best:
                best = s.g[p].pieces[j]
        if best >= 1:
            for p in range(s.n):
                if s.g[p].pieces[j] == best:
                    score[p] += 2


cdef inline long rank_value(const Core* s, const int* score, int p) noexcept nogil:
    # §9.3: score, then hummingbirds, then bees
    return (<long>score[p] * 1000 + s.g[p].humm) * 1000 + s.g[p].bees


cdef int domino_squares(const Garden* g) noexcept nogil:
    """Squares in unpollinated same-colour pairs (each pair is one square short of a new
    sector); components that are not pollinated have at most 2 squares."""
    cdef int v, c, n = 0
    cdef uint64_t t, ru, rd
    for v in range(g.vlo, g.vhi + 1):
        for c in range(5):
            t = g.typ[c][v & 31] & ~g.poll[v & 31]
            if not t:
                continue
            ru = g.typ[c][(v + 1) & 31] & ~g.poll[(v + 1) & 31]
            rd = g.typ[c][(v - 1) & 31] & ~g.poll[(v - 1) & 31]
            n += popcount(t & ((t << 1) | (t >> 1) | ru | rd))
    return n


cdef int near_based(const Garden* g) noexcept nogil:
    """Tiles without a hummingbird whose colour squares all but one are pollinated."""
    cdef int w, x, y, b, r0, r1, n = 0
    cdef uint32_t cand
    cdef uint64_t miss
    for w in range(g.xlo + SOFF, g.xhi + SOFF + 1):
        cand = g.tiles[w] & ~g.based[w]
        x = w - SOFF
        b = 2 * x + OFF
        while cand:
            y = lsb(cand) - SOFF
            cand &= cand - 1
            r0 = (2 * y) & 31
            r1 = (2 * y - 1) & 31
            miss = ((~(g.typ[PUD][r0] | g.poll[r0]) >> b) & 3) | (((~(g.typ[PUD][r1] | g.poll[r1]) >> b) & 3) << 2)
            if popcount(miss) == 1:
                n += 1
    return n


cdef class Leaves(State):
    """An Under the Leaves position (2 to 4 players).

    >>> s = Leaves.start(2, seed=1)
    >>> s.perft(1)
    96
    """
    name = "leaves"

    def __cinit__(self):
        self.n_players = 2
        self.perft_expands_chance = True
        self.c.n = 2
        self.c.turn = 1

    # ---------------------------------------------------------------- contract
    cdef int to_move(self) noexcept nogil:
        if core_over(&self.c):
            return 0
        if popcount(self.c.market) < 3:
            return CHANCE
        return (self.c.turn - 1) % self.c.n

    cdef bint over(self) noexcept nogil:
        return core_over(&self.c)

    cdef void outcome(self, double* out) noexcept nogil:
        # §9.4: the k players sharing first place get 1/k each.
        cdef int score[4]
        cdef int p, k = 0
        cdef long best = -1, r
        final_scores(&self.c, score)
        for p in range(self.c.n):
            r = rank_value(&self.c, score, p)
            if r > best:
                best = r
                k = 1
            elif r == best:
                k += 1
        for p in range(self.c.n):
            out[p] = 1.0 / k if rank_value(&self.c, score, p) == best else 0.0

    cdef uint64_t key(self) noexcept nogil:
        cdef uint64_t h = self.c.hkey
        cdef int p
        for p in range(self.c.n):
            h ^= zmix(self.c.g[p].ghash ^ Z_PLAYER[p])
        return h

    cdef void assign(self, State other) noexcept nogil:
        core_copy(&self.c, &(<Leaves>other).c)

    cdef int legal_moves(self, int* out) noexcept nogil:
        cdef int n = 0, i, w, o, base, nm, p
        cdef uint32_t f
        cdef const Garden* g
        if core_over(&self.c) or popcount(self.c.market) < 3:
            return 0
        p = (self.c.turn - 1) % self.c.n
        g = &self.c.g[p]
        nm = popcount(self.c.market)
        for i in range(nm):
            for w in range(g.xlo - 1 + SOFF, g.xhi + 2 + SOFF):
                f = g.front[w]
                while f:
                    base = encode_move(i, w - SOFF, lsb(f) - SOFF, 0)
                    f &= f - 1
                    for o in range(8):
                        out[n] = base + o
                        n += 1
        return n

    cdef void play(self, int move) noexcept nogil:
        core_play(&self.c, move)

    cdef int chance_count(self) noexcept nogil:
        if not core_chance(&self.c):
            return 0
        return popcount(self.c.bag)

    cdef int chance_outcomes(self, int* out, double* probs) noexcept nogil:
        cdef int n = 0, total
        cdef uint64_t f
        if not core_chance(&self.c):
            return 0
        total = popcount(self.c.bag)
        f = self.c.bag
        while f:
            out[n] = CHANCE_BASE + lsb(f)
            probs[n] = 1.0 / total
            n += 1
            f = clear_lsb(f)
        return n

    cdef int sample_chance(self, Rng* rng) noexcept nogil:
        return CHANCE_BASE + kth_bit(self.c.bag, rng_below(rng, popcount(self.c.bag)))

    cdef double evaluate(self, int player) noexcept nogil:
        # Estimates the chance that `player` finishes first.  For every player it projects
        # a final score: the score so far (bees, hummingbirds, pieces), the majority bonuses
        # as they stand now (+2 per category led or shared, scaled by how far the game
        # is), plus potential: 0.5 per unpollinated same-colour pair (one square short of a
        # new sector), 0.5 per tile one pollinated square short of a hummingbird, and 1.5
        # per turn the player still has.  The projections go through a softmax whose
        # temperature grows with the turns left (more turns, more uncertainty).
        cdef double proj[4]
        cdef int p, j, best, left, total = 12 * self.c.n
        cdef double progress, temp, mx, z, num = 0.0
        cdef const Garden* g
        if core_over(&self.c):
            self.outcome(proj)
            return proj[player]
        progress = (self.c.turn - 1) / <double>total
        for p in range(self.c.n):
            g = &self.c.g[p]
            left = 13 - g.ntiles
            proj[p] = g.bees + g.humm + g.pieces[0] + g.pieces[1] + g.pieces[2] \
                + 0.25 * domino_squares(g) + 0.5 * near_based(g) + 1.5 * left
        for j in range(3):
            best = 0
            for p in range(self.c.n):
                if self.c.g[p].pieces[j] > best:
                    best = self.c.g[p].pieces[j]
            if best >= 1:
                for p in range(self.c.n):
                    if self.c.g[p].pieces[j] == best:
                        proj[p] += 2.0 * progress
        temp = 1.0 + 0.35 * (12 - (self.c.turn - 1) / self.c.n)
        mx = proj[0]
        for p in range(1, self.c.n):
            if proj[p] > mx:
                mx = proj[p]
        z = 0.0
        for p in range(self.c.n):
            z += exp((proj[p] - mx) / temp)
        return exp((proj[player] - mx) / temp) / z

    cdef void determinize(self, int observer, Rng* rng) noexcept nogil:
        # §10.1, §10.3: the unseen tiles (bag + removed) are public as a set, and so is the bag
        # size; redraw which of them are in the bag, uniformly.
        cdef uint64_t unseen, placed = 0, newbag = 0, f
        cdef int p, j, nb, nu, i, k
        cdef int pool[NTILES]
        if self.c.n >= 4:
            return
        for p in range(self.c.n):
            for j in range(1, self.c.g[p].ntiles):
                placed |= (<uint64_t>1) << self.c.g[p].ptile[j]
        unseen = (((<uint64_t>1) << NTILES) - 1) & ~placed & ~self.c.market
        nb = popcount(self.c.bag)
        nu = 0
        while unseen:
            pool[nu] = lsb(unseen)
            nu += 1
            unseen = clear_lsb(unseen)
        for i in range(nb):
            k = i + rng_below(rng, nu - i)
            j = pool[i]
            pool[i] = pool[k]
            pool[k] = j
            newbag |= (<uint64_t>1) << pool[i]
        f = self.c.bag
        while f:
            self.c.hkey ^= Z_BAG[lsb(f)]
            f = clear_lsb(f)
        self.c.bag = newbag
        f = newbag
        while f:
            self.c.hkey ^= Z_BAG[lsb(f)]
            f = clear_lsb(f)

    cdef int playout(self, Rng* rng, int max_plies) noexcept nogil:
        # A uniform random legal move is (market index, k-th frontier slot, orientation)
        # from one draw; a refill is a uniform bag tile.
        cdef int plies = 0, p, nm, nf, r, i, k, x, y, o
        cdef Core* s = &self.c
        while plies < max_plies and not core_over(s):
            nm = popcount(s.market)
            if nm < 3:
                core_draw(s, kth_bit(s.bag, rng_below(rng, popcount(s.bag))))
            else:
                p = (s.turn - 1) % s.n
                nf = s.g[p].nfront
                r = rng_below(rng, nm * nf * 8)
                o = r & 7
                r >>= 3
                k = r % nf
                i = r // nf
                kth_frontier(&s.g[p], k, &x, &y)
                core_place(s, kth_bit(s.market, i), x, y, o)
            plies += 1
        return plies

    cdef unsigned long long perft_native(self, int depth) noexcept:
        cdef Core* scratch
        cdef unsigned long long total
        if depth <= 0:
            return 1
        scratch = <Core*>malloc((2 * depth + 2) * sizeof(Core))
        if scratch == NULL:
            return 0
        with nogil:
            total = perft_core(&self.c, depth, scratch)
        free(scratch)
        return total

    # ---------------------------------------------------------------- the bridge to text.py
    @classmethod
    def _load(cls, dict raw):
        """A position from plain values text.py has checked: ``players``, ``turn``, the
        ``cards`` in play (ids), the ``market`` and ``bag`` tile ids, and each garden's
        placements in order (``gardens``; its starting tile 50 + j at (0, 0) first); the
        gardens are replayed with every check."""
        cdef Leaves s = cls.__new__(cls)
        cdef int p, j, tile, x, y, o, n = raw["players"]
        s.n_players = n
        s.hidden_info = n < 4
        s.perft_expands_chance = True
        memset(&s.c, 0, sizeof(Core))
        s.c.n = n
        s.c.turn = raw["turn"]
        for j in range(3):
            s.c.cards[j] = raw["cards"][j]
        for tile in raw["market"]:
            s.c.market |= (<uint64_t>1) << tile
        for tile in raw["bag"]:
            s.c.bag |= (<uint64_t>1) << tile
        for p in range(n):
            gardens = raw["gardens"][p]
            garden_init(&s.c.g[p], gardens[0][0] - NTILES)
            for tile, x, y, o in gardens[1:]:
                garden_place(&s.c.g[p], tile, x, y, o, s.c.cards, NULL)
        s.c.hkey = base_key(&s.c)
        return s

    def _raw(self):
        """The position as plain values (what _load takes)."""
        return {"players": self.c.n, "turn": self.c.turn,
                "cards": tuple(self.c.cards[j] for j in range(3)),
                "market": self.market(), "bag": self.bag(),
                "gardens": [self._entries(p) for p in range(self.c.n)]}

    def _entries(self, int p):
        cdef const Garden* g = &self.c.g[p]
        return [(g.ptile[j], g.px[j], g.py[j], g.po[j]) for j in range(g.ntiles)]

    # ---------------------------------------------------------------- Python API
    @classmethod
    def start(cls, players=None, seed=0):
        """A new game: cards, starting tiles, removed tiles and the first market drawn from
        ``seed`` (§2)."""
        cdef Rng rng
        n = 2 if players is None else players
        if n not in (2, 3, 4):
            raise GameError(f"Under the Leaves is played by 2 to 4 players, not {players}")
        rng_seed(&rng, <uint64_t>(seed if seed is not None else 0))
        leaf = rng_below(&rng, 4)
        mush = 4 + rng_below(&rng, 4)
        pud = 8 + rng_below(&rng, 4)
        starts = [0, 1, 2, 3]
        for i in range(3, 0, -1):
            j = rng_below(&rng, i + 1)
            starts[i], starts[j] = starts[j], starts[i]
        tiles = list(range(NTILES))
        for i in range(NTILES - 1, 0, -1):
            j = rng_below(&rng, i + 1)
            tiles[i], tiles[j] = tiles[j], tiles[i]
        return cls.parse(_text.start_text(n, (leaf, mush, pud), starts, tiles))

    @classmethod
    def parse(cls, text):
        """Parse the position text of §11; PositionError names the first fault."""
        return _text.parse_position(cls, text)

    def text(self):
        return _text.position_text(self._raw())

    def view(self, observer):
        """The position text as seat ``observer`` sees it (every seat sees the same): with 2
        or 3 players the bag is written ``bag=?``, since which of the unseen tiles are in it
        and which were removed before the game is hidden (§2); ``parse`` reads it."""
        if isinstance(observer, bool) or not isinstance(observer, int) or not 0 <= observer < self.c.n:
            raise GameError(f"observer must be a seat 0..{self.c.n - 1}, not {observer!r}")
        return _text.view_text(self._raw())

    def move_name(self, move):
        return _text.move_name(move)

    def parse_move(self, name):
        return _text.parse_move(name)

    # ---------------------------------------------------------------- accessors
    def _check_player(self, p):
        if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < self.c.n:
            raise ValueError(f"player must be 0..{self.c.n - 1}, got {p!r}")

    @property
    def turn(self):
        return self.c.turn

    @property
    def cards(self):
        """The three cards in play: (leaf, mushroom, puddle) names."""
        return tuple(_text.CARD_NAMES[self.c.cards[j]] for j in range(3))

    def market(self):
        return _text.bit_list(self.c.market)

    def bag(self):
        return _text.bit_list(self.c.bag)

    def removed(self):
        """Tile ids in no market, bag or garden (§11)."""
        used = set(self.market()) | set(self.bag())
        for p in range(self.c.n):
            used |= {e[0] for e in self._entries(p)[1:]}
        return [t for t in range(NTILES) if t not in used]

    def garden(self, p):
        """Player p's placements in order: [(tile, x, y, o)]; the starting tile is 50 + j."""
        self._check_player(p)
        return self._entries(p)

    def bees(self, p):
        self._check_player(p)
        return self.c.g[p].bees

    def hummingbirds(self, p):
        self._check_player(p)
        return self.c.g[p].humm

    def pieces(self, p):
        """Pieces of each card in play, by card code: {'Fl': 1, 'Co': 0, 'Fr': 2}."""
        self._check_player(p)
        return {_text.CARD_CODES[self.c.cards[j]]: self.c.g[p].pieces[j] for j in range(3)}

    def piece_squares(self, p, code):
        """Where player p's pieces of a card stand, [(u, v)] in the order they came."""
        self._check_player(p)
        return self._replay(p).piece_squares(code)

    def frontier(self, p):
        """Player p's frontier slots in canonical order (x, then y)."""
        self._check_player(p)
        return frontier_list(&self.c.g[<int>p])

    def scores(self):
        """Scores per player: bees + hummingbirds + pieces, and once the game is over the
        majority bonuses too (§9)."""
        cdef int sc[4]
        cdef int p
        if core_over(&self.c):
            final_scores(&self.c, sc)
            return tuple(sc[p] for p in range(self.c.n))
        return tuple(self.c.g[p].bees + self.c.g[p].humm + self.c.g[p].pieces[0]
                     + self.c.g[p].pieces[1] + self.c.g[p].pieces[2] for p in range(self.c.n))

    def _replay(self, int p):
        from roost.core.leaves.replay import GardenReplay
        gr = GardenReplay(self.c.g[p].ptile[0] - NTILES,
                          cards=[_text.CARD_NAMES[self.c.cards[j]] for j in range(3)])
        for (tile, x, y, o) in self._entries(p)[1:]:
            gr.place(tile, x, y, o)
        return gr

    def render(self, observer=None):
        """Every garden as a grid of squares, with pieces, and the scores."""
        return _render.render(self)

    def svg(self):
        """An SVG picture of all gardens (squares, mushrooms, puddles, hummingbirds, pieces)."""
        return _render.svg(self)
