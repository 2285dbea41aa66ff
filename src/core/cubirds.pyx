"""CuBirds (rules: ../shared/rules/cubirds.md), 2 to 5 players.

Representation
--------------
Cards are per-species counts (species 0..7 in the rules table's order F O T D P M W R):
each hand, the part of each hand the others know (``known``), each collection, the
discard pile and the draw pile.  The draw pile is a multiset: its order is not state, so
every card drawn is a chance event whose outcome is the species (outcome id
``CARD + species`` = 80..87, named ``card:R``), weighted by the counts left.  A reshuffle
merges the discard pile into the draw pile; it happens (deterministically) the moment a card
must be drawn from an empty draw pile, so at every chance node the draw pile is non-empty.
The four rows are small arrays of species, left to right.

Decisions are the rules file's "Decisions as actions": lay ``species*8 + row*2 + end``
(0..63), 64 draw two / 65 decline, 66+species flock / 74 no flock, 75 / 76 the dealer's end
for the card completing a row.  A decision with one legal option is never a node.

Chance, one card at a time (every one a chance node):
- setup: the 4 rows are laid card by card, row 1 to row 4 (a species already in the row is
  discarded and replaced); then 8 cards to each player, the dealer first and then in seat
  order, all 8 to one player before the next; then one face-up collection card to each
  player in the same order;
- a redeal after a round: 8 cards to each player in that same order (dealer first);
- the two cards of the draw option, one at a time, into the drawer's hand;
- completing a row: one card at a time; a card of the row's species joins the row (which
  end does not matter: the row holds one species), the first card of another species stops
  the completion and the dealer chooses its end (a decision node, 75/76).

Phases (the position text's "phase"): the rules file's ``lay``, ``draw``, ``flock`` and
``complete`` are the decision nodes; the chance nodes are ``drawing`` (with "pending": cards
still to draw, 1 or 2), ``filling`` (with "row": the row being completed, 1..4), ``deal``
(a redeal; progress is read from the hand sizes) and ``setup`` (progress read from the rows,
hands and collections); a finished game is ``over`` (with "winners": the seats sharing the
victory).  "row" and "card" also describe the ``complete`` phase (the row, and the drawn card
of another species waiting for its end).  "to_move" is always the player whose turn it is
(after a deal, the dealer); in the ``complete`` phase the dealer decides.

Information: "known" lists, per hand, the cards that entered it face up (taken from a row)
and have not left it; "lacks" lists, per player, the species the *unknown* part of that hand
is known not to contain (the player laid or flocked that species since they last drew a
hidden card).  Both are optional in a position text (default: empty).  A determinization
keeps exactly the rules file's list (own hand, public cards, known cards, "lacks" facts) plus
what the phase implies: at another player's flock node that player's hand reaches a small
flock.  It does not keep the other inferences a perfect memory could draw (that a skipped
flock node means no species reached its small number, or that a reshuffled draw pile is the
old discard pile), as the rules file's list does not name them.

Extra rules decisions (the rules file is silent):
- A turn is counted when it ends (after the flock step); "turn" is the number of turns
  completed.  When it reaches 1,000 and nobody has won, the game ends as a failed deal does
  (most collection cards wins, ties share), before any empty-hand redeal.
- Completing a row happens only after cards were taken (rules "A turn" 2); a row left with
  one species because both piles ran dry stays so until a later lay changes it.
- A failed deal is decided before the first card of the redeal: the draw and discard piles
  (the other hands already discarded) together hold fewer than 8 cards per player.
- A finished position's "winners" must fit it: the one player whose collection wins, else
  (a failed deal or the cap) the players with the most collection cards; "turn" is at most
  1,000 in every position.
"""
import json
import os
import re

from libc.stdint cimport uint64_t
from libc.string cimport memcpy, memmove, memset
from libc.math cimport exp

from roost.core.rng cimport Rng, rng_seed, rng_next, rng_below, splitmix64
from roost.core.state cimport State, CHANCE, HIDDEN, MAX_MOVES, MAX_PLAYERS
from roost.core.errors import PositionError, MoveError, GameError


cdef enum:
    NSP = 8
    NROWS = 4
    ROWCAP = 112          # a row never holds more than the 110 cards
    HAND = 8
    TURN_CAP = 1000
    TOTAL = 110
    MAXCOUNT = 21         # a species count is 0..20
    MV_DRAW = 64
    MV_NODRAW = 65
    MV_FLOCK = 66
    MV_NOFLOCK = 74
    MV_LEFT = 75
    MV_RIGHT = 76
    CARD = 80             # chance outcome: CARD + species
    FLOCK_TRIES = 32      # determinize: redraws before building a flock node's flock

cdef enum:
    PH_LAY = 0
    PH_DRAW = 1
    PH_FLOCK = 2
    PH_COMPLETE = 3
    PH_DRAWING = 4        # phases from here to PH_SETUP are chance nodes
    PH_FILLING = 5
    PH_DEAL = 6
    PH_SETUP = 7
    PH_OVER = 8

LETTERS = "FOTDPMWR"
SPECIES_NAMES = ("flamingo", "owl", "toucan", "duck", "parrot", "magpie", "reed warbler", "robin")
PHASES = ("lay", "draw", "flock", "complete", "drawing", "filling", "deal", "setup", "over")
_COPIES = (7, 10, 10, 13, 13, 17, 20, 20)
_SMALL = (2, 3, 3, 4, 4, 5, 6, 6)
_BIG = (3, 4, 4, 6, 6, 7, 9, 9)

cdef int COPIES[NSP]
cdef int SMALL[NSP]
cdef int BIG[NSP]
cdef uint64_t Z_HAND[MAX_PLAYERS][NSP][MAXCOUNT]
cdef uint64_t Z_KNOWN[MAX_PLAYERS][NSP][MAXCOUNT]
cdef uint64_t Z_COLL[MAX_PLAYERS][NSP][MAXCOUNT]
cdef uint64_t Z_LACK[MAX_PLAYERS][NSP]
cdef uint64_t Z_DISC[NSP][MAXCOUNT]
cdef uint64_t Z_ROW[NROWS][ROWCAP][NSP]
cdef uint64_t Z_PHASE[9]
cdef uint64_t Z_PLAYER[MAX_PLAYERS]
cdef uint64_t Z_DEALER[MAX_PLAYERS]
cdef uint64_t Z_N[MAX_PLAYERS + 1]
cdef uint64_t Z_PEND[3]
cdef uint64_t Z_FROW[NROWS + 1]
cdef uint64_t Z_FCARD[NSP + 1]
cdef uint64_t Z_WIN[32]
cdef uint64_t Z_TURN


def _init_tables():
    global Z_TURN
    cdef uint64_t seed = 0xC0B1D5C0B1D5
    cdef int i, j, k
    for i in range(NSP):
        COPIES[i] = _COPIES[i]
        SMALL[i] = _SMALL[i]
        BIG[i] = _BIG[i]
    for i in range(MAX_PLAYERS):
        for j in range(NSP):
            Z_HAND[i][j][0] = 0
            Z_KNOWN[i][j][0] = 0
            Z_COLL[i][j][0] = 0
            for k in range(1, MAXCOUNT):
                Z_HAND[i][j][k] = splitmix64(&seed)
                Z_KNOWN[i][j][k] = splitmix64(&seed)
                Z_COLL[i][j][k] = splitmix64(&seed)
            Z_LACK[i][j] = splitmix64(&seed)
        Z_PLAYER[i] = splitmix64(&seed)
        Z_DEALER[i] = splitmix64(&seed)
    for j in range(NSP):
        Z_DISC[j][0] = 0
        for k in range(1, MAXCOUNT):
            Z_DISC[j][k] = splitmix64(&seed)
    for i in range(NROWS):
        for j in range(ROWCAP):
            for k in range(NSP):
                Z_ROW[i][j][k] = splitmix64(&seed)
    for i in range(9):
        Z_PHASE[i] = splitmix64(&seed)
    for i in range(MAX_PLAYERS + 1):
        Z_N[i] = splitmix64(&seed)
    for i in range(3):
        Z_PEND[i] = splitmix64(&seed)
    for i in range(NROWS + 1):
        Z_FROW[i] = splitmix64(&seed)
    for i in range(NSP + 1):
        Z_FCARD[i] = splitmix64(&seed)
    for i in range(32):
        Z_WIN[i] = splitmix64(&seed)
    Z_TURN = splitmix64(&seed) | 1


_init_tables()


ctypedef struct Core:
    unsigned char hand[MAX_PLAYERS][NSP]
    unsigned char known[MAX_PLAYERS][NSP]    # the part of each hand the others know
    unsigned char coll[MAX_PLAYERS][NSP]
    unsigned char hsize[MAX_PLAYERS]
    unsigned char lacks[MAX_PLAYERS]         # bit s: the unknown part of the hand holds no s
    unsigned char discard[NSP]
    unsigned char deck[NSP]
    unsigned char rowlen[NROWS]
    unsigned char row[NROWS][ROWCAP]
    int ndeck
    int ndiscard
    int n
    int phase
    int player      # whose turn it is
    int dealer
    int pending     # PH_DRAWING: cards still to draw
    int frow        # PH_FILLING / PH_COMPLETE: the row being completed, else -1
    int fcard       # PH_COMPLETE: the card waiting for its end, else -1
    int turn        # turns completed
    int winners     # PH_OVER: bit mask of the winners


# ------------------------------------------------------------------ the rules, on a Core
cdef inline bint ensure_deck(Core* c) noexcept nogil:
    """A card must be drawn: an empty draw pile takes the discard pile (rules "The draw
    pile").  Returns whether a card can be drawn."""
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
    """Rules "A turn" 6: the others discard their hands, the player deals and plays first."""
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


cdef inline void do_lay(Core* c, int m) noexcept nogil:
    """Rules "A turn" 1-3: lay every card of a species at one end of a row, take the cards
    between them and the nearest card of that species, complete a one-species row."""
    cdef int p = c.player, s = m >> 3, r = (m >> 1) & 3, e = m & 1
    cdef int k = c.hand[p][s], L = c.rowlen[r], j, i, x, taken = 0
    cdef unsigned char* row = c.row[r]
    c.hand[p][s] = 0
    c.known[p][s] = 0
    c.hsize[p] -= k
    c.lacks[p] |= 1 << s
    if e == 0:
        j = -1
        for i in range(L):
            if row[i] == s:
                j = i
                break
        if j >= 0:
            taken = j
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
    else:
        j = -1
        i = L - 1
        while i >= 0:
            if row[i] == s:
                j = i
                break
            i -= 1
        if j >= 0:
            taken = L - 1 - j
            for i in range(j + 1, L):
                x = row[i]
                c.hand[p][x] += 1
                c.known[p][x] += 1
            memset(row + j + 1, s, k)
            c.rowlen[r] = j + 1 + k
        else:
            memset(row + L, s, k)
            c.rowlen[r] = L + k
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
    """Rules "A turn" 4: one card to the collection (two for a big flock), the rest discarded."""
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
    cdef int r, i, k, q, t, last
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


cdef inline uint64_t core_key(Core* c) noexcept nogil:
    cdef uint64_t h = Z_PHASE[c.phase] ^ Z_PLAYER[c.player] ^ Z_DEALER[c.dealer] ^ Z_N[c.n]
    cdef uint64_t t
    cdef int q, s, r, i
    h ^= Z_PEND[c.pending] ^ Z_FROW[c.frow + 1] ^ Z_FCARD[c.fcard + 1] ^ Z_WIN[c.winners]
    t = <uint64_t>c.turn * Z_TURN
    h ^= splitmix64(&t)
    for q in range(c.n):
        for s in range(NSP):
            h ^= Z_HAND[q][s][c.hand[q][s]] ^ Z_KNOWN[q][s][c.known[q][s]] ^ Z_COLL[q][s][c.coll[q][s]]
            if c.lacks[q] & (1 << s):
                h ^= Z_LACK[q][s]
    for s in range(NSP):
        h ^= Z_DISC[s][c.discard[s]]
    for r in range(NROWS):
        for i in range(c.rowlen[r]):
            h ^= Z_ROW[r][i][c.row[r][i]]
    return h


cdef inline bint hall_ok(int* U, int* need, int* allowed, int n) noexcept nogil:
    """Can every opponent's remaining unknown slots be filled from the unseen counts U,
    each only with species it is allowed?  Hall's condition over every set of opponents
    that still needs cards (the draw pile takes whatever is left, unconstrained)."""
    cdef int active[MAX_PLAYERS]
    cdef int na = 0, q, mask, i, demand, nb, s, supply
    for q in range(n):
        if need[q] > 0:
            active[na] = q
            na += 1
    for mask in range(1, 1 << na):
        demand = 0
        nb = 0
        for i in range(na):
            if mask & (1 << i):
                demand += need[active[i]]
                nb |= allowed[active[i]]
        supply = 0
        for s in range(NSP):
            if nb & (1 << s):
                supply += U[s]
        if demand > supply:
            return False
    return True


cdef inline bint reaches_flock(unsigned char* hand) noexcept nogil:
    """Some species in this hand (or part of a hand) reaches its small flock number."""
    cdef int s
    for s in range(NSP):
        if hand[s] >= SMALL[s]:
            return True
    return False


cdef inline void deal_unknown(Core* c, int observer, int* U, int* need, int* allowed,
                              bint constrained, Rng* rng) noexcept nogil:
    """Every opponent's hand becomes its known cards plus need[q] cards dealt from the
    unseen counts U (updated), in seat order one slot at a time, weighted by U, never a
    species the owner is known to lack and (when constrained) never a choice after which
    some opponent could no longer be filled (hall_ok)."""
    cdef int q, s, total, pick, chosen
    cdef int ok[NSP]
    for q in range(c.n):
        if q == observer:
            continue
        for s in range(NSP):
            c.hand[q][s] = c.known[q][s]
    for q in range(c.n):
        while need[q] > 0:
            total = 0
            for s in range(NSP):
                ok[s] = 0
                if U[s] > 0 and allowed[q] & (1 << s):
                    if constrained:
                        U[s] -= 1
                        need[q] -= 1
                        ok[s] = hall_ok(U, need, allowed, c.n)
                        U[s] += 1
                        need[q] += 1
                    else:
                        ok[s] = 1
                    if ok[s]:
                        total += U[s]
            if total == 0:
                # An inconsistent position (cannot come from play): fall back to any
                # unseen card so the state stays whole.
                for s in range(NSP):
                    ok[s] = U[s] > 0
                    if ok[s]:
                        total += U[s]
                if total == 0:
                    break
            pick = <int>rng_below(rng, total)
            chosen = NSP - 1
            for s in range(NSP):
                if ok[s]:
                    pick -= U[s]
                    if pick < 0:
                        chosen = s
                        break
            c.hand[q][chosen] += 1
            U[chosen] -= 1
            need[q] -= 1


cdef class Cubirds(State):
    """A CuBirds position (omniscient: every hand and the draw pile's contents).

    >>> s = Cubirds.start(players=2, seed=1)
    >>> s.phase, s.player
    ('lay', 0)
    """
    name = "cubirds"

    cdef Core c

    def __cinit__(self):
        self.n_players = 4
        self.hidden_info = True
        self.perft_expands_chance = False
        self.c.n = 4
        self.c.frow = -1
        self.c.fcard = -1

    # ---------------------------------------------------------------- contract
    cdef int to_move(self) noexcept nogil:
        if self.c.phase >= PH_DRAWING and self.c.phase != PH_OVER:
            return CHANCE
        if self.c.phase == PH_COMPLETE:
            return self.c.dealer
        return self.c.player

    cdef bint over(self) noexcept nogil:
        return self.c.phase == PH_OVER

    cdef void outcome(self, double* out) noexcept nogil:
        cdef int q, k = 0
        for q in range(self.c.n):
            if self.c.winners & (1 << q):
                k += 1
        for q in range(self.c.n):
            if k == 0:
                out[q] = 1.0 / self.c.n
            else:
                out[q] = (1.0 / k) if self.c.winners & (1 << q) else 0.0

    cdef uint64_t key(self) noexcept nogil:
        return core_key(&self.c)

    cdef void assign(self, State other) noexcept nogil:
        self.c = (<Cubirds>other).c

    cdef int legal_moves(self, int* out) noexcept nogil:
        cdef int n = 0, s, j, p = self.c.player, ph = self.c.phase
        if ph == PH_LAY:
            for s in range(NSP):
                if self.c.hand[p][s]:
                    for j in range(8):
                        out[n] = s * 8 + j
                        n += 1
        elif ph == PH_DRAW:
            out[0] = MV_DRAW
            out[1] = MV_NODRAW
            n = 2
        elif ph == PH_FLOCK:
            for s in range(NSP):
                if self.c.hand[p][s] >= SMALL[s]:
                    out[n] = MV_FLOCK + s
                    n += 1
            out[n] = MV_NOFLOCK
            n += 1
        elif ph == PH_COMPLETE:
            out[0] = MV_LEFT
            out[1] = MV_RIGHT
            n = 2
        return n

    cdef void play(self, int move) noexcept nogil:
        play_move(&self.c, move)

    cdef int chance_count(self) noexcept nogil:
        cdef int s, n = 0
        for s in range(NSP):
            if self.c.deck[s]:
                n += 1
        return n

    cdef int chance_outcomes(self, int* out, double* probs) noexcept nogil:
        cdef int s, n = 0
        cdef double inv = 1.0 / self.c.ndeck if self.c.ndeck else 0.0
        for s in range(NSP):
            if self.c.deck[s]:
                out[n] = CARD + s
                probs[n] = self.c.deck[s] * inv
                n += 1
        return n

    cdef int sample_chance(self, Rng* rng) noexcept nogil:
        return CARD + sample_species(&self.c, rng)

    cdef double evaluate(self, int player) noexcept nogil:
        # Measures each player's progress towards the nearer of the two winning collections,
        # counting the best flock their hand could form now as if already collected:
        # "7 species" progress = distinct species / 7; "3+3" progress = (the two largest
        # species counts, each capped at 3) / 6; progress = the larger of the two.  The
        # estimate is a softmax of the players' progress (temperature 1/6), so it lies in
        # (0, 1) and sums to 1 over the players.
        cdef double prog[MAX_PLAYERS]
        cdef double num = 0.0, den = 0.0, a, b, best
        cdef int q, s, kinds, c1, c2, v, gain, k
        cdef double outv[MAX_PLAYERS]
        if self.c.phase == PH_OVER:
            self.outcome(outv)
            return outv[player]
        for q in range(self.c.n):
            best = -1.0
            for s in range(-1, NSP):
                if s >= 0:
                    if self.c.hand[q][s] < SMALL[s]:
                        continue
                    gain = 2 if self.c.hand[q][s] >= BIG[s] else 1
                else:
                    gain = 0
                kinds = 0
                c1 = 0
                c2 = 0
                for v in range(NSP):
                    k = self.c.coll[q][v] + (gain if v == s else 0)
                    if k > 0:
                        kinds += 1
                    if k > 3:
                        k = 3
                    if k > c1:
                        c2 = c1
                        c1 = k
                    elif k > c2:
                        c2 = k
                a = kinds / 7.0
                b = (c1 + c2) / 6.0
                if b > a:
                    a = b
                if a > best:
                    best = a
            prog[q] = best
        for q in range(self.c.n):
            a = exp(6.0 * prog[q])
            den += a
            if q == player:
                num = a
        return num / den

    cdef void determinize(self, int observer, Rng* rng) noexcept nogil:
        # Reads only what `observer` sees: public zones (rows, collections, discard, the
        # card waiting in a `complete` phase), the observer's own hand, the others' hand
        # sizes, known cards and "lacks" facts, the draw pile's size and the phase.  The
        # unseen cards are dealt among the opponents' unknown slots (deal_unknown) and the
        # rest form the draw pile.  At a flock node of another player, that player's hand
        # must reach a small flock (rules "Decisions as actions": otherwise there would be
        # no flock node): deals are redrawn until it does (the same deal, conditioned), and
        # after FLOCK_TRIES failures the flock is built first (one species that can reach
        # its small number, chosen at random, its missing cards placed, then the rest
        # dealt).  An observer outside 0..n-1 holds no seat: every hand is dealt afresh.
        cdef Core* c = &self.c
        cdef int U[NSP]
        cdef int U0[NSP]
        cdef int need[MAX_PLAYERS]
        cdef int need0[MAX_PLAYERS]
        cdef int allowed[MAX_PLAYERS]
        cdef int cand[NSP]
        cdef int q, s, r, i, kn, fp, tries, nc, x, miss
        cdef bint constrained = False, done = False
        if c.phase == PH_OVER:
            return
        if observer < 0 or observer >= c.n:
            observer = -1
        for s in range(NSP):
            U0[s] = COPIES[s] - c.discard[s]
            if observer >= 0:
                U0[s] -= c.hand[observer][s]
            for q in range(c.n):
                U0[s] -= c.coll[q][s]
                if q != observer:
                    U0[s] -= c.known[q][s]
        for r in range(NROWS):
            for i in range(c.rowlen[r]):
                U0[c.row[r][i]] -= 1
        if c.fcard >= 0:
            U0[c.fcard] -= 1
        for q in range(c.n):
            need0[q] = 0
            allowed[q] = 0xFF
            if q == observer:
                continue
            kn = 0
            for s in range(NSP):
                kn += c.known[q][s]
            need0[q] = c.hsize[q] - kn
            allowed[q] = 0xFF & ~c.lacks[q]
            if need0[q] > 0 and allowed[q] != 0xFF:
                constrained = True
        fp = -1
        if c.phase == PH_FLOCK and c.player != observer and not reaches_flock(c.known[c.player]):
            fp = c.player
        tries = FLOCK_TRIES if fp >= 0 else 1
        while tries > 0 and not done:
            tries -= 1
            memcpy(U, U0, sizeof(U))
            memcpy(need, need0, sizeof(need))
            deal_unknown(c, observer, U, need, allowed, constrained, rng)
            done = fp < 0 or reaches_flock(c.hand[fp])
        if not done:
            memcpy(U, U0, sizeof(U))
            memcpy(need, need0, sizeof(need))
            nc = 0
            for x in range(NSP):
                miss = SMALL[x] - c.known[fp][x]
                if miss <= need[fp] and miss <= U[x] and allowed[fp] & (1 << x):
                    U[x] -= miss
                    need[fp] -= miss
                    if hall_ok(U, need, allowed, c.n):
                        cand[nc] = x
                        nc += 1
                    U[x] += miss
                    need[fp] += miss
            if nc > 0:
                x = cand[rng_below(rng, nc)]
                miss = SMALL[x] - c.known[fp][x]
                U[x] -= miss
                need[fp] -= miss
                deal_unknown(c, observer, U, need, allowed, True, rng)
                c.hand[fp][x] += miss
            else:
                # An inconsistent position (cannot come from play): deal without the flock.
                deal_unknown(c, observer, U, need, allowed, constrained, rng)
        kn = 0
        for s in range(NSP):
            c.deck[s] = U[s] if U[s] > 0 else 0
            kn += c.deck[s]
        c.ndeck = kn

    cdef int observe(self, int move, int observer) noexcept nogil:
        cdef int ph = self.c.phase, st
        if move < CARD:
            return move                      # every decision is public
        if ph == PH_DRAWING:
            return move if observer == self.c.player else HIDDEN
        if ph == PH_DEAL:
            return move if observer == deal_recipient(&self.c) else HIDDEN
        if ph == PH_SETUP:
            st = setup_stage(&self.c)
            if st == 1:
                return move if observer == deal_recipient(&self.c) else HIDDEN
        return move                          # face up: a row card or a collection card

    cdef int playout(self, Rng* rng, int max_plies) noexcept nogil:
        # Uniform random decisions (as legal_moves + a uniform pick) and chance drawn by
        # the draw pile's counts, without building move lists.
        cdef Core* c = &self.c
        cdef int plies = 0, ph, p, s, m, k, e
        while plies < max_plies and c.phase != PH_OVER:
            ph = c.phase
            if ph >= PH_DRAWING:
                play_card(c, sample_species(c, rng))
            elif ph == PH_LAY:
                p = c.player
                m = 0
                for s in range(NSP):
                    if c.hand[p][s]:
                        m += 1
                k = <int>rng_below(rng, m * 8)
                e = k >> 3
                for s in range(NSP):
                    if c.hand[p][s]:
                        if e == 0:
                            break
                        e -= 1
                do_lay(c, s * 8 + (k & 7))
            elif ph == PH_DRAW:
                play_move(c, MV_DRAW if rng_below(rng, 2) == 0 else MV_NODRAW)
            elif ph == PH_FLOCK:
                p = c.player
                m = 0
                for s in range(NSP):
                    if c.hand[p][s] >= SMALL[s]:
                        m += 1
                k = <int>rng_below(rng, m + 1)
                if k == m:
                    end_turn(c)
                else:
                    for s in range(NSP):
                        if c.hand[p][s] >= SMALL[s]:
                            if k == 0:
                                break
                            k -= 1
                    do_flock(c, s)
            else:
                do_complete(c, <int>rng_below(rng, 2))
            plies += 1
        return plies

    # ---------------------------------------------------------------- Python API
    @classmethod
    def before_setup(cls, players=4, dealer=0):
        """The game before the setup: all 110 cards in the draw pile, a chance node."""
        if not isinstance(players, int) or not 2 <= players <= 5:
            raise GameError(f"CuBirds is played by 2 to 5 players, not {players}")
        if not isinstance(dealer, int) or not 0 <= dealer < players:
            raise GameError(f"the dealer must be a seat 0..{players - 1}, not {dealer}")
        cdef Cubirds s = cls.__new__(cls)
        cdef int i
        s.n_players = players
        s.c.n = players
        s.c.dealer = dealer
        s.c.player = dealer
        s.c.phase = PH_SETUP
        for i in range(NSP):
            s.c.deck[i] = COPIES[i]
        s.c.ndeck = TOTAL
        return s

    @classmethod
    def start(cls, players=None, seed=0):
        """A fresh game, setup done (rows laid, hands dealt, collections started) by chance
        events drawn from ``seed``; seat 0 deals and plays first."""
        cdef Cubirds s = cls.before_setup(4 if players is None else players, 0)
        cdef Rng rng
        rng_seed(&rng, <uint64_t>(0 if seed is None else seed))
        while s.c.phase == PH_SETUP:
            play_card(&s.c, sample_species(&s.c, &rng))
        return s

    @classmethod
    def parse(cls, text):
        """Parse the rules file's JSON position (or the path of a file holding it)."""
        if not isinstance(text, str):
            raise PositionError("a CuBirds position must be text (a JSON object)")
        src = text.strip()
        if not src.startswith("{") and os.path.isfile(src):
            try:
                with open(src, encoding="utf-8") as f:
                    src = f.read().strip()
            except OSError as exc:
                raise PositionError(f"cannot read the position file {text!r}: {exc.strerror}")
            except UnicodeDecodeError:
                raise PositionError(f"the position file {text!r} is not a text file (UTF-8 JSON)")
        elif not src.startswith(("{", "[")) and 0 < len(src) < 4096 and "\n" not in src:
            try:
                json.loads(src)
            except ValueError:
                raise PositionError(f"the position is not valid JSON, nor the path of a file: "
                                    f"no such file {text!r}")
        try:
            d = json.loads(src)
        except ValueError as exc:
            raise PositionError(f"the position is not valid JSON: {exc}")
        except RecursionError:
            raise PositionError("the position is not a CuBirds position: its JSON is nested too deeply")
        if not isinstance(d, dict):
            raise PositionError("a CuBirds position is a JSON object {\"players\": ..., ...}")
        return _from_dict(cls, d)

    def _dict(self):
        cdef int n = self.c.n
        d = {"players": n, "dealer": self.c.dealer, "to_move": self.c.player,
             "phase": PHASES[self.c.phase], "rows": self.rows(),
             "hands": [self.hand(q) for q in range(n)],
             "known": [self.known_cards(q) for q in range(n)],
             "lacks": [self.lacks(q) for q in range(n)],
             "collections": [self.collection(q) for q in range(n)],
             "discard": self.discard_pile(), "deck": self.draw_pile(), "turn": self.c.turn}
        if self.c.phase == PH_DRAWING:
            d["pending"] = self.c.pending
        if self.c.phase == PH_FILLING or self.c.phase == PH_COMPLETE:
            d["row"] = self.c.frow + 1
        if self.c.phase == PH_COMPLETE:
            d["card"] = LETTERS[self.c.fcard]
        if self.c.phase == PH_OVER:
            d["winners"] = self.winners()
        return d

    def text(self):
        return json.dumps(self._dict())

    def view(self, int observer):
        """The JSON text of what seat ``observer`` sees: its own hand in full, the others'
        known cards followed by one ``?`` per unknown card, the draw pile as a count, and
        ``unseen``: the cards the observer cannot place (draw pile and unknown slots)."""
        if not 0 <= observer < self.c.n:
            raise GameError(f"observer must be a seat 0..{self.c.n - 1}, not {observer}")
        cdef int q, s, unknown
        d = self._dict()
        hands = []
        unseen = [self.c.deck[s] for s in range(NSP)]
        for q in range(self.c.n):
            if q == observer:
                hands.append(d["hands"][q])
            else:
                unknown = self.c.hsize[q]
                for s in range(NSP):
                    unknown -= self.c.known[q][s]
                    unseen[s] += self.c.hand[q][s] - self.c.known[q][s]
                hands.append(d["known"][q] + "?" * unknown)
        out = {"players": self.c.n, "observer": observer}
        for k, v in d.items():
            if k == "players":
                continue
            if k == "hands":
                v = hands
            elif k == "deck":
                v = self.c.ndeck
            out[k] = v
            if k == "deck":
                out["unseen"] = _letters(unseen)
        return json.dumps(out)

    def move_name(self, int move):
        if 0 <= move < MV_DRAW:
            return f"{LETTERS[move >> 3]}{((move >> 1) & 3) + 1}{'LR'[move & 1]}"
        if move == MV_DRAW:
            return "draw"
        if move == MV_NODRAW:
            return "nodraw"
        if MV_FLOCK <= move < MV_NOFLOCK:
            return "flock:" + LETTERS[move - MV_FLOCK]
        if move == MV_NOFLOCK:
            return "noflock"
        if move == MV_LEFT:
            return "left"
        if move == MV_RIGHT:
            return "right"
        if CARD <= move < CARD + NSP:
            return "card:" + LETTERS[move - CARD]
        raise MoveError(f"{move} is not a CuBirds move id")

    def parse_move(self, str name):
        s = name.strip()
        if not s.isascii():
            raise MoveError(f"{name!r} is not a CuBirds move: move names are plain ASCII "
                            f"(lay like R2L, draw, nodraw, flock:R, noflock, left, right)")
        low = s.lower()
        fixed = {"draw": MV_DRAW, "nodraw": MV_NODRAW, "noflock": MV_NOFLOCK,
                 "left": MV_LEFT, "right": MV_RIGHT}
        if low in fixed:
            return fixed[low]
        m = re.fullmatch(r"(flock|card):([a-z])", low)
        if m:
            sp = m.group(2).upper()
            if sp not in LETTERS:
                raise MoveError(f"{name!r}: {sp!r} is not a species letter ({LETTERS})")
            return (MV_FLOCK if m.group(1) == "flock" else CARD) + LETTERS.index(sp)
        m = re.fullmatch(r"([a-z])([0-9]+)([lr])", low)
        if m:
            sp = m.group(1).upper()
            if sp not in LETTERS:
                raise MoveError(f"{name!r}: {sp!r} is not a species letter ({LETTERS})")
            row = int(m.group(2))
            if not 1 <= row <= 4 or m.group(2) != str(row):
                raise MoveError(f"{name!r}: rows are numbered 1..4, not {m.group(2)}")
            return LETTERS.index(sp) * 8 + (row - 1) * 2 + (m.group(3) == "r")
        raise MoveError(f"{name!r} is not a CuBirds move (lay like R2L, draw, nodraw, "
                        f"flock:R, noflock, left, right, or a card drawn like card:R)")

    # ---------------------------------------------------------------- read-only helpers
    @property
    def phase(self):
        return PHASES[self.c.phase]

    @property
    def turn(self):
        return self.c.turn

    @property
    def dealer(self):
        return self.c.dealer

    @property
    def turn_player(self):
        """Whose turn it is (in the ``complete`` phase the dealer decides, not this player)."""
        return self.c.player

    def _seat(self, int q):
        if not 0 <= q < self.c.n:
            raise GameError(f"seats are 0..{self.c.n - 1}, not {q}")

    def hand(self, int q):
        self._seat(q)
        return _letters([self.c.hand[q][s] for s in range(NSP)])

    def known_cards(self, int q):
        self._seat(q)
        return _letters([self.c.known[q][s] for s in range(NSP)])

    def lacks(self, int q):
        self._seat(q)
        return "".join(LETTERS[s] for s in range(NSP) if self.c.lacks[q] & (1 << s))

    def collection(self, int q):
        self._seat(q)
        return _letters([self.c.coll[q][s] for s in range(NSP)])

    def rows(self):
        return ["".join(LETTERS[self.c.row[r][i]] for i in range(self.c.rowlen[r])) for r in range(NROWS)]

    def discard_pile(self):
        return _letters([self.c.discard[s] for s in range(NSP)])

    def draw_pile(self):
        return _letters([self.c.deck[s] for s in range(NSP)])

    def observe_move(self, int move, int observer):
        """What ``observer`` sees of ``move`` played here: the id, or -1 (HIDDEN)."""
        return self.observe(move, observer)

    def winners(self):
        return [q for q in range(self.c.n) if self.c.winners & (1 << q)] if self.c.phase == PH_OVER else []

    def render(self, observer=None):
        """The table as text, from seat ``observer`` (None: omniscient)."""
        cdef Core* c = &self.c
        cdef int n = c.n, q, r
        if observer is not None and not 0 <= observer < n:
            raise GameError(f"observer must be a seat 0..{n - 1}, not {observer}")
        head = f"CuBirds, {n} players, turn {c.turn}, dealer seat {c.dealer}"
        if observer is not None:
            head += f" (seen by seat {observer})"
        lines = [head, "rows (left to right):"]
        rows = self.rows()
        for r in range(NROWS):
            cards = " ".join(rows[r])
            mark = "   <- being completed" if c.frow == r else ""
            lines.append(f"  {r + 1}: {cards}{mark}")
        for q in range(n):
            tag = f"seat {q}" + (" (you)" if observer == q else "") + ("*" if q == c.player and c.phase != PH_OVER else "")
            size = c.hsize[q]
            known = self.known_cards(q)
            if observer is None or observer == q:
                cards = " ".join(self.hand(q)) or "-"
                extra = f"  known to all: {' '.join(known)}" if known and observer is None else ""
            else:
                cards = " ".join(known) + (" " if known else "") + " ".join("?" * (size - len(known)))
                cards = cards.strip() or "-"
                extra = ""
            lk = self.lacks(q)
            if lk and observer != q:
                extra += f"  holds no hidden {' '.join(lk)}"
            lines.append(f"  {tag:<14} hand {size:>2}: {cards}{extra}")
            lines.append(f"  {'':<14} collection: {_counts(self.collection(q))}")
        lines.append(f"discard pile {c.ndiscard}: {_counts(self.discard_pile())}")
        if observer is None:
            lines.append(f"draw pile {c.ndeck}: {_counts(self.draw_pile())}")
        else:
            lines.append(f"draw pile {c.ndeck} cards")
        lines.append(_status(self))
        lines.append("flocks (small/big): " + ", ".join(
            f"{LETTERS[s]} {SPECIES_NAMES[s]} {_SMALL[s]}/{_BIG[s]}" for s in range(NSP)))
        return "\n".join(lines)


# ------------------------------------------------------------------ example positions
# The registry's positions (src/core/games.py; JSON, all 110 cards): Cubirds.start(players,
# seed=0) for 4, 2 and 5 players, and two mid-game positions reached by seeded random play.
# EXAMPLES[0] is the default position of commands; BENCH_POSITION is what benchmarks measure.
_EX_START_4 = (
    '{"players": 4, "dealer": 0, "to_move": 0, "phase": "lay", "rows": ["MWO", "PWR", "PMR", "ROF"], '
    '"hands": ["FOTDMMWW", "DDDMWWRR", "OTDWRRRR", "FOTTPWRR"], "known": ["", "", "", ""], '
    '"lacks": ["", "", "", ""], "collections": ["W", "W", "T", "R"], "discard": "", '
    '"deck": "FFFFOOOOOTTTTTDDDDDDDDPPPPPPPPPPMMMMMMMMMMMMWWWWWWWWWWRRRRRRRR", "turn": 0}')
_EX_START_2 = (
    '{"players": 2, "dealer": 0, "to_move": 0, "phase": "lay", "rows": ["MWO", "PWR", "PMR", "ROF"], '
    '"hands": ["FOTDMMWW", "DDDMWWRR"], "known": ["", ""], "lacks": ["", ""], '
    '"collections": ["R", "R"], "discard": "", '
    '"deck": "FFFFFOOOOOOOTTTTTTTTTDDDDDDDDDPPPPPPPPPPPMMMMMMMMMMMMWWWWWWWWWWWWWWRRRRRRRRRRRRR", "turn": 0}')
_EX_START_5 = (
    '{"players": 5, "dealer": 0, "to_move": 0, "phase": "lay", "rows": ["MWO", "PWR", "PMR", "ROF"], '
    '"hands": ["FOTDMMWW", "DDDMWWRR", "OTDWRRRR", "FOTTPWRR", "TMMWWWRR"], '
    '"known": ["", "", "", "", ""], "lacks": ["", "", "", "", ""], '
    '"collections": ["M", "W", "T", "F", "P"], "discard": "", '
    '"deck": "FFFOOOOOTTTTDDDDDDDDPPPPPPPPPMMMMMMMMMWWWWWWWWRRRRRRR", "turn": 0}')
_EX_MID_4 = (
    '{"players": 4, "dealer": 0, "to_move": 0, "phase": "lay", '
    '"rows": ["OOOPRR", "DRRR", "OPMMDWWTTT", "MMROFDW"], '
    '"hands": ["FOPMMWWW", "PWWWW", "DDDPMWW", "FTPPM"], "known": ["", "PW", "DDD", "M"], '
    '"lacks": ["", "R", "", ""], "collections": ["W", "W", "T", "TRR"], "discard": "TTRRRRR", '
    '"deck": "FFFFOOOOTTDDDDDDDPPPPPPMMMMMMMMMWWWWWWRRRRRRR", "turn": 20}')
_EX_MID_3 = (
    '{"players": 3, "dealer": 0, "to_move": 0, "phase": "lay", '
    '"rows": ["PRRRRRR", "DDDPWR", "WPMMMMM", "TFFP"], '
    '"hands": ["DWWWR", "TDWWR", "FOPPR"], "known": ["DWR", "TDWWR", ""], '
    '"lacks": ["FOTDM", "DMWR", ""], "collections": ["OR", "T", "T"], "discard": "OO", '
    '"deck": "FFFFOOOOOOTTTTTTDDDDDDDDPPPPPPPMMMMMMMMMMMMWWWWWWWWWWWWWRRRRRRRRR", "turn": 12}')

EXAMPLES = (_EX_START_4, _EX_START_2, _EX_START_5, _EX_MID_4, _EX_MID_3)
BENCH_POSITION = _EX_MID_4


# ------------------------------------------------------------------ Python-side helpers
def _letters(counts):
    return "".join(LETTERS[s] * counts[s] for s in range(NSP))


def _counts(cards):
    if not cards:
        return "-"
    return " ".join(f"{l}x{cards.count(l)}" for l in LETTERS if l in cards)


def _status(Cubirds s):
    cdef Core* c = &s.c
    ph = c.phase
    p = c.player
    if ph == PH_LAY:
        return f"seat {p} to lay"
    if ph == PH_DRAW:
        return f"seat {p} took nothing: draw two or not (draw / nodraw)"
    if ph == PH_FLOCK:
        return f"seat {p} may form a flock (flock:X / noflock)"
    if ph == PH_COMPLETE:
        return (f"dealer seat {c.dealer} chooses the end of row {c.frow + 1} for the "
                f"completing {LETTERS[c.fcard]} (left / right)")
    if ph == PH_DRAWING:
        return f"chance: seat {p} draws ({c.pending} to go)"
    if ph == PH_FILLING:
        return f"chance: row {c.frow + 1} is being completed from the draw pile"
    if ph == PH_DEAL:
        return f"chance: seat {c.dealer} deals (seat {deal_recipient(&s.c)} next)"
    if ph == PH_SETUP:
        return "chance: setting up"
    w = s.winners()
    if len(w) == 1:
        return f"game over: seat {w[0]} wins"
    return "game over: seats " + ", ".join(map(str, w)) + " share the victory"


def _fault(msg):
    raise PositionError(msg)


def _int_field(d, key, lo, hi):
    v = d[key]
    if isinstance(v, bool) or not isinstance(v, int):
        _fault(f"{key!r} must be an integer, got {v!r}")
    if not lo <= v <= hi:
        _fault(f"{key!r} must be {lo}..{hi}, got {v}")
    return v


def _card_counts(v, where):
    if not isinstance(v, str):
        _fault(f"{where} must be a string of species letters, got {v!r}")
    counts = [0] * NSP
    for ch in v:
        if ch not in LETTERS:
            _fault(f"{where} ({v!r}): {ch!r} is not a species letter ({LETTERS})")
        counts[LETTERS.index(ch)] += 1
    return counts


def _str_list(d, key, n, default=None):
    if key not in d:
        return [default] * n
    v = d[key]
    if not isinstance(v, list):
        _fault(f"{key!r} must be a list of {n} strings, got {v!r}")
    if len(v) != n:
        _fault(f"{key!r} must list {n} entries (one per {'row' if key == 'rows' else 'player'}), got {len(v)}")
    return v


_REQUIRED = ("players", "dealer", "to_move", "phase", "rows", "hands", "collections",
             "discard", "deck", "turn")
_OPTIONAL = ("known", "lacks", "pending", "row", "card", "winners")


def _deal_order_ok(sizes, dealer, n, full):
    """Sizes in deal order (dealer first) are full..full, then at most one partial, then 0."""
    seq = [sizes[(dealer + k) % n] for k in range(n)]
    i = 0
    while i < n and seq[i] == full:
        i += 1
    if i < n and 0 < seq[i] < full:
        i += 1
    return all(x == 0 for x in seq[i:]) and all(0 <= x <= full for x in seq)


def _from_dict(cls, d):
    cdef Cubirds s = cls.__new__(cls)
    cdef Core* c = &s.c
    for k in d:
        if k not in _REQUIRED and k not in _OPTIONAL:
            _fault(f"unknown field {k!r} (fields: {', '.join(_REQUIRED + _OPTIONAL)})")
    for k in _REQUIRED:
        if k not in d:
            _fault(f"missing field {k!r}")
    n = _int_field(d, "players", 2, 5)
    dealer = _int_field(d, "dealer", 0, n - 1)
    player = _int_field(d, "to_move", 0, n - 1)
    phase = d["phase"]
    if phase not in PHASES:
        _fault(f"'phase' must be one of {', '.join(PHASES)}, got {phase!r}")
    ph = PHASES.index(phase)
    rows = _str_list(d, "rows", NROWS)
    rowc = [_card_counts(r, f"rows[{i}]") for i, r in enumerate(rows)]
    hands = _str_list(d, "hands", n)
    handc = [_card_counts(h, f"hands[{q}]") for q, h in enumerate(hands)]
    known = _str_list(d, "known", n, "")
    knownc = [_card_counts(h, f"known[{q}]") for q, h in enumerate(known)]
    lacks = _str_list(d, "lacks", n, "")
    lackc = [_card_counts(h, f"lacks[{q}]") for q, h in enumerate(lacks)]
    colls = _str_list(d, "collections", n)
    collc = [_card_counts(h, f"collections[{q}]") for q, h in enumerate(colls)]
    discard = _card_counts(d["discard"], "'discard'")
    deck = _card_counts(d["deck"], "'deck'")
    turn = d["turn"]
    if isinstance(turn, bool) or not isinstance(turn, int) or turn < 0:
        _fault(f"'turn' must be a non-negative integer, got {turn!r}")
    if turn > TURN_CAP:
        _fault(f"'turn' must be 0..{TURN_CAP} (the game ends after {TURN_CAP} turns), got {turn}")
    # phase-specific fields
    for key, phases in (("pending", ("drawing",)), ("row", ("filling", "complete")),
                        ("card", ("complete",)), ("winners", ("over",))):
        if key in d and phase not in phases:
            _fault(f"field {key!r} belongs to phase {' or '.join(phases)}, not {phase!r}")
        if key not in d and phase in phases:
            _fault(f"phase {phase!r} needs the field {key!r}")
    pending = 0
    frow = -1
    fcard = -1
    winners = 0
    if phase == "drawing":
        pending = _int_field(d, "pending", 1, 2)
    if phase in ("filling", "complete"):
        frow = _int_field(d, "row", 1, 4) - 1
    if phase == "complete":
        cd = d["card"]
        if not isinstance(cd, str) or len(cd) != 1 or cd not in LETTERS:
            _fault(f"'card' must be one species letter ({LETTERS}), got {cd!r}")
        fcard = LETTERS.index(cd)
    if phase == "over":
        w = d["winners"]
        if (not isinstance(w, list) or not w or any(isinstance(x, bool) or not isinstance(x, int) for x in w)
                or len(set(w)) != len(w) or any(not 0 <= x < n for x in w)):
            _fault(f"'winners' must be a non-empty list of distinct seats 0..{n - 1}, got {w!r}")
        for x in w:
            winners |= 1 << x
    # card totals
    tot = [0] * NSP
    for group in (rowc, handc, collc, [discard], [deck]):
        for cnt in group:
            for sp in range(NSP):
                tot[sp] += cnt[sp]
    if fcard >= 0:
        tot[fcard] += 1
    if sum(tot) != TOTAL:
        _fault(f"the position holds {sum(tot)} cards, not {TOTAL}")
    for sp in range(NSP):
        if tot[sp] != _COPIES[sp]:
            _fault(f"there are {tot[sp]} {LETTERS[sp]} ({SPECIES_NAMES[sp]}) cards, not {_COPIES[sp]}")
    # hands: known and lacks
    for q in range(n):
        for sp in range(NSP):
            if knownc[q][sp] > handc[q][sp]:
                _fault(f"known[{q}] lists {knownc[q][sp]} {LETTERS[sp]} but hands[{q}] holds {handc[q][sp]}")
        for sp in range(NSP):
            if lackc[q][sp] > 1:
                _fault(f"lacks[{q}] ({lacks[q]!r}) repeats {LETTERS[sp]}")
            if lackc[q][sp] and handc[q][sp] > knownc[q][sp]:
                _fault(f"lacks[{q}] says the unknown part of hand {q} holds no {LETTERS[sp]}, "
                       f"but it holds {handc[q][sp] - knownc[q][sp]}")
    sizes = [sum(h) for h in handc]
    csizes = [sum(cc) for cc in collc]
    # rows
    if phase == "setup":
        for r in range(NROWS):
            if len(rows[r]) > 3 or max(rowc[r]) > 1:
                _fault(f"rows[{r}] ({rows[r]!r}): during setup a row holds at most 3 different species")
            if r > 0 and len(rows[r]) and len(rows[r - 1]) < 3:
                _fault(f"rows[{r}] is being laid before rows[{r - 1}] is complete")
    else:
        for r in range(NROWS):
            if not rows[r]:
                _fault(f"rows[{r}] is empty: a row always holds cards after the setup")
    if phase != "over" and turn >= TURN_CAP:
        _fault(f"'turn' is {turn}: the game ends after {TURN_CAP} turns (phase must be 'over')")
    ndeck = sum(deck)
    ndiscard = sum(discard)
    if ph >= PH_DRAWING and ph != PH_OVER and ndeck == 0:
        _fault(f"phase {phase!r} draws a card but the draw pile is empty "
               f"(a reshuffle would already have merged the discard pile)")
    if phase != "over":
        for q in range(n):
            if _wins(collc[q]):
                _fault(f"collections[{q}] ({colls[q]!r}) already wins: the phase must be 'over'")
    else:
        # rules "A turn" 5: a winning collection ends the game at once (only the player on
        # turn can complete one, so at most one does); otherwise the game ended by a failed
        # deal or the turn cap ("The draw pile"): the most collection cards win, ties share.
        wins = [q for q in range(n) if _wins(collc[q])]
        if len(wins) > 1:
            _fault(f"collections {wins} all win: the game ends at the first winning collection")
        if wins:
            expect = wins
            why = f"collections[{wins[0]}] ({colls[wins[0]]!r}) wins"
        else:
            most = max(csizes)
            expect = [q for q in range(n) if csizes[q] == most]
            why = f"no collection wins, so the most collection cards ({most}) win"
        if sorted(d["winners"]) != expect:
            _fault(f"'winners' is {d['winners']!r} but {why}: the winners are {expect}")
    if phase in ("setup", "deal"):
        if player != dealer:
            _fault(f"during the {phase}, 'to_move' must be the dealer ({dealer}), got {player}")
        for q in range(n):
            if known[q] or lacks[q]:
                _fault(f"during the {phase}, no card is known and no 'lacks' fact holds (player {q})")
        if phase == "setup":
            if turn:
                _fault(f"'turn' is {turn} during the setup")
            rows_done = all(len(r) == 3 for r in rows)
            if not rows_done and any(sizes):
                _fault("cards are dealt to hands before the rows are laid")
            if not _deal_order_ok(sizes, dealer, n, HAND):
                _fault(f"hand sizes {sizes} do not fit a deal of 8 each from the dealer in seat order")
            hands_done = all(x == HAND for x in sizes)
            if not hands_done and any(csizes):
                _fault("collection cards are dealt before the hands")
            if not _deal_order_ok(csizes, dealer, n, 1):
                _fault(f"collection sizes {csizes} do not fit the setup (one card each, dealer first)")
            if hands_done and all(x == 1 for x in csizes):
                _fault("the setup is complete: the phase must be 'lay'")
        else:
            if not _deal_order_ok(sizes, dealer, n, HAND) or all(x == HAND for x in sizes):
                _fault(f"hand sizes {sizes} do not fit a deal in progress (8 each, dealer first)")
            if ndeck + ndiscard < HAND * n - sum(sizes):
                _fault(f"the piles hold {ndeck + ndiscard} cards, too few to finish the deal")
    elif phase != "over":
        for q in range(n):
            if q != player and sizes[q] == 0:
                _fault(f"hands[{q}] is empty in the middle of a round")
        if phase == "lay" and sizes[player] == 0:
            _fault(f"player {player} must lay but holds no cards")
        if phase == "draw" and ndeck + ndiscard == 0:
            _fault("phase 'draw' but the draw and discard piles are both empty (no draw option)")
        if phase == "flock" and not any(handc[player][sp] >= _SMALL[sp] for sp in range(NSP)):
            _fault(f"phase 'flock' but hand {player} ({hands[player]!r}) reaches no small flock")
        if phase in ("filling", "complete"):
            rr = rows[frow]
            if len(set(rr)) != 1:
                _fault(f"row {frow + 1} ({rr!r}) is being completed but holds more than one species")
            if phase == "complete" and LETTERS[fcard] == rr[0]:
                _fault(f"the completing card {LETTERS[fcard]} is of row {frow + 1}'s species: it would just join the row")
    # build
    s.n_players = n
    c.n = n
    c.dealer = dealer
    c.player = player
    c.phase = ph
    c.pending = pending
    c.frow = frow
    c.fcard = fcard
    c.turn = turn
    c.winners = winners
    for r in range(NROWS):
        c.rowlen[r] = len(rows[r])
        for i, ch in enumerate(rows[r]):
            c.row[r][i] = LETTERS.index(ch)
    for q in range(n):
        c.hsize[q] = sizes[q]
        c.lacks[q] = sum(1 << sp for sp in range(NSP) if lackc[q][sp])
        for sp in range(NSP):
            c.hand[q][sp] = handc[q][sp]
            c.known[q][sp] = knownc[q][sp]
            c.coll[q][sp] = collc[q][sp]
    for sp in range(NSP):
        c.deck[sp] = deck[sp]
        c.discard[sp] = discard[sp]
    c.ndeck = ndeck
    c.ndiscard = ndiscard
    return s


def _wins(coll):
    kinds = sum(1 for x in coll if x)
    threes = sum(1 for x in coll if x >= 3)
    return kinds >= 7 or threes >= 2
