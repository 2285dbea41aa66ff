# Sorting small int arrays in place, for the games and the searchers alike (nogil, inline:
# nothing to build).


cdef inline void sort_ascending(int* a, int n) noexcept nogil:
    """Ascending, in place: an insertion sort, for the short and nearly sorted arrays it
    gets (move lists in generation order, a few cards or food types)."""
    cdef int i, j, m
    for i in range(1, n):
        m = a[i]
        j = i - 1
        while j >= 0 and a[j] > m:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = m
