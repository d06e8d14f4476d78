/* pwrite/tree.c - writes the solution tree of a solved question.
 *
 * The tree is drawn from df-pn's tables: where the table no longer holds a
 * child's value (replaced, or path-dependent and never stored), the child is
 * searched again in the same path context.  A stored proof found on another
 * path may not hold on this one (one of its positions can be on the current
 * path), so where one move suffices the writer tries the candidates in turn
 * and takes back a subtree that fails.  A position met again is written as a
 * reference to its first subtree when every earlier position that subtree's
 * repetitions need (at most PNS_REFS_KEYS) is on the current path: extra
 * positions on the path only add repetitions, which help the side the claim
 * favours.  Where a draw supports the claim (an advantage proven, a win
 * disproven) every position already written is referred to, wherever it
 * stands: the positions of such a file form a closed set (the claim's side
 * has a listed answer in it, the other side's every move stays in it or
 * ends in a supporting leaf), so play from the root never leaves it but to
 * such a leaf, and play that stays in it forever repeats, a draw.  A tree
 * of repetition lines, exponential in their length, becomes a graph of
 * positions.  Such a closed set is read off the table without a search
 * where the table still holds it (proof_closed.c); this tree writer is for
 * the other claims and the fallback.  The format is in
 * docs/proof-format.md. */
#include "pwrite_int.h"
#include "../util/util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

typedef struct {
    game_key key;
    uint64_t id;              /* NOT_WRITTEN: holds the claim given the closed set, not written yet */
    UT_hash_handle hh;
    uint8_t best;             /* the move that showed it (NOT_WRITTEN entries) */
    uint8_t n;                /* positions above it that the subtree needs */
    game_key need[];
} written;

#define NOT_WRITTEN UINT64_MAX

typedef struct {
    pns_dfpn *D;
    int claim_proven;
    int closed;               /* a draw supports the claim: refer to any written position */
    pns_assume set;           /* closed: what the searches inside the writer may lean on */
    char *buf;                /* the tree so far; a failed subtree is cut off */
    size_t len, cap;
    int oom;
    uint64_t next_id;
    uint64_t *id_at;          /* node id of each path depth */
    written *done;            /* subtrees that can be referred to, and closed-set results */
    uint64_t held;            /* closed-set results not written (yet) */
    written **log;            /* written entries of done in the order they came */
    size_t nlog, caplog;
    proof_tables tables;      /* read by 'tb' leaves (a superset where subtrees were taken back) */
    uint64_t searched, taken_back;  /* pns_proof_report's */
} writer;

enum { OK = 0, FAILS = 1 };  /* FAILS: this subtree does not hold on this path */

static void out_of_memory(writer *W)
{
    W->oom = 1;
    pns_dfpn_stop(W->D);
}

static void emit(writer *W, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = W->buf ? vsnprintf(W->buf + W->len, W->cap - W->len, fmt, ap) : -1;  /* none yet: grow */
        va_end(ap);
        if (n >= 0 && W->len + (size_t)n < W->cap) {
            W->len += (size_t)n;
            return;
        }
        size_t cap = W->cap ? W->cap * 2 : 1 << 20;
        char *b = realloc(W->buf, cap);
        if (!b) {
            out_of_memory(W);
            return;
        }
        W->buf = b;
        W->cap = cap;
    }
}

static written *find(const writer *W, game_key key)
{
    written *w;
    HASH_FIND(hh, W->done, &key, sizeof key, w);
    return w;
}

static written *add(writer *W, game_key key, uint64_t id, int n)
{
    written *w = calloc(1, sizeof *w + sizeof w->need[0] * (size_t)n);
    if (!w) {
        out_of_memory(W);
        return NULL;
    }
    w->key = key;
    w->id = id;
    w->n = (uint8_t)n;
    HASH_ADD(hh, W->done, key, sizeof key, w);
    return w;
}

/* Takes back everything written since a checkpoint.  The closed-set results
 * go too: one of them may lean on a position taken back, or on one of the
 * path whose subtree failed. */
static void rollback(writer *W, size_t len, uint64_t id)
{
    W->len = len;
    W->next_id = id;
    while (W->nlog && W->log[W->nlog - 1]->id >= id) {
        written *w = W->log[--W->nlog];
        HASH_DEL(W->done, w);
        free(w);
    }
    if (!W->held)
        return;
    written *w, *tmp;
    HASH_ITER(hh, W->done, w, tmp)
        if (w->id == NOT_WRITTEN) {
            HASH_DEL(W->done, w);
            free(w);
        }
    W->held = 0;
}

static void remember(writer *W, game_key key, uint64_t id, uint64_t refs)
{
    written *w = find(W, key);
    if (w && w->id != NOT_WRITTEN)
        return;
    game_key need[PNS_REFS_KEYS];
    int n = W->closed ? 0 : pns_dfpn_refs_keys(W->D, refs, need);  /* the node is at S.depth (popped already) */
    if (n < 0)
        return;
    if (W->nlog == W->caplog) {
        size_t cap = W->caplog ? W->caplog * 2 : 1024;
        written **l = realloc(W->log, sizeof *l * cap);
        if (!l) {
            out_of_memory(W);
            return;
        }
        W->log = l;
        W->caplog = cap;
    }
    if (w) {
        w->id = id;  /* a closed-set result, now written */
        W->held--;
    } else if (!(w = add(W, key, id, n))) {
        return;
    }
    if (W->closed)
        pns_dfpn_mark(W->D, key);
    memcpy(w->need, need, sizeof need[0] * (size_t)n);
    W->log[W->nlog++] = w;
}

/* dfpn_closed's hooks: a position written, being written (the path above
 * the search) or shown to hold given those. */
static int set_holds(void *ctx, game_key key) { return find(ctx, key) != NULL; }

static void set_keep(void *ctx, game_key key, int best)
{
    writer *W = ctx;
    written *w;
    if (find(W, key) || !(w = add(W, key, NOT_WRITTEN, 0)))
        return;
    w->best = (uint8_t)best;
    W->held++;
}

static int shows(const writer *W, const pns_child *c) { return W->claim_proven ? c->pn == 0 : c->dn == 0; }

/* Is cs written already, on the path or shown to hold given those?  (Closed
 * files refer to the first two and write the third without a search.) */
static int known(writer *W, const game_state *cs)
{
    game_key key = game_key_of(pns_dfpn_game(W->D), cs);
    return find(W, key) || pns_dfpn_path_find(W->D, key) >= 0;
}

/* The value of child cs in the current path context, searched if need be;
 * 0 when the search stopped first. */
static int child_value(writer *W, const game_state *cs, pns_child *c)
{
    W->set.base = pns_dfpn_depth(W->D);
    pns_dfpn_child(W->D, cs, c);
    if (c->pn != 0 && c->dn != 0) {
        W->searched++;
        pns_dfpn_run(W->D, cs, c);
    }
    return c->pn == 0 || c->dn == 0;
}

/* Does this proof end in 'exact' leaves? */
static int exact_leaves(const pns_dfpn *D)
{
    const pns_options *o = pns_dfpn_options(D);
    return o->question == PNS_SCORE && o->proof_exact_empties > 0 && game_has_solver(pns_dfpn_game(D));
}

/* Writes the subtree of s (reached by move text mv) at path depth depth;
 * OK or FAILS, with the earlier positions its repetitions need in *refs. */
/* Writes s's line when it is a leaf (end, exact, tb, rep, ref) and
 * answers 1; else 0, with s's key and its entry of W->done (or NULL). */
static int leaf_line(writer *W, const game_state *s, int depth, game_key *key, written **w, uint64_t *refs_out)
{
    pns_dfpn *D = W->D;
    const game *g = pns_dfpn_game(D);
    const pns_options *o = pns_dfpn_options(D);
    if (game_result_of(g, s) != GAME_ONGOING) {
        emit(W, "end\n");
        return 1;
    }
    if (depth > 0 && exact_leaves(D) && game_empties(g, s) <= o->proof_exact_empties) {
        emit(W, "exact\n");  /* the checker searches it; it shows the claim, or we were not called */
        return 1;
    }
    tb_value tv;
    if (pns_dfpn_tables(D) && tb_probe(o->tb, s, &tv, pns_dfpn_error(D), PNS_ERROR_MAX) == 1) {
        emit(W, "tb %s %d\n", proof_tb_word(tv.wdl), tv.distance);
        proof_tables_add(&W->tables, g, s);
        return 1;
    }
    *key = game_key_of(g, s);
    int d = pns_dfpn_path_find(D, *key);
    if (d >= 0) {
        emit(W, "rep %llu\n", (unsigned long long)W->id_at[d]);
        *refs_out = pns_dfpn_refs_at(D, d);
        return 1;
    }
    *w = find(W, *key);
    if (*w && (*w)->id != NOT_WRITTEN && (W->closed || pns_dfpn_refs_of_keys(D, (*w)->need, (*w)->n, refs_out) == 0)) {
        emit(W, "ref %llu\n", (unsigned long long)(*w)->id);
        if (W->closed)
            *refs_out = PNS_REFS_FAR;  /* leans on a line outside: no symmetric image of it */
        return 1;
    }
    return 0;
}

/* The order in which to try the n moves of s into order[]: where one move
 * suffices, a move into a leaf that shows the claim first, else the
 * search's own choice; in a closed set a move to a position already in it
 * before either (a line less). */
static void move_order(writer *W, const game_state *s, game_key key, const written *w, const game_move *mv_list, int n,
                       int need_all, int *order)
{
    const game *g = pns_dfpn_game(W->D);
    int held = w && w->id == NOT_WRITTEN;  /* its best move is the one the writer's search found */
    pns_entry e;
    int stored = !need_all && !held && pns_dfpn_entry(W->D, key, &e);
    int first = need_all ? 0 : held ? w->best : stored ? e.best : 0;
    /* a move into a leaf that shows the claim (the game's end, a table's
     * value) before the search's choice: df-pn's proofs wander (a line of
     * 2,315 plies in a seven-piece Jungle win whose captures all reach
     * tables), and the longer the path, the more of its positions a reply
     * can repeat, a subtree then taken back */
    for (int i = 0; !need_all && !held && i < n; i++) {
        game_state cs = *s;
        game_play(g, &cs, mv_list[i]);
        pns_child c;
        if (pns_dfpn_leaf(W->D, &cs, &c.pn, &c.dn) && shows(W, &c)) {
            first = i;
            break;
        }
    }
    for (int i = 0; W->closed && !need_all && i < n; i++) {
        game_state cs = *s;
        game_play(g, &cs, mv_list[i]);
        if (known(W, &cs)) {
            first = i;
            break;
        }
    }
    if (first >= n)
        first = 0;
    int m = 0;
    order[m++] = first;
    for (int i = 0; i < n; i++)
        if (i != first)
            order[m++] = i;
}

/* Where every move must show the claim: does each child show it in this
 * path context (searched if need be)?  All are asked before any subtree is
 * written.  A proof df-pn stored on another path can reach a position of
 * this one, a repetition that fails the claim; asked in turn, a node failed
 * only after its earlier children's subtrees were written, and those were
 * taken back (a seven-piece Jungle win: 34.5 M of 34.6 M lines, its
 * writer's path 435 plies deep).  1 when they do, with their values in
 * *val where (*have)[i] (arrays the caller frees; on the heap, as the
 * writer's recursion is as deep as its longest line); 0 when one does not. */
static int children_show(writer *W, const game_state *s, const game_move *mv_list, int n, pns_child **val,
                         uint8_t **have)
{
    const game *g = pns_dfpn_game(W->D);
    *val = malloc(sizeof **val * ((size_t)n + 1));
    *have = calloc((size_t)n + 1, 1);
    if (!*val || !*have) {
        out_of_memory(W);  /* stops the writer: its loop writes nothing */
        return 1;
    }
    for (int i = 0; i < n; i++) {
        game_state cs = *s;
        game_play(g, &cs, mv_list[i]);
        if (W->closed && known(W, &cs))
            continue;
        if (!child_value(W, &cs, &(*val)[i]) || !shows(W, &(*val)[i])) {
            free(*val);
            free(*have);
            *val = NULL;
            *have = NULL;
            return 0;
        }
        (*have)[i] = 1;  /* a value searched in this path context: not searched again */
    }
    return 1;
}

static int write_node(writer *W, const game_state *s, const char *mv, int depth, uint64_t *refs_out)
{
    pns_dfpn *D = W->D;
    const game *g = pns_dfpn_game(D);
    *refs_out = 0;
    if (pns_dfpn_stopped(D))
        return FAILS;
    uint64_t id = W->next_id++;
    emit(W, "%d %s ", depth, mv);
    game_key key = { 0, 0 };
    written *w = NULL;
    if (leaf_line(W, s, depth, &key, &w, refs_out))
        return OK;
    emit(W, "node\n");
    game_move mv_list[GAME_MAX_MOVES];
    int n = game_moves(g, s, mv_list);
    int need_all = (game_to_move(g, s) == pns_dfpn_prover(D)) != W->claim_proven;
    int order[GAME_MAX_MOVES], m = n;
    move_order(W, s, key, w, mv_list, n, need_all, order);
    W->id_at[depth] = id;
    pns_dfpn_path_push(D, key);
    pns_child *val = NULL;
    uint8_t *have = NULL;
    if (need_all && !children_show(W, s, mv_list, n, &val, &have)) {
        pns_dfpn_path_pop(D);
        return FAILS;
    }
    uint64_t refs = 0;
    /* children written in full, by symmetric key: a later image is a 'sym' line */
    game_key *sym_key = need_all && game_has_symmetry(g) ? malloc(sizeof *sym_key * (size_t)n) : NULL;
    uint64_t *sym_id = sym_key ? malloc(sizeof *sym_id * (size_t)n) : NULL;
    int nsym = 0;
    int status = need_all ? OK : FAILS;
    for (int k = 0; k < m && !pns_dfpn_stopped(D); k++) {
        int i = order[k];
        game_state cs = *s;
        game_play(g, &cs, mv_list[i]);
        game_key sk = { 0, 0 };
        if (sym_id && game_result_of(g, &cs) == GAME_ONGOING) {  /* a game's end is its own line */
            sk = game_symmetric_key(g, &cs);
            int j = 0;
            while (j < nsym && !game_key_equal(sym_key[j], sk))
                j++;
            if (j < nsym) {
                char text[GAME_TEXT_MAX];
                game_format_move(g, s, mv_list[i], text, sizeof text);
                W->next_id++;
                emit(W, "%d %s sym %llu\n", depth + 1, text, (unsigned long long)sym_id[j]);
                continue;
            }
        }
        pns_child c;
        if (W->closed && known(W, &cs)) {
            /* written already or on the path: a ref or a rep, no search */
        } else if (have && have[i]) {
            c = val[i];
        } else if (!child_value(W, &cs, &c)) {
            break;
        } else if (!shows(W, &c)) {
            if (need_all) {
                status = FAILS;
                break;
            }
            continue;
        }
        char text[GAME_TEXT_MAX];
        game_format_move(g, s, mv_list[i], text, sizeof text);
        size_t len0 = W->len;
        uint64_t id0 = W->next_id;
        uint64_t r;
        if (write_node(W, &cs, text, depth + 1, &r) == OK) {
            refs |= r;
            if (sym_id && r == 0) {
                sym_key[nsym] = sk;
                sym_id[nsym++] = id0;
            }
            if (!need_all) {
                status = OK;
                break;
            }
        } else {
            W->taken_back += W->next_id - id0;
            rollback(W, len0, id0);
            if (need_all) {
                status = FAILS;
                break;
            }
        }
    }
    free(sym_key);
    free(sym_id);
    free(val);
    free(have);
    pns_dfpn_path_pop(D);
    if (pns_dfpn_stopped(D))
        status = FAILS;
    refs = pns_refs_up(refs);
    if (status == OK)
        remember(W, key, id, refs);
    *refs_out = refs;
    return status;
}

int pwrite_tree(pns_dfpn *D, const game_state *s, const pns_child *answer, pns_result *r, void *ctx)
{
    FILE *out = ctx;
    const game *g = pns_dfpn_game(D);
    const pns_options *o = pns_dfpn_options(D);
    char *error = pns_dfpn_error(D);
    memset(r, 0, sizeof *r);
    writer W;
    memset(&W, 0, sizeof W);
    W.D = D;
    if (!(W.id_at = malloc(sizeof *W.id_at * PNS_MAX_DEPTH))) {
        r->stopped_by = "memory";
        snprintf(r->error, sizeof r->error, "out of memory");
        return -1;
    }
    if (o->proof_seconds > 0)  /* a writer that will not finish is cut short: the split goes a move deeper */
        pns_dfpn_deadline(D, util_clock() + o->proof_seconds);
    pns_dfpn_pin(D);  /* the table keeps its size while the writer searches in it */
    r->status = answer->pn == 0 ? PNS_PROVEN : answer->dn == 0 ? PNS_DISPROVEN : PNS_UNKNOWN;
    r->pn = answer->pn;
    r->dn = answer->dn;
    if (r->status != PNS_UNKNOWN)
        pns_dfpn_line(D, s, r);  /* before the writer: its best move helps a split where the proof fails */
    int rc = -1;
    pns_proof_report rep = { 0 };
    if (r->status != PNS_UNKNOWN) {
        char text[GAME_TEXT_MAX], question[32];
        game_format(g, s, text, sizeof text);
        W.claim_proven = r->status == PNS_PROVEN;
        /* a closed set where a draw supports the claim in a game that can
         * cycle (where it cannot, a tree is one already) */
        W.closed = W.claim_proven == pns_draw_proves(o) && !game_has_solver(g);
        if (o->question == PNS_SCORE)
            snprintf(question, sizeof question, "score %d", o->score_target);
        else
            snprintf(question, sizeof question, "%s", o->question == PNS_WIN ? "win" : "advantage");
        proof_claim claim = { g, text, pns_dfpn_prover(D), question, W.claim_proven };
        /* a closed set from the table first; searching again where it does not hold the root */
        int from_table = W.closed && o->ghi == PNS_GHI_SAFE ? pwrite_closed(D, s, &claim, out, &rep) : 1;
        rep.closed = from_table == 0;
        if (from_table <= 0) {
            rc = from_table;
        } else {
            if (W.closed && o->ghi == PNS_GHI_SAFE) {
                W.set = (pns_assume){ set_holds, set_keep, &W, 0 };
                pns_dfpn_assume(D, &W.set);
            }
            uint64_t refs;
            if (write_node(&W, s, "-", 0, &refs) == OK && !W.oom &&
                proof_header_write(out, &claim, o->tb, &W.tables, NULL, error, PNS_ERROR_MAX) == 0)
                rc = fwrite(W.buf, 1, W.len, out) == W.len && !ferror(out) ? 0 : -1;
        }
        const char *stopped_by = pns_dfpn_stopped_by(D);
        if (rc != 0 && ferror(out) && !error[0])
            snprintf(error, PNS_ERROR_MAX, "cannot write the proof: %s", strerror(errno));
        if (rc != 0 && !error[0] && pns_dfpn_stopped(D) && stopped_by)
            snprintf(error, PNS_ERROR_MAX, "the proof could not be completed: the search stopped (%s)", stopped_by);
        if (rc != 0 && !error[0])
            snprintf(error, PNS_ERROR_MAX, "%s",
                     W.oom ? "out of memory for the proof"
                     : pns_dfpn_stopped(D) ? "the proof tree could not be completed within the limits"
                                           : "the proof could not be completed or written");
    }
    pns_dfpn_assume(D, NULL);
    pns_dfpn_set_pinned(D, 0);
    pns_dfpn_deadline(D, 0);  /* the writer's limit is not the next search's (a score search writes two) */
    pns_dfpn_report(D, r);
    rep.searched = W.searched;
    rep.taken_back = W.taken_back;
    r->proof = rep;
    rollback(&W, 0, 0);
    free(W.log);
    free(W.buf);
    free(W.id_at);
    return rc;
}

/* pwrite_proof's hook, with where its answer goes. */
typedef struct {
    FILE *out;
    int rc;
} tree_job;

static int tree_hook(pns_dfpn *D, const game_state *s, const pns_child *answer, pns_result *r, void *ctx)
{
    tree_job *j = ctx;
    return j->rc = pwrite_tree(D, s, answer, r, j->out);
}

int pwrite_proof(const game *g, const game_state *s, const pns_options *o, FILE *out, pns_result *r)
{
    pns_options q = *o;
    q.algo = PNS_DFPN;
    tree_job j = { out, -1 };
    q.solved = tree_hook;  /* threads solve it together; the lead alone writes the proof from the shared table */
    q.solved_ctx = &j;
    pns_solve(g, s, &q, r);
    return j.rc;
}

int pwrite_score(const game *g, const game_state *s, const pns_options *o, int lo, int hi, int *score, pns_result *r,
                 FILE *out)
{
    pns_options q = *o;
    q.solved = out ? pwrite_tree : NULL;  /* NULL: no proof, pns_score's search alone */
    q.solved_ctx = out;
    return pns_score(g, s, &q, lo, hi, score, r);
}
