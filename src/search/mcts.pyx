"""Monte Carlo tree search over the State contract: selection, iteration and backup.

One tree engine serves three searches:
- UCT with per-player value backup (max^n: each edge keeps the result of the player who
  chose it, so N players need nothing special), the MCTS-Solver for two-player games,
  chance nodes keyed by the outcome drawn (closed loop) with progressive widening, native
  random playouts, tree reuse between the moves of a game;
- single-observer information-set MCTS (``ismcts``): each iteration determinizes the root
  for the observer, edges are actions as the observer sees them (State.observe), and
  selection counts how often each action was available (availability-aware UCB);
- PIMC lives in engines.py on top of the perfect-information search (``search_worlds``
  searches several determinizations at once, one tree and one thread each).

The units: MCTS (here) selects, iterates, backs up and proves; nodes.pyx is the node store
(layout, allocation in chunks, compaction for tree reuse); enhancements.pyx RAVE / GRAVE,
implicit minimax and progressive bias; playout.pyx the playout policies; mcts_report.pyx
what a search returns; threads.pxd/.pyx the atomics, locks and the pool that drives the
threads.  When the store is full the tree stops growing and the search goes on: iterations
roll out from its edge.  A search resolves its settings once into Options (mcts.pxd), which
is all an iteration reads.

Threads (``threads=N``) share one tree (tree parallelism).  Visits are counted on the way
down (a virtual loss: a path other threads are still playing out looks worse to them until
its result arrives), results are added on the way up, both with atomic adds; a decision
node is expanded by the one thread that wins a compare-and-swap on its state (others roll
out from it meanwhile).  A chance node or information set is read without a lock (children
are only ever added, each complete before it is linked in with a release store) and takes
a small per-node lock only to add a child.  Visits and results are exact; ISMCTS's
availability count is a plain increment that can lose a count to a race (docs/threads.md).

Options besides the enhancements:
- discount (``discount``): a playout's result after p plies keeps discount^p of its margin
  over the players' mean (``shrink``), so a result reached sooner counts more;
- quiet cut-offs (``quiet``): a playout cut off by ``playout_plies`` plays on at random to a
  position the evaluation reads fairly (``State.quiesce``; Wingspan: the next turn's
  start) before it is scored;
- open-loop chance (``open_loop``): a chance node keeps one child for every outcome, the
  outcome drawn afresh on each pass.  Where chance has thousands of outcomes (a Tweeeet
  row), closed loop with widening sends all but a few iterations out of the tree at the
  first chance node; open loop lets the tree grow as deep below chance as above it.  A
  decision node below a chance node was expanded in one draw, so each pass considers only
  its children legal in the present draw (a move legal now that the first draw lacked is
  not searched there), and nothing below a chance node is proven: a proof in one draw is
  none in another.
"""
cimport cython
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memset
from libc.math cimport sqrt, log, pow, ceil
from libc.stdint cimport uint64_t, int16_t, int8_t
from roost.core.rng cimport rng_seed, rng_next
from roost.core.int_sort cimport sort_ascending
from roost.core.state cimport CHANCE
from roost.search.clock cimport now
from roost.search.threads cimport (add_double, store_float, fetch_add_i32, fetch_add_i64, bump_i32,
                                   load_acquire_i8, store_release_i8, cas_i8, load_acquire_int,
                                   store_release_int, spin_lock, spin_unlock, drive,
                                   DRIVE_INTERRUPTED)
from roost.search.playout cimport POLICY_MAST
from roost.search.enhancements cimport (select_blended, leaf_value, evaluate_children,
                                        back_up_imm, back_up_amaf)
from roost.search.nodes cimport (Extra, NONE, EXPANDING, EXPANDED, UNKNOWN, WIN0, WIN1, DRAW,
                                 CHUNK, MAX_STORE_NODES)
from roost.search.mcts_report cimport search_report, tree_rows, chance_node_widths
from roost.search.mcts_report import visible_line
from roost.search.nodes import can_allocate_tree

cdef enum:
    MAX_PATH = 1 << 16
    MAX_VISITS = 2000000000   # below 2**31: visits are int32

MAX_ITERATIONS = 1000000000   # per search (the root's visit counter must not overflow)
MAX_SECONDS = 1e9             # about 31 years: "until stopped"
MAX_NODES = MAX_STORE_NODES   # tree capacity: node indices are int32
MAX_THREADS = 256
NODE_BYTES = sizeof(Node)
EXTRA_BYTES = sizeof(Extra)

# 1/n and 1/sqrt(n) for the visit counts most children have; written once, when the module
# loads, and only read after (the threads share them)
cdef enum:
    RECIPROCALS = 1024
cdef double INVERSE[RECIPROCALS]
cdef double INVERSE_ROOT[RECIPROCALS]


cdef void fill_reciprocals() noexcept:
    cdef int v
    INVERSE[0] = INVERSE_ROOT[0] = 0.0
    for v in range(1, RECIPROCALS):
        INVERSE[v] = 1.0 / v
        INVERSE_ROOT[v] = 1.0 / sqrt(<double>v)


fill_reciprocals()


cdef class MCTS:
    def __cinit__(self, int capacity=1000000, double c=1.0, double pw_c=1.0,
                  double pw_alpha=0.5, bint solver=True, bint ismcts=False,
                  int playout_plies=100000, seed=0, int threads=1, int policy=0,
                  double epsilon=0.1, double imm=0.0, double bias=0.0, double rave=0.0,
                  int grave=0, bint open_loop=False, double discount=1.0, bint quiet=False):
        cdef int i
        cdef Playout p
        if not 1 <= capacity <= MAX_NODES:
            raise ValueError(f"an MCTS tree holds 1 to {MAX_NODES} nodes, not {capacity}")
        if not (0.0 <= c <= 1e6 and 0.0 <= pw_c <= 1e6 and 0.0 <= pw_alpha <= 1.0):
            raise ValueError("MCTS constants out of range: c and widen 0..1e6, alpha 0..1")
        if not 1 <= threads <= MAX_THREADS:
            raise ValueError(f"an MCTS search runs 1 to {MAX_THREADS} threads, not {threads}")
        if not (0.0 <= imm <= 1.0 and 0.0 <= bias <= 1e6):
            raise ValueError("MCTS constants out of range: imm 0..1, bias 0..1e6")
        if not (0.0 <= rave <= 1e9 and 0 <= grave <= MAX_VISITS):
            raise ValueError(f"MCTS constants out of range: rave 0..1e9, grave 0..{MAX_VISITS}")
        if not 0.0 < discount <= 1.0:
            raise ValueError(f"MCTS discount out of range: above 0, at most 1, not {discount}")
        self.discount = discount
        self.quiet = quiet
        self.playouts = [Playout(policy, epsilon) for i in range(threads)]
        for i in range(1, threads):
            p = self.playouts[i]
            p.share_mast(self.playouts[0])
        self.imm_weight = imm
        self.bias = bias
        self.rave = rave
        self.grave_ref = grave
        self.open_loop = open_loop
        self.extras = imm > 0 or bias > 0 or rave > 0
        self.store = NodeStore(capacity, self.extras)
        self.workers = <Worker*>calloc(threads, sizeof(Worker))
        if self.workers == NULL:
            raise MemoryError("cannot allocate an MCTS tree")
        self.threads = threads
        for i in range(threads):
            self.workers[i].path = <int*>malloc(MAX_PATH * sizeof(int))
            if self.workers[i].path == NULL:
                raise MemoryError("cannot allocate an MCTS tree")
            self.workers[i].playout = <void*>self.playouts[i]
        self.c = c
        self.pw_c = pw_c
        self.pw_alpha = pw_alpha
        self.solver = solver
        self.ismcts = ismcts
        self.playout_plies = playout_plies
        rng_seed(&self.rng, <uint64_t>seed)
        self.reset()
        if self.root == NONE:
            raise MemoryError("cannot allocate an MCTS tree")

    def __dealloc__(self):
        cdef int i
        if self.workers != NULL:
            for i in range(self.threads):
                free(self.workers[i].path)
            free(self.workers)

    @property
    def capacity(self):
        """Nodes the tree may hold."""
        return self.store.capacity

    @property
    def count(self):
        """Nodes in the tree."""
        return self.nodes_made()

    cdef long long nodes_made(self) noexcept nogil:
        cdef long long total = 0
        cdef int i
        for i in range(self.threads):
            total += self.workers[i].block.made
        return total

    @property
    def memory(self):
        """Bytes of node store allocated (what the tree has grown to)."""
        return self.store.memory()

    @property
    def playout(self):
        """The first thread's Playout (its MAST table is the search's)."""
        return self.playouts[0]

    @property
    def thread_iterations(self):
        """Iterations each thread ran in the last search."""
        return [self.workers[i].iterations for i in range(self.threads)]

    def reseed(self, seed):
        rng_seed(&self.rng, <uint64_t>seed)

    def reset(self):
        """Drop the whole tree (and the memory it grew, but its first chunk)."""
        self.store.reset()
        self.empty_blocks()
        self.tree_state = None
        self.root = self.store.take(&self.workers[0].block, 1)
        if self.root != NONE:
            self.store.init_node(self.root, NONE, -1)

    cdef void empty_blocks(self):
        """Every thread takes its next nodes from a fresh block (the store was emptied)."""
        cdef int i
        for i in range(self.threads):
            self.workers[i].block.next = 0
            self.workers[i].block.end = 0
            self.workers[i].block.made = 0

    cdef inline void give_slot(self, int k) noexcept nogil:
        cdef int s = fetch_add_i32(&self.nslots, 1)
        if s < MAX_MOVES:
            self.store.at(k).slot = <int16_t>s

    # ------------------------------------------------------------------ tree reuse
    def advance(self, int move):
        """Move the root along an edge just played in the game (a move or a chance outcome),
        keeping that subtree; an unknown edge starts afresh.  Once the tree spans more than
        one chunk, the kept subtree is copied into a fresh store and the rest freed, so a
        long game's memory follows what is kept, not everything ever searched."""
        cdef int k = self.store.find_between(self.store.at(self.root).child, NONE, move)
        cdef long long made
        if k == NONE or self.ismcts or (self.open_loop and self.store.at(self.root).chance):
            # open loop: the chance root's one child stands for every outcome, the one drawn
            # in the game included, but its subtree was grown in other draws
            self.reset()
            return
        if self.store.reserved > CHUNK:
            made = self.nodes_made()
            self.empty_blocks()
            k = self.store.compact(k, made, &self.workers[0].block)
            if k == NONE:
                self.reset()
                return
        self.root = k
        if self.tree_state is not None:
            self.tree_state.play(move)

    # ------------------------------------------------------------------ one iteration
    cdef inline int enter(self, Worker* wk, int depth, int k) noexcept nogil:
        """Put node k on the path and count the visit now (a virtual loss until its result
        is added); returns the visits it had before."""
        wk.path[depth] = k
        return fetch_add_i32(&self.store.at(k).visits, 1)

    cdef bint expand(self, Worker* wk, State w, int node, int player) noexcept nogil:
        """Create every child of a perfect-information decision node in one contiguous run.
        False if the store is full or another thread is expanding it (roll out instead)."""
        cdef Node* nd = self.store.at(node)
        cdef int n, i, first
        cdef Node* ch
        if not cas_i8(&nd.expanded, 0, EXPANDING):
            return load_acquire_i8(&nd.expanded) == EXPANDED
        n = w.legal_moves(wk.moves)
        first = self.store.take(&wk.block, n)
        if first == NONE:
            store_release_i8(&nd.expanded, 0)
            return False
        for i in range(n):
            self.store.init_node(first + i, wk.moves[i], player)
            if i + 1 < n:
                self.store.at(first + i).sibling = first + i + 1
            if node == self.root:
                self.give_slot(first + i)
        if self.opt.blend.heur:
            evaluate_children(self.store, <Playout>wk.playout, first, n, w, player)
        nd.child = first if n > 0 else NONE
        nd.nkids = n
        store_release_i8(&nd.expanded, EXPANDED)
        return True

    cdef int select_decision(self, int node, int player, const char* allowed) noexcept nogil:
        """UCB1 over the children of a perfect-information decision node (max^n: each
        child's value is its mover's); proven children steer the choice.  The parent's
        part of the exploration term is computed once; the children are an array, and
        the 1/n and 1/sqrt(n) of small visit counts come from tables (no division or
        square root on the way down for most children).  ``allowed`` (NULL: all) marks
        the children legal in this pass's draw (open loop below a chance node)."""
        cdef Node* nd = self.store.at(node)
        cdef int n = nd.nkids, i, best = NONE, fallback = NONE, v
        cdef Node* kids
        cdef Node* ch
        cdef double explore, score, best_score = -1e300
        cdef int8_t mine = WIN0 if player == 0 else WIN1
        cdef bint solving = self.opt.solving
        if n == 0:
            return NONE
        kids = self.store.at(nd.child)
        explore = self.c * sqrt(log(<double>nd.visits))
        for i in range(n):
            if allowed != NULL and not allowed[i]:
                continue
            ch = kids + i
            if solving and ch.proven != UNKNOWN:
                if ch.proven == mine:
                    return nd.child + i
                if ch.proven != DRAW:
                    fallback = nd.child + i   # a proven loss: only if nothing else is left
                    continue
            v = ch.visits
            if v == 0:
                return nd.child + i
            if v < RECIPROCALS:
                score = ch.value * INVERSE[v] + explore * INVERSE_ROOT[v]
            else:
                score = ch.value / v + explore / sqrt(<double>v)
            if score > best_score:
                best_score = score
                best = nd.child + i
        return best if best != NONE else fallback

    cdef int select_information_set(self, Worker* wk, int node, int player, int n) noexcept nogil:
        """ISMCTS: children for the actions available in this determinization, created on
        first sight; UCB with the availability count in place of the parent's visits.
        The children are kept sorted by action and the actions are sorted too, so matching
        them is one merge pass, not a search per action (hundreds of actions in Leaves).

        An information set near the root is passed by every thread on nearly every
        iteration, so the pass takes no lock: children are only ever inserted, each one
        complete before a release-store links it in, and availability counts are atomic.
        Only actions seen for the first time take the node's lock, to be inserted; the
        choice is the same as one locked pass would make (UCB, untried actions first in
        action order)."""
        cdef int i, j, m, k, prev = NONE, best = NONE, nmissing = 0
        cdef double score, best_score = -1e300
        cdef Node* nd = self.store.at(node)
        cdef Node* ch
        cdef int* mv = wk.moves
        cdef int* missing = wk.missing
        sort_ascending(mv, n)
        k = load_acquire_int(<int*>&nd.child)
        for i in range(n):
            m = mv[i]
            while k != NONE and self.store.at(k).move < m:
                k = load_acquire_int(<int*>&self.store.at(k).sibling)
            if k == NONE or self.store.at(k).move != m:
                missing[nmissing] = m
                nmissing += 1
                continue
            ch = self.store.at(k)
            score = self.information_set_score(ch, bump_i32(&ch.avail) + 1)
            if score > best_score:
                best_score = score
                best = k
            k = load_acquire_int(<int*>&ch.sibling)
        if nmissing == 0:
            return best
        spin_lock(&nd.lock)
        k = nd.child
        for i in range(nmissing):
            m = missing[i]
            while k != NONE and self.store.at(k).move < m:
                prev = k
                k = self.store.at(k).sibling
            if k == NONE or self.store.at(k).move != m:
                j = self.store.take(&wk.block, 1)
                if j == NONE:
                    continue
                self.store.init_node(j, m, player)
                self.store.at(j).sibling = k
                if prev == NONE:
                    store_release_int(<int*>&nd.child, j)
                else:
                    store_release_int(<int*>&self.store.at(prev).sibling, j)
                nd.nkids += 1
                if node == self.root:
                    self.give_slot(j)
                k = j
            ch = self.store.at(k)
            score = self.information_set_score(ch, fetch_add_i32(&ch.avail, 1) + 1)
            # untried actions tie at the top score: the first in action order wins
            if score > best_score or (score == best_score and m < self.store.at(best).move):
                best_score = score
                best = k
            prev = k
            k = ch.sibling
        spin_unlock(&nd.lock)
        return best

    cdef const char* legal_children(self, Worker* wk, State w, int node) noexcept nogil:
        """Marks (in the worker's buffer) which children of an expanded decision node are
        legal in ``w``: open loop, below a chance node, where the node was expanded in
        another draw.  The legal moves are sorted once and each child's move looked up."""
        cdef Node* nd = self.store.at(node)
        cdef int n = w.legal_moves(wk.moves), i, j, m, lo, hi, mid
        cdef int* mv = wk.moves
        cdef Node* kids = self.store.at(nd.child) if nd.nkids > 0 else NULL
        sort_ascending(mv, n)
        for i in range(nd.nkids):
            m = kids[i].move
            lo = 0
            hi = n
            while lo < hi:
                mid = (lo + hi) >> 1
                if mv[mid] < m:
                    lo = mid + 1
                else:
                    hi = mid
            wk.allowed[i] = lo < n and mv[lo] == m
        return wk.allowed

    cdef inline double information_set_score(self, Node* ch, int avail) noexcept nogil:
        cdef int v = ch.visits
        if v == 0:
            return 1e300                 # untried actions first, in action order
        return ch.value / v + self.c * sqrt(log(<double>avail) / v)

    cdef int chance_child(self, Worker* wk, int node, int label) noexcept nogil:
        """The child of a chance node for an outcome drawn, made if progressive widening
        allows another (NONE: the outcome stays outside the tree).

        A chance node near the root is passed by every thread on nearly every iteration
        and may keep hundreds of outcomes, so finding one takes no lock: children are only
        ever prepended, each complete before its release-store into ``child``, so a reader
        always walks a consistent list.  The lock is taken only to add a child; then the
        children added since the first look are searched again."""
        cdef Node* nd = self.store.at(node)
        cdef int head = load_acquire_int(<int*>&nd.child), k
        k = self.store.find_between(head, NONE, label)
        if k != NONE or load_acquire_int(<int*>&nd.nkids) >= self.widening(node):
            return k
        spin_lock(&nd.lock)
        k = self.store.find_between(load_acquire_int(<int*>&nd.child), head, label)
        if k == NONE and nd.nkids < self.widening(node):
            k = self.store.take(&wk.block, 1)
            if k != NONE:
                self.store.init_node(k, label, -1)
                self.store.at(k).sibling = nd.child
                store_release_int(<int*>&nd.child, k)
                store_release_int(<int*>&nd.nkids, nd.nkids + 1)
        spin_unlock(&nd.lock)
        return k

    cdef void iterate(self, Worker* wk, State w, State root_state, Playout po) noexcept nogil:
        """One iteration: down the tree to a leaf, its result (a playout, the game's end or
        a proof), and that result back up the path."""
        cdef double out[MAX_PLAYERS]
        cdef Descent d
        po.begin()
        w.assign(root_state)
        if self.opt.ismcts:
            w.determinize(self.observer, &wk.rng)
        self.descend(wk, w, po, &d)
        self.leaf_result(wk, w, po, &d, out)
        self.back_up(wk, w, po, &d, out)

    cdef inline void descend(self, Worker* wk, State w, Playout po, Descent* d) noexcept nogil:
        """Select from the root down, playing each edge in w, until a new leaf, a proven
        node, the end of the game or the tree's edge."""
        cdef int node = self.root, depth = 0, tm, n, i, k, o, label, before
        cdef Node* nd
        cdef bint drawn = False     # open loop: the nodes below were made in other draws
        cdef const char* allowed
        cdef int refs[MAX_PLAYERS]
        for i in range(MAX_PLAYERS):
            refs[i] = NONE
        d.from_proof = False
        d.terminal = False
        self.enter(wk, 0, node)
        while True:
            nd = self.store.at(node)
            if self.opt.solving and nd.proven != UNKNOWN:
                d.from_proof = True
                break
            if w.over():
                d.terminal = True
                break
            tm = w.to_move()
            if tm == CHANCE:
                nd.chance = 1
                o = w.sample_chance(&wk.rng)
                if self.opt.open_loop:
                    label = 0
                    drawn = True
                else:
                    label = w.observe(o, self.observer) if self.opt.ismcts else o
                k = self.chance_child(wk, node, label)
                w.play(o)
                if k == NONE:
                    break                   # outside the tree: roll out from here
                depth += 1
                if self.enter(wk, depth, k) == 0:
                    if self.opt.blend.imm:
                        store_float(&self.store.ex(k).imm, <float>leaf_value(w))
                    break                   # a new leaf
                if depth >= MAX_PATH - 2:
                    break
                node = k
                continue
            if self.opt.ismcts:
                n = w.legal_moves(wk.moves)
                k = self.select_information_set(wk, node, tm, n)
            else:
                if load_acquire_i8(&nd.expanded) != EXPANDED and not self.expand(wk, w, node, tm):
                    break               # the budget is spent (or another thread is here)
                # (even a node this pass expanded: another thread may have, in its draw)
                allowed = self.legal_children(wk, w, node) if drawn else NULL
                if self.opt.blend.any:
                    # GRAVE's reference for this player: the deepest node on the path with
                    # enough visits before this iteration (the root at first)
                    if self.opt.blend.amaf and (nd.visits - 1 >= self.grave_ref or refs[tm] == NONE):
                        refs[tm] = node
                    k = select_blended(self.store, &self.opt.blend, self.opt.solving, po, node, tm,
                                       refs[tm] if self.opt.blend.amaf else node, allowed)
                else:
                    k = self.select_decision(node, tm, allowed)
            if k == NONE:
                break
            w.play(self.store.at(k).move)
            depth += 1
            before = self.enter(wk, depth, k)
            node = k
            if before == 0 or depth >= MAX_PATH - 2:
                if w.over():
                    d.terminal = True
                break
        d.node = node
        d.depth = depth
        d.drawn = drawn

    cdef inline void leaf_result(self, Worker* wk, State w, Playout po, Descent* d,
                                 double* out) noexcept nogil:
        """The iteration's result for every player, in out: the proof where the walk
        stopped at one, else a playout's end (or the evaluation where it was cut off)."""
        cdef int played = 0, i
        if d.from_proof:
            self.proof_outcome(self.store.at(d.node).proven, out, w.n_players)
            return
        if not w.over():
            played = po.run(w, &wk.rng, self.playout_plies)
            if self.opt.quiet and played > 0 and not w.over():
                played += w.quiesce(&wk.rng)
            wk.playout_total += played
        if w.over():
            w.outcome(out)
        else:
            for i in range(w.n_players):
                out[i] = w.evaluate(i)
        if self.opt.discount and played > 0:
            self.shrink(out, w.n_players, pow(self.discount, played))
        if d.terminal and self.opt.solving and not d.drawn:
            self.prove_terminal(d.node, out)

    cdef inline void back_up(self, Worker* wk, State w, Playout po, Descent* d,
                             double* out) noexcept nogil:
        """The result along the path: each edge's mover's share, and the options' and the
        root's statistics; then the proofs it completes."""
        cdef int depth = d.depth, i, k
        cdef Node* nd
        for i in range(depth + 1):
            nd = self.store.at(wk.path[i])
            if nd.mover >= 0:
                add_double(&nd.value, out[nd.mover])
        if self.opt.blend.amaf:
            po.amaf_begin()
            for i in range(depth - 1, -1, -1):
                nd = self.store.at(wk.path[i + 1])
                if nd.mover >= 0:
                    po.amaf_mark(nd.mover, nd.move)
                back_up_amaf(self.store, po, wk.path[i], out)
        if self.opt.mast:
            for i in range(1, depth + 1):
                po.note(self.store.at(wk.path[i]).mover, self.store.at(wk.path[i]).move)
            po.learn(out)
        if self.opt.blend.imm:
            for i in range(depth - 1, -1, -1):
                back_up_imm(self.store, wk.path[i])
        if depth >= 1 and self.store.at(wk.path[1]).slot >= 0:
            k = self.store.at(wk.path[1]).slot
            wk.root_counts[k] += 1
            for i in range(w.n_players):
                wk.root_sums[k * MAX_PLAYERS + i] += out[i]
        if self.opt.solving and (d.terminal or d.from_proof) and not d.drawn:
            self.propagate(wk, depth)

    cdef void shrink(self, double* out, int n, double keep) noexcept nogil:
        """Scale each player's margin over the players' mean by `keep`: a result reached
        far down a random playout says less about the leaf than one reached at once (the
        sum, and a draw, are unchanged; alone, a player has no margin)."""
        cdef double mean = 0.0
        cdef int i
        for i in range(n):
            mean += out[i]
        mean /= n
        for i in range(n):
            out[i] = mean + (out[i] - mean) * keep

    cdef int widening(self, int node) noexcept nogil:
        # the node's visits include this iteration's
        cdef Node* nd = self.store.at(node)
        cdef double allowed
        if self.opt.ismcts:
            return 1 << 30
        if self.opt.open_loop:
            return 1
        allowed = ceil(self.pw_c * pow(<double>nd.visits, self.pw_alpha))
        if allowed < 1:
            allowed = 1
        return <int>allowed

    # ------------------------------------------------------------------ the solver
    cdef void proof_outcome(self, int proven, double* out, int n) noexcept nogil:
        out[0] = 1.0 if proven == WIN0 else (0.5 if proven == DRAW else 0.0)
        out[1] = 1.0 - out[0]

    cdef void prove_terminal(self, int node, double* out) noexcept nogil:
        if out[0] == 1.0 and out[1] == 0.0:
            self.store.at(node).proven = WIN0
        elif out[0] == 0.0 and out[1] == 1.0:
            self.store.at(node).proven = WIN1
        elif out[0] == 0.5 and out[1] == 0.5:
            self.store.at(node).proven = DRAW

    cdef void propagate(self, Worker* wk, int depth) noexcept nogil:
        """Walk up the path proving parents: a decision node is won when a child wins for
        its mover, and decided when all its children are.  Proofs are facts about the game,
        so threads proving the same node concurrently write the same value."""
        cdef int j, k, parent, mover
        cdef int8_t win, lose
        cdef bint any_draw, all_known
        cdef Node* p
        cdef Node* ch
        for j in range(depth - 1, -1, -1):
            parent = wk.path[j]
            p = self.store.at(parent)
            if p.proven != UNKNOWN:
                continue
            if p.chance:
                return      # chance nodes stay unproven: their outcomes are only sampled
            if load_acquire_i8(&p.expanded) != EXPANDED:
                return
            k = p.child
            if k == NONE:
                return
            mover = self.store.at(k).mover
            win = WIN0 if mover == 0 else WIN1
            lose = WIN1 if mover == 0 else WIN0
            any_draw = False
            all_known = True
            while k != NONE:
                ch = self.store.at(k)
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
    cdef int run(self, Worker* wk, double slice_end, long long slice_iterations) noexcept nogil:
        return self.run_in(wk, <State>wk.work, <State>wk.root, slice_end, slice_iterations)

    cdef int run_in(self, Worker* wk, State w, State root_state, double slice_end,
                    long long slice_iterations) noexcept nogil:
        """Iterations by one thread until the search ends (1) or, on the calling thread,
        the slice does (0).  The search's limits are read here, after every iteration (one
        iteration can be long: a whole playout); the first thread to reach one stops all."""
        cdef long long done = 0
        cdef double t
        cdef Node* r = self.store.at(self.root)
        while True:
            if load_acquire_int(&self.stop):
                return 1
            if self.budget > 0 and fetch_add_i64(&self.claimed, 1) >= self.budget:
                store_release_int(&self.stop, 1)
                return 1
            self.iterate(wk, w, root_state, <Playout>wk.playout)
            wk.iterations += 1
            done += 1
            if (self.opt.solving and r.proven != UNKNOWN) or r.visits >= MAX_VISITS:
                store_release_int(&self.stop, 1)      # proven, or the 32-bit visit counters are full
                return 1
            if self.deadline > 0 or slice_end > 0:
                t = now()
                if self.deadline > 0 and t >= self.deadline:
                    store_release_int(&self.stop, 1)
                    return 1
                if slice_end > 0 and t >= slice_end:
                    return 0
            if slice_iterations > 0 and done >= slice_iterations:
                return 0

    cdef void prepare(self, State root_state, long long iterations, double seconds,
                      int observer, double t0) except *:
        """Everything a search needs before its threads start (with the GIL)."""
        cdef Node* r
        cdef int k, i
        cdef uint64_t base
        cdef Worker* wk
        cdef Playout po
        if root_state.over() or root_state.to_move() == CHANCE:
            raise ValueError("MCTS needs a decision node to search from")
        if not (0.0 <= seconds <= MAX_SECONDS) or not (0 <= iterations <= MAX_ITERATIONS):
            raise ValueError(f"MCTS budget out of range: iterations 0..{MAX_ITERATIONS}, "
                             f"seconds 0..{MAX_SECONDS:g}")
        if iterations <= 0 and seconds <= 0:
            raise ValueError("MCTS needs an iteration or time budget")
        # a kept tree is only reused for the position it was grown for (a search of some
        # other game or position would otherwise replay its moves in the wrong state)
        if self.tree_state is not None and (type(self.tree_state) is not type(root_state)
                                            or self.tree_state.key() != root_state.key()
                                            or self.tree_state.n_players != root_state.n_players):
            self.reset()
        if self.ismcts:
            self.reset()
        if self.root == NONE:
            raise MemoryError("cannot allocate an MCTS tree")
        self.tree_state = root_state.clone()
        self.search_root = root_state
        self.states = [root_state.clone() for i in range(self.threads)]
        self.observer = root_state.to_move() if observer < 0 else observer
        self.resolve_options(root_state)
        for i in range(self.threads):
            po = self.playouts[i]
            po.prepare(root_state, i == 0)
            po.recording = self.opt.blend.amaf      # AMAF reads the playout's moves
        self.budget = iterations
        self.claimed = 0
        self.deadline = t0 + seconds if seconds > 0 else 0.0
        self.stop = 0
        # threads past the first draw from generators seeded off the search's own, so the
        # first thread's stream (all of a one-thread search) is the same for any count
        base = rng_next(&self.rng) if self.threads > 1 else 0
        for i in range(self.threads):
            wk = &self.workers[i]
            wk.tree = <void*>self
            wk.work = <void*>self.states[i]
            wk.root = <void*>root_state
            wk.iterations = 0
            wk.playout_total = 0
            wk.runner.run = run_slice
            wk.runner.arg = <void*>wk
            wk.runner.stop = &self.stop
            wk.runner.count = &wk.iterations
            memset(wk.root_counts, 0, sizeof(wk.root_counts))
            memset(wk.root_sums, 0, sizeof(wk.root_sums))
            if i > 0:
                rng_seed(&wk.rng, base + <uint64_t>i * <uint64_t>0x9E3779B97F4A7C15ULL)
        r = self.store.at(self.root)
        r.mover = -1
        r.chance = 0
        self.nslots = 0
        k = r.child
        while k != NONE:
            self.give_slot(k)
            k = self.store.at(k).sibling

    cdef void resolve_options(self, State root_state):
        """What this search's iterations do, from the settings and the root's players."""
        cdef bint two = root_state.n_players == 2, perfect = not self.ismcts
        self.opt.ismcts = self.ismcts
        self.opt.solving = self.solver and perfect and two
        self.opt.open_loop = self.open_loop and perfect
        self.opt.blend.heur = self.extras and (self.bias > 0 or self.imm_weight > 0) and perfect
        self.opt.blend.imm = self.extras and self.imm_weight > 0 and perfect and two
        self.opt.blend.amaf = self.extras and self.rave > 0 and perfect
        self.opt.blend.any = self.opt.blend.heur or self.opt.blend.imm or self.opt.blend.amaf
        self.opt.blend.c = self.c
        self.opt.blend.rave = self.rave
        self.opt.blend.imm_weight = self.imm_weight
        self.opt.blend.bias = self.bias
        self.opt.quiet = self.quiet
        self.opt.mast = (<Playout>self.playouts[0]).policy == POLICY_MAST
        self.opt.discount = self.discount < 1.0

    cdef long long iterations_done(self):
        cdef long long total = 0
        cdef int i
        for i in range(self.threads):
            total += self.workers[i].iterations
        return total

    def search(self, State root_state, long long iterations=0, double seconds=0.0,
               int observer=-1, progress=None):
        """Run iterations from `root_state` (the tree's root must correspond to it), on
        `threads` threads.  Stops at the iteration or time budget, or when the root is
        proven.  `progress`, if given, is called as progress(iterations, seconds) after the
        first iteration and then at growing intervals (0.1 s, then twice as long each time,
        at most 10 s); ``snapshot`` reads the tree meanwhile.  Returns an MctsReport."""
        cdef double t0 = now()
        cdef Worker* first = &self.workers[0]
        self.prepare(root_state, iterations, seconds, observer, t0)
        first.rng = self.rng
        try:
            stopped = drive_trees([self], progress, t0)
        finally:
            self.rng = first.rng
            self.search_root = None
        result = self.report(root_state, self.iterations_done(), now() - t0)
        if stopped == DRIVE_INTERRUPTED:      # Ctrl-C: report what there is
            from roost.search.alphabeta import SearchInterrupted
            raise SearchInterrupted(result)
        return result

    def snapshot(self, State root_state, long long iterations=0, double seconds=0.0):
        """What a search from ``root_state`` has found so far (as ``search`` returns it),
        for a progress report while it runs (other threads may still be adding nodes)."""
        return self.report(root_state, iterations, seconds)

    cdef object report(self, State root_state, long long it, double seconds):
        """The MctsReport of the tree as it stands, after ``it`` iterations in ``seconds``."""
        cdef list kids = self.store.children(self.root)
        cdef list values = [self.slot_values(self.store.at(k).slot, root_state.n_players)
                            for k in kids]
        cdef long long playouts = 0
        cdef int j
        for j in range(self.threads):
            playouts += self.workers[j].playout_total
        return search_report(self.store, self.root, kids, values, self.opt.solving,
                             root_state.to_move(), it, seconds, self.nodes_made(), playouts,
                             self.threads, self.memory)

    cdef list slot_values(self, int slot, int n):
        """Every player's mean result below the root child of `slot`, over all threads."""
        cdef long long c = 0
        cdef double sums[MAX_PLAYERS]
        cdef int p, t
        if slot < 0:
            return []
        for p in range(n):
            sums[p] = 0.0
        for t in range(self.threads):
            c += self.workers[t].root_counts[slot]
            for p in range(n):
                sums[p] += self.workers[t].root_sums[slot * MAX_PLAYERS + p]
        if c == 0:
            return []
        return [sums[p] / c for p in range(n)]

    def chance_widths(self):
        """[(visits, distinct outcomes kept)] of every chance node in the tree (to check
        progressive widening)."""
        return chance_node_widths(self.store, self.root)

    def tree_nodes(self):
        """Every node from the root down, as dicts (to check the tree's bookkeeping):
        move, mover, visits, value, chance, expanded, heur, imm, the AMAF statistics and the
        children's indices (in the order selection scans them); the options' numbers are
        None without the side store."""
        return tree_rows(self.store, self.root)

    def children_allowed_in(self, State state, int node):
        """The moves of an expanded decision node's children that an open-loop pass in
        ``state`` (this node's position in some draw) would consider (to check the filter)."""
        cdef const char* allowed
        cdef int i
        if not (0 <= node < self.store.reserved) or self.store.at(node).expanded != EXPANDED:
            raise ValueError(f"node {node} is not an expanded decision node of this tree")
        allowed = self.legal_children(&self.workers[0], state, node)
        return [self.store.at(self.store.at(node).child + i).move
                for i in range(self.store.at(node).nkids) if allowed[i]]


cdef int run_slice(void* worker, double slice_end, long long slice_iterations) noexcept nogil:
    cdef Worker* wk = <Worker*>worker
    return (<MCTS>wk.tree).run(wk, slice_end, slice_iterations)


cdef int drive_trees(list trees, progress, double t0) except -1:
    """Run the prepared searches of `trees` to their ends, every thread of each (the first
    tree's first on this thread): threads.drive's status."""
    cdef MCTS t
    cdef int n = 0, i
    cdef Runner** runners
    for t in trees:
        n += t.threads
    runners = <Runner**>malloc(n * sizeof(Runner*))
    if runners == NULL:
        raise MemoryError("cannot start the search threads")
    n = 0
    for t in trees:
        for i in range(t.threads):
            runners[n] = &t.workers[i].runner
            n += 1
    try:
        return drive(runners, n, progress, t0)
    finally:
        free(runners)


def search_worlds(list trees, list worlds, list seeds, long long iterations=0,
                  double seconds=0.0, progress=None):
    """Search each of `worlds` (states) with its own tree of `trees` (reset and reseeded
    from `seeds`) at the same time, one thread each unless a tree has more: the PIMC
    worlds of one round.  Returns their reports in order; Ctrl-C raises SearchInterrupted
    with the reports as far as they got."""
    cdef double t0 = now()
    cdef MCTS t
    cdef int i
    if not (len(trees) == len(worlds) == len(seeds)) or not trees:
        raise ValueError("search_worlds needs one tree and one seed for each world")
    for i in range(len(trees)):
        t = trees[i]
        t.reset()
        t.reseed(seeds[i])
        t.prepare(worlds[i], iterations, seconds, -1, t0)
        t.workers[0].rng = t.rng
    try:
        stopped = drive_trees(trees, progress, t0)
    finally:
        for t in trees:
            t.rng = t.workers[0].rng
            t.search_root = None
    reports = [(<MCTS>trees[i]).report(worlds[i], (<MCTS>trees[i]).iterations_done(), now() - t0)
               for i in range(len(trees))]
    if stopped == DRIVE_INTERRUPTED:
        from roost.search.alphabeta import SearchInterrupted
        raise SearchInterrupted(reports)
    return reports
