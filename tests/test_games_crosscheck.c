/* tests/test_games_crosscheck.c - the fast games against the naive references:
 * same moves, same children, same results, on thousands of positions, and
 * perft against published figures and against naive perft. */
#include "ref.h"
#include "suites.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    char text[GAME_TEXT_MAX + 40];
} line;

static int cmp_line(const void *a, const void *b) { return strcmp(((const line *)a)->text, ((const line *)b)->text); }

static char result_letter(game_result r) { return "o01d"[r]; }

/* Drops the last space-separated field (Ostle's forbidden move). */
static void strip_last_field(char *s)
{
    char *sp = strrchr(s, ' ');
    if (sp)
        *sp = 0;
}

static int mismatches;

/* Compares the children of s with the reference's; prints the first few
 * differences so that a failure explains itself. */
static void compare(const game *g, const game_state *s, const ref_child *ref, int nref, char refresult, int strip)
{
    static line fast[GAME_MAX_MOVES], slow[REF_MAX];
    game_move list[GAME_MAX_MOVES];
    char pos[GAME_TEXT_MAX];
    int n = game_moves(g, s, list);
    int ok = n == nref && n == game_count(g, s) && result_letter(game_result_of(g, s)) == refresult;
    for (int i = 0; i < n; i++) {
        char mv[32], after[GAME_TEXT_MAX];
        game_state t = *s;
        game_format_move(g, s, list[i], mv, sizeof mv);
        game_play(g, &t, list[i]);
        game_format(g, &t, after, sizeof after);
        if (strip)
            strip_last_field(after);
        snprintf(fast[i].text, sizeof fast[i].text, "%.31s %.500s", mv, after);
    }
    for (int i = 0; i < nref; i++)
        snprintf(slow[i].text, sizeof slow[i].text, "%.15s %.199s", ref[i].move, ref[i].after);
    qsort(fast, (size_t)n, sizeof *fast, cmp_line);
    qsort(slow, (size_t)nref, sizeof *slow, cmp_line);
    for (int i = 0; ok && i < n; i++)
        ok = strcmp(fast[i].text, slow[i].text) == 0;
    if (!ok && mismatches++ < 5) {
        game_format(g, s, pos, sizeof pos);
        printf("\nmismatch at %s: fast %d moves (%c), reference %d (%c)\n", pos, n,
               result_letter(game_result_of(g, s)), nref, refresult);
        for (int i = 0; i < n || i < nref; i++)
            printf("  %-60s | %s\n", i < n ? fast[i].text : "", i < nref ? slow[i].text : "");
    }
    CU_ASSERT(ok);
}

static unsigned long long seed = 0x9E3779B97F4A7C15ULL;

static int rand_below(int n) { return (int)(ref_rand(&seed) % (unsigned long long)n); }

static ref_child ref_buf[REF_MAX];

/* Plays random moves from the start, checking every position on the way. */
static void random_game(const game *g, int max_plies, void (*check)(const game *, const game_state *))
{
    game_state s;
    game_start(g, &s);
    for (int ply = 0; ply < max_plies; ply++) {
        check(g, &s);
        game_move list[GAME_MAX_MOVES];
        int n = game_moves(g, &s, list);
        if (!n)
            break;
        game_play(g, &s, list[rand_below(n)]);
    }
}

static void check_jungle(const game *g, const game_state *s)
{
    char pos[GAME_TEXT_MAX], result;
    game_format(g, s, pos, sizeof pos);
    int n = ref_jungle_children(pos, g->variant, ref_buf, &result);
    compare(g, s, ref_buf, n, result, 0);
}

static void test_jungle_random_play(void)
{
    for (int v = 0; v < 2; v++) {
        game *g = test_open("jungle", v ? "classic" : NULL);
        for (int gameno = 0; gameno < 300; gameno++)
            random_game(g, 100, check_jungle);
        game_close(g);
    }
}

/* Random placements reach what play rarely does: lone pieces, every capture
 * pair, pieces next to either den. */
static void test_jungle_random_positions(void)
{
    static const char letters[] = "RrDdTtEe";
    for (int v = 0; v < 2; v++) {
        game *g = test_open("jungle", v ? "classic" : NULL);
        for (int k = 0; k < 5000; k++) {
            char grid[49];
            memset(grid, 0, sizeof grid);
            int side = rand_below(2), have[2] = { 0, 0 };
            for (int p = 0; p < 8; p++) {
                if (rand_below(3) == 0)
                    continue;
                int sq;
                do sq = rand_below(49); while (grid[sq] || sq == 3 || sq == 45);
                grid[sq] = letters[p];
                have[p & 1] = 1;
            }
            if (!have[0] || !have[1])
                continue;
            char fen[80];
            ref_jungle_jfen(grid, side, fen);
            game_state s = test_parse(g, fen);
            check_jungle(g, &s);
        }
        game_close(g);
    }
}

static void test_ostle_random_play(void)
{
    static const char *const boards[] = { "ostle", "ostle:4x4", "ostle:3x4", "ostle:5x3" };
    for (size_t b = 0; b < sizeof boards / sizeof boards[0]; b++) {
        game *g = test_open(boards[b], NULL);
        static char hist[202][REF_TEXT];
        for (int gameno = 0; gameno < 200; gameno++) {
            game_state s;
            game_start(g, &s);
            for (int ply = 0; ply < 200; ply++) {
                char result;
                game_format(g, &s, hist[ply], REF_TEXT);
                strip_last_field(hist[ply]);
                int n = ref_ostle_children(g->width, g->height, hist[ply], ply >= 1 ? hist[ply - 1] : NULL, ref_buf, &result);
                compare(g, &s, ref_buf, n, result, 1);
                game_move list[GAME_MAX_MOVES];
                int m = game_moves(g, &s, list);
                if (!m)
                    break;
                game_play(g, &s, list[rand_below(m)]);
            }
        }
        game_close(g);
    }
}

/* Ostle positions from random play with a random ply skipped: the forbidden
 * move comes from the state, so a parsed OFEN must carry it intact. */
static void test_ostle_parsed_states(void)
{
    game *g = test_open("ostle", NULL);
    for (int k = 0; k < 2000; k++) {
        game_state s, prev;
        game_start(g, &s);
        prev = s;
        int plies = 1 + rand_below(60);
        for (int ply = 0; ply < plies; ply++) {
            game_move list[GAME_MAX_MOVES];
            int m = game_moves(g, &s, list);
            if (!m)
                break;
            prev = s;
            game_play(g, &s, list[rand_below(m)]);
        }
        char text[GAME_TEXT_MAX], before[GAME_TEXT_MAX], result;
        game_format(g, &s, text, sizeof text);
        game_state t = test_parse(g, text);
        CU_ASSERT(game_key_equal(game_key_of(g, &s), game_key_of(g, &t)));
        game_format(g, &prev, before, sizeof before);
        strip_last_field(before);
        strip_last_field(text);
        int n = ref_ostle_children(5, 5, text, plies > 1 ? before : NULL, ref_buf, &result);
        if (plies > 1)
            compare(g, &t, ref_buf, n, result, 1);
    }
    game_close(g);
}

static void check_othello(const game *g, const game_state *s)
{
    char pos[GAME_TEXT_MAX], result;
    int score;
    game_format(g, s, pos, sizeof pos);
    int n = ref_othello_children(pos, ref_buf, &result, &score);
    compare(g, s, ref_buf, n, result, 0);
    if (n == 0)
        CU_ASSERT_EQUAL(game_score(g, s), score);
}

static void test_othello_random_play(void)
{
    for (int w = 4; w <= 8; w++)
        for (int h = 4; h <= 8; h++) {
            char spec[32];
            snprintf(spec, sizeof spec, "othello:%dx%d", w, h);
            game *g = test_open(spec, NULL);
            for (int gameno = 0; gameno < 30; gameno++)
                random_game(g, 1000, check_othello);
            game_close(g);
        }
}

/* Random fillings: many passes and early ends that real games seldom show. */
static void test_othello_random_positions(void)
{
    for (int k = 0; k < 4000; k++) {
        int w = 4 + rand_below(5), h = 4 + rand_below(5);
        char spec[32], pos[128];
        snprintf(spec, sizeof spec, "othello:%dx%d", w, h);
        game *g = test_open(spec, NULL);
        int n = sprintf(pos, "%dx%d:", w, h), empty_share = 1 + rand_below(8);
        int r0 = (h - 2) / 2, c0 = (w - 2) / 2;
        for (int r = 0; r < h; r++) {
            for (int c = 0; c < w; c++) {
                int centre = (r == r0 || r == r0 + 1) && (c == c0 || c == c0 + 1);
                int x = rand_below(10);
                pos[n++] = !centre && x < empty_share ? '-' : x % 2 ? 'X' : 'O';
            }
            if (r + 1 < h)
                pos[n++] = '/';
        }
        sprintf(pos + n, " %c", rand_below(2) ? 'X' : 'O');
        game_state s = test_parse(g, pos);
        check_othello(g, &s);
        game_close(g);
    }
}

/* Exact keys: two states share a key iff they print the same. */
static void test_keys_are_exact(void)
{
    static const char *const specs[] = { "jungle", "ostle", "othello:6x6", "othello:8x8" };
    enum { N = 20000 };
    static struct entry { game_key k; char text[GAME_TEXT_MAX]; } e[N];
    for (size_t gi = 0; gi < sizeof specs / sizeof specs[0]; gi++) {
        game *g = test_open(specs[gi], NULL);
        int n = 0;
        while (n < N) {
            game_state s;
            game_start(g, &s);
            for (int ply = 0; ply < 40 && n < N; ply++) {
                e[n].k = game_key_of(g, &s);
                game_format(g, &s, e[n].text, sizeof e[n].text);
                n++;
                game_move list[GAME_MAX_MOVES];
                int m = game_moves(g, &s, list);
                if (!m)
                    break;
                game_play(g, &s, list[rand_below(m)]);
            }
        }
        int bad = 0;
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n && j < i + 400; j++)
                bad += game_key_equal(e[i].k, e[j].k) != (strcmp(e[i].text, e[j].text) == 0);
        CU_ASSERT_EQUAL(bad, 0);
        game_close(g);
    }
}

/* --- perft ---------------------------------------------------------------- */

static uint64_t ref_perft_jungle(const char *pos, int classic, int depth)
{
    ref_child *c = malloc(sizeof(ref_child) * REF_MAX);
    char result;
    int n = ref_jungle_children(pos, classic, c, &result);
    uint64_t sum = 0;
    for (int i = 0; i < n; i++)
        sum += depth == 1 ? 1 : ref_perft_jungle(c[i].after, classic, depth - 1);
    free(c);
    return sum;
}

static uint64_t ref_perft_ostle(const char *pos, const char *prev, int depth)
{
    ref_child *c = malloc(sizeof(ref_child) * REF_MAX);
    char result;
    int n = ref_ostle_children(5, 5, pos, prev, c, &result);
    uint64_t sum = 0;
    for (int i = 0; i < n; i++)
        sum += depth == 1 ? 1 : ref_perft_ostle(c[i].after, pos, depth - 1);
    free(c);
    return sum;
}

static uint64_t ref_perft_othello(const char *pos, int depth)
{
    ref_child *c = malloc(sizeof(ref_child) * REF_MAX);
    char result;
    int score;
    int n = ref_othello_children(pos, c, &result, &score);
    uint64_t sum = n ? 0 : 1;  /* a finished game is a leaf at every depth */
    for (int i = 0; i < n; i++)
        sum += depth == 1 ? 1 : ref_perft_othello(c[i].after, depth - 1);
    free(c);
    return sum;
}

static uint64_t perft_of(const char *spec, const char *variant, const char *pos, int depth)
{
    game *g = test_open(spec, variant);
    game_state s;
    if (pos)
        s = test_parse(g, pos);
    else
        game_start(g, &s);
    uint64_t n = game_perft(g, &s, depth, NULL);
    game_close(g);
    return n;
}

/* Published figures (docs/rules.md). */
static void test_perft_published(void)
{
    static const uint64_t ostle[] = { 24, 569, 11997, 189102 };
    static const uint64_t othello8[] = { 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288 };
    static const uint64_t othello4[] = { 4, 12, 44, 128, 424, 1256, 3624, 9116 };
    for (int d = 1; d <= 4; d++)
        CU_ASSERT_EQUAL(perft_of("ostle", NULL, NULL, d), ostle[d - 1]);
    for (int d = 1; d <= 9; d++)
        CU_ASSERT_EQUAL(perft_of("othello:8x8", NULL, NULL, d), othello8[d - 1]);
    for (int d = 1; d <= 8; d++)
        CU_ASSERT_EQUAL(perft_of("othello:4x4", NULL, NULL, d), othello4[d - 1]);
}

static void test_perft_against_reference(void)
{
    static const char *const jungle[] = {
        "1r3e1/2t1d2/7/7/7/2D1T2/1E3R1 w",
        "2e4/2r4/2T4/3E3/1d5/7/R6 b",      /* captures both ways */
        "7/2E4/3r3/2R4/7/4e2/7 w",         /* elephant next to the rat */
        "2t4/3R3/7/7/7/3d3/7 w",           /* pieces next to both dens */
    };
    for (size_t i = 0; i < sizeof jungle / sizeof jungle[0]; i++)
        for (int v = 0; v < 2; v++)
            CU_ASSERT_EQUAL(perft_of("jungle", v ? "classic" : NULL, jungle[i], 4), ref_perft_jungle(jungle[i], v, 4));
    static const char *const ostle[] = {
        "WWWWW/5/2H2/5/BBBBB b",
        "W1WW1/1WB2/B1HW1/2B2/B2B1 w",
        "1W3/WBW2/1BHB1/2WB1/5 b",
    };
    for (size_t i = 0; i < sizeof ostle / sizeof ostle[0]; i++) {
        char fen[64];
        snprintf(fen, sizeof fen, "%s -", ostle[i]);
        CU_ASSERT_EQUAL(perft_of("ostle", NULL, fen, 3), ref_perft_ostle(ostle[i], NULL, 3));
    }
    static const struct { const char *spec, *pos; int depth; } othello[] = {
        { "othello:6x6", "6x6:------/------/--OX--/--XO--/------/------ X", 6 },
        { "othello:5x4", "5x4:-----/-OX--/-XO--/----- X", 8 },
        { "othello:8x8", "8x8:--------/--------/---X----/---XXO--/--OOOX--/-----X--/--------/-------- O", 4 },
        { "othello:4x6", "4x6:-OO-/XXXX/XOXO/OXXX/-OOX/---- X", 7 },
    };
    for (size_t i = 0; i < sizeof othello / sizeof othello[0]; i++)
        CU_ASSERT_EQUAL(perft_of(othello[i].spec, NULL, othello[i].pos, othello[i].depth),
                        ref_perft_othello(othello[i].pos, othello[i].depth));
}

void suite_crosscheck(void)
{
    CU_pSuite s = CU_add_suite("crosscheck", NULL, NULL);
    CU_add_test(s, "jungle random play vs reference", test_jungle_random_play);
    CU_add_test(s, "jungle random positions vs reference", test_jungle_random_positions);
    CU_add_test(s, "ostle random play vs reference (rule 8 from history)", test_ostle_random_play);
    CU_add_test(s, "ostle parsed states keep the forbidden move", test_ostle_parsed_states);
    CU_add_test(s, "othello random play vs reference, all sizes", test_othello_random_play);
    CU_add_test(s, "othello random positions vs reference", test_othello_random_positions);
    CU_add_test(s, "keys are exact", test_keys_are_exact);
    CU_add_test(s, "perft published figures", test_perft_published);
    CU_add_test(s, "perft vs naive perft", test_perft_against_reference);
}
