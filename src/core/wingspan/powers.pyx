"""Bird powers (§9).  A POW frame runs one bird's compiled program (at most two steps
joined by ``then``).  ``pow_gen`` first settles the prompt of §9.1 (no-op, applied without
asking, or a POWER_CONFIRM node), then hands the step to its verb family: food, eggs,
cards, predators, bonus cards, the draft, or structure (extra plays, moves, repeats).
``pow_apply`` dispatches a move by the purpose of the node it answers.

Every family function either writes a decision (returns the number of moves) or finishes
the step (``step_done`` / ``pop``) and returns 0; the frame pointer is invalid after a pop."""
from libc.stdint cimport uint8_t

from roost.core.int_sort cimport sort_ascending
from roost.core.wingspan.tables cimport *
from roost.core.wingspan.state cimport (
    Core, Frame, Player, rbelow, told, trace, roll_all, one_faced, feeder_gives, die_opts, die_apply,
    hand_add, hand_remove, hand_list, to_discard, can_draw_deck, draw_opts, tuck_card,
    bonus_discard, room, total_room, total_food, matches, lay_opts, push, pop, clear_st,
    push_pow, node)
from roost.core.wingspan.cards cimport deck_draw, draw_take, bonus_draw
from roost.core.wingspan.payments cimport any_play
from roost.core.wingspan.turn cimport push_pink


# ---------------------------------------------------------------------------- shared tests
cdef inline bint is_rightmost(Player* P, int slot) noexcept nogil:
    return slot % 5 == P.rows[slot // 5] - 1


cdef int move_opts(Core* c, int p, int slot, int* out) noexcept nogil:
    """MOVE_IF_RIGHTMOST: the other habitats of this bird with room, if it is rightmost."""
    cdef Player* P = &c.pl[p]
    cdef int h, n = 0, b = P.bird[slot], here = slot // 5
    if b < 0 or not is_rightmost(P, slot):
        return 0
    for h in range(3):
        if h != here and (B_HAB[b] >> h) & 1 and P.rows[h] < 5:
            out[n] = O_HABITAT + h
            n += 1
    return n


cdef bint anyone_lays(Core* c, int nest, int skip_player) noexcept nogil:
    cdef int q, s, b
    for q in range(c.n):
        if q == skip_player:
            continue
        for s in range(15):
            b = c.pl[q].bird[s]
            if b >= 0 and c.pl[q].egg[s] < B_EGGS[b] and matches(b, nest):
                return True
    return False


cdef bint noop_basic(Core* c, int p, int slot, int b, int step) noexcept nogil:
    """§9.3 no-op tests: the step cannot change the state now (REPEAT_* excepted)."""
    cdef Player* P = &c.pl[p]
    cdef int v = B_VERB[b][step], a0 = B_A0[b][step], a1 = B_A1[b][step], s, h
    cdef int buf[16]
    if v == V_GAIN_FEEDER:
        return not feeder_gives(c, a0) and not one_faced(c)
    if v == V_GAIN_ALL_FEEDER:
        return not feeder_gives(c, 1 << a0) and not one_faced(c)
    if v == V_SPEND_FOOD:
        return P.food[a0] == 0
    if v == V_TRADE_FOOD:
        return total_food(P) == 0
    if v == V_LAY_SELF:
        return room(P, slot) <= 0
    if v == V_LAY_ANY:
        return total_room(P) == 0
    if v == V_LAY_EACH:
        return lay_opts(c, p, a0, -1, buf) == 0
    if v == V_ALL_PLAYERS_LAY:
        return not anyone_lays(c, a0, -1)
    if v == V_PAY_EGG:
        for s in range(15):
            if P.egg[s] > 0 and (a0 == 0 or s != slot):
                return False
        return True
    if v == V_LAY_NEST:
        return lay_opts(c, p, a0, slot if a1 else -1, buf) == 0
    if v == V_DRAW or v == V_DRAFT:
        return c.tray[0] < 0 and c.tray[1] < 0 and c.tray[2] < 0 and not can_draw_deck(c)
    if v == V_ALL_PLAYERS_DRAW_DECK or v == V_PREDATOR_LOOK:
        return not can_draw_deck(c)
    if v == V_TUCK_HAND:
        return P.nhand == 0
    if v == V_PREDATOR_ROLL:
        return c.nfd >= 5
    if v == V_PLAY_EXTRA:
        h = a0 if a0 >= 0 else slot // 5
        return not any_play(P, h)
    if v == V_MOVE_IF_RIGHTMOST:
        return move_opts(c, p, slot, buf) == 0
    return False


cdef int repeat_opts(Core* c, int p, int slot, bint pred, int* out) noexcept nogil:
    """REPEAT_BROWN / REPEAT_PREDATOR targets: the owner's other birds in this row that are
    brown (or predators), not repeat powers themselves, and not a no-op now."""
    cdef Player* P = &c.pl[p]
    cdef int h = slot // 5, s, b, v, n = 0
    for s in range(5 * h, 5 * h + P.rows[h]):
        b = P.bird[s]
        if s == slot or b < 0:
            continue
        if pred:
            if not B_PRED[b]:
                continue
        elif B_COL[b] != COL_BROWN:
            continue
        v = B_VERB[b][0]
        if v == V_REPEAT_BROWN or v == V_REPEAT_PREDATOR:
            continue
        if noop_basic(c, p, s, b, 0):
            continue
        out[n] = O_SLOT + s
        n += 1
    return n


cdef bint noop(Core* c, int p, int slot, int b, int step) noexcept nogil:
    cdef int v = B_VERB[b][step]
    cdef int buf[16]
    if v == V_REPEAT_BROWN or v == V_REPEAT_PREDATOR:
        return repeat_opts(c, p, slot, v == V_REPEAT_PREDATOR, buf) == 0
    return noop_basic(c, p, slot, b, step)


cdef bint others_gain(Core* c, Frame* F) noexcept nogil:
    """The Y* test of §9.1: some other player can gain from the power now."""
    cdef int b = F.bird, p = F.seat, v = B_VERB[b][0], a0 = B_A0[b][0], q, s, m, bb
    if v == V_ALL_PLAYERS_GAIN_SUPPLY or v == V_ALL_PLAYERS_DRAW_DECK or v == V_DRAFT:
        return c.n >= 2
    if v == V_FEWEST_IN:
        m = 99
        for q in range(c.n):
            if c.pl[q].rows[a0] < m:
                m = c.pl[q].rows[a0]
        for q in range(c.n):
            if q != p and c.pl[q].rows[a0] == m:
                return True
        return False
    if v == V_ALL_PLAYERS_LAY:
        return anyone_lays(c, a0, p)
    if v == V_PREDATOR_LOOK or v == V_PREDATOR_ROLL:
        for q in range(c.n):
            if q == p:
                continue
            for s in range(15):
                bb = c.pl[q].bird[s]
                if bb >= 0 and B_TRIG[bb] == EV_D and not (c.pl[q].pink_used >> s) & 1:
                    return True
        return False
    return False


cdef inline void set_asked(Core* c, Frame* F) noexcept nogil:
    F.asked = 1
    if B_COL[F.bird] == COL_PINK:
        c.pl[F.seat].pink_used |= 1 << F.slot


cdef inline void step_done(Core* c, Frame* F, bint did) noexcept nogil:
    """'X then Y': the next step runs only if this one happened (F is invalid after)."""
    if did and F.step + 1 < B_NSTEPS[F.bird]:
        F.step += 1
        F.did = 0
        clear_st(F)
    else:
        pop(c)


cdef inline int yesno(Core* c, int p, int purpose, int* out) noexcept nogil:
    out[0] = O_YESNO
    out[1] = O_YESNO + 1
    return node(c, p, purpose, K_YESNO, 2)


cdef void move_bird(Core* c, int p, int slot, int h2) noexcept nogil:
    """MOVE_IF_RIGHTMOST: the bird with its eggs, cache and tucks to the end of row h2."""
    cdef Player* P = &c.pl[p]
    cdef int to = 5 * h2 + P.rows[h2], t, b = P.bird[slot], x
    P.bird[to] = b
    P.egg[to] = P.egg[slot]
    P.ntuck[to] = P.ntuck[slot]
    for t in range(5):
        P.cache[to][t] = P.cache[slot][t]
        P.cache[slot][t] = 0
    P.bird[slot] = -1
    P.egg[slot] = 0
    P.ntuck[slot] = 0
    P.rows[slot // 5] -= 1
    P.rows[h2] += 1
    c.cslot[b] = to
    for x in range(NB):
        if c.cloc[x] == L_TUCK and c.cown[x] == p and c.cslot[x] == slot:
            c.cslot[x] = to


# ---------------------------------------------------------------------------- the prompt (§9.1)
cdef int pow_prompt(Core* c, Frame* F, int* out) noexcept nogil:
    """Before the first step: -1 when the power is a no-op (the frame is popped), a
    POWER_CONFIRM node's 2 moves for classes Y and Y*, else 0 (go on, marked as asked when
    it applies without asking)."""
    cdef int k
    if noop(c, F.seat, F.slot, F.bird, 0):
        pop(c)
        return -1
    k = B_ASK[F.bird]
    if k == ASK_A or (k == ASK_YS and not others_gain(c, F)):
        set_asked(c, F)
    elif k == ASK_Y or k == ASK_YS:
        return yesno(c, F.seat, P_POWER_CONFIRM, out)
    return 0


# ---------------------------------------------------------------------------- food (§9.3)
cdef int food_gen(Core* c, Frame* F, int v, int a0, int a1, int* out) noexcept nogil:
    cdef Player* P = &c.pl[F.seat]
    cdef int p = F.seat, n = 0, t, q
    if v == V_GAIN_SUPPLY:
        P.food[a0] += a1
        step_done(c, F, True)
        return 0
    if v == V_GAIN_SUPPLY_CHOICE:
        for t in range(5):
            if (a0 >> t) & 1:
                out[n] = O_FOOD + t
                n += 1
        return node(c, p, P_GAIN_FOOD_TYPE, K_FOOD, n)
    if v == V_GAIN_SUPPLY_WILD:
        if F.k >= a1:
            step_done(c, F, True)
            return 0
        for t in range(F.slast if F.slast > 0 else 0, 5):
            out[n] = O_FOOD + t
            n += 1
        return node(c, p, P_GAIN_FOOD_TYPE, K_FOOD, n)
    if v == V_CACHE_SUPPLY:
        P.cache[F.slot][a0] += 1
        step_done(c, F, True)
        return 0
    if v == V_GAIN_FEEDER:
        if F.food >= 0:
            return yesno(c, p, P_CACHE_CHOICE, out)
        n = die_opts(c, a0, F.asked == 0, out)
        if n == 0:
            pop(c)
            return 0
        return node(c, p, P_TAKE_DIE, K_DIE, n)
    if v == V_GAIN_ALL_FEEDER:
        if one_faced(c) and F.k == 0:
            return yesno(c, p, P_FEEDER_REROLL, out)
        if feeder_gives(c, 1 << a0):
            return yesno(c, p, P_POWER_CONFIRM, out)
        pop(c)
        return 0
    if v == V_ALL_PLAYERS_GAIN_SUPPLY:
        for q in range(c.n):
            c.pl[(p + q) % c.n].food[a0] += 1
        step_done(c, F, True)
        return 0
    if v == V_EACH_PLAYER_GAIN_FEEDER:
        return each_player_gen(c, F, out)
    if v == V_FEWEST_IN:
        return fewest_in_gen(c, F, a0, a1, out)
    if v == V_SPEND_FOOD:
        if P.food[a0] > 0:
            P.food[a0] -= 1
            step_done(c, F, True)
        else:
            step_done(c, F, False)
        return 0
    if v == V_TRADE_FOOD:
        return trade_gen(c, F, out)
    pop(c)
    return 0


cdef int each_player_gen(Core* c, Frame* F, int* out) noexcept nogil:
    """EACH_PLAYER_GAIN_FEEDER: START_PLAYER (or SKIP), then a die for each seat."""
    cdef int q, n = 0
    if F.norder == 0:
        for q in range(c.n):
            out[n] = O_PLAYER + q
            n += 1
        out[n] = O_PLAYER + PLAYER_SKIP
        return node(c, F.seat, P_START_PLAYER, K_PLAYER, n + 1)
    if F.i >= F.norder:
        step_done(c, F, True)
        return 0
    n = die_opts(c, 31, False, out)
    return node(c, F.order[F.i], P_TAKE_DIE, K_DIE, n)


cdef int fewest_in_gen(Core* c, Frame* F, int hab, int draws, int* out) noexcept nogil:
    """FEWEST_IN: the seats with the fewest birds in ``hab``, from the owner clockwise,
    each take a die (``draws`` 0) or draw a card."""
    cdef int p = F.seat, q, m, n
    if F.norder == 0:
        m = 99
        for q in range(c.n):
            if c.pl[q].rows[hab] < m:
                m = c.pl[q].rows[hab]
        for q in range(c.n):
            if c.pl[(p + q) % c.n].rows[hab] == m:
                F.order[F.norder] = (p + q) % c.n
                F.norder += 1
        F.i = 0
    while F.i < F.norder:
        q = F.order[F.i]
        if draws == 0:
            n = die_opts(c, 31, False, out)
            return node(c, q, P_TAKE_DIE, K_DIE, n)
        n = draw_opts(c, -1, 0, out)
        if n:
            return node(c, q, P_DRAW_SOURCE, K_SOURCE, n)
        F.i += 1
    step_done(c, F, True)
    return 0


cdef int trade_gen(Core* c, Frame* F, int* out) noexcept nogil:
    """TRADE_FOOD: a token to give (or SKIP), then one of the four other types."""
    cdef Player* P = &c.pl[F.seat]
    cdef int t, n = 0
    if F.spaid < 0:
        for t in range(5):
            if P.food[t] > 0:
                out[n] = O_FOOD + t
                n += 1
        if n == 0:
            pop(c)
            return 0
        out[n] = O_FOOD + FOOD_SKIP
        return node(c, F.seat, P_TRADE_PAY, K_FOOD, n + 1)
    for t in range(5):
        if t != F.spaid:
            out[n] = O_FOOD + t
            n += 1
    return node(c, F.seat, P_TRADE_GAIN, K_FOOD, n)


# ---------------------------------------------------------------------------- eggs (§9.3)
cdef int egg_gen(Core* c, Frame* F, int v, int a0, int a1, int* out) noexcept nogil:
    cdef Player* P = &c.pl[F.seat]
    cdef int p = F.seat, n = 0, s, bb
    cdef bint laid
    if v == V_LAY_SELF:
        if room(P, F.slot) > 0:
            P.egg[F.slot] += 1
            step_done(c, F, True)
        else:
            step_done(c, F, False)
        return 0
    if v == V_LAY_ANY or v == V_LAY_NEST:
        if v == V_LAY_ANY:
            n = lay_opts(c, p, -1, -1, out)
        else:
            n = lay_opts(c, p, a0, F.slot if a1 else -1, out)
        if n == 0:
            step_done(c, F, False)
            return 0
        return node(c, p, P_LAY_EGG, K_SLOT, n)
    if v == V_LAY_EACH:
        laid = False
        for s in range(15):
            bb = P.bird[s]
            if bb >= 0 and P.egg[s] < B_EGGS[bb] and matches(bb, a0):
                P.egg[s] += 1
                laid = True
        step_done(c, F, laid)
        return 0
    if v == V_ALL_PLAYERS_LAY:
        return all_players_lay_gen(c, F, a0, out)
    if v == V_PAY_EGG:
        for s in range(15):
            if P.egg[s] > 0 and (a0 == 0 or s != F.slot):
                out[n] = O_SLOT + s
                n += 1
        if n == 0:
            pop(c)
            return 0
        out[n] = O_SLOT + SLOT_SKIP
        return node(c, p, P_POWER_PAY_EGG, K_SLOT, n + 1)
    pop(c)
    return 0


cdef int all_players_lay_gen(Core* c, Frame* F, int nest, int* out) noexcept nogil:
    """ALL_PLAYERS_LAY: F.i 0 is the owner's egg, 1 the owner's optional extra egg on
    another bird, 2.. the other seats clockwise (order[i - 1])."""
    cdef int p = F.seat, q, n
    if F.norder == 0:
        for q in range(c.n):
            F.order[q] = (p + q) % c.n
        F.norder = c.n
        F.i = 0
    while True:
        if F.i == 0:
            n = lay_opts(c, p, nest, -1, out)
            if n:
                return node(c, p, P_LAY_EGG, K_SLOT, n)
            F.first = -1
            F.i = 1
        elif F.i == 1:
            n = lay_opts(c, p, nest, F.first, out) if F.first >= 0 else 0
            if n:
                out[n] = O_SLOT + SLOT_SKIP
                return node(c, p, P_LAY_EGG, K_SLOT, n + 1)
            F.i = 2
        else:
            if F.i - 1 >= F.norder:
                step_done(c, F, True)
                return 0
            q = F.order[F.i - 1]
            n = lay_opts(c, q, nest, -1, out)
            if n:
                return node(c, q, P_LAY_EGG, K_SLOT, n)
            F.i += 1


# ---------------------------------------------------------------------------- cards (§9.3)
cdef int card_gen(Core* c, Frame* F, int v, int a0, int a1, int* out) noexcept nogil:
    cdef Player* P = &c.pl[F.seat]
    cdef int p = F.seat, n = 0, q, bb, i, nh
    cdef bint tucked
    cdef int cards[NB]
    if v == V_DRAW:
        if F.k < a1:
            n = draw_opts(c, F.slast, F.sdeck, out)
            if n:
                return node(c, p, P_DRAW_SOURCE, K_SOURCE, n)
        step_done(c, F, F.k > 0)
        return 0
    if v == V_DISCARD_EOT:
        P.owe += a1
        step_done(c, F, True)
        return 0
    if v == V_ALL_PLAYERS_DRAW_DECK:
        for q in range(c.n):
            bb = deck_draw(c)
            if bb < 0:
                break
            hand_add(c, (p + q) % c.n, bb, c.depoch)
        step_done(c, F, True)
        return 0
    if v == V_TUCK_HAND:
        nh = hand_list(P, cards)
        if nh == 0:
            pop(c)
            return 0
        for i in range(nh):
            out[i] = O_CARD + cards[i]
        out[nh] = O_CARD + CARD_SKIP
        return node(c, p, P_TUCK_FROM_HAND, K_CARD, nh + 1)
    if v == V_TUCK_DECK:
        tucked = False
        for i in range(a1):
            bb = deck_draw(c)
            if bb < 0:
                break
            tuck_card(c, p, F.slot, bb, TK_D, c.depoch)
            tucked = True
        step_done(c, F, tucked)
        return 0
    if v == V_PREDATOR_LOOK or v == V_PREDATOR_ROLL:
        return predator_gen(c, F, v, a0)
    if v == V_DRAW_BONUS:
        return bonus_gen(c, F, out)
    if v == V_DRAFT:
        return draft_gen(c, F, out)
    pop(c)
    return 0


cdef int predator_gen(Core* c, Frame* F, int v, int a0) noexcept nogil:
    """PREDATOR_LOOK (tuck the top card if its wingspan is below a0) and PREDATOR_ROLL
    (roll the dice outside the feeder for food a0); success triggers pink (d)."""
    cdef int p = F.seat, s = F.slot, bb, i
    cdef bint hit = False
    cdef uint8_t* o
    if v == V_PREDATOR_LOOK:
        bb = deck_draw(c)
        pop(c)
        if bb < 0:
            return 0
        if B_WS[bb] < a0:
            tuck_card(c, p, s, bb, TK_P, 0)
            push_pink(c, EV_D, -1)
        else:
            to_discard(c, bb)
        return 0
    o = told(c, CH_HUNT, 1) if c.script != NULL else NULL
    if o != NULL:
        hit = o[0] != 0
    else:
        for i in range(5 - c.nfd):
            if rbelow(c, 6) == a0:
                hit = True
    if c.script != NULL:
        o = trace(c, CH_HUNT, 1)
        if o != NULL:
            o[0] = hit
    pop(c)
    if hit:
        c.pl[p].cache[s][a0] += 1
        push_pink(c, EV_D, -1)
    return 0


cdef int bonus_gen(Core* c, Frame* F, int* out) noexcept nogil:
    """DRAW_BONUS 2 keep=1: draw (once), then BONUS_KEEP over the two drawn."""
    cdef int i, bb
    if F.k == 0:
        F.k = 1
        for i in range(2):
            bb = bonus_draw(c)
            if bb < 0:
                break
            c.bloc[bb] = B_PEND
            c.bown[bb] = F.seat
            F.drawn[F.ndrawn] = bb
            F.ndrawn += 1
        if F.ndrawn == 1:
            c.bloc[F.drawn[0]] = B_HELD
        if F.ndrawn < 2:
            step_done(c, F, F.ndrawn > 0)
            return 0
    if F.drawn[0] < F.drawn[1]:
        out[0] = O_BONUS + F.drawn[0]
        out[1] = O_BONUS + F.drawn[1]
    else:
        out[0] = O_BONUS + F.drawn[1]
        out[1] = O_BONUS + F.drawn[0]
    return node(c, F.seat, P_BONUS_KEEP, K_BONUS, 2)


cdef int draft_gen(Core* c, Frame* F, int* out) noexcept nogil:
    """DRAFT players+1: the owner draws n+1 cards into the pool, then the seats pick from
    the owner clockwise; the owner takes what is left."""
    cdef int p = F.seat, q, n, i
    cdef int cards[8]
    if F.norder == 0:
        if F.k < c.n + 1:
            n = draw_opts(c, F.slast, F.sdeck, out)
            if n:
                return node(c, p, P_DRAW_SOURCE, K_SOURCE, n)
        for q in range(c.n):
            F.order[q] = (p + q) % c.n
        F.norder = c.n
        F.i = 0
    if c.ndraft > 0 and F.i < F.norder and c.n > 1:
        for i in range(c.ndraft):
            cards[i] = c.draft[i]
        sort_ascending(cards, c.ndraft)       # ascending ids
        for i in range(c.ndraft):
            out[i] = O_CARD + cards[i]
        return node(c, F.order[F.i], P_DRAFT_PICK, K_CARD, c.ndraft)
    for i in range(c.ndraft):
        hand_add(c, p, c.draft[i], TAG_P)
    c.ndraft = 0
    step_done(c, F, True)
    return 0


# ---------------------------------------------------------------------------- structure (§9.3)
cdef int structure_gen(Core* c, Frame* F, int v, int a0, int* out) noexcept nogil:
    cdef int p = F.seat, n, h
    cdef Frame* G
    if v == V_PLAY_EXTRA:
        h = a0 if a0 >= 0 else F.slot // 5
        pop(c)
        G = push(c, FR_PLAY, p)
        G.src = 1
        G.req = h
        return 0
    if v == V_MOVE_IF_RIGHTMOST:
        n = move_opts(c, p, F.slot, out)
        if n == 0:
            pop(c)
            return 0
        out[n] = O_HABITAT + HAB_SKIP
        return node(c, p, P_MOVE_TARGET, K_HABITAT, n + 1)
    if v == V_REPEAT_BROWN or v == V_REPEAT_PREDATOR:
        n = repeat_opts(c, p, F.slot, v == V_REPEAT_PREDATOR, out)
        if n == 0:
            pop(c)
            return 0
        out[n] = O_SLOT + SLOT_SKIP
        return node(c, p, P_REPEAT_TARGET, K_SLOT, n + 1)
    pop(c)
    return 0


cdef int pow_gen(Core* c, Frame* F, int* out) noexcept nogil:
    cdef int b = F.bird, v, a0, a1, r
    if b < 0 or F.step >= B_NSTEPS[b] or c.pl[F.seat].bird[F.slot] != b:
        pop(c)
        return 0
    v = B_VERB[b][F.step]
    a0 = B_A0[b][F.step]
    a1 = B_A1[b][F.step]
    if F.step == 0 and F.asked == 0 and v != V_GAIN_ALL_FEEDER:
        r = pow_prompt(c, F, out)
        if r != 0:
            return r if r > 0 else 0
    if v <= V_TRADE_FOOD:
        return food_gen(c, F, v, a0, a1, out)
    if v <= V_LAY_NEST:
        return egg_gen(c, F, v, a0, a1, out)
    if v <= V_DRAFT:
        return card_gen(c, F, v, a0, a1, out)
    return structure_gen(c, F, v, a0, out)


# ---------------------------------------------------------------------------- applying a move
cdef void confirm_apply(Core* c, Frame* F, int v, int a0, int m) noexcept nogil:
    """POWER_CONFIRM: no ends the power unused; yes marks it used, and for GAIN_ALL_FEEDER
    takes every die that gives a0 at once (rolling an emptied feeder)."""
    cdef Player* P = &c.pl[F.seat]
    cdef int r
    if m == O_YESNO:
        pop(c)
        return
    if v == V_GAIN_ALL_FEEDER:
        r = c.fd[a0]
        c.fd[a0] = 0
        if a0 <= 1:
            r += c.fd[5]
            c.fd[5] = 0
        c.nfd -= r
        P.food[a0] += r
        if c.nfd == 0:
            roll_all(c)
        step_done(c, F, True)
        return
    set_asked(c, F)


cdef void food_apply(Core* c, Frame* F, int v, int m) noexcept nogil:
    cdef Player* P = &c.pl[F.seat]
    cdef int pu = c.purpose, local, r, q
    if pu == P_FEEDER_REROLL:
        if m == O_YESNO + 1:
            roll_all(c)
        else:
            F.k = 1
    elif pu == P_CACHE_CHOICE:
        if m == O_YESNO + 1:
            P.food[F.food] -= 1
            P.cache[F.slot][F.food] += 1
        step_done(c, F, True)
    elif pu == P_GAIN_FOOD_TYPE:
        local = m - O_FOOD
        P.food[local] += 1
        if v == V_GAIN_SUPPLY_WILD:
            F.k += 1
            F.slast = local
            if F.k >= B_A1[F.bird][F.step]:
                step_done(c, F, True)
        else:
            step_done(c, F, True)
    elif pu == P_TAKE_DIE:
        local = m - O_DIE
        if v == V_GAIN_FEEDER:
            r = die_apply(c, F.seat, local)
            if r == -2:
                pop(c)
            elif r >= 0:
                set_asked(c, F)
                if B_A1[F.bird][F.step]:
                    F.food = r
                else:
                    step_done(c, F, True)
            return
        # EACH_PLAYER_GAIN_FEEDER / FEWEST_IN: the taker is the current member
        if die_apply(c, F.order[F.i], local) >= 0:
            F.i += 1
    elif pu == P_START_PLAYER:
        local = m - O_PLAYER
        if local == PLAYER_SKIP:
            pop(c)
            return
        set_asked(c, F)
        for q in range(c.n):
            F.order[q] = (local + q) % c.n
        F.norder = c.n
        F.i = 0
    elif pu == P_TRADE_PAY:
        local = m - O_FOOD
        if local == FOOD_SKIP:
            pop(c)
            return
        P.food[local] -= 1
        F.spaid = local
        set_asked(c, F)
    elif pu == P_TRADE_GAIN:
        P.food[m - O_FOOD] += 1
        step_done(c, F, True)


cdef void egg_apply(Core* c, Frame* F, int v, int m) noexcept nogil:
    cdef Player* P = &c.pl[F.seat]
    cdef int local = m - O_SLOT, q
    if c.purpose == P_LAY_EGG:
        if v == V_ALL_PLAYERS_LAY:
            if local != SLOT_SKIP:
                q = F.seat if F.i <= 1 else F.order[F.i - 1]
                c.pl[q].egg[local] += 1
                if F.i == 0:
                    F.first = local
            F.i += 1
            return
        P.egg[local] += 1
        step_done(c, F, True)
        return
    # POWER_PAY_EGG
    if local == SLOT_SKIP:
        pop(c)
        return
    P.egg[local] -= 1
    set_asked(c, F)
    step_done(c, F, True)


cdef void draw_apply(Core* c, Frame* F, int v, int m) noexcept nogil:
    """DRAW_SOURCE inside a power: FEWEST_IN's one card per member, DRAW's cards to the
    owner, DRAFT's cards to the public pool."""
    cdef int local = m - O_SOURCE, bb, tag
    if v == V_FEWEST_IN:
        bb = draw_take(c, local, &F.slast, &F.sdeck, &tag)
        F.slast = -1
        F.sdeck = 0
        if bb >= 0:
            hand_add(c, F.order[F.i], bb, tag)
        F.i += 1
        return
    bb = draw_take(c, local, &F.slast, &F.sdeck, &tag)
    F.k += 1
    if bb < 0:
        return
    if v == V_DRAFT:
        c.draft[c.ndraft] = bb
        c.ndraft += 1
        c.cloc[bb] = L_DRAFT
        c.cown[bb] = 0
        c.cslot[bb] = 0
        c.ctag[bb] = 0
    else:
        hand_add(c, F.seat, bb, tag)


cdef void card_apply(Core* c, Frame* F, int m) noexcept nogil:
    """TUCK_FROM_HAND, BONUS_KEEP and DRAFT_PICK."""
    cdef int p = F.seat, pu = c.purpose, local, tag, i, t, bb, q
    if pu == P_TUCK_FROM_HAND:
        local = m - O_CARD
        if local == CARD_SKIP:
            pop(c)
            return
        tag = c.ctag[local]
        hand_remove(c, p, local)
        if tag == TAG_P:
            tuck_card(c, p, F.slot, local, TK_P, 0)
        else:
            tuck_card(c, p, F.slot, local, TK_H, tag)
        set_asked(c, F)
        step_done(c, F, True)
    elif pu == P_BONUS_KEEP:
        local = m - O_BONUS
        for i in range(F.ndrawn):
            bb = F.drawn[i]
            if bb == local:
                c.bloc[bb] = B_HELD
                c.bown[bb] = p
            else:
                bonus_discard(c, bb, p)
        step_done(c, F, True)
    elif pu == P_DRAFT_PICK:
        local = m - O_CARD
        q = F.order[F.i]
        for i in range(c.ndraft):
            if c.draft[i] == local:
                for t in range(i, c.ndraft - 1):
                    c.draft[t] = c.draft[t + 1]
                c.ndraft -= 1
                break
        hand_add(c, q, local, TAG_P)
        F.i += 1


cdef void structure_apply(Core* c, Frame* F, int m) noexcept nogil:
    """MOVE_TARGET and REPEAT_TARGET (the repeated power runs in a frame of its own)."""
    cdef int p = F.seat, local
    if c.purpose == P_MOVE_TARGET:
        local = m - O_HABITAT
        if local == HAB_SKIP:
            pop(c)
            return
        set_asked(c, F)
        move_bird(c, p, F.slot, local)
        step_done(c, F, True)
        return
    local = m - O_SLOT
    pop(c)
    if local != SLOT_SKIP:
        push_pow(c, p, local, c.pl[p].bird[local], 1)


cdef void pow_apply(Core* c, Frame* F, int m) noexcept nogil:
    cdef int v = B_VERB[F.bird][F.step], a0 = B_A0[F.bird][F.step], pu = c.purpose
    if pu == P_POWER_CONFIRM:
        confirm_apply(c, F, v, a0, m)
    elif pu == P_FEEDER_REROLL or pu == P_CACHE_CHOICE or pu == P_GAIN_FOOD_TYPE or pu == P_TAKE_DIE \
            or pu == P_START_PLAYER or pu == P_TRADE_PAY or pu == P_TRADE_GAIN:
        food_apply(c, F, v, m)
    elif pu == P_LAY_EGG or pu == P_POWER_PAY_EGG:
        egg_apply(c, F, v, m)
    elif pu == P_DRAW_SOURCE:
        draw_apply(c, F, v, m)
    elif pu == P_TUCK_FROM_HAND or pu == P_BONUS_KEEP or pu == P_DRAFT_PICK:
        card_apply(c, F, m)
    elif pu == P_MOVE_TARGET or pu == P_REPEAT_TARGET:
        structure_apply(c, F, m)
