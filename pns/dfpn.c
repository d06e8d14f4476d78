/* pns/dfpn.c - depth-first proof-number search (Nagai 2002) with the 1+epsilon
 * trick (Pawlewicz & Lew 2007) and repetition-depth tagging for the Graph
 * History Interaction problem.
 *
 * GHI (repetition tagging, extended): a child that repeats a position of the
 * current path is a draw, tagged with which earlier position it repeats.  A
 * solved result carries the set of earlier positions it depends on (the union
 * over all children of a node that needs them all; the chosen child of a
 * node that needs one); the node's own position drops out of the set when the
 * result reaches it.  An empty set: the result holds on every path and goes
 * to the transposition table.  A small set (at most REFS_KEYS positions): the
 * result holds on every path that contains those positions, because extra
 * positions on the path only add repetitions, and a repetition helps the side
 * the result favours; it goes, with the positions' exact keys, to a second
 * table and is reused only where all of them are on the path.  Anything else
 * goes up to the parent in the parent's frame and is not stored.  Unsolved
 * pn/dn are always stored: they only guide.
 *
 * Each MID call keeps its children's values in a frame of its own, so a
 * path-dependent result is not lost between two selections of the parent.
 */
#include "dfpn.h"
#include "../util/util.h"

#define XXH_INLINE_ALL
#include <xxhash.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static child_t *frame_at(dfpn *D, int depth)
{
    if (depth >= D->frames_cap) {
        int cap = D->frames_cap ? D->frames_cap * 2 : 64;
        while (cap <= depth)
            cap *= 2;
        child_t **f = realloc(D->frames, sizeof *f * cap);
        if (!f)
            return NULL;
        memset(f + D->frames_cap, 0, sizeof *f * (cap - D->frames_cap));
        D->frames = f;
        D->frames_cap = cap;
    }
    if (!D->frames[depth]) {
        D->frames[depth] = malloc(sizeof(child_t) * GAME_MAX_MOVES);
        D->S.bytes += sizeof(child_t) * GAME_MAX_MOVES;
    }
    return D->frames[depth];
}

/* The path-dependent table, about cond_bytes.  Games without repetitions
 * never store in it, so its pages stay untouched: a first touch costs a
 * page fault, tens of microseconds a page on a virtual machine. */
static int cond_init(dfpn *D, size_t cond_bytes)
{
    D->cond_buckets = 1;
    while (D->cond_buckets * 4 * sizeof(cond_entry) <= cond_bytes)
        D->cond_buckets *= 2;
    D->cond = util_alloc_big(D->cond_buckets * 2 * sizeof(cond_entry));
    D->S.bytes += D->cond_buckets * 2 * sizeof(cond_entry);
    return D->cond ? 0 : -1;
}

/* D emptied for a search of o's question.  A lone score question asks its
 * own target: solved entries are read against it (a tag of 0 hid every
 * proof of a target below 0); the score search moves it per question. */
static void dfpn_clear(dfpn *D, const pns_options *o)
{
    memset(D, 0, sizeof *D);
    D->tag = o->question == PNS_SCORE ? o->score_target : 0;
}

int pns_dfpn_init(dfpn *D, const game *g, const game_state *root, const pns_options *o)
{
    dfpn_clear(D, o);
    if (pns_search_init(&D->S, g, root, o, NULL) != 0)
        return -1;
    size_t mem = o->memory ? o->memory : (size_t)256 << 20;
    D->tt = &D->own_tt;
    /* the rest to the table: the path-dependent table and the solved
     * positions kept take at most an eighth each, and S.bytes is the
     * endgame solver's table, so that the whole stays within --memory */
    size_t others = mem / 4 + D->S.bytes;
    if (pns_tt_init(D->tt, mem > others ? mem - others : 0) != 0) {
        pns_search_free(&D->S);
        return -1;
    }
    if (cond_init(D, mem / 8) != 0 || (o->keep_solved && pns_tt_keep_solved(D->tt, mem / 8) != 0)) {
        pns_tt_free(D->tt);
        pns_search_free(&D->S);
        return -1;
    }
    D->S.bytes += pns_tt_bytes_used(D->tt);
    return 0;
}

/* The table doubled (see tt.h), the memory counted as it grows. */
static void dfpn_grow(dfpn *D)
{
    size_t before = pns_tt_bytes_used(D->tt);
    pns_tt_grow(D->tt);
    D->S.bytes += pns_tt_bytes_used(D->tt) - before;
}

void pns_dfpn_pin(dfpn *D)
{
    /* A table that filled during the search left the writer none: its
     * searches of evicted positions then evicted each other for hours (a
     * full 282 MB table of a 6 GB --memory, in an Ostle split).  An eighth:
     * the touch costs at most about thrice what the search's growth did. */
    tt_table *t = D->tt;
    while (t == &D->own_tt && t->doublings > 0 && __atomic_load_n(&t->used, __ATOMIC_RELAXED) * 8 >= t->buckets * TT_WAYS)
        dfpn_grow(D);
    D->tt_pinned = 1;
}

int pns_dfpn_set_pinned(dfpn *D, int pinned)
{
    int was = D->tt_pinned;
    D->tt_pinned = pinned;
    return was;
}

void pns_dfpn_assume(dfpn *D, pns_assume *a)
{
    D->assume = a;
}

int pns_dfpn_init_shared(dfpn *D, const game *g, const game_state *root, const pns_options *o, tt_table *tt,
                         size_t cond_bytes, game_solver *solver)
{
    dfpn_clear(D, o);
    if (pns_search_init(&D->S, g, root, o, solver) != 0)
        return -1;
    D->tt = tt;
    if (cond_init(D, cond_bytes) != 0) {
        pns_search_free(&D->S);
        return -1;
    }
    return 0;
}

void pns_dfpn_free(dfpn *D)
{
    for (int i = 0; i < D->frames_cap; i++)
        free(D->frames[i]);
    free(D->frames);
    if (D->tt == &D->own_tt)
        pns_tt_free(D->tt);
    util_free_big(D->cond, D->cond_buckets * 2 * sizeof(cond_entry));
    pns_search_free(&D->S);
}

void pns_dfpn_cond_clear(dfpn *D)
{
    if (D->cond_stored)
        memset(D->cond, 0, D->cond_buckets * 2 * sizeof(cond_entry));
    D->cond_stored = 0;
}

static cond_entry *cond_bucket(const dfpn *D, game_key key)
{
    return D->cond + (game_key_hash(key) >> 20 & (D->cond_buckets - 1)) * 2;
}

/* A stored path-dependent value of key whose positions are all on the path:
 * 1 with its references (relative to a node one below the path's end). */
static int cond_lookup(dfpn *D, game_key key, int *proven, refs_t *refs)
{
    cond_entry *b = cond_bucket(D, key);
    for (int w = 0; w < 2; w++) {
        cond_entry *e = &b[w];
        if (e->used && e->lo == key.lo && e->hi == key.hi && refs_of_keys(&D->S, e->need, e->n, refs) == 0) {
            *proven = e->proven;
            return 1;
        }
    }
    return 0;
}

/* The slot for key's path-dependent value: its own, a free one, or the
 * older of the two (the newer moves over). */
static cond_entry *cond_slot(dfpn *D, game_key key)
{
    cond_entry *b = cond_bucket(D, key);
    if (!b[0].used || (b[0].lo == key.lo && b[0].hi == key.hi))
        return &b[0];
    b[0] = b[1];  /* keep the newer of the two */
    return &b[1];
}

/* Keeps a solved value of the node at the path's end whose references refs
 * (relative to that node) name few enough positions; 0 if it could. */
static int cond_store(dfpn *D, game_key key, int proven, refs_t refs)
{
    game_key need[REFS_KEYS];
    int n = refs_keys(&D->S, refs, need);  /* the node is at S->depth (popped already) */
    if (n < 0)
        return -1;
    cond_entry *e = cond_slot(D, key);
    D->cond_stored++;
    memset(e, 0, sizeof *e);
    e->lo = key.lo;
    e->hi = key.hi;
    e->proven = (uint8_t)proven;
    e->used = 1;
    e->n = (uint8_t)n;
    memcpy(e->need, need, sizeof need[0] * (size_t)n);
    return 0;
}

/* The entry as an answer to the current question (also an entry of another
 * score target that implies this one). */
static const tt_entry *tt_view(const dfpn *D, const tt_entry *e)
{
    return e && pns_tt_answers(e, D->tag) ? e : NULL;
}

const tt_entry *pns_dfpn_lookup(const dfpn *D, game_key key) { return tt_view(D, pns_tt_lookup_kept(D->tt, key)); }

/* As pns_dfpn_lookup, safe beside other threads: the entry copied to *e. */
static const tt_entry *dfpn_get(const dfpn *D, game_key key, tt_entry *e)
{
    return tt_view(D, pns_tt_get(D->tt, key, e) ? e : NULL);
}

/* Virtual loss: threads that share a table mark the positions of their
 * paths, and a child another thread is searching looks worse to the rest,
 * so that they spread over the tree instead of following each other. */
static inline uint8_t *busy_of(const dfpn *D, game_key key) { return &D->busy[game_key_hash(key) >> 24 & D->busy_mask]; }
static inline void busy_enter(const dfpn *D, game_key key)
{
    if (D->busy)
        __atomic_add_fetch(busy_of(D, key), 1, __ATOMIC_RELAXED);
}
static inline void busy_leave(const dfpn *D, game_key key)
{
    if (D->busy)
        __atomic_sub_fetch(busy_of(D, key), 1, __ATOMIC_RELAXED);
}
/* The number a child is chosen by: its own, raised by half when another
 * thread is below it (solved and infinite numbers stay). */
static inline uint32_t chosen_by(const dfpn *D, const child_t *c, uint32_t v)
{
    if (!D->busy || v == 0 || v >= PNS_INF || !__atomic_load_n(busy_of(D, c->key), __ATOMIC_RELAXED))
        return v;
    uint64_t w = (uint64_t)v + v / 2 + 1;
    return w >= PNS_INF ? PNS_INF - 1 : (uint32_t)w;
}

/* pns_dfpn_child of a child that is not a leaf (c->key and c->refs set). */
static void live_child(dfpn *D, const game_state *cs, child_t *c)
{
    pns_search *S = &D->S;
    /* the parent is the last position of the path: bit 0 */
    int d = pns_path_find(S, c->key);
    if (d >= 0) {
        pns_search_repetition(S, &c->pn, &c->dn);
        c->refs = D->assume && d < D->assume->base ? REFS_SET : refs_bit(S, d);
        return;
    }
    tt_entry copy;
    const tt_entry *e = dfpn_get(D, c->key, &copy);
    if (e && (e->pn == 0 || e->dn == 0)) {
        c->pn = e->pn;
        c->dn = e->dn;
        c->tag = e->tag;
        return;
    }
    if (D->assume && e && (e->flags & TT_MARK) && D->assume->holds(D->assume->ctx, c->key)) {
        pns_search_repetition(S, &c->pn, &c->dn);  /* holds the claim as a repetition would */
        c->refs = REFS_SET;
        return;
    }
    int proven;
    if (e && (e->flags & TT_COND) && cond_lookup(D, c->key, &proven, &c->refs)) {
        c->pn = proven ? 0 : PNS_INF;
        c->dn = proven ? PNS_INF : 0;
        return;
    }
    if (e) {
        c->pn = e->pn;
        c->dn = e->dn;
        return;
    }
    pns_search_initial(S, cs, &c->pn, &c->dn);
}

void pns_dfpn_child(dfpn *D, const game_state *cs, child_t *c)
{
    c->refs = 0;
    c->tag = (int16_t)D->tag;
    c->key = game_key_of(D->S.g, cs);
    if (!pns_search_leaf(&D->S, cs, &c->pn, &c->dn))
        live_child(D, cs, c);
}

/* pns_dfpn_child of each child of st (moves mv[0..n)) into c, the tables
 * asked about all of them at once so that their misses overlap (an Ostle
 * search with tables spent about a third of its time in probes, one miss
 * after another).  Not inlined: its arrays would stay on the stack for
 * every ply of pns_dfpn_mid's recursion. */
static __attribute__((noinline)) void table_children(dfpn *D, const game_state *st, const game_move *mv, int n, child_t *c)
{
    game_state cs[GAME_MAX_MOVES];
    uint8_t leaf[GAME_MAX_MOVES];
    uint32_t pn[GAME_MAX_MOVES], dn[GAME_MAX_MOVES];
    pns_search_leaves(&D->S, st, mv, n, cs, leaf, pn, dn);
    for (int i = 0; i < n; i++) {
        c[i].move = mv[i];
        c[i].refs = 0;
        c[i].tag = (int16_t)D->tag;
        c[i].key = game_key_of(D->S.g, &cs[i]);
        c[i].pn = pn[i];
        c[i].dn = dn[i];
        if (!leaf[i])
            live_child(D, &cs[i], &c[i]);
    }
}

/* pn/dn of a node from its children. */
static void combine(const child_t *c, int n, int or_node, int weak, uint32_t *pn, uint32_t *dn)
{
    pn_fold f = pn_fold_start();
    for (int i = 0; i < n; i++)
        pn_fold_child(&f, or_node, c[i].pn, c[i].dn);
    pn_fold_end(&f, or_node, weak, pn, dn);
}

/* The furthest score target a solved node's value holds for, from its
 * children solved the same way: an OR node is worth its best child, an AND
 * node its worst, so a proof or disproof carries the children's furthest
 * common bound (later questions of the score search read it instead of
 * searching the node again). */
static int solved_tag(const child_t *c, int n, int or_node, int proven, int tag)
{
    int t = or_node ? INT16_MIN : INT16_MAX;
    for (int i = 0; i < n; i++)
        if (proven ? c[i].pn == 0 : c[i].dn == 0)
            t = or_node ? (c[i].tag > t ? c[i].tag : t) : (c[i].tag < t ? c[i].tag : t);
    return t == INT16_MIN || t == INT16_MAX ? tag : t;
}

/* The references of a solved node (relative to it) and the child that
 * shows its value. */
static refs_t solved_refs(const child_t *c, int n, int or_node, int proven, int *best)
{
    /* a node needs all its children when it is an OR node disproven or an
     * AND node proven; otherwise one child suffices and we take the one that
     * depends on the fewest and nearest positions */
    int need_all = or_node != proven;
    refs_t refs = 0;
    for (int i = 0; i < n; i++) {
        int shows = proven ? c[i].pn == 0 : c[i].dn == 0;
        if (need_all)
            refs |= c[i].refs;
        else if (shows && (*best < 0 || c[i].refs < refs)) {
            refs = c[i].refs;
            *best = i;
        }
    }
    return refs_up(refs);
}

static int ckpt_save(dfpn *D, const game_state *s);

/* Keeps the first of the moves of s whose results are symmetric images of
 * each other (the same value): at the root of a symmetric start, where a
 * disproof would otherwise search every image again.  Returns the count. */
static int distinct_moves(const game *g, const game_state *s, game_move *mv, uint8_t *orig, int n)
{
    game_key seen[GAME_MAX_MOVES];
    int m = 0;
    for (int i = 0; i < n; i++) {
        game_state c = *s;
        game_play(g, &c, mv[i]);
        game_key k = game_symmetric_key(g, &c);
        int j = 0;
        while (j < m && !game_key_equal(seen[j], k))
            j++;
        if (j < m)
            continue;
        seen[m] = k;
        mv[m] = mv[i];
        orig[m++] = orig[i];
    }
    return m;
}

/* What a node does before its own work: a checkpoint when one is due, and
 * the table grown when it wants room (here, where the search holds no
 * pointer into it; the lead grows it, a helper's is the lead's, the others
 * waiting). */
static inline void mid_upkeep(dfpn *D)
{
    pns_search *S = &D->S;
    if (S->checkpoint_due && D->root_state) {
        S->checkpoint_due = 0;
        /* the table is saved whole while no other member writes it */
        if (S->team)
            pns_team_pause(S->team);
        int bad = ckpt_save(D, D->root_state) != 0;
        if (S->team)
            pns_team_resume(S->team);
        if (bad) {
            S->stopped = 1;
            S->stopped_by = "checkpoint error";
        }
    }
    if (D->tt == &D->own_tt && !D->tt_pinned && pns_tt_wants_room(D->tt)) {
        if (S->team)
            pns_team_pause(S->team);
        dfpn_grow(D);
        if (S->team)
            pns_team_resume(S->team);
    }
}

/* 1 when the exact solver decided st (self and the table set), else 0 with
 * self marked busy. */
static inline int mid_exact(dfpn *D, const game_state *st, child_t *self)
{
    pns_search *S = &D->S;
    uint64_t before = S->endgame_nodes;
    int target;
    /* busy from here on, a leaf's solve included: another thread would
     * otherwise choose the leaf this one is solving and solve it again */
    busy_enter(D, self->key);
    if (!pns_search_exact(S, st, &self->pn, &self->dn, &target))
        return 0;
    busy_leave(D, self->key);
    if (S->stopped)
        return 1;  /* the solver was stopped: nothing to keep */
    uint64_t work = S->endgame_nodes - before;
    self->refs = 0;
    self->tag = (int16_t)target;
    pns_tt_store(D->tt, self->key, self->pn, self->dn, work > UINT32_MAX ? UINT32_MAX : (uint32_t)work, 0, target);
    return 1;
}

/* st's children into c (their numbers from the table, the tables or new),
 * orig[i] the move number game_moves gives c[i]'s move (the table's best
 * move): their count. */
static inline int mid_children(dfpn *D, const game_state *st, int depth, child_t *c, uint8_t *orig)
{
    pns_search *S = &D->S;
    const game *g = S->g;
    game_move mv[GAME_MAX_MOVES];
    int n = game_moves(g, st, mv);
    for (int i = 0; i < n; i++)
        orig[i] = (uint8_t)i;
    /* Only where positions cannot recur: elsewhere two image children can
     * differ through a repetition of the (not symmetric) root. */
    if (depth == 0 && game_has_symmetry(g) && game_has_solver(g))
        n = distinct_moves(g, st, mv, orig, n);
    /* all the children's buckets are fetched at once, then read */
    for (int i = 0; i < n; i++) {
        game_state cs = *st;
        game_play(g, &cs, mv[i]);
        pns_tt_prefetch(D->tt, game_key_of(g, &cs));
    }
    if (S->tb_ok) {
        table_children(D, st, mv, n, c);
    } else {
        for (int i = 0; i < n; i++) {
            game_state cs = *st;
            game_play(g, &cs, mv[i]);
            c[i].move = mv[i];
            pns_dfpn_child(D, &cs, &c[i]);
        }
    }
    return n;
}

/* The most-proving child of c[0..n) and its thresholds: cth[0] for the
 * number the node minimises (1+epsilon over the runner-up's), cth[1] for the
 * other (what the node's threshold leaves it). */
static inline int mid_choose(dfpn *D, const child_t *c, int n, int or_node, uint32_t thpn, uint32_t thdn, uint32_t pn,
                             uint32_t dn, uint32_t *cth)
{
    uint32_t v1 = PNS_INF, v2 = PNS_INF;
    int best = -1;
    for (int i = 0; i < n; i++) {
        uint32_t v = chosen_by(D, &c[i], or_node ? c[i].pn : c[i].dn);
        if (v < v1) {
            v2 = v1;
            v1 = v;
            best = i;
        } else if (v < v2) {
            v2 = v;
        }
    }
    uint64_t grow = v2 >= PNS_INF ? PNS_INF : (uint64_t)ceil(v2 * (1.0 + D->S.o->epsilon));
    uint64_t lim = v2 >= PNS_INF ? PNS_INF : (grow > (uint64_t)v2 + 1 ? grow : (uint64_t)v2 + 1);
    cth[0] = clamp_th(lim < (or_node ? thpn : thdn) ? lim : (or_node ? thpn : thdn));
    /* Chosen over a child that another thread is below, it may already be
     * past the node's threshold: it still gets one more than its number,
     * or the node would call it again and again for nothing. */
    uint32_t own = or_node ? c[best].pn : c[best].dn;
    if (D->busy && cth[0] <= own)
        cth[0] = clamp_th((uint64_t)own + 1);
    cth[1] = or_node ? dfpn_sum_threshold(thdn, dn, c[best].dn) : dfpn_sum_threshold(thpn, pn, c[best].pn);
    return best;
}

/* Stores the node's numbers (solved: with the earlier positions its value
 * needs, or in the set the hook's owner has the search assume: pns_assume). */
static inline void mid_store(dfpn *D, child_t *self, const child_t *c, int n, int or_node, uint32_t pn, uint32_t dn,
                             int best, const uint8_t *orig, uint64_t work)
{
    pns_search *S = &D->S;
    self->pn = pn;
    self->dn = dn;
    self->refs = 0;
    /* an open entry answers its own question only */
    self->tag = (int16_t)(pn == 0 || dn == 0 ? solved_tag(c, n, or_node, pn == 0, D->tag) : D->tag);
    if (pn == 0 || dn == 0) {
        int chosen = -1;
        refs_t refs = solved_refs(c, n, or_node, pn == 0, &chosen);
        if (chosen >= 0)
            best = chosen;
        if (refs && S->o->ghi == PNS_GHI_SAFE) {
            self->refs = refs;
            if (refs == REFS_SET) {
                D->assume->keep(D->assume->ctx, self->key, best < 0 ? 0 : orig[best]);
                pns_tt_flag(D->tt, self->key, TT_MARK, -1);
            } else {
                /* flagged either way: a proof writer reads it as "solved on some path" */
                S->path_dependent += cond_store(D, self->key, pn == 0, refs) != 0;
                pns_tt_flag(D->tt, self->key, TT_COND, best < 0 ? -1 : orig[best]);
            }
            return;
        }
    }
    pns_tt_store(D->tt, self->key, pn, dn, work > UINT32_MAX ? UINT32_MAX : (uint32_t)work, best < 0 ? 0 : orig[best],
             self->tag);
    S->fill = pns_tt_fill(D->tt);
}

void pns_dfpn_mid(dfpn *D, const game_state *st, int depth, uint32_t thpn, uint32_t thdn, child_t *self)
{
    pns_search *S = &D->S;
    const game *g = S->g;
    if (pns_search_tick(S))
        return;
    mid_upkeep(D);
    if (mid_exact(D, st, self))
        return;
    child_t *c = frame_at(D, depth);
    int or_node = game_to_move(g, st) == S->prover;
    if (pns_path_push(S, self->key) != 0) {
        busy_leave(D, self->key);
        return;
    }
    uint8_t orig[GAME_MAX_MOVES];
    int n = mid_children(D, st, depth, c, orig);
    uint64_t nodes0 = S->nodes;
    uint32_t pn, dn;
    int best = 0;
    for (;;) {
        combine(c, n, or_node, S->o->weak, &pn, &dn);
        if (depth == 0) {
            S->root_pn = pn;
            S->root_dn = dn;
        } else if (depth == 1) {
            S->sub_pn = pn;
            S->sub_dn = dn;
        }
        if (pn == 0 || dn == 0 || pn >= thpn || dn >= thdn || S->stopped)
            break;
        uint32_t cth[2];
        best = mid_choose(D, c, n, or_node, thpn, thdn, pn, dn, cth);
        game_state cs = *st;
        game_play(g, &cs, c[best].move);
        if (or_node)
            pns_dfpn_mid(D, &cs, depth + 1, cth[0], cth[1], &c[best]);
        else
            pns_dfpn_mid(D, &cs, depth + 1, cth[1], cth[0], &c[best]);
    }
    busy_leave(D, self->key);
    pns_path_pop(S);
    mid_store(D, self, c, n, or_node, pn, dn, best, orig, S->nodes - nodes0 + 1);
}

/* Follows the stored best moves from the root while they stay solved and off
 * the path; a path-dependent root result ends the line at once. */
void pns_dfpn_line(dfpn *D, const game_state *root, pns_result *r)
{
    const game *g = D->S.g;
    game_state s = *root;
    pns_path_clear(&D->S);
    r->pv_len = 0;
    while (r->pv_len < PNS_MAX_PV) {
        game_key k = game_key_of(g, &s);
        const tt_entry *e = pns_dfpn_lookup(D, k);
        if (!e || (e->pn != 0 && e->dn != 0) || pns_path_find(&D->S, k) >= 0)
            break;
        game_move mv[GAME_MAX_MOVES];
        int n = game_moves(g, &s, mv);
        if (e->best >= n)
            break;
        pns_path_push(&D->S, k);
        r->pv[r->pv_len++] = mv[e->best];
        game_play(g, &s, mv[e->best]);
        uint32_t pn, dn;
        if (pns_search_leaf(&D->S, &s, &pn, &dn) || pns_search_exact_region(&D->S, &s))
            break;
    }
    pns_search_table_line(&D->S, &s, r);
    pns_path_clear(&D->S);
}

int pns_dfpn_run(dfpn *D, const game_state *s, child_t *root)
{
    pns_search *S = &D->S;
    root->refs = 0;
    if (pns_search_leaf(S, s, &root->pn, &root->dn)) {
        root->key = game_key_of(S->g, s);
        return 1;
    }
    root->key = game_key_of(S->g, s);
    root->pn = root->dn = 1;
    while (!S->stopped && root->pn != 0 && root->dn != 0)
        pns_dfpn_mid(D, s, S->depth, PNS_INF, PNS_INF, root);
    return root->pn == 0 || root->dn == 0;
}

/* --- checkpoints: the two tables and the counters, for a later --resume --- */

/* 2: XXH3 sums of the tables and of the header: a forged entry (a node
 * marked proven) would be taken up as the search's own. */
#define CKPT_MAGIC "PNSCKPT2"

typedef struct {
    char magic[8];
    char game[64];
    uint64_t root_lo, root_hi;
    uint32_t question, prover;
    uint64_t buckets, cond_buckets, nodes;
    double seconds;
    uint64_t data_sum;        /* XXH3 of the two tables as written */
    uint64_t header_sum;      /* XXH3 of this header with this field 0 */
} ckpt_header;

static uint64_t ckpt_header_sum(ckpt_header h)
{
    h.header_sum = 0;
    return XXH3_64bits(&h, sizeof h);
}

static void ckpt_describe(const dfpn *D, const game_state *s, ckpt_header *h)
{
    memset(h, 0, sizeof *h);
    memcpy(h->magic, CKPT_MAGIC, 8);
    /* a game a file defines is named by that file's content, not its path */
    const game *g = D->S.g;
    if (g->content[0])
        snprintf(h->game, sizeof h->game, "blake2b:%.55s", g->content);
    else
        snprintf(h->game, sizeof h->game, "%.63s", g->name);
    game_key k = game_key_of(D->S.g, s);
    h->root_lo = k.lo;
    h->root_hi = k.hi;
    h->question = (uint32_t)D->S.o->question;
    h->prover = (uint32_t)D->S.prover;
    h->buckets = D->tt->buckets;
    h->cond_buckets = D->cond_buckets;
}

/* Writes the tables to o->checkpoint (through a temporary file). */
static int ckpt_save(dfpn *D, const game_state *s)
{
    const char *path = D->S.o->checkpoint;
    util_file out;
    if (util_file_create(&out, path, "wb", NULL, 0) != 0)
        return util_error(D->S.error, sizeof D->S.error, "cannot write checkpoint '%s'", out.tmp);
    FILE *f = out.f;
    ckpt_header h;
    ckpt_describe(D, s, &h);
    h.nodes = D->S.nodes_before + D->S.nodes;
    h.seconds = D->S.seconds_before + util_clock() - D->S.t0;
    size_t tt_n = D->tt->buckets * TT_WAYS, cond_n = D->cond_buckets * 2;
    XXH3_state_t *x = XXH3_createState();
    int ok = x && XXH3_64bits_reset(x) == XXH_OK &&
             XXH3_64bits_update(x, D->tt->e, tt_n * sizeof(tt_entry)) == XXH_OK &&
             XXH3_64bits_update(x, D->cond, cond_n * sizeof(cond_entry)) == XXH_OK;
    h.data_sum = ok ? XXH3_64bits_digest(x) : 0;
    XXH3_freeState(x);
    h.header_sum = ckpt_header_sum(h);
    ok = ok && fwrite(&h, sizeof h, 1, f) == 1 && fwrite(D->tt->e, sizeof(tt_entry), tt_n, f) == tt_n &&
         fwrite(D->cond, sizeof(cond_entry), cond_n, f) == cond_n;
    if (util_file_commit(&out, ok, NULL, 0) != 0 || !ok)
        return util_error(D->S.error, sizeof D->S.error, "cannot write checkpoint '%s'", path);
    return 0;
}

/* Reads a checkpoint of another --memory entry by entry into this search's
 * tables: a bigger table keeps everything, a smaller one what its buckets
 * hold (every entry is only a cached value, so losing some is safe). */
static int ckpt_rehash(dfpn *D, FILE *f, uint64_t tt_n, uint64_t cond_n, XXH3_state_t *x)
{
    enum { CHUNK = 4096 };
    tt_entry *te = malloc(CHUNK * sizeof *te);
    cond_entry *ce = malloc(CHUNK * sizeof *ce);
    int rc = te && ce ? 0 : -1;
    for (uint64_t i = 0; rc == 0 && i < tt_n; i += CHUNK) {
        size_t n = tt_n - i < CHUNK ? (size_t)(tt_n - i) : CHUNK;
        if (fread(te, sizeof te[0], n, f) != n || XXH3_64bits_update(x, te, n * sizeof te[0]) != XXH_OK)
            rc = -1;
        else
            for (size_t k = 0; k < n; k++) {
                if (te[k].pn == 0 && te[k].dn == 0)
                    continue;
                game_key key = { te[k].lo, te[k].hi };
                tt_entry *e = pns_tt_store(D->tt, key, te[k].pn, te[k].dn, te[k].work, te[k].best, te[k].tag);
                e->flags = te[k].flags;
            }
    }
    for (uint64_t i = 0; rc == 0 && i < cond_n; i += CHUNK) {
        size_t n = cond_n - i < CHUNK ? (size_t)(cond_n - i) : CHUNK;
        if (fread(ce, sizeof ce[0], n, f) != n || XXH3_64bits_update(x, ce, n * sizeof ce[0]) != XXH_OK)
            rc = -1;
        else
            for (size_t k = 0; k < n; k++)
                if (ce[k].used)
                    *cond_slot(D, (game_key){ ce[k].lo, ce[k].hi }) = ce[k];
    }
    free(te);
    free(ce);
    return rc;
}

static int ckpt_load(dfpn *D, const game_state *s)
{
    const char *path = D->S.o->resume;
    FILE *f = util_fopen_regular(path);
    if (!f)
        return util_error(D->S.error, sizeof D->S.error, "cannot read checkpoint '%s': %s", path,
                          util_open_why(errno));
    ckpt_header h, want;
    ckpt_describe(D, s, &want);
    int ok = fread(&h, sizeof h, 1, f) == 1;
    if (!ok || memcmp(h.magic, "PNSCKPT", 7) != 0) {
        fclose(f);
        return util_error(D->S.error, sizeof D->S.error, "'%s' is not a pnsolve checkpoint", path);
    }
    if (memcmp(h.magic, want.magic, 8) != 0 || h.header_sum != ckpt_header_sum(h)) {
        fclose(f);
        return util_error(D->S.error, sizeof D->S.error, memcmp(h.magic, want.magic, 8) != 0
                          ? "checkpoint '%s' is of an older pnsolve, without checksums: search afresh"
                          : "checkpoint '%s' is damaged (its header's checksum)", path);
    }
    if (strcmp(h.game, want.game) != 0 || h.root_lo != want.root_lo || h.root_hi != want.root_hi ||
        h.question != want.question || h.prover != want.prover) {
        fclose(f);
        return util_error(D->S.error, sizeof D->S.error,
                          "checkpoint '%s' is for another game, position or question", path);
    }
    while (D->tt->doublings > 0 && D->tt->buckets < h.buckets)
        dfpn_grow(D);
    want.buckets = D->tt->buckets;
    XXH3_state_t *x = XXH3_createState();
    ok = x && XXH3_64bits_reset(x) == XXH_OK;
    if (ok && h.buckets == want.buckets && h.cond_buckets == want.cond_buckets) {
        size_t tt_n = D->tt->buckets * TT_WAYS, cond_n = D->cond_buckets * 2;
        ok = fread(D->tt->e, sizeof(tt_entry), tt_n, f) == tt_n &&
             fread(D->cond, sizeof(cond_entry), cond_n, f) == cond_n &&
             XXH3_64bits_update(x, D->tt->e, tt_n * sizeof(tt_entry)) == XXH_OK &&
             XXH3_64bits_update(x, D->cond, cond_n * sizeof(cond_entry)) == XXH_OK;
    } else if (ok) {
        ok = ckpt_rehash(D, f, h.buckets * TT_WAYS, h.cond_buckets * 2, x) == 0;
    }
    int whole = ok && fgetc(f) == EOF, sound = whole && XXH3_64bits_digest(x) == h.data_sum;
    XXH3_freeState(x);
    fclose(f);
    D->cond_stored = 1;  /* whatever the checkpoint held is cleared with the next question */
    if (!sound) {
        /* what was read may be in the tables: nothing of this search is used */
        return util_error(D->S.error, sizeof D->S.error, "checkpoint '%s' is %s", path,
                          whole ? "damaged (its tables' checksum)" : "truncated");
    }
    size_t tt_n = D->tt->buckets * TT_WAYS;
    D->tt->used = 0;
    for (size_t i = 0; i < tt_n; i++)
        D->tt->used += D->tt->e[i].pn != 0 || D->tt->e[i].dn != 0;
    D->S.nodes_before = h.nodes;
    D->S.seconds_before = h.seconds;
    return 0;
}

int pns_dfpn_start(dfpn *D, const game_state *s)
{
    if (D->S.o->resume && ckpt_load(D, s) != 0)
        return -1;
    D->root_state = s;
    return 0;
}

int pns_dfpn_checkpoint(dfpn *D, const game_state *s)
{
    return D->S.o->checkpoint ? ckpt_save(D, s) : 0;
}
