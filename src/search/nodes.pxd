# MCTS's node store: the tree's nodes by index, in chunks allocated as the search first
# needs them, so a node never moves once made (other threads hold its index) and memory
# follows the tree up to the store's capacity.  A thread takes nodes from a block of its own
# (a lock only once per BLOCK nodes); a search's node store knows nothing of selection or
# backups (mcts.pyx), only how nodes are laid out, made, found, kept and dropped.
#
# A decision node of a perfect-information search is expanded all at once, its children
# in one contiguous run of nodes (selection reads them as an array); chance nodes and
# information sets grow one child at a time, as a linked list (first child, next sibling;
# the contiguous children are linked too, so every walk of the tree reads both alike).
cimport cython
from libc.stdint cimport int32_t, int16_t, int8_t
from roost.search.threads cimport pthread_mutex_t

cdef enum:
    NONE = -1                     # no node
    MAX_STORE_NODES = 1000000000  # the largest capacity: node indices are int32
    CHUNK_BITS = 16               # a chunk of the store: 65,536 nodes (2.5 MB)
    CHUNK = 1 << CHUNK_BITS
    CHUNK_MASK = CHUNK - 1
    BLOCK = 4096                  # nodes a thread takes from the store at a time
    EXPANDING = 1                 # Node.expanded: one thread is creating the children
    EXPANDED = 2                  # all children exist (published with release order)
    UNKNOWN = 0                   # Node.proven (two-player solver, absolute values)
    WIN0 = 1                      # proven: player 0 wins
    WIN1 = 2
    DRAW = 3


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

ctypedef struct Extra:
    # a node's numbers for the options in the tree (implicit minimax, progressive bias,
    # RAVE): a side store, chunk for chunk, made only when an option needs it, so a plain
    # search keeps its small nodes
    float heur          # the evaluation, for `mover`, just after the edge (-1: not computed)
    float imm           # implicit minimax: the evaluation backed up as max/min, for player 0
    float amaf_value    # RAVE: the mover's results of the iterations that played this move
    int32_t amaf_visits     # from the parent's position on, at any ply (all moves as first)

ctypedef struct Block:
    # the part of the store a thread takes its nodes from: [next, end)
    int32_t next
    int32_t end
    long long made    # nodes this thread made (a shared counter would be written by every
                      # thread on every expansion: one cache line bouncing)


@cython.final
cdef class NodeStore:
    cdef Node** chunks
    cdef Extra** xchunks          # the options' side store, chunk for chunk (NULL: none)
    cdef int nchunks
    cdef readonly int capacity
    cdef int reserved             # indices handed out to threads' blocks
    cdef bint full                # the store could not give a block: the tree stops growing
    cdef pthread_mutex_t grow_lock

    cdef int reserve(self, int want) noexcept nogil
    cdef void reset(self)
    cdef int compact(self, int keep, long long count, Block* into) except? -2
    cdef int copy_children(self, Node** old, Extra** old_x, int o, int n, Block* into,
                           int* queue, int tail) noexcept nogil
    cdef long long memory(self)
    cdef list children(self, int node)

    cdef inline Node* at(self, int i) noexcept nogil:
        return self.chunks[i >> CHUNK_BITS] + (i & CHUNK_MASK)

    cdef inline Extra* ex(self, int i) noexcept nogil:
        return self.xchunks[i >> CHUNK_BITS] + (i & CHUNK_MASK)

    cdef inline int chunk_size(self, int c) noexcept nogil:
        cdef int left = self.capacity - c * CHUNK
        return CHUNK if left > CHUNK else left

    cdef inline int take(self, Block* b, int n) noexcept nogil:
        """`n` contiguous new nodes from a thread's block (a new block when it runs out),
        or NONE once the store is full."""
        cdef int start
        if b.end - b.next < n:
            if self.full:
                return NONE
            start = self.reserve(BLOCK if n <= BLOCK else n)
            if start != NONE:
                b.end = start + (BLOCK if n <= BLOCK else n)
            else:
                start = self.reserve(n)       # the last few nodes of the store
                if start == NONE:
                    self.full = True
                    return NONE
                b.end = start + n
            b.next = start
        start = b.next
        b.next += n
        b.made += n
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

    cdef inline int find_between(self, int k, int stop, int move) noexcept nogil:
        """The child labelled `move` among a list's nodes from k up to (not including)
        `stop`, an older head of the same list (NONE: to the list's end)."""
        while k != stop and k != NONE:
            if self.at(k).move == move:
                return k
            k = self.at(k).sibling
        return NONE
