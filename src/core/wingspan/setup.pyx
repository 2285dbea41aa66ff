"""Setup (§1.3, §7.4): the deal drawn from the seed, and the setup choices of each seat
(keep birds, discard food, keep a bonus card), buffered and applied together after the
last seat (§1.3 step 8)."""
from libc.stdint cimport uint64_t, uint8_t

from roost.core.rng cimport splitmix64
from roost.core.wingspan.tables cimport *
from roost.core.wingspan.state cimport (
    Core, Frame, Player, rbelow, roll_all, hand_add, hand_remove, hand_list, to_discard,
    bonus_discard, push, pop, start_turn, node, setup_kept)
from roost.core.wingspan.cards cimport deck_draw, refill_tray, bonus_draw


cdef inline void shuffle_bytes(Core* c, uint8_t* a, int n) noexcept nogil:
    cdef int i, j, tmp
    for i in range(n - 1, 0, -1):
        j = rbelow(c, i + 1)
        tmp = a[i]
        a[i] = a[j]
        a[j] = tmp


cdef void deal(Core* c, int n, int side, uint64_t seed) noexcept nogil:
    """A new game on a blank Core: decks, tray, feeder, goals, hands and bonus cards drawn
    from the seed, in the order of §1.3; the first setup decision is pending."""
    cdef int i, j, tmp, p, b, k
    cdef int tiles[8]
    cdef uint64_t x = seed
    c.side = side
    c.rng = splitmix64(&x)
    for i in range(NB):
        c.deck[i] = i
    shuffle_bytes(c, c.deck, NB)
    c.ndeck = NB
    for i in range(NB):
        c.cloc[i] = L_DECK
    refill_tray(c)
    roll_all(c)
    for i in range(8):
        tiles[i] = i
    for i in range(7, 0, -1):
        j = rbelow(c, i + 1)
        tmp = tiles[i]
        tiles[i] = tiles[j]
        tiles[j] = tmp
    for i in range(4):
        c.goals[i] = 2 * tiles[i] + rbelow(c, 2)
    for i in range(NBON):
        c.bdeck[i] = i
    shuffle_bytes(c, c.bdeck, NBON)
    c.nbdeck = NBON
    for p in range(n):
        for k in range(5):
            b = deck_draw(c)
            hand_add(c, p, b, 0)
        for k in range(2):
            b = bonus_draw(c)
            c.bloc[b] = B_HELD
            c.bown[b] = p
        for k in range(5):
            c.pl[p].food[k] = 1
        c.pl[p].cubes = 8
    c.phase = PH_SETUP
    push(c, FR_SETUP, 0)


cdef int setup_gen(Core* c, Frame* F, int* out) noexcept nogil:
    cdef Player* P = &c.pl[F.seat]
    cdef int n = 0, t, u, last = 0, rem, tot, b
    if F.stage == 0:
        out[0] = O_YESNO
        out[1] = O_YESNO + 1
        return node(c, F.seat, P_SETUP_KEEP_BIRD, K_YESNO, 2)
    if F.stage == 1:
        rem = setup_kept(P) - F.i
        for t in range(5):
            if P.sfood[t] > 0:
                last = t
        for t in range(last, 5):
            if P.food[t] - P.sfood[t] < 1:
                continue
            tot = 0
            for u in range(t, 5):
                tot += P.food[u] - P.sfood[u]
            if tot >= rem:
                out[n] = O_FOOD + t
                n += 1
        return node(c, F.seat, P_SETUP_DISCARD_FOOD, K_FOOD, n)
    for b in range(NBON):
        if c.bloc[b] == B_HELD and c.bown[b] == F.seat:
            out[n] = O_BONUS + b
            n += 1
    return node(c, F.seat, P_SETUP_KEEP_BONUS, K_BONUS, n)


cdef void apply_setup(Core* c) noexcept nogil:
    """The buffered setup choices of every seat, applied together (§1.3 step 8)."""
    cdef int p, i, t, b, nh
    cdef int cards[NB]
    cdef Player* P
    for p in range(c.n):
        P = &c.pl[p]
        nh = hand_list(P, cards)
        for i in range(nh):
            if not (P.skeep >> i) & 1:
                hand_remove(c, p, cards[i])
                to_discard(c, cards[i])
        for t in range(5):
            P.food[t] -= P.sfood[t]
            P.sfood[t] = 0
        for b in range(NBON):
            if c.bloc[b] == B_HELD and c.bown[b] == p and b != P.sbonus:
                bonus_discard(c, b, p)
        P.skeep = 0
        P.sbonus = -1
    c.phase = PH_PLAY
    c.round = 1
    c.first = 0
    c.t = 0
    for p in range(c.n):
        c.pl[p].cubes = 8
    start_turn(c)


cdef void setup_apply(Core* c, Frame* F, int m) noexcept nogil:
    cdef Player* P = &c.pl[F.seat]
    cdef int local
    if F.stage == 0:
        if m == O_YESNO + 1:
            P.skeep |= 1 << F.i
        F.i += 1
        if F.i >= 5:
            F.i = 0
            F.stage = 1 if setup_kept(P) > 0 else 2
        return
    if F.stage == 1:
        local = m - O_FOOD
        P.sfood[local] += 1
        F.i += 1
        if F.i >= setup_kept(P):
            F.i = 0
            F.stage = 2
        return
    P.sbonus = m - O_BONUS
    if F.seat + 1 < c.n:
        F.seat += 1
        F.stage = 0
        F.i = 0
        return
    pop(c)
    apply_setup(c)
