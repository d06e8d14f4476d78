/* tests/test_proof_trust.c - the proof checker and the score search tried as
 * an adversary would: score questions where repetitions live against every
 * path, hand-written false proofs of every line kind under every question,
 * thousands of mutants of valid proofs of every game whose accepted claims
 * are re-derived by an oracle that shares no code with the search (every
 * path of a graph, the tables, the naive Othello negamax), and forged tables. */
#include "suites.h"
#include "graphs.h"
#include "mutate.h"
#include "ref.h"
#include "../pns/pns.h"
#include "../tbfile/tbfile.h"  /* to forge a table as an adversary would */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>


/* A proof of question q (target k) for player prover from s, written by
 * the engine into a string (the caller frees it), or NULL when the search
 * stayed open; *proven: its result. */
static char *write_proof(const game *g, const game_state *s, pns_question q, int k, int prover, tb_set *tb,
                         int exact, int *proven)
{
    pns_options o;
    pns_defaults(&o);
    o.memory = 4 << 20;
    o.question = q;
    o.score_target = k;
    o.prover = prover;
    o.tb = tb;
    o.max_nodes = 2000000;
    o.proof_exact_empties = exact;
    pns_result r;
    char *text = test_proof_text(g, s, &o, &r);
    *proven = r.status == PNS_PROVEN;
    return text;
}

/* --- the score search where repetitions live ----------------------------- */

static void test_score_graphs(void)
{
    unsigned seed = 20261124;
    int wrong = 0, unsound = 0, draws = 0;
    for (int t = 0; t < 3000; t++) {
        char text[2048], err[512];
        random_graph(&seed, text, sizeof text);
        game *g = graph_keep(text);
        CU_ASSERT_PTR_NOT_NULL_FATAL(g);
        game_state s;
        game_start(g, &s);
        int truth = graph_truth(g), score = 99;
        draws += truth == 0;
        pns_options o;
        pns_defaults(&o);
        o.memory = 1 << 20;
        o.prover = 0;
        char *proof = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&proof, &len);
        pns_result r;
        int rc = pwrite_score(g, &s, &o, -1, 1, &score, &r, f);
        fclose(f);
        wrong += rc != 0 || score != truth;
        unsound += rc == 0 && test_check_proof(proof, NULL, err, sizeof err) != 0;
        free(proof);
        unlink_graph(g);
        game_close(g);
    }
    printf("\n    score on random cyclic graphs: 3000 (%d draws), wrong %d, proofs refused %d ", draws, wrong, unsound);
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(unsound, 0);
    CU_ASSERT(draws > 300);
}

/* Every file of positions/ghi: the score is its expected value. */
static void test_score_ghi_files(void)
{
    const char *files[] = { "dead-ends", "draw-by-long-cycle", "escape-cycle-win", "kishimoto-fig3-2",
                            "kishimoto-mirrored", "opponent-escapes", "path-dependent-disproof", "self-loop",
                            "two-cycle-draw" };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char spec[256], path[200], line[256], expect[16] = "";
        snprintf(path, sizeof path, "positions/ghi/%s.graph", files[i]);
        snprintf(spec, sizeof spec, "graph:%s", path);
        FILE *f = fopen(path, "r");
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "# expect: %15s", expect) == 1)
                break;
        fclose(f);
        int want = !strcmp(expect, "win") ? 1 : !strcmp(expect, "draw") ? 0 : -1;
        game *g = test_open(spec, NULL);
        CU_ASSERT_EQUAL(graph_truth(g), want);
        game_state s;
        game_start(g, &s);
        pns_options o;
        pns_defaults(&o);
        o.memory = 1 << 20;
        o.prover = 0;
        pns_result r;
        int score = 99;
        CU_ASSERT_EQUAL(pns_score(g, &s, &o, -1, 1, &score, &r), 0);
        CU_ASSERT_EQUAL(score, want);
        if (score != want)
            printf("\n    %s: score %d, expected %d ", files[i], score, want);
        game_close(g);
    }
}

/* --- hand-written false proofs: one per line kind and question ------------- */

typedef struct {
    const char *game;      /* a spec, or NULL: the graph text below */
    const char *graph;
    const char *header;    /* position, prover, question and result lines */
    const char *tree;
    const char *why;       /* a piece of the one-line reason */
} forged;

static void test_forged_proofs(void)
{
    /* A: a two-cycle, a draw.  L: the prover loses by exactly 1.  W: wins. */
    const char *cycle = "root A\nA: or B\nB: and A\n";
    const char *lost = "root A\nA: or B\nB: and L A\nL: loss\n";
    const char *won = "root A\nA: or W B\nW: win\nB: and A\n";
    const forged cases[] = {
        /* rep: a repetition is a draw (score 0) */
        { NULL, cycle, "question win\nresult proven", "0 - node\n1 B node\n2 A rep 0\n", "cannot support" },
        { NULL, cycle, "question advantage\nresult disproven", "0 - node\n1 B node\n2 A rep 0\n", "cannot support" },
        { NULL, cycle, "question score 1\nresult proven", "0 - node\n1 B node\n2 A rep 0\n", "cannot support" },
        { NULL, cycle, "question score 0\nresult disproven", "0 - node\n1 B node\n2 A rep 0\n", "cannot support" },
        { NULL, cycle, "question score -1\nresult disproven", "0 - node\n1 B node\n2 A rep 0\n", "cannot support" },
        { NULL, lost, "question score -1\nresult disproven", "0 - node\n1 B node\n2 A rep 0\n", "cannot support" },
        { NULL, lost, "question score 0\nresult proven", "0 - node\n1 B node\n2 A rep 0\n", "lacks the answer" },
        /* ref: a cycle back to an open line, where a draw does not support the claim */
        { NULL, cycle, "question win\nresult proven", "0 - node\n1 B node\n2 A ref 0\n", "not a finished subtree" },
        { NULL, cycle, "question score 1\nresult proven", "0 - node\n1 B node\n2 A ref 0\n", "not a finished subtree" },
        { NULL, cycle, "question score 0\nresult disproven", "0 - node\n1 B node\n2 A ref 0\n", "not a finished subtree" },
        { NULL, cycle, "question advantage\nresult disproven", "0 - node\n1 B node\n2 A ref 0\n", "not a finished subtree" },
        { NULL, cycle, "question advantage\nresult proven", "0 - ref 3\n", "root cannot be" },
        { NULL, cycle, "question score -1\nresult proven", "0 - node\n1 B node\n2 A ref 7\n", "not in the file" },
        /* node: a node without every answer, or with two where one is asked */
        { NULL, lost, "question advantage\nresult proven", "0 - node\n1 B node\n2 A rep 0\n", "lacks the answer" },
        { NULL, won, "question advantage\nresult proven", "0 - node\n1 W end\n1 B node\n2 A rep 0\n", "several" },
        { NULL, won, "question score 1\nresult proven", "0 - node\n", "no children" },
        /* end: a game end that does not support the claim */
        { NULL, lost, "question win\nresult proven", "0 - node\n1 B node\n2 L end\n", "does not support" },
        { NULL, lost, "question score 0\nresult proven", "0 - node\n1 B node\n2 L end\n2 A ref 0\n", "does not support" },
        { NULL, won, "question score -1\nresult disproven", "0 - node\n1 W end\n1 B node\n2 A rep 0\n", "does not support" },
        { NULL, won, "question score 2\nresult proven", "0 - node\n1 W end\n", "does not support" },
        /* a node alone: no answer, for each question */
        { NULL, cycle, "question win\nresult proven", "0 - node\n", "no children" },
        { NULL, lost, "question advantage\nresult proven", "0 - node\n", "no children" },
        { NULL, cycle, "question score -1\nresult disproven", "0 - node\n", "lacks the answer" },
        { NULL, lost, "question score 0\nresult proven", "0 - node\n", "no children" },
        { NULL, cycle, "question score 1\nresult proven", "0 - node\n", "no children" },
        { NULL, lost, "question advantage\nresult proven", "0 - node\n1 B node\n2 L end\n", "does not support" },
        { NULL, lost, "question score 1\nresult proven", "0 - node\n1 B node\n2 L end\n", "does not support" },
        /* sym, tb and exact where the game has none */
        { NULL, won, "question win\nresult proven", "0 - node\n1 B sym 0\n", "earlier sibling" },
        { NULL, won, "question win\nresult proven", "0 - node\n1 B tb win 1\n", "no endgame tables" },
        { NULL, won, "question score 1\nresult proven", "0 - node\n1 B exact\n", "cannot cycle" },
        /* tb: White's rat on a1 against Black's on d3 loses in 2 (the tables) */
        { "jungle", NULL, "position 7/7/7/7/7/3r3/R6 w\nprover 0\nquestion advantage\nresult proven",
          "0 - tb draw 0\n", "not name" },
        { "jungle", NULL, "position 7/7/7/7/7/3r3/R6 w\nprover 0\nquestion win\nresult proven",
          "0 - node\n1 a1a2 tb win 1\n", "not name" },
        { "jungle", NULL, "position 7/7/7/7/7/3r3/R6 w\nprover 0\nquestion score 0\nresult proven",
          "0 - tb loss 2\n", "says nothing of the score" },
        { "jungle", NULL, "position 7/7/7/7/7/3r3/R6 w\nprover 0\nquestion score -1\nresult disproven",
          "0 - tb loss 2\n", "says nothing of the score" },
        { "jungle", NULL, "position 7/7/7/7/7/3r3/R6 w\nprover 0\nquestion score 1\nresult proven",
          "0 - tb loss 2\n", "says nothing of the score" },
        /* exact outside score questions; sym naming no sibling, under each question */
        { "othello:4x4", NULL, "position 4x4:----/-OX-/-XO-/---- X\nprover 0\nquestion win\nresult proven",
          "0 - exact\n", "belong to score questions" },
        { "othello:4x4", NULL, "position 4x4:----/-OX-/-XO-/---- X\nprover 0\nquestion advantage\nresult proven",
          "0 - node\n1 b1 exact\n", "belong to score questions" },
        { "othello:4x4", NULL, "position 4x4:----/-OX-/-XO-/---- X\nprover 0\nquestion advantage\nresult proven",
          "0 - node\n1 b1 sym 0\n", "earlier sibling" },
        { "othello:4x4", NULL, "position 4x4:----/-OX-/-XO-/---- X\nprover 0\nquestion score -1\nresult proven",
          "0 - node\n1 b1 sym 0\n", "earlier sibling" },
        { "othello:4x4", NULL, "position 4x4:----/-OX-/-XO-/---- X\nprover 0\nquestion score 0\nresult proven",
          "0 - node\n1 b1 sym 0\n", "earlier sibling" },
        { "othello:4x4", NULL, "position 4x4:----/-OX-/-XO-/---- X\nprover 0\nquestion score 1\nresult proven",
          "0 - node\n1 b1 sym 0\n", "earlier sibling" },
        /* exact and sym on Othello 4x4 (Black's score is -8: White wins) */
        { "othello:6x6", NULL, "position 6x6:------/------/--OX--/--XO--/------/------ X\nprover 0\n"
          "question score -4\nresult proven", "0 - exact\n", "more empty squares" },
        { "othello:4x4", NULL, "position 4x4:----/-OX-/-XO-/---- X\nprover 0\nquestion score -6\nresult proven",
          "0 - exact\n", "exact score does not support" },
        { "othello:4x4", NULL, "position 4x4:----/-OX-/-XO-/---- X\nprover 0\nquestion score -10\nresult disproven",
          "0 - exact\n", "exact score does not support" },
        { "othello:4x4", NULL, "position 4x4:----/-OX-/-XO-/---- X\nprover 0\nquestion win\nresult proven",
          "0 - node\n1 b1 sym 0\n", "earlier sibling" },
        { "othello:4x4", NULL, "position 4x4:----/-OX-/-XO-/---- X\nprover 1\nquestion score 9\nresult proven",
          "0 - node\n1 b1 node\n2 a1 sym 1\n", "earlier sibling" },
        { "othello:4x4", NULL, "position 4x4:----/-OX-/-XO-/---- X\nprover 0\nquestion score -16\nresult proven",
          "0 - node\n1 b1 node\n2 a1 exact\n2 c1 sym 2\n", "not a symmetric image" },
    };
    char err[512];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const forged *c = &cases[i];
        game *g = c->game ? test_open(c->game, NULL) : graph_keep(c->graph);
        CU_ASSERT_PTR_NOT_NULL_FATAL(g);
        char text[8192];
        snprintf(text, sizeof text, "%s%s%s\n%s", test_proof_head(g),
                 c->game ? "" : "position A\nprover 0\n", c->header, c->tree);
        int rc = test_check_proof(text, c->game ? "/nonexistent" : NULL, err, sizeof err);
        int named = rc != 0 && strncmp(err, "proof line ", 11) == 0 && !strchr(err, '\n');
        CU_ASSERT(named && strstr(err, c->why) != NULL);
        if (!named || !strstr(err, c->why))
            printf("\n    forged proof %zu: rc %d, '%s' (wanted '%s') ", i, rc, rc ? err : "", c->why);
        if (!c->game)
            unlink_graph(g);
        game_close(g);
    }
}

/* A graph node with 257 children is refused in both forms, not read past a
 * buffer (ASan saw a stack overflow); 256 are fine. */
static void test_graph_children(void)
{
    for (int form = 0; form < 2; form++)
        for (int kids = 256; kids <= 257; kids++) {
            char text[8192];
            size_t at = (size_t)snprintf(text, sizeof text, "root A\nA%s or", form ? " :" : ":");
            for (int i = 0; i < kids; i++)
                at += (size_t)snprintf(text + at, sizeof text - at, " W");
            snprintf(text + at, sizeof text - at, "\nW: win\n");
            char path[] = "/tmp/pnsolve-kids-XXXXXX", spec[64], err[256];
            int fd = mkstemp(path);
            CU_ASSERT_FATAL(fd >= 0);
            CU_ASSERT_EQUAL(write(fd, text, strlen(text)), (ssize_t)strlen(text));
            close(fd);
            snprintf(spec, sizeof spec, "graph:%s", path);
            game *g = game_open(spec, NULL, err, sizeof err);
            unlink(path);
            if (kids == 256) {
                CU_ASSERT_PTR_NOT_NULL_FATAL(g);
                game_state s;
                game_move mv[GAME_MAX_MOVES];
                game_start(g, &s);
                CU_ASSERT_EQUAL(game_moves(g, &s, mv), 256);
                game_close(g);
            } else {
                CU_ASSERT_PTR_NULL(g);
                CU_ASSERT_PTR_NOT_NULL(strstr(err, "more than 256 children"));
            }
        }
    char err[256];
    CU_ASSERT_PTR_NULL(game_open("graph:/dev/zero", NULL, err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "not a regular file"));
}

/* A table edited and its checksums made again passes the file's own checks;
 * a proof names the table it rests on by the hash of its values, so the
 * checker refuses the edited one, and where the forger wrote its hash into
 * the proof too, the whole-table check refuses the table. */
static void test_forged_table(void)
{
    char dir[] = "/tmp/pnsolve-forge-XXXXXX", err[512], path[4200];
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    game *g = test_open("jungle", NULL);
    tb_build_options bo = { .threads = 1 };
    CU_ASSERT_EQUAL_FATAL(tb_build(g, dir, 2, &bo, err, sizeof err), 0);
    /* White's rat on a1 against Black's on d3: a loss in 2 */
    game_state s = test_parse(g, "7/7/7/7/7/3r3/R6 w");
    tb_set *t = tb_open_lazy(g, dir);
    int mat = game_tables(g)->material_of(g, &s);
    char hash[TB_HASH_HEX], name[32];
    CU_ASSERT_EQUAL_FATAL(tb_hash(t, mat, hash, err, sizeof err), 1);
    uint64_t at = game_tables(g)->index(g, test_index_of(g, &s), &s);
    tb_close(t);
    game_tables(g)->material_name(g, mat, name, sizeof name);
    tb_path(g, dir, mat, path, sizeof path);
    char honest[1024], forged[1024];
    const char *claim = "pnsolve-proof 2\ngame jungle\nposition 7/7/7/7/7/3r3/R6 w\nprover 0\n";
    snprintf(honest, sizeof honest, "%squestion win\nresult disproven\ntable %s %s\n0 - tb loss 2\n", claim, name,
             hash);
    CU_ASSERT_EQUAL(test_check_proof(honest, dir, err, sizeof err), 0);
    /* the forger's table says White wins in 1 */
    FILE *f = fopen(path, "r+b");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    tb_header h;
    CU_ASSERT_EQUAL_FATAL(fread(&h, sizeof h, 1, f), 1);
    size_t bytes = (size_t)(h.entries * h.entry_bytes);
    unsigned char *data = malloc(bytes);
    CU_ASSERT_EQUAL_FATAL(fread(data, 1, bytes, f), bytes);
    CU_ASSERT_EQUAL_FATAL(h.entry_bytes, 1);
    data[at] = 1;  /* win in 1 */
    h.data_checksum = tb_checksum(data, bytes);
    h.wins++, h.losses--;
    h.header_checksum = 0;
    h.header_checksum = tb_checksum(&h, sizeof h);
    rewind(f);
    CU_ASSERT_EQUAL(fwrite(&h, sizeof h, 1, f), 1);
    CU_ASSERT_EQUAL(fwrite(data, 1, bytes, f), bytes);
    fclose(f);
    free(data);
    t = tb_open_lazy(g, dir);
    tb_value v;
    CU_ASSERT_EQUAL(tb_probe(t, &s, &v, err, sizeof err), 1);  /* the file's checks pass */
    CU_ASSERT(v.wdl == TB_WIN && v.distance == 1);
    char forged_hash[TB_HASH_HEX];
    CU_ASSERT_EQUAL(tb_hash(t, mat, forged_hash, err, sizeof err), 1);
    tb_close(t);
    CU_ASSERT(strcmp(forged_hash, hash) != 0);
    /* a false claim resting on the honest table's hash: refused */
    snprintf(forged, sizeof forged, "%squestion win\nresult proven\ntable %s %s\n0 - tb win 1\n", claim, name, hash);
    CU_ASSERT_NOT_EQUAL(test_check_proof(forged, dir, err, sizeof err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "not the one the proof names"));
    /* resting on the forged table's own hash: the summary names that hash,
     * and the whole-table check refuses the table */
    snprintf(forged, sizeof forged, "%squestion win\nresult proven\ntable %s %s\n0 - tb win 1\n", claim, name,
             forged_hash);
    char summary[1024];
    FILE *in = fmemopen(forged, strlen(forged), "r");
    proof_check_options co = { .tb_dir = dir };
    CU_ASSERT_EQUAL(proof_verify(in, &co, summary, sizeof summary, err, sizeof err), 0);
    fclose(in);
    CU_ASSERT_PTR_NOT_NULL(strstr(summary, forged_hash));
    in = fmemopen(forged, strlen(forged), "r");
    co.verify_tables = 1;
    co.threads = 1;
    CU_ASSERT_NOT_EQUAL(proof_verify(in, &co, summary, sizeof summary, err, sizeof err), 0);
    fclose(in);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "fails its verification"));
    game_close(g);
    CU_ASSERT_EQUAL(test_remove_dir(dir), 0);
}

/* --- mutants ----------------------------------------------------------------- */

typedef struct {
    const game *g;
    game_state root;
    int value0;            /* the truth for player 0: a score (graphs, Jungle, Ostle: +1/0/-1) */
    const char *tb_dir;    /* the tables the proof and the checker read, or NULL */
    const char *oracle;    /* which oracle: "paths", "tables", "negamax" */
    char *text;
} base_proof;

/* Proofs of every question the engine answers about s, for player 0 and 1. */
static int add_bases(base_proof *b, int nb, int cap, const game *g, const game_state *s, int value0, tb_set *tb,
                     const char *tb_dir, const char *oracle, int exact)
{
    const struct { pns_question q; int k; } qs[] = { { PNS_WIN, 0 }, { PNS_ADVANTAGE, 0 }, { PNS_SCORE, -1 },
                                                     { PNS_SCORE, 0 }, { PNS_SCORE, 1 }, { PNS_SCORE, 2 } };
    for (int p = 0; p < 2; p++)
        for (size_t i = 0; i < sizeof qs / sizeof qs[0] && nb < cap; i++) {
            int k = qs[i].k, proven;
            if (g->width && qs[i].q == PNS_SCORE && !strncmp(g->name, "othello", 7))
                k = k * 2 + (value0 & ~1) * (p ? -1 : 1);  /* targets around the score */
            char *text = write_proof(g, s, qs[i].q, k, p, qs[i].q == PNS_SCORE ? NULL : tb, exact, &proven);
            if (!text)
                continue;
            b[nb] = (base_proof){ g, *s, value0, tb_dir, oracle, text };
            nb++;
        }
    return nb;
}

/* Jungle's and Ostle's base proofs, judged by the tables in dir: proofs
 * through smaller tables with the root's own withheld, and proofs to the
 * game's end.  The new count of b. */
static int table_bases(base_proof *b, int nb, int cap, game *jungle, game *ostle, const char *dir)
{
    char err[512];
    const char *jpos[] = { "7/3t3/7/7/7/3E3/7 w", "7/7/7/7/r6/7/D6 w", "7/7/7/7/7/3r3/R6 w", "7/2d4/7/3T3/7/7/7 w",
                           "7/7/3e3/7/3R3/7/7 w", "7/7/7/3r3/2E4/7/2D4 b" };
    const char *opos[] = { "WW1/1HW/BBB b c1U", "WW1/1HW/BBB b -", "WW1/2H/1BB w c2L", "W2/1HW/BB1 b -" };
    for (int gi = 0; gi < 2; gi++) {
        game *g = gi ? ostle : jungle;
        int n = gi ? 4 : 6;
        for (int i = 0; i < n; i++) {
            game_state s = test_parse(g, gi ? opos[i] : jpos[i]);
            tb_set *all = tb_open_lazy(g, dir), *some = tb_open_lazy(g, dir);
            tb_value v;
            if (tb_probe(all, &s, &v, err, sizeof err) != 1) {
                CU_FAIL("no table value for a mutant base");
                continue;
            }
            int v0 = game_to_move(g, &s) == 0 ? (int)v.wdl : -(int)v.wdl;
            tb_withhold(some, game_tables(g)->material_of(g, &s));
            nb = add_bases(b, nb, cap, g, &s, v0, some, dir, "tables", 0);
            nb = add_bases(b, nb, cap, g, &s, v0, NULL, dir, "tables", 0);
            tb_close(all);
            tb_close(some);  /* the proofs keep the hashes as text */
        }
    }
    return nb;
}

/* What the mutants did: tried, accepted (by the base's judge: every path,
 * the tables, negamax), false claims accepted; tried by question. */
typedef struct {
    long tried, accepted, false_claims, by_oracle[3], per_question[5];
} mutant_counts;

/* Counts the question of a mutant's text (win, advantage, score K < 0, 0, > 0). */
static void count_question(const char *text, long *per_question)
{
    const char *q = strstr(text, "\nquestion ");
    if (!q)
        return;
    int k = 0;
    int at = !strncmp(q + 10, "win", 3) ? 0 : !strncmp(q + 10, "advantage", 9) ? 1
             : sscanf(q + 10, "score %d", &k) == 1 ? (k < 0 ? 2 : k == 0 ? 3 : 4) : -1;
    if (at >= 0)
        per_question[at]++;
}

/* Mutants of the base proofs b[0..nb) (games starting at first[0..4)), as
 * many as fit in about 40 s, each checked and, where accepted, judged. */
static void run_mutants(const base_proof *b, int nb, const int *first, mutant_counts *m)
{
    char err[512];
    unsigned long long rng = 20261124;
    proof_lines L = { 0 };
    double t0 = (double)clock() / CLOCKS_PER_SEC;
    while (m->tried < 200000 && (m->tried < 6000 || (double)clock() / CLOCKS_PER_SEC - t0 < 20)) {
        if (m->tried >= 6000 && (double)clock() / CLOCKS_PER_SEC - t0 > 40)
            break;
        /* a game, then one of its proofs: every game as often */
        int from = first[ref_rand(&rng) % 4], to = from;
        while (to < nb && b[to].g->ops == b[from].g->ops)
            to++;
        const base_proof *base = &b[from + (int)(ref_rand(&rng) % (unsigned)(to - from))];
        char *text = proof_mutant(base->text, &L, &rng);
        m->tried++;
        count_question(text, m->per_question);
        if (strcmp(text, base->text) != 0 && test_check_proof(text, base->tb_dir, err, sizeof err) == 0) {
            m->accepted++;
            m->by_oracle[base->oracle[0] == 'p' ? 0 : base->oracle[0] == 't' ? 1 : 2]++;
            if (!proof_claims_hold(text, base->value0)) {
                m->false_claims++;
                if (m->false_claims <= 3)
                    printf("\n    ACCEPTED FALSE CLAIM (%s, truth %d for player 0):\n%s", base->g->name, base->value0,
                           text);
            }
        }
        free(text);
    }
    free(L.line);
}

static void test_mutants(void)
{
    enum { CAP = 1200 };
    base_proof *b = calloc(CAP, sizeof *b);
    int nb = 0;
    char dir[] = "/tmp/pnsolve-mutants-XXXXXX", err[512];
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    tb_build_options bo = { .threads = 2 };
    game *jungle = test_open("jungle", NULL), *ostle = test_open("ostle:3x3", NULL);
    game *othello = test_open("othello:4x4", NULL);
    CU_ASSERT_EQUAL_FATAL(tb_build(jungle, dir, 3, &bo, err, sizeof err), 0);
    CU_ASSERT_EQUAL_FATAL(tb_build(ostle, dir, 6, &bo, err, sizeof err), 0);
    /* graphs: every path */
    unsigned seed = 99;
    game *graphs[24];
    for (int t = 0; t < 24; t++) {
        char text[2048];
        random_graph(&seed, text, sizeof text);
        graphs[t] = graph_keep(text);
        game_state s;
        game_start(graphs[t], &s);
        nb = add_bases(b, nb, CAP, graphs[t], &s, graph_truth(graphs[t]), NULL, NULL, "paths", 0);
    }
    nb = table_bases(b, nb, CAP, jungle, ostle, dir);
    /* Othello 4x4: the naive negamax; exact leaves and sym lines */
    const char *xpos[] = { "4x4:----/-OX-/-XO-/---- X", "4x4:--X-/-XX-/-XO-/---- O", "4x4:-OX-/-OX-/-XO-/---- X" };
    for (int i = 0; i < 3; i++) {
        game_state s = test_parse(othello, xpos[i]);
        int sc = ref_negamax(xpos[i], -1000, 1000), v0 = game_to_move(othello, &s) == 0 ? sc : -sc;
        nb = add_bases(b, nb, CAP, othello, &s, v0, NULL, NULL, "negamax", i ? 0 : 6);
    }
    /* where each game's proofs begin */
    int first[4], games = 0;
    for (int i = 0; i < nb && games < 4; i++)
        if (i == 0 || b[i].g->ops != b[i - 1].g->ops)
            first[games++] = i;
    CU_ASSERT_EQUAL_FATAL(games, 4);
    /* every base proof passes, and holds */
    int bad_base = 0;
    for (int i = 0; i < nb; i++)
        bad_base += test_check_proof(b[i].text, b[i].tb_dir, err, sizeof err) != 0 || !proof_claims_hold(b[i].text, b[i].value0);
    CU_ASSERT_EQUAL(bad_base, 0);
    mutant_counts m = { 0 };
    run_mutants(b, nb, first, &m);
    printf("\n    mutants: %ld tried (win %ld, advantage %ld, score K<0 %ld, K=0 %ld, K>0 %ld), %ld accepted "
           "(shown true by every path %ld, the tables %ld, negamax %ld), %ld false claims accepted, from %d proofs ",
           m.tried, m.per_question[0], m.per_question[1], m.per_question[2], m.per_question[3], m.per_question[4],
           m.accepted, m.by_oracle[0], m.by_oracle[1], m.by_oracle[2], m.false_claims, nb);
    CU_ASSERT(m.tried >= 5000);
    CU_ASSERT(m.per_question[0] > 200 && m.per_question[1] > 200 && m.per_question[2] > 200 &&
              m.per_question[3] > 200 && m.per_question[4] > 200);
    CU_ASSERT_EQUAL(m.false_claims, 0);
    for (int i = 0; i < nb; i++)
        free(b[i].text);
    free(b);
    for (int t = 0; t < 24; t++) {
        unlink_graph(graphs[t]);
        game_close(graphs[t]);
    }
    game_close(jungle);
    game_close(ostle);
    game_close(othello);
    CU_ASSERT_EQUAL(test_remove_dir(dir), 0);
}

void suite_proof_trust(void)
{
    CU_pSuite s = CU_add_suite("proof_trust", NULL, NULL);
    CU_add_test(s, "score search against every path on 3,000 random cyclic graphs; its proofs verify",
                test_score_graphs);
    CU_add_test(s, "score search on every file of positions/ghi", test_score_ghi_files);
    CU_add_test(s, "hand-written false proofs of every line kind and question are refused, naming the line",
                test_forged_proofs);
    CU_add_test(s, "graph nodes with 257 children and non-regular files are refused", test_graph_children);
    CU_add_test(s, "a forged table with good checksums: refused by its hash, and by the whole-table check",
                test_forged_table);
    CU_add_test(s, "mutants of valid proofs of every game and question: no false claim accepted", test_mutants);
}
