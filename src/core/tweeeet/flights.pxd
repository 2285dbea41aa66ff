# Where a bird may fly (docs/rules/tweeeet.md §5, §6): breadth-first dilations of
# the bird's cell through the passable cells, one neighbour step per energy point.
from libc.stdint cimport uint64_t

from roost.core.tweeeet.state cimport TwCore
from roost.core.tweeeet.board cimport (nbr3, cell_word, cell_bit, ISNEST, START_CELL,
                                       T_GRASS, T_WATER, T_EMPTY, T_FOOD, T_START, T_NEST)


cdef inline int terrain(TwCore* c, int cell) noexcept nogil:
    """The terrain type of an existing cell."""
    cdef int w = cell_word(cell), v
    cdef uint64_t b = cell_bit(cell)
    if c.water[w] & b:
        return T_WATER
    if c.empty[w] & b:
        return T_EMPTY
    for v in range(4):
        if c.food[v][w] & b:
            return T_FOOD + v
    if c.nest[w] & b:
        return T_NEST
    if cell == START_CELL:
        return T_START
    return T_GRASS


cdef inline void targets_of(TwCore* c, int b, uint64_t* t) noexcept nogil:
    """Where bird b may land: a bush with food, or a nest it may use."""
    cdef int k, partner = b ^ 2, o
    cdef uint64_t nests[3]
    for k in range(3):
        nests[k] = c.nest[k]
    if c.nest[2]:
        if ISNEST[c.pos[partner]]:
            nests[0] = 0
            nests[1] = 0
            nests[2] = cell_bit(c.pos[partner])   # nests live in word 2 (row 19)
        else:
            o = b ^ 1
            if ISNEST[c.pos[o]]:
                nests[2] &= ~cell_bit(c.pos[o])
            o = b ^ 3
            if ISNEST[c.pos[o]]:
                nests[2] &= ~cell_bit(c.pos[o])
    for k in range(3):
        t[k] = c.food[0][k] | c.food[1][k] | c.food[2][k] | c.food[3][k] | nests[k]


cdef inline void passable(TwCore* c, int b, bint with_birds, uint64_t* f) noexcept nogil:
    """Cells a flight may pass through: grass, empty bushes, the start; with_birds: and
    holding no bird other than b.  Without: the pass test's cells, the other birds lifted
    (a nest stays impassable whoever sits in it)."""
    cdef int k, o
    for k in range(3):
        f[k] = c.exist[k] & ~(c.water[k] | c.nest[k] | c.food[0][k] | c.food[1][k]
                              | c.food[2][k] | c.food[3][k])
    if with_birds:
        for o in range(4):
            if o != b:
                f[cell_word(c.pos[o])] &= ~cell_bit(c.pos[o])


cdef inline bint reach(TwCore* c, int b, bint with_birds, uint64_t* found) noexcept nogil:
    """found = the targets bird b reaches within its energy; returns whether any."""
    cdef uint64_t f[3]
    cdef uint64_t t[3]
    cdef uint64_t r[3]
    cdef uint64_t n[3]
    cdef uint64_t g0, g1, g2
    cdef int k, e = c.energy[b]
    passable(c, b, with_birds, f)
    targets_of(c, b, t)
    found[0] = 0
    found[1] = 0
    found[2] = 0
    r[0] = 0
    r[1] = 0
    r[2] = 0
    r[cell_word(c.pos[b])] = cell_bit(c.pos[b])
    for k in range(e):
        nbr3(r, n)
        found[0] |= n[0] & t[0]
        found[1] |= n[1] & t[1]
        found[2] |= n[2] & t[2]
        g0 = r[0] | (n[0] & f[0])
        g1 = r[1] | (n[1] & f[1])
        g2 = r[2] | (n[2] & f[2])
        if g0 == r[0] and g1 == r[1] and g2 == r[2]:
            break
        r[0] = g0
        r[1] = g1
        r[2] = g2
    return (found[0] | found[1] | found[2]) != 0


cdef inline int distance_to(TwCore* c, int b, int target) noexcept nogil:
    """Steps of bird b's shortest flight to target (which it can reach)."""
    cdef uint64_t f[3]
    cdef uint64_t r[3]
    cdef uint64_t n[3]
    cdef int k, w = cell_word(target)
    cdef uint64_t tb = cell_bit(target)
    passable(c, b, True, f)
    r[0] = 0
    r[1] = 0
    r[2] = 0
    r[cell_word(c.pos[b])] = cell_bit(c.pos[b])
    for k in range(c.energy[b]):
        nbr3(r, n)
        if n[w] & tb:
            return k + 1
        r[0] |= n[0] & f[0]
        r[1] |= n[1] & f[1]
        r[2] |= n[2] & f[2]
    return c.energy[b] + 1   # unreachable: not called for illegal targets


cdef inline double best_gain(TwCore* c, int b, bint* ok) noexcept nogil:
    """The best energy change (food - steps) of a flight of bird b, ignoring the other
    birds; ok = whether it reaches any target at all (for the evaluation)."""
    cdef uint64_t f[3]
    cdef uint64_t t[3]
    cdef uint64_t r[3]
    cdef uint64_t n[3]
    cdef uint64_t seen[3]
    cdef int k, v, i
    cdef double best = -1000.0
    passable(c, b, False, f)
    targets_of(c, b, t)
    for i in range(3):
        r[i] = 0
        seen[i] = 0
    r[cell_word(c.pos[b])] = cell_bit(c.pos[b])
    ok[0] = False
    for k in range(c.energy[b]):
        nbr3(r, n)
        for i in range(3):
            n[i] &= ~seen[i]
        if (n[0] & t[0]) | (n[1] & t[1]) | (n[2] & t[2]):
            ok[0] = True
            for v in range(3, -1, -1):
                if (n[0] & c.food[v][0]) | (n[1] & c.food[v][1]) | (n[2] & c.food[v][2]):
                    if v + 2 - (k + 1) > best:
                        best = v + 2 - (k + 1)
                    break
            if (n[2] & t[2] & c.nest[2]) and -(k + 1) > best:
                best = -(k + 1)
        for i in range(3):
            seen[i] |= n[i] | r[i]
            n[i] &= f[i]
        if not (n[0] | n[1] | n[2]):
            break
        for i in range(3):
            r[i] |= n[i]
    return best
