# What a seat knows and the worlds consistent with it (docs/rules/cubirds.md §7):
# the unseen cards, the opponents' unknown slots, and dealing them afresh.
from libc.string cimport memcpy

from roost.core.rng cimport Rng, rng_below
from roost.core.state cimport MAX_PLAYERS
from roost.core.cubirds.state cimport Core
from roost.core.cubirds.cards cimport COPIES, SMALL, NSP, NROWS


cdef inline bint hall_ok(int* U, int* need, int* allowed, int n) noexcept nogil:
    """Can every opponent's remaining unknown slots be filled from the unseen counts U,
    each only with species it is allowed?  Hall's condition over every set of opponents
    that still needs cards (the draw pile takes whatever is left, unconstrained)."""
    cdef int active[MAX_PLAYERS]
    cdef int na = 0, q, mask, i, demand, nb, s, supply
    for q in range(n):
        if need[q] > 0:
            active[na] = q
            na += 1
    for mask in range(1, 1 << na):
        demand = 0
        nb = 0
        for i in range(na):
            if mask & (1 << i):
                demand += need[active[i]]
                nb |= allowed[active[i]]
        supply = 0
        for s in range(NSP):
            if nb & (1 << s):
                supply += U[s]
        if demand > supply:
            return False
    return True


cdef inline bint reaches_flock(unsigned char* hand) noexcept nogil:
    """Some species in this hand (or part of a hand) reaches its small flock number."""
    cdef int s
    for s in range(NSP):
        if hand[s] >= SMALL[s]:
            return True
    return False


cdef inline void unseen_counts(Core* c, int observer, int* U) noexcept nogil:
    """U[s]: the cards of species s the observer cannot place (in the draw pile or in an
    opponent's unknown slots); observer -1 sees no hand."""
    cdef int s, q, r, i
    for s in range(NSP):
        U[s] = COPIES[s] - c.discard[s]
        if observer >= 0:
            U[s] -= c.hand[observer][s]
        for q in range(c.n):
            U[s] -= c.coll[q][s]
            if q != observer:
                U[s] -= c.known[q][s]
    for r in range(NROWS):
        for i in range(c.rowlen[r]):
            U[c.row[r][i]] -= 1
    if c.fcard >= 0:
        U[c.fcard] -= 1


cdef inline bint unknown_slots(Core* c, int observer, int* need, int* allowed) noexcept nogil:
    """need[q]: the cards of q's hand the observer does not know; allowed[q]: the species
    they may be ("lacks" facts).  Returns whether any "lacks" fact constrains a deal."""
    cdef int q, s, kn
    cdef bint constrained = False
    for q in range(c.n):
        need[q] = 0
        allowed[q] = 0xFF
        if q == observer:
            continue
        kn = 0
        for s in range(NSP):
            kn += c.known[q][s]
        need[q] = c.hsize[q] - kn
        allowed[q] = 0xFF & ~c.lacks[q]
        if need[q] > 0 and allowed[q] != 0xFF:
            constrained = True
    return constrained


cdef inline void deal_unknown(Core* c, int observer, int* U, int* need, int* allowed,
                              bint constrained, Rng* rng) noexcept nogil:
    """Every opponent's hand becomes its known cards plus need[q] cards dealt from the
    unseen counts U (updated), in seat order one slot at a time, weighted by U, never a
    species the owner is known to lack and (when constrained) never a choice after which
    some opponent could no longer be filled (hall_ok)."""
    cdef int q, s, total, pick, chosen
    cdef int ok[NSP]
    for q in range(c.n):
        if q == observer:
            continue
        for s in range(NSP):
            c.hand[q][s] = c.known[q][s]
    for q in range(c.n):
        while need[q] > 0:
            total = 0
            for s in range(NSP):
                ok[s] = 0
                if U[s] > 0 and allowed[q] & (1 << s):
                    if constrained:
                        U[s] -= 1
                        need[q] -= 1
                        ok[s] = hall_ok(U, need, allowed, c.n)
                        U[s] += 1
                        need[q] += 1
                    else:
                        ok[s] = 1
                    if ok[s]:
                        total += U[s]
            if total == 0:
                # An inconsistent position (cannot come from play): fall back to any
                # unseen card so the state stays whole.
                for s in range(NSP):
                    ok[s] = U[s] > 0
                    if ok[s]:
                        total += U[s]
                if total == 0:
                    break
            pick = <int>rng_below(rng, total)
            chosen = NSP - 1
            for s in range(NSP):
                if ok[s]:
                    pick -= U[s]
                    if pick < 0:
                        chosen = s
                        break
            c.hand[q][chosen] += 1
            U[chosen] -= 1
            need[q] -= 1


cdef inline void deal_with_flock(Core* c, int observer, int fp, int* U, int* need,
                                 int* allowed, bint constrained, Rng* rng) noexcept nogil:
    """Deal so that player fp's hand reaches a small flock: one species that can reach its
    small number (consistent with the others' slots), chosen at random, its missing cards
    placed first, then the rest dealt."""
    cdef int cand[NSP]
    cdef int nc = 0, x, miss
    for x in range(NSP):
        miss = SMALL[x] - c.known[fp][x]
        if miss <= need[fp] and miss <= U[x] and allowed[fp] & (1 << x):
            U[x] -= miss
            need[fp] -= miss
            if hall_ok(U, need, allowed, c.n):
                cand[nc] = x
                nc += 1
            U[x] += miss
            need[fp] += miss
    if nc > 0:
        x = cand[rng_below(rng, nc)]
        miss = SMALL[x] - c.known[fp][x]
        U[x] -= miss
        need[fp] -= miss
        deal_unknown(c, observer, U, need, allowed, True, rng)
        c.hand[fp][x] += miss
    else:
        # An inconsistent position (cannot come from play): deal without the flock.
        deal_unknown(c, observer, U, need, allowed, constrained, rng)
