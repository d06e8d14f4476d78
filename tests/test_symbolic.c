/* tests/test_symbolic.c - the BDD of the states immediately won by White
 * (symbolic/) against a brute force written here over every board of 3x3,
 * 3x4 and 4x3 (every square empty, black or white; its own move rule), and
 * against the thesis's Table 7.3 for 4x4 and 4x5; a node limit refused. */
#include "suites.h"
#include "../symbolic/symbolic.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int BW, BH;

/* Whether `me` has a move: an empty square, then opponents in a line, then one of mine. */
static int naive_has_move(uint32_t me, uint32_t opp)
{
    static const int dr[8] = { -1, -1, -1, 0, 0, 1, 1, 1 }, dc[8] = { -1, 0, 1, -1, 1, -1, 0, 1 };
    for (int sq = 0; sq < BW * BH; sq++) {
        if ((me | opp) >> sq & 1)
            continue;
        for (int d = 0; d < 8; d++) {
            int r = sq / BW + dr[d], c = sq % BW + dc[d], n = 0;
            while (r >= 0 && r < BH && c >= 0 && c < BW && (opp >> (r * BW + c) & 1))
                r += dr[d], c += dc[d], n++;
            if (n && r >= 0 && r < BH && c >= 0 && c < BW && (me >> (r * BW + c) & 1))
                return 1;
        }
    }
    return 0;
}

/* Boards over and won by White, times two sides to move. */
static double naive_count(int w, int h)
{
    BW = w, BH = h;
    uint64_t boards = 1, won = 0;
    for (int i = 0; i < w * h; i++)
        boards *= 3;
    for (uint64_t code = 0; code < boards; code++) {
        uint64_t x = code;
        uint32_t b = 0, wh = 0;
        for (int i = 0; i < w * h; i++, x /= 3)
            if (x % 3 == 1) b |= 1u << i;
            else if (x % 3 == 2) wh |= 1u << i;
        if (__builtin_popcount(wh) > __builtin_popcount(b) && !naive_has_move(b, wh) && !naive_has_move(wh, b))
            won++;
    }
    return 2.0 * (double)won;
}

static void test_immediate_wins(void)
{
    static const int sizes[][2] = { { 3, 3 }, { 3, 4 }, { 4, 3 } };
    char err[300];
    sym_count c;
    for (int i = 0; i < 3; i++) {
        CU_ASSERT_EQUAL_FATAL(sym_immediate_wins(sizes[i][0], sizes[i][1], 0, &c, err, sizeof err), 0);
        CU_ASSERT_EQUAL(c.states, naive_count(sizes[i][0], sizes[i][1]));
        CU_ASSERT(c.states > 0 && c.nodes > 0);
    }
    /* van Dijk's Table 7.3 */
    CU_ASSERT_EQUAL_FATAL(sym_immediate_wins(4, 4, 0, &c, err, sizeof err), 0);
    CU_ASSERT_EQUAL(c.states, 901134);
    CU_ASSERT_EQUAL_FATAL(sym_immediate_wins(4, 5, 0, &c, err, sizeof err), 0);
    CU_ASSERT_EQUAL(c.states, 15172224);
    CU_ASSERT_EQUAL(sym_immediate_wins(4, 4, 20000, &c, err, sizeof err), -1);
    CU_ASSERT(strstr(err, "limit of 20000 nodes") != NULL);
    CU_ASSERT_EQUAL(sym_immediate_wins(9, 4, 0, &c, err, sizeof err), -1);
}

/* Van Dijk's algorithm 1 on 4x4: as many reachable states as the explicit
 * enumeration of tablebase/layers.c finds, layer by layer of the disc
 * count summed. */
static void test_reachable(void)
{
    static const int start[16] = { -1, -1, -1, -1, -1, 1, 0, -1, -1, 0, 1, -1, -1, -1, -1, -1 };
    static sym_reach re;
    char err[300], dir[64];
    CU_ASSERT_EQUAL_FATAL(sym_reachable(4, 4, start, 0, 0, &re, err, sizeof err), 0);
    snprintf(dir, sizeof dir, "/tmp/pnsolve-sym-%d", (int)getpid());
    mkdir(dir, 0777);
    game *g = test_open("othello:4x4", NULL);
    CU_ASSERT_EQUAL_FATAL(tb_layers_build(g, dir, 0, NULL, err, sizeof err), 0);
    tb_layers *t = tb_layers_open(g, dir, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    double explicit = 0;
    for (int i = 0; i < tb_layers_count(t); i++) {
        tb_layer_stats st;
        tb_layers_stats(t, i, &st);
        explicit += (double)st.states;
    }
    CU_ASSERT_EQUAL(re.states, explicit);
    CU_ASSERT(re.states > 60000);
    CU_ASSERT_EQUAL(re.iterations, 17);  /* 12 moves to fill the board, passes, and the image that adds nothing */
    tb_layers_close(t);
    game_close(g);
    CU_ASSERT_EQUAL(test_remove_dir(dir), 0);
}

void suite_symbolic(void)
{
    CU_pSuite s = CU_add_suite("symbolic", NULL, NULL);
    CU_add_test(s, "states immediately won by White: every 3x3, 3x4, 4x3 board by brute force; 4x4, 4x5 as Table 7.3", test_immediate_wins);
    CU_add_test(s, "algorithm 1 on 4x4: as many reachable states as the explicit layers", test_reachable);
}
