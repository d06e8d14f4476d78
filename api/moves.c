/* api/moves.c - the public API's moves (pnsolve.h 1.1): a position's legal
 * moves as text, a move played, a finished game's result, and the value
 * type of a move that the tables and the search fill. */
#include "api.h"
#include "../util/util.h"

#include <stdio.h>
#include <string.h>

pnsolve_status pnsolve_moves(const pnsolve_game *h, const char *position, char *buf, size_t len, int *count, char *err,
                             size_t errlen)
{
    if (!h || !buf || !count)
        return pnsolve_api_fail(PNSOLVE_EINVAL, err, errlen, "no %s (NULL)", !h ? "game" : "output");
    game_state s;
    pnsolve_status rc = pnsolve_api_position(h->g, position, &s, err, errlen);
    if (rc != PNSOLVE_OK)
        return rc;
    game_move mv[GAME_MAX_MOVES];
    int n = game_result_of(h->g, &s) == GAME_ONGOING ? game_moves(h->g, &s, mv) : 0;
    size_t at = 0;
    char text[GAME_TEXT_MAX];
    for (int i = 0; i < n; i++) {
        game_format_move(h->g, &s, mv[i], text, sizeof text);
        at += strlen(text) + (i > 0);
    }
    if (at + 1 > len)
        return pnsolve_api_fail(PNSOLVE_ESPACE, err, errlen, "the moves need %zu bytes, the buffer has %zu", at + 1,
                                len);
    at = 0;
    buf[0] = 0;
    for (int i = 0; i < n; i++) {
        game_format_move(h->g, &s, mv[i], text, sizeof text);
        at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? " " : "", text);
    }
    *count = n;
    return PNSOLVE_OK;
}

/* The text of state s into buf: PNSOLVE_OK, or ESPACE. */
static pnsolve_status put_position(const game *g, const game_state *s, char *buf, size_t len, char *err, size_t errlen)
{
    char text[GAME_TEXT_MAX];
    game_format(g, s, text, sizeof text);
    if (strlen(text) + 1 > len)
        return pnsolve_api_fail(PNSOLVE_ESPACE, err, errlen, "the position needs %zu bytes, the buffer has %zu",
                                strlen(text) + 1, len);
    memcpy(buf, text, strlen(text) + 1);
    return PNSOLVE_OK;
}

pnsolve_status pnsolve_play(const pnsolve_game *h, const char *position, const char *move, char *buf, size_t len,
                            char *err, size_t errlen)
{
    if (!h || !move || !buf)
        return pnsolve_api_fail(PNSOLVE_EINVAL, err, errlen, "no %s (NULL)", !h ? "game" : !move ? "move" : "output");
    game_state s;
    pnsolve_status rc = pnsolve_api_position(h->g, position, &s, err, errlen);
    if (rc != PNSOLVE_OK)
        return rc;
    if (game_result_of(h->g, &s) != GAME_ONGOING)
        return pnsolve_api_fail(PNSOLVE_EINVAL, err, errlen, "the game is over: no move '%s'", move);
    game_move mv[GAME_MAX_MOVES];
    int n = game_moves(h->g, &s, mv);
    char text[GAME_TEXT_MAX];
    for (int i = 0; i < n; i++) {  /* legal exactly when it prints as a generated move */
        game_format_move(h->g, &s, mv[i], text, sizeof text);
        if (strcmp(text, move) == 0) {
            game_play(h->g, &s, mv[i]);
            return put_position(h->g, &s, buf, len, err, errlen);
        }
    }
    return pnsolve_api_fail(PNSOLVE_EINVAL, err, errlen, "'%s' is not a legal move here (%d legal moves)", move, n);
}

pnsolve_status pnsolve_position_over(const pnsolve_game *h, const char *position, int *over, int *result, int *score,
                                     char *err, size_t errlen)
{
    if (!h || !over || !result || !score)
        return pnsolve_api_fail(PNSOLVE_EINVAL, err, errlen, "no %s (NULL)", !h ? "game" : "output");
    game_state s;
    pnsolve_status rc = pnsolve_api_position(h->g, position, &s, err, errlen);
    if (rc != PNSOLVE_OK)
        return rc;
    game_result r = game_result_of(h->g, &s);
    *over = r != GAME_ONGOING;
    *result = *over ? game_outcome_for(r, game_to_move(h->g, &s)) : 0;
    *score = 0;
    if (*over && h->g->score_bound > 0) {  /* a game that scores */
        int v = game_score(h->g, &s);
        *score = game_to_move(h->g, &s) == 0 ? v : -v;
    }
    return PNSOLVE_OK;
}

pnsolve_status pnsolve_api_move_value(const game *g, const game_state *s, game_move m, pnsolve_move_value *out,
                                      char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    game_state c = *s;
    game_play(g, &c, m);
    char text[GAME_TEXT_MAX];
    game_format_move(g, s, m, text, sizeof text);
    if (strlen(text) + 1 > sizeof out->move)
        return pnsolve_api_fail(PNSOLVE_ESPACE, err, errlen, "a move of %zu bytes", strlen(text));
    memcpy(out->move, text, strlen(text) + 1);
    return put_position(g, &c, out->position, sizeof out->position, err, errlen);
}

/* A move's rank, lower first: the tables' order (tb_move_rank). */
static long move_rank(const pnsolve_move_value *m)
{
    tb_move_value v = { .found = m->known,
                        .value = { .wdl = (tb_wdl)m->wdl, .distance = m->distance, .scored = m->has_score,
                                   .score = m->score } };
    return tb_move_rank(&v);
}

void pnsolve_api_sort_moves(pnsolve_move_value *out, int n)
{
    for (int i = 1; i < n; i++)  /* an insertion sort: stable, and a position has few moves */
        for (int j = i; j > 0 && move_rank(&out[j - 1]) > move_rank(&out[j]); j--) {
            pnsolve_move_value x = out[j];
            out[j] = out[j - 1], out[j - 1] = x;
        }
}

_Static_assert(PNSOLVE_TEXT_MAX >= GAME_TEXT_MAX, "a position or move as text fits PNSOLVE_TEXT_MAX");
_Static_assert(GAME_MAX_MOVES == 256, "the engine and the Python package hold 256 moves a position");
