/* campaign/decide.c - one walk of the tree: is "the mover at this node
 * finishes at least k ahead" proven (want 1) or disproven (want 0), by the
 * answers known?  Where the claim needs one child (want 1), the children are
 * tried by the search's best move, the game's estimate, then the fewest
 * replies; where it needs every child, all.  Open frontier questions go to
 * c->ask; a decided interior node's proof is joined from its children's. */
#include "internal.h"
#include "../proof/proof.h"
#include "../util/util.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static cmemo *memo_find(cmemo *h, int id, int k, int want)
{
    cmemo key = { .key = { id, k, want } }, *m;
    HASH_FIND(hh, h, &key.key, sizeof key.key, m);
    return m;
}

static int memo_put(cmemo **h, int id, int k, int want, int verdict, int chosen, const char *file)
{
    cmemo *m = calloc(1, sizeof *m);
    if (!m || (file && !(m->file = strdup(file))))
        return free(m), -1;
    m->key.id = id, m->key.k = k, m->key.want = want;
    m->verdict = verdict, m->chosen = chosen;
    HASH_ADD(hh, *h, key, sizeof m->key, m);
    return 0;
}

static void memo_clear(cmemo **h)
{
    cmemo *m, *t;
    HASH_ITER(hh, *h, m, t) {
        HASH_DEL(*h, m);
        free(m->file), free(m);
    }
}

void campaign_decide_reset(campaign *c)
{
    memo_clear(&c->memo);
    c->nask = 0;
}

void campaign_decide_free(campaign *c)
{
    campaign_decide_reset(c);
    memo_clear(&c->chosen);
    memo_clear(&c->joined);
}

int campaign_decide_chosen(const campaign *c, int id, int k, int want)
{
    cmemo *m = memo_find(c->chosen, id, k, want);
    return m ? m->chosen : -1;
}

static int ask_add(campaign *c, int id, int k)
{
    if (campaign_flight_has(c, id, k))
        return 0;
    if (c->nask == c->capask) {
        int cap = c->capask ? c->capask * 2 : 64;
        cask *a = realloc(c->ask, sizeof *a * (size_t)cap);
        if (!a)
            return -1;
        c->ask = a, c->capask = cap;
    }
    c->ask[c->nask++] = (cask){ id, k, -1 };
    return 0;
}

/* n's children in the order they are tried where one must hold. */
static void order(const campaign *c, const cnode *n, int *idx)
{
    long rank[GAME_MAX_MOVES];
    for (int i = 0; i < n->nkids; i++) {
        const cnode *ch = c->node[n->kids[i]];
        char mv[GAME_TEXT_MAX] = "";
        if (n->best[0])
            game_format_move(c->g, &n->s, n->kid_moves[i], mv, sizeof mv);
        int e = ch->mover == n->mover ? ch->estimate : -ch->estimate;  /* the claim's side wants it high */
        rank[i] = n->best[0] && strcmp(mv, n->best) == 0 ? LONG_MIN : -(long)e * 1000 + ch->mobility;
        idx[i] = i;
    }
    for (int i = 1; i < n->nkids; i++)  /* an insertion sort: stable, and a node has few children */
        for (int j = i; j > 0 && rank[idx[j - 1]] > rank[idx[j]]; j--) {
            int t = idx[j];
            idx[j] = idx[j - 1], idx[j - 1] = t;
        }
}

/* The proof of n's claim joined from its children's files into path. */
static int join(campaign *c, const cnode *n, char **files, int nf, const char *path, char *err, size_t errlen)
{
    if (access(path, R_OK) == 0 || c->read_only)
        return 0;  /* joined in an earlier walk or run: a joined file is never changed */
    FILE **in = calloc((size_t)nf, sizeof *in);
    util_file out;
    char why[CAMPAIGN_PATH_MAX + 300];
    int rc = in ? 0 : -1;
    for (int i = 0; i < nf && rc == 0; i++)
        if (!(in[i] = util_open_input(files[i], 0, why, sizeof why)))
            rc = (snprintf(err, errlen, "cannot read a proof to join: %s", why), -1);
    if (rc == 0 && util_file_create(&out, path, "w", why, sizeof why) != 0)
        rc = (snprintf(err, errlen, "cannot write %s", why), -1);
    if (rc == 0) {
        int joined = proof_join(c->g, &n->s, in, nf, out.f, NULL, why, sizeof why);
        if (util_file_commit(&out, joined == 0, err, errlen) != 0 || joined != 0)
            rc = joined != 0 ? (snprintf(err, errlen, "joining the proofs of %s: %s", n->text, why), -1) : -1;
    }
    for (int i = 0; in && i < nf; i++)
        if (in[i])
            fclose(in[i]);
    free(in);
    return rc;
}

/* The children of interior node n walked for (k, want). */
static int campaign_decide_children(campaign *c, cnode *n, int k, int want, int *chosen, char **files, int *nf, long *need,
                           char *err, size_t errlen)
{
    int idx[GAME_MAX_MOVES], any_open = 0, first_open = -1, result = -1;
    long sum = 0, least = LONG_MAX;
    order(c, n, idx);
    *nf = 0;
    for (int i = 0; i < n->nkids && result < 0; i++) {
        int ch = n->kids[want ? idx[i] : i], ck, cw, before = c->nask;
        campaign_tree_child_question(n, c->node[ch], k, want, &ck, &cw);
        char *f = NULL;
        long nd = 0;
        int v = campaign_decide(c, ch, ck, cw, &f, &nd, err, errlen);
        n = c->node[n->id];
        if (v < 0)
            return -1;
        if (v == V_OPEN) {
            any_open = 1, sum += nd;
            least = nd < least ? nd : least;
        }
        if (want) {  /* one child: any known to hold; the first open one is asked */
            if (v == V_YES)
                result = V_YES, files[0] = f, *nf = 1, *chosen = ch;
            else if (v == V_OPEN && first_open < 0 && c->nask > before)
                first_open = c->nask;  /* a child whose questions all run adds none: the next is asked meanwhile */
        } else if (v == V_NO) {
            result = V_NO;
        } else {
            files[(*nf)++] = f;
        }
    }
    if (result < 0) {
        if (first_open >= 0)
            result = V_OPEN, c->nask = first_open;
        else
            result = any_open ? V_OPEN : want ? V_NO : V_YES;
    }
    *need = result != V_OPEN ? 0 : want ? least : sum;
    return result;
}

int campaign_decide(campaign *c, int id, int k, int want, char **file, long *need, char *err, size_t errlen)
{
    cnode *n = c->node[id];
    cmemo *m = memo_find(c->memo, id, k, want);
    *file = NULL, *need = 0;
    if (m)
        return *file = m->file, *need = m->need, m->verdict;
    if (n->has_lo && n->lo >= k)
        return *file = want ? n->lo_file : NULL, want ? V_YES : V_NO;
    if (n->has_hi && n->hi <= k)
        return *file = want ? NULL : n->hi_file, want ? V_NO : V_YES;
    if (n->nkids < 0)  /* a frontier question, or the game's end */
        return *need = 1, ask_add(c, id, k) == 0 ? V_OPEN : (snprintf(err, errlen, "out of memory"), -1);
    if (n->visited == 2)  /* a repetition above the frontier: not decided here */
        return V_OPEN;
    char *files[GAME_MAX_MOVES];
    int nf = 0, chosen = -1, asked = c->nask;
    n->visited = 2;
    int v = campaign_decide_children(c, n, k, want, &chosen, files, &nf, need, err, errlen);
    n = c->node[id];
    n->visited = 1;
    if (v == V_OPEN && c->memo_open) {  /* its questions are asked through its first path */
        if (memo_put(&c->memo, id, k, want, v, -1, NULL) != 0)
            return snprintf(err, errlen, "out of memory"), -1;
        memo_find(c->memo, id, k, want)->need = *need;
    }
    if (v < 0 || v == V_OPEN)
        return v;
    char path[CAMPAIGN_PATH_MAX + 128], tail[48];
    snprintf(tail, sizeof tail, "%d.%s.proof", k, want ? "proven" : "disproven");
    campaign_node_path(c, n, "j", tail, path, sizeof path);
    if (v == V_YES && join(c, n, files, nf, path, err, errlen) != 0)
        return -1;
    /* what the children's files joined to must be the claim decided here:
     * read once a run, not on every walk */
    if (v == V_YES && !memo_find(c->joined, id, k, want) && access(path, R_OK) == 0) {
        if (campaign_answers_claimed(c, n, k, want, 1, path, NULL, err, errlen) != 0)
            return -1;
        if (memo_put(&c->joined, id, k, want, v, -1, NULL) != 0)
            return snprintf(err, errlen, "out of memory"), -1;
    }
    c->nask = asked;  /* the questions under a decided node are not needed */
    if (memo_put(&c->memo, id, k, want, v, chosen, v == V_YES ? path : NULL) != 0 ||
        (chosen >= 0 && !memo_find(c->chosen, id, k, want) && memo_put(&c->chosen, id, k, want, v, chosen, NULL) != 0))
        return snprintf(err, errlen, "out of memory"), -1;
    *file = memo_find(c->memo, id, k, want)->file;
    return v;
}
