/* tests/test_tblayers_sweep.c - compact sets of reachable states (util/efset.c,
 * the Othello layer ranks, tblayers/sweep.c): the Elias-Fano set against
 * a plain sorted array; every rank of a layer against the states it
 * unranks to and the start's symmetries applied naively; the layers of
 * 4x4 and 4x5 against a naive enumeration of position texts by the
 * reference rules; a resumed, a stopped and a damaged run. */
#include "ref.h"
#include "suites.h"
#include "../util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Random sets of every density, each value found at its index, every
 * non-member missed, the walk from any word giving the values in order. */
static void test_efset(void)
{
    uint64_t seed = 5;
    const uint64_t universes[] = { 1, 64, 1000, 1 << 20, (uint64_t)1 << 40 };
    const uint64_t counts[] = { 0, 1, 3, 700, 5000 };
    for (int a = 0; a < 5; a++)
        for (int b = 0; b < 5; b++) {
            uint64_t U = universes[a], want = counts[b] < U ? counts[b] : U, n = 0;
            uint64_t *v = malloc((want + 1) * 8);
            /* distinct sorted values: every value when dense, else random ones sorted */
            if (want * 2 >= U) {
                for (uint64_t x = 0; x < U; x++)
                    if (n < want && util_random(&seed) % U < want)
                        v[n++] = x;
            } else {
                for (uint64_t i = 0; i < want; i++)
                    v[i] = util_random(&seed) % U;
                for (uint64_t i = 1; i < want; i++)  /* insertion sort: small */
                    for (uint64_t j = i; j > 0 && v[j - 1] > v[j]; j--) {
                        uint64_t t = v[j]; v[j] = v[j - 1]; v[j - 1] = t;
                    }
                for (uint64_t i = 0; i < want; i++)
                    if (n == 0 || v[n - 1] != v[i])
                        v[n++] = v[i];
            }
            util_efset e;
            CU_ASSERT_EQUAL_FATAL(util_efset_init(&e, n, U), 0);
            for (uint64_t i = 0; i < n; i++)
                util_efset_put(&e, i, v[i]);
            CU_ASSERT_EQUAL_FATAL(util_efset_seal(&e), 0);
            int bad = 0;
            for (uint64_t i = 0; i < n; i++)
                bad += util_efset_find(&e, v[i]) != (int64_t)i || util_efset_low(&e, i) != (v[i] & ((1ULL << e.low_bits) - 1));
            for (int t = 0; t < 2000; t++) {
                uint64_t x = util_random(&seed) % (U + 2), lo = 0, hi = n;
                while (lo < hi) {
                    uint64_t mid = (lo + hi) / 2;
                    if (v[mid] < x) lo = mid + 1; else hi = mid;
                }
                int64_t want_at = lo < n && v[lo] == x ? (int64_t)lo : -1;
                bad += util_efset_find(&e, x) != want_at;
            }
            /* walks over consecutive word ranges cover every value once, in order */
            uint64_t step = 1 + util_random(&seed) % 5, next = 0, x, i;
            for (uint64_t w0 = 0; w0 < e.high_words; w0 += step) {
                util_efset_walk w;
                util_efset_walk_start(&w, &e, w0, w0 + step);
                while (util_efset_walk_next(&w, &x, &i))
                    bad += i != next || x != v[next], next++;
            }
            bad += next != n;
            CU_ASSERT_EQUAL(bad, 0);
            /* about 2 + log2(U / n) bits a value */
            if (n >= 700)
                CU_ASSERT((util_efset_low_words(&e) + e.high_words) * 64 <= n * (4 + e.low_bits) + 256);
            util_efset_free(&e);
            free(v);
        }
}

/* Square (r, c) of a w x h board under symmetry k, as the rules number squares (row * 8 + col). */
static uint64_t image(uint64_t b, int k, int w, int h)
{
    uint64_t out = 0;
    for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++)
            if (b >> (r * 8 + c) & 1) {
                int rr = k & 2 ? h - 1 - r : r, cc = k & 1 ? w - 1 - c : c;
                if (k & 4) { int t = rr; rr = cc; cc = t; }
                out |= 1ULL << (rr * 8 + cc);
            }
    return out;
}

/* Every rank of a layer (4x4 with 6 discs, 5x5 with 4 and 5) unranks to a
 * state of that layer whose rank is the least rank of its images under the
 * symmetries that fix the start (found here by trying all eight), no two
 * ranks to one state, and the image count is the orbit's size; the two
 * sides of a board are ranks 2k, 2k + 1. */
static void test_ranks(void)
{
    const char *specs[] = { "othello:4x4", "othello:5x5", "othello:5x5", "othello:4x5" };
    const int discs[] = { 6, 4, 5, 5 };
    for (int t = 0; t < 4; t++) {
        game *g = test_open(specs[t], NULL);
        CU_ASSERT_FATAL(game_has_layers(g));
        int W = g->width, H = g->height, area = W * H, empties = area - discs[t];
        game_state st;
        game_start(g, &st);
        int group[8], ng = 0;
        for (int k = 0; k < (W == H ? 8 : 4); k++)
            if (image(st.w[0], k, W, H) == st.w[0] && image(st.w[1], k, W, H) == st.w[1])
                group[ng++] = k;
        CU_ASSERT_EQUAL(ng, W == 4 && H == 4 ? 4 : W == 5 && H == 5 ? 2 : 1);
        uint64_t size = game_layer_size(g, empties), bad = 0, canonical = 0, states = 0;
        uint64_t *seen_b = calloc(size, 8), *seen_w = calloc(size, 8);
        for (uint64_t r = 0; r < size; r++) {
            game_state s;
            int images;
            game_layer_unrank(g, empties, r, &s);
            bad += game_empties(g, &s) != empties || (s.w[0] & s.w[1]) || (int)s.w[2] != (int)(r & 1);
            uint64_t own = game_layer_rank(g, &s, &images), least = own;
            int fixed = 0;
            for (int i = 0; i < ng; i++) {
                game_state m = s;
                m.w[0] = image(s.w[0], group[i], W, H);
                m.w[1] = image(s.w[1], group[i], W, H);
                int unused;
                uint64_t ri = game_layer_rank(g, &m, &unused);
                bad += ri != own;  /* every image has the same (least) rank */
                fixed += m.w[0] == s.w[0] && m.w[1] == s.w[1];
            }
            bad += images * fixed != ng;
            bad += least > r || (ng == 1 && own != r);
            if (own == r) {
                canonical++;
                states += (uint64_t)images;
            }
            seen_b[r] = s.w[0], seen_w[r] = s.w[1];
            if (r & 1)
                bad += seen_b[r] != seen_b[r - 1] || seen_w[r] != seen_w[r - 1];
        }
        /* the raw ranks number the layer's states one to one: as many as boards times sides */
        uint64_t boards = 1;
        for (int i = 0; i < discs[t]; i++)
            boards = boards * (uint64_t)(area - i) / (uint64_t)(i + 1);
        CU_ASSERT_EQUAL(size, boards << (discs[t] + 1));
        CU_ASSERT_EQUAL(states, size);  /* the orbits of the canonical ranks cover the layer */
        CU_ASSERT(canonical < size || ng == 1);
        CU_ASSERT_EQUAL(bad, 0);
        free(seen_b);
        free(seen_w);
        game_close(g);
    }
    game *big = test_open("othello:8x8", NULL), *ttt = test_open("tictactoe", NULL);
    CU_ASSERT(!game_has_layers(big));
    CU_ASSERT(!game_has_layers(ttt));
    game_close(big);
    game_close(ttt);
}

#define START44 "4x4:----/-OX-/-XO-/---- X"

static char dir[64];

typedef struct { char t[48]; } text;

static int text_cmp(const void *a, const void *b) { return strcmp(((const text *)a)->t, ((const text *)b)->t); }

static void sort_unique(text *v, size_t *n)
{
    qsort(v, *n, sizeof *v, text_cmp);
    size_t m = 0;
    for (size_t i = 0; i < *n; i++)
        if (m == 0 || strcmp(v[m - 1].t, v[i].t) != 0)
            v[m++] = v[i];
    *n = m;
}

/* The reachable states of a board layer by layer, as position texts
 * through the naive rules of tests/ref_othello.c (no ranks, no
 * symmetries): per layer the states, those that move, pass and are over. */
static int naive_layers(const char *start, tb_sweep_layer *out, int cap)
{
    size_t n = 1, cap_cur = 1 << 10;
    text *cur = malloc(cap_cur * sizeof *cur);
    snprintf(cur[0].t, sizeof cur[0].t, "%.47s", start);
    static ref_child ch[REF_MAX];
    int layers = 0;
    while (n && layers < cap) {
        char result;
        int score;
        size_t m = n;
        for (size_t i = 0; i < m; i++)   /* a pass stays in its layer */
            if (ref_othello_children(cur[i].t, ch, &result, &score) == 1 && strcmp(ch[0].move, "pass") == 0) {
                if (n == cap_cur)
                    cur = realloc(cur, (cap_cur *= 2) * sizeof *cur);
                snprintf(cur[n++].t, sizeof cur[0].t, "%.47s", ch[0].after);
            }
        sort_unique(cur, &n);
        tb_sweep_layer *st = &out[layers++];
        memset(st, 0, sizeof *st);
        st->states = n;
        size_t nn = 0, cap_next = 1 << 10;
        text *next = malloc(cap_next * sizeof *next);
        for (size_t i = 0; i < n; i++) {
            int k = ref_othello_children(cur[i].t, ch, &result, &score);
            if (k == 0) {
                st->finished++;
            } else if (k == 1 && strcmp(ch[0].move, "pass") == 0) {
                st->passing++;
            } else {
                st->moving++;
                for (int c = 0; c < k; c++) {
                    if (nn == cap_next)
                        next = realloc(next, (cap_next *= 2) * sizeof *next);
                    snprintf(next[nn++].t, sizeof next[0].t, "%.47s", ch[c].after);
                }
            }
        }
        free(cur);
        cur = next;
        n = nn;
        sort_unique(cur, &n);
    }
    free(cur);
    return layers;
}

/* g's layers by the sweep (memory bytes of bitmap, threads) against the
 * naive enumeration from start, layer by layer; the layers found. */
static int against_naive(const game *g, const char *start, uint64_t memory, int threads)
{
    char err[600];
    tb_sweep_options o = { .threads = threads, .memory = memory };
    tb_sweep_layer st[40], want[40];
    int n = 0;
    CU_ASSERT_EQUAL_FATAL(tb_sweep(g, dir, &o, st, 40, &n, err, sizeof err), 0);
    int m = naive_layers(start, want, 40);
    CU_ASSERT_EQUAL(n, m);
    int bad = 0;
    for (int i = 0; i < n && i < m; i++)
        bad += want[i].states != st[i].states || want[i].moving != st[i].moving ||
               want[i].passing != st[i].passing || want[i].finished != st[i].finished ||
               st[i].ranks > st[i].states || st[i].ranks * 4 < st[i].states;
    CU_ASSERT_EQUAL(bad, 0);
    return n;
}

static void sweep_file(const game *g, int empties, char *buf, size_t len)
{
    snprintf(buf, len, "%s/othello-%dx%d.e%02d.pnsw", dir, g->width, g->height, empties);
}

/* 4x4 (four symmetries fold it) and (slow tests) 4x5 (none) as the naive
 * enumeration counts them, on one thread and two, with a bitmap of a few
 * words (a layer in hundreds of passes) and a large one; a run resumed
 * from some layers on disk; stopped; a damaged layer named. */
static void test_sweep(void)
{
    snprintf(dir, sizeof dir, "/tmp/pnsolve-sweep-%d", (int)getpid());
    mkdir(dir, 0777);
    game *g = test_open("othello:4x4", NULL);
    CU_ASSERT_EQUAL(against_naive(g, START44, 1 << 16, 2), 13);
    char path[200], err[600];
    for (int e = 0; e <= 12; e++) {   /* the same from scratch with a large bitmap */
        sweep_file(g, e, path, sizeof path);
        CU_ASSERT_EQUAL(unlink(path), 0);
    }
    CU_ASSERT_EQUAL(against_naive(g, START44, 1 << 24, 1), 13);
    for (int e = 0; e <= 5; e++) {    /* resumed after the layer of 6 empties */
        sweep_file(g, e, path, sizeof path);
        CU_ASSERT_EQUAL(unlink(path), 0);
    }
    CU_ASSERT_EQUAL(against_naive(g, START44, 1 << 17, 2), 13);
    /* stopped before a layer is done: the layers before it stand */
    sweep_file(g, 3, path, sizeof path);
    CU_ASSERT_EQUAL(unlink(path), 0);
    volatile int stop = 1;
    tb_sweep_options o = { .threads = 2, .memory = 1 << 17, .stop = &stop };
    tb_sweep_layer st[40];
    int n;
    CU_ASSERT_EQUAL(tb_sweep(g, dir, &o, st, 40, &n, err, sizeof err), 1);
    CU_ASSERT_EQUAL(n, 9);
    CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
    /* a byte changed: the layer is named */
    sweep_file(g, 7, path, sizeof path);
    FILE *f = fopen(path, "r+b");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fseek(f, -20, SEEK_END);
    int c = fgetc(f);
    fseek(f, -20, SEEK_END);
    fputc(c ^ 4, f);
    fclose(f);
    o.stop = NULL;
    CU_ASSERT_EQUAL(tb_sweep(g, dir, &o, st, 40, &n, err, sizeof err), -1);
    CU_ASSERT(strstr(err, path) != NULL && strstr(err, "damaged") != NULL);
    CU_ASSERT_EQUAL(truncate(path, 100), 0);
    CU_ASSERT_EQUAL(tb_sweep(g, dir, &o, st, 40, &n, err, sizeof err), -1);
    CU_ASSERT(strstr(err, path) != NULL);
    game_close(g);
    g = test_open("othello:4x5", NULL);
    if (test_slow())
        CU_ASSERT_EQUAL(against_naive(g, "4x5:----/-OX-/-XO-/----/---- X", 1 << 24, 2), 17);
    game_close(g);
    /* sets past the memory allowed: one line naming the layers */
    game *g5 = test_open("othello:4x5", NULL);
    char dir2[80];
    snprintf(dir2, sizeof dir2, "%s-small", dir);
    mkdir(dir2, 0777);
    tb_sweep_options small = { .memory = 1 << 24, .max_sets = 100000 };
    CU_ASSERT_EQUAL(tb_sweep(g5, dir2, &small, st, 40, &n, err, sizeof err), -1);
    CU_ASSERT(strstr(err, "empty squares take") != NULL && strstr(err, "past the 0.00 GB allowed") != NULL);
    CU_ASSERT(n > 3 && n < 17);
    CU_ASSERT_EQUAL(test_remove_dir(dir2), 0);
    game_close(g5);
    g = test_open("tictactoe", NULL);
    CU_ASSERT_EQUAL(tb_sweep(g, dir, &o, st, 40, &n, err, sizeof err), -1);
    game_close(g);
    CU_ASSERT_EQUAL(test_remove_dir(dir), 0);
}

void suite_sweep(void)
{
    CU_pSuite s = CU_add_suite("sweep", NULL, NULL);
    CU_add_test(s, "Elias-Fano sets against sorted arrays: every density, finds, misses, walks", test_efset);
    CU_add_test(s, "Othello layer ranks: every rank of a layer, the start's symmetries applied naively", test_ranks);
    CU_add_test(s, "reachable layers of 4x4 (4x5: PNSOLVE_SLOW) as a naive enumeration counts them; resumed, stopped, damaged", test_sweep);
}
