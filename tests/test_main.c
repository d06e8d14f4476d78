/* tests/test_main.c - CUnit runner for every suite. */
#include "ref.h"
#include "suites.h"
#include "../pns/pns.h"
#include "../pwrite/pwrite.h"
#include "../tablebase/tablebase.h"
#include "../tbbuild/tbbuild.h"
#include "../tblayers/tblayers.h"
#include "../tbreach/tbreach.h"
#include "../tbfile/tbfile.h"

#include <CUnit/Basic.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

game *test_open(const char *spec, const char *variant)
{
    char err[256];
    game *g = game_open(spec, variant, err, sizeof err);
    if (!g) {
        fprintf(stderr, "test set-up: cannot open %s: %s\n", spec, err);
        exit(1);
    }
    return g;
}

int test_remove_dir(const char *dir)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

int test_files_equal(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int same = fa && fb;
    while (same) {
        int ca = fgetc(fa), cb = fgetc(fb);
        same = ca == cb;
        if (ca == EOF || cb == EOF)
            break;
    }
    if (fa) fclose(fa);
    if (fb) fclose(fb);
    return same;
}

int test_tables_differ(const game *g, const char *a, const char *b, int max_pieces)
{
    int mats[4096], n = game_tables(g)->materials(g, max_pieces, mats, 4096), differ = 0;
    for (int i = 0; i < n; i++) {
        char pa[4200], pb[4200];
        tb_path(g, a, mats[i], pa, sizeof pa);
        tb_path(g, b, mats[i], pb, sizeof pb);
        differ += !test_files_equal(pa, pb);
    }
    return differ;
}

game_state test_parse(const game *g, const char *text)
{
    char err[256];
    game_state s;
    if (game_parse(g, text, &s, err, sizeof err) != 0) {
        fprintf(stderr, "test set-up: cannot parse '%s': %s\n", text, err);
        exit(1);
    }
    return s;
}

int test_random_state(const game *g, unsigned long long *seed, int max_plies, game_state *s)
{
    game_move mv[GAME_MAX_MOVES];
    game_start(g, s);
    int plies = (int)(ref_rand(seed) % (unsigned)max_plies);
    for (int p = 0, n; p < plies && (n = game_moves(g, s, mv)) > 0; p++)
        game_play(g, s, mv[ref_rand(seed) % (unsigned)n]);
    return game_result_of(g, s) == GAME_ONGOING;
}

/* One index set per game name: an index depends on the rules alone. */
tb_index *test_indices(const game *g)
{
    static struct { game *g; tb_index *x; } kept[64];
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&lock);
    int k = 0;
    while (k < 64 && kept[k].g && strcmp(kept[k].g->name, g->name) != 0)
        k++;
    if (k == 64 || (!kept[k].g && (!(kept[k].g = game_open(g->name, NULL, NULL, 0)) ||
                                   !(kept[k].x = tb_index_open(kept[k].g, NULL))))) {
        fprintf(stderr, "test set-up: cannot make the state indices of %s\n", g->name);
        exit(2);
    }
    pthread_mutex_unlock(&lock);
    return kept[k].x;
}

const game_tb_index *test_index(const game *g, int mat)
{
    const game_tb_index *ix = tb_index_need(test_indices(g), mat);
    if (!ix) {
        fprintf(stderr, "test set-up: out of memory for a state index of %s\n", g->name);
        exit(2);
    }
    return ix;
}

const game_tb_index *test_index_of(const game *g, const game_state *s)
{
    int mat = game_result_of(g, s) == GAME_ONGOING ? game_tables(g)->material_of(g, s) : -1;
    return test_index(g, mat < 0 ? 0 : mat);
}

typedef struct {
    const game *g;
    const game_tb_index *ix;
    int mat;
    uint64_t next;
    long bad;
} each_check;

static void each_visit(void *ctx, uint64_t index, const game_state *s, int twin)
{
    each_check *c = ctx;
    const game_tb_ops *ops = game_tables(c->g);
    game_state u;
    ops->unindex(c->g, c->ix, c->mat, index, &u);
    int ok = index == c->next++ && memcmp(&u, s, sizeof u) == 0 && twin == (ops->index(c->g, c->ix, &u) != index);
    c->bad += !ok;
}

long test_each_mismatches(const game *g, int mat)
{
    const game_tb_ops *ops = game_tables(g);
    const game_tb_index *ix = test_index(g, mat);
    uint64_t size = ops->size(g, ix, mat), step = 1;
    each_check c = { g, ix, mat, 0, 0 };
    for (uint64_t first = 0; first < size; first += step, step = step * 3 % 1000 + 1)
        game_tb_build(ops)->each(g, ix, mat, first, first + step < size ? first + step : size, each_visit, &c);
    return c.bad + (c.next != size);
}

int test_slow(void) { return getenv("PNSOLVE_SLOW") != NULL; }

int test_minimax(const game *g, const game_state *s)
{
    game_result r = game_result_of(g, s);
    if (r != GAME_ONGOING)
        return game_outcome_for(r, game_to_move(g, s));
    game_move mv[GAME_MAX_MOVES];
    int n = game_moves(g, s, mv), best = -1;
    for (int i = 0; i < n && best < 1; i++) {
        game_state c = *s;
        game_play(g, &c, mv[i]);
        int v = -test_minimax(g, &c);
        best = v > best ? v : best;
    }
    return best;
}

const char *test_proof_head(const game *g)
{
    static char head[GAME_NAME_MAX + 128];
    int n = snprintf(head, sizeof head, "pnsolve-proof %d\ngame %s\n", PROOF_VERSION, g->name);
    if (g->content[0])
        snprintf(head + n, sizeof head - (size_t)n, "game-blake2b %s\n", g->content);
    return head;
}

int test_check_proof(const char *text, const char *tb_dir, char *err, size_t errlen)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    proof_check_options co = { .tb_dir = tb_dir };
    int rc = proof_verify(f, &co, NULL, 0, err, errlen);
    fclose(f);
    return rc;
}

char *test_proof_text(const game *g, const game_state *s, const pns_options *o, pns_result *r)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    int rc = pwrite_proof(g, s, o, f, r);
    fclose(f);
    if (rc == 0)
        return text;
    free(text);
    return NULL;
}

/* v, a solver's answer in the window (a, b), as fail-soft promises it
 * against the true score want: a bound on its side outside, exact inside. */
void test_assert_fail_soft(int v, int a, int b, int want)
{
    if (v <= a) {
        CU_ASSERT(want <= v);
    } else if (v >= b) {
        CU_ASSERT(want >= v);
    } else {
        CU_ASSERT_EQUAL(v, want);
    }
}

/* A position of a random game of g stopped at empties empty squares (or
 * at its end). */
void test_random_position(const game *g, game_state *s, int empties, unsigned long long *seed)
{
    game_start(g, s);
    game_move mv[GAME_MAX_MOVES];
    int n;
    while (game_empties(g, s) > empties && (n = game_moves(g, s, mv)) > 0)
        game_play(g, s, mv[ref_rand(seed) % (unsigned)n]);
}

/* run-tests [SUITE...]: every suite, or only the named ones. */
int main(int argc, char **argv)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    suite_crosscheck();
    suite_rules();
    suite_ranking();
    suite_tablebase();
    suite_search();
    suite_tt();
    suite_proofs();
    suite_score();
    suite_othello_solver();
    suite_puzzle();
    suite_ostle_tb();
    suite_proof_trust();
    suite_tictactoe();
    suite_campaign();
    suite_campaign_trust();
    suite_tb_ranks();
    suite_api();
    suite_api_moves();
    suite_layers();
    suite_symbolic();
    suite_sweep();
    CU_basic_set_mode(getenv("PNSOLVE_VERBOSE") ? CU_BRM_VERBOSE : CU_BRM_NORMAL);
    unsigned failed = 0;  /* each run's counts start again: summed over the runs */
    if (argc == 1) {
        CU_basic_run_tests();
        failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    }
    for (int i = 1; i < argc; i++) {
        /* "suite" runs a suite, "suite/test name" one of its tests */
        char name[256];
        snprintf(name, sizeof name, "%s", argv[i]);
        char *test = strchr(name, '/');
        if (test)
            *test++ = 0;
        CU_pSuite s = CU_get_suite(name);
        CU_pTest t = s && test ? CU_get_test(s, test) : NULL;
        if (!s || (test && !t)) {
            fprintf(stderr, "run-tests: no %s '%s'\n", s ? "test" : "suite", s ? test : name);
            CU_cleanup_registry();
            return 2;
        }
        if (t)
            CU_basic_run_test(s, t);
        else
            CU_basic_run_suite(s);
        failed += CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    }
    CU_cleanup_registry();
    return failed ? 1 : 0;
}
