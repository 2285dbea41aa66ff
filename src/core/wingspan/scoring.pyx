"""Goals and scoring (§5, docs/rules/wingspan-cards.md): what each goal side counts, the goal
points at the end of a round, bonus cards, the final score, the search utility (§5.3) and
the heuristic evaluation that estimates it."""
from libc.math cimport exp

from roost.core.wingspan.tables cimport *
from roost.core.wingspan.state cimport Core, Player, matches, total_food

# §5.3: with one player the utility is the score, capped here and scaled to [0, 1]
cdef double SOLO_CAP = 200.0
# the potential's weights against other players (evaluate): a card in hand (up to the turns
# left), a food in supply, a bird on the mat per turn left
cdef double VERSUS_HAND = 0.4
cdef double VERSUS_FOOD = 0.65
cdef double VERSUS_ENGINE = 0.3


cdef int goal_count(Core* c, int p, int g) noexcept nogil:
    """The item goal side ``g`` counts on seat p's mat (docs/rules/wingspan-cards.md §2.2)."""
    cdef Player* P = &c.pl[p]
    cdef int s, b, h, k = 0
    cdef int e[3]
    cdef int code = g
    if code == 0 or code == 2 or code == 4:
        return P.rows[code // 2]
    if code == 1 or code == 3 or code == 5:
        h = code // 2
        for s in range(5 * h, 5 * h + 5):
            k += P.egg[s]
        return k
    if code == 6 or code == 8 or code == 10 or code == 12:
        for s in range(15):
            b = P.bird[s]
            if b >= 0 and matches(b, (code - 6) // 2) and P.egg[s] > 0:
                k += 1
        return k
    if code == 7 or code == 9 or code == 11 or code == 13:
        for s in range(15):
            b = P.bird[s]
            if b >= 0 and matches(b, (code - 7) // 2):
                k += P.egg[s]
        return k
    if code == 14:
        for h in range(3):
            e[h] = 0
            for s in range(5 * h, 5 * h + 5):
                e[h] += P.egg[s]
        k = e[0]
        if e[1] < k:
            k = e[1]
        if e[2] < k:
            k = e[2]
        return k
    return P.rows[0] + P.rows[1] + P.rows[2]


cdef void score_round(Core* c) noexcept nogil:
    """Goal points of the round that just ended (§5.1), stored in goal_pts."""
    cdef int r = c.round - 1, p, q, better, same, place, k, tot
    cdef int cnt[MAXP]
    cdef int g = c.goals[r]
    for p in range(c.n):
        cnt[p] = goal_count(c, p, g)
    for p in range(c.n):
        if c.side == 1:
            c.goal_pts[r][p] = cnt[p] if cnt[p] < 5 else 5
            continue
        if cnt[p] == 0:
            c.goal_pts[r][p] = 0
            continue
        better = 0
        same = 0
        for q in range(c.n):
            if cnt[q] > cnt[p]:
                better += 1
            elif cnt[q] == cnt[p]:
                same += 1
        tot = 0
        for k in range(same):
            place = better + k
            if place < 3:
                tot += PLACE_PTS[r][place]
        c.goal_pts[r][p] = tot // same
    c.nscored = c.round


cdef int bonus_points(Core* c, int p, int bid) noexcept nogil:
    cdef Player* P = &c.pl[p]
    cdef int s, b, k = 0, i, m
    if bid == BON_BREE:
        for s in range(15):
            if P.bird[s] >= 0 and P.egg[s] >= 4:
                k += 1
        return k
    if bid == BON_ECOL:
        m = P.rows[0]
        if P.rows[1] < m:
            m = P.rows[1]
        if P.rows[2] < m:
            m = P.rows[2]
        return 2 * m
    if bid == BON_OOLO:
        for s in range(15):
            if P.bird[s] >= 0 and P.egg[s] >= 1:
                k += 1
    elif bid == BON_VISI:
        k = P.nhand
    else:
        for s in range(15):
            b = P.bird[s]
            if b >= 0 and (BON_MEMBER[bid][b >> 6] >> (b & 63)) & 1:
                k += 1
    if BON_KIND[bid] == 0:
        return BON_PER[bid] * k
    for i in range(BON_NT[bid] - 1, -1, -1):
        if k >= BON_LO[bid][i]:
            return BON_PTS[bid][i]
    return 0


cdef int score_parts(Core* c, int p, int* parts) noexcept nogil:
    """parts: birds, bonus, goals, eggs, cache, tucks; returns the total (§5.2)."""
    cdef Player* P = &c.pl[p]
    cdef int s, t, i, r
    for i in range(6):
        parts[i] = 0
    for s in range(15):
        if P.bird[s] >= 0:
            parts[0] += B_VP[P.bird[s]]
            parts[3] += P.egg[s]
            for t in range(5):
                parts[4] += P.cache[s][t]
            parts[5] += P.ntuck[s]
    for i in range(NBON):
        if c.bloc[i] == B_HELD and c.bown[i] == p:
            parts[1] += bonus_points(c, p, i)
    for r in range(c.nscored):
        parts[2] += c.goal_pts[r][p]
    return parts[0] + parts[1] + parts[2] + parts[3] + parts[4] + parts[5]


cdef int score(Core* c, int p) noexcept nogil:
    cdef int parts[6]
    return score_parts(c, p, parts)


cdef inline double solo_utility(double points) noexcept nogil:
    """§5.3 with one player: min(score, 200) / 200."""
    if points < 0:
        return 0.0
    return (points if points < SOLO_CAP else SOLO_CAP) / SOLO_CAP


cdef void final_outcome(Core* c, double* out) noexcept nogil:
    """1/k to each of the k winners (most points, then most food in supply); with one
    player, the capped score (§5.3)."""
    cdef int p, best = -1, bestf = -1, k = 0
    cdef int sc[MAXP]
    cdef int fd[MAXP]
    if c.n == 1:
        out[0] = solo_utility(score(c, 0))
        return
    for p in range(c.n):
        sc[p] = score(c, p)
        fd[p] = total_food(&c.pl[p])
        if sc[p] > best or (sc[p] == best and fd[p] > bestf):
            best = sc[p]
            bestf = fd[p]
    for p in range(c.n):
        if sc[p] == best and fd[p] == bestf:
            k += 1
    for p in range(c.n):
        out[p] = (1.0 / k) if (sc[p] == best and fd[p] == bestf) else 0.0


cdef double evaluate(Core* c, int player) noexcept nogil:
    # Measures the expected final score: points so far (birds, bonus cards as they stand,
    # goals scored, eggs, cache, tucks) plus potential (cards in hand up to the turns left,
    # food in supply, turns left weighted by the engine on the mat).  With several players
    # a softmax whose temperature shrinks as the game nears its end turns the estimates
    # into a win probability; alone, the estimate goes through the solo utility (§5.3).
    # The potential weights differ: alone they estimate points; against others they were
    # fitted to predict the winner (a logistic regression on 110 two-player games between
    # MCTS searchers at 0.05 s a move; docs/strength.md), which the solo weights did worse
    # than a coin in the first half of the game: a card in hand is worth much less than a
    # food or a bird that works for the turns left.
    cdef double est[MAXP]
    cdef double outv[MAXP]
    cdef double mx = -1e9, tot = 0.0, temp
    cdef int p, left, hand, birds, rr, k
    cdef Player* P
    if c.phase == PH_OVER:
        final_outcome(c, outv)
        return outv[player]
    left = 0
    for rr in range(c.round, 5):
        left += 9 - rr
    for p in range(c.n):
        P = &c.pl[p]
        k = P.cubes + left - (9 - c.round) if c.phase == PH_PLAY else left
        if k < 0:
            k = 0
        hand = P.nhand if P.nhand < k else k
        birds = P.rows[0] + P.rows[1] + P.rows[2]
        if c.n == 1:
            est[p] = score(c, p) + 1.5 * hand + 0.35 * total_food(P) + k * (0.8 + 0.1 * birds)
        else:
            est[p] = (score(c, p) + VERSUS_HAND * hand + VERSUS_FOOD * total_food(P)
                      + k * (0.8 + VERSUS_ENGINE * birds))
        if est[p] > mx:
            mx = est[p]
    if c.n == 1:
        return solo_utility(est[0])
    temp = 3.0 + 0.2 * left
    for p in range(c.n):
        est[p] = exp((est[p] - mx) / temp)
        tot += est[p]
    return est[player] / tot
