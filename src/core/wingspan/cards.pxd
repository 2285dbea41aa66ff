# The ordered piles: the bird deck with its reshuffles into new epochs (§3.8, §6.3), the
# tray refill (§3.10), the bonus deck (§6.3).
from roost.core.wingspan.tables cimport *
from roost.core.wingspan.state cimport Core

cdef bint reshuffle(Core* c) noexcept nogil
cdef void refill_tray(Core* c) noexcept nogil
cdef int bonus_draw(Core* c) noexcept nogil
cdef void told_draw(Core* c) noexcept nogil


cdef inline int deck_draw(Core* c) noexcept nogil:
    """The top card of the deck (reshuffling the discard pile when needed), or -1."""
    if c.ndeck == 0 and not reshuffle(c):
        return -1
    if c.script != NULL:
        told_draw(c)
    c.ndeck -= 1
    return c.deck[c.ndeck]


cdef inline int draw_take(Core* c, int local, short* last, short* deckflag, int* tag) noexcept nogil:
    """Takes the card of source ``local`` (tray slot or deck top); returns it (-1: none)."""
    cdef int b
    if local < 3:
        b = c.tray[local]
        c.tray[local] = -1
        tag[0] = TAG_P
        last[0] = local
        deckflag[0] = 0
        return b
    b = deck_draw(c)
    tag[0] = c.depoch
    deckflag[0] = 1
    return b
