/* tests/test_pns_tt.c - the transposition table: sizes, growth, the keep of
 * evicted solved entries. */
#include "suites.h"
#include "../pns/dfpn.h"  /* the searcher inside, tested directly */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static void test_tt_keep_solved(void)
{
    tt_table t;
    memset(&t, 0, sizeof t);
    CU_ASSERT_EQUAL_FATAL(pns_tt_init(&t, 4 * sizeof(tt_entry)), 0);
    CU_ASSERT_EQUAL_FATAL(pns_tt_keep_solved(&t, 1024 * sizeof(tt_entry)), 0);
    enum { N = 600 };
    for (uint64_t i = 0; i < N; i++) {
        game_key k = { i * 0x9e3779b97f4a7c15ULL + 1, i };
        pns_tt_store(&t, k, i % 2 ? 3 : 0, i % 2 ? 4 : PNS_INF, (uint32_t)(i % 5) + 1, (int)(i % 7), 0);
    }
    int solved_found = 0, unsolved_found = 0, wrong = 0;
    for (uint64_t i = 0; i < N; i++) {
        game_key k = { i * 0x9e3779b97f4a7c15ULL + 1, i };
        const tt_entry *e = pns_tt_lookup_kept(&t, k);
        if (e && (e->lo != k.lo || e->hi != k.hi || e->best != i % 7 || (e->pn == 0) != (i % 2 == 0)))
            wrong++;
        if (i % 2 == 0)
            solved_found += e != NULL;
        else
            unsolved_found += e != NULL;
    }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(solved_found, N / 2);
    CU_ASSERT(unsolved_found <= 4);
    CU_ASSERT_PTR_NULL(pns_tt_lookup_kept(&t, (game_key){ 12345, 999999 }));
    uint64_t kept, dropped;
    size_t bytes;
    pns_tt_kept_counts(&t, &kept, &dropped, &bytes);
    CU_ASSERT(kept >= N / 2 - 4 && kept <= N / 2);
    CU_ASSERT_EQUAL(dropped, 0);
    for (uint64_t i = N; i < 4 * N; i++)  /* more than the keep's 70% of 1,024 */
        pns_tt_store(&t, (game_key){ i * 0x9e3779b97f4a7c15ULL + 1, i }, 0, PNS_INF, 1, 0, 0);
    pns_tt_kept_counts(&t, &kept, &dropped, &bytes);
    CU_ASSERT_EQUAL(kept, 1024 / 10 * 7);
    CU_ASSERT(dropped > 0);
    CU_ASSERT(bytes > 0);
    pns_tt_free(&t);
}

/* A result solved on some path (TT_COND) is what a closed-set proof
 * writer reads its way through: in a table of one bucket with a keep, each
 * flagged entry stays findable after eviction, with the move the flag named
 * even where a later open store named another; a solved entry, in the
 * keep or in the table, keeps its move and value when its key is flagged. */
static void test_tt_keep_path_dependent(void)
{
    tt_table t;
    memset(&t, 0, sizeof t);
    CU_ASSERT_EQUAL_FATAL(pns_tt_init(&t, 4 * sizeof(tt_entry)), 0);
    CU_ASSERT_EQUAL_FATAL(pns_tt_keep_solved(&t, 1024 * sizeof(tt_entry)), 0);
    enum { N = 400 };
    game_key solved = { 77, 77 }, held = { 88, 88 };
    pns_tt_store(&t, solved, 0, PNS_INF, 0, 2, 0);  /* no work: evicted first */
    pns_tt_store(&t, held, 0, PNS_INF, 1000, 2, 0);  /* never evicted here */
    for (uint64_t i = 0; i < N; i++) {
        game_key k = { i * 0x9e3779b97f4a7c15ULL + 1, i };
        pns_tt_store(&t, k, 3, 4, 1, (int)(i % 7), 0);
        if (i % 2) {
            pns_tt_flag(&t, k, TT_COND, (int)((i + 3) % 7));
            pns_tt_store(&t, k, 5, 6, 1, 0, 0);  /* searched again, left open */
        }
        if (i == N / 2) {  /* the solved key again, open and flagged, then evicted */
            pns_tt_store(&t, solved, 3, 4, 1, 5, 0);
            pns_tt_flag(&t, solved, TT_COND, 6);
            pns_tt_flag(&t, held, TT_COND, 6);
        }
    }
    int flagged_found = 0, plain_found = 0, wrong = 0;
    for (uint64_t i = 0; i < N; i++) {
        game_key k = { i * 0x9e3779b97f4a7c15ULL + 1, i };
        const tt_entry *e = pns_tt_lookup_kept(&t, k);
        if (i % 2 == 0) {
            plain_found += e != NULL;
            continue;
        }
        flagged_found += e != NULL;
        if (e && (e->lo != k.lo || e->hi != k.hi || !(e->flags & TT_COND) || e->best != (i + 3) % 7))
            wrong++;
    }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(flagged_found, N / 2);
    CU_ASSERT(plain_found <= 4);
    for (int j = 0; j < 2; j++) {
        const tt_entry *e = pns_tt_lookup_kept(&t, j ? held : solved);
        CU_ASSERT_FATAL(e != NULL);
        CU_ASSERT_EQUAL(e->pn, 0);
        CU_ASSERT_EQUAL(e->best, 2);
    }
    CU_ASSERT_PTR_NOT_NULL(pns_tt_lookup(&t, held));
    pns_tt_free(&t);
}

/* --memory need not be a power of two: a table of 3 and of 5 buckets
 * fills every entry of every bucket and no more (an index past the last
 * bucket, or one that skipped some, would fail), and what it finds is
 * what was stored under that exact key. */
static void test_tt_any_size(void)
{
    for (size_t want = 3; want <= 5; want += 2) {
        tt_table t;
        memset(&t, 0, sizeof t);
        CU_ASSERT_EQUAL_FATAL(pns_tt_init(&t, want * TT_WAYS * sizeof(tt_entry) + 100), 0);
        CU_ASSERT_EQUAL_FATAL(t.buckets, want);
        enum { N = 3000 };
        for (uint64_t i = 0; i < N; i++)
            pns_tt_store(&t, (game_key){ i * 0x9e3779b97f4a7c15ULL + 7, i }, 5, 6, (uint32_t)(i % 9) + 1, (int)(i % 7), 0);
        CU_ASSERT_EQUAL(pns_tt_fill(&t), 1.0);
        int found = 0, wrong = 0;
        for (uint64_t i = 0; i < N; i++) {
            game_key k = { i * 0x9e3779b97f4a7c15ULL + 7, i };
            const tt_entry *e = pns_tt_lookup(&t, k);
            found += e != NULL;
            wrong += e && (e->lo != k.lo || e->hi != k.hi || e->best != i % 7);
        }
        CU_ASSERT_EQUAL(found, (int)(want * TT_WAYS));
        CU_ASSERT_EQUAL(wrong, 0);
        pns_tt_free(&t);
    }
}

/* A solved entry outlives open numbers stored over it for a question it
 * answers (a team member that stopped stores its stale numbers on the way
 * up, after another solved the position), and gives way to those of a
 * question it does not answer (a disproof of "at least 6" says nothing of
 * "at least 4"); a solved value replaces anything. */
static void test_tt_solved_stays(void)
{
    tt_table t;
    memset(&t, 0, sizeof t);
    CU_ASSERT_EQUAL_FATAL(pns_tt_init(&t, 64 * sizeof(tt_entry)), 0);
    game_key p = { 11, 1 }, d = { 22, 2 };
    pns_tt_store(&t, p, 0, PNS_INF, 10, 3, 6);  /* at least 6: proven */
    pns_tt_store(&t, d, PNS_INF, 0, 10, 2, 6);  /* at least 6: disproven */
    pns_tt_store(&t, p, 7, 8, 5, 1, 6);
    pns_tt_store(&t, p, 7, 8, 5, 1, 4);
    pns_tt_store(&t, d, 7, 8, 5, 1, 8);
    const tt_entry *e = pns_tt_lookup(&t, p);
    CU_ASSERT(e && e->pn == 0 && e->best == 3 && e->tag == 6 && e->work == 20);
    e = pns_tt_lookup(&t, d);
    CU_ASSERT(e && e->dn == 0 && e->best == 2 && e->tag == 6 && e->work == 15);
    pns_tt_store(&t, p, 7, 8, 5, 1, 8);  /* "at least 8?" is open: a proof of 6 does not answer it */
    e = pns_tt_lookup(&t, p);
    CU_ASSERT(e && e->pn == 7 && e->tag == 8);
    pns_tt_store(&t, d, 7, 8, 5, 1, 4);
    e = pns_tt_lookup(&t, d);
    CU_ASSERT(e && e->pn == 7 && e->tag == 4);
    pns_tt_store(&t, d, 0, PNS_INF, 5, 4, 4);
    e = pns_tt_lookup(&t, d);
    CU_ASSERT(e && e->pn == 0 && e->best == 4);
    pns_tt_free(&t);
}

/* The table grows in place: it starts at TT_START_BYTES of what was
 * reserved, doubles only when half full, and a doubling keeps every entry
 * it held, findable by its exact key with its value (a doubling that put
 * an entry in the wrong bucket, or dropped one, would fail). */
static int tt_found(const tt_table *t, uint64_t n, int *wrong)
{
    int found = 0;
    for (uint64_t i = 0; i < n; i++) {
        game_key k = { i * 0x9e3779b97f4a7c15ULL + 3, i ^ 0x5555 };
        const tt_entry *e = pns_tt_lookup(t, k);
        found += e != NULL;
        *wrong += e && (e->pn != 5 || e->dn != (uint32_t)(i % 11) + 1 || e->best != i % 7 || e->tag != (int16_t)(i % 13));
    }
    return found;
}

static void test_tt_grows(void)
{
    tt_table t;
    memset(&t, 0, sizeof t);
    size_t start = TT_START_BYTES / (TT_WAYS * sizeof(tt_entry));
    CU_ASSERT_EQUAL_FATAL(pns_tt_init(&t, 4 * TT_START_BYTES + 100), 0);  /* two doublings */
    CU_ASSERT_EQUAL(t.buckets, start);
    CU_ASSERT_EQUAL(t.doublings, 2);
    CU_ASSERT_FALSE(pns_tt_wants_room(&t));
    uint64_t n = 0;
    int grew = 0, wrong = 0;
    while (grew < 2) {
        for (; !pns_tt_wants_room(&t); n++)
            pns_tt_store(&t, (game_key){ n * 0x9e3779b97f4a7c15ULL + 3, n ^ 0x5555 }, 5, (uint32_t)(n % 11) + 1, 1, (int)(n % 7), (int)(n % 13));
        int before = tt_found(&t, n, &wrong);
        CU_ASSERT_EQUAL(before, (int)t.used);
        pns_tt_grow(&t);
        grew++;
        CU_ASSERT_EQUAL(t.buckets, start << grew);
        CU_ASSERT_EQUAL(tt_found(&t, n, &wrong), before);
        CU_ASSERT_EQUAL(wrong, 0);
    }
    CU_ASSERT_EQUAL(t.doublings, 0);
    /* fully grown it only replaces: it holds what it counts, and no more */
    for (uint64_t end = n + 2 * t.buckets * TT_WAYS; n < end; n++)
        pns_tt_store(&t, (game_key){ n * 0x9e3779b97f4a7c15ULL + 3, n ^ 0x5555 }, 5, (uint32_t)(n % 11) + 1, 1, (int)(n % 7), (int)(n % 13));
    CU_ASSERT_FALSE(pns_tt_wants_room(&t));
    CU_ASSERT(t.used <= t.buckets * TT_WAYS && pns_tt_fill(&t) > 0.9);
    CU_ASSERT_EQUAL(tt_found(&t, n, &wrong), (int)t.used);
    CU_ASSERT_EQUAL(wrong, 0);
    pns_tt_free(&t);
}

/* A proof writer pins the table (it may not grow under the writer's
 * pointers), so pinning first grows it until at most an eighth full: a
 * table the search had filled left the writer's searches again no room
 * (an Ostle split's writer spent hours in a full 282 MB table of a 6 GB
 * --memory).  An emptier table stays as it is: its pages are not touched. */
static void test_pin_grows_a_full_table(void)
{
    game *g = test_open("othello:4x4", NULL);
    game_state s;
    game_start(g, &s);
    for (int full = 0; full < 2; full++) {
        pns_options o;
        pns_defaults(&o);
        o.memory = (size_t)200 << 20;  /* a table of 150 MB: three doublings from the start */
        dfpn D;
        CU_ASSERT_EQUAL_FATAL(pns_dfpn_init(&D, g, &s, &o), 0);
        tt_table *t = D.tt;
        CU_ASSERT_EQUAL_FATAL(t->doublings, 3);
        size_t start = t->buckets;
        uint64_t n = full ? start * TT_WAYS * 2 / 5 : start * TT_WAYS / 10, n0 = n;  /* 40% or 10% */
        for (uint64_t i = 0; i < n; i++)
            pns_tt_store(t, (game_key){ i * 0x9e3779b97f4a7c15ULL + 3, i ^ 0x5555 }, 5, (uint32_t)(i % 11) + 1, 1, (int)(i % 7),
                         (int)(i % 13));  /* as tt_found() reads them */
        size_t used = t->used;
        int wrong = 0;
        pns_dfpn_pin(&D);
        CU_ASSERT(D.tt_pinned);
        CU_ASSERT_EQUAL(t->buckets, full ? start << 2 : start);  /* 40% -> 20% -> 10% */
        CU_ASSERT_EQUAL(t->doublings, full ? 1 : 3);
        CU_ASSERT(t->used * 8 < t->buckets * TT_WAYS);
        CU_ASSERT_EQUAL(tt_found(t, n0, &wrong), (int)used);
        CU_ASSERT_EQUAL(wrong, 0);
        pns_dfpn_free(&D);
    }
    game_close(g);
}

/* Graph t of a mix for the writer's tests: random ones and dense ones
 * (many draws), kept in a file (unlink_graph). */

void suite_tt(void)
{
    CU_pSuite s = CU_add_suite("tt", NULL, NULL);
    CU_add_test(s, "the table keeps the solved entries it evicts, by exact keys", test_tt_keep_solved);
    CU_add_test(s, "the table any number of buckets, every one used", test_tt_any_size);
    CU_add_test(s, "the table grows in place, every entry kept", test_tt_grows);
    CU_add_test(s, "a proof writer's pin grows a table the search filled", test_pin_grows_a_full_table);
    CU_add_test(s, "an entry solved on some path is kept with its move for the writer", test_tt_keep_path_dependent);
    CU_add_test(s, "a solved entry stays under open numbers of a question it answers", test_tt_solved_stays);
}
