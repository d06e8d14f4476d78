/* tests/test_puzzle.c - the mate search against plain minimax, composed
 * puzzles re-checked from scratch, unsound problems caught. */
#include "suites.h"
#include "../pns/pns.h"
#include "../puzzle/puzzle.h"
#include "../render/render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int naive_loss(const game *g, const game_state *s, int d);

/* Plain minimax to depth d, no table, no ordering, no memory: does the side
 * to move in live s win within d plies? */
static int naive_win(const game *g, const game_state *s, int d)
{
    if (d < 1)
        return 0;
    game_move mv[GAME_MAX_MOVES];
    int n = game_moves(g, s, mv), me = game_to_move(g, s);
    for (int i = 0; i < n; i++) {
        game_state t = *s;
        game_play(g, &t, mv[i]);
        game_result r = game_result_of(g, &t);
        if (r != GAME_ONGOING ? game_outcome_for(r, me) > 0 : naive_loss(g, &t, d - 1))
            return 1;
    }
    return 0;
}

/* Does every move of the side to move in live s lose within d plies? */
static int naive_loss(const game *g, const game_state *s, int d)
{
    if (d < 1)
        return 0;
    game_move mv[GAME_MAX_MOVES];
    int n = game_moves(g, s, mv), me = game_to_move(g, s);
    for (int i = 0; i < n; i++) {
        game_state t = *s;
        game_play(g, &t, mv[i]);
        game_result r = game_result_of(g, &t);
        if (r != GAME_ONGOING ? game_outcome_for(r, me) >= 0 : !naive_win(g, &t, d - 1))
            return 0;
    }
    return 1;
}

static int naive_distance(const game *g, const game_state *s, int max)
{
    for (int d = 1; d <= max; d += 2)
        if (naive_win(g, s, d))
            return d;
    return 0;
}

/* A live position of a random game from the start: a few plies before its
 * end (where short wins are), or after `plies` plies if it lasts longer. */
static int random_position(const game *g, unsigned long long *rng, int plies, game_state *s)
{
    static game_state line[1024];
    int len = 0;
    game_start(g, &line[0]);
    while (len < plies && len < 1023 && game_result_of(g, &line[len]) == GAME_ONGOING) {
        *rng = *rng * 6364136223846793005ULL + 1442695040888963407ULL;
        game_move mv[GAME_MAX_MOVES], keep[GAME_MAX_MOVES];
        int n = game_moves(g, &line[len], mv), k = 0;
        for (int i = 0; i < n; i++) {  /* random games that do not throw themselves away */
            game_state t = line[len];
            game_play(g, &t, mv[i]);
            if (game_result_of(g, &t) == GAME_ONGOING || game_outcome_for(game_result_of(g, &t), game_to_move(g, &line[len])) >= 0)
                keep[k++] = mv[i];
        }
        line[len + 1] = line[len];
        game_play(g, &line[len + 1], k ? keep[(*rng >> 33) % (unsigned long long)k] : mv[(*rng >> 33) % (unsigned long long)n]);
        len++;
    }
    *rng = *rng * 6364136223846793005ULL + 1442695040888963407ULL;
    int back = 1 + (int)((*rng >> 33) % 4);
    *s = line[len > back ? len - back : 0];
    return game_result_of(g, s) == GAME_ONGOING;
}

/* The mate search's distances and loss answers equal plain minimax's on
 * random positions of Ostle (5x5 and 4x4, rule 8 in the state) and Jungle. */
static void test_mate_vs_minimax(void)
{
    static const struct { const char *spec; int plies, max, positions; } cases[] = {
        { "ostle:4x4", 40, 5, 150 }, { "ostle", 300, 5, 120 }, { "jungle", 120, 5, 60 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        game *g = test_open(cases[c].spec, NULL);
        pns_mate *m = pns_mate_new(g, NULL, 1 << 20), *down = pns_mate_new(g, NULL, 1 << 20);
        unsigned long long rng = 12345 + c;
        int wins = 0, done = 0, losses = 0;
        while (done < cases[c].positions) {
            game_state s;
            if (!random_position(g, &rng, cases[c].plies, &s))
                continue;
            done++;
            int want = naive_distance(g, &s, cases[c].max);
            CU_ASSERT_EQUAL(pns_mate_distance(m, &s, cases[c].max), want);
            wins += want > 0;
            for (int d = 1; d <= cases[c].max - 1; d++)
                CU_ASSERT_EQUAL(pns_mate_loss(m, &s, d), naive_loss(g, &s, d));
            /* longest bound first: the table then holds results for longer
             * bounds than the one asked, which must not be misread */
            for (int d = cases[c].max - 1; d >= 1; d--)
                CU_ASSERT_EQUAL(pns_mate_loss(down, &s, d), naive_loss(g, &s, d));
            if (!want)
                continue;
            /* a won position's children: lost ones among them */
            game_move mv[GAME_MAX_MOVES];
            int n = game_moves(g, &s, mv);
            for (int i = 0; i < n; i++) {
                game_state t = s;
                game_play(g, &t, mv[i]);
                if (game_result_of(g, &t) != GAME_ONGOING)
                    continue;
                for (int d = cases[c].max - 1; d >= 1; d--) {
                    int lost = naive_loss(g, &t, d);
                    losses += lost;
                    CU_ASSERT_EQUAL(pns_mate_loss(down, &t, d), lost);
                }
            }
        }
        CU_ASSERT(wins > 0 && losses > 0);  /* the sample has wins and losses to find, not only failures */
        pns_mate_free(m);
        pns_mate_free(down);
        game_close(g);
    }
}

typedef struct {
    game_state s[64];
    puzzle_problem p[64];
    int n;
} collected;

static int collect(const game_state *s, const puzzle_problem *p, void *ctx)
{
    collected *c = ctx;
    c->s[c->n] = *s;
    c->p[c->n++] = *p;
    return c->n == 64;
}

/* Every move of the main line is legal, the attacker's last move wins, and
 * the line is the claimed length. */
static void check_line(const game *g, const game_state *s, const puzzle_problem *p)
{
    game_state t = *s;
    int attacker = game_to_move(g, s);
    CU_ASSERT_EQUAL(p->line_len, p->distance);
    for (int i = 0; i < p->line_len; i++) {
        game_move mv[GAME_MAX_MOVES];
        int n = game_moves(g, &t, mv), legal = 0;
        for (int k = 0; k < n; k++)
            legal |= mv[k] == p->line[i];
        CU_ASSERT(legal);
        if (!legal)
            return;
        game_play(g, &t, p->line[i]);
    }
    game_result r = game_result_of(g, &t);
    CU_ASSERT(r != GAME_ONGOING && game_outcome_for(r, attacker) > 0);
}

/* Puzzles composed from three-piece tables, each re-checked by the search
 * alone (no table): the same distance, key, soundness and main line length;
 * the key's win confirmed by plain minimax. */
static void test_puzzles_from_tables(void)
{
    char dir[64], err[512];
    snprintf(dir, sizeof dir, "/tmp/pnsolve-puzzle-test-%d", (int)getpid());
    game *g = test_open("jungle", NULL);
    tb_build_options bo = { .threads = 2 };
    CU_ASSERT_EQUAL_FATAL(tb_build(g, dir, 3, &bo, err, sizeof err), 0);
    tb_set *tb = tb_open_lazy(g, dir);
    pns_mate *with = pns_mate_new(g, tb, 1 << 20), *without = pns_mate_new(g, NULL, 4 << 20);
    for (int n = 3; n <= 9; n += 2) {
        collected *c = calloc(1, sizeof *c);
        puzzle_search q = { .n = n, .side = -1, .pieces = 3, .material = -1, .count = 6, .max_samples = 200000, .seed = (uint64_t)n,
                                .found = collect, .ctx = c };
        int64_t looked = puzzle_find(with, tb, &q, err, sizeof err);
        CU_ASSERT(looked > 0);
        CU_ASSERT_EQUAL(c->n, 6);
        for (int i = 0; i < c->n; i++) {
            puzzle_problem again;
            CU_ASSERT_EQUAL(c->p[i].distance, n);
            CU_ASSERT_EQUAL(c->p[i].sound, 1);
            CU_ASSERT_EQUAL(puzzle_check(without, &c->s[i], n, PUZZLE_UNIQUE_SHORTEST, NULL, &again, err, sizeof err), 0);
            CU_ASSERT_EQUAL(again.distance, n);
            CU_ASSERT_EQUAL(again.sound, 1);
            CU_ASSERT_EQUAL(again.key, c->p[i].key);
            CU_ASSERT_EQUAL(again.line_len, c->p[i].line_len);
            check_line(g, &c->s[i], &c->p[i]);
            if (n <= 7) {
                game_state t = c->s[i];
                game_play(g, &t, c->p[i].key);
                CU_ASSERT(naive_loss(g, &t, n - 1));
                CU_ASSERT(n < 3 || !naive_win(g, &c->s[i], n - 2));
            }
        }
        free(c);
    }
    pns_mate_free(with);
    pns_mate_free(without);
    tb_close(tb);
    CU_ASSERT_EQUAL(test_remove_dir(dir), 0);
    game_close(g);
}

/* Ostle puzzles from random games, re-checked by a fresh search; a claim
 * two plies too long or too short is unsound. */
static void test_ostle_puzzles(void)
{
    char err[256];
    game *g = test_open("ostle", NULL);
    pns_mate *m = pns_mate_new(g, NULL, 8 << 20), *fresh = pns_mate_new(g, NULL, 8 << 20);
    collected *c = calloc(1, sizeof *c);
    puzzle_search q = { .n = 5, .side = -1, .material = -1, .count = 5, .max_samples = 20000, .seed = 7, .playout_plies = 60,
                            .found = collect, .ctx = c };
    CU_ASSERT(puzzle_find(m, NULL, &q, err, sizeof err) > 0);
    CU_ASSERT_EQUAL(c->n, 5);
    for (int i = 0; i < c->n; i++) {
        puzzle_problem again;
        CU_ASSERT_EQUAL(puzzle_check(fresh, &c->s[i], 5, PUZZLE_UNIQUE_SHORTEST, NULL, &again, err, sizeof err), 0);
        CU_ASSERT_EQUAL(again.sound, 1);
        CU_ASSERT_EQUAL(again.key, c->p[i].key);
        CU_ASSERT_EQUAL(naive_distance(g, &c->s[i], 5), 5);
        check_line(g, &c->s[i], &c->p[i]);
        CU_ASSERT_EQUAL(puzzle_check(fresh, &c->s[i], 7, PUZZLE_UNIQUE_SHORTEST, NULL, &again, err, sizeof err), 0);
        CU_ASSERT_EQUAL(again.sound, 0);  /* the win is shorter than claimed */
        CU_ASSERT_EQUAL(again.distance, 5);
        CU_ASSERT_EQUAL(puzzle_check(fresh, &c->s[i], 3, PUZZLE_UNIQUE_SHORTEST, NULL, &again, err, sizeof err), 0);
        CU_ASSERT_EQUAL(again.sound, 0);  /* no win that fast */
        CU_ASSERT_EQUAL(again.distance, 0);
    }
    free(c);
    pns_mate_free(m);
    pns_mate_free(fresh);
    game_close(g);
}

/* A problem with two keys is cooked: each cook wins in time by minimax. */
static void test_cooked(void)
{
    char err[256];
    game *g = test_open("jungle", NULL);
    pns_mate *m = pns_mate_new(g, NULL, 4 << 20);
    unsigned long long rng = 99;
    int cooked = 0;
    for (int tries = 0; tries < 20000 && cooked < 5; tries++) {
        game_state s;
        if (!random_position(g, &rng, 100, &s))
            continue;
        int d = pns_mate_distance(m, &s, 5);
        if (d < 3)
            continue;
        puzzle_problem p;
        CU_ASSERT_EQUAL_FATAL(puzzle_check(m, &s, d, PUZZLE_UNIQUE_SHORTEST, NULL, &p, err, sizeof err), 0);
        if (p.ncooks == 0)
            continue;
        cooked++;
        CU_ASSERT_EQUAL(p.sound, 0);
        for (int i = 0; i < p.ncooks; i++) {
            game_state t = s;
            game_play(g, &t, p.cooks[i]);
            CU_ASSERT(naive_loss(g, &t, d - 1));
        }
    }
    CU_ASSERT_EQUAL(cooked, 5);
    pns_mate_free(m);
    game_close(g);
}

/* A diagram of an Ostle state marks the move rule 8 forbids, pointing its
 * way (c2L: from c2's centre to the left), and a state without one has no
 * such mark. */
static void test_forbidden_move_drawn(void)
{
    game *g = test_open("ostle:3x3", NULL);
    char *svg = NULL, *plain = NULL;
    size_t len;
    FILE *m = open_memstream(&svg, &len);
    game_state s = test_parse(g, "WW1/2H/1BB w c2L");
    render_svg_board(g, &s, "t", "", m);
    fclose(m);
    m = open_memstream(&plain, &len);
    s = test_parse(g, "WW1/2H/1BB w -");
    render_svg_board(g, &s, "t", "", m);
    fclose(m);
    const char *mark = strstr(svg, "<title>the move rule 8 forbids</title><line x1=\"");
    CU_ASSERT_PTR_NOT_NULL_FATAL(mark);
    int x1, y1, x2, y2;
    CU_ASSERT_EQUAL(sscanf(mark, "<title>the move rule 8 forbids</title><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"",
                           &x1, &y1, &x2, &y2), 4);
    CU_ASSERT(x2 < x1 && y2 == y1);  /* left */
    CU_ASSERT_PTR_NULL(strstr(plain, "rule 8 forbids"));
    free(svg);
    free(plain);
    game_close(g);
}

void suite_puzzle(void)
{
    CU_pSuite s = CU_add_suite("puzzle", NULL, NULL);
    CU_add_test(s, "mate search against plain minimax (Ostle 4x4 and 5x5, Jungle)", test_mate_vs_minimax);
    CU_add_test(s, "puzzles from 3-piece tables re-checked without tables", test_puzzles_from_tables);
    CU_add_test(s, "Ostle puzzles re-checked; wrong lengths unsound", test_ostle_puzzles);
    CU_add_test(s, "cooked problems reported with their cooks", test_cooked);
    CU_add_test(s, "an Ostle diagram marks the move rule 8 forbids, pointing its way", test_forbidden_move_drawn);
}
