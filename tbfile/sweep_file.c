/* tbfile/sweep_file.c - the file of a layer of reachable states (tblayers/sweep.c
 * finds them).  Of the layers: the states reachable from the start of a game whose
 * every move but a pass adds a piece (game_layer_ops), found forward a
 * layer at a time and kept as compact sets of ranks (Othello 5x5: 1.8e9
 * states in 1.1 GB), which layers.c then scores.
 *
 * The next layer is a bitmap over its ranks, filled from every state of
 * the current layer in as many passes (segments of ranks) as the memory
 * given needs; each segment's pass states (no move, the opponent has one)
 * bring their partner, the same board with the other side to move, which
 * is the rank beside them; then the segment becomes an Elias-Fano set
 * (util_efset: about 2 + log2(ranks / states) bits a state).  A finished
 * layer is saved (temporary name, renamed) and a later run resumes after
 * the last one saved.
 *
 * File <dir>/<game>.e<empties>.pnsw: a header (magic, game, empties,
 * segments, the ranks a segment spans, the layer's counts, checksums),
 * then per segment its count, universe and low bits and its two arrays.
 */
#include "tbfile.h"
#include "../util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef tb_sweep_header sweep_header;
typedef tb_sweep_set sweep_layer;  /* a layer (tbfile.h) */

void tb_sweep_free(sweep_layer *l)
{
    for (int k = 0; l->seg && k < l->h.segments; k++)
        util_efset_free(&l->seg[k]);
    free(l->seg);
    free(l->first);
    l->seg = NULL;
    l->first = NULL;
}

uint64_t tb_sweep_bytes(const sweep_layer *l)
{
    uint64_t b = sizeof l->h;
    for (int k = 0; k < l->h.segments; k++)
        b += 24 + (util_efset_low_words(&l->seg[k]) + l->seg[k].high_words) * 8;
    return b;
}

/* Each segment's first index, once its sets are complete: 0, or -1 when out of memory. */
int tb_sweep_index(sweep_layer *l)
{
    free(l->first);
    if (!(l->first = malloc((size_t)l->h.segments * 8)))
        return -1;
    uint64_t at = 0;
    for (int k = 0; k < l->h.segments; k++)
        l->first[k] = at, at += l->seg[k].n;
    return 0;
}

void tb_layer_file(const game *g, const char *dir, int empties, const char *ext, char *buf, size_t len)
{
    char name[GAME_NAME_MAX];
    snprintf(name, sizeof name, "%s", g->name);
    for (char *p = name; *p; p++)
        if (*p == ':' || *p == '/')
            *p = '-';
    snprintf(buf, len, "%s/%s.e%02d.%s", dir, name, empties, ext);
}

static uint64_t header_checksum(sweep_header h)
{
    h.header_checksum = 0;
    return tb_checksum(&h, sizeof h);
}

/* Each segment's fields and arrays, in file order, through fn. */
static int segment_parts(util_efset *e, int (*fn)(void *ctx, void *p, size_t len), void *ctx)
{
    uint64_t fields[3] = { e->n, e->universe, e->low_bits };
    return fn(ctx, fields, sizeof fields) || fn(ctx, e->low, util_efset_low_words(e) * 8) ||
           fn(ctx, e->high, e->high_words * 8);
}

typedef struct {
    FILE *f;
    uint64_t sum;
} io;

static int write_part(void *ctx, void *p, size_t len)
{
    io *o = ctx;
    o->sum = tb_checksum_update(o->sum, p, len);
    return fwrite(p, 1, len, o->f) != len;
}

static int read_part(void *ctx, void *p, size_t len)
{
    io *o = ctx;
    if (fread(p, 1, len, o->f) != len)
        return 1;
    o->sum = tb_checksum_update(o->sum, p, len);
    return 0;
}

/* Writes layer l, its header last (the checksum of what follows it). */
int tb_sweep_save(const game *g, const char *dir, sweep_layer *l, char *err, size_t errlen)
{
    char path[4400];
    tb_layer_file(g, dir, l->h.empties, "pnsw", path, sizeof path);
    util_file f;
    if (util_file_create(&f, path, "wb", err, errlen) != 0)
        return -1;
    io o = { f.f, TB_CHECKSUM_SEED };
    int bad = fwrite(&l->h, sizeof l->h, 1, f.f) != 1;
    for (int k = 0; k < l->h.segments && !bad; k++)
        bad = segment_parts(&l->seg[k], write_part, &o);
    l->h.data_checksum = o.sum;
    l->h.header_checksum = header_checksum(l->h);
    if (bad || fseek(f.f, 0, SEEK_SET) != 0 || fwrite(&l->h, sizeof l->h, 1, f.f) != 1) {
        int e = errno;
        util_file_commit(&f, 0, NULL, 0);
        return util_error(err, errlen, "%s: cannot write it (%s)", path, strerror(e));
    }
    return util_file_commit(&f, 1, err, errlen);
}

int tb_sweep_load(const game *g, const char *dir, int empties, sweep_layer *l, char *err, size_t errlen)
{
    char path[4400];
    tb_layer_file(g, dir, empties, "pnsw", path, sizeof path);
    memset(l, 0, sizeof *l);
    FILE *f = util_fopen_regular(path);
    if (!f)
        return errno == ENOENT ? 0 : util_error(err, errlen, "%s: %s", path, util_open_why(errno));
    const char *why = NULL;
    io o = { f, TB_CHECKSUM_SEED };
    if (fread(&l->h, sizeof l->h, 1, f) != 1 || memcmp(l->h.magic, TB_SWEEP_MAGIC, 8) != 0 ||
        header_checksum(l->h) != l->h.header_checksum)
        why = "not a layer of reachable states";
    else if (strncmp(l->h.game, g->name, sizeof l->h.game) != 0 || l->h.empties != empties)
        why = "a layer of another game";
    else if (l->h.segments < 1 || l->h.span == 0 || l->h.span % 64 ||
             (uint64_t)(l->h.segments - 1) * l->h.span >= game_layer_size(g, empties) ||
             !(l->seg = calloc((size_t)l->h.segments, sizeof *l->seg)))
        why = "damaged (segments)";
    uint64_t size = game_layer_size(g, empties);
    for (int k = 0; !why && k < l->h.segments; k++) {
        uint64_t fields[3], lo = (uint64_t)k * l->h.span;
        uint64_t universe = size - lo < l->h.span ? size - lo : l->h.span;
        if (read_part(&o, fields, sizeof fields) || fields[1] != universe || fields[0] > universe)
            why = "damaged (a segment's size)";
        else if (util_efset_init(&l->seg[k], fields[0], universe) != 0)
            why = "out of memory";
        else if (l->seg[k].low_bits != fields[2])
            why = "damaged (a segment's size)";
        else if (read_part(&o, l->seg[k].low, util_efset_low_words(&l->seg[k]) * 8) ||
                 read_part(&o, l->seg[k].high, l->seg[k].high_words * 8))
            why = "damaged (truncated)";
    }
    if (!why && (fgetc(f) != EOF || o.sum != l->h.data_checksum))
        why = "damaged (checksum)";
    for (int k = 0; !why && k < l->h.segments; k++)
        if (util_efset_check(&l->seg[k]) != 0)
            why = "damaged (a segment is no sorted set of its size)";
    for (int k = 0; !why && k < l->h.segments; k++)
        if (util_efset_seal(&l->seg[k]) != 0)
            why = "out of memory";
    if (!why && tb_sweep_index(l) != 0)
        why = "out of memory";
    fclose(f);
    if (why) {
        tb_sweep_free(l);
        return util_error(err, errlen, "%s: %s", path, why);
    }
    return 1;
}

