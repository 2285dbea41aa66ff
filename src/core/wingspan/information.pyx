"""The information model (§6.1) and determinization (§6.4): what each seat sees of a move,
and sampling a full position consistent with what a seat has observed (bird cards epoch by
epoch, bonus cards recursively through their formations, and other seats' setup buffers),
keeping the pending decision node."""
from libc.stdlib cimport malloc, free
from libc.string cimport memcmp

from roost.core.int_sort cimport sort_ascending
from roost.core.rng cimport Rng, rng_below, rng_next
from roost.core.state cimport HIDDEN, MAX_MOVES
from roost.core.wingspan.tables cimport *
from roost.core.wingspan.state cimport Core, Frame, Player, hand_add, hand_remove, setup_kept
from roost.core.wingspan.machine cimport gen, settle


cdef inline void rshuffle(int* a, int n, Rng* rng) noexcept nogil:
    cdef int i, j, tmp
    for i in range(n - 1, 0, -1):
        j = <int>rng_below(rng, i + 1)
        tmp = a[i]
        a[i] = a[j]
        a[j] = tmp


cdef inline bint bird_hidden(Core* c, int o, int x) noexcept nogil:
    cdef int L = c.cloc[x]
    if L == L_DECK:
        return True
    if L == L_HAND:
        return c.cown[x] != o and c.ctag[x] != TAG_P
    if L == L_TUCK:
        return c.ctk[x] == TK_D or (c.ctk[x] == TK_H and c.cown[x] != o)
    return False


cdef void determinize_birds(Core* c, int o, Rng* rng) noexcept nogil:
    """§6.4 birds: within each epoch the unknown cards are dealt uniformly over the hidden
    slots of that epoch (the cards of epoch e in hidden slots are exactly C_e)."""
    cdef int e, x, k, n, q, s, kd, i, t
    cdef int cards[NB]
    cdef int handcnt[MAXP]
    cdef int tuckcnt[MAXP][15][2]
    cdef bint shown[NB]
    # a card chosen by a pending PLAY frame was named in public (PLAY_CARD)
    for x in range(NB):
        shown[x] = False
    for i in range(c.nst):
        if c.st[i].f == FR_PLAY and 0 <= c.st[i].card < NB:
            shown[c.st[i].card] = True
    for e in range(c.depoch + 1):
        n = 0
        for q in range(c.n):
            handcnt[q] = 0
            for s in range(15):
                tuckcnt[q][s][0] = 0
                tuckcnt[q][s][1] = 0
        for x in range(NB):
            if shown[x] or not bird_hidden(c, o, x):
                continue
            if c.cloc[x] == L_DECK:
                if e != c.depoch:
                    continue
            elif c.ctag[x] != e:
                continue
            cards[n] = x
            n += 1
            if c.cloc[x] == L_HAND:
                handcnt[c.cown[x]] += 1
                hand_remove(c, c.cown[x], x)
            elif c.cloc[x] == L_TUCK:
                tuckcnt[c.cown[x]][c.cslot[x]][0 if c.ctk[x] == TK_D else 1] += 1
        if n == 0:
            continue
        rshuffle(cards, n, rng)
        k = 0
        if e == c.depoch:
            for i in range(c.ndeck):
                x = cards[k]
                k += 1
                c.deck[i] = x
                c.cloc[x] = L_DECK
                c.cown[x] = 0
                c.cslot[x] = 0
                c.ctag[x] = 0
                c.ctk[x] = 0
        for q in range(c.n):
            for i in range(handcnt[q]):
                hand_add(c, q, cards[k], e)
                k += 1
        for q in range(c.n):
            for s in range(15):
                for kd in range(2):
                    for i in range(tuckcnt[q][s][kd]):
                        x = cards[k]
                        k += 1
                        c.cloc[x] = L_TUCK
                        c.cown[x] = q
                        c.cslot[x] = s
                        c.ctk[x] = TK_D if kd == 0 else TK_H
                        c.ctag[x] = e


ctypedef struct BonusView:
    # what observer o knows of the bonus cards, gathered once (§6.4 bonus cards)
    int npend                         # pending DRAW_BONUS frames of the stack
    int pend_frame[MAXF]
    int pend_tag[MAXF][2]
    int held_cnt[MAXP][MAXBEP + 1]    # other seats' held cards per draw epoch
    int pile_tag[NBON]                # the bonus discard pile as it was
    int pile_who[NBON]
    int known_tag[NBON]               # o drew card b from this epoch (-1: not o's)
    int fidx[BFCAP]                   # the formation each formation entry belongs to
    bint used_entry[BFCAP]            # a formation entry already assigned a card
    bint inC[NBON]                    # C_e of the epoch being dealt


cdef void bonus_view(Core* c, int o, BonusView* V) noexcept nogil:
    cdef int i, q, e, b, f
    cdef Frame* F
    V.npend = 0
    for i in range(c.nst):
        F = &c.st[i]
        if F.f == FR_POW and F.bird >= 0 and B_VERB[F.bird][F.step] == V_DRAW_BONUS and F.k and F.ndrawn == 2:
            V.pend_frame[V.npend] = i
            V.pend_tag[V.npend][0] = c.btag[F.drawn[0]]
            V.pend_tag[V.npend][1] = c.btag[F.drawn[1]]
            V.npend += 1
    for q in range(MAXP):
        for e in range(MAXBEP + 1):
            V.held_cnt[q][e] = 0
    for b in range(NBON):
        V.known_tag[b] = -1
        if c.bown[b] == o and (c.bloc[b] == B_HELD or c.bloc[b] == B_PEND or c.bloc[b] == B_DISC):
            V.known_tag[b] = c.btag[b]
        elif c.bloc[b] == B_HELD and c.btag[b] <= MAXBEP:
            V.held_cnt[c.bown[b]][c.btag[b]] += 1
    for i in range(c.nbdisc):
        V.pile_tag[i] = c.btag[c.bdisc[i]]
        V.pile_who[i] = c.bown[c.bdisc[i]]
    f = 1
    for i in range(c.bflen):
        while f < c.nbforms and i >= c.bf_end[f]:
            f += 1
        V.fidx[i] = f
        V.used_entry[i] = False


cdef void bonus_candidates(Core* c, int o, int e, BonusView* V, Rng* rng) noexcept nogil:
    """C_e: the formation of epoch e (all 26 for e = 0) less the cards o drew from it.  A card
    o knows to be in a later formation g is first put on an entry (tag e, another discarder)
    of a formation in (e, g]."""
    cdef int i, b, g, nc, pick
    cdef int cand[BFCAP]
    for b in range(NBON):
        V.inC[b] = (e == 0)
    if e > 0 and e <= c.nbforms:
        for i in range(c.bf_end[e - 1], c.bf_end[e]):
            V.inC[c.bf_id[i]] = True
    for b in range(NBON):
        if V.known_tag[b] == e:
            V.inC[b] = False
    for i in range(c.bflen):
        if c.bf_who[i] == o and c.bf_tag[i] == e:
            V.inC[c.bf_id[i]] = False
    for b in range(NBON):
        if not V.inC[b]:
            continue
        g = 1 << 20
        if V.known_tag[b] > e:
            g = V.known_tag[b]
        for i in range(c.bflen):
            if c.bf_who[i] == o and c.bf_id[i] == b and V.fidx[i] > e and V.fidx[i] < g:
                g = V.fidx[i]
            if c.bf_who[i] == o and c.bf_id[i] == b and c.bf_tag[i] > e and c.bf_tag[i] < g:
                g = c.bf_tag[i]
        if g < (1 << 20):
            nc = 0
            for i in range(c.bflen):
                if not V.used_entry[i] and c.bf_who[i] != o and c.bf_tag[i] == e and e < V.fidx[i] <= g:
                    cand[nc] = i
                    nc += 1
            if nc:
                pick = cand[rng_below(rng, nc)]
                V.used_entry[pick] = True
                c.bf_id[pick] = b
                V.inC[b] = False


cdef void bonus_deal(Core* c, int o, int e, BonusView* V, Rng* rng) noexcept nogil:
    """C_e shuffled over the hidden slots tagged e: other seats' held and pending cards, their
    discards, the deck (current epoch) and their entries of later formations."""
    cdef int i, j, k = 0, n = 0, q, x, fi, b
    cdef int cards[NBON]
    cdef Frame* F
    for b in range(NBON):
        if V.inC[b]:
            cards[n] = b
            n += 1
    rshuffle(cards, n, rng)
    for q in range(c.n):
        if q == o:
            continue
        for i in range(V.held_cnt[q][e] if e <= MAXBEP else 0):
            if k < n:
                x = cards[k]
                k += 1
                c.bloc[x] = B_HELD
                c.bown[x] = q
                c.btag[x] = e
    for fi in range(V.npend):
        F = &c.st[V.pend_frame[fi]]
        if F.seat == o:
            continue
        for j in range(2):
            if V.pend_tag[fi][j] == e and k < n:
                x = cards[k]
                k += 1
                F.drawn[j] = x
                c.bloc[x] = B_PEND
                c.bown[x] = F.seat
                c.btag[x] = e
    for i in range(c.nbdisc):
        if V.pile_who[i] != o and V.pile_tag[i] == e and k < n:
            x = cards[k]
            k += 1
            c.bdisc[i] = x
            c.bloc[x] = B_DISC
            c.bown[x] = V.pile_who[i]
            c.btag[x] = e
    if e == c.bepoch:
        for i in range(c.nbdeck):
            if k < n:
                x = cards[k]
                k += 1
                c.bdeck[i] = x
                c.bloc[x] = B_DECK
                c.bown[x] = 0
                c.btag[x] = 0
    for i in range(c.bflen):
        if not V.used_entry[i] and c.bf_who[i] != o and c.bf_tag[i] == e and k < n:
            V.used_entry[i] = True
            c.bf_id[i] = cards[k]
            k += 1


cdef void determinize_bonus(Core* c, int o, Rng* rng) noexcept nogil:
    """§6.4 bonus cards, epoch by epoch: C_e (bonus_candidates) is dealt over the hidden
    slots tagged e (bonus_deal), so the cards assigned to a formation's entries are that
    formation's content when a later epoch is dealt."""
    cdef int e
    cdef BonusView V
    if c.bepoch > MAXBEP:
        return
    bonus_view(c, o, &V)
    for e in range(c.bepoch + 1):
        bonus_candidates(c, o, e, &V, rng)
        bonus_deal(c, o, e, &V, rng)


cdef void resample_setup(Core* c, int o, Rng* rng) noexcept nogil:
    """Setup buffers of other seats are hidden (§6.1): draw fresh ones consistent with the
    public progress of the setup frame."""
    cdef Frame* F
    cdef int q, cur, stage, i, k, t, j, b, nb
    cdef int types[5]
    cdef int held[2]
    cdef Player* P
    if c.phase != PH_SETUP or c.nst == 0:
        return
    F = &c.st[c.nst - 1]
    cur = F.seat
    for q in range(c.n):
        if q == o or q > cur:
            continue
        P = &c.pl[q]
        stage = F.stage if q == cur else 3
        i = F.i if q == cur else 0
        if stage == 0:
            P.skeep = 0
            for j in range(i):
                if rng_below(rng, 2):
                    P.skeep |= 1 << j
            continue
        # keep mask
        if stage == 1:
            k = i + 1 + <int>rng_below(rng, 5 - i)
        else:
            k = -1
        P.skeep = 0
        if k < 0:
            for j in range(5):
                if rng_below(rng, 2):
                    P.skeep |= 1 << j
            k = setup_kept(P)
        else:
            for j in range(5):
                types[j] = j
            rshuffle(types, 5, rng)
            for j in range(k):
                P.skeep |= 1 << types[j]
        # food: a k-subset of the types; in the food stage its i smallest are discarded
        for j in range(5):
            types[j] = j
        rshuffle(types, 5, rng)
        sort_ascending(types, k)
        for t in range(5):
            P.sfood[t] = 0
        for j in range(k if stage >= 2 else i):
            P.sfood[types[j]] = 1
        P.sbonus = -1
        if stage >= 3:
            nb = 0
            for b in range(NBON):
                if c.bloc[b] == B_HELD and c.bown[b] == q and nb < 2:
                    held[nb] = b
                    nb += 1
            if nb:
                P.sbonus = held[rng_below(rng, nb)]


cdef void determinize_core(Core* c, int o, Rng* rng) noexcept nogil:
    determinize_birds(c, o, rng)
    determinize_bonus(c, o, rng)
    resample_setup(c, o, rng)
    c.rng = rng_next(rng)


cdef void determinize(Core* c, int o, Rng* rng) noexcept nogil:
    """A determinization for observer o that keeps the pending node: when o is not the seat
    deciding, a sample could leave that seat's node without its options (e.g. no playable
    card after it chose to play); such samples are drawn again (at most 30 times, then
    settled)."""
    cdef int buf[MAX_MOVES]
    cdef int attempt, n
    cdef Core* orig
    cdef Core* probe
    if c.phase == PH_OVER:
        return
    if o == c.actor:
        determinize_core(c, o, rng)
        return
    orig = <Core*>malloc(sizeof(Core))
    probe = <Core*>malloc(sizeof(Core))
    orig[0] = c[0]
    for attempt in range(30):
        if attempt:
            c[0] = orig[0]
        determinize_core(c, o, rng)
        probe[0] = c[0]
        n = gen(probe, buf)
        if n >= 2 and probe.nst == c.nst and \
                memcmp(&probe.st[c.nst - 1], &c.st[c.nst - 1], sizeof(Frame)) == 0:
            free(orig)
            free(probe)
            return
    free(orig)
    free(probe)
    settle(c, buf)


cdef int observe(Core* c, int move, int observer) noexcept nogil:
    """What ``observer`` sees of ``move`` at the pending node: every decision is public
    (§6.1) except another seat's setup choices, which bonus card another seat keeps, and
    which hand card another seat tucks (unless the card was publicly known in that hand)."""
    cdef int pu = c.purpose, local
    if observer == c.actor:
        return move
    if pu == P_SETUP_KEEP_BIRD or pu == P_SETUP_DISCARD_FOOD or pu == P_SETUP_KEEP_BONUS \
            or pu == P_BONUS_KEEP:
        return HIDDEN
    if pu == P_TUCK_FROM_HAND:
        local = move - O_CARD
        if local == CARD_SKIP or (0 <= local < NB and c.ctag[local] == TAG_P):
            return move
        return HIDDEN
    return move
