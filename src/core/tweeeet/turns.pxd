# The turn (docs/rules/tweeeet.md §3, §5, §6, §8): a flight or a pass, the rows it brings,
# the next bird, and whether it flies, passes or dies.
from libc.stdint cimport uint64_t

from roost.core.tweeeet.state cimport TwCore
from roost.core.tweeeet.board cimport (cell_word, cell_bit, energy_key, ISNEST, Z, ZBIRD, ZCUR,
                                       NEST_ROW, SIGHT, T_FOOD, T_EMPTY)
from roost.core.tweeeet.flights cimport reach, distance_to
from roost.core.tweeeet.landscape cimport lay_nest_row, remove_rows_below


cdef inline int next_bird(TwCore* c, int b) noexcept nogil:
    """The next bird after b in the cycle that is not in a nest, or -1."""
    cdef int i, o
    for i in range(1, 5):
        o = (b + i) & 3
        if not ISNEST[c.pos[o]]:
            return o
    return -1


cdef inline void finish_nested(TwCore* c) noexcept nogil:
    cdef int r = c.energy[0] + c.energy[2], bl = c.energy[1] + c.energy[3]
    c.result = 0 if r > bl else 1 if bl > r else 2


cdef inline void resolve(TwCore* c) noexcept nogil:
    """The bird to move is known and no rows are pending: find its flights, or decide
    that it passes or dies."""
    cdef uint64_t hyp[3]
    cdef int o, b = c.cur
    c.can_pass = 0
    if reach(c, b, True, c.tgt):
        return
    if not reach(c, b, False, hyp):
        c.result = 1 - (b & 1)          # it dies: its player loses
        return
    c.can_pass = 1
    # Does some other bird still fly (or die)?  If every bird not in a nest could only
    # pass, the position would repeat forever: the game ends drawn.
    o = next_bird(c, b)
    while o != b:
        if reach(c, o, True, hyp) or not reach(c, o, False, hyp):
            return
        o = next_bird(c, o)
    c.result = 2


cdef inline void after_rows(TwCore* c) noexcept nogil:
    """Lay the nest row if it is due, and resolve the bird to move once no row is pending."""
    if c.high < c.lay_to and c.high + 1 == NEST_ROW:
        lay_nest_row(c)
    if c.high >= c.lay_to:
        resolve(c)


cdef inline void fly(TwCore* c, int target) noexcept nogil:
    cdef int b = c.cur, d, v, w, y, lowest, o
    cdef uint64_t tb
    d = distance_to(c, b, target)
    c.hkey ^= ZBIRD[b][c.pos[b]] ^ ZBIRD[b][target] ^ energy_key(b, c.energy[b])
    c.energy[b] -= d
    w = cell_word(target)
    tb = cell_bit(target)
    for v in range(4):
        if c.food[v][w] & tb:
            c.food[v][w] &= ~tb
            c.empty[w] |= tb
            c.energy[b] += v + 2
            c.hkey ^= Z[target][T_FOOD + v] ^ Z[target][T_EMPTY]
            break
    c.hkey ^= energy_key(b, c.energy[b])
    c.pos[b] = target
    o = next_bird(c, b)
    c.hkey ^= ZCUR[c.cur]
    if o < 0:
        c.cur = (b + 1) & 3
        c.hkey ^= ZCUR[c.cur]
        finish_nested(c)
        return
    c.cur = o
    c.hkey ^= ZCUR[c.cur]
    # remove the rows more than SIGHT below the lowest bird not in a nest
    lowest = NEST_ROW
    for o in range(4):
        if not ISNEST[c.pos[o]]:
            y = c.pos[o] // 9
            if y < lowest:
                lowest = y
    if lowest - SIGHT > c.low:
        remove_rows_below(c, lowest - SIGHT)
    y = target // 9 + SIGHT
    c.lay_to = y if y < NEST_ROW else NEST_ROW
    after_rows(c)


cdef inline void do_pass(TwCore* c) noexcept nogil:
    c.hkey ^= ZCUR[c.cur]
    c.cur = next_bird(c, c.cur)
    c.hkey ^= ZCUR[c.cur]
    resolve(c)
