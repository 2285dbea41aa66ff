"""Monte Carlo tree search over the State contract.

One tree engine serves three searches:
- UCT with per-player value backup (max^n: each edge keeps the result of the player who
  chose it, so N players need nothing special), the MCTS-Solver for two-player games,
  chance nodes keyed by the outcome drawn (closed loop) with progressive widening, native
  random playouts, tree reuse between the moves of a game;
- single-observer information-set MCTS (``ismcts``): each iteration determinizes the root
  for the observer, edges are actions as the observer sees them (State.observe), and
  selection counts how often each action was available (availability-aware UCB);
- PIMC lives in engines.py on top of the perfect-information search.

The tree lives in one C array of nodes with a fixed budget; children are a linked list
(first child, next sibling) so chance nodes and information sets can grow one child at a
time while decision nodes of perfect-information games are expanded all at once.
"""
from libc.stdlib cimport malloc, free
from libc.math cimport sqrt, log, pow, ceil
from libc.stdint cimport uint64_t, int32_t, int8_t
from roost.search.clock cimport now, interrupted

from roost.core.rng cimport Rng, rng_seed, rng_below
from roost.core.state cimport State, CHANCE, HIDDEN, MAX_MOVES, MAX_PLAYERS

DEF NONE = -1
DEF UNKNOWN = 0
DEF WIN0 = 1          # proven: player 0 wins (two-player solver, absolute values)
DEF WIN1 = 2
DEF DRAW = 3
DEF MAX_PATH = 1 << 16
DEF MAX_VISITS = 2000000000   # below 2**31: visits are int32
DEF INTERRUPTED = 2

MAX_ITERATIONS = 1000000000   # per search (the root's visit counter must not overflow)
MAX_SECONDS = 1e9             # about 31 years: "until stopped"
MAX_NODES = 1000000000        # tree capacity: node indices are int32

ctypedef struct Node:
    double value      # sum of the results of `mover` over the visits
    int32_t child     # first child or NONE
    int32_t sibling   # next sibling or NONE
    int32_t move      # the edge's label: a move, a chance outcome, or what the observer saw
    int32_t visits
    int32_t avail     # ISMCTS: visits of the parent in which this edge was available
    int32_t nkids
    int32_t slot      # root children: index into the per-player result sums, else -1
    int8_t mover      # player who chose the edge; -1 for a chance edge
    int8_t expanded   # decision node whose children were all created
    int8_t chance     # the node is a chance node
    int8_t proven


cdef class MCTS:
    cdef Node* nodes
    cdef public int capacity
    cdef public int count
    cdef public int root
    cdef int* path
    cdef int moves[MAX_MOVES]
    # every player's results below each root child, this search only: the max^n value
    # vector the statistics report (an edge itself keeps only its mover's result)
    cdef double root_sums[MAX_MOVES * MAX_PLAYERS]
    cdef long long root_counts[MAX_MOVES]
    cdef int nslots
    cdef Rng rng
    cdef State work
    cdef State tree_state       # the position the root stands for (None: a fresh tree)
    # settings
    cdef public double c
    cdef public double pw_c
    cdef public double pw_alpha
    cdef public bint solver
    cdef public bint ismcts
    cdef public int playout_plies
    # per-search
    cdef int observer
    cdef bint solving
    cdef long long playout_total

    def __cinit__(self, int capacity=1000000, double c=1.0, double pw_c=1.0,
                  double pw_alpha=0.5, bint solver=True, bint ismcts=False,
                  int playout_plies=100000, seed=0):
        if not 1 <= capacity <= MAX_NODES:
            raise ValueError(f"an MCTS tree holds 1 to {MAX_NODES} nodes, not {capacity}")
        if not (0.0 <= c <= 1e6 and 0.0 <= pw_c <= 1e6 and 0.0 <= pw_alpha <= 1.0):
            raise ValueError("MCTS constants out of range: c and widen 0..1e6, alpha 0..1")
        self.nodes = <Node*>malloc(<size_t>capacity * sizeof(Node))
        self.path = <int*>malloc(MAX_PATH * sizeof(int))
        if self.nodes == NULL or self.path == NULL:
            raise MemoryError(f"cannot allocate an MCTS tree of {capacity} nodes "
                              f"({capacity * sizeof(Node) / 2.0**20:.0f} MB)")
        self.capacity = capacity
        self.c = c
        self.pw_c = pw_c
        self.pw_alpha = pw_alpha
        self.solver = solver
        self.ismcts = ismcts
        self.playout_plies = playout_plies
        rng_seed(&self.rng, <uint64_t>seed)
        self.reset()

    def __dealloc__(self):
        free(self.nodes)
        free(self.path)

    def reseed(self, seed):
        rng_seed(&self.rng, <uint64_t>seed)

    def reset(self):
        """Drop the whole tree."""
        self.tree_state = None
        self.count = 0
        self.root = self.new_node(NONE, -1)

    cdef int new_node(self, int move, int mover) noexcept nogil:
        cdef Node* n
        if self.count >= self.capacity:
            return NONE
        n = &self.nodes[self.count]
        n.value = 0.0
        n.child = NONE
        n.sibling = NONE
        n.move = move
        n.visits = 0
        n.avail = 0
        n.nkids = 0
        n.slot = -1
        n.mover = mover
        n.expanded = 0
        n.chance = 0
        n.proven = UNKNOWN
        self.count += 1
        return self.count - 1

    cdef int add_child(self, int parent, int move, int mover) noexcept nogil:
        cdef int k = self.new_node(move, mover)
        if k == NONE:
            return NONE
        self.nodes[k].sibling = self.nodes[parent].child
        self.nodes[parent].child = k
        self.nodes[parent].nkids += 1
        if parent == self.root:
            self.give_slot(k)
        return k

    cdef void give_slot(self, int k) noexcept nogil:
        cdef int p
        if self.nslots >= MAX_MOVES:
            return
        self.nodes[k].slot = self.nslots
        for p in range(MAX_PLAYERS):
            self.root_sums[self.nslots * MAX_PLAYERS + p] = 0.0
        self.root_counts[self.nslots] = 0
        self.nslots += 1

    cdef int find_child(self, int parent, int move) noexcept nogil:
        cdef int k = self.nodes[parent].child
        while k != NONE:
            if self.nodes[k].move == move:
                return k
            k = self.nodes[k].sibling
        return NONE

    # ------------------------------------------------------------------ tree reuse
    def advance(self, int move):
        """Move the root along an edge just played in the game (a move or a chance outcome),
        keeping that subtree; unknown edges, or a tree more than half full, start afresh."""
        cdef int k = self.find_child(self.root, move)
        if k == NONE or self.ismcts or self.count > self.capacity // 2:
            self.reset()
        else:
            self.root = k
            if self.tree_state is not None:
                self.tree_state.play(move)

    # ------------------------------------------------------------------ one iteration
    cdef int select_decision(self, int node, int player) noexcept nogil:
        """UCB1 over the children of a perfect-information decision node (max^n: each
        child's value is its mover's); proven children steer the choice."""
        cdef Node* nd = &self.nodes[node]
        cdef int k = nd.child, best = NONE, fallback = NONE
        cdef double lg = log(nd.visits + 1.0), score, best_score = -1e300
        cdef Node* ch
        cdef int8_t mine = WIN0 if player == 0 else WIN1
        while k != NONE:
            ch = &self.nodes[k]
            if self.solving and ch.proven != UNKNOWN:
                if ch.proven == mine:
                    return k
                if ch.proven != DRAW:
                    fallback = k          # a proven loss: only if nothing else is left
                    k = ch.sibling
                    continue
            if ch.visits == 0:
                return k
            score = ch.value / ch.visits + self.c * sqrt(lg / ch.visits)
            if score > best_score:
                best_score = score
                best = k
            k = ch.sibling
        return best if best != NONE else fallback

    cdef int select_information_set(self, int node, int player, int n) noexcept nogil:
        """ISMCTS: children for the actions available in this determinization, created on
        first sight; UCB with the availability count in place of the parent's visits.
        The children are kept sorted by action and the actions are sorted too, so matching
        them is one merge pass, not a search per action (hundreds of actions in Leaves)."""
        cdef int i, j, m, k, prev = NONE, found, best = NONE
        cdef double score, best_score = -1e300
        cdef Node* ch
        cdef int* mv = self.moves
        for i in range(1, n):          # insertion sort: generation order is nearly sorted
            m = mv[i]
            j = i - 1
            while j >= 0 and mv[j] > m:
                mv[j + 1] = mv[j]
                j -= 1
            mv[j + 1] = m
        k = self.nodes[node].child
        for i in range(n):
            m = mv[i]
            while k != NONE and self.nodes[k].move < m:
                prev = k
                k = self.nodes[k].sibling
            if k != NONE and self.nodes[k].move == m:
                found = k
            else:
                found = self.new_node(m, player)
                if found == NONE:
                    continue
                self.nodes[found].sibling = k
                if prev == NONE:
                    self.nodes[node].child = found
                else:
                    self.nodes[prev].sibling = found
                self.nodes[node].nkids += 1
                if node == self.root:
                    self.give_slot(found)
            prev = found
            k = self.nodes[found].sibling
            ch = &self.nodes[found]
            ch.avail += 1
            if ch.visits == 0:
                score = 1e300                # untried actions first, in action order
            else:
                score = ch.value / ch.visits + self.c * sqrt(log(<double>ch.avail) / ch.visits)
            if score > best_score:
                best_score = score
                best = found
        return best

    cdef void iterate(self, State root_state) noexcept:
        cdef State w = self.work
        cdef int node = self.root, depth = 0, tm, n, i, k, o, label
        cdef double out[MAX_PLAYERS]
        cdef Node* nd
        cdef bint from_proof = False, leaf_terminal = False
        w.assign(root_state)
        if self.ismcts:
            w.determinize(self.observer, &self.rng)
        self.path[0] = node
        while True:
            nd = &self.nodes[node]
            if self.solving and nd.proven != UNKNOWN:
                from_proof = True
                break
            if w.over():
                leaf_terminal = True
                break
            tm = w.to_move()
            if tm == CHANCE:
                nd.chance = 1
                o = w.sample_chance(&self.rng)
                label = w.observe(o, self.observer) if self.ismcts else o
                k = self.find_child(node, label)
                w.play(o)
                if k == NONE:
                    if nd.nkids < self.widening(node):
                        k = self.add_child(node, label, -1)
                    if k == NONE:
                        break               # outside the tree: roll out from here
                    depth += 1
                    self.path[depth] = k
                    break                   # a new leaf
                node = k
                depth += 1
                self.path[depth] = node
                if depth >= MAX_PATH - 2:
                    break
                continue
            if self.ismcts:
                n = w.legal_moves(self.moves)
                k = self.select_information_set(node, tm, n)
            else:
                if not nd.expanded:
                    n = w.legal_moves(self.moves)
                    if self.count + n > self.capacity:
                        break               # the budget is spent: roll out from here
                    for i in range(n):
                        self.add_child(node, self.moves[i], tm)
                    nd = &self.nodes[node]
                    nd.expanded = 1
                k = self.select_decision(node, tm)
            if k == NONE:
                break
            w.play(self.nodes[k].move)
            depth += 1
            self.path[depth] = k
            node = k
            if self.nodes[k].visits == 0 or depth >= MAX_PATH - 2:
                if w.over():
                    leaf_terminal = True
                break
        if from_proof:
            self.proof_outcome(self.nodes[node].proven, out, w.n_players)
        else:
            if not w.over():
                self.playout_total += w.playout(&self.rng, self.playout_plies)
            if w.over():
                w.outcome(out)
            else:
                for i in range(w.n_players):
                    out[i] = w.evaluate(i)
            if leaf_terminal and self.solving:
                self.prove_terminal(node, out)
        for i in range(depth + 1):
            nd = &self.nodes[self.path[i]]
            nd.visits += 1
            if nd.mover >= 0:
                nd.value += out[nd.mover]
        if depth >= 1 and self.nodes[self.path[1]].slot >= 0:
            k = self.nodes[self.path[1]].slot
            self.root_counts[k] += 1
            for i in range(w.n_players):
                self.root_sums[k * MAX_PLAYERS + i] += out[i]
        if self.solving and (leaf_terminal or from_proof):
            self.propagate(depth)

    cdef int widening(self, int node) noexcept nogil:
        cdef Node* nd = &self.nodes[node]
        cdef double allowed
        if self.ismcts:
            return 1 << 30
        allowed = ceil(self.pw_c * pow(nd.visits + 1.0, self.pw_alpha))
        if allowed < 1:
            allowed = 1
        return <int>allowed

    # ------------------------------------------------------------------ the solver
    cdef void proof_outcome(self, int proven, double* out, int n) noexcept nogil:
        out[0] = 1.0 if proven == WIN0 else (0.5 if proven == DRAW else 0.0)
        out[1] = 1.0 - out[0]

    cdef void prove_terminal(self, int node, double* out) noexcept nogil:
        if out[0] == 1.0 and out[1] == 0.0:
            self.nodes[node].proven = WIN0
        elif out[0] == 0.0 and out[1] == 1.0:
            self.nodes[node].proven = WIN1
        elif out[0] == 0.5 and out[1] == 0.5:
            self.nodes[node].proven = DRAW

    cdef void propagate(self, int depth) noexcept nogil:
        """Walk up the path proving parents: a decision node is won when a child wins for
        its mover, and decided when all its children are."""
        cdef int j, k, parent, mover
        cdef int8_t win, lose
        cdef bint any_draw, all_known
        cdef Node* p
        cdef Node* ch
        for j in range(depth - 1, -1, -1):
            parent = self.path[j]
            p = &self.nodes[parent]
            if p.proven != UNKNOWN:
                continue
            k = p.child
            if k == NONE:
                return
            if p.chance:
                return      # chance nodes stay unproven: their outcomes are only sampled
            if not p.expanded:
                return
            mover = self.nodes[k].mover
            win = WIN0 if mover == 0 else WIN1
            lose = WIN1 if mover == 0 else WIN0
            any_draw = False
            all_known = True
            while k != NONE:
                ch = &self.nodes[k]
                if ch.proven == win:
                    p.proven = win
                    break
                if ch.proven == DRAW:
                    any_draw = True
                elif ch.proven == UNKNOWN:
                    all_known = False
                k = ch.sibling
            if p.proven == UNKNOWN:
                if not all_known:
                    return
                p.proven = DRAW if any_draw else lose

    # ------------------------------------------------------------------ the driver
    def search(self, State root_state, long long iterations=0, double seconds=0.0,
               int observer=-1, progress=None):
        """Run iterations from `root_state` (the tree's root must correspond to it).
        Stops at the iteration or time budget, or when the root is proven.  `progress`, if
        given, is called as progress(iterations, seconds) after the first iteration and
        then at growing intervals (0.1 s, then twice as long each time, at most 10 s);
        ``snapshot`` reads the tree meanwhile."""
        cdef long long it = 0
        cdef double t0 = now(), deadline, report_gap = 0.1, next_report = t0 + 0.1
        cdef Node* r
        cdef int k, stop
        if root_state.over() or root_state.to_move() == CHANCE:
            raise ValueError("MCTS needs a decision node to search from")
        if not (0.0 <= seconds <= MAX_SECONDS) or not (0 <= iterations <= MAX_ITERATIONS):
            raise ValueError(f"MCTS budget out of range: iterations 0..{MAX_ITERATIONS}, "
                             f"seconds 0..{MAX_SECONDS:g}")
        if iterations <= 0 and seconds <= 0:
            raise ValueError("MCTS needs an iteration or time budget")
        deadline = t0 + seconds if seconds > 0 else 0.0
        # a kept tree is only reused for the position it was grown for (a search of some
        # other game or position would otherwise replay its moves in the wrong state)
        if self.tree_state is not None and (type(self.tree_state) is not type(root_state)
                                            or self.tree_state.key() != root_state.key()
                                            or self.tree_state.n_players != root_state.n_players):
            self.reset()
        self.work = root_state.clone()
        self.tree_state = root_state.clone()
        self.observer = root_state.to_move() if observer < 0 else observer
        self.solving = self.solver and not self.ismcts and root_state.n_players == 2
        self.playout_total = 0
        if self.ismcts:
            self.reset()
        r = &self.nodes[self.root]
        r.mover = -1
        r.chance = 0
        self.nslots = 0
        k = r.child
        while k != NONE:
            self.give_slot(k)
            k = self.nodes[k].sibling
        while True:
            self.iterate(root_state)
            it += 1
            stop = self.limit_reached(it, iterations, deadline)
            if stop == INTERRUPTED:      # Ctrl-C: report what there is
                from roost.search.alphabeta import SearchInterrupted
                raise SearchInterrupted(self.report(root_state, it, now() - t0))
            if stop:
                break
            if progress is not None and (it == 1 or now() >= next_report):
                next_report = now() + report_gap
                report_gap = min(2.0 * report_gap, 10.0)
                try:
                    progress(it, now() - t0)
                except KeyboardInterrupt:   # Ctrl-C inside the caller's Python code
                    from roost.search.alphabeta import SearchInterrupted
                    raise SearchInterrupted(self.report(root_state, it, now() - t0))
        return self.report(root_state, it, now() - t0)

    cdef int limit_reached(self, long long it, long long iterations, double deadline) noexcept:
        """The one place the search's limits are read, after every iteration (one iteration
        can be long: a whole playout).  0: go on, 1: a limit is reached, INTERRUPTED: Ctrl-C."""
        if iterations > 0 and it >= iterations:
            return 1
        if self.solving and self.nodes[self.root].proven != UNKNOWN:
            return 1
        if self.nodes[self.root].visits >= MAX_VISITS:
            return 1                    # the visit counters are 32-bit
        if deadline > 0 and now() >= deadline:
            return 1
        if interrupted():
            return INTERRUPTED
        return 0

    def snapshot(self, State root_state, long long iterations=0, double seconds=0.0):
        """What a search from ``root_state`` has found so far (as ``search`` returns it),
        for a progress report while it runs."""
        return self.report(root_state, iterations, seconds)

    cdef list line_from(self, int node):
        """The most visited line from ``node`` (its own move first), while it has visits."""
        cdef list line = []
        cdef int k, j
        while node != NONE and self.nodes[node].visits > 0 and self.nodes[node].mover >= 0:
            line.append(self.nodes[node].move)
            k = self.nodes[node].child
            node = NONE
            j = 0
            while k != NONE:
                if self.nodes[k].visits > j and self.nodes[k].mover >= 0:
                    j = self.nodes[k].visits
                    node = k
                k = self.nodes[k].sibling
        return line

    cdef dict report(self, State root_state, long long it, double seconds):
        cdef Node* r = &self.nodes[self.root]
        cdef int k = r.child, best = NONE, me = root_state.to_move()
        cdef Node* ch
        cdef list stats = []
        cdef list pv
        cdef int8_t mine = WIN0 if me == 0 else WIN1
        cdef long best_key = -1, key
        while k != NONE:
            ch = &self.nodes[k]
            stats.append({"move": ch.move, "visits": ch.visits,
                          "value": ch.value / ch.visits if ch.visits else 0.5,
                          "proven": self.proven_name(ch.proven, me),
                          "values": self.slot_values(ch.slot, root_state.n_players),
                          "pv": self.line_from(k)})
            # robust child, but a proven win first and a proven loss last
            key = ch.visits + 1
            if self.solving and ch.proven == mine:
                key += 1 << 40
            elif self.solving and ch.proven != UNKNOWN and ch.proven != DRAW:
                key = 0
            if key > best_key:
                best_key = key
                best = k
            k = ch.sibling
        stats.sort(key=lambda s: -s["visits"])
        pv = self.line_from(best)
        return {"move": self.nodes[best].move if best != NONE else -1,
                "value": (self.nodes[best].value / self.nodes[best].visits
                          if best != NONE and self.nodes[best].visits else 0.5),
                "proven": self.proven_name(self.nodes[best].proven, me) if best != NONE else "",
                "root_proven": self.proven_name(r.proven, me),
                "iterations": it, "seconds": seconds, "stats": stats, "pv": pv,
                "nodes": self.count, "playout_plies": self.playout_total}

    def chance_widths(self):
        """[(visits, distinct outcomes kept)] of every chance node in the tree (to check
        progressive widening)."""
        return [(self.nodes[i].visits, self.nodes[i].nkids) for i in range(self.count)
                if self.nodes[i].chance]

    cdef list slot_values(self, int slot, int n):
        cdef long long c
        if slot < 0 or self.root_counts[slot] == 0:
            return []
        c = self.root_counts[slot]
        return [self.root_sums[slot * MAX_PLAYERS + p] / c for p in range(n)]

    cdef str proven_name(self, int proven, int player):
        if not self.solving or proven == UNKNOWN:
            return ""
        if proven == DRAW:
            return "draw"
        return "win" if (proven == WIN0) == (player == 0) else "loss"


def can_allocate_tree(long long capacity):
    """Whether a tree of `capacity` nodes can be allocated now (see alphabeta.can_allocate)."""
    cdef void* p
    if not 1 <= capacity <= MAX_NODES:
        return False
    p = malloc(<size_t>capacity * sizeof(Node))
    if p == NULL:
        return False
    free(p)
    return True


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
