/* proof/check.c - checks a proof file from the rules and the tables
 * alone: no search code is used here.  The format, and why each rule below
 * makes the claim true, are in docs/proof-format.md. */
#include "exact.h"
#include "fact.h"
#include "proof.h"
#include "../tbbuild/tbbuild.h"
#include "../util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHECK_MAX_DEPTH 65536  /* the writer's path holds no more plies */
#define CHECK_MAX_TABLES PROOF_MAX_TABLES

/* Earlier positions a subtree's repetitions need: bit i is the position i+1
 * plies above the subtree's root; FAR: one further up. */
typedef uint64_t refs_t;
#define FAR ((refs_t)1 << 63)

typedef struct {
    game_state s;
    game_key key;
    uint64_t id;
    int need_all, children, moves;
    refs_t refs;
    uint64_t ref_lo, ref_hi;  /* closed sets: the least and greatest line its refs name (lo > hi: none) */
    uint64_t at;  /* its moves are the checker's moves[at .. at + moves) */
} frame;

/* A legal move of an open node: the answers are matched against them. */
typedef struct {
    game_move move;
    uint8_t seen;
    uint64_t child_id;  /* node id of the move's line, once seen */
} open_move;

typedef struct {
    game_key key;
    /* a finished line whose play never reaches a position above it: a
     * subtree that holds on any path, which a 'sym' may copy and, where a
     * draw does not support the claim, a 'ref' may name */
    uint8_t free;
    uint8_t is_ref;    /* a 'ref' line: no expansion of its own */
} node_info;

typedef struct {
    uint64_t from, to; /* a 'ref' line and the later line it names */
    long line;         /* the ref's line in the file */
} forward_ref;

typedef struct {
    int mat;
    char hash[TB_HASH_HEX];
    int used;          /* a 'tb' leaf read it (and its hash was checked) */
} named_table;

typedef struct {
    const game *g;
    const proof_check_options *co;
    tb_set *tb;
    int prover, proven, advantage;
    int score_mode, target;  /* question score: "at least target ahead?" */
    int draw_supports;       /* a draw (a repetition, play forever) supports the claim */
    frame *stack;
    int top, stack_cap;      /* open frames: stack[0 .. top) at depths 0 .. top-1 */
    open_move *moves;        /* the open frames' moves, in stack order: memory follows */
    uint64_t moves_cap;      /* the moves the path has, not the most any node could */
    node_info *info;
    uint64_t ninfo, cap;
    forward_ref *fwd;        /* closed sets: refs to later lines, checked at the end */
    uint64_t nfwd, fwd_cap;
    named_table tables[CHECK_MAX_TABLES];
    int ntables;
    long line, fail_line;  /* the line read, and the line of the failure reported */
    exact_pool *pool;        /* 'exact' leaves checked by other threads (NULL: here) */
    int pool_tried;
    proof_fact *facts;       /* what each proof of the file proves (proof_check) */
    int nfacts, max_facts;
    const proof_header *h;   /* the header of the proof read */
    char *err;
    size_t errlen;
} checker;

static int fail(checker *C, const char *fmt, const char *arg)
{
    char msg[8192];
    snprintf(msg, sizeof msg, fmt, arg);
    snprintf(C->err, C->errlen, "proof line %ld: %.300s", C->line, msg);
    C->fail_line = C->line;
    return -1;
}

/* A line id: a decimal number and nothing else. */
static int read_id(const char *text, uint64_t *out) { return util_read_u64(text, 0, UINT64_MAX, out); }

/* Does an outcome for the prover (+1, 0, -1) support the claim? */
static int supports(const checker *C, int outcome)
{
    if (C->proven)
        return outcome > 0 || (outcome == 0 && C->advantage);
    return outcome < 0 || (outcome == 0 && !C->advantage);
}

/* Does a final score for the prover support "at least target ahead"
 * proven or disproven? */
static int score_supports(const checker *C, int score) { return (score >= C->target) == C->proven; }

static int close_frame(checker *C)
{
    frame *f = &C->stack[--C->top];
    if (f->need_all) {
        for (int i = 0; i < f->moves; i++)
            if (!C->moves[f->at + i].seen) {
                char mv[GAME_TEXT_MAX];
                game_format_move(C->g, &f->s, C->moves[f->at + i].move, mv, sizeof mv);
                return fail(C, "a node lacks the answer to move %s", mv);
            }
    } else if (f->children != 1) {
        return fail(C, "a node where one move suffices has %s children", f->children ? "several" : "no");
    }
    /* f is at depth C->top now; bit 0 of its children was f itself.  Its
     * closed refs keep it a copyable whole while they name lines inside it
     * (the lines read since f began); the bounds, not a FAR, go up, as a
     * ref outside a subtree may be inside its parent's */
    int outside = f->ref_lo <= f->ref_hi && (f->ref_lo < f->id || f->ref_hi >= C->ninfo);
    C->info[f->id].free = !outside && f->refs == 0;
    if (C->top > 0) {
        frame *p = &C->stack[C->top - 1];
        p->refs |= ((f->refs & ~FAR) >> 1) | (f->refs & FAR);
        p->ref_lo = f->ref_lo < p->ref_lo ? f->ref_lo : p->ref_lo;
        p->ref_hi = f->ref_hi > p->ref_hi ? f->ref_hi : p->ref_hi;
    }
    return 0;
}

/* A closed-set ref below the open nodes names line target. */
static void closed_ref(checker *C, uint64_t target)
{
    frame *parent = &C->stack[C->top - 1];
    parent->ref_lo = target < parent->ref_lo ? target : parent->ref_lo;
    parent->ref_hi = target > parent->ref_hi ? target : parent->ref_hi;
}

/* A leaf just below the open nodes repeats the position at stack depth d: a
 * bit of its parent's references, unless d is the parent itself. */
static void leaf_needs(checker *C, int d)
{
    int dist = C->top - 2 - d;  /* bit i of the parent: i+1 plies above it */
    if (dist >= 0)
        C->stack[C->top - 1].refs |= dist < 63 ? (refs_t)1 << dist : FAR;
}

static int leaf_end(checker *C, const game_state *s)
{
    game_result res = game_result_of(C->g, s);
    if (res == GAME_ONGOING)
        return fail(C, "'end' but the game goes on%s", "");
    int ok;
    if (C->score_mode) {
        int sc = game_score(C->g, s);
        ok = score_supports(C, C->prover ? -sc : sc);
    } else {
        ok = supports(C, game_outcome_for(res, C->prover));
    }
    return ok ? 0 : fail(C, "the game's end does not support the claim%s", "");
}

/* The failure of the 'exact' leaf of the given line, as a reader in order
 * reports it. */
static int exact_failed(checker *C, long line)
{
    C->line = line;
    return fail(C, "the exact score does not support the claim%s", "");
}

static int leaf_exact(checker *C, const game_state *s)
{
    if (!C->score_mode || !game_has_solver(C->g))
        return fail(C, "'exact' leaves belong to score questions of games that cannot cycle%s", "");
    if (game_empties(C->g, s) > PROOF_EXACT_MAX)
        return fail(C, "an 'exact' leaf has more empty squares than a checker searches%s", "");
    if (!C->pool_tried && C->co->threads != 1) {
        /* the leaves are independent: other threads search them while this
         * one reads on (a pool per proof: the target is the proof's) */
        C->pool_tried = 1;
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        int n = C->co->threads > 0 ? C->co->threads : cores > 0 ? (int)cores : 1;
        C->pool = n > 1 ? proof_exact_pool_new(C->g, n, C->prover, C->target, C->proven) : NULL;
    }
    if (C->pool) {
        long bad = proof_exact_pool_add(C->pool, s, C->line);
        return bad ? exact_failed(C, bad) : 0;
    }
    if (proof_exact_at_least(C->g, s, C->prover, C->target) != C->proven)
        return fail(C, "the exact score does not support the claim%s", "");
    return 0;
}

/* The header's entry for material mat, its hash checked against the table
 * in the directory on first use; NULL after a failure. */
static const named_table *table_for(checker *C, int mat)
{
    char name[32];
    game_tables(C->g)->material_name(C->g, mat, name, sizeof name);
    named_table *t = NULL;
    for (int i = 0; i < C->ntables && !t; i++)
        if (C->tables[i].mat == mat)
            t = &C->tables[i];
    if (!t) {
        fail(C, "a 'tb' leaf reads table %s, which the header does not name", name);
        return NULL;
    }
    if (t->used)
        return t;
    char hex[TB_HASH_HEX], why[300];
    int rc = tb_hash(C->tb, mat, hex, why, sizeof why);
    if (rc < 0) {
        fail(C, "%s", why);
        return NULL;
    }
    if (rc == 0) {
        fail(C, "table %s is not in the table directory", name);
        return NULL;
    }
    if (strcmp(hex, t->hash) != 0) {
        fail(C, "table %s in the table directory is not the one the proof names (its hash differs)", name);
        return NULL;
    }
    t->used = 1;
    return t;
}

static int leaf_tb(checker *C, const game_state *s, char *a1, char *a2)
{
    if (C->score_mode)
        return fail(C, "a table value says nothing of the score%s", "");
    if (!game_has_tables(C->g))
        return fail(C, "%s has no endgame tables", C->g->name);
    if (!C->tb)
        return fail(C, "a 'tb' leaf needs the tables it rests on (give --tb-dir)%s", "");
    int mat = game_tables(C->g)->material_of(C->g, s);
    if (mat < 0)
        return fail(C, "no table holds this position%s", "");
    if (!table_for(C, mat))
        return -1;
    tb_value v;
    char why[300];
    int rc = tb_probe(C->tb, s, &v, why, sizeof why);
    if (rc < 0)
        return fail(C, "%s", why);
    if (rc == 0)
        return fail(C, "no table for this position%s", "");
    const char *word = v.wdl == TB_WIN ? "win" : v.wdl == TB_LOSS ? "loss" : "draw";
    long dist;
    if (!a1 || strcmp(a1, word) != 0 || util_read_long(a2, 0, 1L << 30, &dist) != 0 || dist != v.distance)
        return fail(C, "the table says otherwise (%s)", word);
    int outcome = game_to_move(C->g, s) == C->prover ? (int)v.wdl : -(int)v.wdl;
    return supports(C, outcome) ? 0 : fail(C, "the table value does not support the claim%s", "");
}

static int leaf_sym(checker *C, const game_state *s, uint64_t id, int depth, const char *a1)
{
    uint64_t target;
    const frame *p = depth > 0 ? &C->stack[depth - 1] : NULL;
    int ok = read_id(a1, &target) == 0 && p && target < id;
    int k = 0;
    const open_move *pm = p ? &C->moves[p->at] : NULL;
    while (ok && k < p->moves && !(pm[k].seen && pm[k].child_id == target))
        k++;
    if (!ok || k == p->moves)
        return fail(C, "'sym %s' does not name an earlier sibling", a1 ? a1 : "");
    if (!C->info[target].free)
        return fail(C, "sibling %s is not a finished subtree free of repetitions", a1);
    game_state t = p->s;
    game_play(C->g, &t, pm[k].move);
    if (!game_has_symmetry(C->g) ||
        !game_key_equal(game_symmetric_key(C->g, &t), game_symmetric_key(C->g, s)))
        return fail(C, "node %s is not a symmetric image of this position", a1);
    C->info[id].free = 1;
    return 0;
}

static int leaf_rep(checker *C, uint64_t id, game_key key, const char *a1)
{
    uint64_t target;
    if (read_id(a1, &target) != 0 || target >= id)
        return fail(C, "bad node id '%s'", a1 ? a1 : "");
    if (!C->draw_supports)
        return fail(C, "a repetition is a draw and cannot support this claim%s", "");
    if (!game_key_equal(C->info[target].key, key))
        return fail(C, "node %s holds another position", a1);
    int d = 0;
    while (d < C->top && C->stack[d].id != target)
        d++;
    if (d == C->top)
        return fail(C, "node %s is not on the path", a1);
    leaf_needs(C, d);
    return 0;
}

static int leaf_ref(checker *C, uint64_t id, game_key key, const char *a1)
{
    uint64_t target;
    if (read_id(a1, &target) != 0 || target == id || (target > id && !C->draw_supports))
        return fail(C, "bad node id '%s'", a1 ? a1 : "");
    C->info[id].is_ref = 1;
    if (target > id) {
        /* a closed set may name a later line: checked at the end, which
         * must be that position's own expansion or leaf, not a ref */
        if (C->nfwd == C->fwd_cap) {
            C->fwd_cap = C->fwd_cap ? C->fwd_cap * 2 : 1024;
            forward_ref *f = realloc(C->fwd, sizeof *f * C->fwd_cap);
            if (!f)
                return fail(C, "out of memory%s", "");
            C->fwd = f;
        }
        C->fwd[C->nfwd++] = (forward_ref){ id, target, C->line };
        closed_ref(C, target);
        return 0;
    }
    if (!game_key_equal(C->info[target].key, key))
        return fail(C, "node %s holds another position", a1);
    /* A finished subtree that never reaches a position above it holds on
     * any path: its play ends in its leaves (or, where a draw supports the
     * claim, cycles inside it).  Where a draw supports the claim, any other
     * line of the same position will do: the file's positions form a closed
     * set that play leaves only for leaves that support the claim, and play
     * that stays in it forever repeats, a draw. */
    if (C->info[target].free) {
        C->info[id].free = 1;
        return 0;
    }
    if (!C->draw_supports)
        return fail(C, "node %s is not a finished subtree that can be referred to", a1);
    closed_ref(C, target);
    return 0;
}

/* The state of a line at depth (the root's, or its parent's after the move
 * named, which the parent lists and no earlier line took) into *s: 0, or -1
 * with the checker's reason. */
static int line_state(checker *C, long depth, const char *w_move, const char *kind, int args, const game_state *root,
                      game_state *s)
{
    if (depth == 0) {
        if (strcmp(w_move, "-") != 0)
            return fail(C, "the root has no move (got '%s')", w_move);
        if (args == 1)
            return fail(C, "the root cannot be a '%s' line", kind);
        *s = *root;
        return 0;
    }
    frame *p = &C->stack[depth - 1];
    game_move m = 0;
    char why[256];
    if (game_parse_move(C->g, &p->s, w_move, &m, why, sizeof why) != 0)
        return fail(C, "illegal move '%s'", w_move);
    int k = 0;  /* a graph may list the same move twice: take the first one not yet seen */
    open_move *pm = &C->moves[p->at];
    while (k < p->moves && (pm[k].move != m || pm[k].seen))
        k++;
    if (k == p->moves)
        return fail(C, "move '%s' listed twice", w_move);
    pm[k].seen = 1;
    pm[k].child_id = C->ninfo;
    p->children++;
    *s = p->s;
    game_play(C->g, s, m);
    return 0;
}

/* A new line's record (its key); its id, or -1 when out of memory. */
static int64_t info_add(checker *C, game_key key)
{
    if (C->ninfo == C->cap) {
        C->cap = C->cap ? C->cap * 2 : 1024;
        node_info *ni = realloc(C->info, sizeof *ni * C->cap);
        if (!ni)
            return fail(C, "out of memory%s", "");
        C->info = ni;
    }
    C->info[C->ninfo] = (node_info){ key, 0, 0 };
    return (int64_t)C->ninfo++;
}

/* Opens a 'node' line: a frame whose moves its children's lines must
 * answer (every one where the claim's other side moves). */
static int open_node(checker *C, const game_state *s, game_key key, uint64_t id)
{
    if (C->top == CHECK_MAX_DEPTH)
        return fail(C, "deeper than %s plies", "65536");
    if (C->top == C->stack_cap) {
        int cap = C->stack_cap ? C->stack_cap * 2 : 64;
        frame *st = realloc(C->stack, sizeof *st * (size_t)cap);
        if (!st)
            return fail(C, "out of memory%s", "");
        C->stack = st;
        C->stack_cap = cap;
    }
    uint64_t at = C->top ? C->stack[C->top - 1].at + (uint64_t)C->stack[C->top - 1].moves : 0;
    if (at + GAME_MAX_MOVES > C->moves_cap) {
        uint64_t cap = 2 * C->moves_cap > at + GAME_MAX_MOVES ? 2 * C->moves_cap : at + GAME_MAX_MOVES;
        open_move *mv = realloc(C->moves, sizeof *mv * cap);
        if (!mv)
            return fail(C, "out of memory%s", "");
        C->moves = mv;
        C->moves_cap = cap;
    }
    frame *f = &C->stack[C->top++];
    f->s = *s;
    f->key = key;
    f->id = id;
    f->children = 0;
    f->refs = 0;
    f->ref_lo = UINT64_MAX;
    f->ref_hi = 0;
    game_move list[GAME_MAX_MOVES];
    f->at = at;
    f->moves = game_moves(C->g, s, list);
    for (int i = 0; i < f->moves; i++)
        C->moves[at + i] = (open_move){ list[i], 0, 0 };
    f->need_all = (game_to_move(C->g, s) == C->prover) != C->proven;
    return 0;
}

static int check_line(checker *C, char *text, const game_state *root)
{
    char *save, *w_depth = strtok_r(text, " \t\r\n", &save), *w_move = strtok_r(NULL, " \t\r\n", &save);
    char *kind = strtok_r(NULL, " \t\r\n", &save), *a1 = strtok_r(NULL, " \t\r\n", &save);
    char *a2 = strtok_r(NULL, " \t\r\n", &save), *extra = strtok_r(NULL, " \t\r\n", &save);
    if (!w_depth || !w_move || !kind)
        return fail(C, "expected 'DEPTH MOVE KIND'%s", "");
    long depth;
    if (util_read_long(w_depth, 0, C->top, &depth) != 0 || (depth == 0 && C->ninfo > 0))
        return fail(C, "bad depth '%s'", w_depth);
    int args = !strcmp(kind, "tb") ? 2 : !strcmp(kind, "rep") || !strcmp(kind, "ref") || !strcmp(kind, "sym") ? 1 : 0;
    if (extra || (args < 2 && a2) || (args < 1 && a1))
        return fail(C, "unexpected text after the line's %s", args ? "arguments" : "kind");
    while (C->top > depth)
        if (close_frame(C) != 0)
            return -1;
    game_state s;
    if (line_state(C, depth, w_move, kind, args, root, &s) != 0)
        return -1;
    game_key key = game_key_of(C->g, &s);
    int64_t at = info_add(C, key);
    if (at < 0)
        return -1;
    uint64_t id = (uint64_t)at;
    int over = game_result_of(C->g, &s) != GAME_ONGOING;
    if (strcmp(kind, "end") == 0) {
        if (leaf_end(C, &s) != 0)
            return -1;
        C->info[id].free = 1;
        return 0;
    }
    if (over)
        return fail(C, "the game is over here but the line says '%s'", kind);
    if (strcmp(kind, "sym") == 0)
        return leaf_sym(C, &s, id, (int)depth, a1);
    if (strcmp(kind, "exact") == 0 || strcmp(kind, "tb") == 0) {
        if ((kind[0] == 'e' ? leaf_exact(C, &s) : leaf_tb(C, &s, a1, a2)) != 0)
            return -1;
        C->info[id].free = 1;
        return 0;
    }
    if (strcmp(kind, "rep") == 0)
        return leaf_rep(C, id, key, a1);
    if (strcmp(kind, "ref") == 0)
        return leaf_ref(C, id, key, a1);
    if (strcmp(kind, "node") != 0)
        return fail(C, "unknown kind '%s'", kind);
    return open_node(C, &s, key, id);
}

/* Finishes the proof in C: closes its open nodes, checks the forward refs
 * and appends its summary, naming the tables it rests on. */
static int finish_proof(checker *C, const game_state *root, const char *result, char *summary, size_t slen)
{
    long bad = C->pool ? proof_exact_pool_wait(C->pool) : 0;
    if (bad)
        return exact_failed(C, bad);
    while (C->top > 0)
        if (close_frame(C) != 0)
            return -1;
    if (C->ninfo == 0)
        return fail(C, "no proof tree%s", "");
    for (uint64_t i = 0; i < C->nfwd; i++) {
        const forward_ref *f = &C->fwd[i];
        char id[32];
        snprintf(id, sizeof id, "%llu", (unsigned long long)f->to);
        C->line = f->line;
        if (f->to >= C->ninfo)
            return fail(C, "node %s named by a ref is not in the file", id);
        if (!game_key_equal(C->info[f->to].key, C->info[f->from].key))
            return fail(C, "node %s (named by a ref before it) holds another position", id);
        if (C->info[f->to].is_ref)
            return fail(C, "node %s (named by a ref before it) is a ref itself", id);
    }
    if (C->facts) {
        char most[32];
        snprintf(most, sizeof most, "%d", C->max_facts);
        if (C->nfacts == C->max_facts)
            return fail(C, "more than %s proofs in one file: not one its reader takes", most);
        proof_fact_fill(&C->facts[C->nfacts], C->h, C->g, root);
        C->facts[C->nfacts++].nodes = C->ninfo;
    }
    if (summary) {
        size_t at = strlen(summary);
        char what[64], pos[GAME_TEXT_MAX];
        if (C->score_mode)
            snprintf(what, sizeof what, "finish at least %d ahead", C->target);
        else
            snprintf(what, sizeof what, "%s", C->advantage ? "avoid losing" : "force a win");
        game_format(C->g, root, pos, sizeof pos);  /* the game's own text: nothing of the file is echoed */
        at += (size_t)snprintf(summary + at, slen - at, "%s%s %s: 'can %s %s?' %s (%llu nodes)", at ? "; " : "",
                               C->g->name, pos, C->g->ops->player[C->prover], what, result,
                               (unsigned long long)C->ninfo);
        const char *sep = ", given tables ";
        for (int i = 0; i < C->ntables && at < slen; i++)
            if (C->tables[i].used) {
                char name[32];
                game_tables(C->g)->material_name(C->g, C->tables[i].mat, name, sizeof name);
                at += (size_t)snprintf(summary + at, slen - at, "%s%s (blake2b %s)", sep, name, C->tables[i].hash);
                sep = ", ";
            }
    }
    return 0;
}

/* Verifies every table the proof rests on and the smaller ones below them
 * (the whole-table check that makes a table's values trustworthy). */
static int verify_tables(checker *C)
{
    int mats[CHECK_MAX_TABLES], n = 0;
    for (int i = 0; i < C->ntables; i++)
        if (C->tables[i].used)
            mats[n++] = C->tables[i].mat;
    char why[512];
    long wrong = n ? tb_verify_materials(C->g, C->co->tb_dir, mats, n, C->co->threads, C->co->report, why, sizeof why) : 0;
    if (wrong < 0)
        return fail(C, "verifying the tables: %s", why);
    if (wrong > 0)
        return fail(C, "a table the proof rests on, or one below it, fails its verification%s", "");
    return 0;
}

static void reset(checker *C, game **g)
{
    proof_exact_pool_free(C->pool);
    free(C->stack);
    free(C->moves);
    free(C->info);
    free(C->fwd);
    tb_close(C->tb);
    game_close(*g);
    *g = NULL;
    char *err = C->err;
    size_t errlen = C->errlen;
    long line = C->line;
    const proof_check_options *co = C->co;
    proof_fact *facts = C->facts;
    int nfacts = C->nfacts, max_facts = C->max_facts;
    const proof_header *h = C->h;
    memset(C, 0, sizeof *C);
    C->err = err;
    C->errlen = errlen;
    C->line = line;
    C->co = co;
    C->facts = facts, C->nfacts = nfacts, C->max_facts = max_facts;
    C->h = h;
}

/* Reads one header line into h: 1 read, 0 not a header line, -1 (err). */
static int header_line(checker *C, proof_header *h, const char *line)
{
    char why[256];
    int rc = proof_header_read(h, line, why, sizeof why);
    return rc < 0 ? fail(C, "%s", why) : rc;
}

/* Opens the game of a complete header: 0, or -1 (err). */
static int header_open(checker *C, const proof_header *h, game **g, game_state *root)
{
    char why[1024];
    if (proof_header_root(h, g, root, why, sizeof why) != 0)
        return fail(C, "%s", why);
    C->g = *g;
    C->prover = (int)h->prover;
    C->advantage = !strcmp(h->question, "advantage");
    C->score_mode = !strcmp(h->question, "score");
    C->target = (int)h->target;
    C->proven = !strcmp(h->result, "proven");
    C->draw_supports = C->score_mode ? score_supports(C, 0) : supports(C, 0);
    for (int i = 0; i < h->ntables; i++) {
        int mat = game_has_tables(*g) ? game_tables(*g)->material_parse(*g, h->table_name[i]) : -1;
        if (mat < 0)
            return fail(C, "the header names table '%s', not a material of this game", h->table_name[i]);
        for (int j = 0; j < C->ntables; j++)
            if (C->tables[j].mat == mat)
                return fail(C, "the header names table '%s' twice", h->table_name[i]);
        C->tables[C->ntables].mat = mat;
        strcpy(C->tables[C->ntables++].hash, h->table_hash[i]);
    }
    /* --verify-tables trusts nothing on disk but the values: indices too are made anew */
    if (C->co->tb_dir && game_has_tables(*g) && !C->score_mode &&
        !(C->tb = C->co->verify_tables ? tb_open_fresh(*g, C->co->tb_dir) : tb_open_lazy(*g, C->co->tb_dir)))
        return fail(C, "out of memory%s", "");
    if (C->tb) {
        /* the named tables hashed together (a six-piece one takes half a
         * minute), before the first leaf that reads one asks for its hash */
        int mats[CHECK_MAX_TABLES];
        for (int i = 0; i < C->ntables; i++)
            mats[i] = C->tables[i].mat;
        tb_hash_ahead(C->tb, mats, C->ntables, C->co->threads);
    }
    return 0;
}

/* Checks every proof of in; their claims to facts[0 .. *n) (facts NULL: none). */
static int check_file(FILE *in, const proof_check_options *co, char *summary, size_t slen, proof_fact *facts, int max,
                      int *n, char *err, size_t errlen)
{
    proof_check_options none = { 0 };
    checker C;
    memset(&C, 0, sizeof C);
    C.err = err;
    C.errlen = errlen;
    C.co = co ? co : &none;
    C.facts = facts, C.max_facts = max;
    if (summary && slen)
        summary[0] = 0;
    proof_header *h = malloc(sizeof *h);
    char *line = NULL;
    size_t cap = 0;
    int rc = -1;
    game *g = NULL;
    game_state root;
    if (!h) {
        fail(&C, "out of memory%s", "");
        goto out;
    }
    proof_header_clear(h);
    C.h = h;
    long got;
    char why[256];
    while ((got = util_read_line(in, &line, &cap, &C.line, why, sizeof why)) != -1) {
        if (got < 0) {
            snprintf(C.err, C.errlen, "proof %s", why);
            C.fail_line = C.line;
            goto out;
        }
        if (C.co->progress && (C.line & 0xFFFFF) == 0)
            C.co->progress((uint64_t)C.line, ftell(in), C.co->progress_ctx);
        if (line[0] == '#' || line[0] == 0)
            continue;
        if (g && strncmp(line, "pnsolve-proof ", 14) == 0) {
            /* the next proof of the same file (e.g. the two bounds of a score) */
            if (finish_proof(&C, &root, h->result, summary, slen) != 0 ||
                (C.co->verify_tables && verify_tables(&C) != 0))
                goto out;
            reset(&C, &g);
            proof_header_clear(h);
        }
        if (!g) {
            int hr = header_line(&C, h, line);
            if (hr < 0)
                goto out;
            if (hr > 0)
                continue;
            if (line[0] < '0' || line[0] > '9') {
                fail(&C, "unknown header line '%.60s'", line);
                goto out;
            }
            if (header_open(&C, h, &g, &root) != 0)
                goto out;
        }
        if (check_line(&C, line, &root) != 0)
            goto out;
    }
    if (!g) {
        fail(&C, "no proof tree%s", "");
        goto out;
    }
    if (finish_proof(&C, &root, h->result, summary, slen) != 0 || (C.co->verify_tables && verify_tables(&C) != 0))
        goto out;
    rc = 0;
out:
    if (rc != 0 && C.pool) {
        /* a leaf above the failure met may fail too: report the first */
        long bad = proof_exact_pool_wait(C.pool);
        if (bad && bad < C.fail_line)
            exact_failed(&C, bad);
    }
    reset(&C, &g);
    free(line);
    free(h);
    if (n)
        *n = rc == 0 ? C.nfacts : 0;
    return rc;
}

int proof_verify(FILE *in, const proof_check_options *co, char *summary, size_t slen, char *err, size_t errlen)
{
    return check_file(in, co, summary, slen, NULL, 0, NULL, err, errlen);
}

int proof_check(FILE *in, const proof_check_options *co, proof_fact *facts, int max, int *n, char *err, size_t errlen)
{
    return check_file(in, co, NULL, 0, facts, max, n, err, errlen);
}
