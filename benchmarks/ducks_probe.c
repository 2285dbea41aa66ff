/* A plain-C reference for Feed the Ducks random playouts: the yardstick that roost's native
 * playout is measured against (benchmarks/playouts.py --probe builds and runs it).
 *
 * It plays the same random games as Ducks.playout: the same generator (xoshiro256** seeded by
 * splitmix64, one seed for the whole batch), the same draw per ply (a setup placement picked
 * from the legal-move list in generation order; a crumb cell as the k-th set bit of the target
 * mask), the same swim and gathered test (skipped for a colour that did not move, as roost
 * does), the 300-placement cap.  Everything is in local variables of one function: no
 * objects, no calls that are not inlined.  Its time is the CPU time of the playouts alone.
 *
 * Two modes:
 *   bare   no position key and no repetition rule (the cap is kept): the speed limit of the
 *          game's mechanics.  A game that roost ends by threefold repetition goes on here, so
 *          the plies differ slightly from roost's.
 *   exact  also the Zobrist key and the repetition draw, done the plain way (the key updated
 *          from the moved ducks each ply, every earlier key scanned): the same games as
 *          roost, to check that both play the same games (equal plies and results).
 *
 * usage: ducks_probe MODE N SEED WHITE BLACK CRUMB SIDE PLIES [W B C ...]
 *   WHITE, BLACK the duck masks (decimal or 0x hex), CRUMB a cell or -1, SIDE 0/1, PLIES made;
 *   then the positions the repetition rule counts, oldest first, as triples of two duck masks
 *   and the crumb cell (the last one is the position itself; each was made by a crumb
 *   placement, so their players to move alternate).  Without them a position with a crumb
 *   down counts once, as a game taken up from it.  bare reads and ignores them.
 * prints: mode playouts plies white_wins black_wins draws seconds playouts_per_s
 *
 * build: cc -O3 -march=native -o ducks_probe ducks_probe.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NCELLS 61
#define SETUP_PLACEMENTS 24
#define DUCKS_PER_COLOUR 12
#define PLY_CAP 300
#define MAX_HIST 304

static uint64_t RAY[NCELLS][6], RAY_NEAR[NCELLS][6][10], LINES[NCELLS], STEP[10];
static uint64_t EDGE, BOARD, Z_WHITE[NCELLS], Z_BLACK[NCELLS], Z_CRUMB[NCELLS], Z_SIDE;
static int ROW_LEN[9], ROW_START[9];

static int cell_at(int q, int r) {
    int y = r + 4;
    if (y < 0 || y >= 9 || q < -4 || q > 4 || q + r < -4 || q + r > 4) return -1;
    return ROW_START[y] + q - (r >= 0 ? -4 : -4 - r);
}

static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void init_tables(void) {
    static const int DQ[6] = {1, -1, 0, 0, 1, -1}, DR[6] = {0, 0, 1, -1, -1, 1};
    int cq[NCELLS], cr[NCELLS], idx = 0;
    for (int y = 0; y < 9; y++) {
        ROW_LEN[y] = 9 - (y >= 4 ? y - 4 : 4 - y);
        ROW_START[y] = idx;
        for (int col = 0; col < ROW_LEN[y]; col++, idx++) {
            cq[idx] = (y - 4 >= 0 ? -4 : -y) + col;
            cr[idx] = y - 4;
        }
    }
    BOARD = (1ULL << NCELLS) - 1;
    for (int i = 0; i < NCELLS; i++) {
        int q = cq[i], r = cr[i];
        if (q == 4 || q == -4 || r == 4 || r == -4 || q + r == 4 || q + r == -4) EDGE |= 1ULL << i;
        for (int d = 0; d < 6; d++) {
            int n = 0, qq = q + DQ[d], rr = r + DR[d], j = cell_at(qq, rr);
            if (j > i) STEP[j - i] |= 1ULL << i;   /* a neighbour j - i indices up */
            while (cell_at(qq, rr) >= 0) {
                RAY[i][d] |= 1ULL << cell_at(qq, rr);
                RAY_NEAR[i][d][++n] = RAY[i][d];
                qq += DQ[d];
                rr += DR[d];
            }
            for (int k = n + 1; k < 10; k++) RAY_NEAR[i][d][k] = RAY[i][d];
            LINES[i] |= RAY[i][d];
        }
    }
    uint64_t seed = 0x0DDC0FFEE;
    for (int i = 0; i < NCELLS; i++) {
        Z_WHITE[i] = splitmix64(&seed);
        Z_BLACK[i] = splitmix64(&seed);
        Z_CRUMB[i] = splitmix64(&seed);
    }
    Z_SIDE = splitmix64(&seed);
}

typedef struct { uint64_t s0, s1, s2, s3; } Rng;

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(Rng *r) {
    uint64_t result = rotl(r->s1 * 5, 7) * 9, t = r->s1 << 17;
    r->s2 ^= r->s0; r->s3 ^= r->s1; r->s1 ^= r->s2; r->s0 ^= r->s3;
    r->s2 ^= t; r->s3 = rotl(r->s3, 45);
    return result;
}

static inline uint32_t rng_below(Rng *r, uint32_t n) {
    return (uint32_t)(((rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

#if defined(__BMI2__)
#include <immintrin.h>
#define PEXT _pext_u64
#define PDEP _pdep_u64
#else
static inline uint64_t PEXT(uint64_t x, uint64_t m) {
    uint64_t r = 0, bit = 1;
    for (; m; m &= m - 1, bit <<= 1) if (x & m & -m) r |= bit;
    return r;
}
static inline uint64_t PDEP(uint64_t x, uint64_t m) {
    uint64_t r = 0, bit = 1;
    for (; m; m &= m - 1, bit <<= 1) if (x & bit) r |= m & -m;
    return r;
}
#endif
#define POPCOUNT __builtin_popcountll
#define LSB __builtin_ctzll

/* The rays share no cell: each is worked out from the ducks as they were, without a branch
 * (a ray without ducks, or with its ducks packed already, comes out as it was). */
static inline void swim(uint64_t *white, uint64_t *black, int c) {
    uint64_t w = *white, occ = w | *black, nw = 0, nb = 0;
    for (int d = 0; d < 6; d++) {
        uint64_t o = occ & RAY[c][d];
        uint64_t target = RAY_NEAR[c][d][POPCOUNT(o)];
        uint64_t moved = PDEP(PEXT(w, o), target);
        nw |= moved;
        nb |= target & ~moved;
    }
    *white = (w & ~LINES[c]) | nw;
    *black = (*black & ~LINES[c]) | nb;
}

/* every cell next to one of x: a neighbour is 1, 5, 6, 7, 8 or 9 bit indices away */
static inline uint64_t neighbours(uint64_t x) {
    return ((x & STEP[1]) << 1) | ((x >> 1) & STEP[1]) | ((x & STEP[5]) << 5)
         | ((x >> 5) & STEP[5]) | ((x & STEP[6]) << 6) | ((x >> 6) & STEP[6])
         | ((x & STEP[7]) << 7) | ((x >> 7) & STEP[7]) | ((x & STEP[8]) << 8)
         | ((x >> 8) & STEP[8]) | ((x & STEP[9]) << 9) | ((x >> 9) & STEP[9]);
}

/* a duck with no neighbour of its colour settles most cases; else a flood fill */
static inline int gathered(uint64_t ducks) {
    uint64_t lonely = ducks & ~neighbours(ducks);
    if (lonely && lonely != ducks) return 0;
    uint64_t group = ducks & -ducks, frontier = group;
    while (frontier) {
        frontier = neighbours(frontier) & ducks & ~group;
        group |= frontier;
    }
    return group == ducks;
}

static uint64_t full_key(uint64_t w, uint64_t b, int crumb, int side) {
    uint64_t h = 0;
    for (; w; w &= w - 1) h ^= Z_WHITE[LSB(w)];
    for (; b; b &= b - 1) h ^= Z_BLACK[LSB(b)];
    if (crumb >= 0) h ^= Z_CRUMB[crumb];
    if (side) h ^= Z_SIDE;
    return h;
}

typedef struct {
    uint64_t white, black;
    int crumb, side, plies;
} Position;

/* One playout from p, whose repetition history is the keys start_hist[0..start_n); returns
 * the result (0/1 that colour won, 2 drawn), adds the plies. */
static inline int playout(Position p, int exact, const uint64_t *start_hist, int start_n,
                          Rng *rng, long long *plies_out) {
    uint64_t w = p.white, b = p.black, hkey = 0;
    uint64_t hist[MAX_HIST];
    int crumb = p.crumb, side = p.side, plies = p.plies, nhist = 0, played = 0;
    if (exact) {
        hkey = full_key(w, b, crumb, side);
        memcpy(hist, start_hist, start_n * sizeof(uint64_t));
        nhist = start_n;
    }
    if (plies >= PLY_CAP) return 2;
    for (;;) {
        if (POPCOUNT(w | b) < SETUP_PLACEMENTS) {
            /* the legal-move list: white placements then black, each in cell order */
            uint64_t free_edge = EDGE & ~(w | b);
            int nf = POPCOUNT(free_edge);
            int wl = POPCOUNT(w) < DUCKS_PER_COLOUR, bl = POPCOUNT(b) < DUCKS_PER_COLOUR;
            int k = rng_below(rng, nf * (wl + bl));
            int white_duck = wl && k < nf;
            if (k >= nf) k -= nf;
            int c = LSB(PDEP(1ULL << k, free_edge));
            if (white_duck) {
                w |= 1ULL << c;
                if (exact) hkey ^= Z_WHITE[c] ^ Z_SIDE;
            } else {
                b |= 1ULL << c;
                if (exact) hkey ^= Z_BLACK[c] ^ Z_SIDE;
            }
            side ^= 1;
            played++;
            continue;
        }
        uint64_t occ = w | b;
        uint64_t targets = BOARD & ~occ;
        if (crumb >= 0) targets &= ~LINES[crumb] & ~(1ULL << crumb);
        int c = LSB(PDEP(1ULL << rng_below(rng, POPCOUNT(targets)), targets));
        uint64_t ow = w, ob = b;
        int first = crumb < 0;
        swim(&w, &b, c);
        if (exact) {
            for (uint64_t d = ow ^ w; d; d &= d - 1) hkey ^= Z_WHITE[LSB(d)];
            for (uint64_t d = ob ^ b; d; d &= d - 1) hkey ^= Z_BLACK[LSB(d)];
            if (crumb >= 0) hkey ^= Z_CRUMB[crumb];
            hkey ^= Z_CRUMB[c] ^ Z_SIDE;
        }
        crumb = c;
        plies++;
        played++;
        /* a colour no duck of which moved is still not gathered (but after the setup, where
         * nothing is checked, the first crumb tests both) */
        int wg = (first || w != ow) && gathered(w), bg = (first || b != ob) && gathered(b);
        int placer = side;
        side ^= 1;
        if (wg || bg) {
            *plies_out += played;
            return wg && bg ? placer : (wg ? 0 : 1);
        }
        if (exact) {
            int seen = 1;
            for (int i = 0; i < nhist; i++) seen += hist[i] == hkey;
            if (nhist < MAX_HIST) hist[nhist++] = hkey;
            if (seen >= 3) break;
        }
        if (plies >= PLY_CAP) break;
    }
    *plies_out += played;
    return 2;
}

int main(int argc, char **argv) {
    if (argc < 9 || (argc - 9) % 3 || (argc - 9) / 3 > MAX_HIST
            || (strcmp(argv[1], "bare") && strcmp(argv[1], "exact"))) {
        fprintf(stderr, "usage: %s bare|exact N SEED WHITE BLACK CRUMB SIDE PLIES [W B C ...]\n",
                argv[0]);
        return 2;
    }
    int exact = !strcmp(argv[1], "exact");
    long n = strtol(argv[2], NULL, 0);
    uint64_t seed = strtoull(argv[3], NULL, 0);
    Position root = {strtoull(argv[4], NULL, 0), strtoull(argv[5], NULL, 0),
                     (int)strtol(argv[6], NULL, 0), (int)strtol(argv[7], NULL, 0),
                     (int)strtol(argv[8], NULL, 0)};
    init_tables();
    uint64_t start_hist[MAX_HIST];
    int start_n = (argc - 9) / 3;
    for (int i = 0; i < start_n; i++)   /* the last one has the position's player to move */
        start_hist[i] = full_key(strtoull(argv[9 + 3 * i], NULL, 0), strtoull(argv[10 + 3 * i], NULL, 0),
                                 (int)strtol(argv[11 + 3 * i], NULL, 0), root.side ^ ((start_n - 1 - i) & 1));
    if (!start_n && root.crumb >= 0)    /* a live position taken up has occurred once */
        start_hist[start_n++] = full_key(root.white, root.black, root.crumb, root.side);
    Rng rng;
    uint64_t x = seed;
    rng.s0 = splitmix64(&x); rng.s1 = splitmix64(&x); rng.s2 = splitmix64(&x); rng.s3 = splitmix64(&x);
    long long plies = 0;
    long results[3] = {0, 0, 0};
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    for (long i = 0; i < n; i++) results[playout(root, exact, start_hist, start_n, &rng, &plies)]++;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    double dt = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
    printf("%s %ld %lld %ld %ld %ld %.6f %.0f\n", argv[1], n, plies, results[0], results[1],
           results[2], dt, n / dt);
    return 0;
}
