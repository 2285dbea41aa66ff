"""The pool that drives a search's threads (the atomics, locks and thread start are inline
in threads.pxd)."""
from libc.stdlib cimport malloc, free
from roost.search.clock cimport now, interrupted

cdef extern from *:
    """
    #define ROOST_SLICE 0.02
    """
    const double SLICE "ROOST_SLICE"   # seconds between two looks for Ctrl-C on the calling thread


cdef void* runner_main(void* arg) noexcept nogil:
    cdef Runner* r = <Runner*>arg
    r.run(r.arg, 0.0, 0)
    store_release_int(&r.done, 1)
    return NULL


cdef int drive(Runner** runners, int n, progress, double t0) except -1:
    """Run `runners` (of one or more prepared searches) to their ends: the first on this
    thread, which looks for Ctrl-C between slices of its work and reports progress, every
    other on a thread of a pool, without the GIL.  `progress`, if given, is called as
    progress(count, seconds) after the first iteration and then at growing intervals (0.1 s,
    then twice as long each time, at most 10 s).  Returns DRIVE_INTERRUPTED after Ctrl-C,
    else 0; every search is stopped and every thread joined when it returns."""
    cdef Runner* mine = runners[0]
    cdef Runner** helpers = <Runner**>malloc(n * sizeof(Runner*))
    cdef Pool pool
    cdef int i, status = 0, finished, nhelpers = 0
    cdef bint mine_done = False, reported = False, others_done
    cdef double report_gap = 0.1, next_report = t0 + 0.1
    cdef long long total
    if helpers == NULL or pool_open(&pool, n) != 0:
        free(helpers)
        raise MemoryError("cannot start the search threads")
    for i in range(1, n):
        runners[i].done = 0
        # a thread that cannot start leaves its share of the iterations to the others
        if pool_start(&pool, runner_main, <void*>runners[i]):
            helpers[nhelpers] = runners[i]
            nhelpers += 1
    try:
        while True:
            if not mine_done:
                with nogil:
                    finished = mine.run(mine.arg, now() + SLICE,
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
                status = DRIVE_INTERRUPTED
                break
            if progress is not None and (not reported or now() >= next_report):
                reported = True
                next_report = now() + report_gap
                report_gap = min(2.0 * report_gap, 10.0)
                total = 0
                for i in range(n):
                    total += runners[i].count[0]
                try:
                    progress(total, now() - t0)
                except KeyboardInterrupt:   # Ctrl-C inside the caller's Python code
                    status = DRIVE_INTERRUPTED
                    break
    finally:
        for i in range(n):
            store_release_int(runners[i].stop, 1)
        with nogil:
            pool_join(&pool)
        pool_close(&pool)
        free(helpers)
    return status
