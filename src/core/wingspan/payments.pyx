"""Paying for a bird (§3.3, §3.4, §7.5): which (card, habitat) pairs are legal, and the
minimal payments of every bird, listed at import and walked one token at a time."""
from libc.stdint cimport uint64_t

from roost.core.wingspan.tables cimport *
from roost.core.wingspan.state cimport Core, Frame, Player
from roost.core.wingspan import tables as _tables

_PAYMENTS = []   # per bird: the minimal payments (tuples of 5 counts), for tests


cdef bint _pays(int form, int* need, int wild, int ormask, int* p) noexcept:
    """Whether the tokens `p` (a count of each of the 5 types) pay the cost (its form,
    the food it needs, its wild symbols, its OR mask); two tokens stand for any one."""
    cdef int t, d = 0, left = 0, total = 0
    if form == 0:
        return True
    if form == 2:
        for t in range(5):
            total += p[t]
            if p[t] and ormask >> t & 1:
                return True
        return total >= 2
    for t in range(5):
        d += max(0, need[t] - p[t])
        left += max(0, p[t] - need[t])
    return left >= wild + 2 * d


cdef bint _minimal(int form, int* need, int wild, int ormask, int* p) noexcept:
    """Whether `p` pays the cost and stops paying when any single token is removed."""
    cdef int u
    cdef bint still
    if not _pays(form, need, wild, ormask, p):
        return False
    for u in range(5):
        if p[u]:
            p[u] -= 1
            still = _pays(form, need, wild, ormask, p)
            p[u] += 1
            if still:
                return False
    return True


cdef void _each_payment(int form, int* need, int wild, int ormask, int t, int* cur, int left,
                        list out):
    """The minimal payments among the counts cur[t:] of at most `left` tokens more."""
    cdef int k
    if t == 5:
        if _minimal(form, need, wild, ormask, cur):
            out.append((cur[0], cur[1], cur[2], cur[3], cur[4]))
        return
    for k in range(left + 1):
        cur[t] = k
        _each_payment(form, need, wild, ormask, t + 1, cur, left - k, out)


def _minimal_payments(cost):
    """Every multiset of tokens that pays ``cost`` and stops paying when any single
    token is removed (docs/rules/wingspan.md §3.4), in ascending order of its token sequence
    (none pays with more than two tokens a symbol)."""
    cdef int need_c[5]
    cdef int cur[5]
    cdef int t, symbols
    form, need, wild, ormask = cost
    if form == 0:
        return []
    for t in range(5):
        need_c[t] = need[t]
    symbols = 1 if form == 2 else sum(need) + wild
    out = []
    _each_payment(form, need_c, wild, ormask, 0, cur, 2 * symbols, out)
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
