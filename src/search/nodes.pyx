"""MCTS's node store: its chunks, how it grows, how a kept subtree is compacted into a fresh
store for tree reuse, and how much memory it holds (the layout and the hot operations are
inline in nodes.pxd)."""
from libc.stdlib cimport malloc, calloc, free
from roost.search.threads cimport (pthread_mutex_init, pthread_mutex_lock, pthread_mutex_unlock,
                                   pthread_mutex_destroy, load_acquire_i8, spin_lock, spin_unlock)


cdef class NodeStore:
    """Room for `capacity` nodes (and their side records when `extras`), allocated a chunk
    at a time as the tree grows."""

    def __cinit__(self, int capacity, bint extras):
        pthread_mutex_init(&self.grow_lock, NULL)
        self.capacity = capacity
        self.nchunks = (capacity + CHUNK - 1) >> CHUNK_BITS
        self.chunks = <Node**>calloc(self.nchunks, sizeof(Node*))
        if extras:
            self.xchunks = <Extra**>calloc(self.nchunks, sizeof(Extra*))
        if self.chunks == NULL or (extras and self.xchunks == NULL):
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
        pthread_mutex_destroy(&self.grow_lock)

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

    cdef void reset(self):
        """Drop every node (and the memory the store grew, but its first chunk); the
        threads' blocks are the caller's to empty."""
        cdef int i
        for i in range(1, self.nchunks):
            free(self.chunks[i])
            self.chunks[i] = NULL
            if self.xchunks != NULL:
                free(self.xchunks[i])
                self.xchunks[i] = NULL
        self.reserved = 0
        self.full = False

    cdef int compact(self, int keep, long long count, Block* into) except? -2:
        """Copy the subtree under `keep` into a new store (breadth first, a contiguous run of
        children staying contiguous) and free the old one; returns the new index of `keep`,
        or NONE when there is no memory for the copy (the store is then as it was).  `count`
        is the number of nodes made; the copy takes its nodes from `into`, an empty block
        (every thread's block must be emptied).  Children that no longer fit leave their
        parent unexpanded."""
        cdef Node** old = self.chunks
        cdef Extra** old_x = self.xchunks
        cdef int* queue = <int*>malloc(2 * (<size_t>count + 1) * sizeof(int))
        cdef int head = 0, tail = 1, o, n, kept
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
        self.reserved = 0
        self.full = False
        n = kept = self.take(into, 1)
        self.at(n)[0] = (old[keep >> CHUNK_BITS] + (keep & CHUNK_MASK))[0]
        if old_x != NULL:
            self.ex(n)[0] = (old_x[keep >> CHUNK_BITS] + (keep & CHUNK_MASK))[0]
        queue[0] = keep
        queue[1] = n
        while head < tail:
            o = queue[2 * head]
            n = queue[2 * head + 1]
            head += 1
            tail = self.copy_children(old, old_x, o, n, into, queue, tail)
        free(queue)
        for o in range(self.nchunks):
            free(old[o])
            if old_x != NULL:
                free(old_x[o])
        free(old)
        free(old_x)
        return kept

    cdef int copy_children(self, Node** old, Extra** old_x, int o, int n, Block* into,
                           int* queue, int tail) noexcept nogil:
        """Copy the children of old node o under new node n, queueing each (old, new) pair
        at queue[tail...]; the new tail."""
        cdef Node* src = old[o >> CHUNK_BITS] + (o & CHUNK_MASK)
        cdef Node* dst
        cdef int count = src.nkids if src.expanded == EXPANDED else 0
        cdef int first = self.take(into, count) if count > 0 else NONE
        cdef int k, prev = NONE, i = 0
        if src.expanded == EXPANDED and first == NONE:
            dst = self.at(n)
            dst.child = NONE
            dst.nkids = 0
            dst.expanded = 0
            return tail
        k = src.child
        while k != NONE:
            if first != NONE:
                o = first + i
            else:
                o = self.take(into, 1)
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
        return tail

    cdef long long memory(self):
        """Bytes of node store allocated (what the tree has grown to)."""
        cdef long long total = 0
        cdef int i
        for i in range(self.nchunks):
            if self.chunks[i] != NULL:
                total += self.chunk_size(i) * sizeof(Node)
            if self.xchunks != NULL and self.xchunks[i] != NULL:
                total += self.chunk_size(i) * sizeof(Extra)
        return total

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


def can_allocate_tree(long long capacity):
    """Whether a tree of `capacity` nodes could be allocated now (see alphabeta.can_allocate):
    the store grows as the search needs it, but its whole budget must fit on the machine."""
    cdef void* p
    if not 1 <= capacity <= MAX_STORE_NODES:
        return False
    p = malloc(<size_t>capacity * sizeof(Node))
    if p == NULL:
        return False
    free(p)
    return True
