"""A turn (§3, §4, §5.1).  Each ``*_gen`` looks at its frame: it either writes the legal
moves of the pending decision and returns how many (through ``node``), or applies an
automatic step, changes the stack and returns 0 so that the machine looks again.  Each
``*_apply`` applies a move at that frame's decision."""
from roost.core.wingspan.tables cimport *
from roost.core.wingspan.state cimport (
    Core, Frame, Player, hand_add, hand_remove, hand_list, to_discard, total_room, total_eggs,
    total_food, can_draw_deck, draw_opts, die_opts, die_apply, batch_slots, push, pop,
    push_pow, start_turn, node)
from roost.core.wingspan.cards cimport draw_take, refill_tray
from roost.core.wingspan.payments cimport any_play, play_ok, pay_food_opts
from roost.core.wingspan.scoring cimport score_round


# ---------------------------------------------------------------------------- pink reactions (§4)
cdef void push_pink(Core* c, int ev, int hab) noexcept nogil:
    """A PINK frame with the eligible reactions to an event of the active player (§4);
    nothing when none is eligible."""
    cdef int q, s, b, active = c.cur
    cdef unsigned short mask
    cdef unsigned short masks[MAXP]
    cdef bint any = False
    cdef Frame* F
    for q in range(c.n):
        masks[q] = 0
        if q == active:
            continue
        mask = 0
        for s in range(15):
            b = c.pl[q].bird[s]
            if b >= 0 and B_TRIG[b] == ev and (ev != EV_C or B_TARG[b] == hab) \
                    and not (c.pl[q].pink_used >> s) & 1:
                mask |= 1 << s
        masks[q] = mask
        if mask:
            any = True
    if not any:
        return
    F = push(c, FR_PINK, -1)
    F.ev = ev
    F.hab = hab if ev == EV_C else -1
    F.active = active
    for q in range(c.n):
        F.q[q] = masks[q]


cdef int pink_gen(Core* c, Frame* F) noexcept nogil:
    """The next reaction in the queue: owners clockwise from the active player, slots
    ascending (§4)."""
    cdef int k, q, s, b
    for k in range(1, c.n):
        q = (F.active + k) % c.n
        if F.q[q]:
            s = ws_ctz64(F.q[q])
            F.q[q] &= ~(1 << s)
            b = c.pl[q].bird[s]
            if b >= 0:
                push_pow(c, q, s, b, 0)
            return 0
    pop(c)
    return 0


# ---------------------------------------------------------------------------- the action (§3.2)
cdef int act_gen(Core* c, Frame* F, int* out) noexcept nogil:
    cdef int n = 0
    if any_play(&c.pl[F.seat], -1):
        out[n] = O_ACTION
        n += 1
    out[n] = O_ACTION + 1
    out[n + 1] = O_ACTION + 2
    out[n + 2] = O_ACTION + 3
    return node(c, F.seat, P_TURN_ACTION, K_ACTION, n + 3)


cdef void act_apply(Core* c, Frame* F, int m) noexcept nogil:
    cdef int seat = F.seat, a = m - O_ACTION, j, n
    cdef Player* P = &c.pl[seat]
    cdef Frame* G
    P.cubes -= 1
    pop(c)
    if a == 0:
        push(c, FR_PLAY, seat)
        return
    G = push(c, FR_MAT, seat)
    G.hab = a - 1
    j = P.rows[a - 1]
    if a == 1:
        G.n = FOREST_N[j]
        G.trade = j & 1
    elif a == 2:
        n = GRASS_N[j]
        G.n = n
        G.trade = 1 if ((j & 1) and total_food(P) >= 1 and total_room(P) > n) else 0
    else:
        G.n = WET_N[j]
        G.trade = j & 1


# ---------------------------------------------------------------------------- playing a bird (§3.3)
cdef void place_bird(Core* c, Frame* F) noexcept nogil:
    """Step 4 of §3.3, then the white power and, above it, the pink reactions (c)."""
    cdef int p = F.seat, b = F.card, h = F.hab
    cdef Player* P = &c.pl[p]
    cdef int s = 5 * h + P.rows[h], t
    P.bird[s] = b
    P.egg[s] = 0
    for t in range(5):
        P.cache[s][t] = 0
    P.ntuck[s] = 0
    P.rows[h] += 1
    hand_remove(c, p, b)
    c.cloc[b] = L_MAT
    c.cown[b] = p
    c.cslot[b] = s
    c.ctag[b] = 0
    c.ctk[b] = 0
    pop(c)
    if B_COL[b] == COL_WHITE:
        push_pow(c, p, s, b, 0)
    push_pink(c, EV_C, h)


cdef int play_card_opts(Core* c, Frame* F, int* out) noexcept nogil:
    cdef Player* P = &c.pl[F.seat]
    cdef int n = 0, i, nh, b
    cdef bint ok
    cdef int cards[NB]
    nh = hand_list(P, cards)
    for i in range(nh):
        b = cards[i]
        if F.req >= 0:
            ok = play_ok(P, b, F.req)
        else:
            ok = play_ok(P, b, 0) or play_ok(P, b, 1) or play_ok(P, b, 2)
        if ok:
            out[n] = O_CARD + b
            n += 1
    if F.src == 1:
        out[n] = O_CARD + CARD_SKIP
        n += 1
    return n


cdef int play_gen(Core* c, Frame* F, int* out) noexcept nogil:
    cdef Player* P = &c.pl[F.seat]
    cdef int n = 0, h
    cdef bint complete
    if F.card < 0:
        n = play_card_opts(c, F, out)
        if n == 0:
            pop(c)          # cannot happen from play: nothing to play
            return 0
        return node(c, F.seat, P_PLAY_CARD, K_CARD, n)
    if F.hab < 0:
        for h in range(3):
            if play_ok(P, F.card, h):
                out[n] = O_HABITAT + h
                n += 1
        if n == 0:
            pop(c)
            return 0
        return node(c, F.seat, P_PLAY_HABITAT, K_HABITAT, n)
    if F.egg > 0:
        n = batch_slots(P, F.last, F.egg, True, out)
        if n == 0:
            F.egg = 0
            return 0
        return node(c, F.seat, P_PLAY_PAY_EGG, K_SLOT, n)
    if B_CFORM[F.card] != 0:
        n = pay_food_opts(c, F, out, &complete)
        if not complete and n > 0:
            return node(c, F.seat, P_PLAY_PAY_FOOD, K_FOOD, n)
    place_bird(c, F)
    return 0


cdef void play_apply(Core* c, Frame* F, int m) noexcept nogil:
    cdef Player* P = &c.pl[F.seat]
    cdef int local
    if c.purpose == P_PLAY_CARD:
        local = m - O_CARD
        if local == CARD_SKIP:
            pop(c)
            return
        F.card = local
        if F.req >= 0:
            F.hab = F.req
            F.egg = EGG_COST[P.rows[F.req]]
            F.last = -1
    elif c.purpose == P_PLAY_HABITAT:
        F.hab = m - O_HABITAT
        F.egg = EGG_COST[P.rows[F.hab]]
        F.last = -1
    elif c.purpose == P_PLAY_PAY_EGG:
        local = m - O_SLOT
        P.egg[local] -= 1
        F.egg -= 1
        F.last = local
    elif c.purpose == P_PLAY_PAY_FOOD:
        local = m - O_FOOD
        P.food[local] -= 1
        F.paid[local] += 1


# ---------------------------------------------------------------------------- the mat step (§3.5-3.8)
cdef inline void start_row(Core* c, int seat, int h) noexcept nogil:
    """The mat step is over: the row's brown powers activate from the right (§3.9)."""
    cdef Frame* G
    pop(c)
    G = push(c, FR_ROW, seat)
    G.hab = h
    G.col = c.pl[seat].rows[h] - 1


cdef int forest_gen(Core* c, Frame* F, int* out) noexcept nogil:
    """Gain food (§3.5): the dice, the card-for-a-die trade, then pink (b) and the row."""
    cdef Player* P = &c.pl[F.seat]
    cdef int nh, i, seat = F.seat, rodent
    cdef int cards[NB]
    if F.n > 0:
        return node(c, seat, P_TAKE_DIE, K_DIE, die_opts(c, 31, False, out))
    if F.trade:
        if P.nhand == 0:
            F.trade = 0
            return 0
        nh = hand_list(P, cards)
        for i in range(nh):
            out[i] = O_CARD + cards[i]
        out[nh] = O_CARD + CARD_SKIP
        return node(c, seat, P_FOREST_TRADE, K_CARD, nh + 1)
    rodent = F.rodent
    start_row(c, seat, 0)
    if rodent:
        push_pink(c, EV_B, -1)
    return 0


cdef int grass_gen(Core* c, Frame* F, int* out) noexcept nogil:
    """Lay eggs (§3.7): the food-for-an-egg trade first, the eggs as one canonical batch,
    then pink (a) and the row."""
    cdef Player* P = &c.pl[F.seat]
    cdef int n = 0, t, r, seat = F.seat
    if F.trade:
        for t in range(5):
            if P.food[t] > 0:
                out[n] = O_FOOD + t
                n += 1
        if n == 0:
            F.trade = 0
            return 0
        out[n] = O_FOOD + FOOD_SKIP
        return node(c, seat, P_GRASS_TRADE, K_FOOD, n + 1)
    r = total_room(P)
    if F.n > r:
        F.n = r
    if F.n > 0:
        return node(c, seat, P_LAY_EGG, K_SLOT, batch_slots(P, F.last, F.n, False, out))
    start_row(c, seat, 1)
    push_pink(c, EV_A, -1)
    return 0


cdef int wet_gen(Core* c, Frame* F, int* out) noexcept nogil:
    """Draw cards (§3.8): the draws, the egg-for-a-card trade, then the row."""
    cdef Player* P = &c.pl[F.seat]
    cdef int n = 0, s, seat = F.seat
    if F.n > 0:
        n = draw_opts(c, F.last, F.deck, out)
        if n == 0:
            F.n = 0
            return 0
        return node(c, seat, P_DRAW_SOURCE, K_SOURCE, n)
    if F.trade:
        if total_eggs(P) >= 1 and (c.tray[0] >= 0 or c.tray[1] >= 0 or c.tray[2] >= 0 or can_draw_deck(c)):
            for s in range(15):
                if P.egg[s] > 0:
                    out[n] = O_SLOT + s
                    n += 1
            out[n] = O_SLOT + SLOT_SKIP
            return node(c, seat, P_WET_TRADE, K_SLOT, n + 1)
        F.trade = 0
        return 0
    start_row(c, seat, 2)
    return 0


cdef int mat_gen(Core* c, Frame* F, int* out) noexcept nogil:
    if F.hab == 0:
        return forest_gen(c, F, out)
    if F.hab == 1:
        return grass_gen(c, F, out)
    return wet_gen(c, F, out)


cdef void mat_apply(Core* c, Frame* F, int m) noexcept nogil:
    cdef Player* P = &c.pl[F.seat]
    cdef int local, r, b, tag
    if c.purpose == P_TAKE_DIE:
        r = die_apply(c, F.seat, m - O_DIE)
        if r >= 0:
            F.n -= 1
            if r == 4:
                F.rodent = 1
    elif c.purpose == P_FOREST_TRADE:
        local = m - O_CARD
        F.trade = 0
        if local != CARD_SKIP:
            hand_remove(c, F.seat, local)
            to_discard(c, local)
            F.n = 1
    elif c.purpose == P_GRASS_TRADE:
        local = m - O_FOOD
        F.trade = 0
        if local != FOOD_SKIP:
            P.food[local] -= 1
            F.n += 1
    elif c.purpose == P_LAY_EGG:
        local = m - O_SLOT
        P.egg[local] += 1
        F.last = local
        F.n -= 1
    elif c.purpose == P_DRAW_SOURCE:
        b = draw_take(c, m - O_SOURCE, &F.last, &F.deck, &tag)
        if b >= 0:
            hand_add(c, F.seat, b, tag)
        F.n -= 1
    elif c.purpose == P_WET_TRADE:
        local = m - O_SLOT
        F.trade = 0
        if local != SLOT_SKIP:
            P.egg[local] -= 1
            F.n = 1


# ---------------------------------------------------------------------------- row activation (§3.9)
cdef int row_gen(Core* c, Frame* F) noexcept nogil:
    cdef int s, b, seat = F.seat
    if F.col < 0:
        pop(c)
        return 0
    s = 5 * F.hab + F.col
    F.col -= 1
    b = c.pl[seat].bird[s]
    if b >= 0 and B_COL[b] == COL_BROWN:
        push_pow(c, seat, s, b, 0)
    return 0


# ---------------------------------------------------------------------------- end of turn (§3.10) and round (§5.1)
cdef int turn_end(Core* c, Frame* F) noexcept nogil:
    """The turn's steps are done: the TURN frame becomes the EOT frame."""
    cdef int seat = F.seat
    pop(c)
    push(c, FR_EOT, seat)
    return 0


cdef void next_turn(Core* c) noexcept nogil:
    c.t += 1
    if c.t >= c.n * (9 - c.round):
        push(c, FR_ROUND_END, -1)
    else:
        start_turn(c)


cdef int eot_gen(Core* c, Frame* F, int* out) noexcept nogil:
    cdef Player* P = &c.pl[F.seat]
    cdef int nh, i, rem, n = 0
    cdef int cards[NB]
    if P.owe > 0 and P.nhand > 0:
        nh = hand_list(P, cards)
        rem = P.owe if P.owe < nh else nh
        for i in range(nh):
            if cards[i] > F.last and nh - i >= rem:
                out[n] = O_CARD + cards[i]
                n += 1
        return node(c, F.seat, P_EOT_DISCARD, K_CARD, n)
    P.owe = 0
    refill_tray(c)
    pop(c)
    next_turn(c)
    return 0


cdef void eot_apply(Core* c, Frame* F, int m) noexcept nogil:
    cdef int b = m - O_CARD
    hand_remove(c, F.seat, b)
    to_discard(c, b)
    c.pl[F.seat].owe -= 1
    F.last = b


cdef int round_end_gen(Core* c) noexcept nogil:
    cdef int s, p
    pop(c)
    score_round(c)
    if c.round >= 4:
        c.phase = PH_OVER
        c.nst = 0
        return 0
    for s in range(3):
        if c.tray[s] >= 0:
            to_discard(c, c.tray[s])
            c.tray[s] = -1
    refill_tray(c)
    c.round += 1
    c.first = (c.round - 1) % c.n
    c.t = 0
    for p in range(c.n):
        c.pl[p].cubes = 9 - c.round
    start_turn(c)
    return 0
