"""Monte Carlo tree search over the State contract.

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

The node store grows with the search: nodes live in chunks of CHUNK nodes, allocated when
the search first needs them, so a node never moves once made (other threads hold its
index) and memory follows the tree up to the store's capacity.  When the capacity is
reached the tree stops growing and the search goes on: iterations roll out from its edge.

A decision node of a perfect-information search is expanded all at once, its children
in one contiguous run of nodes (selection reads them as an array); chance nodes and
information sets grow one child at a time, as a linked list (first child, next sibling;
the contiguous children are linked too, so every walk of the tree reads both alike).

Threads (``threads=N``) share one tree (tree parallelism).  Visits are counted on the way
down (a virtual loss: a path other threads are still playing out looks worse to them until
its result arrives), results are added on the way up, both with atomic adds; a decision
node is expanded by the one thread that wins a compare-and-swap on its state (others roll
out from it meanwhile).  A chance node or information set is read without a lock (children
are only ever added, each complete before it is linked in with a release store) and takes
a small per-node lock only to add a child.  Each thread draws nodes from its own block of
the store, so allocation takes a lock only once per BLOCK nodes, and counts the nodes it
made itself.

Statistics under threads: visits and results are exact (atomic adds).  The one exception
is ISMCTS's availability count, bumped on every available child of an information set on
every pass (hundreds in Under the Leaves): with a locked add per child two threads ran only
1.3x one (1.7x with plain increments), so it is a plain increment that loses a count when
two threads bump the same child at the same instant.  It only scales the exploration term, by a fraction of a
percent.

The options of issue 11 (playout.pyx for the playout policies):
- implicit minimax (``imm``): each node keeps the game's evaluation backed up as minimax
  (a chance node: the visit-weighted mean of its outcomes), blended into selection;
- progressive bias (``bias``): bias * evaluation / (visits + 1) in selection; with either,
  untried moves are tried best-evaluated first;
- RAVE / GRAVE (``rave``, ``grave``): all-moves-as-first statistics on every edge, blended
  with the edge's mean (GRAVE reads them at the nearest ancestor with enough visits);
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
Their per-node numbers live in a side store (Extra, chunked like the nodes and made only
when an option needs it), so a plain search keeps its small nodes.  Under threads the
AMAF counts and sums are atomic adds; a node's minimax value and a new child's evaluation
are single floats stored atomically: a backup racing another may write a value a moment
old, which the next iteration through that node recomputes from its children (a benign
race: the value is a selection hint, never a result reported or proven).
"""
cimport cython
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memset
from libc.math cimport sqrt, log, pow, ceil
from libc.stdint cimport uint64_t, int32_t, int16_t, int8_t
from roost.search.clock cimport now, interrupted
from roost.search.threads cimport (add_double, add_float, store_float, fetch_add_i32, fetch_add_i64,
                                   bump_i32, load_acquire_i8, store_release_i8, cas_i8,
                                   load_acquire_int, store_release_int, spin_lock, spin_unlock,
                                   nap, pthread_mutex_t, pthread_mutex_init, pthread_mutex_lock,
                                   pthread_mutex_unlock, pthread_mutex_destroy, Pool, pool_open,
                                   pool_start, pool_join, pool_close)

from roost.core.rng cimport Rng, rng_seed, rng_below, rng_next
from roost.core.int_sort cimport sort_ascending
from roost.core.state cimport State, CHANCE, HIDDEN, MAX_MOVES, MAX_PLAYERS
from roost.search.playout cimport Playout, POLICY_MAST

cdef enum:
    NONE = -1
    UNKNOWN = 0
    WIN0 = 1                  # proven: player 0 wins (two-player solver, absolute values)
    WIN1 = 2
    DRAW = 3
    MAX_PATH = 1 << 16
    MAX_VISITS = 2000000000   # below 2**31: visits are int32
    INTERRUPTED = 2
    CHUNK_BITS = 16           # a chunk of the node store: 65,536 nodes (2.5 MB)
    CHUNK = 1 << CHUNK_BITS
    CHUNK_MASK = CHUNK - 1
    BLOCK = 4096              # nodes a thread takes from the store at a time
    EXPANDING = 1             # Node.expanded: one thread is creating the children
    EXPANDED = 2              # all children exist (published with release order)

cdef extern from *:
    """
    #define ROOST_SLICE 0.02
    """
    const double SLICE "ROOST_SLICE"   # seconds between two looks for Ctrl-C on the calling thread

MAX_ITERATIONS = 1000000000   # per search (the root's visit counter must not overflow)
MAX_SECONDS = 1e9             # about 31 years: "until stopped"
MAX_NODES = 1000000000        # tree capacity: node indices are int32
MAX_THREADS = 256

ctypedef struct Node:
    double value      # sum of the results of `mover` over the visits
    int32_t child     # first child or NONE
    int32_t sibling   # next sibling or NONE
    int32_t move      # the edge's label: a move, a chance outcome, or what the observer saw
    int32_t visits    # counted on the way down: includes iterations still running
    int32_t avail     # ISMCTS: visits of the parent in which this edge was available
    int32_t nkids
    int16_t slot      # root children: index into the per-player result sums, else -1
    int8_t mover      # player who chose the edge; -1 for a chance edge
    int8_t expanded   # decision node: 0, EXPANDING or EXPANDED
    int8_t chance     # the node is a chance node
    int8_t proven
    int8_t lock       # chance nodes and information sets: held while children change

NODE_BYTES = sizeof(Node)


ctypedef struct Extra:
    # a node's numbers for the options of issue 11 (a side store: see the module's text)
    float heur          # the evaluation, for `mover`, just after the edge (-1: not computed)
    float imm           # implicit minimax: the evaluation backed up as max/min, for player 0
    float amaf_value    # RAVE: the mover's results of the iterations that played this move
    int32_t amaf_visits     # from the parent's position on, at any ply (all moves as first)

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


ctypedef struct Worker:
    # what one thread of a search owns; the tree and the states are borrowed references
    # (the MCTS object holds them for the search's length)
    void* tree
    void* work            # the State this thread plays iterations in
    void* root            # the State the search is from
    void* playout         # this thread's Playout (policy, scratch, AMAF marks)
    int* path
    Rng rng
    long long iterations
    long long playout_total
    long long made        # nodes this thread made (a shared counter would be written by
                          # every thread on every expansion: one cache line bouncing)
    int32_t next_node     # this thread's block of the store: [next_node, end_node)
    int32_t end_node
    int done              # the thread has stopped (a helper thread's last store)
    int moves[MAX_MOVES]
    int missing[MAX_MOVES]   # ISMCTS: actions an information set has no child for yet
    char allowed[MAX_MOVES]  # open loop: which children of a node are legal in this draw
    # every player's results below each root child, this search only: the max^n value
    # vector the statistics report (an edge itself keeps only its mover's result)
    long long root_counts[MAX_MOVES]
    double root_sums[MAX_MOVES * MAX_PLAYERS]


@cython.final
cdef class MCTS:
    cdef Node** chunks
    cdef Extra** xchunks          # the options' side store, chunk for chunk (NULL: none)
    cdef int nchunks
    cdef public int capacity
    cdef int reserved             # store indices handed out to threads' blocks
    cdef bint full                # the store could not give a block: the tree stops growing
    cdef pthread_mutex_t grow_lock
    cdef public int root
    cdef Worker* workers
    cdef readonly int threads
    cdef list states              # each worker's State, alive for the search
    cdef list playouts            # each worker's Playout
    cdef State search_root
    cdef int32_t nslots
    cdef Rng rng
    cdef State tree_state       # the position the root stands for (None: a fresh tree)
    # settings
    cdef public double c
    cdef public double pw_c
    cdef public double pw_alpha
    cdef public bint solver
    cdef public bint ismcts
    cdef public int playout_plies
    cdef public double discount     # a playout's result after p plies counts discount^p of its margin
    cdef public bint quiet          # a cut-off playout plays on to a quiet position (State.quiesce)
    cdef public double imm_weight   # weight of the implicit minimax value in selection
    cdef public double bias         # progressive bias: bias * heur / (visits + 1)
    cdef public double rave         # RAVE: the visits at which AMAF and the mean weigh alike
    cdef public int grave_ref       # GRAVE: AMAF from the nearest ancestor this visited
    cdef readonly bint extras       # the side store exists (imm, bias or rave set)
    cdef public bint open_loop      # chance nodes keep one child (perfect information only)
    # per-search
    cdef bint use_heur          # children are evaluated when created (bias or imm)
    cdef bint use_imm
    cdef bint use_rave
    cdef bint use_options       # any of the three: selection takes the slower path
    cdef int observer
    cdef bint solving
    cdef int stop
    cdef long long claimed
    cdef long long budget
    cdef double deadline

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
        pthread_mutex_init(&self.grow_lock, NULL)
        self.nchunks = (capacity + CHUNK - 1) >> CHUNK_BITS
        self.chunks = <Node**>calloc(self.nchunks, sizeof(Node*))
        self.workers = <Worker*>calloc(threads, sizeof(Worker))
        if self.extras:
            self.xchunks = <Extra**>calloc(self.nchunks, sizeof(Extra*))
        if self.chunks == NULL or self.workers == NULL or (self.extras and self.xchunks == NULL):
            raise MemoryError("cannot allocate an MCTS tree")
        self.threads = threads
        for i in range(threads):
            self.workers[i].path = <int*>malloc(MAX_PATH * sizeof(int))
            if self.workers[i].path == NULL:
                raise MemoryError("cannot allocate an MCTS tree")
            self.workers[i].playout = <void*>self.playouts[i]
        self.capacity = capacity
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
        if self.chunks != NULL:
            for i in range(self.nchunks):
                free(self.chunks[i])
            free(self.chunks)
        if self.xchunks != NULL:
            for i in range(self.nchunks):
                free(self.xchunks[i])
            free(self.xchunks)
        if self.workers != NULL:
            for i in range(self.threads):
                free(self.workers[i].path)
            free(self.workers)
        pthread_mutex_destroy(&self.grow_lock)

    @property
    def count(self):
        """Nodes in the tree."""
        return self.nodes_made()

    cdef long long nodes_made(self) noexcept nogil:
        cdef long long total = 0
        cdef int i
        for i in range(self.threads):
            total += self.workers[i].made
        return total

    @property
    def memory(self):
        """Bytes of node store allocated (what the tree has grown to)."""
        cdef long long total = 0
        cdef int i
        for i in range(self.nchunks):
            if self.chunks[i] != NULL:
                total += self.chunk_size(i) * sizeof(Node)
            if self.xchunks != NULL and self.xchunks[i] != NULL:
                total += self.chunk_size(i) * sizeof(Extra)
        return total

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
        cdef int i
        for i in range(1, self.nchunks):
            free(self.chunks[i])
            self.chunks[i] = NULL
            if self.xchunks != NULL:
                free(self.xchunks[i])
                self.xchunks[i] = NULL
        for i in range(self.threads):
            self.workers[i].next_node = 0
            self.workers[i].end_node = 0
            self.workers[i].made = 0
        self.tree_state = None
        self.reserved = 0
        self.full = False
        self.root = self.take(&self.workers[0], 1)
        if self.root != NONE:
            self.init_node(self.root, NONE, -1)

    # ------------------------------------------------------------------ the node store
    cdef inline Node* at(self, int i) noexcept nogil:
        return self.chunks[i >> CHUNK_BITS] + (i & CHUNK_MASK)

    cdef inline Extra* ex(self, int i) noexcept nogil:
        return self.xchunks[i >> CHUNK_BITS] + (i & CHUNK_MASK)

    cdef inline int chunk_size(self, int c) noexcept nogil:
        cdef int left = self.capacity - c * CHUNK
        return CHUNK if left > CHUNK else left

    cdef int reserve(self, int want) noexcept nogil:
        """`want` fresh node indices inside one chunk (allocated if new), or NONE."""
        cdef int start, c, result = NONE
        pthread_mutex_lock(&self.grow_lock)
        start = self.reserved
        if (start & CHUNK_MASK) + want > CHUNK:
            start = (start | CHUNK_MASK) + 1          # the run may not straddle two chunks
        if want <= CHUNK and start <= self.capacity - want:
            c = start >> CHUNK_BITS
            if self.chunks[c] == NULL:
                self.chunks[c] = <Node*>malloc(<size_t>self.chunk_size(c) * sizeof(Node))
            if self.xchunks != NULL and self.chunks[c] != NULL and self.xchunks[c] == NULL:
                self.xchunks[c] = <Extra*>malloc(<size_t>self.chunk_size(c) * sizeof(Extra))
                if self.xchunks[c] == NULL:
                    free(self.chunks[c])
                    self.chunks[c] = NULL
            if self.chunks[c] != NULL:
                self.reserved = start + want
                result = start
        pthread_mutex_unlock(&self.grow_lock)
        return result

    cdef int take(self, Worker* wk, int n) noexcept nogil:
        """`n` contiguous new nodes from this thread's block (a new block when it runs out),
        or NONE once the store is full."""
        cdef int start
        if wk.end_node - wk.next_node < n:
            if self.full:
                return NONE
            start = self.reserve(BLOCK if n <= BLOCK else n)
            if start != NONE:
                wk.end_node = start + (BLOCK if n <= BLOCK else n)
            else:
                start = self.reserve(n)       # the last few nodes of the store
                if start == NONE:
                    self.full = True
                    return NONE
                wk.end_node = start + n
            wk.next_node = start
        start = wk.next_node
        wk.next_node += n
        wk.made += n
        return start

    cdef inline void init_node(self, int k, int move, int mover) noexcept nogil:
        cdef Node* n = self.at(k)
        cdef Extra* x
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
        n.lock = 0
        if self.xchunks != NULL:
            x = self.ex(k)
            x.heur = -1.0
            x.imm = -1.0
            x.amaf_value = 0.0
            x.amaf_visits = 0

    cdef inline void give_slot(self, int k) noexcept nogil:
        cdef int s = fetch_add_i32(&self.nslots, 1)
        if s < MAX_MOVES:
            self.at(k).slot = <int16_t>s

    cdef int find_child(self, int parent, int move) noexcept nogil:
        return self.find_between(self.at(parent).child, NONE, move)

    # ------------------------------------------------------------------ tree reuse
    def advance(self, int move):
        """Move the root along an edge just played in the game (a move or a chance outcome),
        keeping that subtree; an unknown edge starts afresh.  Once the tree spans more than
        one chunk, the kept subtree is copied into a fresh store and the rest freed, so a
        long game's memory follows what is kept, not everything ever searched."""
        cdef int k = self.find_child(self.root, move)
        if k == NONE or self.ismcts or (self.open_loop and self.at(self.root).chance):
            # open loop: the chance root's one child stands for every outcome, the one drawn
            # in the game included, but its subtree was grown in other draws
            self.reset()
            return
        if self.reserved > CHUNK:
            k = self.compact(k)
            if k == NONE:
                self.reset()
                return
        self.root = k
        if self.tree_state is not None:
            self.tree_state.play(move)

    cdef int compact(self, int keep) except? -2:
        """Copy the subtree under `keep` into a new store (breadth first, a contiguous run of
        children staying contiguous) and free the old one; returns the new index of `keep`.
        Children that no longer fit leave their parent unexpanded."""
        cdef Node** old = self.chunks
        cdef Extra** old_x = self.xchunks
        cdef int* queue = <int*>malloc(2 * (<size_t>self.nodes_made() + 1) * sizeof(int))
        cdef int head = 0, tail = 0, i, o, n, first, prev, k, count, kept
        cdef Node* src
        cdef Node* dst
        cdef Worker* wk = &self.workers[0]
        if queue == NULL:
            return NONE
        self.chunks = <Node**>calloc(self.nchunks, sizeof(Node*))
        if self.chunks == NULL:
            self.chunks = old
            free(queue)
            return NONE
        if old_x != NULL:
            self.xchunks = <Extra**>calloc(self.nchunks, sizeof(Extra*))
            if self.xchunks == NULL:
                free(self.chunks)
                self.chunks = old
                self.xchunks = old_x
                free(queue)
                return NONE
        for i in range(self.threads):
            self.workers[i].next_node = 0
            self.workers[i].end_node = 0
            self.workers[i].made = 0
        self.reserved = 0
        self.full = False
        n = kept = self.take(wk, 1)
        self.at(n)[0] = (old[keep >> CHUNK_BITS] + (keep & CHUNK_MASK))[0]
        if old_x != NULL:
            self.ex(n)[0] = (old_x[keep >> CHUNK_BITS] + (keep & CHUNK_MASK))[0]
        queue[0] = keep
        queue[1] = n
        tail = 1
        while head < tail:
            o = queue[2 * head]
            n = queue[2 * head + 1]
            head += 1
            src = old[o >> CHUNK_BITS] + (o & CHUNK_MASK)
            count = src.nkids if src.expanded == EXPANDED else 0
            first = self.take(wk, count) if count > 0 else NONE
            if src.expanded == EXPANDED and first == NONE:
                dst = self.at(n)
                dst.child = NONE
                dst.nkids = 0
                dst.expanded = 0
                continue
            k = src.child
            prev = NONE
            i = 0
            while k != NONE:
                if first != NONE:
                    o = first + i
                else:
                    o = self.take(wk, 1)
                    if o == NONE:
                        break
                self.at(o)[0] = (old[k >> CHUNK_BITS] + (k & CHUNK_MASK))[0]
                if old_x != NULL:
                    self.ex(o)[0] = (old_x[k >> CHUNK_BITS] + (k & CHUNK_MASK))[0]
                self.at(o).sibling = NONE
                if prev == NONE:
                    self.at(n).child = o
                else:
                    self.at(prev).sibling = o
                queue[2 * tail] = k
                queue[2 * tail + 1] = o
                tail += 1
                prev = o
                i += 1
                k = (old[k >> CHUNK_BITS] + (k & CHUNK_MASK)).sibling
            if prev == NONE:
                self.at(n).child = NONE
            self.at(n).nkids = i
        free(queue)
        for i in range(self.nchunks):
            free(old[i])
            if old_x != NULL:
                free(old_x[i])
        free(old)
        free(old_x)
        return kept

    # ------------------------------------------------------------------ one iteration
    cdef inline int enter(self, Worker* wk, int depth, int k) noexcept nogil:
        """Put node k on the path and count the visit now (a virtual loss until its result
        is added); returns the visits it had before."""
        wk.path[depth] = k
        return fetch_add_i32(&self.at(k).visits, 1)

    cdef bint expand(self, Worker* wk, State w, int node, int player) noexcept nogil:
        """Create every child of a perfect-information decision node in one contiguous run.
        False if the store is full or another thread is expanding it (roll out instead)."""
        cdef Node* nd = self.at(node)
        cdef int n, i, first
        cdef Node* ch
        if not cas_i8(&nd.expanded, 0, EXPANDING):
            return load_acquire_i8(&nd.expanded) == EXPANDED
        n = w.legal_moves(wk.moves)
        first = self.take(wk, n)
        if first == NONE:
            store_release_i8(&nd.expanded, 0)
            return False
        for i in range(n):
            self.init_node(first + i, wk.moves[i], player)
            if i + 1 < n:
                self.at(first + i).sibling = first + i + 1
            if node == self.root:
                self.give_slot(first + i)
        if self.use_heur:
            self.evaluate_children(<Playout>wk.playout, first, n, w, player)
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
        cdef Node* nd = self.at(node)
        cdef int n = nd.nkids, i, best = NONE, fallback = NONE, v
        cdef Node* kids
        cdef Node* ch
        cdef double explore, score, best_score = -1e300
        cdef int8_t mine = WIN0 if player == 0 else WIN1
        cdef bint solving = self.solving
        if n == 0:
            return NONE
        kids = self.at(nd.child)
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

    cdef int select_with_options(self, Playout po, int node, int player, int ref,
                                 const char* allowed) noexcept nogil:
        """select_decision with the options of issue 11: a move's mean is blended with its
        AMAF mean read at `ref` (GRAVE: an ancestor with enough visits and the same player to
        move; plain RAVE: the node itself) and with its implicit minimax value, plus the
        progressive bias; untried moves come first, the best evaluated first."""
        cdef Node* nd = self.at(node)
        cdef int n = nd.nkids, i, k, best = NONE, fallback = NONE, fresh = NONE, an = 0, v
        cdef double lg = log(<double>nd.visits), score, best_score = -1e300, fresh_heur = -1e300
        cdef double amaf_sum = 0.0, beta, mm
        cdef Node* ch
        cdef Extra* x
        cdef int8_t mine = WIN0 if player == 0 else WIN1
        cdef bint from_ref = self.use_rave and ref != node
        if n == 0:
            return NONE
        if from_ref:
            self.load_reference(po, ref)
        for i in range(n):
            if allowed != NULL and not allowed[i]:
                continue
            k = nd.child + i
            ch = self.at(k)
            x = self.ex(k)
            if self.solving and ch.proven != UNKNOWN:
                if ch.proven == mine:
                    return k
                if ch.proven != DRAW:
                    fallback = k          # a proven loss: only if nothing else is left
                    continue
            if self.use_rave:
                if from_ref:
                    an = po.ref_get(ch.mover, ch.move, &amaf_sum)
                else:
                    an = x.amaf_visits
                    amaf_sum = x.amaf_value
            v = ch.visits
            if v == 0 and an == 0:
                if not self.use_heur:
                    return k
                if x.heur > fresh_heur:      # untried moves first, the best evaluated first
                    fresh_heur = x.heur
                    fresh = k
                continue
            if v == 0:                        # untried, but AMAF has seen it
                score = amaf_sum / an + self.c * sqrt(lg)
            else:
                score = ch.value / v
                if an > 0:
                    beta = an / (an + v + an * v / self.rave)
                    score += beta * (amaf_sum / an - score)
                if self.use_imm and x.imm >= 0:
                    mm = x.imm if ch.mover == 0 else 1.0 - x.imm
                    score += self.imm_weight * (mm - score)
                score += self.c * sqrt(lg / v)
                if self.bias > 0:
                    score += self.bias * x.heur / (v + 1.0)
            if score > best_score:
                best_score = score
                best = k
        if fresh != NONE:
            return fresh
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
        cdef Node* nd = self.at(node)
        cdef Node* ch
        cdef int* mv = wk.moves
        cdef int* missing = wk.missing
        sort_ascending(mv, n)
        k = load_acquire_int(<int*>&nd.child)
        for i in range(n):
            m = mv[i]
            while k != NONE and self.at(k).move < m:
                k = load_acquire_int(<int*>&self.at(k).sibling)
            if k == NONE or self.at(k).move != m:
                missing[nmissing] = m
                nmissing += 1
                continue
            ch = self.at(k)
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
            while k != NONE and self.at(k).move < m:
                prev = k
                k = self.at(k).sibling
            if k == NONE or self.at(k).move != m:
                j = self.take(wk, 1)
                if j == NONE:
                    continue
                self.init_node(j, m, player)
                self.at(j).sibling = k
                if prev == NONE:
                    store_release_int(<int*>&nd.child, j)
                else:
                    store_release_int(<int*>&self.at(prev).sibling, j)
                nd.nkids += 1
                if node == self.root:
                    self.give_slot(j)
                k = j
            ch = self.at(k)
            score = self.information_set_score(ch, fetch_add_i32(&ch.avail, 1) + 1)
            # untried actions tie at the top score: the first in action order wins
            if score > best_score or (score == best_score and m < self.at(best).move):
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
        cdef Node* nd = self.at(node)
        cdef int n = w.legal_moves(wk.moves), i, j, m, lo, hi, mid
        cdef int* mv = wk.moves
        cdef Node* kids = self.at(nd.child) if nd.nkids > 0 else NULL
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
        cdef Node* nd = self.at(node)
        cdef int head = load_acquire_int(<int*>&nd.child), k
        k = self.find_between(head, NONE, label)
        if k != NONE or load_acquire_int(<int*>&nd.nkids) >= self.widening(node):
            return k
        spin_lock(&nd.lock)
        k = self.find_between(load_acquire_int(<int*>&nd.child), head, label)
        if k == NONE and nd.nkids < self.widening(node):
            k = self.take(wk, 1)
            if k != NONE:
                self.init_node(k, label, -1)
                self.at(k).sibling = nd.child
                store_release_int(<int*>&nd.child, k)
                store_release_int(<int*>&nd.nkids, nd.nkids + 1)
        spin_unlock(&nd.lock)
        return k

    cdef inline int find_between(self, int k, int stop, int move) noexcept nogil:
        """The child labelled `move` among a list's nodes from k up to (not including)
        `stop`, an older head of the same list (NONE: to the list's end)."""
        while k != stop and k != NONE:
            if self.at(k).move == move:
                return k
            k = self.at(k).sibling
        return NONE

    cdef void iterate(self, Worker* wk, State w, State root_state, Playout po) noexcept nogil:
        cdef int node = self.root, depth = 0, tm, n, i, k, o, label, before
        cdef double out[MAX_PLAYERS]
        cdef Node* nd
        cdef bint from_proof = False, leaf_terminal = False
        cdef int played = 0
        # open loop: a chance node has been passed, so the nodes below were made in other draws
        cdef bint open_loop = self.open_loop and not self.ismcts, drawn = False
        cdef const char* allowed
        cdef int refs[MAX_PLAYERS]
        for i in range(MAX_PLAYERS):
            refs[i] = NONE
        po.begin()
        w.assign(root_state)
        if self.ismcts:
            w.determinize(self.observer, &wk.rng)
        self.enter(wk, 0, node)
        while True:
            nd = self.at(node)
            if self.solving and nd.proven != UNKNOWN:
                from_proof = True
                break
            if w.over():
                leaf_terminal = True
                break
            tm = w.to_move()
            if tm == CHANCE:
                nd.chance = 1
                o = w.sample_chance(&wk.rng)
                if open_loop:
                    label = 0
                    drawn = True
                else:
                    label = w.observe(o, self.observer) if self.ismcts else o
                k = self.chance_child(wk, node, label)
                w.play(o)
                if k == NONE:
                    break                   # outside the tree: roll out from here
                depth += 1
                if self.enter(wk, depth, k) == 0:
                    if self.use_imm:
                        store_float(&self.ex(k).imm, <float>self.leaf_value(w))
                    break                   # a new leaf
                if depth >= MAX_PATH - 2:
                    break
                node = k
                continue
            if self.ismcts:
                n = w.legal_moves(wk.moves)
                k = self.select_information_set(wk, node, tm, n)
            else:
                if load_acquire_i8(&nd.expanded) != EXPANDED and not self.expand(wk, w, node, tm):
                    break               # the budget is spent (or another thread is here)
                # (even a node this pass expanded: another thread may have, in its draw)
                allowed = self.legal_children(wk, w, node) if drawn else NULL
                if self.use_options:
                    # GRAVE's reference for this player: the deepest node on the path with
                    # enough visits before this iteration (the root at first)
                    if self.use_rave and (nd.visits - 1 >= self.grave_ref or refs[tm] == NONE):
                        refs[tm] = node
                    k = self.select_with_options(po, node, tm, refs[tm] if self.use_rave else node,
                                                 allowed)
                else:
                    k = self.select_decision(node, tm, allowed)
            if k == NONE:
                break
            w.play(self.at(k).move)
            depth += 1
            before = self.enter(wk, depth, k)
            node = k
            if before == 0 or depth >= MAX_PATH - 2:
                if w.over():
                    leaf_terminal = True
                break
        if from_proof:
            self.proof_outcome(self.at(node).proven, out, w.n_players)
        else:
            if not w.over():
                played = po.run(w, &wk.rng, self.playout_plies)
                if self.quiet and played > 0 and not w.over():
                    played += w.quiesce(&wk.rng)
                wk.playout_total += played
            if w.over():
                w.outcome(out)
            else:
                for i in range(w.n_players):
                    out[i] = w.evaluate(i)
            if self.discount < 1.0 and played > 0:
                self.shrink(out, w.n_players, pow(self.discount, played))
            if leaf_terminal and self.solving and not drawn:
                self.prove_terminal(node, out)
        for i in range(depth + 1):
            nd = self.at(wk.path[i])
            if nd.mover >= 0:
                add_double(&nd.value, out[nd.mover])
        if self.use_rave:
            po.amaf_begin()
            for i in range(depth - 1, -1, -1):
                nd = self.at(wk.path[i + 1])
                if nd.mover >= 0:
                    po.amaf_mark(nd.mover, nd.move)
                self.back_up_amaf(po, wk.path[i], out)
        if po.policy == POLICY_MAST:
            for i in range(1, depth + 1):
                po.note(self.at(wk.path[i]).mover, self.at(wk.path[i]).move)
            po.learn(out)
        if self.use_imm:
            for i in range(depth - 1, -1, -1):
                self.back_up_imm(wk.path[i])
        if depth >= 1 and self.at(wk.path[1]).slot >= 0:
            k = self.at(wk.path[1]).slot
            wk.root_counts[k] += 1
            for i in range(w.n_players):
                wk.root_sums[k * MAX_PLAYERS + i] += out[i]
        if self.solving and (leaf_terminal or from_proof) and not drawn:
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

    # ------------------------------------------------------------------ evaluation in the tree
    cdef double leaf_value(self, State w) noexcept nogil:
        """Player 0's result, or its evaluation if the game is not over (two players)."""
        cdef double out[MAX_PLAYERS]
        if w.over():
            w.outcome(out)
            return out[0]
        return w.evaluate(0)

    cdef void evaluate_children(self, Playout po, int first, int n, State w, int player) noexcept nogil:
        """Each new child's evaluation for its mover (progressive bias, move order) and, with
        two players, as player 0's implicit minimax value; before the children are
        published, so no other thread reads them half made."""
        cdef double v
        cdef int i
        cdef Extra* x
        for i in range(n):
            x = self.ex(first + i)
            v = po.move_value(w, self.at(first + i).move, player)
            x.heur = <float>v
            x.imm = <float>(v if player == 0 else 1.0 - v)

    cdef void back_up_imm(self, int node) noexcept nogil:
        """Implicit minimax: a decision node takes its best child's value for the player to
        move; a chance node the visit-weighted mean of the outcomes drawn so far (read
        without a lock, as chance_child reads: outcomes are only prepended, each complete
        before it is linked in)."""
        cdef Node* nd = self.at(node)
        cdef int k, i, n, player
        cdef double best = -1.0, v, total = 0.0, weight = 0.0
        cdef float m
        if nd.chance:
            k = load_acquire_int(<int*>&nd.child)
            while k != NONE:
                m = self.ex(k).imm
                v = self.at(k).visits
                if m >= 0 and v > 0:
                    total += m * v
                    weight += v
                k = self.at(k).sibling
            if weight > 0:
                store_float(&self.ex(node).imm, <float>(total / weight))
            return
        if load_acquire_i8(&nd.expanded) != EXPANDED or nd.nkids == 0:
            return
        k = nd.child
        n = nd.nkids
        player = self.at(k).mover
        for i in range(n):
            m = self.ex(k + i).imm
            if m >= 0:
                v = m if player == 0 else 1.0 - m
                if v > best:
                    best = v
        if best >= 0:
            store_float(&self.ex(node).imm, <float>(best if player == 0 else 1.0 - best))

    # ------------------------------------------------------------------ RAVE / GRAVE
    cdef void back_up_amaf(self, Playout po, int node, double* out) noexcept nogil:
        """Every child of `node` whose move its mover played at this ply or later in the
        iteration (as marked) gets the iteration's result as an AMAF sample."""
        cdef Node* nd = self.at(node)
        cdef Node* ch
        cdef int i, k
        if nd.chance or load_acquire_i8(&nd.expanded) != EXPANDED:
            return
        for i in range(nd.nkids):
            k = nd.child + i
            ch = self.at(k)
            if po.amaf_played(ch.mover, ch.move):
                fetch_add_i32(&self.ex(k).amaf_visits, 1)
                add_float(&self.ex(k).amaf_value, <float>out[ch.mover])

    cdef void load_reference(self, Playout po, int ref) noexcept nogil:
        """GRAVE: the AMAF statistics of `ref`'s children, by (player, move), in this
        thread's reference table."""
        cdef Node* nd = self.at(ref)
        cdef Node* ch
        cdef Extra* x
        cdef int i
        po.ref_clear()
        if load_acquire_i8(&nd.expanded) != EXPANDED:
            return
        for i in range(nd.nkids):
            ch = self.at(nd.child + i)
            x = self.ex(nd.child + i)
            if x.amaf_visits > 0:
                po.ref_put(ch.mover, ch.move, x.amaf_value, x.amaf_visits)

    cdef int widening(self, int node) noexcept nogil:
        # the node's visits include this iteration's
        cdef Node* nd = self.at(node)
        cdef double allowed
        if self.ismcts:
            return 1 << 30
        if self.open_loop:
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
            self.at(node).proven = WIN0
        elif out[0] == 0.0 and out[1] == 1.0:
            self.at(node).proven = WIN1
        elif out[0] == 0.5 and out[1] == 0.5:
            self.at(node).proven = DRAW

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
            p = self.at(parent)
            if p.proven != UNKNOWN:
                continue
            if p.chance:
                return      # chance nodes stay unproven: their outcomes are only sampled
            if load_acquire_i8(&p.expanded) != EXPANDED:
                return
            k = p.child
            if k == NONE:
                return
            mover = self.at(k).mover
            win = WIN0 if mover == 0 else WIN1
            lose = WIN1 if mover == 0 else WIN0
            any_draw = False
            all_known = True
            while k != NONE:
                ch = self.at(k)
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
        cdef Node* r = self.at(self.root)
        while True:
            if load_acquire_int(&self.stop):
                return 1
            if self.budget > 0 and fetch_add_i64(&self.claimed, 1) >= self.budget:
                store_release_int(&self.stop, 1)
                return 1
            self.iterate(wk, w, root_state, <Playout>wk.playout)
            wk.iterations += 1
            done += 1
            if (self.solving and r.proven != UNKNOWN) or r.visits >= MAX_VISITS:
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
        self.solving = self.solver and not self.ismcts and root_state.n_players == 2
        self.use_heur = self.extras and (self.bias > 0 or self.imm_weight > 0) and not self.ismcts
        self.use_imm = (self.extras and self.imm_weight > 0 and not self.ismcts
                        and root_state.n_players == 2)
        self.use_rave = self.extras and self.rave > 0 and not self.ismcts
        self.use_options = self.use_heur or self.use_imm or self.use_rave
        for i in range(self.threads):
            po = self.playouts[i]
            po.prepare(root_state, i == 0)
            po.recording = self.use_rave      # AMAF reads the playout's moves
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
            wk.done = 0
            memset(wk.root_counts, 0, sizeof(wk.root_counts))
            memset(wk.root_sums, 0, sizeof(wk.root_sums))
            if i > 0:
                rng_seed(&wk.rng, base + <uint64_t>i * <uint64_t>0x9E3779B97F4A7C15ULL)
        r = self.at(self.root)
        r.mover = -1
        r.chance = 0
        self.nslots = 0
        k = r.child
        while k != NONE:
            self.give_slot(k)
            k = self.at(k).sibling

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
        at most 10 s); ``snapshot`` reads the tree meanwhile."""
        cdef double t0 = now()
        cdef Worker* first = &self.workers[0]
        self.prepare(root_state, iterations, seconds, observer, t0)
        first.rng = self.rng
        try:
            stopped = drive([self], progress, t0)
        finally:
            self.rng = first.rng
            self.search_root = None
        result = self.report(root_state, self.iterations_done(), now() - t0)
        if stopped == INTERRUPTED:      # Ctrl-C: report what there is
            from roost.search.alphabeta import SearchInterrupted
            raise SearchInterrupted(result)
        return result

    def snapshot(self, State root_state, long long iterations=0, double seconds=0.0):
        """What a search from ``root_state`` has found so far (as ``search`` returns it),
        for a progress report while it runs (other threads may still be adding nodes)."""
        return self.report(root_state, iterations, seconds)

    cdef list children(self, int node):
        """The children of a node, safe to read while other threads search: an expanded
        decision node's run is complete once its state says so; a list that grows one
        child at a time is read under its lock."""
        cdef Node* nd = self.at(node)
        cdef list kids = []
        cdef int k
        cdef bint locked = load_acquire_i8(&nd.expanded) != EXPANDED
        if locked:
            spin_lock(&nd.lock)
        k = nd.child
        while k != NONE:
            kids.append(k)
            k = self.at(k).sibling
        if locked:
            spin_unlock(&nd.lock)
        return kids

    cdef list line_from(self, int node):
        """The most visited line from ``node`` (its own move first), while it has visits."""
        cdef list line = []
        cdef int k, j, best
        while node != NONE and self.at(node).visits > 0 and self.at(node).mover >= 0:
            line.append(self.at(node).move)
            best = NONE
            j = 0
            for k in self.children(node):
                if self.at(k).visits > j and self.at(k).mover >= 0:
                    j = self.at(k).visits
                    best = k
            node = best
        return line

    cdef dict report(self, State root_state, long long it, double seconds):
        cdef Node* r = self.at(self.root)
        cdef int best = NONE, me = root_state.to_move(), j, k
        cdef Node* ch
        cdef list stats = []
        cdef int8_t mine = WIN0 if me == 0 else WIN1
        cdef long best_key = -1, key
        cdef long long playouts = 0
        for j in range(self.threads):
            playouts += self.workers[j].playout_total
        for k in self.children(self.root):
            ch = self.at(k)
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
        stats.sort(key=lambda s: -s["visits"])
        return {"move": self.at(best).move if best != NONE else -1,
                "value": (self.at(best).value / self.at(best).visits
                          if best != NONE and self.at(best).visits else 0.5),
                "proven": self.proven_name(self.at(best).proven, me) if best != NONE else "",
                "root_proven": self.proven_name(r.proven, me),
                "iterations": it, "seconds": seconds, "stats": stats, "pv": self.line_from(best),
                "nodes": self.nodes_made(), "playout_plies": playouts, "threads": self.threads,
                "memory": self.memory}

    def chance_widths(self):
        """[(visits, distinct outcomes kept)] of every chance node in the tree (to check
        progressive widening)."""
        cdef list stack = [self.root], widths = []
        cdef int i, k
        while stack:
            i = stack.pop()
            if self.at(i).chance:
                widths.append((self.at(i).visits, self.at(i).nkids))
            k = self.at(i).child
            while k != NONE:
                stack.append(k)
                k = self.at(k).sibling
        return widths

    def tree_nodes(self):
        """Every node from the root down, as dicts (to check the tree's bookkeeping):
        move, mover, visits, value, chance, expanded, heur, imm, the AMAF statistics and the
        children's indices (in the order selection scans them); the options' numbers are
        None without the side store."""
        cdef int i
        cdef Node* nd
        cdef Extra* x
        out = {}
        todo = [self.root]
        while todo:
            i = todo.pop()
            kids = self.children(i)
            todo.extend(kids)
            nd = self.at(i)
            row = {"move": nd.move, "mover": nd.mover, "visits": nd.visits, "value": nd.value,
                   "chance": nd.chance, "expanded": nd.expanded == EXPANDED, "children": kids,
                   "proven": nd.proven,
                   "heur": None, "imm": None, "amaf_value": None, "amaf_visits": None}
            if self.xchunks != NULL:
                x = self.ex(i)
                row.update(heur=x.heur, imm=x.imm, amaf_value=x.amaf_value,
                           amaf_visits=x.amaf_visits)
            out[i] = row
        return out

    def children_allowed_in(self, State state, int node):
        """The moves of an expanded decision node's children that an open-loop pass in
        ``state`` (this node's position in some draw) would consider (to check the filter)."""
        cdef const char* allowed
        cdef int i
        if not (0 <= node < self.reserved) or self.at(node).expanded != EXPANDED:
            raise ValueError(f"node {node} is not an expanded decision node of this tree")
        allowed = self.legal_children(&self.workers[0], state, node)
        return [self.at(self.at(node).child + i).move for i in range(self.at(node).nkids) if allowed[i]]

    cdef list slot_values(self, int slot, int n):
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

    cdef str proven_name(self, int proven, int player):
        if not self.solving or proven == UNKNOWN:
            return ""
        if proven == DRAW:
            return "draw"
        return "win" if (proven == WIN0) == (player == 0) else "loss"


cdef void* helper_main(void* arg) noexcept nogil:
    cdef Worker* wk = <Worker*>arg
    (<MCTS>wk.tree).run(wk, 0.0, 0)
    store_release_int(&wk.done, 1)
    return NULL


cdef int drive(list trees, progress, double t0) except -1:
    """Run the prepared searches of `trees` to their ends: the first thread of the first
    tree on this thread, which looks for Ctrl-C between slices of iterations and reports
    progress, every other thread on a native thread of its own, without the GIL.
    Returns INTERRUPTED after Ctrl-C, else 0."""
    cdef MCTS first = trees[0]
    cdef MCTS t
    cdef Worker* mine = &first.workers[0]
    cdef Worker* wk
    cdef int i, status = 0, finished
    cdef bint mine_done = False, reported = False, others_done
    cdef double report_gap = 0.1, next_report = t0 + 0.1
    cdef long long total
    cdef int nhelpers = 0
    cdef Worker** helpers
    cdef Pool pool
    for t in trees:
        nhelpers += t.threads
    helpers = <Worker**>malloc(nhelpers * sizeof(Worker*))
    if helpers == NULL or pool_open(&pool, nhelpers) != 0:
        free(helpers)
        raise MemoryError("cannot start the search threads")
    nhelpers = 0
    for t in trees:
        for i in range(t.threads):
            wk = &t.workers[i]
            if wk == mine:
                continue
            # a thread that cannot start leaves its share of the iterations to the others
            if pool_start(&pool, helper_main, <void*>wk):
                helpers[nhelpers] = wk
                nhelpers += 1
    try:
        while True:
            if not mine_done:
                with nogil:
                    finished = first.run(mine, now() + SLICE,
                                         1 if (progress is not None and not reported) else 0)
                mine_done = finished != 0
            else:
                with nogil:
                    nap()
            if mine_done:
                others_done = True
                for i in range(nhelpers):
                    if not load_acquire_int(&helpers[i].done):
                        others_done = False
                if others_done:
                    break
            if interrupted():
                status = INTERRUPTED
                break
            if progress is not None and (not reported or now() >= next_report):
                reported = True
                next_report = now() + report_gap
                report_gap = min(2.0 * report_gap, 10.0)
                total = 0
                for t in trees:
                    total += t.iterations_done()
                try:
                    progress(total, now() - t0)
                except KeyboardInterrupt:   # Ctrl-C inside the caller's Python code
                    status = INTERRUPTED
                    break
    finally:
        for t in trees:
            store_release_int(&t.stop, 1)
        with nogil:
            pool_join(&pool)
        pool_close(&pool)
        free(helpers)
    return status


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
        stopped = drive(trees, progress, t0)
    finally:
        for t in trees:
            t.rng = t.workers[0].rng
            t.search_root = None
    reports = [(<MCTS>trees[i]).report(worlds[i], (<MCTS>trees[i]).iterations_done(), now() - t0)
               for i in range(len(trees))]
    if stopped == INTERRUPTED:
        from roost.search.alphabeta import SearchInterrupted
        raise SearchInterrupted(reports)
    return reports


def can_allocate_tree(long long capacity):
    """Whether a tree of `capacity` nodes could be allocated now (see alphabeta.can_allocate):
    the store grows as the search needs it, but its whole budget must fit on the machine."""
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
