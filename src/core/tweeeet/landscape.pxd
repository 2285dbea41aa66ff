# The landscape (docs/rules/tweeeet.md §7): rows laid at random, the
# nest row, rows removed behind the last bird.
from libc.stdint cimport uint64_t

from roost.core.rng cimport Rng, rng_below
from roost.core.tweeeet.state cimport TwCore
from roost.core.tweeeet.board cimport (has_barrier, cell_bit, ROWW, ROWSH, ROWM, PAIR_WATER,
                                       ARR_WATER, ARR_BUSH, ARR_BCOL, NESTROW_NEST, Z, NCOLS,
                                       NEST_ROW, NOUT, T_GRASS, T_WATER, T_FOOD, T_NEST)
from roost.core.tweeeet.flights cimport terrain


cdef inline bint pair_makes_barrier(TwCore* c, int pair) noexcept nogil:
    """Whether the water pair (0..35) in row high + 1 would complete a barrier a..i."""
    cdef uint64_t w[3]
    cdef int y = c.high + 1
    w[0] = c.water[0]
    w[1] = c.water[1]
    w[2] = c.water[2]
    w[ROWW[y]] |= (<uint64_t>PAIR_WATER[pair]) << ROWSH[y]
    return has_barrier(w)


cdef inline void lay_landscape(TwCore* c, int code) noexcept nogil:
    """Lay row high + 1 from an outcome code (arrangement * 64 + foods)."""
    cdef int y = c.high + 1, a = code >> 6, foods = code & 63
    cdef int w = ROWW[y], sh = ROWSH[y], x, i, v
    cdef int base = 9 * y
    cdef uint64_t h = 0
    c.exist[w] |= ROWM[y]
    c.water[w] |= (<uint64_t>ARR_WATER[a]) << sh
    for i in range(3):
        x = ARR_BCOL[a][i]
        v = (foods >> (2 * (2 - i))) & 3
        c.food[v][w] |= <uint64_t>1 << (sh + x)
        h ^= Z[base + x][T_FOOD + v]
    for x in range(NCOLS):
        if ARR_WATER[a] & (1 << x):
            h ^= Z[base + x][T_WATER]
        elif not (ARR_BUSH[a] & (1 << x)):
            h ^= Z[base + x][T_GRASS]
    c.hkey ^= h
    c.high = y


cdef inline void lay_nest_row(TwCore* c) noexcept nogil:
    cdef int y = NEST_ROW, x
    c.exist[ROWW[y]] |= ROWM[y]
    c.nest[ROWW[y]] |= NESTROW_NEST
    for x in range(NCOLS):
        c.hkey ^= Z[9 * y + x][T_NEST if x % 2 == 0 else T_GRASS]
    c.high = y


cdef inline void remove_rows_below(TwCore* c, int new_low) noexcept nogil:
    cdef int y, x, k, cell
    cdef uint64_t m
    for y in range(c.low, new_low):
        for x in range(NCOLS):
            cell = 9 * y + x
            if c.exist[ROWW[y]] & cell_bit(cell):
                c.hkey ^= Z[cell][terrain(c, cell)]
        m = ~ROWM[y]
        k = ROWW[y]
        c.exist[k] &= m
        c.water[k] &= m
        c.empty[k] &= m
        c.food[0][k] &= m
        c.food[1][k] &= m
        c.food[2][k] &= m
        c.food[3][k] &= m
        c.nest[k] &= m
    c.low = new_low


cdef inline int sample_row(TwCore* c, Rng* rng) noexcept nogil:
    """A landscape outcome code for row high + 1, uniform over those making no barrier."""
    cdef int code
    while True:
        code = rng_below(rng, NOUT)
        if not pair_makes_barrier(c, (code >> 6) // 35):
            return code
