/* tests/test_games_tictactoe.c - the fifth game, added by touching only games/ and
 * tests/: its rules against a naive reference written apart (a char board
 * and the eight lines spelled out), every reachable position's value from
 * the searches against plain minimax, and a proof that the checker accepts. */
#include "suites.h"

#include <stdlib.h>
#include <string.h>

/* --- the naive reference ------------------------------------------------ */

static char ref_winner(const char b[9])
{
    static const int line[8][3] = { { 0, 1, 2 }, { 3, 4, 5 }, { 6, 7, 8 }, { 0, 3, 6 },
                                    { 1, 4, 7 }, { 2, 5, 8 }, { 0, 4, 8 }, { 2, 4, 6 } };
    for (int i = 0; i < 8; i++)
        if (b[line[i][0]] != '.' && b[line[i][0]] == b[line[i][1]] && b[line[i][1]] == b[line[i][2]])
            return b[line[i][0]];
    return 0;
}

static int ref_full(const char b[9]) { return memchr(b, '.', 9) == NULL; }

/* sequences of depth moves that no earlier end cuts short (perft) */
static uint64_t ref_perft(char b[9], char mover, int depth)
{
    if (depth == 0)
        return 1;
    if (ref_winner(b) || ref_full(b))
        return 0;
    uint64_t n = 0;
    for (int i = 0; i < 9; i++)
        if (b[i] == '.') {
            b[i] = mover;
            n += ref_perft(b, mover == 'x' ? 'o' : 'x', depth - 1);
            b[i] = '.';
        }
    return n;
}

/* complete games from b */
static uint64_t ref_games(char b[9], char mover)
{
    if (ref_winner(b) || ref_full(b))
        return 1;
    uint64_t n = 0;
    for (int i = 0; i < 9; i++)
        if (b[i] == '.') {
            b[i] = mover;
            n += ref_games(b, mover == 'x' ? 'o' : 'x');
            b[i] = '.';
        }
    return n;
}

/* value for the side to move: +1 win, 0 draw, -1 loss */
static int ref_value(char b[9], char mover)
{
    char w = ref_winner(b);
    if (w)
        return w == mover ? 1 : -1;
    if (ref_full(b))
        return 0;
    int best = -1;
    for (int i = 0; i < 9 && best < 1; i++)
        if (b[i] == '.') {
            b[i] = mover;
            int v = -ref_value(b, mover == 'x' ? 'o' : 'x');
            b[i] = '.';
            if (v > best)
                best = v;
        }
    return best;
}

/* the board of s in the reference's layout: square = (rank-1)*3 + file */
static void ref_board(const game *g, const game_state *s, char b[9])
{
    char t[GAME_TEXT_MAX];
    game_format(g, s, t, sizeof t);
    for (int rank = 2, k = 0; rank >= 0; rank--, k++)
        for (int file = 0; file < 3; file++)
            b[rank * 3 + file] = t[k * 4 + file];
}

/* --- tests -------------------------------------------------------------- */

static void test_ttt_perft(void)
{
    game *g = test_open("tictactoe", NULL);
    game_state s;
    game_start(g, &s);
    char b[9];
    memset(b, '.', 9);
    for (int d = 1; d <= 10; d++)
        CU_ASSERT_EQUAL(game_perft(g, &s, d, NULL), ref_perft(b, 'x', d));
    /* published: 255,168 possible games, 127,872 of them nine moves long */
    CU_ASSERT_EQUAL(ref_games(b, 'x'), 255168);
    CU_ASSERT_EQUAL(game_perft(g, &s, 9, NULL), 127872);
    game_close(g);
}

static int values_checked, positions_seen;

/* Every position reachable from s: the searches' value against minimax. */
static void check_values(const game *g, const game_state *s, pns_options *o, uint8_t *seen)
{
    game_key k = game_key_of(g, s);
    if (seen[k.lo])
        return;
    seen[k.lo] = 1;
    positions_seen++;
    char b[9];
    ref_board(g, s, b);
    int want = ref_value(b, game_to_move(g, s) == 0 ? 'x' : 'o');
    if (ref_winner(b) || ref_full(b))
        return;
    for (int algo = 0; algo < 2; algo++) {
        o->algo = algo ? PNS_BEST_FIRST : PNS_DFPN;
        CU_ASSERT_EQUAL(pns_value(g, s, o, NULL, NULL), want);
    }
    values_checked++;
    game_move mv[GAME_MAX_MOVES];
    int n = game_moves(g, s, mv);
    for (int i = 0; i < n; i++) {
        game_state t = *s;
        game_play(g, &t, mv[i]);
        check_values(g, &t, o, seen);
    }
}

static void test_ttt_values(void)
{
    game *g = test_open("tictactoe", NULL);
    game_state s;
    game_start(g, &s);
    pns_options o;
    pns_defaults(&o);
    o.memory = (size_t)1 << 20;
    uint8_t *seen = calloc(1 << 18, 1);
    values_checked = positions_seen = 0;
    check_values(g, &s, &o, seen);
    /* published: 5,478 reachable positions, 958 of them final */
    CU_ASSERT_EQUAL(positions_seen, 5478);
    CU_ASSERT_EQUAL(values_checked, 5478 - 958);
    CU_ASSERT_EQUAL(pns_value(g, &s, &o, NULL, NULL), 0);  /* tic-tac-toe is a draw */
    free(seen);
    game_close(g);
}

static void test_ttt_proofs(void)
{
    game *g = test_open("tictactoe", NULL);
    pns_options o;
    pns_defaults(&o);
    o.memory = (size_t)1 << 20;
    const char *pos[] = { ".../.../...", "x../.o./...", "xx./oo./...", "x../.../..." };
    for (size_t i = 0; i < sizeof pos / sizeof pos[0]; i++) {
        game_state s = test_parse(g, pos[i]);
        for (int q = 0; q < 2; q++) {
            o.question = q ? PNS_ADVANTAGE : PNS_WIN;
            pns_result r;
            char *text = test_proof_text(g, &s, &o, &r), err[256];
            CU_ASSERT_PTR_NOT_NULL_FATAL(text);
            CU_ASSERT_EQUAL(test_check_proof(text, NULL, err, sizeof err), 0);
            free(text);
        }
    }
    game_close(g);
}

/* Marks every board play reaches from s, by its two 9-bit sets. */
static void mark_reached(const game *g, const game_state *s, uint8_t *reached)
{
    uint64_t k = s->w[0] | s->w[1] << 9;
    if (reached[k])
        return;
    reached[k] = 1;
    game_move mv[GAME_MAX_MOVES];
    int n = game_moves(g, s, mv);
    for (int i = 0; i < n; i++) {
        game_state t = *s;
        game_play(g, &t, mv[i]);
        mark_reached(g, &t, reached);
    }
}

static void test_ttt_parse(void)
{
    game *g = test_open("tictactoe", NULL);
    const char *bad[] = { "xxx/ooo/...", "xx./.../...", "x../...", "x../.../...z", "x../.q./...", "" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        game_state s;
        char err[256] = "";
        CU_ASSERT_EQUAL(game_parse(g, bad[i], &s, err, sizeof err), -1);
        CU_ASSERT(strncmp(err, "tictactoe: ", 11) == 0);
    }
    char err[256];
    CU_ASSERT_PTR_NULL(game_open("tictactoe:4x4", NULL, err, sizeof err));
    /* of the 3^9 boards, the parser takes exactly those play reaches */
    uint8_t *reached = calloc(1 << 18, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(reached);
    game_state s;
    game_start(g, &s);
    mark_reached(g, &s, reached);
    int accepted = 0, wrong = 0;
    for (int code = 0; code < 19683; code++) {
        char text[16];
        for (int sq = 0, c = code, at = 0; sq < 9; sq++, c /= 3) {
            text[at++] = ".xo"[c % 3];
            if (sq % 3 == 2)
                text[at++] = sq == 8 ? 0 : '/';
        }
        int ok = game_parse(g, text, &s, err, sizeof err) == 0;
        accepted += ok;
        wrong += ok ? !reached[s.w[0] | s.w[1] << 9] : 0;
    }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(accepted, 5478);
    free(reached);
    game_close(g);
}

void suite_tictactoe(void)
{
    CU_pSuite s = CU_add_suite("tictactoe", NULL, NULL);
    CU_add_test(s, "tictactoe perft against a naive reference, 255,168 games", test_ttt_perft);
    CU_add_test(s, "tictactoe: both searches' values of every reachable position against minimax", test_ttt_values);
    CU_add_test(s, "tictactoe: proofs of win and advantage questions pass the checker", test_ttt_proofs);
    CU_add_test(s, "tictactoe: malformed positions are refused with the game's name", test_ttt_parse);
}
