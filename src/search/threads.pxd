# Native threads and what they share, for every searcher (alpha-beta's Lazy SMP and MCTS's
# tree parallelism both drive them; nothing here knows about a search): atomic loads,
# stores and adds, a spinlock and a mutex, thread start with a large stack, and a pool that
# starts a search's threads and joins them all.  POSIX threads need no compiler flag and no
# library beyond libc on Linux and macOS, so a plain `pip install` builds them; OpenMP would
# need flags and libgomp.  A worker runs `noexcept nogil` code only: it never touches a
# Python object, and the thread that started it joins it before returning to Python.
from libc.stdint cimport uint64_t, int32_t, int8_t
from libc.stdlib cimport malloc, free

cdef extern from "pthread.h" nogil:
    ctypedef unsigned long pthread_t       # the header's own type is what the C code uses
    ctypedef struct pthread_attr_t:
        pass
    int pthread_attr_init(pthread_attr_t* attr)
    int pthread_attr_setstacksize(pthread_attr_t* attr, size_t size)
    int pthread_attr_destroy(pthread_attr_t* attr)
    int pthread_create(pthread_t* thread, const pthread_attr_t* attr,
                       void* (*start)(void*) noexcept nogil, void* arg)
    int pthread_join(pthread_t thread, void** result)
    ctypedef struct pthread_mutex_t:
        pass
    int pthread_mutex_init(pthread_mutex_t* mutex, void* attr)
    int pthread_mutex_lock(pthread_mutex_t* mutex)
    int pthread_mutex_unlock(pthread_mutex_t* mutex)
    int pthread_mutex_destroy(pthread_mutex_t* mutex)

# Relaxed atomic loads and stores: plain moves on x86-64 and ARM64, but defined behaviour
# when another thread writes the same word (a torn or stale read is then the reader's
# problem, which the transposition table's key check solves).
cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    static inline uint64_t roost_load_u64(const uint64_t* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline void roost_store_u64(uint64_t* p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    static inline int roost_load_int(const int* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline void roost_store_int(int* p, int v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    static inline uint64_t roost_add_u64(uint64_t* p, uint64_t v) { return __atomic_add_fetch(p, v, __ATOMIC_RELAXED); }
    /* a double added to or read from a word other threads add to: compare-and-swap on its
       bits (there is no atomic add of a double) */
    static inline void roost_add_double(double* p, double v) {
        uint64_t* q = (uint64_t*)p;
        uint64_t seen = __atomic_load_n(q, __ATOMIC_RELAXED), next;
        double d;
        do {
            memcpy(&d, &seen, 8);
            d += v;
            memcpy(&next, &d, 8);
        } while (!__atomic_compare_exchange_n(q, &seen, next, 1, __ATOMIC_RELAXED,
                                              __ATOMIC_RELAXED));
    }
    /* the same for a float word (MCTS's per-node AMAF sums are floats) */
    static inline void roost_add_float(float* p, float v) {
        uint32_t* q = (uint32_t*)p;
        uint32_t seen = __atomic_load_n(q, __ATOMIC_RELAXED), next;
        float f;
        do {
            memcpy(&f, &seen, 4);
            f += v;
            memcpy(&next, &f, 4);
        } while (!__atomic_compare_exchange_n(q, &seen, next, 1, __ATOMIC_RELAXED,
                                              __ATOMIC_RELAXED));
    }
    static inline double roost_load_double(double* p) {
        uint64_t bits = __atomic_load_n((uint64_t*)p, __ATOMIC_RELAXED);
        double d;
        memcpy(&d, &bits, 8);
        return d;
    }
    static inline void roost_store_float(float* p, float v) { __atomic_store(p, &v, __ATOMIC_RELAXED); }
    static inline int32_t roost_fetch_add_i32(int32_t* p, int32_t v) {
        return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
    }
    static inline long long roost_fetch_add_i64(long long* p, long long v) {
        return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
    }
    /* An increment that may be lost when another thread increments the same word at the
       same moment: a plain load and store, no locked instruction, for a count where a lost
       increment costs less than a contended locked add (MCTS's availability counts). */
    static inline int32_t roost_bump_i32(int32_t* p) {
        int32_t v = __atomic_load_n(p, __ATOMIC_RELAXED);
        __atomic_store_n(p, v + 1, __ATOMIC_RELAXED);
        return v;
    }
    """
    uint64_t load_u64 "roost_load_u64"(const uint64_t* p) noexcept nogil
    void store_u64 "roost_store_u64"(uint64_t* p, uint64_t v) noexcept nogil
    int load_int "roost_load_int"(const int* p) noexcept nogil
    void store_int "roost_store_int"(int* p, int v) noexcept nogil
    uint64_t add_u64 "roost_add_u64"(uint64_t* p, uint64_t v) noexcept nogil   # the new value
    void add_double "roost_add_double"(double* p, double v) noexcept nogil
    void add_float "roost_add_float"(float* p, float v) noexcept nogil
    double load_double "roost_load_double"(double* p) noexcept nogil
    void store_float "roost_store_float"(float* p, float v) noexcept nogil
    int32_t fetch_add_i32 "roost_fetch_add_i32"(int32_t* p, int32_t v) noexcept nogil    # the old value
    long long fetch_add_i64 "roost_fetch_add_i64"(long long* p, long long v) noexcept nogil
    int32_t bump_i32 "roost_bump_i32"(int32_t* p) noexcept nogil   # the old value

# Publishing: a store with release order makes everything its thread wrote before visible to
# a thread that reads the stored value with acquire order (a node's children before the
# node says they exist), and a compare-and-swap lets one thread of many claim a word.
cdef extern from *:
    """
    #include <stdint.h>
    static inline int8_t roost_load_acquire_i8(int8_t* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
    static inline void roost_store_release_i8(int8_t* p, int8_t v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
    static inline int roost_cas_i8(int8_t* p, int8_t expected, int8_t wanted) {
        return __atomic_compare_exchange_n(p, &expected, wanted, 0, __ATOMIC_ACQ_REL,
                                           __ATOMIC_ACQUIRE);
    }
    static inline int roost_load_acquire_int(int* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
    static inline void roost_store_release_int(int* p, int v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
    """
    int8_t load_acquire_i8 "roost_load_acquire_i8"(int8_t* p) noexcept nogil
    void store_release_i8 "roost_store_release_i8"(int8_t* p, int8_t v) noexcept nogil
    bint cas_i8 "roost_cas_i8"(int8_t* p, int8_t expected, int8_t wanted) noexcept nogil
    int load_acquire_int "roost_load_acquire_int"(int* p) noexcept nogil
    void store_release_int "roost_store_release_int"(int* p, int v) noexcept nogil

# A test-and-set lock for a few hundred cycles of work at most (one byte, so it fits in a
# tree node); a waiter yields the core, as the machine may have fewer cores than threads.
# A short sleep for a thread that waits on others.
cdef extern from *:
    """
    #include <sched.h>
    #include <time.h>
    static inline void roost_spin_lock(int8_t* p) {
        int spins = 0;
        while (__atomic_exchange_n(p, 1, __ATOMIC_ACQUIRE)) {
            while (__atomic_load_n(p, __ATOMIC_RELAXED)) {
                if (++spins > 64) { sched_yield(); spins = 0; }
            }
        }
    }
    static inline void roost_spin_unlock(int8_t* p) { __atomic_store_n(p, 0, __ATOMIC_RELEASE); }
    static inline void roost_nap(void) {
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    }
    """
    void spin_lock "roost_spin_lock"(int8_t* p) noexcept nogil
    void spin_unlock "roost_spin_unlock"(int8_t* p) noexcept nogil
    void nap "roost_nap"() noexcept nogil      # 2 ms

ctypedef void* (*thread_main)(void*) noexcept nogil

cdef enum:
    # macOS gives new threads 512 KB: a deep search recurses, and playouts of some games
    # through deep native frames
    THREAD_STACK = 16 * 1024 * 1024


cdef inline int start_thread(pthread_t* thread, thread_main main, void* arg) noexcept nogil:
    """Start main(arg) on a new native thread; 0, or the error number if none could be had
    (the caller then runs with the threads it has)."""
    cdef pthread_attr_t attr
    cdef int err = pthread_attr_init(&attr)
    if err != 0:
        return err
    pthread_attr_setstacksize(&attr, THREAD_STACK)
    err = pthread_create(thread, &attr, main, arg)
    pthread_attr_destroy(&attr)
    return err


cdef inline void join_thread(pthread_t thread) noexcept nogil:
    pthread_join(thread, NULL)


ctypedef struct Pool:
    # the threads one search started, to be joined before it returns
    pthread_t* thread
    int capacity
    int started


cdef inline int pool_open(Pool* pool, int capacity) noexcept nogil:
    """An empty pool with room for `capacity` threads; -1 if there is no memory for it."""
    pool.started = 0
    pool.capacity = capacity
    pool.thread = <pthread_t*>malloc((capacity if capacity > 0 else 1) * sizeof(pthread_t))
    return -1 if pool.thread == NULL else 0


cdef inline bint pool_start(Pool* pool, thread_main main, void* arg) noexcept nogil:
    """Start main(arg) on a new thread of the pool; False if the pool is full or the system
    gives no thread (the caller then runs with the threads it has)."""
    if pool.started >= pool.capacity or start_thread(&pool.thread[pool.started], main, arg) != 0:
        return False
    pool.started += 1
    return True


cdef inline void pool_join(Pool* pool) noexcept nogil:
    """Wait for every thread of the pool to return (the caller has told them to stop)."""
    cdef int i
    for i in range(pool.started):
        join_thread(pool.thread[i])
    pool.started = 0


cdef inline void pool_close(Pool* pool) noexcept nogil:
    """Free the pool (its threads joined)."""
    free(pool.thread)
    pool.thread = NULL
    pool.capacity = 0


# A search's threads as a pool drives them: each runs its share of one or more searches
# until they end; the calling thread runs the first, in slices, and looks for Ctrl-C and
# reports progress between them (see drive in threads.pyx).
ctypedef int (*slice_fn)(void* arg, double slice_end, long long slice_iterations) noexcept nogil

ctypedef struct Runner:
    slice_fn run          # works until its search ends (1) or the slice does (0): a time
                          # (0.0: none) or a count of iterations (0: none)
    void* arg
    int* stop             # its search's stop flag: raised for every search when drive ends
    long long* count      # the work it has done (iterations), summed for progress reports
    int done              # a pool thread's runner has returned

cdef enum:
    DRIVE_INTERRUPTED = 2     # drive's status after Ctrl-C

cdef int drive(Runner** runners, int n, progress, double t0) except -1
