/* api/tables.c - the public API's tables (pnsolve.h), over the probe side
 * alone: a program that only probes links nothing of the builders or the
 * search (tests/layering.sh checks it on examples/probe_table.c). */
#include "api.h"
#include "../util/util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

pnsolve_tables *pnsolve_tables_open(const pnsolve_game *h, const char *dir, char *err, size_t errlen)
{
    struct stat st;
    if (!h || !dir) {
        pnsolve_api_fail(PNSOLVE_EINVAL, err, errlen, "no %s (NULL)", !h ? "game" : "directory");
        return NULL;
    }
    int e = stat(dir, &st) != 0 ? errno : 0;
    if (e || !S_ISDIR(st.st_mode)) {  /* else every probe would say "no table" */
        pnsolve_api_fail(PNSOLVE_EIO, err, errlen, "%s: %s", dir, e ? strerror(e) : "not a directory");
        return NULL;
    }
    if (!game_tables(h->g) && !game_has_layers(h->g)) {
        pnsolve_api_fail(PNSOLVE_EINVAL, err, errlen, "%s has no endgame tables", h->g->name);
        return NULL;
    }
    pnsolve_tables *t = calloc(1, sizeof *t);
    if (!t) {
        pnsolve_api_fail(PNSOLVE_ENOMEM, err, errlen, "out of memory");
        return NULL;
    }
    char why[600];
    if (!(t->t = tb_open(h->g, dir, why, sizeof why))) {  /* every table checked now, not at a probe */
        pnsolve_api_fail(PNSOLVE_EIO, err, errlen, "%s", why);
        free(t);
        return NULL;
    }
    t->g = h->g;
    return t;
}

void pnsolve_tables_close(pnsolve_tables *t)
{
    if (t)
        tb_close(t->t);
    free(t);
}

pnsolve_status pnsolve_tables_probe(pnsolve_tables *t, const char *position, int *wdl, int *distance, char *err,
                                    size_t errlen)
{
    if (!t || !wdl || !distance)
        return pnsolve_api_fail(PNSOLVE_EINVAL, err, errlen, "no %s (NULL)", !t ? "tables" : "output");
    game_state s;
    char why[600];
    pnsolve_status rc = pnsolve_api_position(t->g, position, &s, err, errlen);
    if (rc != PNSOLVE_OK)
        return rc;
    if (game_result_of(t->g, &s) != GAME_ONGOING)
        return pnsolve_api_fail(PNSOLVE_EINVAL, err, errlen, "the game is over in this position");
    tb_value v;
    int found = tb_probe(t->t, &s, &v, why, sizeof why);
    if (found < 0)
        return pnsolve_api_fail(PNSOLVE_EIO, err, errlen, "%s", why);
    if (found == 0)
        return pnsolve_api_fail(PNSOLVE_ETABLE, err, errlen, "no table for this position's material");
    *wdl = v.wdl == TB_WIN ? 1 : v.wdl == TB_LOSS ? -1 : 0;
    *distance = v.distance;
    return PNSOLVE_OK;
}

pnsolve_status pnsolve_tables_probe_moves(pnsolve_tables *t, const char *position, pnsolve_move_value *out, int cap,
                                          int *count, char *err, size_t errlen)
{
    if (!t || !out || !count)
        return pnsolve_api_fail(PNSOLVE_EINVAL, err, errlen, "no %s (NULL)", !t ? "tables" : "output");
    game_state s;
    pnsolve_status rc = pnsolve_api_position(t->g, position, &s, err, errlen);
    if (rc != PNSOLVE_OK)
        return rc;
    *count = 0;
    if (game_result_of(t->g, &s) != GAME_ONGOING)
        return PNSOLVE_OK;
    tb_move_value mv[GAME_MAX_MOVES];
    char why[600];
    int n = tb_probe_moves(t->t, &s, mv, why, sizeof why);
    if (n < 0)
        return pnsolve_api_fail(PNSOLVE_EIO, err, errlen, "%s", why);
    if (n > cap)
        return pnsolve_api_fail(PNSOLVE_ESPACE, err, errlen, "%d moves, room for %d", n, cap);
    for (int i = 0; i < n; i++) {  /* tb_probe_moves's order, best first */
        if ((rc = pnsolve_api_move_value(t->g, &s, mv[i].move, &out[i], err, errlen)) != PNSOLVE_OK)
            return rc;
        const tb_value *v = &mv[i].value;
        out[i].known = mv[i].found;
        out[i].wdl = mv[i].found ? (v->wdl == TB_WIN ? 1 : v->wdl == TB_LOSS ? -1 : 0) : 0;
        out[i].distance = mv[i].found ? v->distance : 0;
        out[i].has_score = mv[i].found && v->scored;
        out[i].score = v->scored ? v->score : 0;
    }
    *count = n;
    return PNSOLVE_OK;
}

pnsolve_status pnsolve_tables_score(pnsolve_tables *t, const char *position, int *score, char *err, size_t errlen)
{
    if (!t || !score)
        return pnsolve_api_fail(PNSOLVE_EINVAL, err, errlen, "no %s (NULL)", !t ? "tables" : "output");
    if (!tb_set_scored(t->t))
        return pnsolve_api_fail(PNSOLVE_EINVAL, err, errlen, "%s's tables hold win, draw or loss, not scores",
                                t->g->name);
    game_state s;
    pnsolve_status rc = pnsolve_api_position(t->g, position, &s, err, errlen);
    if (rc != PNSOLVE_OK)
        return rc;
    tb_value v;
    if (tb_probe(t->t, &s, &v, NULL, 0) != 1)
        return pnsolve_api_fail(PNSOLVE_ETABLE, err, errlen, "not reachable from %s's start", t->g->name);
    *score = v.score;
    return PNSOLVE_OK;
}
