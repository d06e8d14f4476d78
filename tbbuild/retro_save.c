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
#include <unistd.h>

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

/* The header of b's state as it stands. */
static void header_of(const tb_builder *b, save_header *h)
{
    describe(b, h);
    h->ply = b->ply, h->at = b->at, h->init_from = b->init_from, h->ply_found = b->ply_found;
    h->max_pending = b->max_pending, h->done = b->done, h->t_init = b->t_init, h->t_plies = b->t_plies;
    h->n_long = (uint64_t)JudyLCount(b->val_long, 0, -1, PJE0);
}

static int put(FILE *f, void *p, size_t len, uint64_t *sum) { return tb_stream_put(f, p, len, sum); }
static int get(FILE *f, void *p, size_t len, uint64_t *sum) { return tb_stream_get(f, p, len, sum); }

static int each_share(const tb_builder *b, uint64_t *const bitmaps[3], FILE *f, uint64_t *sum,
                      int (*fn)(FILE *f, void *p, size_t len, uint64_t *sum));

/* The cells and the three frontiers, whole or (share) this rank's blocks
 * of them, then the pending distances, through fn. */
static int arrays(const tb_builder *b, uint64_t *const maps[3], int share, FILE *f, uint64_t *sum,
                  int (*fn)(FILE *f, void *p, size_t len, uint64_t *sum))
{
    size_t words = b->words * sizeof(uint64_t);
    int ok = share ? each_share(b, maps, f, sum, fn) == 0
                   : fn(f, b->c, b->n, sum) == 0 && fn(f, maps[0], words, sum) == 0 && fn(f, maps[1], words, sum) == 0 &&
                         fn(f, maps[2], words, sum) == 0;
    return ok && fn(f, b->pending, TB_MAX_DISTANCE + 1, sum) == 0 ? 0 : -1;
}

/* b's state to path (whole, or this rank's share) through a temporary
 * file, synced: the header, the arrays, the long entries (few) as one
 * piece of (index, entry) pairs; the header goes first with its checksum
 * still 0, then again at the end.  0 (*sum its checksum), or -1 with err. */
static int write_state(const tb_builder *b, uint64_t *const maps[3], int share, const char *path, uint64_t *sum,
                       char *err, size_t errlen)
{
    util_file out;
    if (util_file_create(&out, path, "wb", err, errlen) != 0)
        return -1;
    save_header h;
    header_of(b, &h);
    *sum = TB_CHECKSUM_SEED;
    int ok = fwrite(&h, sizeof h, 1, out.f) == 1 && arrays(b, maps, share, out.f, sum, put) == 0;
    uint64_t *pairs = malloc(2 * sizeof(uint64_t) * (h.n_long ? h.n_long : 1)), k = 0;
    Word_t i = 0;
    for (PWord_t v = (PWord_t)JudyLFirst(b->val_long, &i, PJE0); pairs && v; v = (PWord_t)JudyLNext(b->val_long, &i, PJE0)) {
        pairs[2 * k] = (uint64_t)i;
        pairs[2 * k++ + 1] = (uint64_t)*v;
    }
    ok = ok && pairs && tb_stream_put(out.f, pairs, 2 * sizeof(uint64_t) * h.n_long, sum) == 0;
    free(pairs);
    h.checksum = *sum;
    ok = ok && fseek(out.f, 0, SEEK_SET) == 0 && fwrite(&h, sizeof h, 1, out.f) == 1;
    if (util_file_commit(&out, ok, err, errlen) != 0)
        return -1;
    return ok ? 0 : util_error(err, errlen, "cannot write '%s'", path);
}

/* The arrays and long entries after header h from f into b (whole, or
 * this rank's share), then b's place from h: 0 when whole and h's checksum
 * holds (*sum), -1 when not. */
static int read_state(tb_builder *b, uint64_t *const maps[3], int share, FILE *f, const save_header *h, uint64_t *sum)
{
    *sum = TB_CHECKSUM_SEED;
    int ok = h->ply >= 0 && h->ply < TB_MAX_DISTANCE && h->max_pending >= 0 && h->max_pending <= TB_MAX_DISTANCE &&
             h->at >= RETRO_PLY_END && h->at <= RETRO_LOSSES && h->init_from <= b->n && h->n_long < b->n &&
             arrays(b, maps, share, f, sum, get) == 0;
    uint64_t *pairs = ok ? malloc(2 * sizeof(uint64_t) * (h->n_long ? h->n_long : 1)) : NULL;
    ok = pairs && tb_stream_get(f, pairs, 2 * sizeof(uint64_t) * h->n_long, sum) == 0;
    for (uint64_t k = 0; ok && k < h->n_long; k++) {
        PWord_t v;
        ok = pairs[2 * k] < b->n && (v = (PWord_t)JudyLIns(&b->val_long, (Word_t)pairs[2 * k], PJE0)) != NULL;
        if (ok)
            *v = (Word_t)pairs[2 * k + 1];
    }
    free(pairs);
    if (!ok || *sum != h->checksum || fgetc(f) != EOF)
        return -1;
    b->ply = h->ply, b->at = h->at, b->init_from = h->init_from, b->ply_found = h->ply_found;
    b->max_pending = h->max_pending, b->done = h->done, b->t_init = h->t_init, b->t_plies = h->t_plies;
    return 0;
}

int tb_retro_save(const tb_builder *b, const uint64_t *wins, const uint64_t *losses, const uint64_t *new_wins,
                  const char *path, char *err, size_t errlen)
{
    uint64_t *const maps[3] = { (uint64_t *)wins, (uint64_t *)losses, (uint64_t *)new_wins }, sum;
    return write_state(b, maps, 0, path, &sum, err, errlen);
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
    uint64_t *const maps[3] = { wins, losses, new_wins }, sum;
    if (read_state(b, maps, 0, f, &h, &sum) != 0) {
        util_error(err, errlen, "'%s' is damaged (truncated or checksum; remove it to build afresh)", path);
        goto out;
    }
    rc = 1;
out:
    fclose(f);
    return rc;
}

/* ---- across ranks ----
 *
 * Each rank writes its own share, the cells and frontier words of the
 * blocks it holds with its pending distances and long entries, to
 * PATH.gG.rR (G the save's generation); every file is synced, the ranks
 * agree that all are, and rank 0 then writes PATH.manifest (the ranks,
 * the partition, the generation, where the passes are and each share's
 * checksum) through a temporary name; only after the ranks meet again does
 * each remove its share of the generation before.  So a manifest names a
 * whole save, a kill at any point leaves the last whole one, and a share
 * no manifest names is ignored (and removed by the next save). */

#define MANIFEST_MAGIC "pnsolve ranked save 1"

static void share_path(const char *path, unsigned gen, int rank, char *out, size_t len)
{
    snprintf(out, len, "%s.g%u.r%d", path, gen, rank);
}

/* The cells [first, end) and the frontier words over them of each block
 * this rank holds, through fn (put or get). */
static int each_share(const tb_builder *b, uint64_t *const bitmaps[3], FILE *f, uint64_t *sum,
                      int (*fn)(FILE *f, void *p, size_t len, uint64_t *sum))
{
    const tb_part *p = &b->part;
    for (uint64_t k = 0; k < p->owned; k++) {
        uint64_t q = tb_part_block(p, k), first = q << p->shift, end = (q + 1) << p->shift;
        end = end < b->n ? end : b->n;
        uint64_t w0 = first >> 6, w1 = (end + 63) >> 6;
        if (fn(f, b->c + first, end - first, sum) != 0)
            return -1;
        for (int i = 0; i < 3; i++)
            if (fn(f, bitmaps[i] + w0, (w1 - w0) * sizeof(uint64_t), sum) != 0)
                return -1;
    }
    return 0;
}

int tb_retro_save_ranked(tb_builder *b, uint64_t *wins, uint64_t *losses, uint64_t *new_wins, const char *path,
                         char *err, size_t errlen)
{
    const tb_ranks *r = b->ranks;
    unsigned gen = b->save_gen + 1;
    char file[4400];
    share_path(path, gen, r->rank, file, sizeof file);
    uint64_t *const maps[3] = { wins, losses, new_wins }, sum = 0;
    int ok = write_state(b, maps, 1, file, &sum, err, errlen) == 0;  /* synced before the ranks agree */
    /* every share whole, and each one's checksum, known to every rank */
    uint64_t *v = calloc((size_t)r->size + 1, sizeof *v);
    if (!v)
        return util_error(err, errlen, "out of memory");
    v[r->rank] = sum;
    v[r->size] = ok ? 0 : 1;
    if (r->allreduce(r->ctx, v, r->size + 1, TB_SUM) != 0 || v[r->size] != 0) {
        free(v);
        unlink(file);
        return ok ? util_error(err, errlen, "another rank could not write its share (its message says why)") : -1;
    }
    int rc = 0;
    if (r->rank == 0) {
        char manifest[4400];
        snprintf(manifest, sizeof manifest, "%s.manifest", path);
        util_file m;
        rc = util_file_create(&m, manifest, "w", err, errlen);
        if (rc == 0) {
            fprintf(m.f, MANIFEST_MAGIC "\ngame %s\nmaterial %s\npositions %llu\nranks %d\nowners %d\ngeneration %u\n",
                    b->g->name, b->prog.material, (unsigned long long)b->n, r->size, b->owners, gen);
            char where[96];
            tb_retro_where(b, where, sizeof where);
            fprintf(m.f, "where %s\n", where);
            for (int p = 0; p < r->size; p++)
                fprintf(m.f, "share %d %016llx\n", p, (unsigned long long)v[p]);
            rc = util_file_commit(&m, !ferror(m.f), err, errlen);
        }
    }
    uint64_t bad = rc != 0;
    r->allreduce(r->ctx, &bad, 1, TB_MAX);  /* the manifest in place before any older share goes */
    free(v);
    if (bad)
        return r->rank == 0 ? -1 : util_error(err, errlen, "rank 0 could not write the manifest (its message says why)");
    if (b->save_gen > 0) {
        share_path(path, b->save_gen, r->rank, file, sizeof file);
        unlink(file);
    }
    b->save_gen = gen;
    return 0;
}

/* The manifest's fields this load needs: the generation, the ranks, the
 * owners and each share's checksum (of this rank). */
static int read_manifest(const char *path, const tb_builder *b, unsigned *gen, uint64_t *mine, char *err, size_t errlen)
{
    char manifest[4400], line[512], game[128] = "", material[64] = "";
    snprintf(manifest, sizeof manifest, "%s.manifest", path);
    FILE *f = util_fopen_regular(manifest);
    if (!f)
        return errno == ENOENT ? 0 : util_error(err, errlen, "%s: %s", manifest, util_open_why(errno));
    unsigned long long positions = 0, sum;
    int ranks = 0, owners = 0, got_share = 0, p, magic = 0;
    *gen = 0;
    while (fgets(line, sizeof line, f)) {
        if (strcmp(line, MANIFEST_MAGIC "\n") == 0)
            magic = 1;
        sscanf(line, "game %127s", game);
        sscanf(line, "material %63s", material);
        sscanf(line, "positions %llu", &positions);
        sscanf(line, "ranks %d", &ranks);
        sscanf(line, "owners %d", &owners);
        sscanf(line, "generation %u", gen);
        if (sscanf(line, "share %d %llx", &p, &sum) == 2 && p == b->ranks->rank)
            *mine = sum, got_share = 1;
    }
    fclose(f);
    if (!magic || !*gen || !ranks)
        return util_error(err, errlen, "'%s' is not a manifest of a save across ranks (remove it to build afresh)",
                          manifest);
    if (strcmp(game, b->g->name) != 0 || strcmp(material, b->prog.material) != 0 || positions != b->n)
        return util_error(err, errlen, "'%s' names a save of another table (remove it to build afresh)", manifest);
    if (ranks != b->ranks->size)
        return util_error(err, errlen, "%s was saved by %d ranks and this run has %d: run it on %d, or remove %s.* to "
                          "build afresh", b->prog.material, ranks, b->ranks->size, ranks, path);
    if (owners != b->owners)
        return util_error(err, errlen, "%s was saved with %d threads a rank and this run has %d: run it with --threads %d, "
                          "or remove %s.* to build afresh", b->prog.material, owners, b->owners, owners, path);
    if (!got_share)
        return util_error(err, errlen, "'%s' names no share of rank %d (remove it to build afresh)", manifest,
                          b->ranks->rank);
    return 1;
}

int tb_retro_load_ranked(tb_builder *b, uint64_t *wins, uint64_t *losses, uint64_t *new_wins, const char *path,
                         char *err, size_t errlen)
{
    unsigned gen = 0;
    uint64_t want = 0;
    int rc = read_manifest(path, b, &gen, &want, err, errlen);
    FILE *f = NULL;
    char file[4400];
    if (rc == 1) {
        share_path(path, gen, b->ranks->rank, file, sizeof file);
        if (!(f = util_fopen_regular(file)))
            rc = util_error(err, errlen, "%s: %s (the manifest names it)", file, util_open_why(errno));
    }
    if (rc == 1) {
        save_header h, w;
        describe(b, &w);
        uint64_t *const maps[3] = { wins, losses, new_wins }, sum = 0;
        int ok = fread(&h, sizeof h, 1, f) == 1 && memcmp(h.magic, SAVE_MAGIC, 8) == 0 && h.n == w.n &&
                 strcmp(h.material, w.material) == 0 && h.deps_id == w.deps_id && h.short_max == w.short_max &&
                 read_state(b, maps, 1, f, &h, &sum) == 0;
        if (!ok || sum != want) {
            rc = util_error(err, errlen, "'%s' is damaged, or not the share its manifest names (remove %s.* to build "
                            "afresh)", file, path);
        } else {
            b->save_gen = gen;
            share_path(path, gen - 1, b->ranks->rank, file, sizeof file);
            unlink(file);  /* a share a kill left between the manifest and its removal */
        }
    }
    if (f)
        fclose(f);
    /* all ranks go on from the save, or none: a rank without its share fails them all */
    uint64_t v[2] = { rc < 0, rc == 1 };
    if (b->ranks->allreduce(b->ranks->ctx, v, 2, TB_MAX) != 0)
        return util_error(err, errlen, "the ranks cannot agree (transport failed)");
    if (v[0] && rc >= 0)
        return util_error(err, errlen, "another rank cannot read its share of the save (its message says why)");
    return rc;
}

void tb_retro_save_remove(const tb_builder *b, const char *path)
{
    if (!b->ranks) {
        unlink(path);
        return;
    }
    char file[4400];
    if (b->save_gen > 0) {
        share_path(path, b->save_gen, b->ranks->rank, file, sizeof file);
        unlink(file);
    }
    if (b->ranks->rank == 0) {
        snprintf(file, sizeof file, "%s.manifest", path);
        unlink(file);
    }
}
