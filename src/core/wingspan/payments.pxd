# Paying for a bird (§3.3, §3.4): the greedy payability test, the legal (card, habitat)
# pairs, and the table of minimal payments that PLAY_PAY_FOOD walks one token at a time
# (§7.5).
from libc.stdint cimport uint8_t

from roost.core.wingspan.tables cimport *
from roost.core.wingspan.state cimport Core, Frame, Player, total_eggs

cdef int PAY_START[NB + 1]        # bird b's minimal payments are PAY_LIST[PAY_START[b]:PAY_START[b+1]]
cdef uint8_t PAY_LIST[MAXPAY][5]

cdef bint any_play(Player* P, int req) noexcept nogil
cdef int pay_food_opts(Core* c, Frame* F, int* out, bint* complete) noexcept nogil


cdef inline bint can_pay(Player* P, int b) noexcept nogil:
    """The personal supply pays bird b's food cost (§3.4, the greedy test)."""
    cdef int t, d = 0, left = 0, tot = 0
    cdef int form = B_CFORM[b]
    if form == 0:
        return True
    if form == 2:
        for t in range(5):
            tot += P.food[t]
            if (B_COR[b] >> t) & 1 and P.food[t] > 0:
                return True
        return tot >= 2
    for t in range(5):
        if B_CAND[b][t] > P.food[t]:
            d += B_CAND[b][t] - P.food[t]
        else:
            left += P.food[t] - B_CAND[b][t]
    return left >= B_CWILD[b] + 2 * d


cdef inline bint play_ok(Player* P, int b, int h) noexcept nogil:
    """(card b, habitat h) is a legal play for this player (§3.3), b in hand."""
    if not (B_HAB[b] >> h) & 1:
        return False
    if P.rows[h] >= 5:
        return False
    if total_eggs(P) < EGG_COST[P.rows[h]]:
        return False
    return can_pay(P, b)
