/* tests/test_tblayers.c - strong solutions by layers of empty squares
 * (tblayers/layers.c) on 4x4 Othello: the start's score that the score
 * search gives, every reachable state with at most 8 empty squares and a
 * sample of the rest against the naive negamax written in the tests, every
 * stored score re-derived from its children, unreachable and damaged
 * inputs refused. */
#include "ref.h"
#include "suites.h"
#include "../tablebase/tablebase.h"
#include "../tbfile/tbfile.h"
#include "../tblayers/tblayers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

/* The scratch directory, 4x4's solution in it (built here when a test runs alone). */
static void ready(void)
{
    snprintf(dir, sizeof dir, "/tmp/pnsolve-layers-%d", (int)getpid());
    mkdir(dir, 0777);
    char path[200], err[600];
    game *g = test_open("othello:4x4", NULL);
    tb_layers_path(g, dir, path, sizeof path);
    if (access(path, F_OK) != 0)
        CU_ASSERT_EQUAL(tb_layers_build(g, dir, &(tb_sweep_options){ .memory = 1 << 26 }, 0, err, sizeof err), 0);
    game_close(g);
}

static void test_against_negamax(void)
{
    ready();
    game *g = test_open("othello:4x4", NULL);
    char err[600];
    tb_layers *t = tb_layers_open(g, dir, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    game_state s;
    game_start(g, &s);
    int v, score;
    CU_ASSERT_EQUAL(tb_layers_probe(t, &s, &v), 1);
    pns_options o;
    pns_defaults(&o);
    pns_score_defaults(&o);
    pns_result r;
    CU_ASSERT_EQUAL(pns_score(g, &s, &o, -16, 16, &score, &r), 0);
    CU_ASSERT_EQUAL(v, score);
    CU_ASSERT_EQUAL(v, -10);
    /* the score search reading every leaf from the tables (the solver only
     * at 4 empties, so that the search has leaves to read): the same score,
     * fewer nodes */
    pns_result rt;
    o.exact_empties = 4;
    CU_ASSERT_EQUAL(pns_score(g, &s, &o, -16, 16, &score, &r), 0);
    o.scores = tb_open(g, dir, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(o.scores);
    CU_ASSERT(tb_set_scored(o.scores));
    CU_ASSERT_EQUAL(pns_score(g, &s, &o, -16, 16, &score, &rt), 0);
    CU_ASSERT_EQUAL(score, -10);
    CU_ASSERT(rt.nodes * 5 < r.nodes);
    tb_close(o.scores);
    o.scores = NULL;
    uint64_t total = 0, checked = 0, wins = 0, passes = 0;
    for (int i = 0; i < tb_layers_count(t); i++) {
        tb_layer_stats st;
        tb_layers_stats(t, i, &st);
        total += st.states;
        passes += st.passing;
    }
    CU_ASSERT(passes > 0);
    /* walk: random games from the start, every state met checked */
    unsigned long long seed = 11;
    for (int game_no = 0; game_no < 400; game_no++) {
        game_start(g, &s);
        for (;;) {
            char text[128];
            game_format(g, &s, text, sizeof text);
            int stored;
            CU_ASSERT_EQUAL_FATAL(tb_layers_probe(t, &s, &stored), 1);
            if (game_empties(g, &s) <= 8 || game_no % 20 == 0) {
                CU_ASSERT_EQUAL(stored, ref_negamax(text, -1000, 1000));
                checked++;
                wins += stored > 0;
            }
            game_move mv[GAME_MAX_MOVES];
            int n = game_result_of(g, &s) == GAME_ONGOING ? game_moves(g, &s, mv) : 0;
            if (n == 0)
                break;
            game_play(g, &s, mv[ref_rand(&seed) % (unsigned)n]);
        }
    }
    CU_ASSERT(checked > 2000 && wins > 0);
    CU_ASSERT_EQUAL(tb_layers_verify(t, 2), 0);
    /* a position no game reaches: four discs of one colour on the centre */
    CU_ASSERT_EQUAL(game_parse(g, "4x4:----/-XX-/-XX-/---- O", &s, err, sizeof err), 0);
    CU_ASSERT_EQUAL(tb_layers_probe(t, &s, &v), 0);
    printf("\n    othello:4x4: %llu reachable states, %llu checked against negamax\n", (unsigned long long)total,
           (unsigned long long)checked);
    tb_layers_close(t);
    game_close(g);
}

/* The probe side (tablebase.h) over 4x4's scores: tb_open eager, each
 * state's value and every move's, best first, against the naive negamax of
 * the child; the best move the first of them. */
static void test_probe_side_moves(void)
{
    ready();
    game *g = test_open("othello:4x4", NULL);
    char err[600];
    tb_set *t = tb_open(g, dir, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT(tb_set_scored(t));
    unsigned long long seed = 5;
    int moves_checked = 0;
    for (int game_no = 0; game_no < 60; game_no++) {
        game_state s;
        game_start(g, &s);
        while (game_result_of(g, &s) == GAME_ONGOING) {
            char text[128];
            game_format(g, &s, text, sizeof text);
            tb_value v;
            CU_ASSERT_EQUAL_FATAL(tb_probe(t, &s, &v, err, sizeof err), 1);
            CU_ASSERT(v.scored);
            int mover = game_to_move(g, &s);
            tb_move_value mv[GAME_MAX_MOVES];
            int n = tb_probe_moves(t, &s, mv, err, sizeof err);
            CU_ASSERT_FATAL(n > 0);
            for (int k = 0; k < n; k++) {
                game_state c = s;
                game_play(g, &c, mv[k].move);
                char ctext[128];
                game_format(g, &c, ctext, sizeof ctext);
                int want = ref_negamax(ctext, -1000, 1000);
                if (game_to_move(g, &c) != mover)
                    want = -want;
                CU_ASSERT(mv[k].found && mv[k].value.scored);
                CU_ASSERT_EQUAL(mv[k].value.score, want);
                CU_ASSERT_EQUAL(mv[k].value.wdl, want > 0 ? TB_WIN : want < 0 ? TB_LOSS : TB_DRAW);
                if (k > 0)
                    CU_ASSERT(mv[k - 1].value.score >= mv[k].value.score);
                moves_checked++;
            }
            CU_ASSERT_EQUAL(mv[0].value.score, v.score);  /* the best move keeps the value */
            game_move best;
            tb_value bv;
            CU_ASSERT_EQUAL(tb_best_move(t, &s, &best, &bv, err, sizeof err), 1);
            CU_ASSERT_EQUAL(bv.score, v.score);
            game_move all[GAME_MAX_MOVES];
            game_play(g, &s, all[ref_rand(&seed) % (unsigned)game_moves(g, &s, all)]);
        }
    }
    CU_ASSERT(moves_checked > 1000);
    char hex[TB_HASH_HEX];
    CU_ASSERT_EQUAL(tb_hash(t, 0, hex, err, sizeof err), 0);
    tb_close(t);
    /* an empty directory: named at open */
    CU_ASSERT_PTR_NULL(tb_open(g, "/nonexistent-pnsolve", err, sizeof err));
    CU_ASSERT(strstr(err, "/nonexistent-pnsolve") != NULL);
    game_close(g);
}

/* Scores of random reachable states of g's solution against the score
 * search (pns_score, no tables): how many were checked. */
static int against_search(game *g, const tb_layers *t, int games, unsigned long long seed)
{
    int checked = 0;
    for (int k = 0; k < games; k++) {
        game_state s;
        game_start(g, &s);
        int plies = 2 + (int)(ref_rand(&seed) % 8);
        for (int p = 0; p < plies && game_result_of(g, &s) == GAME_ONGOING; p++) {
            game_move mv[GAME_MAX_MOVES];
            int n = game_moves(g, &s, mv);
            game_play(g, &s, mv[ref_rand(&seed) % (unsigned)n]);
        }
        int stored, score;
        pns_options o;
        pns_defaults(&o);
        pns_score_defaults(&o);
        o.memory = (size_t)32 << 20;
        pns_result r;
        CU_ASSERT_EQUAL_FATAL(tb_layers_probe(t, &s, &stored), 1);
        CU_ASSERT_EQUAL_FATAL(pns_score(g, &s, &o, -g->score_bound, g->score_bound, &score, &r), 0);
        CU_ASSERT_EQUAL(stored, score);
        checked++;
    }
    return checked;
}

/* 4x5 (slow: 10 s to build): the start +16, every score re-derived, random
 * states against the score search; 4x4's against it too. */
static void test_4x5(void)
{
    ready();
    game *g4 = test_open("othello:4x4", NULL);
    char err[600];
    tb_layers *t4 = tb_layers_open(g4, dir, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t4);
    CU_ASSERT_EQUAL(against_search(g4, t4, 40, 3), 40);
    tb_layers_close(t4);
    game_close(g4);
    if (!test_slow())
        return;
    game *g = test_open("othello:4x5", NULL);
    CU_ASSERT_EQUAL_FATAL(tb_layers_build(g, dir, &(tb_sweep_options){ .memory = 1 << 26 }, 0, err, sizeof err), 0);
    tb_layers *t = tb_layers_open(g, dir, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    game_state s;
    game_start(g, &s);
    int v;
    CU_ASSERT_EQUAL(tb_layers_probe(t, &s, &v), 1);
    CU_ASSERT_EQUAL(v, 16);
    CU_ASSERT_EQUAL(tb_layers_verify(t, 2), 0);
    CU_ASSERT_EQUAL(against_search(g, t, 60, 5), 60);
    tb_layers_close(t);
    game_close(g);
    CU_ASSERT_EQUAL(test_remove_dir(dir), 0);
}

/* Flips a bit of the byte at offset from the end of path. */
static void damage(const char *path, long offset)
{
    FILE *f = fopen(path, "r+b");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fseek(f, -offset, SEEK_END);
    int c = fgetc(f);
    fseek(f, -offset, SEEK_END);
    fputc(c ^ 0x21, f);
    fclose(f);
}

/* A byte of a layer's scores or of its set changed, a file cut short,
 * another board's file, a layer missing: each refused by name; a build
 * then solves again what is missing. */
static void test_damaged(void)
{
    ready();
    game *g = test_open("othello:4x4", NULL);
    char scores[200], set[200], err[600];
    snprintf(scores, sizeof scores, "%s/othello-4x4.e06.pnss", dir);
    snprintf(set, sizeof set, "%s/othello-4x4.e06.pnsw", dir);
    damage(scores, 100);
    CU_ASSERT_PTR_NULL(tb_layers_open(g, dir, err, sizeof err));
    CU_ASSERT(strstr(err, scores) != NULL && strstr(err, "damaged") != NULL);
    CU_ASSERT_EQUAL(unlink(scores), 0);
    CU_ASSERT_PTR_NULL(tb_layers_open(g, dir, err, sizeof err));
    CU_ASSERT(strstr(err, "not solved") != NULL);
    tb_sweep_options o = { .memory = 1 << 20 };
    CU_ASSERT_EQUAL(tb_layers_build(g, dir, &o, 0, err, sizeof err), 0);
    tb_layers *t = tb_layers_open(g, dir, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL(t);
    CU_ASSERT(t && tb_layers_verify(t, 1) == 0);
    tb_layers_close(t);
    damage(set, 50);
    CU_ASSERT_PTR_NULL(tb_layers_open(g, dir, err, sizeof err));
    CU_ASSERT(strstr(err, set) != NULL && strstr(err, "damaged") != NULL);
    CU_ASSERT_EQUAL(truncate(set, 5000), 0);
    CU_ASSERT_PTR_NULL(tb_layers_open(g, dir, err, sizeof err));
    CU_ASSERT(strstr(err, set) != NULL);
    /* another board's layer under this one's name */
    game *other = test_open("othello:4x5", NULL);
    char dir45[80], set45[200];
    snprintf(dir45, sizeof dir45, "%s-45", dir);
    mkdir(dir45, 0777);
    o.memory = 1 << 26;
    CU_ASSERT_EQUAL(tb_sweep(other, dir45, &o, (tb_sweep_layer[40]){ { 0 } }, 40, &(int){ 0 }, err, sizeof err), 0);
    snprintf(set45, sizeof set45, "%s/othello-4x5.e10.pnsw", dir45);
    CU_ASSERT_EQUAL(rename(set45, set), 0);
    CU_ASSERT_PTR_NULL(tb_layers_open(g, dir, err, sizeof err));
    CU_ASSERT(strstr(err, "another game") != NULL);
    CU_ASSERT_EQUAL(test_remove_dir(dir), 0);
    CU_ASSERT_EQUAL(test_remove_dir(dir45), 0);
    game_close(g);
    game_close(other);
}

/* The scores file's header as layers.c writes it: a forger knows it. */
typedef struct {
    char magic[8];
    char game[GAME_NAME_MAX];
    int32_t empties, unused;
    uint64_t states;
    tb_layer_stats st;
    uint64_t data_checksum, header_checksum;
} forged_scores_header;

/* Re-checksummed forgeries the checksums cannot catch: a scores header
 * whose counts are changed (each of states, moving, passing, finished) is
 * caught by tb_layers_verify, which re-derives them; a set whose unary
 * part is all ones (its data checksum made again) is refused at open,
 * before any lookup reads past its arrays. */
static void test_forged(void)
{
    ready();
    game *g = test_open("othello:4x4", NULL);
    char scores[200], set[200], err[600];
    snprintf(scores, sizeof scores, "%s/othello-4x4.e06.pnss", dir);
    snprintf(set, sizeof set, "%s/othello-4x4.e06.pnsw", dir);
    for (int field = 0; field < 4; field++) {
        FILE *f = fopen(scores, "r+b");
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        forged_scores_header h, was;
        CU_ASSERT_EQUAL_FATAL(fread(&h, sizeof h, 1, f), 1);
        was = h;
        uint64_t *count[] = { &h.st.states, &h.st.moving, &h.st.passing, &h.st.finished };
        *count[field] += 8;
        h.header_checksum = 0;
        h.header_checksum = tb_checksum(&h, sizeof h);
        rewind(f);
        CU_ASSERT_EQUAL(fwrite(&h, sizeof h, 1, f), 1);
        fflush(f);
        tb_layers *t = tb_layers_open(g, dir, err, sizeof err);
        CU_ASSERT_PTR_NOT_NULL(t);
        CU_ASSERT(t && tb_layers_verify(t, 2) > 0);
        tb_layers_close(t);
        rewind(f);
        CU_ASSERT_EQUAL(fwrite(&was, sizeof was, 1, f), 1);
        fclose(f);
    }
    tb_layers *t = tb_layers_open(g, dir, err, sizeof err);
    CU_ASSERT(t && tb_layers_verify(t, 2) == 0);
    tb_layers_close(t);
    /* the set: header, then per segment its fields (n, universe, low bits), low words, high words */
    FILE *f = fopen(set, "r+b");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    tb_sweep_header h;
    CU_ASSERT_EQUAL_FATAL(fread(&h, sizeof h, 1, f), 1);
    long at = ftell(f);
    fseek(f, 0, SEEK_END);
    size_t len = (size_t)(ftell(f) - at);
    unsigned char *data = malloc(len);
    fseek(f, at, SEEK_SET);
    CU_ASSERT_EQUAL_FATAL(fread(data, 1, len, f), len);
    CU_ASSERT_EQUAL_FATAL(h.segments, 1);
    uint64_t fields[3];
    memcpy(fields, data, sizeof fields);
    util_efset shape;  /* the word counts its n and universe give */
    CU_ASSERT_EQUAL_FATAL(util_efset_init(&shape, fields[0], fields[1]), 0);
    size_t low = util_efset_low_words(&shape) * 8, high = shape.high_words * 8;
    CU_ASSERT_EQUAL_FATAL(sizeof fields + low + high, len);
    memset(data + sizeof fields + low, 0xff, high);
    util_efset_free(&shape);
    h.data_checksum = tb_checksum_update(tb_checksum_update(tb_checksum_update(TB_CHECKSUM_SEED, data, sizeof fields),
                                                            data + sizeof fields, low), data + sizeof fields + low, high);
    h.header_checksum = 0;
    h.header_checksum = tb_checksum(&h, sizeof h);
    rewind(f);
    CU_ASSERT_EQUAL(fwrite(&h, sizeof h, 1, f), 1);
    CU_ASSERT_EQUAL(fwrite(data, 1, len, f), len);
    fclose(f);
    free(data);
    CU_ASSERT_PTR_NULL(tb_layers_open(g, dir, err, sizeof err));
    CU_ASSERT(strstr(err, set) != NULL && strstr(err, "no sorted set") != NULL);
    CU_ASSERT_EQUAL(unlink(set), 0);
    CU_ASSERT_EQUAL(tb_layers_build(g, dir, &(tb_sweep_options){ .memory = 1 << 26 }, 0, err, sizeof err), 0);
    game_close(g);
    CU_ASSERT_EQUAL(test_remove_dir(dir), 0);
}

void suite_layers(void)
{
    CU_pSuite s = CU_add_suite("layers", NULL, NULL);
    CU_add_test(s, "4x4 Othello strongly solved: the start -10, states against naive negamax, every score re-derived", test_against_negamax);
    CU_add_test(s, "the probe side over 4x4's scores: every move's value against negamax of its child, best first",
                test_probe_side_moves);
    CU_add_test(s, "random states against the score search; 4x5 (PNSOLVE_SLOW): the start +16, every score re-derived", test_4x5);
    CU_add_test(s, "a damaged, truncated, foreign or missing layer refused by name; the build mends it", test_damaged);
    CU_add_test(s, "re-checksummed forgeries: a layer's counts caught by verify, a set of all ones refused at open",
                test_forged);
}
