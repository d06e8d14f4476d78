/* campaign/tree.c - the tree above the frontier: each position once
 * (transpositions share a node), one child per symmetry class among
 * siblings (the joiner answers the others with 'sym' lines). */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

static cnode *node_of(campaign *c, const game_state *s, char *err, size_t errlen)
{
    game_key k = game_key_of(c->g, s);
    cnode *n;
    HASH_FIND(hh, c->by_key, &k, sizeof k, n);
    if (n)
        return n;
    if (c->n == c->cap) {
        int cap = c->cap ? c->cap * 2 : 256;
        cnode **a = realloc(c->node, sizeof *a * (size_t)cap);
        if (!a)
            return snprintf(err, errlen, "out of memory for the tree"), NULL;
        c->node = a, c->cap = cap;
    }
    char text[GAME_TEXT_MAX];
    game_format(c->g, s, text, sizeof text);
    if (!(n = calloc(1, sizeof *n)) || !(n->text = strdup(text))) {
        free(n);
        return snprintf(err, errlen, "out of memory for the tree"), NULL;
    }
    game_move mv[GAME_MAX_MOVES];
    n->key = k;
    n->s = *s;
    n->id = c->n;
    n->nkids = -1;
    n->mover = game_to_move(c->g, s);
    n->mobility = game_moves(c->g, s, mv);
    n->ended = game_result_of(c->g, s) != GAME_ONGOING;
    if (c->estimator && !n->ended && !game_solver_estimate(c->g, c->estimator, s, &n->estimate))
        n->estimate = 0;
    c->node[c->n++] = n;
    HASH_ADD(hh, c->by_key, key, sizeof n->key, n);
    return n;
}

/* n's children, one per symmetry class among them, each expanded left more
 * moves deep. */
static int expand(campaign *c, cnode *n, int left, char *err, size_t errlen)
{
    if (n->visited)
        return 0;
    n->visited = 1;
    if (left == 0 || n->ended)
        return 0;
    game_move mv[GAME_MAX_MOVES];
    int m = game_moves(c->g, &n->s, mv), id = n->id;
    game_key seen[GAME_MAX_MOVES];
    int *kids = malloc(sizeof *kids * (size_t)m);
    game_move *moves = malloc(sizeof *moves * (size_t)m);
    if (!kids || !moves)
        return free(kids), free(moves), snprintf(err, errlen, "out of memory for the tree"), -1;
    int nk = 0;
    for (int i = 0; i < m; i++) {
        game_state cs = c->node[id]->s;
        game_play(c->g, &cs, mv[i]);
        game_key sk = game_symmetric_key(c->g, &cs);
        int dup = 0;
        for (int j = 0; j < nk && !dup; j++)
            dup = game_key_equal(seen[j], sk);
        if (dup)
            continue;
        cnode *ch = node_of(c, &cs, err, errlen);  /* may move c->node: n is found again by id */
        if (!ch)
            return free(kids), free(moves), -1;
        seen[nk] = sk;
        moves[nk] = mv[i];
        kids[nk++] = ch->id;
    }
    n = c->node[id];
    n->kids = kids, n->kid_moves = moves, n->nkids = nk;
    for (int i = 0; i < nk; i++)
        if (expand(c, c->node[kids[i]], left - 1, err, errlen) != 0)
            return -1;
    return 0;
}

int campaign_tree_root(campaign *c, char *err, size_t errlen)
{
    game_state s;
    if (game_parse(c->g, c->spec.position, &s, err, errlen) != 0)
        return -1;
    cnode *root = node_of(c, &s, err, errlen);
    return root ? expand(c, root, c->spec.depth, err, errlen) : -1;
}

cnode *campaign_tree_find(campaign *c, const char *position, char *err, size_t errlen)
{
    game_state s;
    char why[256];
    if (game_parse(c->g, position, &s, why, sizeof why) != 0)
        return snprintf(err, errlen, "%s", why), NULL;
    game_key k = game_key_of(c->g, &s);
    cnode *n;
    HASH_FIND(hh, c->by_key, &k, sizeof k, n);
    if (!n)
        snprintf(err, errlen, "position %s is not in the campaign's tree", position);
    return n;
}

int campaign_tree_deepen(campaign *c, cnode *n, char *err, size_t errlen)
{
    if (n->nkids >= 0)
        return 0;  /* made deeper already */
    if (n->ended)
        return snprintf(err, errlen, "%s: the game is over here, it cannot go a move deeper", n->text), -1;
    n->visited = 0;
    return expand(c, n, 1, err, errlen);
}

void campaign_tree_child_question(const cnode *p, const cnode *ch, int k, int want, int *ck, int *cwant)
{
    if (ch->mover == p->mover) {  /* a pass: the same side asks the same */
        *ck = k, *cwant = want;
    } else {
        *ck = 1 - k;  /* "at least k" for one side is "less than 1 - k" for the other */
        *cwant = !want;
    }
}

void campaign_tree_free(campaign *c)
{
    HASH_CLEAR(hh, c->by_key);
    for (int i = 0; i < c->n; i++) {
        cnode *n = c->node[i];
        free(n->text), free(n->kids), free(n->kid_moves), free(n->lo_file), free(n->hi_file), free(n);
    }
    free(c->node);
    c->node = NULL, c->n = c->cap = 0;
}
