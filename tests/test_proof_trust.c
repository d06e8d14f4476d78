/* tests/test_proof_trust.c - the proof checker and the score search tried as
 * an adversary would: score questions where repetitions live against every
 * path, hand-written false proofs of every line kind under every question,
 * thousands of mutants of valid proofs of every game whose accepted claims
 * are re-derived by an oracle that shares no code with the search (every
 * path of a graph, the tables, the naive Othello negamax), and forged tables. */
#include "suites.h"
#include "graphs.h"
#include "ref.h"
#include "../pns/pns.h"
#include "../tablebase/tablebase.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int check(const char *text, const char *tb_dir, char *err, size_t errlen)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    pns_check_options co = { .tb_dir = tb_dir };
    int rc = pns_verify_proof(f, &co, NULL, 0, err, errlen);
    fclose(f);
    return rc;
}

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
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    pns_result r;
    int rc = pns_write_proof(g, s, &o, f, &r);
    fclose(f);
    if (rc != 0) {
        free(text);
        return NULL;
    }
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
        int rc = pns_score(g, &s, &o, -1, 1, &score, &r, f);
        fclose(f);
        wrong += rc != 0 || score != truth;
        unsound += rc == 0 && check(proof, NULL, err, sizeof err) != 0;
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
        CU_ASSERT_EQUAL(pns_score(g, &s, &o, -1, 1, &score, &r, NULL), 0);
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
        char text[2048];
        snprintf(text, sizeof text, "pnsolve-proof 2\ngame %s\n%s%s\n%s", g->name,
                 c->game ? "" : "position A\nprover 0\n", c->header, c->tree);
        int rc = check(text, c->game ? "/nonexistent" : NULL, err, sizeof err);
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

/* --- mutants ----------------------------------------------------------------- */

typedef struct {
    const game *g;
    game_state root;
    int value0;            /* the truth for player 0: a score (graphs, Jungle, Ostle: +1/0/-1) */
    const char *tb_dir;    /* the tables the proof and the checker read, or NULL */
    const char *oracle;    /* which oracle: "paths", "tables", "negamax" */
    char *text;
} base_proof;

/* Is the claim "prover, question, result" of one proof's header true? -1
 * when the header cannot be read (the checker must have refused it). */
static int claim_true(const base_proof *b, const char *header_start, const char *header_end)
{
    int prover = -1, target = 0, proven = -1;
    char question[32] = "";
    for (const char *p = header_start; p && p < header_end; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        char q[32], res[32];
        int k;
        if (sscanf(p, "prover %d", &k) == 1)
            prover = k;
        else if (sscanf(p, "question score %d", &k) == 1)
            snprintf(question, sizeof question, "score"), target = k;
        else if (sscanf(p, "question %31s", q) == 1)
            snprintf(question, sizeof question, "%s", q);
        else if (sscanf(p, "result %31s", res) == 1)
            proven = !strcmp(res, "proven");
    }
    if (prover < 0 || proven < 0 || !*question)
        return -1;
    int v = prover == 0 ? b->value0 : -b->value0;
    int holds = !strcmp(question, "win") ? v > 0 : !strcmp(question, "advantage") ? v >= 0 : v >= target;
    return holds == proven;
}

/* Every proof in an accepted file states a true claim? */
static int accepted_true(const base_proof *b, const char *text)
{
    const char *at = text;
    while ((at = strstr(at, "pnsolve-proof ")) != NULL) {
        const char *next = strstr(at + 1, "pnsolve-proof ");
        const char *tree = strstr(at, "\n0 ");
        if (claim_true(b, at, tree && (!next || tree < next) ? tree : next) != 1)
            return 0;
        at += 1;
    }
    return 1;
}

typedef struct {
    char **line;
    int n, cap;
} lines;

static void split(const char *text, lines *L)
{
    L->n = 0;
    const char *p = text;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (L->n == L->cap) {
            L->cap = L->cap ? L->cap * 2 : 256;
            L->line = realloc(L->line, sizeof *L->line * (size_t)L->cap);
        }
        L->line[L->n] = malloc(len + 1);
        memcpy(L->line[L->n], p, len);
        L->line[L->n++][len] = 0;
        p += len + (e ? 1 : 0);
    }
}

static char *join(const lines *L)
{
    size_t len = 1;
    for (int i = 0; i < L->n; i++)
        len += strlen(L->line[i]) + 1;
    char *t = malloc(len), *w = t;
    for (int i = 0; i < L->n; i++)
        w += sprintf(w, "%s\n", L->line[i]);
    *w = 0;
    return t;
}

static void set_line(lines *L, int i, const char *text)
{
    free(L->line[i]);
    L->line[i] = strdup(text);
}

static int is_tree(const char *l) { return l[0] >= '0' && l[0] <= '9'; }

/* A random line of L that is (tree) or is not (!tree) a tree line, -1 none. */
static int pick(const lines *L, int tree, unsigned long long *rng)
{
    for (int tries = 0; tries < 64; tries++) {
        int i = (int)(ref_rand(rng) % (unsigned)L->n);
        if (is_tree(L->line[i]) == tree)
            return i;
    }
    return -1;
}

/* One random change to the lines of a proof. */
static void mutate(lines *L, unsigned long long *rng)
{
    char buf[1024];
    int op = (int)(ref_rand(rng) % 14), i = pick(L, 1, rng), trees = 0;
    for (int k = 0; k < L->n; k++)
        trees += is_tree(L->line[k]);
    if (i < 0)
        return;
    char d[32] = "", mv[256] = "", kind[32] = "", a1[300] = "", a2[64] = "";
    sscanf(L->line[i], "%31s %255s %31s %299s %63s", d, mv, kind, a1, a2);
    switch (op) {
    case 0:  /* the result turned over */
        for (int k = 0; k < L->n; k++)
            if (!strncmp(L->line[k], "result ", 7))
                set_line(L, k, strcmp(L->line[k] + 7, "proven") ? "result proven" : "result disproven");
        break;
    case 1: {  /* another question */
        static const char *const q[] = { "question win", "question advantage", "question score -2",
                                         "question score -1", "question score 0", "question score 1",
                                         "question score 2" };
        for (int k = 0; k < L->n; k++)
            if (!strncmp(L->line[k], "question ", 9))
                set_line(L, k, q[ref_rand(rng) % 7]);
        break;
    }
    case 2:  /* the other prover */
        for (int k = 0; k < L->n; k++)
            if (!strncmp(L->line[k], "prover ", 7))
                set_line(L, k, L->line[k][7] == '0' ? "prover 1" : "prover 0");
        break;
    case 3:  /* a line dropped */
        free(L->line[i]);
        memmove(&L->line[i], &L->line[i + 1], sizeof *L->line * (size_t)(L->n - i - 1));
        L->n--;
        break;
    case 4:  /* a line twice */
        if (L->n == L->cap) {
            L->cap *= 2;
            L->line = realloc(L->line, sizeof *L->line * (size_t)L->cap);
        }
        memmove(&L->line[i + 1], &L->line[i], sizeof *L->line * (size_t)(L->n - i));
        L->line[i] = strdup(L->line[i + 1]);
        L->n++;
        break;
    case 5: {  /* two lines swapped */
        int j = pick(L, 1, rng);
        char *t = L->line[i];
        L->line[i] = L->line[j < 0 ? i : j];
        L->line[j < 0 ? i : j] = t;
        break;
    }
    case 6: {  /* another kind */
        static const char *const k[] = { "node", "end", "rep", "ref", "sym", "tb win", "tb loss", "tb draw", "exact" };
        int which = (int)(ref_rand(rng) % 9);
        long id = (long)(ref_rand(rng) % (unsigned)(trees + 2));
        if (which >= 2 && which <= 4)
            snprintf(buf, sizeof buf, "%s %s %s %ld", d, mv, k[which], id);
        else if (which >= 5 && which <= 7)
            snprintf(buf, sizeof buf, "%s %s %s %ld", d, mv, k[which], which == 7 ? 0L : id % 20);
        else
            snprintf(buf, sizeof buf, "%s %s %s", d, mv, k[which]);
        set_line(L, i, buf);
        break;
    }
    case 7:  /* another line named */
        if (*a1 && strcmp(kind, "tb") != 0) {
            long id = atol(a1) + (long)(ref_rand(rng) % 7) - 3;
            if (ref_rand(rng) % 3 == 0)
                id = (long)(ref_rand(rng) % (unsigned)(trees + 1));
            snprintf(buf, sizeof buf, "%s %s %s %ld", d, mv, kind, id < 0 ? 0 : id);
            set_line(L, i, buf);
        }
        break;
    case 8:  /* one ply up or down */
        snprintf(buf, sizeof buf, "%d%s", atoi(d) + (ref_rand(rng) & 1 ? 1 : -1), L->line[i] + strlen(d));
        set_line(L, i, buf);
        break;
    case 9: {  /* another line's move */
        int j = pick(L, 1, rng);
        char d2[32], mv2[256];
        if (j >= 0 && sscanf(L->line[j], "%31s %255s", d2, mv2) == 2) {
            snprintf(buf, sizeof buf, "%s %s%s", d, mv2, L->line[i] + strlen(d) + 1 + strlen(mv));
            set_line(L, i, buf);
        }
        break;
    }
    case 10:  /* a table value off by one, or its word changed */
        if (!strcmp(kind, "tb")) {
            static const char *const w[] = { "win", "loss", "draw" };
            int off = ref_rand(rng) & 1;
            snprintf(buf, sizeof buf, "%s %s tb %s %d", d, mv, off ? a1 : w[ref_rand(rng) % 3],
                     atoi(a2) + (off ? (ref_rand(rng) & 1 ? 1 : -1) : 0));
            set_line(L, i, buf);
        }
        break;
    case 11:  /* cut short */
        while (L->n > i + 1)
            free(L->line[--L->n]);
        break;
    case 12:  /* a table's hash changed */
        for (int k = 0; k < L->n; k++)
            if (!strncmp(L->line[k], "table ", 6)) {
                char *h = strrchr(L->line[k], ' ') + 1;
                h[ref_rand(rng) % 64] = "0123456789abcdef"[ref_rand(rng) % 16];
            }
        break;
    default:  /* two changes */
        mutate(L, rng);
        mutate(L, rng);
        break;
    }
}

static void free_lines(lines *L)
{
    for (int i = 0; i < L->n; i++)
        free(L->line[i]);
    L->n = 0;
}

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
    /* Jungle and Ostle: the tables; proofs through smaller tables with the
     * root's own withheld, and proofs to the game's end */
    const char *jpos[] = { "7/3t3/7/7/7/3E3/7 w", "7/7/7/7/r6/7/D6 w", "7/7/7/7/7/3r3/R6 w", "7/2d4/7/3T3/7/7/7 w",
                           "7/7/3e3/7/3R3/7/7 w", "7/7/7/3r3/2E4/7/2D4 b" };
    const char *opos[] = { "WW1/1HW/BBB b c1U", "WW1/1HW/BBB b -", "WW1/2H/1BB w c2L", "W2/1HW/BB1 b -" };
    for (int gi = 0; gi < 2; gi++) {
        game *g = gi ? ostle : jungle;
        int n = gi ? 4 : 6;
        for (int i = 0; i < n; i++) {
            game_state s = test_parse(g, gi ? opos[i] : jpos[i]);
            tb_set *all = tb_open(g, dir), *some = tb_open(g, dir);
            tb_value v;
            if (tb_probe(all, &s, &v, err, sizeof err) != 1) {
                CU_FAIL("no table value for a mutant base");
                continue;
            }
            int v0 = game_to_move(g, &s) == 0 ? (int)v.wdl : -(int)v.wdl;
            tb_withhold(some, g->ops->tb->material_of(g, &s));
            nb = add_bases(b, nb, CAP, g, &s, v0, some, dir, "tables", 0);
            nb = add_bases(b, nb, CAP, g, &s, v0, NULL, dir, "tables", 0);
            tb_close(all);
            tb_close(some);  /* the proofs keep the hashes as text */
        }
    }
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
        bad_base += check(b[i].text, b[i].tb_dir, err, sizeof err) != 0 || !accepted_true(&b[i], b[i].text);
    CU_ASSERT_EQUAL(bad_base, 0);
    /* the mutants, as many as fit in about 40 s */
    unsigned long long rng = 20261124;
    long tried = 0, accepted = 0, false_claims = 0, by_oracle[3] = { 0, 0, 0 }, per_question[5] = { 0 };
    lines L = { 0 };
    double t0 = (double)clock() / CLOCKS_PER_SEC;
    while (tried < 200000 && (tried < 6000 || (double)clock() / CLOCKS_PER_SEC - t0 < 20)) {
        if (tried >= 6000 && (double)clock() / CLOCKS_PER_SEC - t0 > 40)
            break;
        /* a game, then one of its proofs: every game as often */
        int from = first[ref_rand(&rng) % 4], to = from;
        while (to < nb && b[to].g->ops == b[from].g->ops)
            to++;
        const base_proof *base = &b[from + (int)(ref_rand(&rng) % (unsigned)(to - from))];
        split(base->text, &L);
        mutate(&L, &rng);
        char *text = join(&L);
        free_lines(&L);
        tried++;
        const char *q = strstr(text, "\nquestion ");
        if (q) {
            int k = 0;
            int at = !strncmp(q + 10, "win", 3) ? 0 : !strncmp(q + 10, "advantage", 9) ? 1
                     : sscanf(q + 10, "score %d", &k) == 1 ? (k < 0 ? 2 : k == 0 ? 3 : 4) : -1;
            if (at >= 0)
                per_question[at]++;
        }
        if (strcmp(text, base->text) != 0 && check(text, base->tb_dir, err, sizeof err) == 0) {
            accepted++;
            by_oracle[base->oracle[0] == 'p' ? 0 : base->oracle[0] == 't' ? 1 : 2]++;
            if (!accepted_true(base, text)) {
                false_claims++;
                if (false_claims <= 3)
                    printf("\n    ACCEPTED FALSE CLAIM (%s, truth %d for player 0):\n%s", base->g->name, base->value0,
                           text);
            }
        }
        free(text);
    }
    free(L.line);
    printf("\n    mutants: %ld tried (win %ld, advantage %ld, score K<0 %ld, K=0 %ld, K>0 %ld), %ld accepted "
           "(shown true by every path %ld, the tables %ld, negamax %ld), %ld false claims accepted, from %d proofs ",
           tried, per_question[0], per_question[1], per_question[2], per_question[3], per_question[4], accepted,
           by_oracle[0], by_oracle[1], by_oracle[2], false_claims, nb);
    CU_ASSERT(tried >= 5000);
    CU_ASSERT(per_question[0] > 200 && per_question[1] > 200 && per_question[2] > 200 && per_question[3] > 200 &&
              per_question[4] > 200);
    CU_ASSERT_EQUAL(false_claims, 0);
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
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
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
    CU_add_test(s, "mutants of valid proofs of every game and question: no false claim accepted", test_mutants);
}
