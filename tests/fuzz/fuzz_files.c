/* tests/fuzz/fuzz_files.c - libFuzzer target for the readers of files a
 * user's disk holds (`make fuzz`).  The first byte picks one:
 *   0: a table file (Ostle 3x3, material 2+2), opened and probed at every
 *      state, then verified;
 *   1: an Ostle state index file (3x3, 2+2), mapped and walked: every index
 *      unindexed and indexed again;
 *   2: join-proofs of two children, the rest split at the first "\n--\n",
 *      below the root of a small graph (FUZZ_GRAPH), then checked.
 * Run from the top of the tree (make fuzz), which holds build/fuzz/files.
 * Nothing may crash, hang or read outside what it was given; a file that
 * does not check is refused, never believed. */
#include "../../games/game.h"
#include "../../pns/pns.h"
#include "../../tablebase/tablebase.h"
#include "../../tbbuild/tbbuild.h"
#include "../../tbfile/tbfile.h"  /* tb_index_open_at */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The graph the join's children are proofs of (B and C). */
#define FUZZ_GRAPH "root A\nA: and B C\nB: or D E\nC: or D\nD: win\nE: and A\n"

static char dir[64];

static void put(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(data, 1, size, f);
        fclose(f);
    }
}

static void fuzz_table(const uint8_t *data, size_t size)
{
    char err[512], path[128];
    game *g = game_open("ostle:3x3", NULL, err, sizeof err);
    if (!g)
        return;
    const game_tb_ops *ops = game_tables(g);
    int mat = ops->material_parse(g, "2+2");
    snprintf(path, sizeof path, "%s/ostle-3x3-2+2.pntb", dir);
    put(path, data, size);
    tb_set *tb = tb_open_lazy(g, dir);
    const game_tb_index *ix = tb ? tb_index_need(tb_set_index(tb), mat) : NULL;
    for (uint64_t i = 0; ix && i < ops->size(g, ix, mat); i++) {
        game_state s;
        tb_value v;
        ops->unindex(g, ix, mat, i, &s);
        if (game_result_of(g, &s) == GAME_ONGOING && tb_probe(tb, &s, &v, err, sizeof err) < 0)
            break;
    }
    tb_close(tb);
    FILE *quiet = fopen("/dev/null", "w");
    tb_verify(g, dir, 1, quiet, err, sizeof err);
    fclose(quiet);
    unlink(path);
    game_close(g);
}

static void fuzz_index(const uint8_t *data, size_t size)
{
    char err[512], path[128], prefix[96];
    game *g = game_open("ostle:3x3", NULL, err, sizeof err);
    if (!g)
        return;
    snprintf(prefix, sizeof prefix, "%s/ix", dir);
    snprintf(path, sizeof path, "%s-2+2.pnidx", prefix);
    put(path, data, size);
    tb_index *x = tb_index_open_at(g, prefix, 0);
    const game_tb_ops *ops = game_tables(g);
    int mat = ops->material_parse(g, "2+2");
    const game_tb_index *ix = x ? tb_index_need(x, mat) : NULL;
    for (uint64_t i = 0; ix && i < ops->size(g, ix, mat); i++) {
        game_state s;
        ops->unindex(g, ix, mat, i, &s);
        if (ops->index(g, ix, &s) >= ops->size(g, ix, mat))
            abort();  /* a state the index itself gave back has an entry */
    }
    tb_index_close(x);
    /* make fuzz seeds the corpus with the file made anew from the rules */
    const char *keep = getenv("FUZZ_KEEP_INDEX");
    if (keep && rename(path, keep) == 0)
        return game_close(g);
    unlink(path);
    game_close(g);
}

static void fuzz_join(const uint8_t *data, size_t size)
{
    /* the children's headers name the graph by this path (make fuzz) */
    const char *gpath = "build/fuzz/files/join.graph";
    char err[512], spec[160];
    put(gpath, (const uint8_t *)FUZZ_GRAPH, strlen(FUZZ_GRAPH));
    snprintf(spec, sizeof spec, "graph:%s", gpath);
    game *g = game_open(spec, NULL, err, sizeof err);
    const uint8_t *cut = NULL;
    for (size_t i = 0; i + 4 <= size && !cut; i++)
        if (!memcmp(data + i, "\n--\n", 4))
            cut = data + i;
    if (g && cut) {
        char path[2][128];
        FILE *child[2];
        for (int k = 0; k < 2; k++) {
            snprintf(path[k], sizeof path[k], "%s/child%d.proof", dir, k);
            if (k == 0)
                put(path[k], data, (size_t)(cut - data) + 1);
            else
                put(path[k], cut + 4, size - (size_t)(cut + 4 - data));
            child[k] = fopen(path[k], "r");
        }
        game_state root;
        game_start(g, &root);
        char *out = NULL, summary[512];
        size_t len = 0;
        FILE *o = open_memstream(&out, &len);
        if (child[0] && child[1] && o && proof_join(g, &root, child, 2, o, NULL, err, sizeof err) == 0) {
            fflush(o);
            FILE *in = fmemopen(out, len ? len : 1, "r");
            /* the join of two sound children must check; of others, either */
            if (in) {
                proof_verify(in, NULL, summary, sizeof summary, err, sizeof err);
                fclose(in);
            }
        }
        if (o)
            fclose(o);
        free(out);
        for (int k = 0; k < 2; k++) {
            if (child[k])
                fclose(child[k]);
            unlink(path[k]);
        }
    }
    game_close(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > (1 << 20))
        return 0;
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/pnsolve-fuzz-files-%d", (int)getpid());
        mkdir(dir, 0777);
    }
    switch (data[0] % 3) {
    case 0: fuzz_table(data + 1, size - 1); break;
    case 1: fuzz_index(data + 1, size - 1); break;
    default: fuzz_join(data + 1, size - 1); break;
    }
    return 0;
}
