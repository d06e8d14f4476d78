/* tests/test_games_rules.c - notation, rejects of bad input, and the rules that are
 * easy to get wrong: rule 8, Othello passes and ends, the Jungle variants,
 * graph files. */
#include "ref.h"
#include "../games/ostle/ostle_impl.h"
#include "../games/othello/othello_bits.h"
#include "../games/othello/othello_eval.h"
#include "suites.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int has_move(const game *g, const game_state *s, const char *name)
{
    game_move m;
    return game_parse_move(g, s, name, &m, NULL, 0) == 0;
}

static game_state after(const game *g, game_state s, const char *move)
{
    game_move m;
    char err[128];
    int rc = game_parse_move(g, &s, move, &m, err, sizeof err);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    game_play(g, &s, m);
    return s;
}

static void assert_text(const game *g, const game_state *s, const char *want)
{
    char buf[GAME_TEXT_MAX];
    game_format(g, s, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, want);
}

static void test_round_trips(void)
{
    static const struct { const char *spec, *pos; } cases[] = {
        { "jungle", "1r3e1/2t1d2/7/7/7/2D1T2/1E3R1 w" },
        { "jungle", "7/3R3/7/2e4/7/7/6r b" },
        { "ostle", "WWWWW/5/2H2/5/BBBBB b -" },
        { "ostle", "W1WW1/1WB2/B1HW1/2B2/B2B1 w -" },
        { "othello:6x6", "6x6:------/------/--OX--/--XO--/------/------ X" },
        { "othello:4x5", "4x5:----/-OX-/-XO-/----/---- O" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        game *g = test_open(cases[i].spec, NULL);
        game_state s = test_parse(g, cases[i].pos);
        assert_text(g, &s, cases[i].pos);
        game_close(g);
    }
    /* The 64-character FFO form reads as the same position as the long form. */
    game *g = test_open("othello:8x8", NULL);
    game_state a = test_parse(g, "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X");
    assert_text(g, &a, "8x8:O--OOOOX/-OOOOOOX/OOXXOOOX/OOXOOOXX/OOOOOOXX/---OOOOX/----O--X/-------- X");
    game_state start;
    game_start(g, &start);
    assert_text(g, &start, "8x8:--------/--------/--------/---OX---/---XO---/--------/--------/-------- X");
    game_close(g);
}

/* Where a game gives the state of a key (game_unkey: Ostle), it is the
 * state itself, on random games of every board size, rule 8's barred
 * moves among them. */
static void test_unkey(void)
{
    static const char *specs[] = { "ostle", "ostle:4x4", "ostle:3x3" };
    uint64_t x = 0x9E3779B97F4A7C15ULL;
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        game *g = test_open(specs[i], NULL);
        CU_ASSERT_FATAL(game_has_unkey(g));
        int checked = 0, wrong = 0, barred = 0;
        for (int t = 0; t < 300; t++) {
            game_state s;
            game_start(g, &s);
            for (int ply = 0; ply < 200; ply++) {
                game_state back;
                game_unkey(g, game_key_of(g, &s), &back);
                wrong += memcmp(&back, &s, sizeof s) != 0;
                checked++;
                char text[GAME_TEXT_MAX];
                game_format(g, &s, text, sizeof text);
                barred += text[strlen(text) - 1] != '-';
                game_move mv[GAME_MAX_MOVES];
                int n = game_moves(g, &s, mv);
                if (n == 0)
                    break;
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                game_play(g, &s, mv[x % (uint64_t)n]);
            }
        }
        CU_ASSERT_EQUAL(wrong, 0);
        CU_ASSERT(checked > 1000 && barred > 100);
        game_close(g);
    }
}

static void test_rejects(void)
{
    static const struct { const char *spec, *pos; } bad[] = {
        { "othello:4x4", "4x4=----/-OX-/-XO-/---- X" },     /* no colon (found by fuzzing) */
        { "jungle", "" },
        { "jungle", "1r3e1/2t1d2/7/7/7/2D1T2/1E3R1" },      /* no side */
        { "jungle", "1r3e1/2t1d2/7/7/7/2D1T2/1E3R1 x" },
        { "jungle", "1r3e1/2t1d2/7/7/7/2D1T2/1E3R w" },     /* short rank */
        { "jungle", "1r3e1/2t1d2/7/7/7/2D1T2/1E3R11 w" },   /* long rank */
        { "jungle", "1r3e1/2t1d2/7/7/7/2D1T2 w" },          /* six ranks */
        { "jungle", "1r3e1/2t1d2/7/7/7/2D1T2/1E3R1/7 w" },  /* eight ranks */
        { "jungle", "1r3e1/2t1d2/7/7/7/2D1T2/1E1R1R1 w" },  /* two white rats */
        { "jungle", "1r3e1/2t1d2/7/7/7/2D1T2/1E1X1R1 w" },
        { "jungle", "1r3e1/2t1d2/7/7/7/2D1T2/1E1E3 w" },
        { "jungle", "3r3/7/7/7/7/7/3R3 w" },                /* rats on their own dens */
        { "jungle", "3R3/7/7/7/7/7/1r5 w" },                /* mover already on the den */
        { "jungle", "7/7/7/7/7/7/1R5 w" },                  /* Black has no pieces */
        { "jungle", "1r3e1/2t1d2/7/7/7/2D1T2/1E3R1 w extra" },
        { "ostle", "WWWWW/5/2H2/5/BBBBB b" },               /* no forbidden field */
        { "ostle", "WWWWW/5/2H2/5/BBBBB x -" },
        { "ostle", "WWWWW/5/5/5/BBBBB b -" },               /* no hole */
        { "ostle", "WWWWW/5/2HH1/5/BBBBB b -" },            /* two holes */
        { "ostle", "WWWWW/5/2H2/5/BBBB b -" },              /* short rank */
        { "ostle", "WWWWW/5/2H2/5/BBBBBB b -" },
        { "ostle", "WWWWW/5/2H2/5/BB3 b -" },               /* Black has two pieces */
        { "ostle", "WWWWW/WW3/2H2/5/BBBBB b -" },           /* seven white pieces */
        { "ostle", "WWWWW/5/2H2/5/BBBBB b c3Q" },
        { "ostle", "WWWWW/5/2H2/5/BBBBB b a5D" },           /* not Black's piece */
        { "ostle", "WWWWW/5/2H2/5/BBBBB b a1D" },           /* removes a piece */
        { "ostle", "WWWWW/5/2H2/5/BBBBB b z9U" },
        { "ostle", "WWWWW/5/2H2/5/BBBBB b a1U" },           /* no move into it leaves a1U forbidden */
        { "ostle:3x3", "W2/W2/HBB b b1U" },                 /* read another state's entry (issue 61) */
        { "ostle:3x3", "W1B/1H1/B1W b a1U" },               /* read one past the table's end */
        { "ostle:3x3", "W2/2H/BB1 b c2L" },                 /* White is down to one piece: finished */
        { "jungle", "3R3/7/7/7/7/7/7 b" },                  /* took the last piece and entered the den */
        { "othello:6x6", "6x6:------/------/--OX--/--XO--/------/------" },
        { "othello:6x6", "6x6:------/------/--OX--/--XO--/------/------ Z" },
        { "othello:6x6", "6x6:------/------/--OX--/--XO--/------ X" },
        { "othello:6x6", "6x6:-------/------/--OX--/--XO--/------/------ X" },
        { "othello:6x6", "6x6:------/------/--OX--/--X---/------/------ X" }, /* centre empty */
        { "othello:6x6", "8x8:--------/--------/--------/---OX---/---XO---/--------/--------/-------- X" },
        { "othello:6x6", "6x6:------/------/--OX--/--XO--/------/-----q X" },
        { "othello:8x8", "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X------- X" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        game *g = test_open(bad[i].spec, NULL);
        game_state s;
        char err[256] = "";
        int rc = game_parse(g, bad[i].pos, &s, err, sizeof err);
        if (rc == 0)
            printf("\naccepted bad %s position '%s'\n", bad[i].spec, bad[i].pos);
        CU_ASSERT_EQUAL(rc, -1);
        CU_ASSERT(strlen(err) > 0 && !strchr(err, '\n'));
        game_close(g);
    }
    static const struct { const char *spec, *variant; } bad_games[] = {
        { "chess", NULL }, { "othello:3x3", NULL }, { "othello:9x8", NULL }, { "othello:6x6x", NULL },
        { "othello:abc", NULL }, { "jungle", "modern" }, { "jungle:7x7", NULL }, { "ostle:6x6", NULL },
        { "ostle", "classic" }, { "graph:", NULL }, { "graph:/nonexistent/file", NULL }, { "", NULL },
    };
    for (size_t i = 0; i < sizeof bad_games / sizeof bad_games[0]; i++) {
        char err[256] = "";
        game *g = game_open(bad_games[i].spec, bad_games[i].variant, err, sizeof err);
        CU_ASSERT_PTR_NULL(g);
        CU_ASSERT(strlen(err) > 0);
        game_close(g);
    }
    game *g = test_open("jungle", NULL);
    game_state s;
    game_start(g, &s);
    game_move m;
    CU_ASSERT_EQUAL(game_parse_move(g, &s, "c2c4", &m, NULL, 0), -1);
    CU_ASSERT_EQUAL(game_parse_move(g, &s, "b1b0", &m, NULL, 0), -1);
    CU_ASSERT_EQUAL(game_parse_move(g, &s, "", &m, NULL, 0), -1);
    CU_ASSERT_EQUAL(game_parse_move(g, &s, "c2c3", &m, NULL, 0), 0);
    game_close(g);
}

/* docs/rules.md section 2, rule 8; the paper's figure 2B/2C. */
static void test_ostle_rule8(void)
{
    game *g = test_open("ostle", NULL);
    /* White moves the hole a3 -> a2; Black may not move it back. */
    game_state s = test_parse(g, "W1WWW/1W3/HB3/2B2/B2BB w -");
    s = after(g, s, "a3D");
    assert_text(g, &s, "W1WWW/1W3/1B3/H1B2/B2BB b a2U");
    CU_ASSERT(!has_move(g, &s, "a2U"));
    CU_ASSERT(has_move(g, &s, "a2R"));
    CU_ASSERT_EQUAL(game_count(g, &s), 4 * 5 + 2 - 1);
    /* Two plies later the ban is gone. */
    game_state t = after(g, after(g, s, "e1U"), "a5D");
    CU_ASSERT(has_move(g, &t, "a2U"));

    /* Black pushes a chain ending in a white piece: White may not push it back. */
    s = test_parse(g, "WWWW1/5/2H2/BW3/1BBBB b -");
    s = after(g, s, "a2R");
    assert_text(g, &s, "WWWW1/5/2H2/1BW2/1BBBB w c2L");
    CU_ASSERT(!has_move(g, &s, "c2L"));
    /* ...but a chain ending in one's own piece bars nothing. */
    s = test_parse(g, "WWW2/5/2H2/BB3/1BBWW b -");
    s = after(g, s, "a2R");
    assert_text(g, &s, "WWW2/5/2H2/1BB2/1BBWW w -");

    /* A move that removes a piece is never forbidden, and bars nothing. */
    s = test_parse(g, "WWWWW/5/2H2/5/BBBBB b -");
    s = after(g, s, "a1L");
    assert_text(g, &s, "WWWWW/5/2H2/5/1BBBB w -");

    /* A piece moved into the hole is removed; five to four is no loss. */
    s = test_parse(g, "WWWW1/5/1BH2/5/BBBB1 b -");
    s = after(g, s, "b3R");
    assert_text(g, &s, "WWWW1/5/2H2/5/BBBB1 w -");
    CU_ASSERT_EQUAL(game_result_of(g, &s), GAME_ONGOING);
    game_close(g);
}

static void test_ostle_ends(void)
{
    game *g = test_open("ostle", NULL);
    /* Black pushes a white piece off: White has three left, Black wins. */
    game_state s = test_parse(g, "WWWW1/5/2H2/5/BBBB1 b -");
    CU_ASSERT_EQUAL(game_result_of(g, &s), GAME_ONGOING);
    s = after(g, s, "a1U");  /* a1 a2 a3 a4: pushes nothing off */
    CU_ASSERT_EQUAL(game_result_of(g, &s), GAME_ONGOING);
    s = test_parse(g, "WWWW1/B4/2H2/5/1BBB1 b -");
    s = after(g, s, "a4U");  /* the black piece pushes a5 off the board */
    assert_text(g, &s, "BWWW1/5/2H2/5/1BBB1 w -");
    CU_ASSERT_EQUAL(game_result_of(g, &s), GAME_WIN0);
    CU_ASSERT_EQUAL(game_count(g, &s), 0);
    /* Black pushes its own piece off when down to four: Black loses. */
    s = test_parse(g, "WWWW1/5/2H2/5/BBBB1 b -");
    s = after(g, s, "a1L");
    CU_ASSERT_EQUAL(game_result_of(g, &s), GAME_WIN1);
    game_close(g);
}

static void test_othello_pass_and_end(void)
{
    game *g = test_open("othello:4x4", NULL);
    /* O has no move but X has: O must pass, and the pass is the only move. */
    game_state s = test_parse(g, "4x4:-OXX/XXXX/XXXX/XXXX O");
    CU_ASSERT_EQUAL(game_result_of(g, &s), GAME_ONGOING);
    CU_ASSERT(has_move(g, &s, "pass"));
    CU_ASSERT_EQUAL(game_count(g, &s), 1);
    s = after(g, s, "pass");
    assert_text(g, &s, "4x4:-OXX/XXXX/XXXX/XXXX X");
    CU_ASSERT(!has_move(g, &s, "pass"));
    s = after(g, s, "a1");
    assert_text(g, &s, "4x4:XXXX/XXXX/XXXX/XXXX O");
    CU_ASSERT_EQUAL(game_count(g, &s), 0);
    CU_ASSERT_EQUAL(game_result_of(g, &s), GAME_WIN0);
    CU_ASSERT_EQUAL(game_score(g, &s), 16);
    /* Neither can move, one square empty: it goes to the winner. */
    s = test_parse(g, "4x4:XXXX/XXXX/XXXX/OOO- X");
    CU_ASSERT_EQUAL(game_count(g, &s), 0);
    CU_ASSERT_EQUAL(game_score(g, &s), 12 - 3 + 1);
    /* Neither can move with empties left: empties go to the winner. */
    s = test_parse(g, "4x4:----/-OO-/-OO-/---- X");
    CU_ASSERT_EQUAL(game_result_of(g, &s), GAME_WIN1);
    CU_ASSERT_EQUAL(game_score(g, &s), -16);
    s = test_parse(g, "4x4:XXXX/XXXX/OOOO/OOOO X");
    CU_ASSERT_EQUAL(game_result_of(g, &s), GAME_DRAW);
    CU_ASSERT_EQUAL(game_score(g, &s), 0);
    game_close(g);
}

static void test_jungle_capture_variants(void)
{
    game *thesis = test_open("jungle", NULL), *classic = test_open("jungle", "classic");
    const char *pos = "7/7/3r3/3E3/7/7/6R w";  /* the white elephant faces the black rat */
    game_state a = test_parse(thesis, pos), b = test_parse(classic, pos);
    CU_ASSERT(has_move(thesis, &a, "d4d5"));
    CU_ASSERT(!has_move(classic, &b, "d4d5"));
    /* The rat takes the elephant in both. */
    pos = "7/7/3r3/3E3/7/7/6R b";
    a = test_parse(thesis, pos);
    b = test_parse(classic, pos);
    CU_ASSERT(has_move(thesis, &a, "d5d4"));
    CU_ASSERT(has_move(classic, &b, "d5d4"));
    /* Equal takes equal; weaker never takes stronger (but the rat). */
    a = test_parse(thesis, "7/7/3t3/3T3/2d4/7/6R w");
    CU_ASSERT(has_move(thesis, &a, "d4d5"));
    a = test_parse(thesis, "7/7/7/3d3/3T3/7/6R b");
    CU_ASSERT(!has_move(thesis, &a, "d4d3"));
    /* Taking the last piece wins; stepping on the den wins; own den is barred. */
    a = test_parse(thesis, "7/7/3r3/3E3/7/7/7 w");
    a = after(thesis, a, "d4d5");
    CU_ASSERT_EQUAL(game_result_of(thesis, &a), GAME_WIN0);
    a = test_parse(thesis, "7/3R3/7/7/7/7/6r w");
    a = after(thesis, a, "d6d7");
    CU_ASSERT_EQUAL(game_result_of(thesis, &a), GAME_WIN0);
    CU_ASSERT_EQUAL(game_count(thesis, &a), 0);
    a = test_parse(thesis, "7/7/7/7/7/3R3/6r w");
    CU_ASSERT(!has_move(thesis, &a, "d2d1"));
    /* No legal move is a draw: here only in the classic variant, where the
     * cornered elephant may not take the rat. */
    pos = "7/7/7/7/7/rt5/ERd4 w";
    a = test_parse(thesis, pos);
    b = test_parse(classic, pos);
    CU_ASSERT_EQUAL(game_count(thesis, &a), 1);
    CU_ASSERT_EQUAL(game_result_of(thesis, &a), GAME_ONGOING);
    CU_ASSERT_EQUAL(game_count(classic, &b), 0);
    CU_ASSERT_EQUAL(game_result_of(classic, &b), GAME_DRAW);
    game_close(thesis);
    game_close(classic);
}

static char *write_temp(const char *text)
{
    static char path[64];
    strcpy(path, "/tmp/pnsolve-test-XXXXXX");
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT_FATAL(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    close(fd);
    return path;
}

static void expect_graph_error(const char *text, const char *want)
{
    char *path = write_temp(text), spec[80], err[256] = "";
    snprintf(spec, sizeof spec, "graph:%s", path);
    game *g = game_open(spec, NULL, err, sizeof err);
    CU_ASSERT_PTR_NULL(g);
    if (!strstr(err, want))
        printf("\ngraph error '%s' lacks '%s'\n", err, want);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, path));
    game_close(g);
    unlink(path);
}

static void test_graph(void)
{
    char *path = write_temp("# the example of docs/rules.md\nroot A\nA: or B C   # two tries\nB: and D E\n"
                            "C : draw\nD: win\nE: or\n\nF: and A\n");
    char spec[80];
    snprintf(spec, sizeof spec, "graph:%s", path);
    game *g = test_open(spec, NULL);
    unlink(path);
    game_state s;
    game_start(g, &s);
    assert_text(g, &s, "A");
    CU_ASSERT_EQUAL(game_to_move(g, &s), 0);
    CU_ASSERT_EQUAL(game_count(g, &s), 2);
    game_state b = after(g, s, "B");
    CU_ASSERT_EQUAL(game_to_move(g, &b), 1);
    CU_ASSERT_EQUAL(game_result_of(g, &b), GAME_ONGOING);
    game_state d = after(g, b, "D");
    CU_ASSERT_EQUAL(game_result_of(g, &d), GAME_WIN0);
    game_state e = after(g, b, "E");
    CU_ASSERT_EQUAL(game_count(g, &e), 0);
    CU_ASSERT_EQUAL(game_result_of(g, &e), GAME_WIN1);  /* the prover cannot move */
    game_state c = after(g, s, "C");
    CU_ASSERT_EQUAL(game_result_of(g, &c), GAME_DRAW);
    CU_ASSERT_EQUAL(game_perft(g, &s, 2, NULL), 2);
    game_state f = test_parse(g, "F");
    CU_ASSERT(has_move(g, &f, "A"));
    CU_ASSERT(!game_key_equal(game_key_of(g, &s), game_key_of(g, &f)));
    game_close(g);

    expect_graph_error("root A\nA: or B\n", ":2: unknown child 'B'");
    expect_graph_error("root A\nA: or\nA: and\n", ":3: duplicate node 'A'");
    expect_graph_error("A: or\n", "missing root");
    expect_graph_error("root A\nA: maybe\n", ":2: bad value word 'maybe'");
    expect_graph_error("root A\nroot A\nA: or\n", ":2: second root");
    expect_graph_error("root Z\nA: or\n", ":1: root 'Z' is not defined");
    expect_graph_error("root A\nA: win B\nB: or\n", ":2: terminal node 'A'");
    expect_graph_error("root A\nA-1: or\n", ":2: bad node name");
    expect_graph_error("root A\nA or\n", ":2: expected");
}

/* Ostle's un-moves against the move generator, both ways, on positions of
 * random games (5x5 and 4x4): every predecessor reaches the position by a
 * move that removes nothing, and every such move's result lists its parent
 * among its predecessors.  Forbidden moves are ignored: positions only. */
static int same_position(const game_state *a, const game_state *b)
{
    return a->w[0] == b->w[0] && a->w[1] == b->w[1] && (a->w[2] & 0x1FF) == (b->w[2] & 0x1FF);
}

static int has_move_to(const game *g, const game_state *from, const game_state *to)
{
    game_move mv[GAME_MAX_MOVES];
    int n = game_moves(g, from, mv);
    for (int m = 0; m < n; m++) {
        game_state c = *from;
        game_play(g, &c, mv[m]);
        if (same_position(&c, to))
            return 1;
    }
    return 0;
}

static void test_ostle_unmoves(void)
{
    const char *specs[] = { "ostle", "ostle:4x4" };
    unsigned long long seed = 99;
    for (int i = 0; i < 2; i++) {
        game *g = test_open(specs[i], NULL);
        long checked = 0;
        for (int k = 0; k < 10000; k++) {
            game_state s;
            if (!test_random_state(g, &seed, 30, &s))
                continue;
            game_move mv[GAME_MAX_MOVES];
            s.w[2] |= 0xFFFFULL << 16;  /* no forbidden move: every move is generated */
            int pieces = __builtin_popcountll(s.w[0] | s.w[1]);
            game_state pred[GAME_MAX_MOVES];
            int np = ostle_unmoves(g, &s, pred, NULL);
            for (int j = 0; j < np; j++) {  /* each predecessor leads here */
                CU_ASSERT_EQUAL(__builtin_popcountll(pred[j].w[0] | pred[j].w[1]), pieces);
                CU_ASSERT(has_move_to(g, &pred[j], &s));
                checked++;
            }
            int n = game_moves(g, &s, mv);  /* each child that keeps all pieces lists s */
            for (int m = 0; m < n; m++) {
                game_state c = s;
                game_play(g, &c, mv[m]);
                if (__builtin_popcountll(c.w[0] | c.w[1]) != pieces)
                    continue;
                np = ostle_unmoves(g, &c, pred, NULL);
                int found = 0;
                for (int j = 0; j < np && !found; j++)
                    found = same_position(&pred[j], &s);
                CU_ASSERT(found);
                checked++;
            }
        }
        CU_ASSERT(checked > 20000);
        game_close(g);
    }
}

/* Ostle's un-captures against the move generator, both ways, on random
 * boards (random games seldom push a chain into the hole): every
 * predecessor has one piece more and a move to the position, and every move
 * of a board that removes a piece without ending the game leads to a
 * position that lists it. */
/* A random live board: each side between lose_at + 1 and w pieces. */
static void random_ostle_board(const game *g, unsigned long long *seed, game_state *s)
{
    const ostle_geom *gm = geom(g);
    for (;;) {
        memset(s, 0, sizeof *s);
        unsigned hole = (unsigned)(ref_rand(seed) % (unsigned)gm->cells);
        for (int sq = 0; sq < gm->cells; sq++)
            if ((unsigned)sq != hole && ref_rand(seed) % 3)
                s->w[ref_rand(seed) & 1] |= 1ULL << sq;
        int a = __builtin_popcountll(s->w[0]), b = __builtin_popcountll(s->w[1]);
        if (a > gm->lose_at && b > gm->lose_at && a <= gm->w && b <= gm->w) {
            set_meta(s, hole, (int)(ref_rand(seed) & 1), NO_MOVE);
            return;
        }
    }
}

static void test_ostle_uncaptures(void)
{
    const char *specs[] = { "ostle", "ostle:4x4", "ostle:3x4" };
    unsigned long long seed = 5;
    for (int i = 0; i < 3; i++) {
        game *g = test_open(specs[i], NULL);
        long back = 0, forth = 0;
        for (int k = 0; k < 20000; k++) {
            game_state s;
            random_ostle_board(g, &seed, &s);
            int pieces = __builtin_popcountll(s.w[0] | s.w[1]);
            game_state pred[GAME_MAX_MOVES];
            int np = ostle_uncaptures(g, &s, pred);
            for (int j = 0; j < np; j++, back++) {
                CU_ASSERT_EQUAL(__builtin_popcountll(pred[j].w[0] | pred[j].w[1]), pieces + 1);
                CU_ASSERT(has_move_to(g, &pred[j], &s));
                for (int q = 0; q < j; q++)
                    CU_ASSERT(!same_position(&pred[q], &pred[j]));
            }
            game_move mv[GAME_MAX_MOVES];
            int n = game_moves(g, &s, mv);
            for (int m = 0; m < n; m++) {
                game_state c = s;
                game_play(g, &c, mv[m]);
                if (__builtin_popcountll(c.w[0] | c.w[1]) == pieces || game_result_of(g, &c) != GAME_ONGOING)
                    continue;
                set_meta(&c, hole_of(&c), side_of(&c), NO_MOVE);
                np = ostle_uncaptures(g, &c, pred);
                int found = 0;
                for (int j = 0; j < np && !found; j++)
                    found = same_position(&pred[j], &s);
                CU_ASSERT(found);
                forth++;
            }
        }
        CU_ASSERT(back > 20000 && forth > 20000);
        game_close(g);
    }
}

/* Rule 8's possible forbidden moves of a position, both ways: every move
 * into the position (from every predecessor, by every move that removes
 * nothing) leaves none or one of them forbidden, and each of them is left
 * forbidden by some such move. */
static void test_ostle_forbiddable(void)
{
    const char *specs[] = { "ostle", "ostle:4x4" };
    unsigned long long seed = 7;
    for (int i = 0; i < 2; i++) {
        game *g = test_open(specs[i], NULL);
        long realised = 0, listed = 0;
        for (int k = 0; k < 20000; k++) {
            game_state s;
            if (!test_random_state(g, &seed, 30, &s))
                continue;
            game_move mv[GAME_MAX_MOVES], f[GAME_MAX_MOVES];
            int nf = ostle_forbiddable(g, &s, f);
            listed += nf;
            int seen[GAME_MAX_MOVES] = { 0 };
            game_state pred[GAME_MAX_MOVES];
            int np = ostle_unmoves(g, &s, pred, NULL);
            for (int j = 0; j < np; j++) {
                int n = game_moves(g, &pred[j], mv);
                for (int m = 0; m < n; m++) {
                    game_state c = pred[j];
                    game_play(g, &c, mv[m]);
                    if (!same_position(&c, &s))
                        continue;
                    unsigned forbidden = (unsigned)(c.w[2] >> 16) & 0xFFFF;
                    if (forbidden == 0xFFFF)
                        continue;
                    int at = 0;
                    while (at < nf && f[at] != forbidden)
                        at++;
                    CU_ASSERT(at < nf);  /* a forbidden move it does not list */
                    if (at < nf && !seen[at]++)
                        realised++;
                }
            }
        }
        CU_ASSERT_EQUAL(realised, listed);  /* each listed one arises */
        CU_ASSERT(listed > 5000);
        game_close(g);
    }
}

/* The forbiddable moves walked chain by chain, square by square: the
 * order the state index relies on, against the bitboard version. */
static int naive_forbiddable(const game *g, const game_state *s, game_move *out)
{
    int w = g->width, h = g->height, cells = w * h, n = 0;
    unsigned hole = (unsigned)(s->w[2] & 0xFF);
    int me = (int)(s->w[2] >> 8 & 1);
    uint64_t occ = s->w[0] | s->w[1];
    const int dr[4] = { 1, -1, 0, 0 }, dc[4] = { 0, 0, -1, 1 };  /* U D L R */
#define STEP(sq, d) ((sq) / w + dr[d] < 0 || (sq) / w + dr[d] >= h || (sq) % w + dc[d] < 0 || (sq) % w + dc[d] >= w \
                     ? -1 : (sq) + dr[d] * w + dc[d])
    for (unsigned d = 0; d < 4; d++) {
        int to = STEP((int)hole, (int)d);
        if (to >= 0 && !(occ >> to & 1))
            out[n++] = hole * 4 + d;
    }
    for (int sq = 0; sq < cells; sq++) {
        if (!(s->w[me] >> sq & 1))
            continue;
        for (int d = 0; d < 4; d++) {
            int last = sq, next = STEP(sq, d);
            while (next >= 0 && (unsigned)next != hole && (occ >> next & 1)) {
                last = next;
                next = STEP(next, d);
            }
            if (last != sq && (s->w[!me] >> last & 1) && next >= 0 && (unsigned)next != hole)
                out[n++] = (game_move)(sq * 4 + d);
        }
    }
#undef STEP
    return n;
}

/* The un-moves into a state against the un-moves into its position played
 * forward and kept when they leave the state's forbidden move; the
 * forbiddable moves against the naive walk, in order. */
static void test_ostle_unmoves_state(void)
{
    const char *specs[] = { "ostle", "ostle:4x4", "ostle:5x4" };
    unsigned long long seed = 11;
    for (int i = 0; i < 3; i++) {
        game *g = test_open(specs[i], NULL);
        long states = 0, moves_in = 0;
        for (int k = 0; k < 20000; k++) {
            game_state s;
            if (!test_random_state(g, &seed, 30, &s))
                continue;
            game_move f[GAME_MAX_MOVES], naive[GAME_MAX_MOVES];
            int nf = ostle_forbiddable(g, &s, f);
            CU_ASSERT_EQUAL_FATAL(naive_forbiddable(g, &s, naive), nf);
            CU_ASSERT(memcmp(f, naive, (size_t)nf * sizeof *f) == 0);
            game_state pred[GAME_MAX_MOVES], want[GAME_MAX_MOVES], got[GAME_MAX_MOVES];
            game_move pm[GAME_MAX_MOVES], gm[GAME_MAX_MOVES];
            int np = ostle_unmoves(g, &s, pred, pm);
            for (int q = -1; q < nf; q++) {
                game_state t = s;
                t.w[2] = (t.w[2] & 0xFFFF) | (uint64_t)(q < 0 ? 0xFFFFu : f[q]) << 16;
                int nw = 0;
                for (int j = 0; j < np; j++) {
                    game_state c = pred[j];
                    game_play(g, &c, pm[j]);
                    if (c.w[0] == t.w[0] && c.w[1] == t.w[1] && c.w[2] == t.w[2])
                        want[nw++] = pred[j];
                }
                int ng = ostle_unmoves_state(g, &t, got, gm);
                CU_ASSERT_EQUAL(ng, nw);
                for (int j = 0; j < ng && j < nw; j++) {
                    game_state c = got[j];
                    game_play(g, &c, gm[j]);
                    CU_ASSERT(memcmp(&c, &t, sizeof c) == 0);  /* leads to the state */
                    int found = 0;
                    for (int x = 0; x < nw && !found; x++)
                        found = memcmp(&got[j], &want[x], sizeof got[j]) == 0;
                    CU_ASSERT(found);
                }
                states++;
                moves_in += ng;
            }
        }
        CU_ASSERT(states > 10000 && moves_in > 20000);
        game_close(g);
    }
}

/* The vector form of the flips against the plain one, on random boards of
 * any density (not only reachable ones) and every empty square. */
static void test_othello_flips_forms(void)
{
#ifdef OTHELLO_FLIPS_VECTOR
    othello_rays_init();
    unsigned long long seed = 88172645463325252ULL;
    uint64_t differ = 0, flipped = 0;
    for (int t = 0; t < 20000; t++) {
        uint64_t r[2] = { ref_rand(&seed), ref_rand(&seed) };
        uint64_t p = r[0] & r[1] >> (t % 3), o = ~r[0] & r[1] << (t % 5);  /* sparse to dense */
        for (uint64_t e = ~(p | o); e; e &= e - 1) {
            unsigned sq = (unsigned)__builtin_ctzll(e);
            uint64_t f = othello_flips_plain(p, o, sq);
            differ += othello_flips(p, o, sq) != f;
            flipped += f != 0;
        }
    }
    CU_ASSERT_EQUAL(differ, 0);
    CU_ASSERT(flipped > 100000);
#else
    CU_PASS("no vector form on this machine: othello_flips is the plain one");
#endif
}

/* The vector form of the legal moves against the plain one, on random
 * boards of any density and of every board shape's mask. */
static void test_othello_legal_forms(void)
{
#ifdef OTHELLO_LEGAL_VECTOR
    unsigned long long seed = 2463534242ULL;
    uint64_t differ = 0, moves = 0;
    for (int t = 0; t < 200000; t++) {
        uint64_t r[2] = { ref_rand(&seed), ref_rand(&seed) };
        int W = 4 + t % 5, H = 4 + t / 5 % 5;
        uint64_t board = 0;
        for (int row = 0; row < H; row++)
            board |= ((1ULL << W) - 1) << (row * 8);
        uint64_t p = r[0] & r[1] >> (t % 3) & board, o = ~r[0] & r[1] << (t % 5) & board;  /* sparse to dense */
        uint64_t m = othello_legal_plain(p, o, board);
        differ += othello_legal(p, o, board) != m;
        moves += (uint64_t)__builtin_popcountll(m);
    }
    CU_ASSERT_EQUAL(differ, 0);
    CU_ASSERT(moves > 200000);
#else
    CU_PASS("no vector form on this machine: othello_legal is the plain one");
#endif
}

/* The stable discs against their definition walked square by square on the
 * board (full lines and rims by walking each line), on random boards of
 * several shapes. */
static int naive_safe(uint64_t filled, int W, int H, int r, int c, int dr, int dc)
{
    int ahead = r + dr >= 0 && r + dr < H && c + dc >= 0 && c + dc < W;
    int behind = r - dr >= 0 && r - dr < H && c - dc >= 0 && c - dc < W;
    if (!ahead || !behind)
        return 1;  /* the rim along this direction */
    for (int s = -1; s <= 1; s += 2)
        for (int rr = r, cc = c; rr >= 0 && rr < H && cc >= 0 && cc < W; rr += s * dr, cc += s * dc)
            if (!(filled >> (rr * 8 + cc) & 1))
                return 0;
    return 1;
}

static uint64_t naive_stable(int W, int H, uint64_t p, uint64_t o)
{
    static const int dr[4] = { 0, 1, 1, 1 }, dc[4] = { 1, 0, 1, -1 };
    uint64_t stable = 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int r = 0; r < H; r++)
            for (int c = 0; c < W; c++) {
                int sq = r * 8 + c, ok = (int)(o >> sq & 1) && !(stable >> sq & 1);
                for (int d = 0; d < 4 && ok; d++) {
                    int next = 0;
                    for (int s = -1; s <= 1; s += 2) {
                        int rr = r + s * dr[d], cc = c + s * dc[d];
                        next |= rr >= 0 && rr < H && cc >= 0 && cc < W && (stable >> (rr * 8 + cc) & 1);
                    }
                    ok = next || naive_safe(p | o, W, H, r, c, dr[d], dc[d]);
                }
                if (ok)
                    stable |= 1ULL << sq, changed = 1;
            }
    }
    return stable;
}

static void test_othello_stable(void)
{
    static const int shapes[][2] = { { 4, 4 }, { 5, 6 }, { 6, 5 }, { 6, 6 }, { 7, 6 }, { 6, 7 }, { 7, 7 }, { 8, 8 } };
    unsigned long long seed = 0x5eed5ab1eULL;
    uint64_t differ = 0, found = 0;
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        othello_shape sh;
        othello_shape_init(&sh, shapes[k][0], shapes[k][1]);
        for (int t = 0; t < 3000; t++) {
            uint64_t r = ref_rand(&seed), q = ref_rand(&seed);
            uint64_t filled = sh.board & (r | q >> (t % 4) | (t & 1 ? ~0ULL : q));  /* half to nearly full */
            uint64_t o = filled & ref_rand(&seed), p = filled & ~o;
            uint64_t want = naive_stable(shapes[k][0], shapes[k][1], p, o);
            differ += othello_stable(&sh, p, o) != want;
            found += (uint64_t)__builtin_popcountll(want);
        }
    }
    CU_ASSERT_EQUAL(differ, 0);
    CU_ASSERT(found > 20000);
}

/* Othello's symmetric key against a by-hand image of the board: equal for
 * every image of a position (8 on square boards, 4 otherwise), and equal for
 * two positions of random games only when one is an image of the other. */
static uint64_t image(uint64_t b, int k, int W, int H)
{
    uint64_t out = 0;
    for (int r = 0; r < H; r++)
        for (int c = 0; c < W; c++)
            if (b >> (r * 8 + c) & 1) {
                int rr = k & 2 ? H - 1 - r : r, cc = k & 1 ? W - 1 - c : c;
                out |= 1ULL << (k & 4 ? cc * 8 + rr : rr * 8 + cc);
            }
    return out;
}

/* The patterns' base-3 indices (bit extraction and per-instance tables)
 * against their squares read one by one in canonical order; the class
 * indices a position reads are the same for every image of it (so the
 * instances' orders agree), and the evaluation of random weights is their
 * sum. */
static int naive_pattern(uint64_t p, uint64_t o, const int *sq, int k)
{
    int idx = 0;
    for (int i = 0; i < k; i++)
        idx = idx * 3 + (int)(p >> sq[i] & 1) + 2 * (int)(o >> sq[i] & 1);
    return idx;
}

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

static void test_othello_patterns(void)
{
    static const int shapes[][2] = { { 4, 4 }, { 5, 6 }, { 7, 6 }, { 6, 6 }, { 8, 8 } };
    unsigned long long seed = 0x9a77e4a5ULL;
    int wrong = 0, asym = 0, bad_eval = 0;
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        int W = shapes[k][0], H = shapes[k][1];
        othello_patterns P;
        othello_patterns_init(&P, W, H);
        /* rows (top, bottom), columns (left, right), corners */
        int sq[8][10], ref[8][10], len[8], cls[8], n = 0;  /* ref: the same squares reflected */
        for (int side = 0; side < 2; side++, n++) {
            int r = side ? H - 1 : 0, x = side ? H - 2 : 1;
            for (int c = 0; c < W; c++)
                sq[n][c] = r * 8 + c, ref[n][W - 1 - c] = r * 8 + c;
            sq[n][W] = ref[n][W + 1] = x * 8 + 1, sq[n][W + 1] = ref[n][W] = x * 8 + W - 2;
            len[n] = W + 2, cls[n] = 0;
        }
        for (int side = 0; side < 2; side++, n++) {
            int c = side ? W - 1 : 0, x = side ? W - 2 : 1;
            for (int r = 0; r < H; r++)
                sq[n][r] = r * 8 + c, ref[n][H - 1 - r] = r * 8 + c;
            sq[n][H] = ref[n][H + 1] = 8 + x, sq[n][H + 1] = ref[n][H] = (H - 2) * 8 + x;
            len[n] = H + 2, cls[n] = W == H ? 0 : 1;
        }
        for (int c = 0; c < 4; c++, n++) {
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++)
                    sq[n][i * 3 + j] = ref[n][j * 3 + i] = (c & 1 ? H - 1 - i : i) * 8 + (c & 2 ? W - 1 - j : j);
            len[n] = 9, cls[n] = W == H ? 1 : 2;
        }
        CU_ASSERT_EQUAL(P.n, n);
        int16_t *cw[OTHELLO_PATTERN_CLASSES];
        for (int c = 0; c < P.classes; c++) {
            cw[c] = malloc((size_t)P.weights_per_class[c] * sizeof *cw[c]);
            for (int t = 0; t < P.weights_per_class[c]; t++)
                cw[c][t] = (int16_t)(ref_rand(&seed) % 2001) - 1000;
        }
        othello_patterns_load(&P, (const int16_t *const *)cw);
        othello_shape sh;
        othello_shape_init(&sh, W, H);
        for (int t = 0; t < 2000; t++) {
            uint64_t filled = sh.board & (ref_rand(&seed) | ref_rand(&seed));
            uint64_t o = filled & ref_rand(&seed), p = filled & ~o;
            int idx[OTHELLO_PATTERN_INSTANCES], want = 0;
            othello_patterns_index(&P, p, o, idx);
            for (int i = 0; i < n; i++) {
                int v = naive_pattern(p, o, sq[i], len[i]), r = naive_pattern(p, o, ref[i], len[i]);
                v = r < v ? r : v;
                wrong += P.instance[i].cls != cls[i] || idx[i] != v;
                want += cw[cls[i]][v];
            }
            bad_eval += othello_patterns_eval(&P, p, o) != want;
            int keys[OTHELLO_PATTERN_INSTANCES];
            for (int i = 0; i < n; i++)
                keys[i] = P.instance[i].cls << 20 | idx[i];
            qsort(keys, (size_t)n, sizeof *keys, cmp_int);
            for (int im = 1; im < (W == H ? 8 : 4); im++) {
                int other[OTHELLO_PATTERN_INSTANCES];
                othello_patterns_index(&P, image(p, im, W, H), image(o, im, W, H), other);
                for (int i = 0; i < n; i++)
                    other[i] |= P.instance[i].cls << 20;
                qsort(other, (size_t)n, sizeof *other, cmp_int);
                asym += memcmp(keys, other, sizeof keys[0] * (size_t)n) != 0;
            }
        }
        for (int c = 0; c < P.classes; c++)
            free(cw[c]);
        othello_patterns_free(&P);
    }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(asym, 0);
    CU_ASSERT_EQUAL(bad_eval, 0);
    othello_shape s8;  /* the shipped fit matches today's patterns (else it is ignored) */
    othello_shape_init(&s8, 8, 8);
    CU_ASSERT_PTR_NOT_NULL(s8.patterns);
}

static void test_othello_symmetry(void)
{
    const char *sizes[] = { "othello:4x4", "othello:5x5", "othello:4x6", "othello:6x5", "othello:8x8" };
    unsigned long long seed = 5;
    for (int i = 0; i < 5; i++) {
        game *g = test_open(sizes[i], NULL);
        int W = g->width, H = g->height;
        game_state pos[200];
        for (int k = 0; k < 200; k++) {
            game_start(g, &pos[k]);
            int plies = (int)(ref_rand(&seed) % 8);
            game_move mv[GAME_MAX_MOVES];
            for (int p = 0, n; p < plies && (n = game_moves(g, &pos[k], mv)) > 0; p++)
                game_play(g, &pos[k], mv[ref_rand(&seed) % (unsigned)n]);
            game_key key = game_symmetric_key(g, &pos[k]);
            for (int sym = 0; sym < (W == H ? 8 : 4); sym++) {
                game_state t = pos[k];
                t.w[0] = image(pos[k].w[0], sym, W, H);
                t.w[1] = image(pos[k].w[1], sym, W, H);
                CU_ASSERT(game_key_equal(game_symmetric_key(g, &t), key));
            }
        }
        for (int k = 0; k < 200; k++) {  /* every finished game's score is a possible one */
            game_state t;
            game_start(g, &t);
            game_move mv[GAME_MAX_MOVES];
            for (int n; (n = game_moves(g, &t, mv)) > 0;)
                game_play(g, &t, mv[ref_rand(&seed) % (unsigned)n]);
            CU_ASSERT(game_score_possible(g, game_score(g, &t)));
        }
        for (int a = 0; a < 200; a++)
            for (int b = a + 1; b < 200; b++) {
                int twins = 0;
                for (int sym = 0; sym < (W == H ? 8 : 4); sym++)
                    twins |= image(pos[a].w[0], sym, W, H) == pos[b].w[0] &&
                             image(pos[a].w[1], sym, W, H) == pos[b].w[1] && pos[a].w[2] == pos[b].w[2];
                CU_ASSERT_EQUAL(twins, game_key_equal(game_symmetric_key(g, &pos[a]), game_symmetric_key(g, &pos[b])));
            }
        game_close(g);
    }
}

void suite_rules(void)
{
    CU_pSuite s = CU_add_suite("rules", NULL, NULL);
    CU_add_test(s, "a key gives back its state where the game says it does", test_unkey);
    CU_add_test(s, "notation round trips", test_round_trips);
    CU_add_test(s, "malformed input is rejected with one line", test_rejects);
    CU_add_test(s, "ostle rule 8", test_ostle_rule8);
    CU_add_test(s, "ostle un-moves against the move generator", test_ostle_unmoves);
    CU_add_test(s, "ostle rule-8 forbiddable moves against every move into the position", test_ostle_forbiddable);
    CU_add_test(s, "ostle un-captures against the move generator", test_ostle_uncaptures);
    CU_add_test(s, "ostle un-moves into a state against the forward moves; forbiddable moves against a naive walk",
                test_ostle_unmoves_state);
    CU_add_test(s, "ostle game ends", test_ostle_ends);
    CU_add_test(s, "othello pass and game end", test_othello_pass_and_end);
    CU_add_test(s, "othello symmetric keys and possible scores", test_othello_symmetry);
    CU_add_test(s, "othello flips: the vector form against the plain one", test_othello_flips_forms);
    CU_add_test(s, "othello legal moves: the vector form against the plain one", test_othello_legal_forms);
    CU_add_test(s, "othello stable discs against their definition, walked square by square", test_othello_stable);
    CU_add_test(s, "othello patterns against their squares read one by one, and under symmetry", test_othello_patterns);
    CU_add_test(s, "jungle capture variants and ends", test_jungle_capture_variants);
    CU_add_test(s, "graph files", test_graph);
}
