"""What an MCTS search reports, read from its node store: the MctsReport a search ends
with (each root move's statistics, the move chosen: the robust child, but a proven win
first and a proven loss last; the most visited lines), and the tree as rows for tests that
check its bookkeeping.  Safe to read while other threads search (NodeStore.children)."""
from libc.stdint cimport int8_t
from roost.core.state cimport State, CHANCE, HIDDEN, MAX_MOVES
from roost.search.nodes cimport Node, Extra, NONE, UNKNOWN, WIN0, WIN1, DRAW, EXPANDED
from roost.search.result import Report
from roost.search.root_move cimport root_move


class MctsReport(Report):
    """An MCTS search's Report: ``proven`` the chosen move's proof for the mover,
    ``root_proven`` the root's, ``nodes`` the tree nodes made, ``memory`` the bytes of the
    node store; each root move's visits, every player's values and most visited line."""

    def score_text(self):
        return f"{self.proven} (proven)" if self.proven else f"{self.value:.3f}"

    def extras(self):
        figures = {"tree_nodes": self.nodes, "tree_mb": round(self.memory / 2 ** 20, 1)}
        if self.threads > 1:
            figures["threads"] = self.threads
        return figures


cdef object search_report(NodeStore store, int root, list kids, list values, bint solving,
                          int me, long long iterations, double seconds, long long nodes,
                          long long playout_plies, int threads, long long memory):
    """The MctsReport of the tree below ``root``: its children ``kids`` with every
    player's values from ``values`` (in the same order)."""
    moves, best = root_moves(store, kids, values, solving, me)
    cdef Node* b = store.at(best) if best != NONE else NULL
    return MctsReport(move=b.move if b != NULL else -1,
                      value=b.value / b.visits if b != NULL and b.visits else 0.5,
                      proven=proven_name(solving, b.proven, me) if b != NULL else "",
                      root_proven=proven_name(solving, store.at(root).proven, me),
                      iterations=iterations, seconds=seconds, root_moves=moves,
                      pv=line_from(store, best), nodes=nodes, playout_plies=playout_plies,
                      threads=threads, memory=memory)


cdef tuple root_moves(NodeStore store, list kids, list values, bint solving, int me):
    """(moves, chosen): a RootMove for each root child in `kids` (most visited first),
    with every player's values from `values` (in the same order), and the child chosen,
    or NONE."""
    cdef int best = NONE, k, i
    cdef Node* ch
    cdef list moves = []
    cdef int8_t mine = WIN0 if me == 0 else WIN1
    cdef long best_key = -1, key
    for i, k in enumerate(kids):
        ch = store.at(k)
        moves.append(root_move(ch.move, ch.value / ch.visits if ch.visits else 0.5, ch.visits,
                               proven_name(solving, ch.proven, me), values[i],
                               line_from(store, k), 0.0, False, True))
        # robust child, but a proven win first and a proven loss last
        key = ch.visits + 1
        if solving and ch.proven == mine:
            key += 1 << 40
        elif solving and ch.proven != UNKNOWN and ch.proven != DRAW:
            key = 0
        if key > best_key:
            best_key = key
            best = k
    moves.sort(key=_most_visited)
    return moves, best


def _most_visited(root_move):
    return -root_move.visits


cdef list line_from(NodeStore store, int node):
    """The most visited line from ``node`` (its own move first), while it has visits."""
    cdef list line = []
    cdef int k, j, best
    while node != NONE and store.at(node).visits > 0 and store.at(node).mover >= 0:
        line.append(store.at(node).move)
        best = NONE
        j = 0
        for k in store.children(node):
            if store.at(k).visits > j and store.at(k).mover >= 0:
                j = store.at(k).visits
                best = k
        node = best
    return line


cdef str proven_name(bint solving, int proven, int player):
    """A proof as the player sees it: "win", "loss", "draw", or "" (none, or no solver)."""
    if not solving or proven == UNKNOWN:
        return ""
    if proven == DRAW:
        return "draw"
    return "win" if (proven == WIN0) == (player == 0) else "loss"


cdef list chance_node_widths(NodeStore store, int root):
    """[(visits, distinct outcomes kept)] of every chance node below `root`."""
    cdef list stack = [root], widths = []
    cdef int i, k
    while stack:
        i = stack.pop()
        if store.at(i).chance:
            widths.append((store.at(i).visits, store.at(i).nkids))
        k = store.at(i).child
        while k != NONE:
            stack.append(k)
            k = store.at(k).sibling
    return widths


cdef dict tree_rows(NodeStore store, int root):
    """Every node from `root` down, by index, as a dict of its fields and children."""
    cdef int i
    cdef Node* nd
    cdef Extra* x
    out = {}
    todo = [root]
    while todo:
        i = todo.pop()
        kids = store.children(i)
        todo.extend(kids)
        nd = store.at(i)
        row = {"move": nd.move, "mover": nd.mover, "visits": nd.visits, "value": nd.value,
               "chance": nd.chance, "expanded": nd.expanded == EXPANDED, "children": kids,
               "proven": nd.proven,
               "heur": None, "imm": None, "amaf_value": None, "amaf_visits": None}
        if store.xchunks != NULL:
            x = store.ex(i)
            row.update(heur=x.heur, imm=x.imm, amaf_value=x.amaf_value,
                       amaf_visits=x.amaf_visits)
        out[i] = row
    return out


def visible_line(State world, list moves, int observer):
    """The longest prefix of `moves` that `observer` can follow from `world`: each move legal
    where it is played and, for another player's move, one the observer sees (State.observe).
    With `world` a state drawn from the observer's knowledge, the line depends on nothing the
    observer cannot see."""
    cdef State s = world.clone()
    cdef int buf[MAX_MOVES]
    cdef int n, i, m
    cdef list line = []
    for m in moves:
        if s.over() or s.to_move() == CHANCE:
            break
        n = s.legal_moves(buf)
        for i in range(n):
            if buf[i] == m:
                break
        else:
            break
        if s.to_move() != observer and s.observe(m, observer) == HIDDEN:
            break
        line.append(m)
        s.play(m)
    return line
