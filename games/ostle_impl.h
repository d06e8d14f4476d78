/* games/ostle_impl.h - private to games/: Ostle's state layout, shared by
 * the rules (ostle.c), the rules backwards (ostle_unmove.c) and the tables'
 * state index (ostle_tb.c), which depend on each other in that order. */
#ifndef PNSOLVE_OSTLE_IMPL_H
#define PNSOLVE_OSTLE_IMPL_H

#include "game_impl.h"

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

/* The moves that rule 8 can forbid in s's position: those some state with a
 * move into it leaves forbidden (the hole moved back; a chain pushed back
 * from its far end, which is the side to move's piece), into
 * out[GAME_MAX_MOVES]; returns the count.  The states of a position are it
 * with none or one of these forbidden: the index space of a rule-8 builder. */
int ostle_forbiddable(const game *g, const game_state *s, game_move *out);

/* The tables' operations (ostle_tb.c) and what they keep. */
extern const game_tb_ops ostle_tb_ops;
/* What the tables keep for a board size: NULL when out of memory. */
struct ostle_tb *ostle_tb_new(int w, int h);
void ostle_tb_free(struct ostle_tb *t);

#endif
