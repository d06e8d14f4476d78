/* pns/validate.c - the search checked against retrograde analysis. */
#include "search.h"
#include "../util/util.h"

#include <string.h>

static void report(const game *g, FILE *log, const char *what, const game_state *s, const tb_value *tv, const char *found)
{
    if (!log)
        return;
    char text[GAME_TEXT_MAX];
    game_format(g, s, text, sizeof text);
    fprintf(log, "%s: %s table %s %d, search %s\n", what, text,
            tv->wdl == TB_WIN ? "win" : tv->wdl == TB_LOSS ? "loss" : "draw", tv->distance, found);
}

/* Both questions by df-pn against the table: 1 agree, 0 disagree, 2 open,
 * -1 an error; what it found goes to found. */
static int check_dfpn(const game *g, const game_state *s, const tb_value *tv, tb_set *withheld, const pns_options *o,
                      pns_validation *v, char *found, size_t len, char *err, size_t errlen)
{
    pns_options q = *o;
    q.tb = withheld;
    q.prover = -1;
    pns_result w, a;
    int value = pns_value(g, s, &q, &w, &a);
    v->nodes += w.nodes + a.nodes;
    if (w.error[0] || a.error[0]) {
        snprintf(err, errlen, "%s", w.error[0] ? w.error : a.error);
        return -1;
    }
    if (value == 2) {
        snprintf(found, len, "open (stopped by %s)", w.status == PNS_UNKNOWN ? w.stopped_by : a.stopped_by);
        return 2;
    }
    snprintf(found, len, "%s", value == 1 ? "win" : value == -1 ? "loss" : "draw");
    return value == (int)tv->wdl;
}

/* The score search (every score question, no tables: it goes to the game's
 * end) against the table: 1 agree, 0 disagree, 2 open, -1 an error. */
static int check_score(const game *g, const game_state *s, const tb_value *tv, const pns_options *o,
                       pns_validation *v, char *found, size_t len, char *err, size_t errlen)
{
    pns_options q = *o;
    q.tb = NULL;
    q.prover = -1;
    pns_result r;
    int score, rc = pns_score(g, s, &q, -1, 1, &score, &r);
    v->nodes += r.nodes;
    if (r.error[0]) {
        snprintf(err, errlen, "%s", r.error);
        return -1;
    }
    if (rc != 0) {
        snprintf(found, len, "score open (stopped by %s)", r.stopped_by ? r.stopped_by : "?");
        return 2;
    }
    snprintf(found, len, "score %d", score);
    return score == (int)tv->wdl;
}

/* The depth-bounded search against the table within `within` plies: 1
 * agree, 0 disagree (described in found), 2 stopped, -1 an error. */
static int check_within(pns_mate *m, const game_state *s, const tb_value *tv, int within, pns_validation *v,
                        char *found, size_t len, char *err, size_t errlen)
{
    uint64_t before = pns_mate_nodes(m);
    int win = pns_mate_distance(m, s, within - !(within & 1));
    int loss = win < 0 ? -1 : pns_mate_loss_distance(m, s, within);
    v->nodes += pns_mate_nodes(m) - before;
    if (win < 0 || loss < 0) {
        const char *why = pns_mate_error(m);
        if (why && strcmp(why, "interrupted") == 0)
            return 2;
        snprintf(err, errlen, "%s", why ? why : "search failed");
        return -1;
    }
    int want_win = tv->wdl == TB_WIN && tv->distance <= within ? tv->distance : 0;
    int want_loss = tv->wdl == TB_LOSS && tv->distance <= within ? tv->distance : 0;
    snprintf(found, len, "win within %d: %d, loss within %d: %d (0: none)", within, win, within, loss);
    if (win != want_win || loss != want_loss)
        return 0;
    v->wins_within += win > 0;
    v->losses_within += loss > 0;
    return 1;
}

int pns_validate(const game *g, const char *dir, int pieces, uint64_t count, uint64_t seed, int within,
                 const pns_options *o, pns_validation *v, FILE *log, char *err, size_t errlen)
{
    memset(v, 0, sizeof *v);
    const game_tb_ops *ops = game_tables(g);
    if (!ops)
        return util_error(err, errlen, "%s has no endgame tables", g->name);
    int all[4096], mats[4096], n = 0, m = ops->materials(g, pieces, all, 4096);
    for (int i = 0; i < m; i++)
        if (ops->material_pieces(g, all[i]) == pieces)
            mats[n++] = all[i];
    if (n == 0)
        return util_error(err, errlen, "no material with %d pieces", pieces);
    double t0 = util_clock();
    uint64_t rng = seed;
    for (int k = 0; k < n && !(o->stop && __atomic_load_n(o->stop, __ATOMIC_RELAXED)); k++) {
        /* one table set per material, with that material withheld */
        tb_set *full = tb_open_lazy(g, dir), *withheld = tb_open_lazy(g, dir);
        if (!full || !withheld) {
            tb_close(full);
            tb_close(withheld);
            return util_error(err, errlen, "out of memory");
        }
        int rc = tb_load(full, mats[k], err, errlen);
        char name[64];
        ops->material_name(g, mats[k], name, sizeof name);
        if (rc <= 0) {
            tb_close(full);
            tb_close(withheld);
            return rc < 0 ? -1 : util_error(err, errlen, "no table for %s in %s", name, dir);
        }
        tb_withhold(withheld, mats[k]);
        pns_mate *m = within > 0 ? pns_mate_new(g, withheld, o->memory) : NULL;
        if (within > 0 && !m) {
            tb_close(full);
            tb_close(withheld);
            return util_error(err, errlen, "out of memory");
        }
        if (m)
            pns_mate_set_stop(m, o->stop);
        uint64_t share = count / (uint64_t)n + ((uint64_t)k < count % (uint64_t)n);
        int failed = 0;
        for (uint64_t j = 0; j < share && !failed && !(o->stop && __atomic_load_n(o->stop, __ATOMIC_RELAXED)); j++) {
            game_state s;
            if (tb_draw_position(full, g, mats[k], &rng, &s) != 0)
                break;
            tb_value tv;
            if (tb_probe(full, &s, &tv, err, errlen) != 1) {
                failed = 1;
                break;
            }
            char found[160];
            int rc = m ? check_within(m, &s, &tv, within, v, found, sizeof found, err, errlen)
                     : o->question == PNS_SCORE ? check_score(g, &s, &tv, o, v, found, sizeof found, err, errlen)
                                                : check_dfpn(g, &s, &tv, withheld, o, v, found, sizeof found, err, errlen);
            if (rc < 0) {
                failed = 1;
                break;
            }
            v->positions++;
            if (rc == 2) {
                v->unknown++;
                report(g, log, "unknown", &s, &tv, found);
            } else if (rc == 1) {
                v->agree++;
            } else {
                v->disagree++;
                report(g, log, "disagree", &s, &tv, found);
            }
        }
        pns_mate_free(m);
        tb_close(full);
        tb_close(withheld);
        if (failed)
            return -1;
    }
    v->seconds = util_clock() - t0;
    return 0;
}
