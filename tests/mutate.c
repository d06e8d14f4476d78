/* tests/mutate.c - mutants of proof files: one random change (or two) to a
 * valid proof, as an adversary or a bit flip would make it.  Shared by the
 * mutation test (test_proof_trust.c) and its fuzz target (make fuzz). */
#include "mutate.h"
#include "ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void split(const char *text, proof_lines *L)
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

static char *join(const proof_lines *L)
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

static void set_line(proof_lines *L, int i, const char *text)
{
    free(L->line[i]);
    L->line[i] = strdup(text);
}

static int is_tree(const char *l) { return l[0] >= '0' && l[0] <= '9'; }

/* A random line of L that is (tree) or is not (!tree) a tree line, -1 none. */
static int pick(const proof_lines *L, int tree, unsigned long long *rng)
{
    for (int tries = 0; tries < 64; tries++) {
        int i = (int)(ref_rand(rng) % (unsigned)L->n);
        if (is_tree(L->line[i]) == tree)
            return i;
    }
    return -1;
}

/* One random change to the lines of a proof. */
/* The header mutations: the result, question, prover, a table's hash, a
 * header line renamed or repeated. */
static void mutate_header(proof_lines *L, int op, unsigned long long *rng)
{
    char buf[1024];
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
    case 12:  /* a table's hash changed */
        for (int k = 0; k < L->n; k++)
            if (!strncmp(L->line[k], "table ", 6)) {
                char *h = strrchr(L->line[k], ' ') + 1;  /* another change may have made it short */
                size_t len = strlen(h);
                if (len)
                    h[ref_rand(rng) % len] = "0123456789abcdef"[ref_rand(rng) % 16];
            }
        break;
    case 13: {  /* a header line renamed, or said twice with another value */
        static const char *const names[] = { "pnsolve-proof", "game", "game-blake2b", "position", "prover",
                                             "question", "result", "table", "Prover", "result:" };
        int h = pick(L, 0, rng);
        const char *sp = h >= 0 ? strchr(L->line[h], ' ') : NULL;
        if (!sp || L->line[h][0] == '#')
            break;
        if (ref_rand(rng) & 1) {
            snprintf(buf, sizeof buf, "%s%s", names[ref_rand(rng) % 10], sp);
            set_line(L, h, buf);
            break;
        }
        static const char *const values[] = { "0", "1", "win", "advantage", "proven", "disproven", "score 1", "-" };
        snprintf(buf, sizeof buf, "%.*s %s", (int)(sp - L->line[h]), L->line[h], values[ref_rand(rng) % 8]);
        if (L->n == L->cap) {
            L->cap *= 2;
            L->line = realloc(L->line, sizeof *L->line * (size_t)L->cap);
        }
        int at = h + 1 + (int)(ref_rand(rng) % 2);  /* after it, or one further */
        at = at > L->n ? L->n : at;
        memmove(&L->line[at + 1], &L->line[at], sizeof *L->line * (size_t)(L->n - at));
        L->line[at] = strdup(buf);
        L->n++;
        break;
    }
    }
}

/* The tree mutations of line i (of `trees` tree lines): dropped, repeated,
 * swapped, another kind, depth, move, line named or table value; cut short. */
static void mutate_tree(proof_lines *L, int op, int i, int trees, unsigned long long *rng)
{
    char buf[1024];
    char d[32] = "", mv[256] = "", kind[32] = "", a1[300] = "", a2[64] = "";
    sscanf(L->line[i], "%31s %255s %31s %299s %63s", d, mv, kind, a1, a2);
    switch (op) {
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
    }
}

static void mutate(proof_lines *L, unsigned long long *rng)
{
    int op = (int)(ref_rand(rng) % 15), i = pick(L, 1, rng), trees = 0;
    for (int k = 0; k < L->n; k++)
        trees += is_tree(L->line[k]);
    if (i < 0)
        return;
    if (op <= 2 || op == 12 || op == 13) {
        mutate_header(L, op, rng);
    } else if (op <= 11) {
        mutate_tree(L, op, i, trees, rng);
    } else {  /* two changes */
        mutate(L, rng);
        mutate(L, rng);
    }
}

/* The root's last field (Ostle's forbidden move) made another square and
 * direction of a w x h board, or '-'. */
static void mutate_root(proof_lines *L, int w, int h, unsigned long long *rng)
{
    char buf[1024];
    for (int k = 0; k < L->n; k++) {
        char *last = strrchr(L->line[k], ' ');
        if (strncmp(L->line[k], "position ", 9) != 0 || !last)
            continue;
        int code = (int)(ref_rand(rng) % (unsigned)(4 * w * h + 1));
        if (code == 4 * w * h)
            snprintf(buf, sizeof buf, "%.*s -", (int)(last - L->line[k]), L->line[k]);
        else
            snprintf(buf, sizeof buf, "%.*s %c%c%c", (int)(last - L->line[k]), L->line[k], 'a' + code / 4 % w,
                     '1' + code / 4 / w, "UDLR"[code & 3]);
        set_line(L, k, buf);
    }
}

static void free_lines(proof_lines *L)
{
    for (int i = 0; i < L->n; i++)
        free(L->line[i]);
    L->n = 0;
}

/* Is the claim "prover, question, result" of one proof's header true? -1
 * when the header cannot be read (the checker must have refused it). */
static int claim_true(int value0, const char *header_start, const char *header_end)
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
    int v = prover == 0 ? value0 : -value0;
    int holds = !strcmp(question, "win") ? v > 0 : !strcmp(question, "advantage") ? v >= 0 : v >= target;
    return holds == proven;
}

int proof_claims_hold(const char *text, int value0)
{
    const char *at = text;
    while ((at = strstr(at, "pnsolve-proof ")) != NULL) {
        const char *next = strstr(at + 1, "pnsolve-proof ");
        const char *tree = strstr(at, "\n0 ");
        if (claim_true(value0, at, tree && (!next || tree < next) ? tree : next) != 1)
            return 0;
        at += 1;
    }
    return 1;
}

char *proof_mutant(const char *text, proof_lines *L, unsigned long long *rng)
{
    split(text, L);
    mutate(L, rng);
    char *out = join(L);
    free_lines(L);
    return out;
}

char *proof_root_mutant(const char *text, int w, int h, proof_lines *L, unsigned long long *rng)
{
    split(text, L);
    mutate_root(L, w, h, rng);
    if (ref_rand(rng) % 3 == 0)
        mutate(L, rng);
    char *out = join(L);
    free_lines(L);
    return out;
}
