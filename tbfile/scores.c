/* tbfile/scores.c - the files of a strong solution by layers
 * (tblayers/layers.c builds them): <dir>/<game>.e<empties>.pnss per layer,
 * a header (magic, game, empties, states, counts, checksums) and a signed
 * byte a state, the exact final score for the side to move, at the
 * state's index in the layer's set; each written to a temporary name and
 * renamed, so a build resumes after the last layer solved.
 */
#include "tbfile.h"
#include "../util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define SCORES_MAGIC "PNSSCOR1"

typedef struct {
    char magic[8];
    char game[GAME_NAME_MAX];
    int32_t empties, unused;
    uint64_t states;             /* scores that follow: the layer's set's size */
    tb_layer_stats st;
    uint64_t data_checksum, header_checksum;
} scores_header;

void tb_layers_path(const game *g, const char *dir, char *buf, size_t len)
{
    game_state s;
    game_start(g, &s);
    tb_layer_file(g, dir, game_empties(g, &s), "pnss", buf, len);
}

static uint64_t header_checksum(scores_header h)
{
    h.header_checksum = 0;
    return tb_checksum(&h, sizeof h);
}

int tb_layers_save(const tb_layers *t, int i, const char *dir, char *err, size_t errlen)
{
    const tb_sweep_set *l = &t->set[i];
    scores_header h = { .empties = l->h.empties, .states = tb_layers_size(t, i), .st = t->st[i] };
    memcpy(h.magic, SCORES_MAGIC, 8);
    snprintf(h.game, sizeof h.game, "%s", t->g->name);
    h.data_checksum = tb_checksum(t->score[i], h.states);
    h.header_checksum = header_checksum(h);
    char path[4400], why[600];
    tb_layer_file(t->g, dir, l->h.empties, "pnss", path, sizeof path);
    util_file f;
    if (util_file_create(&f, path, "wb", err, errlen) != 0)
        return -1;
    int ok = fwrite(&h, sizeof h, 1, f.f) == 1 && fwrite(t->score[i], 1, h.states, f.f) == h.states;
    if (util_file_commit(&f, ok, why, sizeof why) != 0 || !ok)
        return util_error(err, errlen, "%s: cannot write it%s%s", path, ok ? ": " : "", ok ? why : "");
    return 0;
}

/* Layer i's scores from dir: 1, 0 when there is no file, -1 with err. */
int tb_layers_load(tb_layers *t, int i, const char *dir, char *err, size_t errlen)
{
    char path[4400];
    tb_layer_file(t->g, dir, t->set[i].h.empties, "pnss", path, sizeof path);
    FILE *f = util_fopen_regular(path);
    if (!f)
        return errno == ENOENT ? 0 : util_error(err, errlen, "%s: %s", path, util_open_why(errno));
    scores_header h;
    const char *why = NULL;
    if (fread(&h, sizeof h, 1, f) != 1 || memcmp(h.magic, SCORES_MAGIC, 8) != 0 ||
        header_checksum(h) != h.header_checksum)
        why = "not a layer's scores, or its header is damaged";
    else if (strncmp(h.game, t->g->name, sizeof h.game) != 0 || h.empties != t->set[i].h.empties)
        why = "the scores of another game or layer";
    else if (h.states != tb_layers_size(t, i))
        why = "damaged (not as many scores as the layer has states)";
    else if (!(t->score[i] = malloc(h.states ? h.states : 1)))
        why = "out of memory";
    else if (fread(t->score[i], 1, h.states, f) != h.states || fgetc(f) != EOF ||
             tb_checksum(t->score[i], h.states) != h.data_checksum)
        why = "damaged (checksum)";
    fclose(f);
    if (why) {
        free(t->score[i]);
        t->score[i] = NULL;
        return util_error(err, errlen, "%s: %s", path, why);
    }
    t->st[i] = h.st;
    return 1;
}

void tb_layers_close(tb_layers *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->layers; i++) {
        tb_sweep_free(&t->set[i]);
        free(t->score[i]);
    }
    free(t);
}

/* Every layer's set of g from dir, the last one with no state that moves:
 * NULL with err when one is missing or damaged. */
tb_layers *tb_layers_open_sets(const game *g, const char *dir, char *err, size_t errlen)
{
    tb_layers *t = calloc(1, sizeof *t);
    if (!t) {
        util_error(err, errlen, "out of memory");
        return NULL;
    }
    t->g = g;
    game_state s;
    game_start(g, &s);
    t->first_empties = game_empties(g, &s);
    for (int e = t->first_empties; e >= 0 && t->layers < TB_LAYERS_MAX; e--) {
        int got = tb_sweep_load(g, dir, e, &t->set[t->layers], err, errlen);
        if (got <= 0) {
            if (got == 0)
                util_error(err, errlen, "%s is not solved in %s: no layer of %d empty squares "
                           "(pnsolve tb build %s --dir %s)", g->name, dir, e, g->name, dir);
            tb_layers_close(t);
            return NULL;
        }
        tb_sweep_layer *st = &t->set[t->layers].h.st;
        t->st[t->layers] = (tb_layer_stats){ .empties = e, .states = st->states, .moving = st->moving,
                                             .passing = st->passing, .finished = st->finished };
        if (t->layers++, st->moving == 0)
            break;
    }
    return t;
}

tb_layers *tb_layers_open(const game *g, const char *dir, char *err, size_t errlen)
{
    if (!game_has_layers(g)) {
        util_error(err, errlen, "%s has no layer ranks (games whose every move adds a piece, up to 40 squares)",
                   g->name);
        return NULL;
    }
    tb_layers *t = tb_layers_open_sets(g, dir, err, errlen);
    for (int i = 0; t && i < t->layers; i++) {
        int got = tb_layers_load(t, i, dir, err, errlen);
        if (got == 0)
            util_error(err, errlen, "%s is not solved in %s: the layer of %d empty squares has no scores "
                       "(pnsolve tb build %s --dir %s)", g->name, dir, t->set[i].h.empties, g->name, dir);
        if (got <= 0) {
            tb_layers_close(t);
            return NULL;
        }
    }
    return t;
}

int tb_layers_probe(const tb_layers *t, const game_state *s, int *score)
{
    int e = game_empties(t->g, s), i = t->first_empties - e, images;
    if (e < 0 || i < 0 || i >= t->layers)
        return 0;
    int64_t at = tb_sweep_find(&t->set[i], game_layer_rank(t->g, s, &images));
    if (at < 0)
        return 0;
    *score = t->score[i][at];
    return 1;
}

int tb_layers_count(const tb_layers *t) { return t->layers; }

uint64_t tb_layers_size(const tb_layers *t, int i)
{
    const tb_sweep_set *l = &t->set[i];
    return l->first[l->h.segments - 1] + l->seg[l->h.segments - 1].n;
}

void tb_layers_each(const tb_layers *t, int i, void (*fn)(void *ctx, const game_state *s, int score, int images),
                    void *ctx)
{
    const tb_sweep_set *l = &t->set[i];
    for (int k = 0; k < l->h.segments; k++) {
        util_efset_walk w;
        util_efset_walk_start(&w, &l->seg[k], 0, l->seg[k].high_words);
        uint64_t v, idx;
        while (util_efset_walk_next(&w, &v, &idx)) {
            game_state s;
            int images;
            game_layer_unrank(t->g, l->h.empties, (uint64_t)k * l->h.span + v, &s);
            game_layer_rank(t->g, &s, &images);
            fn(ctx, &s, t->score[i][l->first[k] + idx], images);
        }
    }
}

void tb_layers_stats(const tb_layers *t, int i, tb_layer_stats *st) { *st = t->st[i]; }

