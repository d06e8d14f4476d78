/* tests/test_tbbuild_ranks.c - table builds shared by ranks, with no MPI: the
 * partition of an index into owned blocks checked whole, and threads that
 * play ranks through a transport written here (shared buffers and a
 * barrier) build the same files as one process, byte for byte, with their
 * stops and failures agreed (no rank left waiting). */
#include "suites.h"
#include "../tbbuild/tb_testing.h"
#include "../tbbuild/exchange.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_RANKS 8

/* --- the partition ----------------------------------------------------- */

static void test_partition(void)
{
    static const uint64_t sizes[] = { 1, 63, 64, 65, 1000, 4096, 100003 };
    int checked = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int ranks = 1; ranks <= 5; ranks++)
            for (int per = 1; per <= 3; per++) {
                uint64_t n = sizes[s], blocks = (n + 63) / 64, owned_total = 0;
                unsigned char *owner = calloc(blocks, 1);
                CU_ASSERT_PTR_NOT_NULL_FATAL(owner);
                for (int r = 0; r < ranks; r++) {
                    tb_part p = tb_part_of(n, 6, r, ranks, per);
                    CU_ASSERT_EQUAL(p.blocks, blocks);
                    uint64_t last = 0;
                    for (uint64_t k = 0; k < p.owned; k++) {
                        uint64_t q = tb_part_block(&p, k);
                        CU_ASSERT(q < blocks && (k == 0 || q > last));
                        if (q >= blocks)
                            break;
                        owner[q]++;
                        last = q;
                        /* every entry of the block is named as this rank's */
                        CU_ASSERT_EQUAL(tb_part_rank(&p, q * 64), r);
                        CU_ASSERT_EQUAL(tb_part_rank(&p, q * 64 + 63), r);
                    }
                    owned_total += p.owned;
                }
                for (uint64_t q = 0; q < blocks; q++)
                    CU_ASSERT_EQUAL(owner[q], 1);  /* each block owned once */
                CU_ASSERT_EQUAL(owned_total, blocks);
                free(owner);
                checked++;
            }
    CU_ASSERT_EQUAL(checked, 105);
}

/* --- ranks played by threads -------------------------------------------- */

typedef struct {
    int size;
    pthread_barrier_t bar;
    const uint64_t *send[MAX_RANKS], *at[MAX_RANKS];
    uint64_t *red[MAX_RANKS];
    uint64_t calls;              /* collective calls of rank 0, to see that the ranks talked */
} hub;

typedef struct {
    hub *h;
    tb_ranks r;
    const game *g;
    const char *dir;
    int pieces, rc;
    tb_build_options o;
    volatile int stop;
    char err[512];
    struct tb_testing knobs;  /* o.testing's, this rank's own */
} member;

static int loop_alltoall(void *ctx, const uint64_t *send, const uint64_t *at, uint64_t **recv, uint64_t *cap,
                         uint64_t *from)
{
    member *m = ctx;
    hub *h = m->h;
    int me = m->r.rank;
    h->send[me] = send, h->at[me] = at;
    if (me == 0)
        h->calls++;
    pthread_barrier_wait(&h->bar);
    uint64_t total = 0;
    for (int p = 0; p < h->size; p++) {
        from[p] = total;
        total += h->at[p][me + 1] - h->at[p][me];
    }
    from[h->size] = total;
    if (total > *cap) {
        uint64_t *grown = realloc(*recv, total * sizeof *grown);
        if (!grown)
            abort();  /* test set-up: a few MB */
        *recv = grown, *cap = total;
    }
    for (int p = 0; p < h->size; p++)
        if (from[p + 1] > from[p])
            memcpy(*recv + from[p], h->send[p] + h->at[p][me], (from[p + 1] - from[p]) * sizeof(uint64_t));
    pthread_barrier_wait(&h->bar);  /* the senders' buffers are free again */
    return 0;
}

static int loop_allreduce(void *ctx, uint64_t *v, int n, tb_reduce_op op)
{
    member *m = ctx;
    hub *h = m->h;
    uint64_t out[64];
    CU_ASSERT_FATAL(n <= 64);
    h->red[m->r.rank] = v;
    pthread_barrier_wait(&h->bar);
    for (int i = 0; i < n; i++) {
        out[i] = h->red[0][i];
        for (int p = 1; p < h->size; p++) {
            uint64_t x = h->red[p][i];
            out[i] = op == TB_SUM ? out[i] + x : op == TB_MAX ? (x > out[i] ? x : out[i]) : (x < out[i] ? x : out[i]);
        }
    }
    pthread_barrier_wait(&h->bar);
    memcpy(v, out, (size_t)n * sizeof *v);
    return 0;
}

static void *member_build(void *arg)
{
    member *m = arg;
    m->o.ranks = &m->r;
    m->rc = tb_build(m->g, m->dir, m->pieces, &m->o, m->err, sizeof m->err);
    return NULL;
}

/* Builds g's tables to `pieces` in dir on `ranks` threads playing ranks,
 * each with options o (stop_rank >= 0: that rank alone is asked to stop
 * at ply 2 of its first large table); the ranks' return codes in rc[]. */
static uint64_t build_ranked_with(const game *g, const char *dir, int pieces, int ranks, tb_build_options o,
                                  int stop_rank, const struct tb_testing *stop_with, int *rc);

static uint64_t build_ranked(const game *g, const char *dir, int pieces, int ranks, tb_build_options o, int stop_rank,
                             int *rc)
{
    return build_ranked_with(g, dir, pieces, ranks, o, stop_rank, NULL, rc);
}

/* As build_ranked, the rank stop_rank with the knobs stop_with (NULL:
 * stop at ply 2). */
static uint64_t build_ranked_with(const game *g, const char *dir, int pieces, int ranks, tb_build_options o,
                                  int stop_rank, const struct tb_testing *stop_with, int *rc)
{
    hub h = { .size = ranks };
    member m[MAX_RANKS];
    pthread_t t[MAX_RANKS];
    pthread_barrier_init(&h.bar, NULL, (unsigned)ranks);
    for (int r = 0; r < ranks; r++) {
        m[r] = (member){ .h = &h, .g = g, .dir = dir, .pieces = pieces, .o = o };
        m[r].r = (tb_ranks){ .rank = r, .size = ranks, .ctx = &m[r], .alltoall = loop_alltoall,
                             .allreduce = loop_allreduce };
        if (o.testing)
            m[r].knobs = *o.testing;
        if (r == stop_rank && stop_with)
            m[r].knobs = *stop_with;
        else if (r == stop_rank)
            m[r].knobs.stop_at_ply = 2;
        m[r].o.testing = &m[r].knobs;
        pthread_create(&t[r], NULL, member_build, &m[r]);
    }
    for (int r = 0; r < ranks; r++) {
        pthread_join(t[r], NULL);
        rc[r] = m[r].rc;
        if (m[r].rc < 0)
            printf("\nrank %d: %s\n", r, m[r].err);
    }
    pthread_barrier_destroy(&h.bar);
    return h.calls;
}

/* Whether every table of g to `pieces` pieces is the same file in a and b. */
static int same_tables(const game *g, int pieces, const char *a, const char *b)
{
    int mats[256], n = game_tables(g)->materials(g, pieces, mats, 256), same = n > 0;
    for (int i = 0; i < n; i++) {
        char pa[512], pb[512];
        tb_path(g, a, mats[i], pa, sizeof pa);
        tb_path(g, b, mats[i], pb, sizeof pb);
        if (access(pb, F_OK) != 0 || !test_files_equal(pa, pb)) {
            printf("\n%s differs\n", pb);
            same = 0;
        }
    }
    return same;
}

/* g's tables to `pieces` built alone into a directory, then by 1, 2, 4 and
 * 3 ranks (configurations [first, end) of these) of 2, 1, 2 and 1 threads,
 * every table shared, in blocks of 256 entries (so every rank owns some of
 * even a small table and the twins ask across ranks), with options o: the
 * same files. */
static void check_ranked(const char *spec, int pieces, tb_build_options o, int first, int end)
{
    game *g = test_open(spec, NULL);
    char alone[128], dir[160];
    snprintf(alone, sizeof alone, "/tmp/pnsolve-ranks-%d", (int)getpid());
    tb_build_options a = o;
    a.threads = 2;
    char err[512];
    CU_ASSERT_EQUAL_FATAL(tb_build(g, alone, pieces, &a, err, sizeof err), 0);
    static const int ranks[] = { 1, 2, 4, 3 }, threads[] = { 2, 1, 2, 1 };
    for (int k = first; k < end; k++) {
        snprintf(dir, sizeof dir, "%s-%d", alone, ranks[k]);
        tb_build_options r = o;
        r.threads = threads[k];
        struct tb_testing knobs = o.testing ? *o.testing : (struct tb_testing){ 0 };
        knobs.owner_block_log2 = 8;
        r.testing = &knobs;
        r.whole_below = -1;
        int rc[MAX_RANKS];
        uint64_t calls = build_ranked(g, dir, pieces, ranks[k], r, -1, rc);
        for (int i = 0; i < ranks[k]; i++)
            CU_ASSERT_EQUAL(rc[i], 0);
        CU_ASSERT(calls > 10);
        CU_ASSERT(same_tables(g, pieces, alone, dir));
        CU_ASSERT_EQUAL(test_remove_dir(dir), 0);
    }
    CU_ASSERT_EQUAL(test_remove_dir(alone), 0);
    game_close(g);
}

static void test_jungle_ranked(void)
{
    check_ranked("jungle", 3, (tb_build_options){ 0 }, 0, 4);
    /* distances past 5 in the Judy array, compressed files */
    check_ranked("jungle", 3, (tb_build_options){ .testing = &(struct tb_testing){ .long_from = 6 }, .compress = 1 }, 3, 4);
}

static void test_ostle_ranked(void) { check_ranked("ostle:3x3", 6, (tb_build_options){ 0 }, 0, 4); }

/* One rank asked to stop: every rank stops (none waits for the others),
 * with no file of the table under way; built again, the same tables as
 * one process. */
static void test_stop_agreed(void)
{
    game *g = test_open("jungle", NULL);
    char dir[64], alone[128];
    snprintf(dir, sizeof dir, "/tmp/pnsolve-ranks-stop-%d", (int)getpid());
    snprintf(alone, sizeof alone, "%s-alone", dir);
    int rc[MAX_RANKS];
    tb_build_options o = { .threads = 1, .testing = &(struct tb_testing){ .owner_block_log2 = 8 }, .whole_below = -1 };
    build_ranked(g, dir, 3, 3, o, 1, rc);
    for (int r = 0; r < 3; r++)
        CU_ASSERT_EQUAL(rc[r], 1);
    build_ranked(g, dir, 3, 3, o, -1, rc);
    for (int r = 0; r < 3; r++)
        CU_ASSERT_EQUAL(rc[r], 0);
    char err[512];
    CU_ASSERT_EQUAL_FATAL(tb_build(g, alone, 3, &o, err, sizeof err), 0);
    CU_ASSERT(same_tables(g, 3, alone, dir));
    CU_ASSERT_EQUAL(test_remove_dir(dir), 0);
    CU_ASSERT_EQUAL(test_remove_dir(alone), 0);
    game_close(g);
}

/* Saves across ranks: one rank stopped inside a ply's wins pass stops them
 * all, each saving its share, and a manifest names the save; built again
 * on the same ranks it goes on from there to the files of one process.
 * Other ranks or threads are refused by name, a share no manifest names
 * is ignored. */
static void test_saves_across_ranks(void)
{
    game *g = test_open("jungle", NULL);
    char dir[64], alone[128], err[512], manifest[320];
    snprintf(dir, sizeof dir, "/tmp/pnsolve-ranks-save-%d", (int)getpid());
    snprintf(alone, sizeof alone, "%s-alone", dir);
    struct tb_testing base = { .owner_block_log2 = 8 };
    tb_build_options o = { .threads = 1, .testing = &base, .whole_below = -1 };
    CU_ASSERT_EQUAL_FATAL(tb_build(g, alone, 3, &o, err, sizeof err), 0);
    o.save_every = 1e9;  /* saves on a stop alone: a save a ply syncs dozens of files (tests/mpi_tables.sh has those) */
    char *text = NULL;
    size_t len = 0;
    int rc[MAX_RANKS];
    /* rank 1 alone stopped after two blocks of ply 3's wins (RETRO_WINS) */
    struct tb_testing stop = { .owner_block_log2 = 8, .stop_at = 2, .stop_in_ply = 3, .stop_blocks = 2 };
    o.log = open_memstream(&text, &len);
    build_ranked_with(g, dir, 3, 3, o, 1, &stop, rc);
    fclose(o.log);
    for (int r = 0; r < 3; r++)
        CU_ASSERT_EQUAL(rc[r], 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, ": saved in ply 3, part way through its wins"));
    char *name = strstr(text, ": saved in ply 3");
    CU_ASSERT_PTR_NOT_NULL_FATAL(name);
    while (name > text && name[-1] != '\n')
        name--;
    char material[16] = "";
    sscanf(name, "%15[^:]", material);
    free(text);
    char path[300];
    snprintf(path, sizeof path, "%s/jungle-%s.pntb.save", dir, material);
    snprintf(manifest, sizeof manifest, "%s.manifest", path);
    CU_ASSERT_EQUAL(access(manifest, F_OK), 0);
    /* another number of ranks, or of threads: refused, naming it */
    build_ranked(g, dir, 3, 2, o, -1, rc);
    CU_ASSERT_EQUAL(rc[0], -1);
    tb_build_options t2 = o;
    t2.threads = 2;
    build_ranked(g, dir, 3, 3, t2, -1, rc);
    CU_ASSERT_EQUAL(rc[0], -1);
    /* a half-written save (a share of the next generation, no manifest naming it) is ignored */
    char stray[360];
    snprintf(stray, sizeof stray, "%s.g2.r0", path);
    FILE *junk = fopen(stray, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(junk);
    fputs("half-written", junk);
    fclose(junk);
    /* the same ranks: on from the save, to the files of one process */
    text = NULL;
    o.log = open_memstream(&text, &len);
    build_ranked(g, dir, 3, 3, o, -1, rc);
    fclose(o.log);
    for (int r = 0; r < 3; r++)
        CU_ASSERT_EQUAL(rc[r], 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, ": going on from its build saved in ply 3, part way through its wins"));
    free(text);
    CU_ASSERT(same_tables(g, 3, alone, dir));
    CU_ASSERT_NOT_EQUAL(access(manifest, F_OK), 0);  /* removed with the shares once the table is written */
    CU_ASSERT_EQUAL(test_remove_dir(dir), 0);
    CU_ASSERT_EQUAL(test_remove_dir(alone), 0);
    game_close(g);
}

void suite_tb_ranks(void)
{
    CU_pSuite s = CU_add_suite("tb ranks", NULL, NULL);
    CU_add_test(s, "the owned blocks of every rank cover the index once, in order", test_partition);
    CU_add_test(s, "Jungle to 3 pieces on 1, 2, 3 and 4 ranks: the files of one process", test_jungle_ranked);
    CU_add_test(s, "Ostle 3x3 to 6 pieces on 1, 2, 3 and 4 ranks: the files of one process", test_ostle_ranked);
    CU_add_test(s, "one rank stopped stops every rank; built again, the same files", test_stop_agreed);
    CU_add_test(s, "saves across ranks: a stop inside a pass saved by every rank, resumed on the same ranks to the same "
                   "files; other ranks or threads refused", test_saves_across_ranks);
}
