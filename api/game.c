/* api/game.c - the public API's games and positions (pnsolve.h): a
 * handle that owns a game, positions as text. */
#include "api.h"
#include "../util/util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

pnsolve_status pnsolve_api_fail(pnsolve_status code, char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return code;
}

const char *pnsolve_version(void) { return PNSOLVE_VERSION; }

pnsolve_game *pnsolve_game_open(const char *spec, const char *variant, char *err, size_t errlen)
{
    char why[300] = "";
    if (!spec) {
        pnsolve_api_fail(PNSOLVE_EINVAL, err, errlen, "no game named");
        return NULL;
    }
    pnsolve_game *h = calloc(1, sizeof *h);
    if (!h) {
        pnsolve_api_fail(PNSOLVE_ENOMEM, err, errlen, "out of memory");
        return NULL;
    }
    h->g = game_open(spec, variant, why, sizeof why);
    if (!h->g) {
        pnsolve_api_fail(PNSOLVE_EINVAL, err, errlen, "%s", why);
        free(h);
        return NULL;
    }
    return h;
}

void pnsolve_game_close(pnsolve_game *h)
{
    if (h)
        game_close(h->g);
    free(h);
}

const char *pnsolve_game_name(const pnsolve_game *h) { return h ? h->g->name : NULL; }

int pnsolve_game_score_bound(const pnsolve_game *h) { return h && h->g->score_bound > 0 ? h->g->score_bound : 0; }

pnsolve_status pnsolve_game_start(const pnsolve_game *h, char *buf, size_t len)
{
    if (!h || !buf || !len)
        return PNSOLVE_EINVAL;
    game_state s;
    game_start(h->g, &s);
    game_format(h->g, &s, buf, len);
    return PNSOLVE_OK;
}

pnsolve_status pnsolve_api_position(const game *g, const char *position, game_state *s, char *err, size_t errlen)
{
    char why[300];
    if (!position) {
        game_start(g, s);
        return PNSOLVE_OK;
    }
    return game_parse(g, position, s, why, sizeof why) == 0 ? PNSOLVE_OK
                                                            : pnsolve_api_fail(PNSOLVE_EINVAL, err, errlen, "%s", why);
}

pnsolve_status pnsolve_position_check(const pnsolve_game *h, const char *position, char *buf, size_t len, char *err,
                                      size_t errlen)
{
    if (!h)
        return pnsolve_api_fail(PNSOLVE_EINVAL, err, errlen, "no game (NULL)");
    game_state s;
    pnsolve_status rc = pnsolve_api_position(h->g, position, &s, err, errlen);
    if (rc == PNSOLVE_OK && buf)
        game_format(h->g, &s, buf, len);
    return rc;
}
