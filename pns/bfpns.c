/* pns/bfpns.c - best-first proof-number search (Allis 1994), the thesis's
 * algorithm: the whole tree in memory, children freed once their parent is
 * solved, a table of solved positions (Judy, exact keys).
 *
 * GHI: every tree node has a fixed path (its ancestors), so a repetition in
 * the tree is exact.  A solved result is stored in the table only when it does
 * not depend on the path: it carries the depth of the shallowest earlier
 * position its repetitions refer to (as in dfpn.c) and is stored only when
 * that depth is not above its own.  As in the thesis, a stored result also
 * keeps its chain of best moves (up to CHAIN_MAX), and a reuse is refused
 * when that chain runs into the current path. */
#include "bfpns.h"

#include <Judy.h>
#include <stdlib.h>
#include <string.h>

#define CHAIN_MAX 64
#define ARENA_BLOCK ((size_t)1 << 20)

typedef struct {
    uint32_t len;
    game_move move[];
} chain_t;

typedef struct {
    game_key key;
    uint32_t pn, dn;
    uint32_t first;     /* first child in the pool; 0: not expanded */
    uint32_t parent;
    uint32_t dep;       /* repetition tag of a solved value */
    game_move move;     /* from the parent */
    uint16_t nchild;
    uint8_t borrowed;   /* chain belongs to the table */
    uint8_t or_node;    /* the prover is to move */
    chain_t *chain;     /* best line of a solved node */
} node;

typedef struct {
    pns_search S;
    node *pool;
    uint32_t cap, top;
    uint32_t free_head[GAME_MAX_MOVES + 1];  /* freed blocks by size */
    Pvoid_t solved;     /* JudyHS: exact key -> chain_t*, low bit = proven */
    char *arena;        /* the table's chains, in 1 MB blocks chained by their first word */
    size_t arena_used;
    size_t tt_bytes, tt_budget;
    game_state root_state;
    /* The current node's path (Allis 1994): states[d] is the state at depth
     * d, whose keys S's path holds. */
    game_state *states;
    size_t states_cap;
    int depth;
} bfpns;

static uint32_t block_alloc(bfpns *B, int n)
{
    uint32_t b = B->free_head[n];
    if (b) {
        B->free_head[n] = B->pool[b].parent;
        return b;
    }
    if ((uint64_t)B->top + (uint64_t)n > B->cap)
        return 0;
    b = B->top;
    B->top += (uint32_t)n;
    B->S.bytes = (size_t)B->top * sizeof(node) + B->tt_bytes;
    return b;
}

static void subtree_free(bfpns *B, uint32_t x)
{
    node *p = &B->pool[x];
    if (!p->first)
        return;
    for (int i = 0; i < p->nchild; i++) {
        node *c = &B->pool[p->first + i];
        subtree_free(B, p->first + i);
        if (c->chain && !c->borrowed)
            free(c->chain);
        c->chain = NULL;
    }
    B->pool[p->first].parent = B->free_head[p->nchild];
    B->free_head[p->nchild] = p->first;
    p->first = 0;
}

static chain_t *table_get(bfpns *B, game_key key, int *proven)
{
    uint64_t k[2] = { key.lo, key.hi };
    PPvoid_t v = JudyHSGet(B->solved, k, sizeof k);
    if (!v)
        return NULL;
    uintptr_t w = (uintptr_t)*v;
    *proven = (int)(w & 1);
    return (chain_t *)(w & ~(uintptr_t)1);
}

static int table_put(bfpns *B, game_key key, int proven, const chain_t *chain)
{
    size_t sz = sizeof(chain_t) + sizeof(game_move) * chain->len;
    if (B->tt_bytes + sz + 64 > B->tt_budget)
        return -1;
    uint64_t k[2] = { key.lo, key.hi };
    PPvoid_t v = JudyHSIns(&B->solved, k, sizeof k, PJE0);
    if (*v)
        return 0;
    size_t room = (sz + 7) & ~(size_t)7;  /* keeps the next chain aligned */
    if (!B->arena || B->arena_used + room > ARENA_BLOCK) {
        char *blk = malloc(ARENA_BLOCK);
        if (!blk)
            return -1;
        *(char **)blk = B->arena;
        B->arena = blk;
        B->arena_used = sizeof(char *);
    }
    chain_t *c = (chain_t *)(B->arena + B->arena_used);
    B->arena_used += room;
    memcpy(c, chain, sz);
    *v = (void *)((uintptr_t)c | (uintptr_t)(proven != 0));
    B->tt_bytes += sz + 64; /* 64: Judy's share per key, measured roughly */
    return 0;
}

/* Does the stored best line from cs run into the current path? */
static int chain_hits_path(bfpns *B, const game_state *cs, const chain_t *c)
{
    game_state s = *cs;
    for (uint32_t i = 0; i < c->len; i++) {
        game_play(B->S.g, &s, c->move[i]);
        if (pns_path_find(&B->S, game_key_of(B->S.g, &s)) >= 0)
            return 1;
    }
    return 0;
}

static void child_eval(bfpns *B, const game_state *cs, node *c)
{
    pns_search *S = &B->S;
    c->dep = DEP_NONE;
    c->first = 0;
    c->chain = NULL;
    c->borrowed = 0;
    c->key = game_key_of(S->g, cs);
    c->or_node = game_to_move(S->g, cs) == S->prover;
    if (pns_search_leaf(S, cs, &c->pn, &c->dn) || pns_search_exact(S, cs, &c->pn, &c->dn, NULL))
        return;
    int d = pns_path_find(S, c->key);
    if (d >= 0) {
        pns_search_repetition(S, &c->pn, &c->dn);
        c->dep = (uint32_t)d;
        return;
    }
    int proven;
    chain_t *ch = table_get(B, c->key, &proven);
    if (ch && (S->o->ghi == PNS_GHI_NAIVE || !chain_hits_path(B, cs, ch))) {
        c->pn = proven ? 0 : PNS_INF;
        c->dn = proven ? PNS_INF : 0;
        c->chain = ch;
        c->borrowed = 1;
        return;
    }
    pns_search_initial(S, cs, &c->pn, &c->dn);
}

/* Expands leaf x (state st, path already holding x); 0, or -1 when memory ran out. */
static int expand(bfpns *B, uint32_t x, const game_state *st)
{
    const game *g = B->S.g;
    game_move mv[GAME_MAX_MOVES];
    int n = game_moves(g, st, mv);
    uint32_t b = block_alloc(B, n);
    if (!b)
        return -1;
    node *p = &B->pool[x];
    p->first = b;
    p->nchild = (uint16_t)n;
    for (int i = 0; i < n; i++) {
        game_state cs = *st;
        game_play(g, &cs, mv[i]);
        node *c = &B->pool[b + i];
        c->parent = x;
        c->move = mv[i];
        child_eval(B, &cs, c);
    }
    return 0;
}

/* Recomputes x from its children; when it is solved, chooses the best child,
 * builds its chain, stores it when allowed and frees the children. */
static void recompute(bfpns *B, uint32_t x, int depth)
{
    node *p = &B->pool[x];
    int or_node = p->or_node;
    const node *c = &B->pool[p->first];
    int n = p->nchild;
    pn_fold f = pn_fold_start();
    for (int i = 0; i < n; i++)
        pn_fold_child(&f, or_node, c[i].pn, c[i].dn);
    pn_fold_end(&f, or_node, 0, &p->pn, &p->dn);
    if (p->pn != 0 && p->dn != 0)
        return;
    int proven = p->pn == 0, need_all = or_node != proven, best = -1;
    uint32_t dep = need_all ? DEP_NONE : 0, longest = 0;
    for (int i = 0; i < n; i++) {
        uint32_t len = c[i].chain ? c[i].chain->len : 0;
        if (need_all) {
            if (c[i].dep < dep)
                dep = c[i].dep;
            if (best < 0 || len > longest)   /* the longest resistance */
                best = i, longest = len;
        } else if ((proven ? c[i].pn == 0 : c[i].dn == 0) && (best < 0 || c[i].dep > dep)) {
            dep = c[i].dep;
            best = i;
        }
    }
    chain_t *ch = malloc(sizeof(chain_t) + sizeof(game_move) * CHAIN_MAX);
    if (ch) {
        const chain_t *sub = c[best].chain;
        ch->len = 1;
        ch->move[0] = c[best].move;
        for (uint32_t i = 0; sub && i < sub->len && ch->len < CHAIN_MAX; i++)
            ch->move[ch->len++] = sub->move[i];
    }
    p->dep = dep >= (uint32_t)depth ? DEP_NONE : dep;
    if (p->dep != DEP_NONE && B->S.o->ghi == PNS_GHI_SAFE)
        B->S.path_dependent++;
    else if (ch && table_put(B, p->key, proven, ch) != 0 && !B->S.stopped) {
        B->S.stopped = 1;
        B->S.stopped_by = "memory";
    }
    subtree_free(B, x);
    if (p->chain && !p->borrowed)
        free(p->chain);
    p->chain = ch;
    p->borrowed = 0;
}

/* A searcher with a tree of about o->memory bytes and s as its root; NULL
 * with r's error when out of memory. */
static bfpns *bf_new(const game *g, const game_state *s, const pns_options *o, pns_result *r)
{
    bfpns *B = calloc(1, sizeof *B);
    size_t mem = o->memory ? o->memory : (size_t)256 << 20;
    uint64_t cap = mem / 4 * 3 / sizeof(node);
    if (B) {
        B->cap = cap > UINT32_MAX - GAME_MAX_MOVES ? UINT32_MAX - GAME_MAX_MOVES : (uint32_t)cap;
        B->pool = malloc((size_t)B->cap * sizeof(node)); /* pages are touched only as the tree grows */
        B->states_cap = 64;
        B->states = malloc(B->states_cap * sizeof *B->states);
    }
    if (!B || !B->pool || !B->states || pns_search_init(&B->S, g, s, o, NULL) != 0) {
        r->status = PNS_UNKNOWN;
        r->stopped_by = "memory";
        snprintf(r->error, sizeof r->error, "out of memory for a %zu-byte tree", mem);
        if (B) {
            free(B->pool);
            free(B->states);
        }
        free(B);
        return NULL;
    }
    B->tt_budget = mem - (size_t)B->cap * sizeof(node);
    B->top = 2;  /* 0 means "none"; the root is 1 */
    node *root = &B->pool[1];
    memset(root, 0, sizeof *root);
    child_eval(B, s, root);
    B->states[0] = *s;
    pns_path_push(&B->S, root->key);
    return B;
}

/* The most-proving node below x, the path followed pushed (B->depth, its
 * states, S's path); 0 when the path's states find no memory. */
static uint32_t bf_select(bfpns *B, uint32_t x)
{
    while (B->pool[x].first) {
        const node *p = &B->pool[x];
        int or_node = p->or_node, best = 0;
        uint32_t v = PNS_INF + 1;
        for (int i = 0; i < p->nchild; i++) {
            uint32_t w = or_node ? B->pool[p->first + i].pn : B->pool[p->first + i].dn;
            if (w < v)
                v = w, best = i;
        }
        x = p->first + (uint32_t)best;
        if ((size_t)B->depth + 1 == B->states_cap) {
            game_state *grown = realloc(B->states, 2 * B->states_cap * sizeof *B->states);
            if (!grown)
                return 0;
            B->states = grown;
            B->states_cap *= 2;
        }
        B->states[B->depth + 1] = B->states[B->depth];
        game_play(B->S.g, &B->states[B->depth + 1], B->pool[x].move);
        B->depth++;
        pns_path_push(&B->S, B->pool[x].key);
    }
    return x;
}

/* Updates the ancestors of x while their numbers change: the new current
 * node, the first that kept them (nothing above it changed). */
static uint32_t bf_update(bfpns *B, uint32_t x)
{
    for (;;) {
        node *p = &B->pool[x];
        uint32_t pn = p->pn, dn = p->dn;
        recompute(B, x, B->depth);
        if (x == 1 || (p->pn == pn && p->dn == dn && p->pn != 0 && p->dn != 0))
            return x;
        x = p->parent;
        B->depth--;
        pns_path_pop(&B->S);
    }
}

/* The root's answer and line into r, then everything B holds freed. */
static void bf_finish(bfpns *B, const game_state *s, pns_result *r)
{
    pns_search *S = &B->S;
    node *root = &B->pool[1];
    while (S->depth)
        pns_path_pop(S);
    r->status = root->pn == 0 ? PNS_PROVEN : root->dn == 0 ? PNS_DISPROVEN : PNS_UNKNOWN;
    r->pn = root->pn;
    r->dn = root->dn;
    if (root->chain)
        for (uint32_t i = 0; i < root->chain->len && r->pv_len < PNS_MAX_PV; i++)
            r->pv[r->pv_len++] = root->chain->move[i];
    if (r->status != PNS_UNKNOWN) {
        game_state end = *s;
        for (int i = 0; i < r->pv_len; i++)
            game_play(S->g, &end, r->pv[i]);
        pns_search_table_line(S, &end, r);
    }
    pns_search_report(S, r);
    subtree_free(B, 1);
    if (root->chain && !root->borrowed)
        free(root->chain);
    Word_t w;
    JHSFA(w, B->solved);
    (void)w;
    while (B->arena) {
        char *next = *(char **)B->arena;
        free(B->arena);
        B->arena = next;
    }
    pns_search_free(S);
    free(B->states);
    free(B->pool);
    free(B);
}

/* The current node (Allis 1994): ancestors are updated only until one keeps
 * its numbers, and the next most-proving node is sought from there, since
 * nothing above it changed; the path's states are kept so that a chain
 * costs O(1) a step, not O(depth). */
void pns_bfpns_solve(const game *g, const game_state *s, const pns_options *o, pns_result *r)
{
    bfpns *B = bf_new(g, s, o, r);
    if (!B)
        return;
    pns_search *S = &B->S;
    node *root = &B->pool[1];
    uint32_t cur = 1;
    while (!S->stopped && root->pn != 0 && root->dn != 0) {
        uint32_t x = bf_select(B, cur);
        if (x == 0 || pns_search_tick(S) || expand(B, x, &B->states[B->depth]) != 0) {
            if (!S->stopped) {
                S->stopped = 1;
                S->stopped_by = "memory";
            }
            break;
        }
        cur = bf_update(B, x);
        S->root_pn = root->pn;
        S->root_dn = root->dn;
        S->fill = (double)B->top / B->cap;
    }
    bf_finish(B, s, r);
}
