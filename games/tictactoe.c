/* games/tictactoe.c - tic-tac-toe, the smallest complete game: the worked
 * example of docs/design.md ("Adding a game").  It offers the core rules
 * and a drawn board only, so every search and the proof checker run on it,
 * and no table, solver or symmetry code is asked of it.
 *
 * Squares a1..c3, square = (rank-1)*3 + file.  State words: w[0] X's
 * squares (player 0, moves first), w[1] O's.  The side to move follows from
 * the counts.  Notation: three rows from the top, '/' between them, 'x',
 * 'o' or '.' per square, e.g. "x../.o./..x" (the side to move is implied).
 */
#include "game_impl.h"
#include "../util/util.h"

#include <string.h>

static const uint16_t lines[8] = { 0007, 0070, 0700, 0111, 0222, 0444, 0421, 0124 };

static int has_line(uint64_t bits)
{
    for (int i = 0; i < 8; i++)
        if ((bits & lines[i]) == lines[i])
            return 1;
    return 0;
}

static uint64_t empty_of(const game_state *s) { return ~(s->w[0] | s->w[1]) & 0777; }

static void ttt_start(const game *g, game_state *s)
{
    (void)g;
    memset(s, 0, sizeof *s);
}

static int ttt_to_move(const game *g, const game_state *s)
{
    (void)g;
    return __builtin_popcountll(s->w[0]) > __builtin_popcountll(s->w[1]);
}

static game_result ttt_result(const game *g, const game_state *s)
{
    (void)g;
    if (has_line(s->w[0]))
        return GAME_WIN0;
    if (has_line(s->w[1]))
        return GAME_WIN1;
    return empty_of(s) ? GAME_ONGOING : GAME_DRAW;
}

static int ttt_moves(const game *g, const game_state *s, game_move *out)
{
    if (ttt_result(g, s) != GAME_ONGOING)
        return 0;
    int n = 0;
    for (uint64_t e = empty_of(s); e; e &= e - 1)
        out[n++] = (game_move)__builtin_ctzll(e);
    return n;
}

static int ttt_count(const game *g, const game_state *s)
{
    return ttt_result(g, s) == GAME_ONGOING ? __builtin_popcountll(empty_of(s)) : 0;
}

static void ttt_play(const game *g, game_state *s, game_move m)
{
    s->w[ttt_to_move(g, s)] |= (uint64_t)1 << m;
}

static game_key ttt_key(const game *g, const game_state *s)
{
    (void)g;
    return (game_key){ s->w[0] | s->w[1] << 9, 0 };
}

static int ttt_score(const game *g, const game_state *s)
{
    game_result r = ttt_result(g, s);
    return r == GAME_WIN0 ? 1 : r == GAME_WIN1 ? -1 : 0;
}

static int ttt_parse(const game *g, const char *text, game_state *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    for (int rank = 2; rank >= 0; rank--) {
        for (int file = 0; file < 3; file++, text++) {
            int sq = rank * 3 + file;
            if (*text == 'x')
                s->w[0] |= 1u << sq;
            else if (*text == 'o')
                s->w[1] |= 1u << sq;
            else if (*text != '.')
                return util_error(err, errlen, "tictactoe: expected x, o or . at square %c%d", 'a' + file, rank + 1);
        }
        if (rank > 0 && *text++ != '/')
            return util_error(err, errlen, "tictactoe: expected '/' after rank %d", rank + 1);
    }
    if (*text)
        return util_error(err, errlen, "tictactoe: unexpected text after the board: '%s'", text);
    int x = __builtin_popcountll(s->w[0]), o = __builtin_popcountll(s->w[1]);
    if (x != o && x != o + 1)
        return util_error(err, errlen, "tictactoe: %d x and %d o cannot arise (x moves first)", x, o);
    if (has_line(s->w[0]) && has_line(s->w[1]))
        return util_error(err, errlen, "tictactoe: both sides have a line");
    /* the game ends with the line: nobody moves after it */
    if (has_line(s->w[0]) && x != o + 1)
        return util_error(err, errlen, "tictactoe: o moved after x's line ended the game");
    if (has_line(s->w[1]) && x != o)
        return util_error(err, errlen, "tictactoe: x moved after o's line ended the game");
    (void)g;
    return 0;
}

static void ttt_format(const game *g, const game_state *s, char *buf, size_t len)
{
    (void)g;
    char t[12];
    int n = 0;
    for (int rank = 2; rank >= 0; rank--) {
        for (int file = 0; file < 3; file++) {
            int sq = rank * 3 + file;
            t[n++] = (s->w[0] >> sq & 1) ? 'x' : (s->w[1] >> sq & 1) ? 'o' : '.';
        }
        if (rank > 0)
            t[n++] = '/';
    }
    t[n] = 0;
    snprintf(buf, len, "%s", t);
}

static void ttt_format_move(const game *g, const game_state *s, game_move m, char *buf, size_t len)
{
    (void)g;
    (void)s;
    snprintf(buf, len, "%c%u", 'a' + (int)(m % 3), m / 3 + 1);
}

static void ttt_diagram(const game *g, const game_state *s, FILE *out)
{
    char t[16];
    ttt_format(g, s, t, sizeof t);
    for (int rank = 0; rank < 3; rank++)
        fprintf(out, "%d %c %c %c\n", 3 - rank, t[rank * 4], t[rank * 4 + 1], t[rank * 4 + 2]);
    fputs("  a b c\n", out);
}

static void ttt_square(const game *g, const game_state *s, int file, int rank, game_square *out)
{
    (void)g;
    int sq = rank * 3 + file, p = (s->w[0] >> sq & 1) ? 0 : (s->w[1] >> sq & 1) ? 1 : -1;
    *out = (game_square){ .player = p, .letter = p < 0 ? 0 : p ? 'O' : 'X' };
}

static const game_puzzle_ops ttt_puzzle_ops = { .square = ttt_square, .light_player = 1 };

static const game_ops tictactoe_ops = {
    .name = "tictactoe",
    .player = { "X", "O" },
    .finished_is_perft_leaf = 0,
    .start = ttt_start,
    .moves = ttt_moves,
    .count = ttt_count,
    .play = ttt_play,
    .result = ttt_result,
    .to_move = ttt_to_move,
    .key = ttt_key,
    .score = ttt_score,
    .parse = ttt_parse,
    .format = ttt_format,
    .format_move = ttt_format_move,
    .diagram = ttt_diagram,
    .puzzle = &ttt_puzzle_ops,
};

game *tictactoe_open(const char *args, const char *variant, char *err, size_t errlen)
{
    if (*args || variant) {
        util_error(err, errlen, "tictactoe takes no size or variant");
        return NULL;
    }
    game *g = game_alloc(&tictactoe_ops, "tictactoe");
    if (!g) {
        util_error(err, errlen, "out of memory");
        return NULL;
    }
    g->width = g->height = 3;
    return g;
}
