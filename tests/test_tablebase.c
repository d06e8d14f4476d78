/* tests/test_tablebase.c - the retrograde builder against a brute-force
 * solver written here: the naive reference rules (tests/ref_jungle.c), no
 * ranking, no symmetry (an array over every placement and side), and full
 * sweeps ply after ply until nothing changes.  Every position of several 2-
 * and 3-piece materials of both variants must get the same value and
 * distance from the built tables; then corrupt files must be refused. */
#include "ref.h"
#include "suites.h"
#include "../tbbuild/tb_testing.h"
#include "../tablebase/tablebase.h"
#include "../tbbuild/tbbuild.h"
#include "../tblayers/tblayers.h"
#include "../tbreach/tbreach.h"
#include "../tbfile/tbfile.h"
#include "../tbfile/tbfile.h"  /* a file of long distances, written directly */

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char letters[] = "RrDdTtEe";

/* The 47 squares that are not dens, in square order (not ranking's). */
static int cell_square[47], square_cell[49];

static void init_cells(void)
{
    int n = 0;
    for (int sq = 0; sq < 49; sq++) {
        square_cell[sq] = -1;
        if (sq != 3 && sq != 45) {
            square_cell[sq] = n;
            cell_square[n++] = sq;
        }
    }
}

typedef struct {
    unsigned mask;       /* pieces (bit p) */
    int n, piece[8];
    size_t size;         /* 2 * 47^n */
    signed char *wdl;    /* 1 win, -1 loss, 0 draw/unknown, for the side to move */
    short *dist;
} naive_table;

static void jfen_of(const int *square_of_piece, int side, char *out)
{
    char grid[49] = { 0 };
    for (int p = 0; p < 8; p++)
        if (square_of_piece[p] >= 0)
            grid[square_of_piece[p]] = letters[p];
    ref_jungle_jfen(grid, side, out);
}

/* Squares of each piece from a JFEN (-1 absent); returns the side to move. */
static int read_jfen(const char *t, int *square_of_piece)
{
    for (int p = 0; p < 8; p++)
        square_of_piece[p] = -1;
    int rank = 6, file = 0;
    for (; *t != ' '; t++) {
        if (*t == '/') { rank--; file = 0; }
        else if (isdigit((unsigned char)*t)) file += *t - '0';
        else square_of_piece[strchr(letters, *t) - letters] = rank * 7 + file++;
    }
    return t[1] == 'b';
}

/* Index of a placement; -1 if two pieces share a square. */
static long naive_index(const naive_table *t, const int *square_of_piece, int side)
{
    long idx = side;
    for (int i = 0; i < t->n; i++)
        idx = idx * 47 + square_cell[square_of_piece[t->piece[i]]];
    return idx;
}

static void naive_position(const naive_table *t, long idx, int *square_of_piece, int *side)
{
    for (int p = 0; p < 8; p++)
        square_of_piece[p] = -1;
    for (int i = t->n - 1; i >= 0; i--) {
        square_of_piece[t->piece[i]] = cell_square[idx % 47];
        idx /= 47;
    }
    *side = (int)idx;
}

static int valid(const naive_table *t, const int *square_of_piece)
{
    for (int i = 0; i < t->n; i++)
        for (int j = i + 1; j < t->n; j++)
            if (square_of_piece[t->piece[i]] == square_of_piece[t->piece[j]])
                return 0;
    return 1;
}

typedef struct { int kind; long ref; int wdl, dist; } option;  /* kind 0: value known; 1: same table */

static naive_table *naive_solve(unsigned mask, int classic);

static int value_of(unsigned mask, int classic, const int *square_of_piece, int side, int *dist)
{
    naive_table *t = naive_solve(mask, classic);
    long i = naive_index(t, square_of_piece, side);
    *dist = t->dist[i];
    return t->wdl[i];
}

static naive_table *naive_solve(unsigned mask, int classic)
{
    static naive_table *cache[2][256];  /* per variant; kept for the whole run */
    if (cache[classic][mask])
        return cache[classic][mask];
    naive_table *t = calloc(1, sizeof *t);
    t->mask = mask;
    for (int p = 0; p < 8; p++)
        if (mask >> p & 1)
            t->piece[t->n++] = p;
    t->size = 2;
    for (int i = 0; i < t->n; i++)
        t->size *= 47;
    t->wdl = calloc(t->size, 1);
    t->dist = calloc(t->size, sizeof *t->dist);
    cache[classic][mask] = t;
    /* Every position's options, once. */
    option **opts = calloc(t->size, sizeof *opts);
    int *nopts = calloc(t->size, sizeof *nopts);
    ref_child *kids = malloc(sizeof(ref_child) * REF_MAX);
    for (long i = 0; i < (long)t->size; i++) {
        int sq[8], side, csq[8];
        naive_position(t, i, sq, &side);
        if (!valid(t, sq))
            continue;
        char fen[80], result;
        jfen_of(sq, side, fen);
        int n = ref_jungle_children(fen, classic, kids, &result);
        opts[i] = calloc((size_t)n + 1, sizeof(option));
        nopts[i] = n;
        for (int k = 0; k < n; k++) {
            int cside = read_jfen(kids[k].after, csq);
            unsigned cmask = 0;
            int on_den = 0;
            for (int p = 0; p < 8; p++)
                if (csq[p] >= 0) {
                    cmask |= 1u << p;
                    on_den |= csq[p] == 3 || csq[p] == 45;
                }
            option *o = &opts[i][k];
            if (on_den || !(cmask & (cside ? 0xAA : 0x55))) {
                *o = (option){ 0, 0, 1, 1 };  /* the move ends the game: a win */
            } else if (cmask == mask) {
                *o = (option){ 1, naive_index(t, csq, cside), 0, 0 };
            } else {
                int d, w = value_of(cmask, classic, csq, cside, &d);
                *o = (option){ 0, 0, -w, w ? d + 1 : 0 };
            }
        }
    }
    free(kids);
    int longest_outside = 0;
    for (long i = 0; i < (long)t->size; i++)
        for (int j = 0; opts[i] && j < nopts[i]; j++)
            if (opts[i][j].kind == 0 && opts[i][j].dist > longest_outside)
                longest_outside = opts[i][j].dist;
    /* Sweeps: at ply k, a win in k needs an option winning in k; a loss in k
     * needs every option known lost, the longest in k. */
    int quiet = 0;
    for (int k = 1; quiet < 2 || k <= longest_outside; k++) {
        int changed = 0;
        for (long i = 0; i < (long)t->size; i++) {
            if (!opts[i] || t->wdl[i] || nopts[i] == 0)
                continue;
            int win = 0, all_lost = 1, longest = 0;
            for (int j = 0; j < nopts[i]; j++) {
                option *o = &opts[i][j];
                int w = o->wdl, d = o->dist;
                if (o->kind == 1) {
                    w = -t->wdl[o->ref];
                    d = w ? t->dist[o->ref] + 1 : 0;
                }
                if (w == 1 && d == k)
                    win = 1;
                if (w != -1)
                    all_lost = 0;
                else if (d > longest)
                    longest = d;
            }
            if (win) {
                t->wdl[i] = 1;
                t->dist[i] = (short)k;
                changed = 1;
            } else if (all_lost && longest == k) {
                t->wdl[i] = -1;
                t->dist[i] = (short)k;
                changed = 1;
            }
        }
        quiet = changed ? 0 : quiet + 1;
    }
    for (long i = 0; i < (long)t->size; i++)
        free(opts[i]);
    free(opts);
    free(nopts);
    return t;
}

static char tb_dir[64];

static void compare_material(const char *name, int classic)
{
    unsigned mask = 0;
    for (const char *c = name; *c; c++)
        mask |= 1u << (strchr(letters, *c) - letters);
    naive_table *t = naive_solve(mask, classic);
    game *g = test_open("jungle", classic ? "classic" : NULL);
    tb_set *tb = tb_open_lazy(g, tb_dir);
    long checked = 0, wrong = 0, wins = 0, losses = 0;
    for (long i = 0; i < (long)t->size; i++) {
        int sq[8], side;
        naive_position(t, i, sq, &side);
        if (!valid(t, sq))
            continue;
        char fen[80], err[256];
        jfen_of(sq, side, fen);
        game_state s = test_parse(g, fen);
        tb_value v;
        int rc = tb_probe(tb, &s, &v, err, sizeof err);
        CU_ASSERT_EQUAL_FATAL(rc, 1);
        int want = t->wdl[i], have = v.wdl == TB_WIN ? 1 : v.wdl == TB_LOSS ? -1 : 0;
        int bad = want != have || (want && t->dist[i] != v.distance);
        if (bad && wrong++ < 3)
            printf("\n%s (%s): naive %d/%d, table %d/%d\n", fen, classic ? "classic" : "thesis", want, t->dist[i], have,
                   v.distance);
        wins += want == 1;
        losses += want == -1;
        checked++;
    }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT(checked > 0 && wins > 0 && losses > 0);  /* a real test: both outcomes occur */
    tb_close(tb);
    game_close(g);
}

static int build_into(const char *dir, int classic, int pieces, int threads)
{
    game *g = test_open("jungle", classic ? "classic" : NULL);
    tb_build_options o = { .threads = threads };
    char err[512];
    int rc = tb_build(g, dir, pieces, &o, err, sizeof err);
    if (rc)
        printf("\nbuild failed: %s\n", err);
    game_close(g);
    return rc;
}

static void test_against_brute_force(void)
{
    static const char *const materials[] = { "Rr", "rD", "Ee", "Re", "rE", "RrE", "Rre", "rDT", "TtE", "dTe", "REe" };
    init_cells();
    for (int classic = 0; classic < 2; classic++) {
        snprintf(tb_dir, sizeof tb_dir, "/tmp/pnsolve-tb-test-%d-%d", (int)getpid(), classic);
        CU_ASSERT_EQUAL_FATAL(build_into(tb_dir, classic, 3, 2), 0);
        for (size_t i = 0; i < sizeof materials / sizeof materials[0]; i++)
            compare_material(materials[i], classic);
    }
    /* Classic tables built beside the default ones copy those the variants
     * share; the brute force and the tables built alone agree with them. */
    snprintf(tb_dir, sizeof tb_dir, "/tmp/pnsolve-tb-test-%d-0", (int)getpid());
    game *g = test_open("jungle", "classic");
    char *log_text = NULL, err[512];
    size_t log_len = 0;
    FILE *log = open_memstream(&log_text, &log_len);
    tb_build_options o = { .threads = 2, .log = log };
    CU_ASSERT_EQUAL_FATAL(tb_build(g, tb_dir, 3, &o, err, sizeof err), 0);
    fclose(log);
    int mats[64], n = game_tables(g)->materials(g, 3, mats, 64), shared = 0, copied = 0;
    for (int i = 0; i < n; i++) {
        char alone[256], beside[256], other[64];
        snprintf(other, sizeof other, "/tmp/pnsolve-tb-test-%d-1", (int)getpid());
        tb_path(g, other, mats[i], alone, sizeof alone);
        tb_path(g, tb_dir, mats[i], beside, sizeof beside);
        CU_ASSERT(test_files_equal(alone, beside));
        shared += game_tb_build(game_tables(g))->same_table_as(g, mats[i]) != NULL || game_tb_build(game_tables(g))->same_values_as(g, mats[i]) >= 0;
    }
    for (char *at = log_text; (at = strstr(at, "copied ")) != NULL; at++)
        copied++;
    CU_ASSERT_EQUAL(copied, shared);
    CU_ASSERT(shared > 0 && shared < n);
    free(log_text);
    for (size_t i = 0; i < sizeof materials / sizeof materials[0]; i++)
        compare_material(materials[i], 1);
    game_close(g);
}

/* Flips the bits 0x41 of the byte at offset from whence in the file. */
static void flip_byte(const char *path, long offset, int whence)
{
    FILE *f = fopen(path, "r+b");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fseek(f, offset, whence);
    int c = fgetc(f);
    fseek(f, offset, whence);
    fputc(c ^ 0x41, f);
    fclose(f);
}

/* A probe of an RrE position in dir fails with an error containing why. */
static void expect_rre_refused(game *g, const char *dir, const char *why)
{
    char err[512];
    tb_set *t = tb_open_lazy(g, dir);
    game_state s = test_parse(g, "7/7/7/3r3/7/1E5/R6 w");
    tb_value v;
    CU_ASSERT_EQUAL(tb_probe(t, &s, &v, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, why));
    tb_close(t);
}

/* The thread count changes nothing; verify agrees; damage is refused. */
static void test_files(void)
{
    char one[64], path1[256], path2[256], err[512];
    snprintf(one, sizeof one, "/tmp/pnsolve-tb-test-%d-t1", (int)getpid());
    CU_ASSERT_EQUAL_FATAL(build_into(one, 0, 3, 1), 0);
    snprintf(tb_dir, sizeof tb_dir, "/tmp/pnsolve-tb-test-%d-0", (int)getpid());
    game *g = test_open("jungle", NULL);
    int mats[64], n = game_tables(g)->materials(g, 3, mats, 64);
    for (int i = 0; i < n; i++) {
        tb_path(g, one, mats[i], path1, sizeof path1);
        tb_path(g, tb_dir, mats[i], path2, sizeof path2);
        CU_ASSERT(test_files_equal(path1, path2));
    }
    /* Values past a byte's reach (here from distance 3 on) live beside the
     * cells: the same files. */
    char far[64];
    snprintf(far, sizeof far, "/tmp/pnsolve-tb-test-%d-long", (int)getpid());
    tb_build_options lo = { .threads = 2, .testing = &(struct tb_testing){ .long_from = 3 } };
    CU_ASSERT_EQUAL_FATAL(tb_build(g, far, 3, &lo, err, sizeof err), 0);
    int longest = 0;
    for (int i = 0; i < n; i++) {
        tb_path(g, far, mats[i], path1, sizeof path1);
        tb_path(g, tb_dir, mats[i], path2, sizeof path2);
        CU_ASSERT(test_files_equal(path1, path2));
        tb_stats st;
        CU_ASSERT_EQUAL(tb_table_stats(g, far, mats[i], &st, err, sizeof err), 0);
        longest = st.max_distance > longest ? st.max_distance : longest;
    }
    CU_ASSERT(longest > 10);  /* the path is used: many values are long */
    FILE *devnull = fopen("/dev/null", "w");
    CU_ASSERT_EQUAL(tb_verify(g, one, 2, devnull, err, sizeof err), 0);

    /* Flip one byte of entries: the checksum catches it, probing refuses. */
    int mat = game_tables(g)->material_parse(g, "RrE");
    tb_path(g, one, mat, path1, sizeof path1);
    flip_byte(path1, 256 + 1000, SEEK_SET);
    CU_ASSERT(tb_verify(g, one, 2, devnull, err, sizeof err) > 0);
    expect_rre_refused(g, one, "jungle-RrE.pntb");
    /* Truncated: refused; the builder moves it aside and builds it again,
     * identical.  A file that is not a table is refused, left as it is. */
    CU_ASSERT_EQUAL(truncate(path1, 300), 0);
    expect_rre_refused(g, one, "truncated");
    tb_build_options o = { .threads = 2 };
    CU_ASSERT_EQUAL(tb_build(g, one, 3, &o, err, sizeof err), 0);
    tb_path(g, tb_dir, mat, path2, sizeof path2);
    CU_ASSERT(test_files_equal(path1, path2));
    char aside[300];
    snprintf(aside, sizeof aside, "%s.damaged", path1);
    struct stat st;
    CU_ASSERT(stat(aside, &st) == 0 && st.st_size == 300);
    CU_ASSERT_EQUAL(rename(path1, aside), 0);
    FILE *junk = fopen(path1, "w");
    CU_ASSERT_FATAL(junk != NULL);
    for (int i = 0; i < 400; i++)
        fputc('j', junk);
    fclose(junk);
    CU_ASSERT_EQUAL(tb_build(g, one, 3, &o, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "not a pnsolve table (remove it to build it again)"));
    CU_ASSERT(stat(path1, &st) == 0 && st.st_size == 400);
    /* Removed: rebuilt, identical; a table of the other variant is refused. */
    unlink(path1);
    CU_ASSERT_EQUAL(tb_build(g, one, 3, &o, err, sizeof err), 0);
    CU_ASSERT(test_files_equal(path1, path2));
    game *classic = test_open("jungle", "classic");
    char cpath[256];
    tb_path(classic, one, mat, cpath, sizeof cpath);
    CU_ASSERT_EQUAL(rename(path1, cpath), 0);
    expect_rre_refused(classic, one, "another game or variant");
    game_close(classic);
    fclose(devnull);
    game_close(g);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf /tmp/pnsolve-tb-test-%d-*", (int)getpid());
    CU_ASSERT_EQUAL(system(cmd), 0);
}

static int contains(const uint64_t *v, int n, uint64_t x)
{
    for (int i = 0; i < n; i++)
        if (v[i] == x)
            return 1;
    return 0;
}

/* successors() is the set of indexed same-material children from the move
 * generator; unmoves() is its exact inverse; the _index forms agree with
 * them. */
static void test_tb_ops(void)
{
    unsigned long long seed = 77;
    for (int classic = 0; classic < 2; classic++) {
        game *g = test_open("jungle", classic ? "classic" : NULL);
        const game_tb_ops *ops = game_tables(g);
        long checked = 0, bad = 0;
        while (checked < 20000) {
            int sq[8], used[49] = { 0 }, have[2] = { 0, 0 };
            for (int p = 0; p < 8; p++) {
                sq[p] = -1;
                if (ref_rand(&seed) % 2)
                    continue;
                int x;
                do x = (int)(ref_rand(&seed) % 49); while (used[x] || x == 3 || x == 45);
                used[x] = 1;
                sq[p] = x;
                have[p & 1] = 1;
            }
            if (!have[0] || !have[1])
                continue;
            char fen[80];
            jfen_of(sq, (int)(ref_rand(&seed) % 2), fen);
            game_state s = test_parse(g, fen);
            int mat = ops->material_of(g, &s);
            uint64_t succ[GAME_MAX_MOVES], want[GAME_MAX_MOVES], pred[GAME_MAX_MOVES], back[GAME_MAX_MOVES];
            game_move moves[GAME_MAX_MOVES];
            int ns = ops->successors(g, test_index_of(g, &s), &s, succ), nw = 0, n = game_moves(g, &s, moves);
            game_move exits[GAME_MAX_MOVES];
            int stays, ne = game_tb_build(ops)->exits(g, &s, exits, &stays), nleave = 0, ok = 1;
            for (int m = 0; m < n; m++) {
                game_state t = s;
                game_play(g, &t, moves[m]);
                if (ops->material_of(g, &t) == mat) {
                    if (!contains(want, nw, ops->index(g, test_index_of(g, &t), &t)))
                        want[nw++] = ops->index(g, test_index_of(g, &t), &t);
                    continue;
                }
                /* a move that leaves the table is among the exits, in order */
                ok = ok && nleave < ne && exits[nleave++] == moves[m];
            }
            ok = ok && ne == nleave && stays == nw;
            ok = ok && ns == nw;
            for (int i = 0; i < nw && ok; i++)
                ok = contains(succ, ns, want[i]);
            uint64_t self = ops->index(g, test_index_of(g, &s), &s);
            for (int i = 0; i < ns && ok; i++) {  /* every child has s among its predecessors */
                game_state c;
                ops->unindex(g, test_index(g, mat), mat, succ[i], &c);
                int np = ops->unmoves(g, test_index_of(g, &c), &c, pred);
                ok = contains(pred, np, self);
            }
            int np = ops->unmoves(g, test_index_of(g, &s), &s, pred);
            for (int i = 0; i < np && ok; i++) {  /* every predecessor has s among its children */
                game_state u;
                ops->unindex(g, test_index(g, mat), mat, pred[i], &u);
                int nb = ops->successors(g, test_index_of(g, &u), &u, back);
                ok = contains(back, nb, self);
            }
            /* the index forms give the same lists for the position's own index */
            game_state canon;
            ops->unindex(g, test_index(g, mat), mat, self, &canon);
            int nu = ops->unmoves(g, test_index_of(g, &canon), &canon, pred), nui = game_tb_build(ops)->unmoves_index(g, test_index(g, mat), mat, self, back);
            ok = ok && nu == nui && memcmp(pred, back, sizeof *pred * (size_t)nu) == 0;
            int nc = ops->successors(g, test_index_of(g, &canon), &canon, succ), nci = game_tb_build(ops)->successors_index(g, test_index(g, mat), mat, self, back);
            ok = ok && nc == nci && memcmp(succ, back, sizeof *succ * (size_t)nc) == 0;
            if (!ok && bad++ < 3)
                printf("\ntb ops disagree at %s\n", fen);
            checked++;
        }
        CU_ASSERT_EQUAL(bad, 0);
        int mats[64], nm = ops->materials(g, 3, mats, 64);
        for (int i = 0; i < nm; i++)
            CU_ASSERT_EQUAL(test_each_mismatches(g, mats[i]), 0);
        game_close(g);
    }
}

/* Every value of material mat in dirs a and b, by hash and by probes of
 * random indices (which go through the block cache of a compressed file:
 * of one block, of the default 4 MB, of 64 MB). */
static void same_values(game *g, const char *a, const char *b, int mat)
{
    char err[512], ha[TB_HASH_HEX], hb[TB_HASH_HEX];
    tb_set *ta = tb_open_lazy(g, a), *tb = tb_open_lazy(g, b);
    CU_ASSERT_EQUAL(tb_hash(ta, mat, ha, err, sizeof err), 1);
    CU_ASSERT_EQUAL(tb_hash(tb, mat, hb, err, sizeof err), 1);
    CU_ASSERT_STRING_EQUAL(ha, hb);
    uint64_t size = game_tables(g)->size(g, test_index(g, mat), mat), x = 88172645463325252ULL;
    static const size_t cache[] = { 0, 4 << 20, 64 << 20 };
    for (int k = 0; k < 3000; k++) {
        if (k % 1000 == 0)
            tb_set_cache_size(ta, cache[k / 1000]), tb_set_cache_size(tb, cache[k / 1000]);
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        game_state s;
        game_tables(g)->unindex(g, test_index(g, mat), mat, x % size, &s);
        tb_value va, vb;
        CU_ASSERT_EQUAL(tb_probe(ta, &s, &va, err, sizeof err), 1);
        CU_ASSERT_EQUAL(tb_probe(tb, &s, &vb, err, sizeof err), 1);
        CU_ASSERT(va.wdl == vb.wdl && va.distance == vb.distance);
    }
    tb_close(ta);
    tb_close(tb);
}

/* Probes every index of mat in dir against the intact tables of good:
 * 1 if some are refused as damaged and every other agrees, 0 if none is
 * refused, -1 if a value differs or another error comes. */
static int damaged_probes(game *g, const char *good, const char *dir, int mat)
{
    char err[512];
    tb_set *ta = tb_open_lazy(g, good), *tb = tb_open_lazy(g, dir);
    int refused = 0, wrong = 0;
    for (uint64_t i = 0; i < game_tables(g)->size(g, test_index(g, mat), mat) && !wrong; i++) {
        game_state s;
        game_tables(g)->unindex(g, test_index(g, mat), mat, i, &s);
        if (game_result_of(g, &s) != GAME_ONGOING)
            continue;
        tb_value va, vb;
        int rc = tb_probe(tb, &s, &vb, err, sizeof err);
        if (rc == -1 && strstr(err, "damaged file"))
            refused++;
        else
            wrong = rc != 1 || tb_probe(ta, &s, &va, err, sizeof err) != 1 || va.wdl != vb.wdl ||
                    va.distance != vb.distance;
    }
    tb_close(ta);
    tb_close(tb);
    return wrong ? -1 : refused > 0;
}

/* Whether the text written to f holds what. */
static int report_has(FILE *f, const char *what)
{
    char line[512];
    rewind(f);
    while (fgets(line, sizeof line, f))
        if (strstr(line, what))
            return 1;
    return 0;
}

/* The hash of material mat in dir, from a set that keeps hash files or not. */
static void hash_of(game *g, const char *dir, int mat, int files, char hex[TB_HASH_HEX])
{
    char err[512];
    tb_set *t = tb_open_lazy(g, dir);
    if (files)
        tb_set_hash_files(t);
    CU_ASSERT_EQUAL(tb_hash(t, mat, hex, err, sizeof err), 1);
    tb_close(t);
}

/* A hash file is made beside the table and read back; one changed is what
 * a set keeping hash files answers (it is read, not made again) and not
 * what a plain set answers (a checker's); one made for another header is
 * ignored and made again. */
static void hash_files(game *g, const char *dir, int mat)
{
    char table[256], path[300], real[TB_HASH_HEX], hex[TB_HASH_HEX];
    tb_path(g, dir, mat, table, sizeof table);
    snprintf(path, sizeof path, "%s.b2", table);
    remove(path);
    hash_of(g, dir, mat, 0, real);
    CU_ASSERT(access(path, F_OK) != 0);
    hash_of(g, dir, mat, 1, hex);
    CU_ASSERT_STRING_EQUAL(hex, real);
    CU_ASSERT_FATAL(access(path, F_OK) == 0);
    flip_byte(path, -1, SEEK_END);  /* the hash's last byte */
    hash_of(g, dir, mat, 1, hex);
    CU_ASSERT_STRING_NOT_EQUAL(hex, real);
    CU_ASSERT_EQUAL(strncmp(hex, real, TB_HASH_HEX - 3), 0);
    hash_of(g, dir, mat, 0, hex);
    CU_ASSERT_STRING_EQUAL(hex, real);
    flip_byte(path, 8 + 100, SEEK_SET);  /* the header it names */
    hash_of(g, dir, mat, 1, hex);
    CU_ASSERT_STRING_EQUAL(hex, real);
    hash_of(g, dir, mat, 1, hex);  /* from the file made again */
    CU_ASSERT_STRING_EQUAL(hex, real);
    remove(path);
}

/* Compressed blocks: the same values as the plain files, built directly or
 * converted; tables built on compressed smaller ones are the same files;
 * a damaged block is refused. */
static void test_compressed(void)
{
    char packed[64], mixed[64], path[256], path2[256], err[512];
    snprintf(tb_dir, sizeof tb_dir, "/tmp/pnsolve-tb-test-%d-0", (int)getpid());
    snprintf(packed, sizeof packed, "/tmp/pnsolve-tb-test-%d-packed", (int)getpid());
    snprintf(mixed, sizeof mixed, "/tmp/pnsolve-tb-test-%d-mixed", (int)getpid());
    game *g = test_open("jungle", NULL);
    tb_build_options all = { .threads = 2, .compress = 1 }, none = { .threads = 2, .compress = -1 };
    CU_ASSERT_EQUAL_FATAL(tb_build(g, packed, 3, &all, err, sizeof err), 0);
    int mats[64], n = game_tables(g)->materials(g, 3, mats, 64), two = game_tables(g)->materials(g, 2, mats, 64);
    for (int i = 0; i < n; i++)
        same_values(g, tb_dir, packed, mats[i]);
    /* hashed ahead on two threads, with a material the directory lacks
     * among them: the hashes one at a time */
    tb_set *ahead = tb_open_lazy(g, packed), *one = tb_open_lazy(g, tb_dir);
    int wanted[65];
    memcpy(wanted, mats, sizeof *mats * (size_t)n);
    wanted[n] = game_tables(g)->material_parse(g, "RrDd");
    tb_hash_ahead(ahead, wanted, n + 1, 2);
    for (int i = 0; i < n; i++) {
        char ha[TB_HASH_HEX], hb[TB_HASH_HEX];
        CU_ASSERT_EQUAL(tb_hash(ahead, mats[i], ha, err, sizeof err), 1);
        CU_ASSERT_EQUAL(tb_hash(one, mats[i], hb, err, sizeof err), 1);
        CU_ASSERT_STRING_EQUAL(ha, hb);
    }
    char absent[TB_HASH_HEX];
    CU_ASSERT_EQUAL(tb_hash(ahead, wanted[n], absent, err, sizeof err), 0);
    tb_close(ahead);
    tb_close(one);
    hash_files(g, packed, mats[n - 1]);
    FILE *devnull = fopen("/dev/null", "w");
    CU_ASSERT_EQUAL(tb_verify(g, packed, 2, devnull, err, sizeof err), 0);
    /* Three pieces on compressed two-piece tables: the plain files. */
    CU_ASSERT_EQUAL_FATAL(tb_build(g, mixed, 2, &all, err, sizeof err), 0);
    CU_ASSERT_EQUAL_FATAL(tb_build(g, mixed, 3, &none, err, sizeof err), 0);
    for (int i = two; i < n; i++) {
        tb_path(g, mixed, mats[i], path, sizeof path);
        tb_path(g, tb_dir, mats[i], path2, sizeof path2);
        CU_ASSERT(test_files_equal(path, path2));
    }
    /* Converted: the three-piece ones, then nothing left to do. */
    CU_ASSERT_EQUAL(tb_compress(g, mixed, NULL, NULL, err, sizeof err), n - two);
    CU_ASSERT_EQUAL(tb_compress(g, mixed, NULL, NULL, err, sizeof err), 0);
    for (int i = 0; i < n; i++) {
        tb_path(g, mixed, mats[i], path, sizeof path);
        tb_path(g, packed, mats[i], path2, sizeof path2);
        CU_ASSERT(test_files_equal(path, path2));
    }
    /* One flipped byte in the last block: a probe checks only the blocks it
     * reads, so positions elsewhere keep their values and those in that
     * block are refused; verify names the block's checksum. */
    int mat = game_tables(g)->material_parse(g, "RrE");
    tb_path(g, packed, mat, path, sizeof path);
    flip_byte(path, -100, SEEK_END);
    CU_ASSERT_EQUAL(damaged_probes(g, tb_dir, packed, mat), 1);
    FILE *report = tmpfile();
    CU_ASSERT(tb_verify(g, packed, 2, report, err, sizeof err) > 0);
    CU_ASSERT(strstr(err, "block checksum") != NULL || report_has(report, "block checksum"));
    fclose(report);
    fclose(devnull);
    game_close(g);
}

/* Entry i of a table with every kind of value, distances to 300: draws,
 * wins and losses about the one-byte limit (126, 127) most of all. */
static tb_entry long_entry_at(const void *ctx, uint64_t i)
{
    unsigned limit = *(const unsigned *)ctx, x = (unsigned)((i * 0x9E3779B97F4A7C15ULL) >> 40);
    unsigned d = x % 4 == 0 ? 126 + x / 4 % 2 : x / 4 % (limit + 1);
    return x % 7 == 0 ? 0 : (x / 3) % 2 ? TB_WIN_IN(d ? d : 1) : TB_LOSS_IN(d);
}

/* Every table to five pieces that the builder copies from another
 * (same_values_as) had that one's values when each was built on its own:
 * the hashes of results/jungle-5-census.tsv, made before copies were. */
static void test_alike_materials(void)
{
    FILE *f = fopen("results/jungle-5-census.tsv", "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    char line[512], name[99][16], hash[99][80];
    int rows = 0;
    while (rows < 99 && fgets(line, sizeof line, f))
        if (sscanf(line, "%15s %*s %*s %*s %*s %*s %*s %*s %79s", name[rows], hash[rows]) == 2 &&
            strcmp(name[rows], "material") != 0)
            rows++;
    fclose(f);
    CU_ASSERT_EQUAL_FATAL(rows, 99);
    game *g = test_open("jungle", NULL);
    const game_tb_ops *ops = game_tables(g);
    int copies = 0, agree = 0;
    for (int i = 0; i < rows; i++) {
        int src = game_tb_build(ops)->same_values_as(g, ops->material_parse(g, name[i]));
        if (src < 0)
            continue;
        char from[32];
        ops->material_name(g, src, from, sizeof from);
        copies++;
        for (int j = 0; j < rows; j++)
            agree += strcmp(name[j], from) == 0 && strcmp(hash[j], hash[i]) == 0;
    }
    CU_ASSERT(copies >= 30);  /* 37 of the 71 to four pieces alone */
    CU_ASSERT_EQUAL(agree, copies);
    game_close(g);
}

/* A table written on three threads (blocks made in batches, out of order)
 * is the file written in index order on one, raw or compressed, 8- or
 * 16-bit; RrDE's 290 blocks make several batches. */
static void test_write_threads(void)
{
    char dir[64], one[256], three[300], err[512];
    snprintf(dir, sizeof dir, "/tmp/pnsolve-tb-test-%d-write", (int)getpid());
    mkdir(dir, 0755);
    game *g = test_open("jungle", NULL);
    int mat = game_tables(g)->material_parse(g, "RrDE");
    uint64_t n = game_tables(g)->size(g, test_index(g, mat), mat);
    tb_path(g, dir, mat, one, sizeof one);
    snprintf(three, sizeof three, "%s.three", one);
    for (int compress = 0; compress < 2; compress++)
        for (unsigned limit = 127; limit <= 300; limit += 173) {
            CU_ASSERT_EQUAL_FATAL(tb_file_write(g, one, mat, long_entry_at, &limit, n, compress, 1, err, sizeof err), 0);
            CU_ASSERT_EQUAL_FATAL(tb_file_write(g, three, mat, long_entry_at, &limit, n, compress, 3, err, sizeof err), 0);
            CU_ASSERT(test_files_equal(one, three));
            tb_file f;
            CU_ASSERT_EQUAL_FATAL(tb_file_open(g, test_indices(g), one, mat, 1, &f, err, sizeof err), 0);
            CU_ASSERT(f.h.entries == n && f.h.version == (compress ? TB_VERSION_BLOCKS : TB_VERSION_RAW));
            int same = 1;
            for (uint64_t i = 0; i < n; i += 997)
                same &= tb_file_entry(&f, i) == long_entry_at(&limit, i);
            CU_ASSERT(same);
            tb_file_close(&f);
        }
    unlink(one);
    unlink(three);
    rmdir(dir);
    game_close(g);
}

/* A compressed table decoded whole into one byte per entry (the ten-piece
 * Ostle build's room) reads back every entry as its blocks do, whether the
 * file stores 16 bits (distances past 127 kept aside) or 8. */
static void test_decoded_narrow(void)
{
    char dir[64], path[256], err[512];
    snprintf(dir, sizeof dir, "/tmp/pnsolve-tb-test-%d-narrow", (int)getpid());
    mkdir(dir, 0755);
    game *g = test_open("jungle", NULL);
    int mat = game_tables(g)->material_parse(g, "RrE");
    uint64_t n = game_tables(g)->size(g, test_index(g, mat), mat);
    tb_path(g, dir, mat, path, sizeof path);
    for (unsigned limit = 127; limit <= 300; limit += 173) {
        CU_ASSERT_EQUAL_FATAL(tb_file_write(g, path, mat, long_entry_at, &limit, n, 1, 1, err, sizeof err), 0);
        tb_file whole, blocks;
        CU_ASSERT_EQUAL_FATAL(tb_file_open(g, test_indices(g), path, mat, 1, &whole, err, sizeof err), 0);
        CU_ASSERT_EQUAL_FATAL(tb_file_open(g, test_indices(g), path, mat, 1, &blocks, err, sizeof err), 0);
        CU_ASSERT_EQUAL(whole.h.entry_bytes, limit > 127 ? 2u : 1u);
        CU_ASSERT_EQUAL_FATAL(tb_file_decode_all(&whole), 0);
        CU_ASSERT_EQUAL(whole.owned_len, (size_t)n);
        CU_ASSERT_EQUAL(whole.wide != NULL, limit > 127);
        uint64_t wrong = 0;
        for (uint64_t i = 0; i < n; i++) {
            tb_entry want = long_entry_at(&limit, i);
            wrong += tb_file_entry(&whole, i) != want || tb_file_entry(&blocks, i) != want;
        }
        CU_ASSERT_EQUAL(wrong, 0);
        tb_file_close(&whole);
        tb_file_close(&blocks);
    }
    unlink(path);
    rmdir(dir);
    game_close(g);
}

/* The entries of f against long_entry_at: how many differ. */
static uint64_t wrong_entries(const tb_file *f, unsigned limit, uint64_t n)
{
    uint64_t wrong = 0;
    for (uint64_t i = 0; i < n; i++)
        wrong += tb_file_entry(f, i) != long_entry_at(&limit, i);
    return wrong;
}

static ino_t inode_of(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? st.st_ino : 0;
}

/* Flips the byte at `at` of the file at path. */
static void damage_byte(const char *path, long at)
{
    FILE *d = fopen(path, "r+b");
    CU_ASSERT_FATAL(d != NULL);
    fseek(d, at, SEEK_SET);
    int c = fgetc(d);
    fseek(d, at, SEEK_SET);
    fputc(c ^ 0x5a, d);
    fclose(d);
}

/* --tb-decode's shared form: decoded once into "<table>.dec", mapped by the
 * next opening as it is, and made again where its header or its page sums
 * are damaged or it is another table's; a damaged page of entries is found
 * when read and read from the compressed blocks instead; every entry reads
 * back right. */
static void test_decoded_shared(void)
{
    char dir[64], path[256], dec[300], err[512];
    snprintf(dir, sizeof dir, "/tmp/pnsolve-tb-test-%d-shared", (int)getpid());
    mkdir(dir, 0755);
    game *g = test_open("jungle", NULL);
    int mat = game_tables(g)->material_parse(g, "RrE");
    uint64_t n = game_tables(g)->size(g, test_index(g, mat), mat);
    tb_path(g, dir, mat, path, sizeof path);
    snprintf(dec, sizeof dec, "%s.dec", path);
    for (unsigned limit = 127; limit <= 300; limit += 173) {
        CU_ASSERT_EQUAL_FATAL(tb_file_write(g, path, mat, long_entry_at, &limit, n, 1, 1, err, sizeof err), 0);
        tb_file f;
        /* a stale file of the other width's table is made again */
        CU_ASSERT_EQUAL_FATAL(tb_file_open(g, test_indices(g), path, mat, 1, &f, err, sizeof err), 0);
        CU_ASSERT_EQUAL_FATAL(tb_file_decode_shared(&f, path), 0);
        CU_ASSERT(f.shared != NULL && f.owned == NULL);
        CU_ASSERT_EQUAL(f.wide != NULL, limit > 127);
        CU_ASSERT_EQUAL(wrong_entries(&f, limit, n), 0);
        /* the values hash the file keeps is the one the blocks' values give */
        tb_file blocks;
        unsigned char kept[TB_HASH_BYTES], counted[TB_HASH_BYTES];
        CU_ASSERT_EQUAL_FATAL(tb_file_open(g, test_indices(g), path, mat, 1, &blocks, err, sizeof err), 0);
        CU_ASSERT(f.hash_known && !blocks.hash_known);
        CU_ASSERT_EQUAL(tb_file_hash(&f, kept), 0);
        CU_ASSERT_EQUAL(tb_file_hash(&blocks, counted), 0);
        CU_ASSERT_EQUAL(memcmp(kept, counted, TB_HASH_BYTES), 0);
        tb_file_close(&blocks);
        tb_file_close(&f);
        ino_t made = inode_of(dec);
        CU_ASSERT(made != 0);
        /* mapped as it is */
        CU_ASSERT_EQUAL_FATAL(tb_file_open(g, test_indices(g), path, mat, 1, &f, err, sizeof err), 0);
        CU_ASSERT_EQUAL_FATAL(tb_file_decode_shared(&f, path), 0);
        CU_ASSERT_EQUAL(inode_of(dec), made);
        CU_ASSERT_EQUAL(wrong_entries(&f, limit, n), 0);
        tb_file_close(&f);
        /* a byte of the entries damaged: the file is kept, the page it is
         * on is found damaged when read and read from the blocks */
        long page = 4096 + (long)(n / 2 / 4096) * 4096;
        damage_byte(dec, page + 1000);
        CU_ASSERT_EQUAL_FATAL(tb_file_open(g, test_indices(g), path, mat, 1, &f, err, sizeof err), 0);
        CU_ASSERT_EQUAL_FATAL(tb_file_decode_shared(&f, path), 0);
        CU_ASSERT_EQUAL(inode_of(dec), made);
        CU_ASSERT_EQUAL(wrong_entries(&f, limit, n), 0);
        uint64_t damaged = 0;
        for (uint64_t c = 0; c < (n + 4095) / 4096; c++)
            damaged += f.chunk_state[c] == TB_CHUNK_DAMAGED;
        CU_ASSERT_EQUAL(damaged, 1);
        CU_ASSERT_EQUAL(f.chunk_state[(page - 4096) / 4096], TB_CHUNK_DAMAGED);
        tb_file_close(&f);
        /* a byte of the page sums (the file's last), then of the header: made again */
        struct stat st;
        CU_ASSERT_EQUAL_FATAL(stat(dec, &st), 0);
        for (long at = (long)st.st_size - 3; at >= 0; at = at > 100 ? 100 : -1) {
            damage_byte(dec, at);
            made = inode_of(dec);
            CU_ASSERT_EQUAL_FATAL(tb_file_open(g, test_indices(g), path, mat, 1, &f, err, sizeof err), 0);
            CU_ASSERT_EQUAL_FATAL(tb_file_decode_shared(&f, path), 0);
            CU_ASSERT(inode_of(dec) != made);
            CU_ASSERT_EQUAL(wrong_entries(&f, limit, n), 0);
            tb_file_close(&f);
        }
    }
    unlink(dec);
    unlink(path);
    rmdir(dir);
    game_close(g);
}

/* The tables of dir whose build is saved (a .save file beside them). */
static int saved_tables(game *g, const char *dir, char *first, size_t len)
{
    int mats[64], n = game_tables(g)->materials(g, 3, mats, 64), saved = 0;
    for (int i = 0; i < n; i++) {
        char path[300];
        tb_path(g, dir, mats[i], path, sizeof path);
        strcat(path, ".save");
        if (access(path, F_OK) == 0 && saved++ == 0)
            snprintf(first, len, "%s", path);
    }
    return saved;
}

/* The text a report file holds (malloc'd). */
static char *report_text(FILE *f)
{
    long len = ftell(f);
    char *text = calloc((size_t)len + 1, 1);
    rewind(f);
    if (text && fread(text, 1, (size_t)len, f) != (size_t)len)
        text[0] = 0;
    return text;
}

/* tb_verify_table of material name in dir, stopped after stop_after
 * entries (0: never); its return and its report's text in *text. */
static long verify_watched(game *g, const char *dir, const char *name, uint64_t stop_after, char **text)
{
    char err[512];
    struct tb_testing knobs = { .stop_after = stop_after };
    tb_verify_watch w = { NULL, NULL, NULL, &knobs };
    FILE *report = tmpfile();
    long wrong = tb_verify_table(g, dir, game_tables(g)->material_parse(g, name), 2, report, &w, err, sizeof err);
    *text = report_text(report);
    fclose(report);
    return wrong;
}

/* A verification stopped inside a table goes on from its save; a save
 * damaged, or of other files, is said and dropped; a finished one leaves
 * none. */
static void test_saved_verify(void)
{
    game *g = test_open("jungle", NULL);
    snprintf(tb_dir, sizeof tb_dir, "/tmp/pnsolve-tb-test-%d-0", (int)getpid());
    char table[256], saved[300], other[300], *text;
    tb_path(g, tb_dir, game_tables(g)->material_parse(g, "RrE"), table, sizeof table);
    snprintf(saved, sizeof saved, "%s.verify", table);
    CU_ASSERT_EQUAL(verify_watched(g, tb_dir, "RrE", 50000, &text), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "RrE: stopped after 50000 of 107640 positions (0 wrong so far)"));
    CU_ASSERT_EQUAL(access(saved, F_OK), 0);
    free(text);
    CU_ASSERT_EQUAL(verify_watched(g, tb_dir, "RrE", 80000, &text), 0);  /* on from 50000 */
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "going on from its verification saved after 50000 of 107640"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "stopped after 80000 of"));
    free(text);
    CU_ASSERT_EQUAL(verify_watched(g, tb_dir, "RrE", 0, &text), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "saved after 80000"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "RrE: 107640 positions, checksum ok, every value agrees with its children"));
    CU_ASSERT_NOT_EQUAL(access(saved, F_OK), 0);  /* done: no save left */
    free(text);
    /* damaged, then another table's save under this one's name */
    CU_ASSERT_EQUAL(verify_watched(g, tb_dir, "RrE", 50000, &text), 0);
    free(text);
    flip_byte(saved, 20, SEEK_SET);
    CU_ASSERT_EQUAL(verify_watched(g, tb_dir, "RrE", 0, &text), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "RrE: its saved verification is damaged; starting again"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "every value agrees"));
    free(text);
    CU_ASSERT_EQUAL(verify_watched(g, tb_dir, "RrD", 50000, &text), 0);
    free(text);
    tb_path(g, tb_dir, game_tables(g)->material_parse(g, "RrD"), other, sizeof other);
    strcat(other, ".verify");
    CU_ASSERT_EQUAL(rename(other, saved), 0);
    CU_ASSERT_EQUAL(verify_watched(g, tb_dir, "RrE", 0, &text), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "is of other files"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "every value agrees"));
    CU_ASSERT_NOT_EQUAL(access(saved, F_OK), 0);
    free(text);
    /* a save that fails (a directory where its temporary file goes) is not
     * reported as saved; the earlier save stays and is gone on from */
    char blocker[400];
    CU_ASSERT_EQUAL(verify_watched(g, tb_dir, "RrE", 50000, &text), 0);
    free(text);
    snprintf(blocker, sizeof blocker, "%s.tmp.%ld", saved, (long)getpid());
    CU_ASSERT_EQUAL_FATAL(mkdir(blocker, 0700), 0);
    CU_ASSERT_EQUAL(verify_watched(g, tb_dir, "RrE", 80000, &text), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "RrE: its progress could not be saved"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "stopped after 80000 of 107640 positions (0 wrong so far), not saved (an earlier save is kept"));
    CU_ASSERT_PTR_NULL(strstr(text, ", saved;"));
    free(text);
    CU_ASSERT_EQUAL(rmdir(blocker), 0);
    CU_ASSERT_EQUAL(verify_watched(g, tb_dir, "RrE", 0, &text), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "saved after 50000"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "every value agrees"));
    free(text);
    game_close(g);
}

/* The log of test_stop_saves_ply: kept, and a stop asked for on the line
 * that says a table saved ply 2 (so the stop comes inside ply 3). */
typedef struct {
    FILE *keep;
    volatile int stop;
} stop_log;

static ssize_t stop_log_write(void *ctx, const char *buf, size_t len)
{
    stop_log *l = ctx;
    fwrite(buf, 1, len, l->keep);
    if (memmem(buf, len, "saved after ply 2 ", 18))
        l->stop = 1;
    return (ssize_t)len;
}

/* Builds the 3-piece Jungle tables in dir with o, which stops: the log
 * (o->log's text lands in keep) says `saved`, then `stopped`; built again
 * from the save, its log says it goes on from there and the files equal a
 * build never stopped. */
static void stop_and_resume(game *g, const char *dir, tb_build_options *o, FILE *keep, const char *saved)
{
    char save[300], err[512], want[200];
    char *text = NULL;
    size_t len = 0;
    CU_ASSERT_EQUAL_FATAL(tb_build(g, dir, 3, o, err, sizeof err), 1);
    if (o->log != keep)
        fclose(o->log);  /* a cookie writing to keep */
    fflush(keep);
    text = report_text(keep);
    fclose(keep);
    CU_ASSERT_FATAL(saved_tables(g, dir, save, sizeof save) >= 1);
    snprintf(want, sizeof want, ": saved %s", saved);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, want));
    snprintf(want, sizeof want, "stopped; its build saved %s", saved);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, want));
    free(text);
    text = NULL;
    tb_build_options go = { .threads = 2, .save_every = 1e-9 };
    go.log = open_memstream(&text, &len);
    CU_ASSERT_EQUAL_FATAL(tb_build(g, dir, 3, &go, err, sizeof err), 0);
    fclose(go.log);
    snprintf(want, sizeof want, "going on from its build saved %s", saved);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, want));
    free(text);
    CU_ASSERT_EQUAL(saved_tables(g, dir, save, sizeof save), 0);
    CU_ASSERT_EQUAL(test_tables_differ(g, dir, tb_dir, 3), 0);
}

/* Ctrl-C between plies: the passes of the next ply stop at once and are
 * saved there; built again, it goes on to the same files. */
static void test_stop_saves_ply(void)
{
    char dir[64], cmd[200];
    snprintf(tb_dir, sizeof tb_dir, "/tmp/pnsolve-tb-test-%d-0", (int)getpid());
    snprintf(dir, sizeof dir, "/tmp/pnsolve-tb-test-%d-soft", (int)getpid());
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
    game *g = test_open("jungle", NULL);
    stop_log l = { tmpfile(), 0 };
    CU_ASSERT_PTR_NOT_NULL_FATAL(l.keep);
    tb_build_options o = { .threads = 1, .save_every = 1e-9, .stop = &l.stop };  /* one table at a time */
    o.log = fopencookie(&l, "w", (cookie_io_functions_t){ .write = stop_log_write });
    CU_ASSERT_PTR_NOT_NULL_FATAL(o.log);
    setvbuf(o.log, NULL, _IOLBF, 0);
    stop_and_resume(g, dir, &o, l.keep, "in ply 3, part way through its wins");
    CU_ASSERT_EQUAL(system(cmd), 0);
    game_close(g);
}

/* A stop inside a pass, by a test's knob once the pass has taken a few of
 * its blocks of 64 positions: inside the first pass, a ply's wins and its
 * losses, on two threads, each saved there and gone on from to the same
 * files. */
static void test_stop_inside_pass(void)
{
    enum { AT_INIT = 1, AT_WINS = 2, AT_LOSSES = 3 };  /* tb_testing.h's stop_at */
    static const struct { int at, ply; const char *saved; } cases[] = {
        { AT_INIT, 0, "in its first pass, " },
        { AT_WINS, 3, "in ply 3, part way through its wins" },
        { AT_LOSSES, 4, "in ply 4, part way through its losses" },
    };
    char dir[64], cmd[200];
    snprintf(tb_dir, sizeof tb_dir, "/tmp/pnsolve-tb-test-%d-0", (int)getpid());
    snprintf(dir, sizeof dir, "/tmp/pnsolve-tb-test-%d-mid", (int)getpid());
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    game *g = test_open("jungle", NULL);
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        CU_ASSERT_EQUAL(system(cmd), 0);
        struct tb_testing knobs = { .owner_block_log2 = 6, .stop_at = cases[k].at, .stop_in_ply = cases[k].ply,
                                    .stop_blocks = 20 };
        tb_build_options o = { .threads = 2, .save_every = 1e-9, .testing = &knobs };
        FILE *keep = tmpfile();
        CU_ASSERT_PTR_NOT_NULL_FATAL(keep);
        o.log = keep;
        stop_and_resume(g, dir, &o, keep, cases[k].saved);
    }
    CU_ASSERT_EQUAL(system(cmd), 0);
    game_close(g);
}

/* A build stopped inside a table goes on from the ply it saved: the same
 * files as a build never stopped; a save damaged, cut short or of another
 * table is refused by name, never used. */
static void test_saved_build(void)
{
    char dir[64], save[300], err[512];
    snprintf(tb_dir, sizeof tb_dir, "/tmp/pnsolve-tb-test-%d-0", (int)getpid());
    snprintf(dir, sizeof dir, "/tmp/pnsolve-tb-test-%d-save", (int)getpid());
    game *g = test_open("jungle", NULL);
    struct tb_testing knobs = { .stop_at_ply = 4 };
    tb_build_options stop = { .threads = 1, .save_every = 1e-9, .testing = &knobs };  /* one table at a time */
    tb_build_options go = { .threads = 2, .save_every = 1e-9 };
    /* after a ply of wins (3) and after one of losses (4) */
    int mats[64], n = game_tables(g)->materials(g, 3, mats, 64);
    char cmd[1400];
    for (knobs.stop_at_ply = 4; knobs.stop_at_ply <= 5; knobs.stop_at_ply++) {
        snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
        CU_ASSERT_EQUAL(system(cmd), 0);
        CU_ASSERT_EQUAL_FATAL(tb_build(g, dir, 3, &stop, err, sizeof err), 1);
        CU_ASSERT_EQUAL_FATAL(saved_tables(g, dir, save, sizeof save), 1);
        char *log_text = NULL, want[80];
        size_t log_len = 0;
        go.log = open_memstream(&log_text, &log_len);
        CU_ASSERT_EQUAL_FATAL(tb_build(g, dir, 3, &go, err, sizeof err), 0);
        fclose(go.log);
        go.log = NULL;
        snprintf(want, sizeof want, "going on from its build saved after ply %d", knobs.stop_at_ply - 1);
        CU_ASSERT_PTR_NOT_NULL(strstr(log_text, want));
        free(log_text);
        CU_ASSERT_EQUAL(saved_tables(g, dir, save, sizeof save), 0);
        CU_ASSERT_EQUAL(test_tables_differ(g, dir, tb_dir, 3), 0);
    }
    /* Stopped again from nothing: then damaged, cut short, misnamed. */
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
    CU_ASSERT_EQUAL_FATAL(tb_build(g, dir, 3, &stop, err, sizeof err), 1);
    CU_ASSERT_EQUAL_FATAL(saved_tables(g, dir, save, sizeof save), 1);
    snprintf(cmd, sizeof cmd, "cp %s %s.keep", save, save);
    CU_ASSERT_EQUAL(system(cmd), 0);
    flip_byte(save, 300, SEEK_SET);
    CU_ASSERT_EQUAL(tb_build(g, dir, 3, &go, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "damaged"));
    snprintf(cmd, sizeof cmd, "cp %s.keep %s && truncate -s -9 %s", save, save, save);
    CU_ASSERT_EQUAL(system(cmd), 0);
    CU_ASSERT_EQUAL(tb_build(g, dir, 3, &go, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "damaged"));
    /* the save of one table under the name of another not yet built */
    char other[300] = "";
    for (int i = n - 1; i >= 0 && !other[0]; i--) {
        tb_path(g, dir, mats[i], other, sizeof other);
        if (access(other, F_OK) == 0 || strncmp(other, save, strlen(other)) == 0 ||
            game_tb_build(game_tables(g))->same_values_as(g, mats[i]) >= 0)
            other[0] = 0;
    }
    CU_ASSERT_FATAL(other[0] != 0);
    snprintf(cmd, sizeof cmd, "mv %s.keep %s.save && rm %s", save, other, save);
    CU_ASSERT_EQUAL(system(cmd), 0);
    CU_ASSERT_EQUAL(tb_build(g, dir, 3, &go, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "of another table"));
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
    game_close(g);
}

void suite_tablebase(void)
{
    CU_pSuite s = CU_add_suite("tablebase", NULL, NULL);
    CU_add_test(s, "successors, unmoves and exits agree with the move generator", test_tb_ops);
    CU_add_test(s, "every 2/3-piece value and distance vs brute force, both variants", test_against_brute_force);
    CU_add_test(s, "compressed blocks: same values, built on, converted, damage refused", test_compressed);
    CU_add_test(s, "a compressed table decoded narrow reads back every entry, 8- or 16-bit", test_decoded_narrow);
    CU_add_test(s, "a table written on three threads is the one written in order", test_write_threads);
    CU_add_test(s, "tables copied from alike materials: the census's hashes agree", test_alike_materials);
    CU_add_test(s, "a decoded table shared through a file: made once, mapped again, made again when its header or sums are damaged, a damaged page read from the blocks", test_decoded_shared);
    CU_add_test(s, "a stopped build goes on from its save; damaged saves refused", test_saved_build);
    CU_add_test(s, "Ctrl-C between plies: saved in the next ply's first pass, then resumed", test_stop_saves_ply);
    CU_add_test(s, "a stop inside the first pass, a ply's wins or its losses: saved there, resumed to the same files",
                test_stop_inside_pass);
    CU_add_test(s, "a stopped verification goes on from its save; damaged or foreign saves dropped", test_saved_verify);
    CU_add_test(s, "thread count, verify, corrupt and foreign files (removes the tables)", test_files);
}
