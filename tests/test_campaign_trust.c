/* tests/test_campaign_trust.c - the campaign pipeline as an adversary meets
 * it: proofs whose headers are mutated (comments anywhere, lines in another
 * order, another game or variant, K, side or result) are imported, and a
 * finished campaign's journal and proof files are mutated together (an
 * answer turned round, its K changed with its file renamed, files swapped
 * or put under another position).  A false claim is a campaign that, so
 * mutated, decides anything but the truth while its import, resume or
 * `campaign_verify` accept it; the truth comes from plain minimax
 * (tic-tac-toe) and ref_negamax (Othello), never from the solver.  The
 * counts go to stderr with PNSOLVE_VERBOSE; PNSOLVE_SLOW widens the runs. */
#include "suites.h"
#include "ref.h"
#include "asker.h"

#include <CUnit/CUnit.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One campaign and its truth. */
typedef struct {
    const game *g;
    campaign_spec spec;
    int truth;          /* WIN/ADVANTAGE: 1 proven, 0 disproven; SCORE: the score */
} trial;

typedef struct {
    long tried, accepted, false_claims;
} tally;

/* The campaign in dir decided, as st says: 1 it matches the truth, 0 not. */
static int holds(const trial *t, const campaign_state *st)
{
    if (!st->decided)
        return 1;  /* nothing claimed */
    return t->spec.kind == CAMPAIGN_SCORE ? st->lower == t->truth : st->proven == t->truth;
}

/* Runs (or resumes) t in dir to its end: 0 decided (*st), -1 refused. */
static int run_trial(const trial *t, const char *dir, campaign_state *st)
{
    char err[4400];
    int usage;
    campaign *c = campaign_open(dir, &t->spec, err, sizeof err, &usage);
    if (!c)
        return -1;
    test_asker ctx = { t->g, -1, NULL, 0, 0 };
    campaign_pool *p = campaign_pool_new(2, test_asker_answer, &ctx);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    campaign_workers w = campaign_pool_workers(p);
    int rc = campaign_run(c, &w, NULL, NULL, err, sizeof err);
    campaign_pool_free(p);
    if (rc == 0 && campaign_status(c, st, err, sizeof err) != 0)
        rc = -1;
    campaign_close(c);
    return rc == 0 ? 0 : -1;
}

static void ignore(void *ctx, const char *line)
{
    (void)ctx, (void)line;
}

/* What a reader of dir is told: -1 refused (load or verify fails), else
 * the state with verify sound. */
static int verified_state(const char *dir, campaign_state *st)
{
    char err[4400];
    campaign *c = campaign_load(dir, err, sizeof err);
    if (!c)
        return -1;
    campaign_checked k;
    int rc = campaign_verify(c, -1, NULL, ignore, NULL, &k, err, sizeof err) == 0 && !k.bad && !k.roots_bad &&
             campaign_status(c, st, err, sizeof err) == 0 ? 0 : -1;
    campaign_close(c);
    return rc;
}

/* A file's lines, at most 16 of the header (to the first tree line) and the rest. */
typedef struct {
    char *head[16];
    int nhead;
    char *rest;  /* the tree, as it was */
} proof_text;

static int text_read(const char *path, proof_text *p)
{
    memset(p, 0, sizeof *p);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[4096];
    size_t cap = 0, used = 0;
    int tree = 0;
    while (fgets(line, sizeof line, f)) {
        if (!tree && (line[0] < '0' || line[0] > '9') && p->nhead < 16) {
            p->head[p->nhead++] = strdup(line);
            continue;
        }
        tree = 1;
        size_t n = strlen(line);
        if (used + n + 1 > cap) {
            cap = (used + n + 1) * 2;
            p->rest = realloc(p->rest, cap);
        }
        memcpy(p->rest + used, line, n + 1);
        used += n;
    }
    fclose(f);
    return p->nhead > 0 && p->rest ? 0 : -1;
}

static void text_free(proof_text *p)
{
    for (int i = 0; i < p->nhead; i++)
        free(p->head[i]);
    free(p->rest);
}

/* The header line starting with word (e.g. "prover "), or -1. */
static int head_find(const proof_text *p, const char *word)
{
    for (int i = 0; i < p->nhead; i++)
        if (strncmp(p->head[i], word, strlen(word)) == 0)
            return i;
    return -1;
}

/* Writes p to path with mutation m applied to its header; 0 when m does not
 * apply to this file. */
static int mutant_write(const proof_text *p, int m, const char *path)
{
    char *h[20], extra[600];
    int n = 0, applies = 1;
    for (int i = 0; i < p->nhead; i++)
        h[n++] = p->head[i];
    int prover = head_find(p, "prover "), question = head_find(p, "question "), result = head_find(p, "result ");
    int gameline = head_find(p, "game ");
    char swapped[600];
    if (m < 6) {  /* a comment after header line m + 1 */
        if (m + 1 >= n)
            return 0;
        memmove(h + m + 2, h + m + 1, sizeof *h * (size_t)(n - m - 1));
        h[m + 1] = "# a comment among the header's lines\n";
        n++;
    } else if (m < 16) {  /* two header lines (after the first) swapped */
        int a = 1 + (m - 6) / 4, b = a + 1 + (m - 6) % 4;
        if (b >= n)
            return 0;
        char *t = h[a];
        h[a] = h[b], h[b] = t;
    } else if (m == 16 && prover >= 0) {  /* the other side */
        snprintf(swapped, sizeof swapped, "prover %d\n", 1 - atoi(h[prover] + 7));
        h[prover] = swapped;
    } else if (m == 17 && result >= 0) {  /* the other result */
        snprintf(swapped, sizeof swapped, "result %s\n", strstr(h[result], "disproven") ? "proven" : "disproven");
        h[result] = swapped;
    } else if (m >= 18 && m <= 21 && question >= 0) {  /* another K, or the other question */
        const char *q = h[question] + 9;
        if (strncmp(q, "score ", 6) == 0)
            snprintf(swapped, sizeof swapped, "question score %d\n", atoi(q + 6) + (m == 18 ? 1 : m == 19 ? -1 : m == 20 ? 2 : -2));
        else if (m <= 19)
            snprintf(swapped, sizeof swapped, "question %s\n", strncmp(q, "win", 3) == 0 ? "advantage" : "win");
        else
            return 0;
        h[question] = swapped;
    } else if (m >= 22 && m <= 24 && gameline >= 0) {  /* another game or variant */
        const char *other[] = { "jungle:classic", "othello:4x5", "tictactoe" };
        if (strncmp(h[gameline] + 5, other[m - 22], strlen(other[m - 22])) == 0)
            return 0;
        snprintf(swapped, sizeof swapped, "game %s\n", other[m - 22]);
        h[gameline] = swapped;
    } else if (m == 25) {  /* a content hash for a game no file defines */
        snprintf(extra, sizeof extra, "game-blake2b %064d\n", 0);
        memmove(h + 3, h + 2, sizeof *h * (size_t)(n - 2));
        h[2] = extra;
        n++;
    } else {
        applies = 0;
    }
    if (!applies)
        return 0;
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    for (int i = 0; i < n; i++)
        fputs(h[i], f);
    fputs(p->rest, f);
    fclose(f);
    return 1;
}
#define MUTATIONS 26

/* The answers' proof files of a finished campaign in dir (DIR/p/...). */
static int answer_files(const char *dir, char files[][4400], int max)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/p", dir);
    DIR *d = opendir(p);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) && n < max)
        if (strstr(e->d_name, ".proof") && !strstr(e->d_name, ".tmp"))
            snprintf(files[n++], 4400, "%.4000s/%.255s", p, e->d_name);
    if (d)
        closedir(d);
    return n;
}

/* Every header mutant of every answer of t imported into a new campaign,
 * which then runs to its end; verify reads it after. */
static void header_mutants(const trial *t, const char *dir0, tally *ty)
{
    static char files[64][4400];
    int nf = answer_files(dir0, files, 64);
    CU_ASSERT(nf > 0);
    for (int i = 0; i < nf; i++) {
        proof_text p;
        if (text_read(files[i], &p) != 0)
            continue;
        for (int m = 0; m < MUTATIONS; m++) {
            char *dir = test_asker_dir(), mpath[4400], err[4400];
            snprintf(mpath, sizeof mpath, "%s.mutant", dir);
            if (mutant_write(&p, m, mpath)) {
                ty->tried++;
                int usage;
                campaign *c = campaign_open(dir, &t->spec, err, sizeof err, &usage);
                CU_ASSERT_PTR_NOT_NULL_FATAL(c);
                int took = campaign_import(c, mpath, NULL, err, sizeof err) == 0;
                campaign_close(c);
                campaign_state st;
                if (took) {
                    ty->accepted++;
                    if (run_trial(t, dir, &st) == 0 && !holds(t, &st))
                        ty->false_claims++;
                    if (verified_state(dir, &st) == 0 && !holds(t, &st))
                        ty->false_claims++;
                }
            }
            unlink(mpath);
            test_remove_dir(dir);
            free(dir);
        }
        text_free(&p);
    }
}

static void copy_tree(const char *from, const char *to)
{
    char cmd[9000];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && cp -r '%s' '%s'", to, from, to);
    CU_ASSERT_EQUAL(system(cmd), 0);
}

/* Rewrites journal line number `line` (counted from 0 among all lines) with
 * its result turned round and/or K moved by dk; returns the old K. */
static int journal_edit(const char *dir, int line, int flip, int dk, char *pos, size_t plen)
{
    char path[4300], *lines[4096];
    snprintf(path, sizeof path, "%s/journal", dir);
    FILE *f = fopen(path, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    int n = 0, k = 0;
    char buf[8400];
    while (n < 4096 && fgets(buf, sizeof buf, f))
        lines[n++] = strdup(buf);
    fclose(f);
    char res[16], rest[4096];  /* buf holds the line rebuilt: more than rest */
    if (line < n && sscanf(lines[line], "answer %d %15s %4095[^\n]", &k, res, rest) == 3) {
        const char *r = flip ? (strcmp(res, "proven") ? "proven" : "disproven") : res;
        snprintf(buf, sizeof buf, "answer %d %s %s\n", k + dk, r, rest);
        free(lines[line]);
        lines[line] = strdup(buf);
        /* the position follows three numbers */
        char *at = rest;
        for (int i = 0; i < 3 && at; i++)
            at = strchr(at, ' '), at = at ? at + 1 : NULL;
        snprintf(pos, plen, "%s", at ? at : "");
    }
    f = fopen(path, "w");
    for (int i = 0; i < n; i++)
        fputs(lines[i], f), free(lines[i]);
    fclose(f);
    return k;
}

/* The journal's answer lines' numbers. */
static int answer_lines(const char *dir, int *at, int max)
{
    char path[4300], buf[4096];
    snprintf(path, sizeof path, "%s/journal", dir);
    FILE *f = fopen(path, "r");
    int n = 0, no = 0;
    while (f && fgets(buf, sizeof buf, f)) {
        if (strncmp(buf, "answer ", 7) == 0 && n < max)
            at[n++] = no;
        no++;
    }
    if (f)
        fclose(f);
    return n;
}

/* The file in files whose header names position pos with K k (by its name), or -1. */
static int file_of(char files[][4400], int nf, const char *pos, int k)
{
    char tail[32], want[4200];
    snprintf(tail, sizeof tail, ".%d.proof", k);
    snprintf(want, sizeof want, "\nposition %s\n", pos);
    for (int i = 0; i < nf; i++) {
        size_t l = strlen(files[i]);
        if (l < strlen(tail) || strcmp(files[i] + l - strlen(tail), tail) != 0)
            continue;
        FILE *f = fopen(files[i], "r");
        char head[8192] = "";
        size_t got = f ? fread(head, 1, sizeof head - 1, f) : 0;
        head[got] = 0;
        if (f)
            fclose(f);
        if (strstr(head, want))
            return i;
    }
    return -1;
}

/* A mutated campaign resumed to its end, then read by verify: whatever
 * either accepts must be the truth.  1 when both accepted it. */
static int judge(const trial *t, const char *dir, tally *ty)
{
    campaign_state st;
    ty->tried++;
    int ran = run_trial(t, dir, &st) == 0;
    if (ran && !holds(t, &st))
        ty->false_claims++;
    int read = verified_state(dir, &st) == 0;
    if (read && !holds(t, &st))
        ty->false_claims++;
    ty->accepted += ran && read;
    return ran && read;
}

/* A finished campaign's journal and files mutated together. */
static void journal_mutants(const trial *t, const char *dir0, tally *ty)
{
    static char files[64][4400];
    int lines[256], nl = answer_lines(dir0, lines, 256);
    char *dir = test_asker_dir(), pos[4096], from[4400], to[4400];
    for (int i = 0; i < nl; i++)
        for (int kind = 0; kind < 6; kind++) {
            copy_tree(dir0, dir);
            int nf = answer_files(dir, files, 64);
            if (kind == 5) {  /* the control: unmutated, it is resumed and read as sound */
                CU_ASSERT(judge(t, dir, ty));
                ty->tried--, ty->accepted--;
                continue;
            }
            if (kind == 0) {  /* the answer turned round */
                journal_edit(dir, lines[i], 1, 0, pos, sizeof pos);
            } else if (kind == 1 || kind == 2) {  /* K moved by one, its file renamed to match */
                int k = journal_edit(dir, lines[i], 0, kind == 1 ? 1 : -1, pos, sizeof pos), f = file_of(files, nf, pos, k);
                if (f < 0)
                    continue;
                const char *dot = strchr(strrchr(files[f], '/'), '.');  /* KEY.K.proof: the key's end */
                snprintf(to, sizeof to, "%.*s%d.proof", (int)(dot - files[f]) + 1, files[f], k + (kind == 1 ? 1 : -1));
                rename(files[f], to);
            } else {  /* its file replaced by another answer's (3), or that and the line turned round (4) */
                int k = journal_edit(dir, lines[i], kind == 4, 0, pos, sizeof pos), f = file_of(files, nf, pos, k);
                int other = (f + 1 + i) % (nf ? nf : 1);
                if (f < 0 || nf < 2 || other == f)
                    continue;
                snprintf(from, sizeof from, "%s", files[other]);
                snprintf(to, sizeof to, "%s", files[f]);
                char cmd[9000];
                snprintf(cmd, sizeof cmd, "cp '%s' '%s'", from, to);
                CU_ASSERT_EQUAL(system(cmd), 0);
            }
            /* the joins and the root's links go: a rerun makes them again from what is left */
            char cmd[9000];
            snprintf(cmd, sizeof cmd, "rm -f '%s'/j/* '%s'/result.proof '%s'/lower.proof '%s'/upper.proof", dir, dir, dir,
                     dir);
            CU_ASSERT_EQUAL(system(cmd), 0);
            judge(t, dir, ty);
        }
    test_remove_dir(dir);
    free(dir);
}

static void one_trial(trial *t, const char *name, tally *hy, tally *jy)
{
    char *dir0 = test_asker_dir();
    campaign_state st;
    CU_ASSERT_EQUAL_FATAL(run_trial(t, dir0, &st), 0);
    CU_ASSERT(st.decided && holds(t, &st));  /* the unmutated campaign is right */
    header_mutants(t, dir0, hy);
    journal_mutants(t, dir0, jy);
    test_remove_dir(dir0);
    free(dir0);
    (void)name;
}

static void test_mutants(void)
{
    tally hy = { 0 }, jy = { 0 };
    unsigned long long seed = 84;
    game *ttt = test_open("tictactoe", NULL), *oth = test_open("othello:4x4", NULL);
    int rounds = test_slow() ? 6 : 1;
    for (int r = 0; r < rounds; r++) {
        game_state s;
        if (test_random_state(ttt, &seed, 2 + r % 3, &s)) {
            int v = test_minimax(ttt, &s);
            for (int kind = CAMPAIGN_WIN; kind <= CAMPAIGN_ADVANTAGE; kind++) {
                trial t = { ttt, { .kind = kind, .k = kind == CAMPAIGN_WIN, .depth = 1 }, kind == CAMPAIGN_WIN ? v == 1 : v >= 0 };
                snprintf(t.spec.game, sizeof t.spec.game, "tictactoe");
                game_format(ttt, &s, t.spec.position, sizeof t.spec.position);
                snprintf(t.spec.options, sizeof t.spec.options, "--memory 16");
                one_trial(&t, "tictactoe", &hy, &jy);
            }
        }
        test_random_position(oth, &s, 8 + r % 2, &seed);
        trial t = { oth, { .kind = CAMPAIGN_SCORE, .k = 0, .depth = 1 }, 0 };
        snprintf(t.spec.game, sizeof t.spec.game, "othello:4x4");
        game_format(oth, &s, t.spec.position, sizeof t.spec.position);
        snprintf(t.spec.options, sizeof t.spec.options, "--memory 16");
        t.truth = ref_negamax(t.spec.position, -1000, 1000);
        one_trial(&t, "othello", &hy, &jy);
    }
    if (getenv("PNSOLVE_VERBOSE"))
        fprintf(stderr, "\n    header mutants: %ld tried, %ld imported, %ld false claims; journal and file mutants: %ld "
                        "tried, %ld read as sound, %ld false claims\n",
                hy.tried, hy.accepted, hy.false_claims, jy.tried, jy.accepted, jy.false_claims);
    CU_ASSERT(hy.tried > 50 && hy.accepted > 0 && jy.tried > 10);  /* not vacuous: some mutants are true claims */
    CU_ASSERT_EQUAL(hy.false_claims, 0);
    CU_ASSERT_EQUAL(jy.false_claims, 0);
    game_close(ttt);
    game_close(oth);
}

typedef struct {
    char lines[64][4400];
    int n;
} reported;

static void collect(void *ctx, const char *line)
{
    reported *r = ctx;
    if (r->n < 64)
        snprintf(r->lines[r->n++], sizeof r->lines[0], "%s", line);
}

/* campaign_verify --sample N spreads its N checks from the first answer
 * to the last: every answer's tree damaged (its header kept), the checks of
 * a sample of 2 are the first and the last of the checks of all. */
static void test_sample_spread(void)
{
    game *g = test_open("tictactoe", NULL);
    trial t = { g, { .kind = CAMPAIGN_ADVANTAGE, .k = 0, .depth = 2 }, 1 };
    snprintf(t.spec.game, sizeof t.spec.game, "tictactoe");
    game_state s;
    game_start(g, &s);
    game_format(g, &s, t.spec.position, sizeof t.spec.position);
    t.truth = test_minimax(g, &s) >= 0;
    char *dir = test_asker_dir(), err[4400];
    campaign_state st;
    CU_ASSERT_EQUAL_FATAL(run_trial(&t, dir, &st), 0);
    static char files[64][4400];
    int nf = answer_files(dir, files, 64);
    for (int i = 0; i < nf; i++) {
        FILE *f = fopen(files[i], "a");
        fputs("1 zz node\n", f);  /* no move of the game: the tree fails, the claim reads as before */
        fclose(f);
    }
    campaign *c = campaign_load(dir, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    static reported all, two;
    campaign_checked k;
    CU_ASSERT_EQUAL(campaign_verify(c, -1, NULL, collect, &all, &k, err, sizeof err), 0);
    CU_ASSERT(k.answers >= 3 && k.checked == k.answers && k.bad == k.answers);
    CU_ASSERT_EQUAL(campaign_verify(c, 2, NULL, collect, &two, &k, err, sizeof err), 0);
    CU_ASSERT(k.checked == 2 && k.bad == 2 && two.n == 2 && all.n >= 3);
    if (two.n == 2 && all.n >= 3) {
        CU_ASSERT_STRING_EQUAL(two.lines[0], all.lines[0]);
        CU_ASSERT_STRING_EQUAL(two.lines[1], all.lines[all.n - 1]);
    }
    campaign_close(c);
    test_remove_dir(dir);
    free(dir);
    game_close(g);
}

void suite_campaign_trust(void)
{
    CU_pSuite s = CU_add_suite("campaign trust", NULL, NULL);
    CU_add_test(s, "mutated imported headers and journals with their files together (6 rounds: PNSOLVE_SLOW): 0 false claims",
                test_mutants);
    CU_add_test(s, "verify --sample 2 checks the first answer and the last", test_sample_spread);
}
