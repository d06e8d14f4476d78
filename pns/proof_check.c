/* pns/proof_check.c - checks a proof file from the rules and the tables
 * alone: no search code is used here. */
#include "pns.h"

#include <stdlib.h>
#include <string.h>

/* Earlier positions a subtree's repetitions need: bit i is the position i+1
 * plies above the subtree's root; FAR: one further up. */
typedef uint64_t refs_t;
#define FAR ((refs_t)1 << 63)
#define NEED_MAX 4   /* as the writer: a subtree needing more is not referable */

typedef struct {
    game_state s;
    game_key key;
    uint64_t id;
    int need_all, children, moves;
    refs_t refs;
    uint64_t ref_lo, ref_hi;  /* closed sets: the least and greatest line its refs name (lo > hi: none) */
    game_move move[GAME_MAX_MOVES];
    uint8_t seen[GAME_MAX_MOVES];
    uint64_t child_id[GAME_MAX_MOVES];  /* node id of each move's line, once seen */
} frame;

typedef struct {
    game_key key;
    uint64_t need_at;  /* its needed positions: need[need_at .. need_at+n) */
    int8_t n;          /* -1: not referable (not finished, or needs too much) */
    uint8_t is_ref;    /* a 'ref' line: no expansion of its own */
} node_info;

typedef struct {
    uint64_t from, to; /* a 'ref' line and the later line it names */
} forward_ref;

typedef struct {
    const game *g;
    tb_set *tb;
    int prover, proven, advantage;
    int score_mode, target;  /* question score: "at least target ahead?" */
    frame *stack;
    int top;                 /* open frames: stack[0 .. top) at depths 0 .. top-1 */
    node_info *info;
    uint64_t ninfo, cap;
    game_key *need;
    uint64_t nneed, need_cap;
    forward_ref *fwd;        /* closed sets: refs to later lines, checked at the end */
    uint64_t nfwd, fwd_cap;
    long line;
    char *err;
    size_t errlen;
} checker;

static int fail(checker *C, const char *fmt, const char *arg)
{
    char msg[8192];
    snprintf(msg, sizeof msg, fmt, arg);
    snprintf(C->err, C->errlen, "proof line %ld: %.300s", C->line, msg);
    return -1;
}

/* Does an outcome for the prover (+1, 0, -1) support the claim? */
static int supports(const checker *C, int outcome)
{
    if (C->proven)
        return outcome > 0 || (outcome == 0 && C->advantage);
    return outcome < 0 || (outcome == 0 && !C->advantage);
}

static int close_frame(checker *C)
{
    frame *f = &C->stack[--C->top];
    if (f->need_all) {
        for (int i = 0; i < f->moves; i++)
            if (!f->seen[i]) {
                char mv[GAME_TEXT_MAX];
                game_format_move(C->g, &f->s, f->move[i], mv, sizeof mv);
                return fail(C, "a node lacks the answer to move %s", mv);
            }
    } else if (f->children != 1) {
        return fail(C, "a node where one move suffices has %s children", f->children ? "several" : "no");
    }
    /* f is at depth C->top now; bit 0 of its children was f itself.  Its
     * closed refs keep it a copyable whole while they name lines inside it
     * (the lines read since f began); the bounds, not a FAR, go up, as a
     * ref outside a subtree may be inside its parent's */
    refs_t refs = f->refs;
    int outside = f->ref_lo <= f->ref_hi && (f->ref_lo < f->id || f->ref_hi >= C->ninfo);
    if (!outside && !(refs & FAR) && __builtin_popcountll(refs) <= NEED_MAX) {
        if (C->nneed + NEED_MAX > C->need_cap) {
            C->need_cap = C->need_cap ? C->need_cap * 2 : 1024;
            game_key *nk = realloc(C->need, sizeof *nk * C->need_cap);
            if (!nk)
                return fail(C, "out of memory%s", "");
            C->need = nk;
        }
        node_info *ni = &C->info[f->id];
        ni->need_at = C->nneed;
        ni->n = 0;
        for (int i = 0; i < 63; i++)
            if (refs >> i & 1)
                C->need[C->nneed + (uint64_t)ni->n++] = C->stack[C->top - 1 - i].key;
        C->nneed += (uint64_t)ni->n;
    }
    if (C->top > 0) {
        frame *p = &C->stack[C->top - 1];
        p->refs |= ((refs & ~FAR) >> 1) | (refs & FAR);
        p->ref_lo = f->ref_lo < p->ref_lo ? f->ref_lo : p->ref_lo;
        p->ref_hi = f->ref_hi > p->ref_hi ? f->ref_hi : p->ref_hi;
    }
    return 0;
}

/* A closed-set ref below parent names line target. */
static void closed_ref(frame *parent, uint64_t target)
{
    parent->ref_lo = target < parent->ref_lo ? target : parent->ref_lo;
    parent->ref_hi = target > parent->ref_hi ? target : parent->ref_hi;
}

/* A leaf just below the open nodes needs the position at stack depth d: a
 * bit of its parent's references, unless d is the parent itself. */
static void leaf_needs(checker *C, int d)
{
    int dist = C->top - 2 - d;  /* bit i of the parent: i+1 plies above it */
    if (dist >= 0)
        C->stack[C->top - 1].refs |= dist < 63 ? (refs_t)1 << dist : FAR;
}

/* The final score for the side to move of a game that cannot cycle, by a
 * plain fail-hard alpha-beta over the rules (game_moves, game_play): the
 * checker's own search for 'exact' leaves, independent of the game's solver
 * that the proof search used. */
static int exact_score(const game *g, const game_state *s, int alpha, int beta)
{
    game_move mv[GAME_MAX_MOVES];
    int n = game_moves(g, s, mv);
    if (n == 0) {
        int sc = game_score(g, s);
        return game_to_move(g, s) == 0 ? sc : -sc;
    }
    for (int i = 0; i < n && alpha < beta; i++) {
        game_state c = *s;
        game_play(g, &c, mv[i]);
        int v = game_to_move(g, &c) == game_to_move(g, s) ? exact_score(g, &c, alpha, beta)
                                                           : -exact_score(g, &c, -beta, -alpha);
        if (v > alpha)
            alpha = v;
    }
    return alpha;
}

static int check_line(checker *C, char *text, const game_state *root)
{
    char *save, *w_depth = strtok_r(text, " \t\r\n", &save), *w_move = strtok_r(NULL, " \t\r\n", &save);
    char *kind = strtok_r(NULL, " \t\r\n", &save), *a1 = strtok_r(NULL, " \t\r\n", &save);
    char *a2 = strtok_r(NULL, " \t\r\n", &save), *end;
    if (!w_depth || !w_move || !kind)
        return fail(C, "expected 'DEPTH MOVE KIND'%s", "");
    long depth = strtol(w_depth, &end, 10);
    if (*end || depth < 0 || depth > C->top || (depth == 0 && C->ninfo > 0))
        return fail(C, "bad depth '%s'", w_depth);
    while (C->top > depth)
        if (close_frame(C) != 0)
            return -1;
    game_state s;
    if (depth == 0) {
        if (strcmp(w_move, "-") != 0)
            return fail(C, "the root has no move (got '%s')", w_move);
        s = *root;
    } else {
        frame *p = &C->stack[depth - 1];
        game_move m = 0;
        char why[256];
        if (game_parse_move(C->g, &p->s, w_move, &m, why, sizeof why) != 0)
            return fail(C, "illegal move '%s'", w_move);
        int k = 0;  /* a graph may list the same move twice: take the first one not yet seen */
        while (k < p->moves && (p->move[k] != m || p->seen[k]))
            k++;
        if (k == p->moves || p->seen[k])
            return fail(C, "move '%s' listed twice", w_move);
        p->seen[k] = 1;
        p->child_id[k] = C->ninfo;
        p->children++;
        s = p->s;
        game_play(C->g, &s, m);
    }
    if (C->ninfo == C->cap) {
        C->cap = C->cap ? C->cap * 2 : 1024;
        node_info *ni = realloc(C->info, sizeof *ni * C->cap);
        if (!ni)
            return fail(C, "out of memory%s", "");
        C->info = ni;
    }
    uint64_t id = C->ninfo++;
    game_key key = game_key_of(C->g, &s);
    C->info[id].key = key;
    C->info[id].n = -1;
    C->info[id].is_ref = 0;
    game_result res = game_result_of(C->g, &s);
    if (strcmp(kind, "end") == 0) {
        if (res == GAME_ONGOING)
            return fail(C, "'end' but the game goes on%s", "");
        int outcome = game_outcome_for(res, C->prover);
        if (C->score_mode) {  /* the final score against the target */
            int sc = game_score(C->g, &s);
            outcome = (C->prover ? -sc : sc) >= C->target ? 1 : -1;
        }
        if (!supports(C, outcome))
            return fail(C, "the game's end does not support the claim%s", "");
        C->info[id].n = 0;
        return 0;
    }
    if (res != GAME_ONGOING)
        return fail(C, "the game is over here but the line says '%s'", kind);
    if (strcmp(kind, "sym") == 0) {  /* a symmetric image of an earlier sibling's finished subtree */
        unsigned long long target = a1 ? strtoull(a1, &end, 10) : 0;
        const frame *p = depth > 0 ? &C->stack[depth - 1] : NULL;
        int k = 0;
        while (p && k < p->moves && !(p->seen[k] && p->child_id[k] == target && target < id))
            k++;
        if (!a1 || *end || !p || k == p->moves)
            return fail(C, "'sym %s' does not name an earlier sibling", a1 ? a1 : "");
        if (C->info[target].n != 0)
            return fail(C, "sibling %s is not a finished subtree free of repetitions", a1);
        game_state t = p->s;
        game_play(C->g, &t, p->move[k]);
        if (!C->g->ops->symmetric_key ||
            !game_key_equal(C->g->ops->symmetric_key(C->g, &t), C->g->ops->symmetric_key(C->g, &s)))
            return fail(C, "node %s is not a symmetric image of this position", a1);
        C->info[id].n = 0;
        return 0;
    }
    if (strcmp(kind, "exact") == 0) {
        if (!C->score_mode || !C->g->ops->empties)
            return fail(C, "'exact' leaves belong to score questions of games that cannot cycle%s", "");
        if (C->g->ops->empties(C->g, &s) > PNS_PROOF_EXACT_MAX)
            return fail(C, "an 'exact' leaf has more empty squares than a checker searches%s", "");
        /* a null window at the target, from the prover's side */
        int t = C->target, mine = game_to_move(C->g, &s) == C->prover;
        int v = mine ? exact_score(C->g, &s, t - 1, t) : -exact_score(C->g, &s, -t, -t + 1);
        if (!supports(C, v >= t ? 1 : -1))
            return fail(C, "the exact score does not support the claim%s", "");
        C->info[id].n = 0;
        return 0;
    }
    if (strcmp(kind, "tb") == 0 && C->score_mode)
        return fail(C, "a table value says nothing of the score%s", "");
    if (strcmp(kind, "tb") == 0) {
        tb_value v;
        char why[256];
        int rc = C->tb ? tb_probe(C->tb, &s, &v, why, sizeof why) : 0;
        if (rc < 0)
            return fail(C, "%s", why);
        if (rc == 0)
            return fail(C, "no table for this position (give the table directory)%s", "");
        const char *word = v.wdl == TB_WIN ? "win" : v.wdl == TB_LOSS ? "loss" : "draw";
        if (!a1 || !a2 || strcmp(a1, word) != 0 || atoi(a2) != v.distance)
            return fail(C, "the table says otherwise (%s)", word);
        int outcome = game_to_move(C->g, &s) == C->prover ? (int)v.wdl : -(int)v.wdl;
        if (!supports(C, outcome))
            return fail(C, "the table value does not support the claim%s", "");
        C->info[id].n = 0;
        return 0;
    }
    if (strcmp(kind, "rep") == 0 || strcmp(kind, "ref") == 0) {
        unsigned long long target = a1 ? strtoull(a1, &end, 10) : 0;
        int closed = kind[2] == 'f' && C->proven == C->advantage && !C->score_mode;
        if (!a1 || *end || target == id || (target > id && !closed))
            return fail(C, "bad node id '%s'", a1 ? a1 : "");
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
            C->fwd[C->nfwd++] = (forward_ref){ id, target };
            C->info[id].is_ref = 1;
            closed_ref(&C->stack[C->top - 1], target);
            return 0;
        }
        if (!game_key_equal(C->info[target].key, key))
            return fail(C, "node %s holds another position", a1);
        if (kind[2] == 'f') {
            const node_info *t = &C->info[target];
            C->info[id].is_ref = 1;
            /* Where a draw supports the claim, any other line of the same
             * position will do: the file's positions form a closed set that
             * play leaves only for leaves that support the claim (an earlier
             * line is finished or an open ancestor, checked before the end; a
             * later one is checked at the end), and play that stays in it
             * forever repeats, a draw.  A subtree whose refs all name
             * lines inside it is such a set on its own: a 'sym' may copy it
             * (its image is a closed set of the images). */
            if (closed) {
                closed_ref(&C->stack[C->top - 1], target);
                return 0;
            }
            if (t->n < 0)
                return fail(C, "node %s is not a finished subtree that can be referred to", a1);
            for (int i = 0; i < t->n; i++) {
                int d = C->top - 1;
                while (d >= 0 && !game_key_equal(C->stack[d].key, C->need[t->need_at + (uint64_t)i]))
                    d--;
                if (d < 0)
                    return fail(C, "node %s needs a position that is not on this path", a1);
                leaf_needs(C, d);
            }
            C->info[id].n = t->n;  /* a finished subtree too, needing what its target needs */
            C->info[id].need_at = t->need_at;
            return 0;
        }
        if (C->proven != C->advantage)
            return fail(C, "a repetition is a draw and cannot support this claim%s", "");
        int d = 0;
        while (d < C->top && C->stack[d].id != target)
            d++;
        if (d == C->top)
            return fail(C, "node %s is not on the path", a1);
        leaf_needs(C, d);
        return 0;
    }
    if (strcmp(kind, "node") != 0)
        return fail(C, "unknown kind '%s'", kind);
    frame *f = &C->stack[C->top++];
    f->s = s;
    f->key = key;
    f->id = id;
    f->children = 0;
    f->refs = 0;
    f->ref_lo = UINT64_MAX;
    f->ref_hi = 0;
    f->moves = game_moves(C->g, &s, f->move);
    memset(f->seen, 0, sizeof f->seen);
    f->need_all = (game_to_move(C->g, &s) == C->prover) != C->proven;
    return 0;
}

/* Finishes the proof in C: closes its open nodes and appends its summary. */
static int finish_proof(checker *C, const char *spec, const char *pos, const char *result, char *summary, size_t slen)
{
    while (C->top > 0)
        if (close_frame(C) != 0)
            return -1;
    if (C->ninfo == 0)
        return fail(C, "no proof tree%s", "");
    for (uint64_t i = 0; i < C->nfwd; i++) {
        const forward_ref *f = &C->fwd[i];
        char id[32];
        snprintf(id, sizeof id, "%llu", (unsigned long long)f->to);
        if (f->to >= C->ninfo)
            return fail(C, "node %s named by a ref is not in the file", id);
        if (!game_key_equal(C->info[f->to].key, C->info[f->from].key))
            return fail(C, "node %s (named by a ref before it) holds another position", id);
        if (C->info[f->to].is_ref)
            return fail(C, "node %s (named by a ref before it) is a ref itself", id);
    }
    if (summary) {
        size_t at = strlen(summary);
        char what[64];
        if (C->score_mode)
            snprintf(what, sizeof what, "finish at least %d ahead", C->target);
        else
            snprintf(what, sizeof what, "%s", C->advantage ? "avoid losing" : "force a win");
        snprintf(summary + at, slen - at, "%s%s %s: 'can %s %s?' %s (%llu nodes)", at ? "; " : "", spec, pos,
                 C->g->ops->player[C->prover], what, result, (unsigned long long)C->ninfo);
    }
    return 0;
}

static void reset(checker *C, game **g)
{
    free(C->stack);
    free(C->info);
    free(C->need);
    free(C->fwd);
    tb_close(C->tb);
    game_close(*g);
    *g = NULL;
    char *err = C->err;
    size_t errlen = C->errlen;
    long line = C->line;
    memset(C, 0, sizeof *C);
    C->err = err;
    C->errlen = errlen;
    C->line = line;
}

int pns_verify_proof(FILE *in, const char *tb_dir, char *summary, size_t slen, char *err, size_t errlen)
{
    checker C;
    memset(&C, 0, sizeof C);
    C.err = err;
    C.errlen = errlen;
    if (summary && slen)
        summary[0] = 0;
    char line[4096], spec[256] = "", pos[GAME_TEXT_MAX] = "", question[32] = "", result[32] = "";
    int version = 0, prover = -1, target = 0, rc = -1;
    game *g = NULL;
    game_state root;
    while (fgets(line, sizeof line, in)) {
        C.line++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        line[strcspn(line, "\r\n")] = 0;
        if (g && strncmp(line, "pnsolve-proof ", 14) == 0) {
            /* the next proof of the same file (e.g. the two bounds of a score) */
            if (finish_proof(&C, spec, pos, result, summary, slen) != 0)
                goto out;
            reset(&C, &g);
            *spec = *pos = *question = *result = 0;
            prover = -1;
        }
        if (!g) {
            if (sscanf(line, "pnsolve-proof %d", &version) == 1 || sscanf(line, "game %255s", spec) == 1 ||
                sscanf(line, "prover %d", &prover) == 1 || sscanf(line, "result %31s", result) == 1)
                continue;
            if (sscanf(line, "question %31s", question) == 1) {
                if (strcmp(question, "score") == 0 && sscanf(line, "question score %d", &target) != 1) {
                    fail(&C, "'question score' needs the target score%s", "");
                    goto out;
                }
                continue;
            }
            if (strncmp(line, "position ", 9) == 0) {
                snprintf(pos, sizeof pos, "%.511s", line + 9);
                continue;
            }
            if (version != 1 || !*spec || !*pos || prover < 0 || prover > 1 || !*question || !*result) {
                fail(&C, "incomplete or unknown header before '%s'", line);
                goto out;
            }
            char why[256];
            if (!(g = game_open(spec, NULL, why, sizeof why)) || game_parse(g, pos, &root, why, sizeof why) != 0) {
                fail(&C, "%s", why);
                goto out;
            }
            C.g = g;
            C.prover = prover;
            C.advantage = strcmp(question, "advantage") == 0;
            C.score_mode = strcmp(question, "score") == 0;
            C.target = target;
            C.proven = strcmp(result, "proven") == 0;
            if ((!C.advantage && !C.score_mode && strcmp(question, "win") != 0) ||
                (!C.proven && strcmp(result, "disproven") != 0)) {
                fail(&C, "bad question or result '%s'", C.advantage ? result : question);
                goto out;
            }
            C.stack = malloc(sizeof *C.stack * 4096);
            C.tb = tb_dir && g->ops->tb && !C.score_mode ? tb_open(g, tb_dir) : NULL;
            if (!C.stack) {
                fail(&C, "out of memory%s", "");
                goto out;
            }
        }
        if (C.top >= 4096) {
            fail(&C, "deeper than 4096 plies%s", "");
            goto out;
        }
        if (check_line(&C, line, &root) != 0)
            goto out;
    }
    if (!g) {
        fail(&C, "no proof tree%s", "");
        goto out;
    }
    if (finish_proof(&C, spec, pos, result, summary, slen) != 0)
        goto out;
    rc = 0;
out:
    reset(&C, &g);
    return rc;
}
