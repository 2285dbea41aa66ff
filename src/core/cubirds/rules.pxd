# The rules on a Core (docs/rules/cubirds.md §3, §4, §5, §8):
# laying, drawing, flocking, completing a row, the end of a turn and of a round, dealing.
from libc.string cimport memmove, memset

from roost.core.rng cimport Rng, rng_below
from roost.core.cubirds.state cimport Core
from roost.core.cubirds.cards cimport (SMALL, BIG, NSP, NROWS, HAND, TURN_CAP, MV_DRAW,
                                       MV_NODRAW, MV_NOFLOCK, MV_FLOCK, MV_RIGHT, CARD, PH_LAY,
                                       PH_DRAW, PH_FLOCK, PH_COMPLETE, PH_DRAWING, PH_FILLING,
                                       PH_DEAL, PH_OVER)


cdef inline bint ensure_deck(Core* c) noexcept nogil:
    """A card must be drawn: an empty draw pile takes the discard pile (docs/rules/cubirds.md
    §5.1).  Returns whether a card can be drawn."""
    cdef int s
    if c.ndeck == 0 and c.ndiscard > 0:
        for s in range(NSP):
            c.deck[s] += c.discard[s]
            c.discard[s] = 0
        c.ndeck = c.ndiscard
        c.ndiscard = 0
    return c.ndeck > 0


cdef inline bint collection_wins(Core* c, int p) noexcept nogil:
    cdef int s, kinds = 0, threes = 0
    for s in range(NSP):
        if c.coll[p][s]:
            kinds += 1
            if c.coll[p][s] >= 3:
                threes += 1
    return kinds >= 7 or threes >= 2


cdef inline void finish_by_collections(Core* c) noexcept nogil:
    """The failed deal (and the turn cap): most collection cards wins, ties share."""
    cdef int q, s, t, best = -1, mask = 0
    for q in range(c.n):
        t = 0
        for s in range(NSP):
            t += c.coll[q][s]
        if t > best:
            best = t
            mask = 1 << q
        elif t == best:
            mask |= 1 << q
    c.winners = mask
    c.phase = PH_OVER


cdef inline void round_end(Core* c) noexcept nogil:
    """The end of a round (docs/rules/cubirds.md §4.7): the others discard their hands, the
    player deals and plays first."""
    cdef int q, s, p = c.player
    for q in range(c.n):
        if q != p:
            for s in range(NSP):
                c.discard[s] += c.hand[q][s]
                c.hand[q][s] = 0
                c.known[q][s] = 0
            c.ndiscard += c.hsize[q]
            c.hsize[q] = 0
        c.lacks[q] = 0
    c.dealer = p
    if c.ndeck + c.ndiscard < HAND * c.n:
        finish_by_collections(c)
        return
    c.phase = PH_DEAL
    ensure_deck(c)


cdef inline void end_turn(Core* c) noexcept nogil:
    """Win check, the turn count, empty hand, next player."""
    cdef int p = c.player
    if collection_wins(c, p):
        c.winners = 1 << p
        c.phase = PH_OVER
        return
    c.turn += 1
    if c.turn >= TURN_CAP:
        finish_by_collections(c)
        return
    if c.hsize[p] == 0:
        round_end(c)
        return
    c.player = p + 1 if p + 1 < c.n else 0
    c.phase = PH_LAY


cdef inline void flock_step(Core* c) noexcept nogil:
    cdef int s, p = c.player
    for s in range(NSP):
        if c.hand[p][s] >= SMALL[s]:
            c.phase = PH_FLOCK
            return
    end_turn(c)


cdef inline int lay_left(Core* c, int p, int s, int r, int k) noexcept nogil:
    """k cards of species s at the left end of row r; the cards up to the nearest s go to
    player p's hand, face up.  Returns how many were taken."""
    cdef int L = c.rowlen[r], j = -1, i, x
    cdef unsigned char* row = c.row[r]
    for i in range(L):
        if row[i] == s:
            j = i
            break
    if j >= 0:
        for i in range(j):
            x = row[i]
            c.hand[p][x] += 1
            c.known[p][x] += 1
        memmove(row + k, row + j, L - j)
        c.rowlen[r] = k + L - j
    else:
        memmove(row + k, row, L)
        c.rowlen[r] = L + k
    memset(row, s, k)
    return j if j >= 0 else 0


cdef inline int lay_right(Core* c, int p, int s, int r, int k) noexcept nogil:
    """As lay_left, at the right end."""
    cdef int L = c.rowlen[r], j = -1, i, x
    cdef unsigned char* row = c.row[r]
    i = L - 1
    while i >= 0:
        if row[i] == s:
            j = i
            break
        i -= 1
    if j >= 0:
        for i in range(j + 1, L):
            x = row[i]
            c.hand[p][x] += 1
            c.known[p][x] += 1
        memset(row + j + 1, s, k)
        c.rowlen[r] = j + 1 + k
        return L - 1 - j
    memset(row + L, s, k)
    c.rowlen[r] = L + k
    return 0


cdef inline void do_lay(Core* c, int m) noexcept nogil:
    """A lay (docs/rules/cubirds.md §4.1-§4.4): lay every card of a species at one end of a
    row, take the cards between them and the nearest card of that species, complete a
    one-species row."""
    cdef int p = c.player, s = m >> 3, r = (m >> 1) & 3, e = m & 1
    cdef int k = c.hand[p][s], L, i, taken
    cdef unsigned char* row = c.row[r]
    c.hand[p][s] = 0
    c.known[p][s] = 0
    c.hsize[p] -= k
    c.lacks[p] |= 1 << s
    taken = lay_right(c, p, s, r, k) if e else lay_left(c, p, s, r, k)
    if taken:
        c.hsize[p] += taken
        L = c.rowlen[r]
        for i in range(1, L):
            if row[i] != row[0]:
                flock_step(c)
                return
        if ensure_deck(c):
            c.frow = r
            c.phase = PH_FILLING
        else:
            flock_step(c)
        return
    if c.ndeck + c.ndiscard > 0:
        c.phase = PH_DRAW
    else:
        flock_step(c)


cdef inline void do_flock(Core* c, int s) noexcept nogil:
    """A flock (docs/rules/cubirds.md §4.5): one card to the collection (two for a big
    flock), the rest discarded."""
    cdef int p = c.player, k = c.hand[p][s]
    cdef int keep = 2 if k >= BIG[s] else 1
    c.coll[p][s] += keep
    c.discard[s] += k - keep
    c.ndiscard += k - keep
    c.hand[p][s] = 0
    c.known[p][s] = 0
    c.hsize[p] -= k
    c.lacks[p] |= 1 << s
    end_turn(c)


cdef inline void do_complete(Core* c, int right) noexcept nogil:
    cdef int r = c.frow, L = c.rowlen[r]
    cdef unsigned char* row = c.row[r]
    if right:
        row[L] = c.fcard
    else:
        memmove(row + 1, row, L)
        row[0] = c.fcard
    c.rowlen[r] = L + 1
    c.frow = -1
    c.fcard = -1
    flock_step(c)


cdef inline int deal_recipient(Core* c) noexcept nogil:
    """The next player to receive a dealt card: dealer first, 8 cards each."""
    cdef int k, q
    for k in range(c.n):
        q = (c.dealer + k) % c.n
        if c.hsize[q] < HAND:
            return q
    return -1


cdef inline int setup_stage(Core* c) noexcept nogil:
    """0 laying the rows, 1 dealing the hands, 2 dealing the collection cards."""
    cdef int r
    for r in range(NROWS):
        if c.rowlen[r] < 3:
            return 0
    if deal_recipient(c) >= 0:
        return 1
    return 2


cdef inline void give(Core* c, int q, int s) noexcept nogil:
    """A hidden card from the draw pile into hand q."""
    c.hand[q][s] += 1
    c.hsize[q] += 1
    c.lacks[q] = 0


cdef inline void setup_card(Core* c, int s) noexcept nogil:
    cdef int r, i, k, q, t
    for r in range(NROWS):
        if c.rowlen[r] < 3:
            for i in range(c.rowlen[r]):
                if c.row[r][i] == s:
                    c.discard[s] += 1
                    c.ndiscard += 1
                    ensure_deck(c)
                    return
            c.row[r][c.rowlen[r]] = s
            c.rowlen[r] += 1
            ensure_deck(c)
            return
    q = deal_recipient(c)
    if q >= 0:
        give(c, q, s)
        ensure_deck(c)
        return
    for k in range(c.n):
        q = (c.dealer + k) % c.n
        t = 0
        for i in range(NSP):
            t += c.coll[q][i]
        if t == 0:
            c.coll[q][s] = 1
            if k == c.n - 1:
                c.phase = PH_LAY
                c.player = c.dealer
            else:
                ensure_deck(c)
            return


cdef inline void play_card(Core* c, int s) noexcept nogil:
    """A chance outcome: a card of species s leaves the draw pile."""
    cdef int ph = c.phase, r, q
    c.deck[s] -= 1
    c.ndeck -= 1
    if ph == PH_DRAWING:
        give(c, c.player, s)
        c.pending -= 1
        if c.pending > 0 and ensure_deck(c):
            return
        c.pending = 0
        flock_step(c)
    elif ph == PH_FILLING:
        r = c.frow
        if s == c.row[r][0]:
            c.row[r][c.rowlen[r]] = s
            c.rowlen[r] += 1
            if ensure_deck(c):
                return
            c.frow = -1
            flock_step(c)
        else:
            c.fcard = s
            c.phase = PH_COMPLETE
    elif ph == PH_DEAL:
        q = deal_recipient(c)
        if q >= 0:
            give(c, q, s)
        if deal_recipient(c) < 0:
            c.phase = PH_LAY
            c.player = c.dealer
        else:
            ensure_deck(c)
    else:
        setup_card(c, s)


cdef inline void play_move(Core* c, int move) noexcept nogil:
    if move >= CARD:
        play_card(c, move - CARD)
    elif move < MV_DRAW:
        do_lay(c, move)
    elif move == MV_DRAW:
        c.pending = 2
        c.phase = PH_DRAWING
        ensure_deck(c)
    elif move == MV_NODRAW:
        flock_step(c)
    elif move < MV_NOFLOCK:
        do_flock(c, move - MV_FLOCK)
    elif move == MV_NOFLOCK:
        end_turn(c)
    else:
        do_complete(c, move == MV_RIGHT)


cdef inline int sample_species(Core* c, Rng* rng) noexcept nogil:
    cdef int r = <int>rng_below(rng, c.ndeck), s
    for s in range(NSP):
        r -= c.deck[s]
        if r < 0:
            return s
    return NSP - 1
