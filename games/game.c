/* games/game.c - what the games share: parsing helpers and perft. */
#include "game_impl.h"
#include "../util/util.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int game_parse_size(const char *game_name, const char *args, int lo, int hi, int *w, int *h, char *err, size_t errlen)
{
    long a, b;
    if (*args && util_read_pair(args, 'x', NULL, lo, hi, &a, &b, NULL) != 0)
        return util_error(err, errlen, "bad %s board '%.60s' (WxH, each %d to %d)", game_name, args, lo, hi);
    if (*args)
        *w = (int)a, *h = (int)b;
    return 0;
}

game *game_alloc(const game_ops *ops, const char *name)
{
    game *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->ops = ops;
    snprintf(g->name, sizeof g->name, "%s", name);
    return g;
}

int game_parse(const game *g, const char *text, game_state *s, char *err, size_t errlen)
{
    if (!text)
        return util_error(err, errlen, "no position given");
    while (isspace((unsigned char)*text))
        text++;
    size_t n = strlen(text);
    while (n && isspace((unsigned char)text[n - 1]))
        n--;
    if (n >= GAME_TEXT_MAX)
        return util_error(err, errlen, "position too long (%zu characters)", n);
    char buf[GAME_TEXT_MAX];
    memcpy(buf, text, n);
    buf[n] = 0;
    memset(s, 0, sizeof *s);
    return g->ops->parse(g, buf, s, err, errlen);
}

/* A move is legal iff it prints as one of the legal moves: one parser for all
 * games, and it can never accept a move the generator would not make. */
int game_parse_move(const game *g, const game_state *s, const char *text, game_move *m, char *err, size_t errlen)
{
    game_move list[GAME_MAX_MOVES];
    char buf[GAME_TEXT_MAX];
    int n = game_moves(g, s, list);
    if (n == 0)
        return util_error(err, errlen, "no move '%s': the game is over", text);
    for (int i = 0; i < n; i++) {
        game_format_move(g, s, list[i], buf, sizeof buf);
        if (strcmp(buf, text) == 0) {
            *m = list[i];
            return 0;
        }
    }
    return util_error(err, errlen, "illegal or malformed move '%s'", text);
}

static uint64_t perft_rec(const game *g, const game_state *s, int depth, volatile int *stop)
{
    if (depth == 1) {
        int c = game_count(g, s);
        return c ? (uint64_t)c : (uint64_t)g->ops->finished_is_perft_leaf;
    }
    game_move list[GAME_MAX_MOVES];
    int n = game_moves(g, s, list);
    if (n == 0)
        return (uint64_t)g->ops->finished_is_perft_leaf;
    if (stop && *stop)
        return 0;
    uint64_t sum = 0;
    for (int i = 0; i < n; i++) {
        game_state t = *s;
        game_play(g, &t, list[i]);
        sum += perft_rec(g, &t, depth - 1, stop);
    }
    return sum;
}

uint64_t game_perft(const game *g, const game_state *s, int depth, volatile int *stop)
{
    return depth <= 0 ? 1 : perft_rec(g, s, depth, stop);
}
