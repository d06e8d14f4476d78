/* pns/validate.c - the search checked against retrograde analysis. */
#include "pns_internal.h"

#include <string.h>

int draw_canonical(const game *g, int mat, uint64_t *rng, game_state *s)
{
    const game_tb_ops *ops = g->ops->tb;
    uint64_t size = ops->size(g, mat);
    for (int tries = 0; tries < 1000; tries++) {
        uint64_t i = next_random(rng) % size;
        ops->unindex(g, mat, i, s);
        if (game_result_of(g, s) == GAME_ONGOING && ops->index(g, s) == i && ops->material_of(g, s) == mat)
            return 0;
    }
    return -1;
}

int pns_validate(const game *g, const char *dir, int pieces, uint64_t count, uint64_t seed, const pns_options *o,
                 pns_validation *v, FILE *log, char *err, size_t errlen)
{
    memset(v, 0, sizeof *v);
    const game_tb_ops *ops = g->ops->tb;
    if (!ops)
        return game_error(err, errlen, "%s has no endgame tables", g->name);
    int all[4096], mats[4096], n = 0, m = ops->materials(g, pieces, all, 4096);
    for (int i = 0; i < m; i++)
        if (ops->material_pieces(g, all[i]) == pieces)
            mats[n++] = all[i];
    if (n == 0)
        return game_error(err, errlen, "no material with %d pieces", pieces);
    double t0 = search_clock();
    uint64_t rng = seed;
    for (int k = 0; k < n && !(o->stop && *o->stop); k++) {
        /* one table set per material, with that material withheld */
        tb_set *full = tb_open(g, dir), *withheld = tb_open(g, dir);
        if (!full || !withheld) {
            tb_close(full);
            tb_close(withheld);
            return game_error(err, errlen, "out of memory");
        }
        int rc = tb_load(full, mats[k], err, errlen);
        char name[64];
        ops->material_name(g, mats[k], name, sizeof name);
        if (rc <= 0) {
            tb_close(full);
            tb_close(withheld);
            return rc < 0 ? -1 : game_error(err, errlen, "no table for %s in %s", name, dir);
        }
        tb_withhold(withheld, mats[k]);
        uint64_t share = count / (uint64_t)n + ((uint64_t)k < count % (uint64_t)n);
        for (uint64_t j = 0; j < share && !(o->stop && *o->stop); j++) {
            game_state s;
            if (draw_canonical(g, mats[k], &rng, &s) != 0)
                break;
            tb_value tv;
            if (tb_probe(full, &s, &tv, err, errlen) != 1) {
                tb_close(full);
                tb_close(withheld);
                return -1;
            }
            pns_options q = *o;
            q.tb = withheld;
            q.prover = -1;
            pns_result w, a;
            int value = pns_value(g, &s, &q, &w, &a);
            v->positions++;
            v->nodes += w.nodes + a.nodes;
            if (w.error[0] || a.error[0]) {
                snprintf(err, errlen, "%s", w.error[0] ? w.error : a.error);
                tb_close(full);
                tb_close(withheld);
                return -1;
            }
            if (value == 2) {
                v->unknown++;
                if (log) {
                    char text[GAME_TEXT_MAX];
                    game_format(g, &s, text, sizeof text);
                    fprintf(log, "unknown: %s table %d (stopped by %s)\n", text, (int)tv.wdl,
                            w.status == PNS_UNKNOWN ? w.stopped_by : a.stopped_by);
                }
            } else if (value == (int)tv.wdl) {
                v->agree++;
            } else {
                v->disagree++;
                if (log) {
                    char text[GAME_TEXT_MAX];
                    game_format(g, &s, text, sizeof text);
                    fprintf(log, "disagree: %s table %d search %d\n", text, (int)tv.wdl, value);
                }
            }
        }
        tb_close(full);
        tb_close(withheld);
    }
    v->seconds = search_clock() - t0;
    return 0;
}
