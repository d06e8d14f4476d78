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
    if (!game_tables(h->g)) {
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
