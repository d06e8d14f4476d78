/* puzzle/find.c - composing: random positions, kept when the side to
 * move wins in exactly n and the problem is sound.
 *
 * With tables, positions are drawn from them (an index is already reduced by
 * symmetry and colour swap, so (material, index) names a puzzle once) and
 * their distance is read, not searched.  Without, positions come from random
 * games from the start and the depth-bounded search decides; the game's
 * symmetric key (if any) merges images.
 */
#include "puzzle.h"
#include "../tbfile/tbfile.h"
#include "../util/util.h"

#include <stdlib.h>
#include <uthash.h>

typedef struct {
    game_key key;
    UT_hash_handle hh;
} seen_entry;

/* 1 if key was not seen before (and remembers it), 0 if it was, -1 no memory. */
static int first_time(seen_entry **seen, game_key key)
{
    seen_entry *e;
    HASH_FIND(hh, *seen, &key, sizeof key, e);
    if (e)
        return 0;
    if (!(e = calloc(1, sizeof *e)))
        return -1;
    e->key = key;
    HASH_ADD(hh, *seen, key, sizeof e->key, e);
    return 1;
}

static void forget_all(seen_entry **seen)
{
    seen_entry *e, *tmp;
    HASH_ITER(hh, *seen, e, tmp) {
        HASH_DEL(*seen, e);
        free(e);
    }
}

typedef struct {
    tb_set *tb;
    int mats[4096], n;
    double weight[4096];  /* cumulative share of the positions */
} table_pool;

/* The materials asked for whose tables are in tb; 0, or -1 with err. */
static int pool_open(const game *g, tb_set *tb, const puzzle_search *q, table_pool *pool, char *err, size_t errlen)
{
    const game_tb_ops *ops = game_tables(g);
    int all[4096], m = 0;
    if (q->material >= 0) {
        all[m++] = q->material;
    } else {
        int k = ops->materials(g, q->pieces, all, 4096);
        for (int i = 0; i < k; i++)
            if (ops->material_pieces(g, all[i]) == q->pieces)
                all[m++] = all[i];
    }
    double total = 0;
    pool->tb = tb;
    pool->n = 0;
    for (int i = 0; i < m; i++) {
        int rc = tb_load(tb, all[i], err, errlen);
        if (rc < 0)
            return -1;
        if (rc == 0)
            continue;
        total += (double)ops->size(g, tb_index_need(tb_set_index(tb), all[i]), all[i]);  /* made by tb_load */
        pool->mats[pool->n] = all[i];
        pool->weight[pool->n++] = total;
    }
    if (pool->n == 0)
        return util_error(err, errlen, "no tables for the material asked (build them with 'pnsolve tb build')");
    for (int i = 0; i < pool->n; i++)
        pool->weight[i] /= total;
    return 0;
}

/* A random position from the tables whose value is a win in exactly n. */
static int draw_from_tables(pns_mate *m, const table_pool *pool, int n, uint64_t *rng, game_state *s, game_key *id)
{
    const game *g = pns_mate_game(m);
    double x = (double)(util_random(rng) >> 11) / 9007199254740992.0;
    int k = 0;
    while (k + 1 < pool->n && pool->weight[k] < x)
        k++;
    if (tb_draw_position(pool->tb, g, pool->mats[k], rng, s) != 0)
        return 0;
    const game_tb_index *ix = tb_index_need(tb_set_index(pool->tb), pool->mats[k]);
    *id = (game_key){ game_tables(g)->index(g, ix, s), (uint64_t)pool->mats[k] };
    tb_value v;
    int rc = pns_mate_value(m, s, &v);
    if (rc <= 0)
        return rc;
    return v.wdl == TB_WIN && v.distance == n;
}

/* A random move of s that does not lose at once, if it has one: random
 * games that throw themselves away end before anything happens (Ostle). */
static game_move sensible_move(const game *g, const game_state *s, const game_move *mv, int n, uint64_t *rng)
{
    int keep[GAME_MAX_MOVES], k = 0, me = game_to_move(g, s);
    for (int i = 0; i < n; i++) {
        game_state t = *s;
        game_play(g, &t, mv[i]);
        game_result r = game_result_of(g, &t);
        if (r == GAME_ONGOING || game_outcome_for(r, me) >= 0)
            keep[k++] = i;
    }
    return k ? mv[keep[util_random(rng) % (uint64_t)k]] : mv[util_random(rng) % (uint64_t)n];
}

/* A position of a random game from the start - a few plies before its end,
 * where short wins are, or after q->playout_plies if it lasts longer -
 * whose side to move wins in exactly n. */
static int draw_from_playouts(pns_mate *m, const puzzle_search *q, uint64_t *rng, game_state *s, game_key *id)
{
    const game *g = pns_mate_game(m);
    game_state line[64];  /* the last plies of the game, as a ring */
    int len = 0;
    game_start(g, &line[0]);
    game_move mv[GAME_MAX_MOVES];
    while (len < q->playout_plies && game_result_of(g, &line[len % 64]) == GAME_ONGOING) {
        const game_state *cur = &line[len % 64];
        int n = game_moves(g, cur, mv);
        game_state next = *cur;
        game_play(g, &next, sensible_move(g, cur, mv, n, rng));
        line[++len % 64] = next;
    }
    int back = 1 + (int)(util_random(rng) % (uint64_t)(q->n + 2 < 63 ? q->n + 2 : 63));
    if (back > len)
        back = len;
    *s = line[(len - back) % 64];
    if (game_result_of(g, s) != GAME_ONGOING)
        return 0;
    *id = game_symmetric_key(g, s);
    int w = pns_mate_win(m, s, q->n);
    if (w <= 0)
        return w;
    if (q->n >= 3 && (w = pns_mate_win(m, s, q->n - 2)) != 0)
        return w < 0 ? -1 : 0;
    return 1;
}

int64_t puzzle_find(pns_mate *m, tb_set *tb, const puzzle_search *q, char *err, size_t errlen)
{
    const game *g = pns_mate_game(m);
    int tables = tb && game_has_tables(g) && (q->pieces > 0 || q->material >= 0);
    table_pool *pool = NULL;
    if (tables) {
        if (!(pool = malloc(sizeof *pool)))
            return util_error(err, errlen, "out of memory");
        if (pool_open(g, tb, q, pool, err, errlen) != 0) {
            free(pool);
            return -1;
        }
    }
    seen_entry *seen = NULL, *drawn = NULL;
    uint64_t rng = q->seed, samples = 0, found = 0, max = q->max_samples ? q->max_samples : 1000000000ULL;
    uint64_t distinct = 0, stale = 0;  /* drawn positions, and draws since the last new one */
    int64_t rc = 0;
    while (found < q->count && samples < max && !(q->stop && *q->stop)) {
        samples++;
        game_state s;
        game_key id = { UINT64_MAX, UINT64_MAX };
        int hit = tables ? draw_from_tables(m, pool, q->n, &rng, &s, &id) : draw_from_playouts(m, q, &rng, &s, &id);
        if (hit < 0) {
            const char *why = pns_mate_error(m);
            rc = util_error(err, errlen, "%s", why ? why : "search failed");
            break;
        }
        /* a small space is drawn again and again: stop once it is seen */
        if (distinct < PUZZLE_TRACK && !(id.lo == UINT64_MAX && id.hi == UINT64_MAX)) {
            int fresh = first_time(&drawn, id);
            if (fresh < 0) {
                rc = util_error(err, errlen, "out of memory");
                break;
            }
            distinct += (uint64_t)fresh;
            stale = fresh ? 0 : stale + 1;
            if (stale > 20 * distinct) {
                if (q->exhausted)
                    *q->exhausted = distinct;
                break;
            }
        }
        if (!hit || (q->side >= 0 && game_to_move(g, &s) != q->side))
            continue;
        int fresh = first_time(&seen, id);
        if (fresh < 0) {
            rc = util_error(err, errlen, "out of memory");
            break;
        }
        if (!fresh)
            continue;
        puzzle_problem p;
        if (puzzle_check(m, &s, q->n, q->unique, q->o, &p, err, errlen) != 0) {
            rc = -1;
            break;
        }
        if (p.sound != 1 || (p.motifs & q->motifs) != q->motifs)
            continue;
        found++;
        if (q->found(&s, &p, q->ctx))
            break;
    }
    forget_all(&seen);
    forget_all(&drawn);
    free(pool);
    return rc < 0 ? -1 : (int64_t)samples;
}
