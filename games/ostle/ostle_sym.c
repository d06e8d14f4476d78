/* games/ostle/ostle_sym.c - Ostle's positions under the board's symmetries,
 * for the tables (ostle_tb.c) and their census (ostle_census.c): the board
 * of a position index, move images and symmetry-class keys. */
#include "ostle_impl.h"

#include <string.h>

void ostle_board(const game *g, int mat, uint64_t p, game_state *s)
{
    const struct ostle_tb *t = geom(g)->tb;
    uint64_t split = ostle_split(t, mat);
    int a = mat / 8, b = mat % 8;
    int mover = p < split ? a : b, other = p < split ? b : a;
    unsigned hole;
    uint32_t ms, os;
    rank_ostle_unindex(&t->r, mover, other, p < split ? p : p - split, &hole, &ms, &os);
    memset(s, 0, sizeof *s);
    s->w[0] = ms;
    s->w[1] = os;
    set_meta(s, hole, 0, NO_MOVE);
}

int ostle_board_canonical(const game *g, int mat, uint64_t p, game_state *s)
{
    const struct ostle_tb *t = geom(g)->tb;
    ostle_board(g, mat, p, s);
    uint64_t split = ostle_split(t, mat);
    return rank_ostle_index(&t->r, hole_of(s), (uint32_t)s->w[0], (uint32_t)s->w[1]) == (p < split ? p : p - split);
}

/* Lists are a few dozen long: insertion sort beats qsort's calls through a
 * pointer. */
int ostle_distinct(uint64_t *v, int n)
{
    for (int i = 1; i < n; i++) {
        uint64_t x = v[i];
        int j = i;
        for (; j > 0 && v[j - 1] > x; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
    int m = 0;
    for (int i = 0; i < n; i++)
        if (!m || v[m - 1] != v[i])
            v[m++] = v[i];
    return m;
}

/* The least image, over the symmetries that put the hole on its class's
 * square, of the two sets and the forbidden move: far cheaper than the
 * entry (no ranks, no index arrays). */
uint64_t ostle_orbit_key(const game *g, const game_state *s)
{
    const ostle_geom *gm = geom(g);
    const rank_ostle *r = &gm->tb->r;
    int side = side_of(s);
    unsigned hole = hole_of(s), f = forbidden_of(s), cls = (unsigned)r->cls[hole];
    uint64_t best = UINT64_MAX;
    for (int k = 0; k < r->nsym; k++) {
        if (r->map[k][hole] != r->rep[cls])
            continue;
        uint64_t fk = f == NO_MOVE ? 0x7F : ostle_map_move(gm, r, k, f);
        uint64_t key = rank_ostle_image(r, k, (uint32_t)s->w[side]) | (uint64_t)rank_ostle_image(r, k, (uint32_t)s->w[!side]) << 25 | fk << 50;
        if (key < best)
            best = key;
    }
    return best | (uint64_t)cls << 57;
}

