"""The ordered piles: reshuffling the discard pile into a new deck epoch (§3.8, §6.3), the
tray refill (§3.10) and the bonus deck with its own epochs (§6.3).  Each chance event here
takes a told outcome when a replay's script has one (state.pxd), and writes its outcome
down when the script traces."""
from libc.stdint cimport uint8_t

from roost.core.wingspan.tables cimport *
from roost.core.wingspan.state cimport Core, Script, rbelow, told, told_event, trace


cdef bint told_order(Core* c, int kind, uint8_t* pile, int n, int size) noexcept nogil:
    """A told order of a reshuffled pile: ``pile`` (the n cards, ids below ``size``) set to
    it when it holds the same cards; False when the script tells no order here."""
    cdef Script* S = c.script
    cdef uint8_t* o
    cdef int i
    cdef bint seen[NB]
    if S == NULL or S.pos >= S.n or S.data[S.pos] != kind:
        return False
    if S.pos + 2 > S.n or S.data[S.pos + 1] != n or S.pos + 2 + n > S.n:
        S.fault = 1
        return False
    o = S.data + S.pos + 2
    for i in range(size):
        seen[i] = False
    for i in range(n):
        if o[i] >= size or seen[o[i]]:
            S.fault = 1
            return False
        seen[o[i]] = True
    for i in range(n):
        if not seen[pile[i]]:
            S.fault = 1
            return False
    for i in range(n):
        pile[i] = o[i]
    S.pos += 2 + n
    return True


cdef void trace_order(Core* c, int kind, uint8_t* pile, int n) noexcept nogil:
    cdef uint8_t* o = trace(c, kind, 1 + n)
    cdef int i
    if o != NULL:
        o[0] = n
        for i in range(n):
            o[1 + i] = pile[i]


cdef bint told_later(Script* S, int kind, int card) noexcept nogil:
    """The script tells ``card`` off a deck (``kind``) in an entry still to come."""
    cdef int i = S.pos, k
    while i < S.n:
        k = S.data[i]
        if k == kind and i + 1 < S.n and S.data[i + 1] == card:
            return True
        if k == CH_ROLL:
            i += 7
        elif k == CH_SHUFFLE or k == CH_BSHUFFLE:
            i += 2 + (S.data[i + 1] if i + 1 < S.n else 0)
        elif k == CH_SHUFFLED or k == CH_BSHUFFLED:
            i += 1
        else:
            i += 2
    return False


cdef void put_on_top(Core* c, uint8_t* pile, int n, int kind, uint8_t* o) noexcept nogil:
    """The card a script tells off a pile is put on its top (it must be in the pile); for
    ANY_CARD, a card the script tells later is not the one taken."""
    cdef int i, tmp
    if o[0] == ANY_CARD:
        for i in range(n - 1, -1, -1):
            if not told_later(c.script, kind, pile[i]):
                tmp = pile[n - 1]
                pile[n - 1] = pile[i]
                pile[i] = tmp
                return
        return
    for i in range(n):
        if pile[i] == o[0]:
            tmp = pile[n - 1]
            pile[n - 1] = pile[i]
            pile[i] = tmp
            return
    c.script.fault = 1


cdef void told_draw(Core* c) noexcept nogil:
    """A told card off the bird deck is put on top (it must be in the deck; ANY_CARD tells
    that a card comes off, not which); a tracing script writes down the card."""
    cdef uint8_t* o = told(c, CH_DRAW, 1)
    if o != NULL:
        put_on_top(c, c.deck, c.ndeck, CH_DRAW, o)
    o = trace(c, CH_DRAW, 1)
    if o != NULL:
        o[0] = c.deck[c.ndeck - 1]


cdef bint reshuffle(Core* c) noexcept nogil:
    """The discard pile becomes the deck of a new epoch (§3.8, §6.3)."""
    cdef int i, j, e, tmp
    if c.ndisc == 0:
        return False
    e = c.depoch + 1
    if c.nforms < MAXEP and c.formlen + c.ndisc <= FORMCAP:
        for i in range(c.ndisc):
            c.forms[c.formlen + i] = c.disc[i]
        c.formlen += c.ndisc
        c.nforms += 1
        c.form_end[c.nforms] = c.formlen
    else:
        c.bad = 1
    if e > MAXEP - 1:
        e = MAXEP - 1
        c.bad = 1
    for i in range(c.ndisc):
        c.deck[i] = c.disc[i]
    c.ndeck = c.ndisc
    c.ndisc = 0
    if not told_order(c, CH_SHUFFLE, c.deck, c.ndeck, NB):
        if c.script != NULL:
            told_event(c, CH_SHUFFLED)
        for i in range(c.ndeck - 1, 0, -1):
            j = rbelow(c, i + 1)
            tmp = c.deck[i]
            c.deck[i] = c.deck[j]
            c.deck[j] = tmp
    if c.script != NULL:
        trace_order(c, CH_SHUFFLE, c.deck, c.ndeck)
    for i in range(c.ndeck):
        c.cloc[c.deck[i]] = L_DECK
        c.cown[c.deck[i]] = 0
        c.cslot[c.deck[i]] = 0
        c.ctag[c.deck[i]] = 0
        c.ctk[c.deck[i]] = 0
    c.depoch = e
    return True


cdef void refill_tray(Core* c) noexcept nogil:
    cdef int s, b
    for s in range(3):
        if c.tray[s] < 0:
            b = deck_draw(c)
            if b < 0:
                return
            c.tray[s] = b
            c.cloc[b] = L_TRAY
            c.cslot[b] = s


cdef int bonus_draw(Core* c) noexcept nogil:
    """The top bonus card (reshuffling the bonus discards into a new epoch when needed), or -1."""
    cdef int i, j, tmp, b
    if c.nbdeck == 0:
        if c.nbdisc == 0:
            return -1
        if c.nbforms < MAXBEP and c.bflen + c.nbdisc <= BFCAP:
            for i in range(c.nbdisc):
                b = c.bdisc[i]
                c.bf_id[c.bflen + i] = b
                c.bf_tag[c.bflen + i] = c.btag[b]
                c.bf_who[c.bflen + i] = c.bown[b]
            c.bflen += c.nbdisc
            c.nbforms += 1
            c.bf_end[c.nbforms] = c.bflen
        else:
            c.bad = 1
        for i in range(c.nbdisc):
            c.bdeck[i] = c.bdisc[i]
        c.nbdeck = c.nbdisc
        c.nbdisc = 0
        if not told_order(c, CH_BSHUFFLE, c.bdeck, c.nbdeck, NBON):
            if c.script != NULL:
                told_event(c, CH_BSHUFFLED)
            for i in range(c.nbdeck - 1, 0, -1):
                j = rbelow(c, i + 1)
                tmp = c.bdeck[i]
                c.bdeck[i] = c.bdeck[j]
                c.bdeck[j] = tmp
        if c.script != NULL:
            trace_order(c, CH_BSHUFFLE, c.bdeck, c.nbdeck)
        c.bepoch += 1
        for i in range(c.nbdeck):
            c.bloc[c.bdeck[i]] = B_DECK
            c.bown[c.bdeck[i]] = 0
            c.btag[c.bdeck[i]] = 0
    if c.script != NULL:
        told_bonus_draw(c)
    c.nbdeck -= 1
    b = c.bdeck[c.nbdeck]
    c.btag[b] = c.bepoch
    return b


cdef void told_bonus_draw(Core* c) noexcept nogil:
    cdef uint8_t* o = told(c, CH_BDRAW, 1)
    if o != NULL:
        put_on_top(c, c.bdeck, c.nbdeck, CH_BDRAW, o)
    o = trace(c, CH_BDRAW, 1)
    if o != NULL:
        o[0] = c.bdeck[c.nbdeck - 1]
