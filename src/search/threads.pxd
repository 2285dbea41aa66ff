# Native threads and the atomics they share, for any searcher (alpha-beta's Lazy SMP uses
# them; nothing here knows about a search).  POSIX threads need no compiler flag and no
# library beyond libc on Linux and macOS, so a plain `pip install` builds them; OpenMP would
# need flags and libgomp.  A worker runs `noexcept nogil` code only: it never touches a
# Python object, and the thread that started it joins it before returning to Python.
from libc.stdint cimport uint64_t

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
    """
    uint64_t load_u64 "roost_load_u64"(const uint64_t* p) noexcept nogil
    void store_u64 "roost_store_u64"(uint64_t* p, uint64_t v) noexcept nogil
    int load_int "roost_load_int"(const int* p) noexcept nogil
    void store_int "roost_store_int"(int* p, int v) noexcept nogil
    uint64_t add_u64 "roost_add_u64"(uint64_t* p, uint64_t v) noexcept nogil   # the new value
    void add_double "roost_add_double"(double* p, double v) noexcept nogil
    void add_float "roost_add_float"(float* p, float v) noexcept nogil
    double load_double "roost_load_double"(double* p) noexcept nogil

ctypedef void* (*thread_main)(void*) noexcept nogil

cdef enum:
    THREAD_STACK = 16 * 1024 * 1024   # macOS gives new threads 512 KB; a deep search recurses


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
