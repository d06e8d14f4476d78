/* pns/proof.c - writes the solution tree of a solved question.
 *
 * The tree is drawn from df-pn's tables: where the table no longer holds a
 * child's value (replaced, or path-dependent and never stored), the child is
 * searched again in the same path context.  A position met again is written
 * as a reference to its first subtree when every earlier position that
 * subtree's repetitions need (at most REFS_KEYS of them) is on the current
 * path: extra positions on the path only add repetitions, which help the
 * side the claim favours.  The format is in the README ("Proof files"). */
#include "dfpn.h"

#include <stdlib.h>
#include <string.h>
#include <uthash.h>

typedef struct {
    game_key key;
    uint64_t id;
    int n;                    /* positions above it that the subtree needs */
    game_key need[REFS_KEYS];
    UT_hash_handle hh;
} written;

typedef struct {
    dfpn D;
    FILE *out;
    int claim_proven;
    uint64_t next_id;
    uint64_t *id_at;          /* node id of each path depth */
    written *done;            /* subtrees that can be referred to */
    int failed;
} writer;

static const char *tb_word(tb_wdl w) { return w == TB_WIN ? "win" : w == TB_LOSS ? "loss" : "draw"; }

/* Does child value c show the claim? */
static int shows(const writer *W, const child_t *c)
{
    return W->claim_proven ? c->pn == 0 : c->dn == 0;
}

/* Bit of path depth d for a node at depth depth (bit i: i+1 plies above). */
static refs_t ref_bit(int depth, int d)
{
    int dist = depth - 1 - d;
    return dist < 63 ? (refs_t)1 << dist : REFS_FAR;
}

/* Writes the subtree of s (reached by move text mv) at path depth depth;
 * returns the earlier positions its repetitions need, relative to it. */
static refs_t write_node(writer *W, const game_state *s, const char *mv, int depth)
{
    pns_search *S = &W->D.S;
    const game *g = S->g;
    if (W->failed)
        return 0;
    uint64_t id = W->next_id++;
    fprintf(W->out, "%d %s ", depth, mv);
    game_result res = game_result_of(g, s);
    if (res != GAME_ONGOING) {
        fputs("end\n", W->out);
        return 0;
    }
    tb_value tv;
    if (S->tb_ok && tb_probe(S->o->tb, s, &tv, S->error, sizeof S->error) == 1) {
        fprintf(W->out, "tb %s %d\n", tb_word(tv.wdl), tv.distance);
        return 0;
    }
    game_key key = game_key_of(g, s);
    int d = path_find(S, key);
    if (d >= 0) {
        fprintf(W->out, "rep %llu\n", (unsigned long long)W->id_at[d]);
        return ref_bit(depth, d);
    }
    written *w;
    HASH_FIND(hh, W->done, &key, sizeof key, w);
    if (w) {
        refs_t refs = 0;
        int i;
        for (i = 0; i < w->n && (d = path_find(S, w->need[i])) >= 0; i++)
            refs |= ref_bit(depth, d);
        if (i == w->n) {
            fprintf(W->out, "ref %llu\n", (unsigned long long)w->id);
            return refs;
        }
    }
    fputs("node\n", W->out);
    game_move mv_list[GAME_MAX_MOVES];
    int n = game_moves(g, s, mv_list);
    int or_node = game_to_move(g, s) == S->prover;
    int need_all = or_node != W->claim_proven;
    W->id_at[depth] = id;
    path_push(S, key);
    refs_t refs = 0;
    int done = 0;
    /* Where one move suffices, order the candidates: a child already known
     * to show the claim on every path first (a game end, a table value or a
     * stored result: a short, closed subtree), then the search's own choice,
     * then the rest, searched again if need be. */
    int order[GAME_MAX_MOVES], m = 0;
    if (!need_all) {
        const tt_entry *e = tt_lookup(&W->D.tt, key);
        int first = e && e->best < n ? e->best : -1;
        for (int pass = 0; pass < 3; pass++)
            for (int i = 0; i < n; i++) {
                int known = 0;
                if (pass == 0) {
                    game_state cs = *s;
                    game_play(g, &cs, mv_list[i]);
                    child_t c;
                    dfpn_child(&W->D, &cs, &c);
                    known = shows(W, &c) && c.refs == 0;
                }
                if ((pass == 0 && known) || (pass == 1 && i == first) || pass == 2) {
                    int dup = 0;
                    for (int j = 0; j < m; j++)
                        dup |= order[j] == i;
                    if (!dup)
                        order[m++] = i;
                }
            }
    } else {
        for (int i = 0; i < n; i++)
            order[m++] = i;
    }
    for (int k = 0; k < m && !W->failed && !(done && !need_all); k++) {
        int i = order[k];
        game_state cs = *s;
        game_play(g, &cs, mv_list[i]);
        child_t c;
        c.move = mv_list[i];
        dfpn_child(&W->D, &cs, &c);
        if (c.pn != 0 && c.dn != 0) {
            dfpn_run(&W->D, &cs, &c);
            if (c.pn != 0 && c.dn != 0) {
                W->failed = 1;
                break;
            }
        }
        if (!shows(W, &c)) {
            if (need_all)
                W->failed = 1;  /* cannot happen when the node was solved */
            continue;
        }
        char text[GAME_TEXT_MAX];
        game_format_move(g, s, mv_list[i], text, sizeof text);
        refs |= write_node(W, &cs, text, depth + 1);
        done = 1;
    }
    path_pop(S);
    if (!done)
        W->failed = 1;
    refs = ((refs & ~REFS_FAR) >> 1) | (refs & REFS_FAR);  /* bit 0 of a child: this node */
    if (!W->failed && !(refs & REFS_FAR) && __builtin_popcountll(refs) <= REFS_KEYS) {
        HASH_FIND(hh, W->done, &key, sizeof key, w);
        if (!w && (w = calloc(1, sizeof *w)) != NULL) {
            w->key = key;
            w->n = REFS_KEYS + 1;
            HASH_ADD(hh, W->done, key, sizeof key, w);
        }
        if (w && w->n > __builtin_popcountll(refs)) {  /* keep the most reusable */
            w->id = id;
            w->n = 0;
            for (int i = 0; i < 63; i++)
                if (refs >> i & 1)
                    w->need[w->n++] = S->path[depth - 1 - i];
        }
    }
    return refs;
}

static int write_proof(const game *g, const game_state *s, const pns_options *o, FILE *out, pns_result *r)
{
    memset(r, 0, sizeof *r);
    pns_options q = *o;
    q.algo = PNS_DFPN;
    writer W;
    memset(&W, 0, sizeof W);
    if (dfpn_init(&W.D, g, s, &q) != 0 || !(W.id_at = malloc(sizeof *W.id_at * PATH_MAX_DEPTH))) {
        r->stopped_by = "memory";
        snprintf(r->error, sizeof r->error, "out of memory");
        return -1;
    }
    pns_search *S = &W.D.S;
    child_t root;
    dfpn_run(&W.D, s, &root);
    r->status = root.pn == 0 ? PNS_PROVEN : root.dn == 0 ? PNS_DISPROVEN : PNS_UNKNOWN;
    r->pn = root.pn;
    r->dn = root.dn;
    int rc = -1;
    if (r->status != PNS_UNKNOWN) {
        char text[GAME_TEXT_MAX];
        game_format(g, s, text, sizeof text);
        W.out = out;
        W.claim_proven = r->status == PNS_PROVEN;
        fprintf(out, "pnsolve-proof 1\ngame %s\nposition %s\nprover %d\nquestion %s\nresult %s\n", g->name, text,
                S->prover, o->question == PNS_WIN ? "win" : "advantage", W.claim_proven ? "proven" : "disproven");
        fputs("# depth move kind: node | end | tb VALUE DISTANCE | rep ID | ref ID (IDs count nodes from 0)\n", out);
        write_node(&W, s, "-", 0);
        if (W.failed && !S->error[0])
            snprintf(S->error, sizeof S->error, "a subtree could not be solved again within the limits");
        rc = W.failed || ferror(out) ? -1 : 0;
        if (rc != 0)
            r->status = PNS_UNKNOWN;
    }
    search_report(S, r);
    written *w, *tmp;
    HASH_ITER(hh, W.done, w, tmp) {
        HASH_DEL(W.done, w);
        free(w);
    }
    free(W.id_at);
    dfpn_free(&W.D);
    return rc;
}

static void proof_job(search_job *j) { j->rc = write_proof(j->g, j->s, j->o, j->out, j->r); }

int pns_write_proof(const game *g, const game_state *s, const pns_options *o, FILE *out, pns_result *r)
{
    search_job j = { proof_job, g, s, o, r, out, -1 };
    search_on_big_stack(&j);
    return j.rc;
}
