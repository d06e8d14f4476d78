/* games/jungle/jungle_impl.h - private to games/: Jungle Checkers' state layout
 * and board, shared by the rules (jungle.c), the tables' support
 * (jungle_tb.c) and the move generator both use (jungle_board.c), which
 * depend on each other in that order. */
#ifndef PNSOLVE_JUNGLE_IMPL_H
#define PNSOLVE_JUNGLE_IMPL_H

#include "../game_impl.h"

#define JUNGLE_ABSENT 0xFFu
#define BOARD_MASK ((1ULL << 49) - 1)
#define FILE_A 0x0040810204081ULL /* a1, a2, ... a7 */
#define FILE_G (FILE_A << 6)
#define FILE_D (FILE_A << 3)
#define DEN_WHITE 3   /* d1 */
#define DEN_BLACK 45  /* d7 */

static const int den_of[2] = { DEN_WHITE, DEN_BLACK };

static inline unsigned sq_of(const game_state *s, int p) { return (unsigned)(s->w[2] >> (8 * p)) & 0xFFu; }

static inline void set_sq(game_state *s, int p, unsigned sq)
{
    s->w[2] = (s->w[2] & ~(0xFFULL << (8 * p))) | ((uint64_t)sq << (8 * p));
}

static inline uint64_t neighbours(uint64_t b)
{
    return ((b << 7) & BOARD_MASK) | (b >> 7) | ((b << 1) & ~FILE_A & BOARD_MASK) | ((b >> 1) & ~FILE_G);
}

/* The game ended with the last move: the mover reached the den of the side
 * to move, or took its last piece. */
static inline int ended_for(const uint64_t colour[2], int c)
{
    return (colour[1 - c] >> den_of[c]) & 1 || colour[c] == 0;
}

static inline int ended_by_last_move(const game_state *s) { return ended_for(s->w, (int)s->w[3]); }

/* jungle_board.c: the squares a piece of each strength of side c may move
 * to (empty squares and the opponent pieces it may capture, never its own
 * den), and the moves of s onto squares of `onto`, into out;
 * *elsewhere counts the others (the tables' first pass wants captures and
 * den entries only). */
void jungle_target_masks(const game *g, const game_state *s, int c, uint64_t target[4]);
int jungle_moves_onto(const game *g, const game_state *s, uint64_t onto, game_move *out, int *elsewhere);

/* jungle_tb.c: the tables' operations, and the square/location/material
 * tables they read, filled by jungle_tb_init when a game opens. */
extern const game_tb_ops jungle_tb_ops;
void jungle_tb_init(void);

#endif
