/* games/ostle/ostle_impl.h - private to games/: Ostle's state layout, shared by
 * the rules (ostle.c), the rules backwards (ostle_unmove.c) and the tables'
 * state index (ostle_tb.c).  The parser (ostle.c) accepts a forbidden move
 * only where ostle_forbiddable names it, which is the index's space. */
#ifndef PNSOLVE_OSTLE_IMPL_H
#define PNSOLVE_OSTLE_IMPL_H

#include "../game_impl.h"
#include "../../ranking/ranking.h"

#include <pthread.h>

#define NO_MOVE 0xFFFFu
enum { DIR_U, DIR_D, DIR_L, DIR_R };

typedef struct {
    int w, h, cells, lose_at;
    int8_t step[25][4];   /* neighbour square in a direction, -1 off the board */
    uint32_t nbr[25];     /* all neighbours as a mask */
    uint32_t board;       /* every square */
    uint32_t steps_on[4]; /* the squares whose step in a direction stays on the board */
    int8_t delta[4];      /* that step, as a change of square number */
    struct ostle_tb *tb;  /* the state index of the tables, made on first use */
} ostle_geom;

static inline ostle_geom *geom(const game *g) { return g->data; }
static inline unsigned hole_of(const game_state *s) { return (unsigned)(s->w[2] & 0xFF); }
static inline int side_of(const game_state *s) { return (int)((s->w[2] >> 8) & 1); }
static inline unsigned forbidden_of(const game_state *s) { return (unsigned)(s->w[2] >> 16) & 0xFFFF; }

/* The squares one step from those of set in direction d (off the board: none). */
static inline uint32_t step_set(const ostle_geom *gm, uint32_t set, int d)
{
    set &= gm->steps_on[d];
    return gm->delta[d] > 0 ? set << gm->delta[d] : set >> -gm->delta[d];
}

static inline void set_meta(game_state *s, unsigned hole, int side, unsigned forbidden)
{
    s->w[2] = hole | (uint64_t)side << 8 | (uint64_t)forbidden << 16;
}

/* ostle_unmove.c: Ostle positions from which one move that removes no piece leads to s's
 * position (the forbidden move of s is ignored; theirs is none), into
 * out[GAME_MAX_MOVES], and that move into moves[] unless it is NULL; returns
 * the count. */
int ostle_unmoves(const game *g, const game_state *s, game_state *out, game_move *moves);
/* The same for state s: only the moves that leave s's forbidden move (or
 * none) forbidden, so that they lead to s itself; moves[] is required. */
int ostle_unmoves_state(const game *g, const game_state *s, game_state *out, game_move *moves);

/* Positions from which one move that removes a piece (and does not end
 * the game) leads to s's position, each once, into out[GAME_MAX_MOVES];
 * returns the count. */
int ostle_uncaptures(const game *g, const game_state *s, game_state *out);

/* The moves that rule 8 can forbid in s's position: those some state with a
 * move into it leaves forbidden (the hole moved back; a chain pushed back
 * from its far end, which is the side to move's piece), into
 * out[GAME_MAX_MOVES]; returns the count.  The states of a position are it
 * with none or one of these forbidden: the index space of a rule-8 builder. */
int ostle_forbiddable(const game *g, const game_state *s, game_move *out);

/* What the tables keep for a board size (ostle_tb.c). */
struct ostle_tb {
    rank_ostle r;
    uint64_t split[64];   /* ostle_split of each material */
};

#define OSTLE_MAT(a, b) ((a) * 8 + (b))
/* Positions [0, split) of material (a, b) have a pieces on the side to move. */
static inline uint64_t ostle_split(const struct ostle_tb *t, int mat)
{
    return rank_ostle_size(&t->r, mat / 8, mat % 8);
}

/* ostle_sym.c: the board of position p of material mat into s (side 0 to
 * move, nothing forbidden). */
void ostle_board(const game *g, int mat, uint64_t p, game_state *s);
/* The same; 1 if p is its own least index (a canonical position, whose
 * states the table holds), 0 for a twin position. */
int ostle_board_canonical(const game *g, int mat, uint64_t p, game_state *s);
/* Image of move f (a square and a direction whose step stays on the board)
 * under symmetry k; NO_MOVE if there is none. */
static inline unsigned ostle_map_move(const ostle_geom *gm, const rank_ostle *r, int k, unsigned f)
{
    unsigned from = r->map[k][f >> 2], to = r->map[k][gm->step[f >> 2][f & 3]];
    for (unsigned d = 0; d < 4; d++)
        if (gm->step[from][d] == (int)to)
            return from * 4 + d;
    return NO_MOVE;
}

/* A state's symmetry class as a number: equal exactly when the states
 * share a table entry (colour-free: the side to move's set first). */
uint64_t ostle_orbit_key(const game *g, const game_state *s);
/* Sorts v[0..n) and drops repeats; returns the new count. */
int ostle_distinct(uint64_t *v, int n);

/* ostle_census.c: the states of positions [first, end) of mat by the
 * classes of ostle_census_classes (game_tb_ops.census). */
void ostle_census(const game *g, int mat, uint64_t first, uint64_t end, uint64_t *counts);
extern const game_census_class ostle_census_classes[];

/* The tables' operations (ostle_tb.c) and what they keep. */
extern const game_tb_ops ostle_tb_ops;
/* What the tables keep for a board size: NULL when out of memory. */
struct ostle_tb *ostle_tb_new(int w, int h);
void ostle_tb_free(struct ostle_tb *t);

#endif
