"""The ordered piles: reshuffling the discard pile into a new deck epoch (§3.8, §6.3), the
tray refill (§3.10) and the bonus deck with its own epochs (§6.3)."""
from roost.core.wingspan.tables cimport *
from roost.core.wingspan.state cimport Core, rbelow


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
    for i in range(c.ndeck - 1, 0, -1):
        j = rbelow(c, i + 1)
        tmp = c.deck[i]
        c.deck[i] = c.deck[j]
        c.deck[j] = tmp
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
        for i in range(c.nbdeck - 1, 0, -1):
            j = rbelow(c, i + 1)
            tmp = c.bdeck[i]
            c.bdeck[i] = c.bdeck[j]
            c.bdeck[j] = tmp
        c.bepoch += 1
        for i in range(c.nbdeck):
            c.bloc[c.bdeck[i]] = B_DECK
            c.bown[c.bdeck[i]] = 0
            c.btag[c.bdeck[i]] = 0
    c.nbdeck -= 1
    b = c.bdeck[c.nbdeck]
    c.btag[b] = c.bepoch
    return b
