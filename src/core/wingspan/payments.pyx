"""Paying for a bird (§3.3, §3.4, §7.5): which (card, habitat) pairs are legal, and the
minimal payments of every bird, listed at import and walked one token at a time."""
from libc.stdint cimport uint64_t

from roost.core.wingspan.tables cimport *
from roost.core.wingspan.state cimport Core, Frame, Player
from roost.core.wingspan import tables as _tables

_PAYMENTS = []   # per bird: the minimal payments (tuples of 5 counts), for tests


def _pays(cost, p):
    form, need, wild, ormask = cost
    if form == 0:
        return True
    if form == 2:
        return any(p[t] for t in range(5) if ormask >> t & 1) or sum(p) >= 2
    d = sum(max(0, need[t] - p[t]) for t in range(5))
    left = sum(max(0, p[t] - need[t]) for t in range(5))
    return left >= wild + 2 * d


def _minimal_payments(cost):
    """Every multiset of tokens that pays ``cost`` and stops paying when any single
    token is removed (docs/rules/wingspan.md §3.4), in ascending order of its token sequence."""
    form, need, wild, ormask = cost
    if form == 0:
        return []
    symbols = 1 if form == 2 else sum(need) + wild
    out = []

    def rec(t, cur, left):
        if t == 5:
            if _pays(cost, cur) and all(not (cur[u] and _pays(cost, cur[:u] + [cur[u] - 1] + cur[u + 1:]))
                                        for u in range(5)):
                out.append(tuple(cur))
            return
        for k in range(left + 1):
            rec(t + 1, cur + [k], left - k)

    rec(0, [], 2 * symbols)
    out.sort(key=lambda p: [t for t in range(5) for _ in range(p[t])])
    return out


def _init_payments():
    cdef int b, t, npay = 0
    for b in range(NB):
        cost = _tables.BIRDS[b]["cost"]
        pays = _minimal_payments((B_CFORM[b], cost["and"], cost["wild"], B_COR[b]))
        _PAYMENTS.append(pays)
        PAY_START[b] = npay
        for p in pays:
            for t in range(5):
                PAY_LIST[npay][t] = p[t]
            npay += 1
            if npay >= MAXPAY:
                raise RuntimeError("too many minimal payments for the table")
    PAY_START[NB] = npay


_init_payments()


cdef bint any_play(Player* P, int req) noexcept nogil:
    """Some card in hand can be played (into habitat ``req``, or any when it is -1)."""
    cdef int w, b, h
    cdef uint64_t x
    for w in range(3):
        x = P.hand[w]
        while x:
            b = (w << 6) + ws_ctz64(x)
            x &= x - 1
            if req >= 0:
                if play_ok(P, b, req):
                    return True
            else:
                for h in range(3):
                    if play_ok(P, b, h):
                        return True
    return False


cdef int pay_food_opts(Core* c, Frame* F, int* out, bint* complete) noexcept nogil:
    """PLAY_PAY_FOOD (§7.5): the types that continue some minimal payment which fits the
    supply from the tokens paid so far; ``complete`` when the tokens paid are one."""
    cdef Player* P = &c.pl[F.seat]
    cdef int b = F.card, i, t, qmax = 0, mask = 0, n = 0
    cdef int s0[5]
    cdef bint fits, same
    complete[0] = False
    for t in range(5):
        s0[t] = P.food[t] + F.paid[t]
        if F.paid[t] > 0:
            qmax = t
    for i in range(PAY_START[b], PAY_START[b + 1]):
        fits = True
        same = True
        for t in range(5):
            if PAY_LIST[i][t] > s0[t]:
                fits = False
                break
            if PAY_LIST[i][t] != F.paid[t]:
                same = False
        if not fits:
            continue
        if same:
            complete[0] = True
            return 0
        for t in range(5):
            if PAY_LIST[i][t] != F.paid[t]:
                break
        if PAY_LIST[i][t] > F.paid[t] and t >= qmax:
            mask |= 1 << t
    for t in range(5):
        if (mask >> t) & 1:
            out[n] = O_FOOD + t
            n += 1
    return n
