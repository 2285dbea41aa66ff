"""MCTS's enhancements in the tree, each an option of the search:

- implicit minimax (``imm``): each node keeps the game's evaluation backed up as minimax
  (a chance node: the visit-weighted mean of its outcomes), blended into selection;
- progressive bias (``bias``): bias * evaluation / (visits + 1) in selection; with either,
  untried moves are tried best-evaluated first;
- RAVE / GRAVE (``rave``, ``grave``): all-moves-as-first statistics on every edge, blended
  with the edge's mean (GRAVE reads them at the nearest ancestor with enough visits).

Under threads the AMAF counts and sums are atomic adds; a node's minimax value and a new
child's evaluation are single floats stored atomically: a backup racing another may write a
value a moment old, which the next iteration through that node recomputes from its children
(a benign race: the value is a selection hint, never a result reported or proven).
"""
from libc.math cimport sqrt, log
from libc.stdint cimport int8_t
from roost.core.state cimport MAX_PLAYERS
from roost.search.nodes cimport Node, Extra, NONE, UNKNOWN, WIN0, WIN1, DRAW, EXPANDED
from roost.search.threads cimport (add_float, store_float, fetch_add_i32, load_acquire_i8,
                                   load_acquire_int)


cdef int select_blended(NodeStore store, Blend* b, bint solving, Playout po, int node,
                        int player, int ref, const char* allowed) noexcept nogil:
    """UCT selection with the enhancements: a move's mean is blended with its AMAF mean
    read at `ref` (GRAVE: an ancestor with enough visits and the same player to move; plain
    RAVE: the node itself) and with its implicit minimax value, plus the progressive bias;
    untried moves come first, the best evaluated first.  ``allowed`` (NULL: all) marks the
    children legal in this pass's draw (open loop below a chance node)."""
    cdef Node* nd = store.at(node)
    cdef int n = nd.nkids, i, k, best = NONE, fallback = NONE, fresh = NONE, an = 0, v
    cdef double lg = log(<double>nd.visits), score, best_score = -1e300, fresh_heur = -1e300
    cdef double amaf_sum = 0.0, beta, mm
    cdef Node* ch
    cdef Extra* x
    cdef int8_t mine = WIN0 if player == 0 else WIN1
    cdef bint from_ref = b.amaf and ref != node
    if n == 0:
        return NONE
    if from_ref:
        load_reference(store, po, ref)
    for i in range(n):
        if allowed != NULL and not allowed[i]:
            continue
        k = nd.child + i
        ch = store.at(k)
        x = store.ex(k)
        if solving and ch.proven != UNKNOWN:
            if ch.proven == mine:
                return k
            if ch.proven != DRAW:
                fallback = k          # a proven loss: only if nothing else is left
                continue
        if b.amaf:
            if from_ref:
                an = po.ref_get(ch.mover, ch.move, &amaf_sum)
            else:
                an = x.amaf_visits
                amaf_sum = x.amaf_value
        v = ch.visits
        if v == 0 and an == 0:
            if not b.heur:
                return k
            if x.heur > fresh_heur:      # untried moves first, the best evaluated first
                fresh_heur = x.heur
                fresh = k
            continue
        if v == 0:                        # untried, but AMAF has seen it
            score = amaf_sum / an + b.c * sqrt(lg)
        else:
            score = ch.value / v
            if an > 0:
                beta = an / (an + v + an * v / b.rave)
                score += beta * (amaf_sum / an - score)
            if b.imm and x.imm >= 0:
                mm = x.imm if ch.mover == 0 else 1.0 - x.imm
                score += b.imm_weight * (mm - score)
            score += b.c * sqrt(lg / v)
            if b.bias > 0:
                score += b.bias * x.heur / (v + 1.0)
        if score > best_score:
            best_score = score
            best = k
    if fresh != NONE:
        return fresh
    return best if best != NONE else fallback


cdef double leaf_value(State w) noexcept nogil:
    """Player 0's result, or its evaluation if the game is not over (two players)."""
    cdef double out[MAX_PLAYERS]
    if w.over():
        w.outcome(out)
        return out[0]
    return w.evaluate(0)


cdef void evaluate_children(NodeStore store, Playout po, int first, int n, State w,
                            int player) noexcept nogil:
    """Each new child's evaluation for its mover (progressive bias, move order) and, with
    two players, as player 0's implicit minimax value; before the children are
    published, so no other thread reads them half made."""
    cdef double v
    cdef int i
    cdef Extra* x
    for i in range(n):
        x = store.ex(first + i)
        v = po.move_value(w, store.at(first + i).move, player)
        x.heur = <float>v
        x.imm = <float>(v if player == 0 else 1.0 - v)


cdef void back_up_imm(NodeStore store, int node) noexcept nogil:
    """Implicit minimax: a decision node takes its best child's value for the player to
    move; a chance node the visit-weighted mean of the outcomes drawn so far (read
    without a lock, as MCTS.chance_child reads: outcomes are only prepended, each complete
    before it is linked in)."""
    cdef Node* nd = store.at(node)
    cdef int k, i, n, player
    cdef double best = -1.0, v, total = 0.0, weight = 0.0
    cdef float m
    if nd.chance:
        k = load_acquire_int(<int*>&nd.child)
        while k != NONE:
            m = store.ex(k).imm
            v = store.at(k).visits
            if m >= 0 and v > 0:
                total += m * v
                weight += v
            k = store.at(k).sibling
        if weight > 0:
            store_float(&store.ex(node).imm, <float>(total / weight))
        return
    if load_acquire_i8(&nd.expanded) != EXPANDED or nd.nkids == 0:
        return
    k = nd.child
    n = nd.nkids
    player = store.at(k).mover
    for i in range(n):
        m = store.ex(k + i).imm
        if m >= 0:
            v = m if player == 0 else 1.0 - m
            if v > best:
                best = v
    if best >= 0:
        store_float(&store.ex(node).imm, <float>(best if player == 0 else 1.0 - best))


cdef void back_up_amaf(NodeStore store, Playout po, int node, double* out) noexcept nogil:
    """Every child of `node` whose move its mover played at this ply or later in the
    iteration (as marked) gets the iteration's result as an AMAF sample."""
    cdef Node* nd = store.at(node)
    cdef Node* ch
    cdef int i, k
    if nd.chance or load_acquire_i8(&nd.expanded) != EXPANDED:
        return
    for i in range(nd.nkids):
        k = nd.child + i
        ch = store.at(k)
        if po.amaf_played(ch.mover, ch.move):
            fetch_add_i32(&store.ex(k).amaf_visits, 1)
            add_float(&store.ex(k).amaf_value, <float>out[ch.mover])


cdef void load_reference(NodeStore store, Playout po, int ref) noexcept nogil:
    """GRAVE: the AMAF statistics of `ref`'s children, by (player, move), in this
    thread's reference table."""
    cdef Node* nd = store.at(ref)
    cdef Node* ch
    cdef Extra* x
    cdef int i
    po.ref_clear()
    if load_acquire_i8(&nd.expanded) != EXPANDED:
        return
    for i in range(nd.nkids):
        ch = store.at(nd.child + i)
        x = store.ex(nd.child + i)
        if x.amaf_visits > 0:
            po.ref_put(ch.mover, ch.move, x.amaf_value, x.amaf_visits)
