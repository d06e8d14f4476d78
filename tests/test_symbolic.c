/* tests/test_symbolic.c - symbolic/ against solvers written here: the
 * states immediately won by White against a brute force over every board
 * of 3x3, 3x4 and 4x3 (its own move rule) and the thesis's Table 7.3 for
 * 4x4 and 4x5; algorithm 1's reachable states against the explicit layers;
 * algorithms 2-5 against a naive minimax of every state of a 4x3 board and
 * algorithm 5 against the explicit 4x4 solution, state by state; node
 * limits refused. */
#include "suites.h"
#include "../symbolic/symbolic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int BW, BH;

/* The discs me flips by a disc on sq (0: not a move). */
static uint32_t flips(uint32_t me, uint32_t opp, int sq)
{
    static const int dr[8] = { -1, -1, -1, 0, 0, 1, 1, 1 }, dc[8] = { -1, 0, 1, -1, 1, -1, 0, 1 };
    uint32_t all = 0;
    if ((me | opp) >> sq & 1)
        return 0;
    for (int d = 0; d < 8; d++) {
        uint32_t run = 0;
        int r = sq / BW + dr[d], c = sq % BW + dc[d];
        while (r >= 0 && r < BH && c >= 0 && c < BW && (opp >> (r * BW + c) & 1))
            run |= 1u << (r * BW + c), r += dr[d], c += dc[d];
        if (run && r >= 0 && r < BH && c >= 0 && c < BW && (me >> (r * BW + c) & 1))
            all |= run;
    }
    return all;
}

/* Whether me has a move. */
static int naive_has_move(uint32_t me, uint32_t opp)
{
    for (int sq = 0; sq < BW * BH; sq++)
        if (flips(me, opp, sq))
            return 1;
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
 * enumeration of tblayers/layers.c finds, layer by layer of the disc
 * count summed. */
static void test_reachable(void)
{
    static const int start[16] = { -1, -1, -1, -1, -1, 1, 0, -1, -1, 0, 1, -1, -1, -1, -1, -1 };
    sym_result re;
    char err[300], dir[64];
    CU_ASSERT_EQUAL_FATAL(sym_solve(4, 4, start, 0, 1, 0, &re, NULL, err, sizeof err), 0);
    snprintf(dir, sizeof dir, "/tmp/pnsolve-sym-%d", (int)getpid());
    mkdir(dir, 0777);
    game *g = test_open("othello:4x4", NULL);
    CU_ASSERT_EQUAL_FATAL(tb_layers_build(g, dir, &(tb_sweep_options){ .memory = 1 << 26 }, 0, err, sizeof err), 0);
    tb_layers *t = tb_layers_open(g, dir, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    double explicit = 0;
    for (int i = 0; i < tb_layers_count(t); i++) {
        tb_layer_stats st;
        tb_layers_stats(t, i, &st);
        explicit += (double)st.states;
    }
    CU_ASSERT_EQUAL(re.space, explicit);
    CU_ASSERT(re.space > 60000);
    CU_ASSERT_EQUAL(re.reach.iterations, 17);  /* 12 moves to fill the board, passes, and the image that adds nothing */
    tb_layers_close(t);
    game_close(g);
    CU_ASSERT_EQUAL(test_remove_dir(dir), 0);
}

/* --- van Dijk's algorithms 2-5 against a naive solver of every state ---- */

static int8_t *memo;  /* per state code: outcome for White + 2, 0 unknown */

static uint64_t code_of(uint32_t b, uint32_t wh, int white)
{
    uint64_t c = 0;
    for (int i = BW * BH - 1; i >= 0; i--)
        c = c * 3 + (b >> i & 1 ? 1 : wh >> i & 1 ? 2 : 0);
    return c * 2 + (uint64_t)white;
}

/* The outcome for White of (b, wh, side to move) by minimax over every line. */
static int naive_outcome(uint32_t b, uint32_t wh, int white)
{
    uint64_t code = code_of(b, wh, white);
    if (memo[code])
        return memo[code] - 2;
    uint32_t me = white ? wh : b, opp = white ? b : wh;
    int best = 2, moved = 0;
    for (int sq = 0; sq < BW * BH; sq++) {
        uint32_t f = flips(me, opp, sq);
        if (!f)
            continue;
        uint32_t m2 = me | f | 1u << sq, o2 = opp & ~f;
        int v = naive_outcome(white ? o2 : m2, white ? m2 : o2, !white);
        if (!moved || (white ? v > best : v < best))
            best = v;
        moved = 1;
    }
    if (!moved) {
        if (naive_has_move(opp, me))
            best = naive_outcome(b, wh, !white);
        else
            best = __builtin_popcount(wh) > __builtin_popcount(b) ? 1 : __builtin_popcount(wh) < __builtin_popcount(b) ? -1 : 0;
    }
    memo[code] = (int8_t)(best + 2);
    return best;
}

/* Marks the states reachable from (b, wh, white) in seen. */
static void naive_reach(uint32_t b, uint32_t wh, int white, uint8_t *seen)
{
    uint64_t code = code_of(b, wh, white);
    if (seen[code])
        return;
    seen[code] = 1;
    uint32_t me = white ? wh : b, opp = white ? b : wh;
    int moved = 0;
    for (int sq = 0; sq < BW * BH; sq++) {
        uint32_t f = flips(me, opp, sq);
        if (f) {
            uint32_t m2 = me | f | 1u << sq, o2 = opp & ~f;
            naive_reach(white ? o2 : m2, white ? m2 : o2, !white, seen);
            moved = 1;
        }
    }
    if (!moved && naive_has_move(opp, me))
        naive_reach(b, wh, !white, seen);
}

/* Every state of a 4-wide, 3-high board (its own start: the discs in the
 * lower two rows' centre) solved naively; each algorithm's counts of White's
 * wins, Black's and the draws over its space, the start's outcome, and the
 * outcome of every state of its space as its kept sets say. */
/* States of the space of algorithm algo whose outcome under k is not the
 * naive one (memo). */
static long wrong_outcomes(const sym_sets *k, int algo, const uint8_t *seen, uint64_t states)
{
    int A = BW * BH;
    long wrong = 0;
    for (uint64_t code = 0; code < states; code++) {
        if ((algo == 3 || algo == 5) && !seen[code])
            continue;
        int board[12], discs = 0;
        uint64_t x = code / 2;
        for (int i = 0; i < A; i++, x /= 3)
            board[i] = x % 3 == 0 ? -1 : x % 3 == 1 ? 0 : 1, discs += x % 3 != 0;
        if (algo == 4 && discs < 4)
            continue;
        wrong += sym_sets_outcome(k, BW, BH, board, (int)(code & 1)) != memo[code] - 2;
    }
    return wrong;
}

static int same_series(const sym_series *a, const sym_series *b)
{
    return a->iterations == b->iterations && a->peak_nodes == b->peak_nodes && a->states == b->states &&
           memcmp(a->nodes_at, b->nodes_at, sizeof a->nodes_at) == 0;
}

/* Algorithm algo run a slice of one iteration at a time, each going on
 * from the save of the one before: the result of the whole run (whole),
 * the kept sets right. */
static void check_slices(int algo, const int *start, const sym_result *whole, const uint8_t *seen, uint64_t states)
{
    char path[64], err[300];
    snprintf(path, sizeof path, "/tmp/pnsolve-slices-%d", (int)getpid());
    remove(path);
    sym_set_save(path, 0, 1);
    sym_result res;
    sym_sets *k = NULL;
    int slices = 0, paused = 0;
    while (sym_solve(BW, BH, start, 0, algo, 0, &res, &k, err, sizeof err) != 0 && slices < 100) {
        slices++;
        paused += res.paused && strstr(err, "stopped after 1 iterations as asked") != NULL;
    }
    sym_set_save(NULL, 0, 0);
    CU_ASSERT(slices > 2 && paused == slices);
    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    CU_ASSERT(res.resumed);
    CU_ASSERT_EQUAL(res.space, whole->space);
    CU_ASSERT_EQUAL(res.draws, whole->draws);
    CU_ASSERT_EQUAL(res.start, whole->start);
    CU_ASSERT(same_series(&res.side[0], &whole->side[0]) && same_series(&res.side[1], &whole->side[1]));
    CU_ASSERT_EQUAL(wrong_outcomes(k, algo, seen, states), 0);
    CU_ASSERT_EQUAL(access(path, F_OK), -1);  /* removed once complete */
    sym_sets_free(k);
}

/* Algorithm algo (2 or 4) finding Black's sets by a run of its own: the
 * mirrored run's (whole) figures, Black's series node for node. */
static void check_unmirrored(int algo, const int *start, const sym_result *whole, const uint8_t *seen, uint64_t states)
{
    char err[300];
    sym_result res;
    sym_sets *k = NULL;
    sym_set_mirror(0);
    int rc = sym_solve(BW, BH, start, 0, algo, 0, &res, &k, err, sizeof err);
    sym_set_mirror(1);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_EQUAL(res.draws, whole->draws);
    CU_ASSERT_EQUAL(res.start, whole->start);
    CU_ASSERT(same_series(&res.side[0], &whole->side[0]) && same_series(&res.side[1], &whole->side[1]));
    CU_ASSERT_EQUAL(wrong_outcomes(k, algo, seen, states), 0);
    sym_sets_free(k);
}

/* Algorithm 2 cut short by BuDDy's node limit at several points, saving
 * after every round: what it leaves (the last whole round, or nothing) is
 * taken up by a run without the limit, which gets the whole run's figures. */
static void check_cut_short(const int *start, const sym_result *whole)
{
    static const int limits[] = { 20000, 40000, 80000, 160000, 320000 };
    char path[64], err[300];
    snprintf(path, sizeof path, "/tmp/pnsolve-cut-%d", (int)getpid());
    int cut = 0;
    for (size_t i = 0; i < sizeof limits / sizeof *limits; i++) {
        remove(path);
        sym_set_save(path, 0, 0);
        sym_result res;
        if (sym_solve(BW, BH, start, 0, 2, limits[i], &res, NULL, err, sizeof err) == 0)
            continue;
        cut += strstr(err, "reached its limit") != NULL;
        CU_ASSERT_EQUAL_FATAL(sym_solve(BW, BH, start, 0, 2, 0, &res, NULL, err, sizeof err), 0);
        CU_ASSERT_EQUAL(res.draws, whole->draws);
        CU_ASSERT_EQUAL(res.start, whole->start);
        CU_ASSERT(same_series(&res.side[0], &whole->side[0]) && same_series(&res.side[1], &whole->side[1]));
    }
    sym_set_save(NULL, 0, 0);
    remove(path);
    CU_ASSERT(cut >= 2);
}

/* A save goes on only in its own run; a damaged one is named. */
static void check_saves_refused(const int *start)
{
    char path[64], err[300];
    snprintf(path, sizeof path, "/tmp/pnsolve-saves-%d", (int)getpid());
    remove(path);
    sym_result res;
    sym_set_save(path, 0, 2);
    CU_ASSERT_EQUAL(sym_solve(BW, BH, start, 0, 4, 0, &res, NULL, err, sizeof err), -1);
    CU_ASSERT(res.paused);
    CU_ASSERT_EQUAL(sym_solve(BW, BH, start, 0, 5, 0, &res, NULL, err, sizeof err), -1);
    CU_ASSERT(!res.paused && strstr(err, "the save of another run") != NULL);
    CU_ASSERT_EQUAL(sym_solve(BW, BH, start, 1, 4, 0, &res, NULL, err, sizeof err), -1);  /* White to move */
    CU_ASSERT(strstr(err, "the save of another run") != NULL);
    CU_ASSERT_EQUAL(truncate(path, 400), 0);
    CU_ASSERT_EQUAL(sym_solve(BW, BH, start, 0, 4, 0, &res, NULL, err, sizeof err), -1);
    CU_ASSERT(strstr(err, "damaged") != NULL);
    sym_set_save(NULL, 0, 0);
    remove(path);
}

static void test_algorithms(void)
{
    BW = 4, BH = 3;
    int A = BW * BH;
    uint64_t states = 2;
    for (int i = 0; i < A; i++)
        states *= 3;
    memo = calloc(states, 1);
    uint8_t *seen = calloc(states, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(memo);
    CU_ASSERT_PTR_NOT_NULL_FATAL(seen);
    static const int start[12] = { -1, -1, -1, -1, -1, 1, 0, -1, -1, 0, 1, -1 };
    uint32_t sb = 1u << 6 | 1u << 9, sw = 1u << 5 | 1u << 10;
    naive_reach(sb, sw, 0, seen);
    double all[3] = { 0 }, above[3] = { 0 }, reach[3] = { 0 };  /* Black's wins, draws, White's */
    for (uint64_t code = 0; code < states; code++) {
        uint64_t x = code / 2;
        uint32_t b = 0, wh = 0;
        for (int i = 0; i < A; i++, x /= 3)
            if (x % 3 == 1) b |= 1u << i;
            else if (x % 3 == 2) wh |= 1u << i;
        int v = naive_outcome(b, wh, (int)(code & 1));
        all[v + 1]++;
        above[v + 1] += __builtin_popcount(b | wh) >= 4;  /* algorithm 4 sweeps down to the start's disc count */
        reach[v + 1] += seen[code];
    }
    int want_start = naive_outcome(sb, sw, 0);
    for (int algo = 2; algo <= 5; algo++) {
        sym_result res;
        sym_sets *k;
        char err[300];
        CU_ASSERT_EQUAL_FATAL(sym_solve(BW, BH, start, 0, algo, 0, &res, &k, err, sizeof err), 0);
        const double *want = algo == 2 ? all : algo == 4 ? above : reach;
        CU_ASSERT_EQUAL(res.space, want[0] + want[1] + want[2]);
        CU_ASSERT_EQUAL(res.side[0].states, want[0]);
        CU_ASSERT_EQUAL(res.draws, want[1]);
        CU_ASSERT_EQUAL(res.side[1].states, want[2]);
        CU_ASSERT_EQUAL(res.start, want_start);
        CU_ASSERT(res.side[1].peak_nodes > 0 && res.side[1].iterations > 0);
        CU_ASSERT_EQUAL(wrong_outcomes(k, algo, seen, states), 0);
        sym_sets_free(k);
        check_slices(algo, start, &res, seen, states);
        if (algo == 2 || algo == 4)
            check_unmirrored(algo, start, &res, seen, states);
        if (algo == 2 && test_slow())
            check_cut_short(start, &res);
    }
    check_saves_refused(start);
    CU_ASSERT(reach[0] > 0 && reach[1] > 0 && reach[2] > 0);
    sym_result res;
    char err[300];
    CU_ASSERT_EQUAL(sym_solve(4, 4, (const int[16]){ -1, -1, -1, -1, -1, 1, 0, -1, -1, 0, 1, -1, -1, -1, -1, -1 }, 0, 5,
                              20000, &res, NULL, err, sizeof err), -1);
    CU_ASSERT(strstr(err, "limit of 20000 nodes (--nodes raises it)") != NULL);
    free(memo);
    free(seen);
}

/* Algorithms 3 and 5 on 4x4 against the explicit strong solution
 * (tblayers/layers.c, itself checked against negamax in test_tblayers.c):
 * the same outcome for every reachable state. */

typedef struct {
    const game *g;
    const sym_sets *k;
    long wrong, states;
} table_check;

/* A state the tables keep against the sets; the images it stands for counted. */
static void check_state(void *ctx, const game_state *s, int score, int images)
{
    table_check *c = ctx;
    int board[16];
    char text[GAME_TEXT_MAX];
    game_format(c->g, s, text, sizeof text);
    for (const char *q = strchr(text, ':') + 1, *n0 = q; *q != ' ' && q - n0 < 19; q++)
        if (*q != '/')
            board[(q - n0) - (q - n0) / 5] = *q == 'X' ? 0 : *q == 'O' ? 1 : -1;
    int white = game_to_move(c->g, s) == 1, want = score == 0 ? 0 : (score > 0) == white ? 1 : -1;
    c->wrong += sym_sets_outcome(c->k, 4, 4, board, white) != want;
    c->states += images;
}

static void test_against_tables(void)
{
    static const int start[16] = { -1, -1, -1, -1, -1, 1, 0, -1, -1, 0, 1, -1, -1, -1, -1, -1 };
    char err[300], dir[64];
    snprintf(dir, sizeof dir, "/tmp/pnsolve-sym2-%d", (int)getpid());
    mkdir(dir, 0777);
    game *g = test_open("othello:4x4", NULL);
    CU_ASSERT_EQUAL_FATAL(tb_layers_build(g, dir, &(tb_sweep_options){ .memory = 1 << 26 }, 0, err, sizeof err), 0);
    tb_layers *t = tb_layers_open(g, dir, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    sym_result res;
    sym_sets *k;
    CU_ASSERT_EQUAL_FATAL(sym_solve(4, 4, start, 0, 5, 0, &res, &k, err, sizeof err), 0);
    table_check c = { .g = g, .k = k };
    long draws = 0;
    for (int i = 0; i < tb_layers_count(t); i++) {
        tb_layer_stats st;
        tb_layers_stats(t, i, &st);
        draws += (long)st.draws;
        tb_layers_each(t, i, check_state, &c);
    }
    long wrong = c.wrong, checked = (long)c.states;
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(checked, 62789);
    CU_ASSERT_EQUAL(res.draws, draws);
    CU_ASSERT_EQUAL(res.start, 1);  /* the start's score is -10 for Black, who moves */
    sym_sets_free(k);
    tb_layers_close(t);
    game_close(g);
    CU_ASSERT_EQUAL(test_remove_dir(dir), 0);
}

void suite_symbolic(void)
{
    CU_pSuite s = CU_add_suite("symbolic", NULL, NULL);
    CU_add_test(s, "states immediately won by White: every 3x3, 3x4, 4x3 board by brute force; 4x4, 4x5 as Table 7.3", test_immediate_wins);
    CU_add_test(s, "algorithm 1 on 4x4: as many reachable states as the explicit layers", test_reachable);
    CU_add_test(s, "algorithms 2-5 on a 4x3 board: every state's outcome as a naive minimax gives, run whole, in slices from saves, "
                   "(2, 4) Black by its own run, 2 cut short by its node limit (PNSOLVE_SLOW)", test_algorithms);
    CU_add_test(s, "algorithm 5 on 4x4: every reachable state's outcome as the explicit tables give", test_against_tables);
}
