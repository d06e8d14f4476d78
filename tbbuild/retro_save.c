/* tbbuild/retro_save.c - the builder's state, saved to a file beside the
 * table and read back, so a build of hours (the ten-piece Ostle table:
 * about two on two cores) survives a stop and goes on from its last save
 * instead of from nothing.
 *
 * Saves come between plies and where a stop finds the passes (retro.c):
 * inside the first pass, everything below an index is done; inside a ply's
 * pass, the frontier it reads holds exactly the positions not yet sent,
 * every update sent has been applied, and the ply's other frontiers are
 * whole.  So the state is the same everywhere: the cells, the three
 * frontiers, the pending distances and the long entries, with where the
 * passes are (RETRO_*, the first index left, the positions the ply
 * resolved so far).  The file holds these after a header that names the
 * table and the smaller tables its captures read (their header checksums:
 * other values there would make other values here).  Every byte after the header is
 * checksummed (stream.c, which keeps the page cache clear of it); the file
 * is written through a temporary name and renamed.
 */
#include "retro.h"
#include "../util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define SAVE_MAGIC "PNSRETR2"
#define SAVE_MAGIC_1 "PNSRETR1"  /* between plies only, two frontiers */

typedef struct {
    char magic[8];
    char game[64];
    char material[32];
    uint64_t n, deps_id, done, n_long, checksum;
    int32_t ply, short_max, max_pending, at;
    uint64_t init_from, ply_found;
    double t_init, t_plies;
} save_header;

void tb_retro_where(const tb_builder *b, char *buf, size_t len)
{
    if (b->at == RETRO_INIT)
        snprintf(buf, len, "in its first pass, %.1f%% through", b->n ? 100.0 * (double)b->init_from / (double)b->n : 100.0);
    else if (b->at == RETRO_WINS || b->at == RETRO_LOSSES)
        snprintf(buf, len, "in ply %d, part way through its %s", b->ply, b->at == RETRO_WINS ? "wins" : "losses");
    else
        snprintf(buf, len, "after ply %d", b->ply);
}

static void describe(const tb_builder *b, save_header *h)
{
    memset(h, 0, sizeof *h);
    memcpy(h->magic, SAVE_MAGIC, 8);
    snprintf(h->game, sizeof h->game, "%.63s", b->g->name);
    snprintf(h->material, sizeof h->material, "%s", b->prog.material);
    h->n = b->n;
    h->deps_id = b->deps_id;
    h->short_max = b->short_max;
}

int tb_retro_save(const tb_builder *b, const uint64_t *wins, const uint64_t *losses, const uint64_t *new_wins,
                  const char *path, char *err, size_t errlen)
{
    util_file out;
    if (util_file_create(&out, path, "wb", err, errlen) != 0)
        return -1;
    save_header h;
    describe(b, &h);
    h.ply = b->ply;
    h.at = b->at;
    h.init_from = b->init_from;
    h.ply_found = b->ply_found;
    h.max_pending = b->max_pending;
    h.done = b->done;
    h.t_init = b->t_init;
    h.t_plies = b->t_plies;
    h.n_long = (uint64_t)JudyLCount(b->val_long, 0, -1, PJE0);
    /* the header goes first with its checksum still 0, then again at the end */
    uint64_t sum = TB_CHECKSUM_SEED, words = b->words * sizeof(uint64_t);
    int ok = fwrite(&h, sizeof h, 1, out.f) == 1 && tb_stream_put(out.f, b->c, b->n, &sum) == 0 &&
             tb_stream_put(out.f, wins, words, &sum) == 0 && tb_stream_put(out.f, losses, words, &sum) == 0 &&
             tb_stream_put(out.f, new_wins, words, &sum) == 0 && tb_stream_put(out.f, b->pending, TB_MAX_DISTANCE + 1, &sum) == 0;
    /* the long entries (few) as one piece of (index, entry) pairs */
    uint64_t *pairs = malloc(2 * sizeof(uint64_t) * (h.n_long ? h.n_long : 1)), k = 0;
    Word_t i = 0;
    for (PWord_t v = (PWord_t)JudyLFirst(b->val_long, &i, PJE0); pairs && v; v = (PWord_t)JudyLNext(b->val_long, &i, PJE0)) {
        pairs[2 * k] = (uint64_t)i;
        pairs[2 * k++ + 1] = (uint64_t)*v;
    }
    ok = ok && pairs && tb_stream_put(out.f, pairs, 2 * sizeof(uint64_t) * h.n_long, &sum) == 0;
    free(pairs);
    h.checksum = sum;
    ok = ok && fseek(out.f, 0, SEEK_SET) == 0 && fwrite(&h, sizeof h, 1, out.f) == 1;
    if (util_file_commit(&out, ok, err, errlen) != 0)
        return -1;
    return ok ? 0 : util_error(err, errlen, "cannot write '%s'", path);
}

int tb_retro_load(tb_builder *b, uint64_t *wins, uint64_t *losses, uint64_t *new_wins, const char *path, char *err,
                  size_t errlen)
{
    FILE *f = util_fopen_regular(path);
    if (!f)
        return errno == ENOENT ? 0 : util_error(err, errlen, "%s: %s", path, util_open_why(errno));
    save_header h, want;
    describe(b, &want);
    int rc = -1;
    int got = fread(&h, sizeof h, 1, f) == 1;
    if (got && memcmp(h.magic, SAVE_MAGIC_1, 8) == 0) {
        util_error(err, errlen, "'%s' was saved by an older pnsolve (remove it to build afresh)", path);
        goto out;
    }
    if (!got || memcmp(h.magic, SAVE_MAGIC, 8) != 0) {
        util_error(err, errlen, "'%s' is not a saved build (remove it to build afresh)", path);
        goto out;
    }
    if (strcmp(h.game, want.game) != 0 || strcmp(h.material, want.material) != 0 || h.n != want.n ||
        h.short_max != want.short_max) {
        util_error(err, errlen, "'%s' is a saved build of another table (remove it to build afresh)", path);
        goto out;
    }
    if (h.deps_id != want.deps_id) {
        util_error(err, errlen, "'%s' was saved with other smaller tables (remove it to build afresh)", path);
        goto out;
    }
    uint64_t sum = TB_CHECKSUM_SEED, words = b->words * sizeof(uint64_t);
    int ok = h.ply >= 0 && h.ply < TB_MAX_DISTANCE && h.max_pending >= 0 && h.max_pending <= TB_MAX_DISTANCE &&
             h.at >= RETRO_PLY_END && h.at <= RETRO_LOSSES && h.init_from <= b->n &&
             tb_stream_get(f, b->c, b->n, &sum) == 0 && tb_stream_get(f, wins, words, &sum) == 0 &&
             tb_stream_get(f, losses, words, &sum) == 0 && tb_stream_get(f, new_wins, words, &sum) == 0 && tb_stream_get(f, b->pending, TB_MAX_DISTANCE + 1, &sum) == 0;
    uint64_t *pairs = ok && h.n_long < b->n ? malloc(2 * sizeof(uint64_t) * (h.n_long ? h.n_long : 1)) : NULL;
    ok = pairs && tb_stream_get(f, pairs, 2 * sizeof(uint64_t) * h.n_long, &sum) == 0;
    for (uint64_t k = 0; ok && k < h.n_long; k++) {
        PWord_t v;
        ok = pairs[2 * k] < b->n && (v = (PWord_t)JudyLIns(&b->val_long, (Word_t)pairs[2 * k], PJE0)) != NULL;
        if (ok)
            *v = (Word_t)pairs[2 * k + 1];
    }
    free(pairs);
    if (!ok || sum != h.checksum || fgetc(f) != EOF) {
        util_error(err, errlen, "'%s' is damaged (truncated or checksum; remove it to build afresh)", path);
        goto out;
    }
    b->ply = h.ply;
    b->at = h.at;
    b->init_from = h.init_from;
    b->ply_found = h.ply_found;
    b->max_pending = h.max_pending;
    b->done = h.done;
    b->t_init = h.t_init;
    b->t_plies = h.t_plies;
    rc = 1;
out:
    fclose(f);
    return rc;
}
